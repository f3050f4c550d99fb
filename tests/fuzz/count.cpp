// -N, -n, -c and the other numeric options (lib/src/parse/count.cpp).
#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  fuzz::refused_or_parsed([&] { (void)parse::count(text, "--nodes"); });
  fuzz::refused_or_parsed([&] { (void)parse::positive_count(text, "--cpus-per-task"); });
  return 0;
}
