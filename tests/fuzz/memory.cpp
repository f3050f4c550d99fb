// --mem, --mem-per-cpu, node memory (lib/src/parse/memory.cpp).
#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  fuzz::refused_or_parsed([&] {
    const std::uint64_t mb = parse::memory_mb(text, "--mem");
    // Printed sizes read back to the same size (sacct ReqMem, TRES mem=).
    if (parse::memory_mb(parse::format_memory_mb(mb)) != mb)
      fuzz::broken("memory_mb(format_memory_mb(x)) != x", text);
  });
  return 0;
}
