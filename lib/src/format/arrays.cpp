// Array tasks folded into one line, their ids, and dependency texts with the
// state of each term, as squeue, sacct and scontrol print them.

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/core.h>

#include <stint/format.hpp>
#include <stint/parse.hpp>

#include "format/internal.hpp"

namespace stint::format {
namespace detail {

std::optional<FoldKey> fold_key(const Job& job, Fold fold) {
  if (!job.is_array_task()) return std::nullopt;
  switch (fold) {
    case Fold::pending:
      // Slurm keeps the tasks that have not started in the array's own
      // record; a requeued task, or one changed on its own, is a record of
      // its own.
      if (job.state != JobState::pending || job.restart_count != 0 || job.array_split)
        return std::nullopt;
      return FoldKey{job.array_job_id, job.state, effective_reason(job)};
    case Fold::never_started:
      // A job cancelled while it waited has a start time (its end, as in
      // Slurm's records) but never had an allocation.
      if (!job.alloc.empty() || job.restart_count != 0) return std::nullopt;
      return FoldKey{job.array_job_id, job.state, Reason::none};
  }
  return std::nullopt;
}

}  // namespace detail

namespace {

using detail::fold_key;
using detail::FoldKey;

std::string throttle_suffix(const Job& job) {
  return job.array_throttle == 0 ? std::string() : fmt::format("%{}", job.array_throttle);
}

}  // namespace

std::vector<JobGroup> fold_array_tasks(std::vector<Job> jobs, Fold fold, bool lone_records) {
  // How many jobs share each key: a key held by one job does not fold.
  std::map<FoldKey, std::size_t> count;
  for (const Job& j : jobs) {
    if (auto k = fold_key(j, fold)) ++count[*k];
  }
  std::vector<JobGroup> out;
  std::map<FoldKey, std::size_t> where;  // key -> index of its group in out
  for (Job& j : jobs) {
    auto k = fold_key(j, fold);
    // Only while it waits, as the record slurmctld still queues (sacct
    // prints a lone task cancelled before it started as the bare job id;
    // stint prints it as the task).
    if (k && count[*k] < 2 && lone_records && j.state == JobState::pending) {
      const std::uint32_t task = j.array_task_id;
      out.push_back({std::move(j), {task}});
      continue;
    }
    if (!k || count[*k] < 2) {
      out.push_back({std::move(j), {}});
      continue;
    }
    auto it = where.find(*k);
    if (it == where.end()) {
      where.emplace(*k, out.size());
      const std::uint32_t task = j.array_task_id;
      out.push_back({std::move(j), {task}});
      continue;
    }
    JobGroup& g = out[it->second];
    g.tasks.push_back(j.array_task_id);
    // The group shows its lowest task, as Slurm's array record does.
    if (j.array_task_id < g.job.array_task_id) g.job = std::move(j);
  }
  for (JobGroup& g : out) std::sort(g.tasks.begin(), g.tasks.end());
  return out;
}

std::vector<JobGroup> single_groups(std::vector<Job> jobs) {
  std::vector<JobGroup> out;
  out.reserve(jobs.size());
  for (Job& j : jobs) out.push_back({std::move(j), {}});
  return out;
}

std::string group_id_text(const JobGroup& g) {
  if (g.tasks.empty()) return g.job.display_id();
  return fmt::format("{}_[{}{}]", g.job.array_job_id, parse::format_task_ids(g.tasks),
                     throttle_suffix(g.job));
}

std::string group_task_text(const JobGroup& g) {
  if (!g.job.is_array_task()) return "N/A";
  if (g.tasks.empty()) return std::to_string(g.job.array_task_id);
  return parse::format_task_ids(g.tasks) + throttle_suffix(g.job);
}

std::string dependency_text(const Job& job, const Context& ctx) {
  // Slurm drops a dependency once it is met; what is left is shown with the
  // state the scheduler found it in (the job's own reason, not a hold).
  std::string_view state;
  if (job.state == JobState::pending && job.reason == Reason::dependency)
    state = "(unfulfilled)";
  else if (job.state == JobState::pending && job.reason == Reason::dependency_never_satisfied)
    state = "(failed)";
  if (job.dependency.empty() || state.empty()) return "(null)";
  std::string out;
  for (const DependencyTerm& t : job.dependency.terms) {
    if (!out.empty()) out += job.dependency.any ? '?' : ',';
    std::string term = parse::format_dependency(Dependency{{t}, false});
    if (t.job_id != 0 && t.array_task == k_no_array_task && ctx.array_jobs.count(t.job_id) != 0) {
      // A term on a whole array reads "afterok:12_*".
      const std::string id = std::to_string(t.job_id);
      if (auto colon = term.find(':');
          colon != std::string::npos && term.compare(colon + 1, id.size(), id) == 0)
        term.insert(colon + 1 + id.size(), "_*");
    }
    out += term + std::string(state);
  }
  return out;
}

}  // namespace stint::format
