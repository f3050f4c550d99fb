// sbatch --time and slurm.conf durations (lib/src/parse/time.cpp).
#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  fuzz::refused_or_parsed([&] {
    const Seconds limit = parse::time_limit(text);
    (void)parse::format_duration(limit);
    (void)parse::format_time_limit(limit);
    // What squeue prints, sbatch reads back: a limit is whole minutes.
    const Seconds again = parse::time_limit(parse::format_duration_fixed(limit));
    if (again != limit) fuzz::broken("time_limit(format_duration_fixed(x)) != x", text);
  });
  fuzz::refused_or_parsed([&] {
    const Seconds d = parse::duration(text);
    (void)parse::format_duration(d);
    (void)parse::format_duration_fixed(d);
  });
  return 0;
}
