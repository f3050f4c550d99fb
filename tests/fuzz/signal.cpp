// sbatch --signal, scancel -s (lib/src/parse/signal.cpp).
#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  fuzz::refused_or_parsed([&] { (void)parse::signal_spec(text); });
  (void)parse::signal_number(text);
  return 0;
}
