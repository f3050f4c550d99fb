// sbatch --array (lib/src/parse/array.cpp).
#include <stint/parse.hpp>

#include "fuzz.hpp"

using namespace stint;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks MaxArraySize: Slurm's default, or a large one. Not
  // sbatch's ceiling (4000001): an input naming every task would then take a
  // second, and the fuzzer would spend its time on that one.
  const std::uint32_t max_array_size = data[0] & 1 ? 100001 : 1001;
  const std::string_view text = fuzz::text_of(data + 1, size - 1);
  fuzz::refused_or_parsed([&] {
    const parse::ArraySpec spec = parse::array_spec(text, max_array_size);
    const std::string folded = parse::format_task_ids(spec.tasks.ids());
    if (!spec.tasks.empty() && parse::array_spec(folded, max_array_size).tasks != spec.tasks)
      fuzz::broken("array_spec(format_task_ids(x)) != x", text);
    // What stint.db keeps of an array's record reads back as the same set.
    if (TaskSet::parse(spec.tasks.store_text()) != spec.tasks)
      fuzz::broken("TaskSet::parse(store_text(x)) != x", text);
  });
  return 0;
}
