// stint.yaml (lib/src/config/yaml_load.cpp and the checks of config.cpp).
#include <stint/config.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  Machine machine;
  machine.hostname = "vm";
  machine.cpus = 4;
  machine.memory_mb = 16384;
  fuzz::refused_or_parsed([&] {
    const Config c = parse_config(text, "stint.yaml", machine);
    (void)config_to_yaml(c);
    (void)show_config_text(c, 1795975241);
  });
  return 0;
}
