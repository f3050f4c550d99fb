// Job array specs (sbatch --array) and the range form task ids print in.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {
namespace {

[[noreturn]] void invalid_array() {
  throw Error(Errc::invalid_argument, "Invalid --array specification");
}

std::uint32_t task_number(std::string_view text, std::uint64_t max) {
  const auto n = detail::parse_digits(text, max);
  if (!n) invalid_array();
  return static_cast<std::uint32_t>(*n);
}

// One comma-separated item: "N", "N-M" or "N-M:S" (Slurm's _parse_array_tok).
void add_item(std::string_view item, std::uint32_t max_array_size, TaskSet& ids) {
  // The highest task id is MaxArraySize - 1; a bigger number is refused
  // whether it fits in 32 bits or not.
  if (max_array_size == 0) invalid_array();
  const std::uint64_t max_id = max_array_size - 1ULL;
  const std::size_t dash = item.find('-');
  if (dash == std::string_view::npos) {
    // A step needs a range ("5:2" is refused, as in Slurm).
    ids.insert(task_number(item, max_id));
    return;
  }
  const std::uint32_t first = task_number(item.substr(0, dash), max_id);
  std::string_view rest = item.substr(dash + 1);
  std::uint32_t step = 1;
  if (const std::size_t colon = rest.find(':'); colon != std::string_view::npos) {
    // Any step is fine; one past the range gives just the first id.
    const auto s = detail::parse_digits(rest.substr(colon + 1), UINT32_MAX);
    if (!s || *s == 0) invalid_array();
    step = static_cast<std::uint32_t>(*s);
    rest = rest.substr(0, colon);
  }
  const std::uint32_t last = task_number(rest, max_id);
  if (last < first) invalid_array();
  if (step == 1) {
    ids.insert(first, last);
    return;
  }
  for (std::uint64_t id = first; id <= last; id += step) ids.insert(static_cast<std::uint32_t>(id));
}

// Appends `run` (ids in ascending order with one step) in its shortest form.
void append_run(std::string& out, std::uint32_t first, std::uint32_t last, std::uint32_t step) {
  if (!out.empty()) out += ',';
  if (first == last) {
    out += fmt::format("{}", first);
  } else if (step == 1) {
    out += fmt::format("{}-{}", first, last);
  } else {
    out += fmt::format("{}-{}:{}", first, last, step);
  }
}

}  // namespace

ArraySpec array_spec(std::string_view text, std::uint32_t max_array_size) {
  ArraySpec spec;
  std::string_view list = text;
  // "%N": at most N tasks at once; 0 means no limit, as ArrayTaskThrottle=0.
  if (const std::size_t percent = list.find('%'); percent != std::string_view::npos) {
    const auto throttle = detail::parse_digits(list.substr(percent + 1), UINT32_MAX);
    if (!throttle) invalid_array();
    spec.throttle = static_cast<std::uint32_t>(*throttle);
    list = list.substr(0, percent);
  }
  // squeue prints an array as "12_[1-3]"; a list copied from there, brackets
  // and all, is taken as well (Slurm strips a '[' and ']' around each item).
  if (list.size() >= 2 && list.front() == '[' && list.back() == ']') {
    list = list.substr(1, list.size() - 2);
  }

  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    // Empty items ("1,,3", a trailing comma) are skipped, as Slurm's strtok does.
    if (comma > start) add_item(list.substr(start, comma - start), max_array_size, spec.tasks);
    start = comma + 1;
  }
  if (spec.tasks.empty()) invalid_array();
  return spec;
}

std::string format_task_ids(const std::vector<std::uint32_t>& ids) {
  std::vector<std::uint32_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());

  std::string out;
  std::size_t i = 0;
  while (i < sorted.size()) {
    const std::uint32_t first = sorted[i];
    if (i + 1 == sorted.size()) {
      append_run(out, first, first, 1);
      break;
    }
    const std::uint32_t step = sorted[i + 1] - first;
    std::size_t j = i + 1;
    while (j + 1 < sorted.size() && sorted[j + 1] - sorted[j] == step) ++j;
    // Consecutive ids always fold ("1-2"); a longer step needs three ids to
    // be worth it ("0,2" reads better than "0-2:2").
    if (step == 1 || j - i >= 2) {
      append_run(out, first, sorted[j], step);
      i = j + 1;
    } else {
      append_run(out, first, first, 1);
      ++i;
    }
  }
  return out;
}

}  // namespace stint::parse
