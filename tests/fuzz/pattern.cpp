// Output file name patterns: %j, %A_%a, %x, %4j... (lib/src/parse/pattern.cpp).
#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  parse::PatternValues v;
  v.job_id = 4294967290u;
  v.array_job_id = 77;
  v.array_task_id = 4294967294u;
  v.job_name = "fuzz%j";
  v.user = "user";
  v.node = "vm";
  fuzz::refused_or_parsed([&] { (void)parse::expand_pattern(text, v); });
  v.step_id = 3;
  v.array_task_id = 12;
  fuzz::refused_or_parsed([&] { (void)parse::expand_pattern(text, v); });
  return 0;
}
