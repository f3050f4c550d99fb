// --begin, --deadline, sacct -S/-E (lib/src/parse/datetime.cpp).
#include <cstdlib>

#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The same answers on every machine: the transcripts' zone.
  ::setenv("TZ", "UTC", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  const Seconds now = 1795975241;  // 2026-11-29T18:00:41Z
  for (auto resolve : {parse::Resolve::future, parse::Resolve::past}) {
    fuzz::refused_or_parsed([&] {
      const Seconds t = parse::date_time(text, now, resolve);
      (void)parse::format_timestamp(t);
    });
  }
  return 0;
}
