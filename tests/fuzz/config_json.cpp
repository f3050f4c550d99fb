// The seed's JSON cluster spec (lib/src/config/json_load.cpp and the checks of config.cpp).
#include <string>

#include <stint/config.hpp>
#include <stint/config_show.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  Machine machine;
  machine.hostname = "vm";
  machine.cpus = 4;
  machine.memory_mb = 16384;
  fuzz::refused_or_parsed([&] {
    const Config c = parse_config(text, "cluster.json", machine);
    (void)stint_config_show_text(c);
    ControllerFacts facts;
    facts.now = 1795975241;
    (void)scontrol_show_config_text(c, facts);
    // What `stint init` and `stint config` write must read back the same.
    const std::string yaml = config_to_yaml(c);
    Config again;
    try {
      again = parse_config(yaml, "stint.yaml", machine);
    } catch (const Error& e) {
      fuzz::broken("config_to_yaml(x) does not parse", std::string(e.what()) + "\n" + yaml);
    }
    if (const auto changes = config_changes(c, again); !changes.empty())
      fuzz::broken("parse_config(config_to_yaml(x)) != x", changes.front() + "\n" + yaml);
  });
  return 0;
}
