// Dependency expressions (sbatch -d, scontrol update Dependency=).

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "parse/text.hpp"

namespace stint::parse {
namespace {

// Slurm's ESLURM_DEPENDENCY, which sbatch and scontrol print for every kind
// of mistake in the expression.
[[noreturn]] void dependency_problem() {
  throw Error(Errc::invalid_argument, "Job dependency problem");
}

struct TypeName {
  std::string_view name;
  DependencyType type;
};
// Matched whole and without regard to case. Slurm matches a prefix of the
// word as well ("afteroks:1" is afterok there); that is refused here.
// afterburstbuffer waits for a job's burst buffer stage-out after it ends;
// with no burst buffers that is when it ends, which is afterany.
constexpr std::array k_types = {
    TypeName{"after", DependencyType::after},
    TypeName{"afterany", DependencyType::afterany},
    TypeName{"afterburstbuffer", DependencyType::afterany},
    TypeName{"aftercorr", DependencyType::aftercorr},
    TypeName{"afternotok", DependencyType::afternotok},
    TypeName{"afterok", DependencyType::afterok},
};

// Delays are minutes; keep them well inside Seconds when turned into seconds.
constexpr std::uint64_t k_max_delay_minutes = std::numeric_limits<std::uint32_t>::max();

JobId job_id(std::string_view text) {
  const auto id = detail::parse_digits(text, std::numeric_limits<JobId>::max());
  if (!id || *id == 0) dependency_problem();
  return static_cast<JobId>(*id);
}

// "12", "12_3", "12_*", and for `after` a delay: "12+5".
DependencyTerm job_term(DependencyType type, std::string_view text) {
  DependencyTerm term;
  term.type = type;
  if (const std::size_t plus = text.find('+'); plus != std::string_view::npos) {
    // Only `after` counts from an event that has a time to add to (the start).
    if (type != DependencyType::after) dependency_problem();
    const auto minutes = detail::parse_digits(text.substr(plus + 1), k_max_delay_minutes);
    if (!minutes || *minutes == 0) dependency_problem();
    term.delay = static_cast<Seconds>(*minutes) * 60;
    text = text.substr(0, plus);
  }
  const std::size_t underscore = text.find('_');
  term.job_id = job_id(text.substr(0, underscore));
  if (underscore != std::string_view::npos) {
    const std::string_view task = text.substr(underscore + 1);
    // "12_*" is every task of array 12, the same as "12" naming an array.
    if (task != "*") {
      const auto t = detail::parse_digits(task, k_no_array_task - 1);
      if (!t) dependency_problem();
      term.array_task = static_cast<std::uint32_t>(*t);
    }
  }
  return term;
}

// One term between separators: "singleton", "12" (Slurm's old form, meaning
// afterany:12) or "type:id[:id...]", which gives a term per job.
void add_terms(std::string_view text, Dependency& d) {
  if (text.empty()) dependency_problem();
  if (detail::iequals(text, "singleton")) {
    d.terms.push_back(DependencyTerm{DependencyType::singleton, 0, k_no_array_task, 0});
    return;
  }
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    if (!detail::is_digit(text.front())) dependency_problem();
    d.terms.push_back(DependencyTerm{DependencyType::afterany, job_id(text), k_no_array_task, 0});
    return;
  }
  const std::string_view word = text.substr(0, colon);
  const TypeName* found = nullptr;
  for (const auto& t : k_types) {
    if (detail::iequals(word, t.name)) found = &t;
  }
  if (found == nullptr) dependency_problem();
  std::string_view ids = text.substr(colon + 1);
  for (;;) {
    const std::size_t next = ids.find(':');
    d.terms.push_back(job_term(found->type, ids.substr(0, next)));
    if (next == std::string_view::npos) break;
    ids.remove_prefix(next + 1);
  }
}

}  // namespace

Dependency dependency(std::string_view text) {
  Dependency d;
  // No text, no dependency: how scontrol update Dependency= clears one.
  if (text.empty()) return d;
  const bool all = text.find(',') != std::string_view::npos;
  d.any = text.find('?') != std::string_view::npos;
  // Slurm allows one kind of separator per expression.
  if (all && d.any) dependency_problem();
  const char separator = d.any ? '?' : ',';
  for (;;) {
    const std::size_t next = text.find(separator);
    add_terms(text.substr(0, next), d);
    if (next == std::string_view::npos) break;
    text.remove_prefix(next + 1);
  }
  return d;
}

std::string format_dependency(const Dependency& d) {
  std::string out;
  for (const DependencyTerm& t : d.terms) {
    if (!out.empty()) out += d.any ? '?' : ',';
    out += dependency_type_name(t.type);
    if (t.type == DependencyType::singleton) continue;
    out += fmt::format(":{}", t.job_id);
    if (t.array_task != k_no_array_task) out += fmt::format("_{}", t.array_task);
    if (t.delay != 0) out += fmt::format("+{}", t.delay / 60);
  }
  return out;
}

}  // namespace stint::parse
