#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/core.h>

#include <stint/model.hpp>

namespace stint {
namespace {

struct StateRow {
  JobState state;
  std::string_view name;
  std::string_view code;
};

constexpr std::array k_states = {
    StateRow{JobState::pending, "PENDING", "PD"},
    StateRow{JobState::running, "RUNNING", "R"},
    StateRow{JobState::suspended, "SUSPENDED", "S"},
    StateRow{JobState::completing, "COMPLETING", "CG"},
    StateRow{JobState::completed, "COMPLETED", "CD"},
    StateRow{JobState::failed, "FAILED", "F"},
    StateRow{JobState::cancelled, "CANCELLED", "CA"},
    StateRow{JobState::timeout, "TIMEOUT", "TO"},
    StateRow{JobState::node_fail, "NODE_FAIL", "NF"},
    StateRow{JobState::preempted, "PREEMPTED", "PR"},
    StateRow{JobState::out_of_memory, "OUT_OF_MEMORY", "OOM"},
    StateRow{JobState::requeued, "REQUEUED", "RQ"},
    StateRow{JobState::deadline, "DEADLINE", "DL"},
};

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) !=
        std::toupper(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

}  // namespace

std::string_view state_name(JobState s) { return k_states[static_cast<std::size_t>(s)].name; }
std::string_view state_code(JobState s) { return k_states[static_cast<std::size_t>(s)].code; }

std::optional<JobState> state_from_name(std::string_view name) {
  for (const auto& row : k_states) {
    if (iequals(row.name, name) || iequals(row.code, name)) return row.state;
  }
  // Slurm accepts "CANCELED" as well as its own "CANCELLED".
  if (iequals(name, "CANCELED")) return JobState::cancelled;
  if (iequals(name, "OOM")) return JobState::out_of_memory;
  return std::nullopt;
}

bool is_terminal(JobState s) {
  switch (s) {
    case JobState::pending:
    case JobState::running:
    case JobState::suspended:
    case JobState::completing:
      return false;
    default:
      return true;
  }
}

bool is_active(JobState s) {
  return s == JobState::running || s == JobState::suspended || s == JobState::completing;
}

bool transition_allowed(JobState from, JobState to) {
  switch (from) {
    case JobState::pending:
      // A pending job starts, is cancelled (or misses its deadline), or fails to launch.
      return to == JobState::running || to == JobState::cancelled || to == JobState::failed ||
             to == JobState::deadline;
    case JobState::running:
      // It ends (through completing, or directly when its result is already in),
      // is suspended, or is put back in the queue (requeue, node failure).
      return to != JobState::running;
    case JobState::suspended:
      return to == JobState::running || (is_terminal(to) && to != JobState::requeued) ||
             to == JobState::pending;
    case JobState::completing:
      return is_terminal(to) || to == JobState::pending;
    default:
      // An ended job may only be requeued (scontrol requeue) back to pending.
      return to == JobState::pending;
  }
}

std::string exit_code_text(int status, int signal) {
  return std::to_string(status) + ":" + std::to_string(signal);
}

std::string Job::het_job_id_set() const {
  if (!is_het_component()) return {};
  const JobId last = het_job_id + std::max(het_job_size, 1U) - 1;
  return last == het_job_id ? std::to_string(last) : fmt::format("{}-{}", het_job_id, last);
}

Job array_task_of(const Job& record, std::uint32_t task) {
  Job out = record;
  out.array_pending = TaskSet();
  out.array_task_id = task;
  return out;
}

std::string Job::display_id() const {
  if (is_het_component()) return fmt::format("{}+{}", het_job_id, het_job_offset);
  if (!is_array_task()) return std::to_string(id);
  if (is_array_record())
    return fmt::format("{}_[{}{}]", array_job_id, array_pending.slurm_text(),
                       array_throttle == 0 ? std::string() : fmt::format("%{}", array_throttle));
  return std::to_string(array_job_id) + "_" + std::to_string(array_task_id);
}

std::string_view dependency_type_name(DependencyType t) {
  switch (t) {
    case DependencyType::after:
      return "after";
    case DependencyType::afterany:
      return "afterany";
    case DependencyType::afterok:
      return "afterok";
    case DependencyType::afternotok:
      return "afternotok";
    case DependencyType::aftercorr:
      return "aftercorr";
    case DependencyType::singleton:
      return "singleton";
  }
  return "afterany";
}

std::uint32_t Job::total_cpus() const {
  std::uint32_t n = 0;
  for (const auto& a : alloc) n += a.cpus;
  return n;
}

std::uint32_t Job::total_gpus() const {
  std::uint32_t n = 0;
  for (const auto& a : alloc) n += static_cast<std::uint32_t>(a.gpu_ids.size());
  return n;
}

std::optional<std::uint64_t> Job::mem_per_cpu_mb() const {
  if (req.mem_per_cpu_mb != 0) return req.mem_per_cpu_mb;
  // A request stored before it kept the per-CPU amount: --mem-per-cpu is
  // still in the spec (a default per CPU was not told apart then).
  return spec.mem_per_cpu_mb;
}

std::vector<std::string> Job::node_names() const {
  std::vector<std::string> names;
  names.reserve(alloc.size());
  for (const auto& a : alloc) names.push_back(a.node);
  return names;
}

std::string_view exclusive_name(Exclusive e) {
  switch (e) {
    case Exclusive::unset:
      return "";
    case Exclusive::node:
      return "node";
    case Exclusive::user:
      return "user";
    case Exclusive::mcs:
      return "mcs";
  }
  return "";
}

const JobOptions& JobSpec::options() const {
  static const JobOptions k_none;
  return more ? *more : k_none;
}

JobOptions& JobSpec::options_to_set() {
  if (!more) more = JobOptions{};
  return *more;
}

}  // namespace stint
