// --gres, -G/--gpus, --gpus-per-node (lib/src/parse/gres.cpp).
#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  fuzz::refused_or_parsed([&] { (void)parse::gres(text); });
  fuzz::refused_or_parsed([&] { (void)parse::gpus(text); });
  return 0;
}
