// sbatch -d/--dependency (lib/src/parse/dependency.cpp).
#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  fuzz::refused_or_parsed([&] {
    const Dependency d = parse::dependency(text);
    // scontrol's form reads back as the same dependency.
    if (!d.empty() && parse::dependency(parse::format_dependency(d)) != d)
      fuzz::broken("dependency(format_dependency(x)) != x", text);
  });
  return 0;
}
