// Hostlists: -w, NODELIST, config pools (lib/src/parse/hostlist.cpp).
#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  fuzz::refused_or_parsed([&] {
    const std::vector<std::string> names = parse::expand_hostlist(text);
    // What squeue prints as NODELIST expands back to the same names.
    const std::string folded = parse::compress_hostlist(names);
    if (parse::expand_hostlist(folded) != names)
      fuzz::broken("expand_hostlist(compress_hostlist(x)) != x", text);
  });
  return 0;
}
