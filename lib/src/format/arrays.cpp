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
namespace {

std::string throttle_suffix(const Job& job) {
  return job.array_throttle == 0 ? std::string() : fmt::format("%{}", job.array_throttle);
}

}  // namespace

std::vector<JobGroup> array_groups(std::vector<Job> jobs, bool lone_records) {
  std::vector<JobGroup> out;
  out.reserve(jobs.size());
  for (Job& j : jobs) {
    if (!j.is_array_record()) {
      out.push_back({std::move(j), {}});
      continue;
    }
    if (j.array_pending.size() == 1 && !lone_records) {
      out.push_back({array_task_of(j, j.array_pending.first()), {}});
      continue;
    }
    TaskSet tasks = j.array_pending;
    out.push_back({std::move(j), std::move(tasks)});
  }
  return out;
}

std::vector<Job> expand_array_records(std::vector<Job> jobs) {
  const bool any =
      std::any_of(jobs.begin(), jobs.end(), [](const Job& j) { return j.is_array_record(); });
  if (!any) return jobs;
  std::vector<Job> out;
  out.reserve(jobs.size());
  for (Job& j : jobs) {
    if (!j.is_array_record()) {
      out.push_back(std::move(j));
      continue;
    }
    detail::for_each_record_task(j, [&out](const Job& task) { out.push_back(task); });
  }
  return out;
}

void detail::for_each_record_task(const Job& record, const std::function<void(const Job&)>& each) {
  if (record.array_pending.empty()) return;
  Job task = array_task_of(record, record.array_pending.first());
  for (const TaskSet::Run& run : record.array_pending.runs()) {
    for (std::uint64_t id = run.first; id <= run.last; ++id) {
      task.array_task_id = static_cast<std::uint32_t>(id);
      each(task);
    }
  }
}

std::vector<JobGroup> single_groups(std::vector<Job> jobs) {
  std::vector<JobGroup> out;
  out.reserve(jobs.size());
  for (Job& j : jobs) out.push_back({std::move(j), {}});
  return out;
}

std::string group_id_text(const JobGroup& g) {
  if (g.tasks.empty()) return g.job.display_id();
  return fmt::format("{}_[{}{}]", g.job.array_job_id, g.tasks.slurm_text(), throttle_suffix(g.job));
}

std::string group_task_text(const JobGroup& g) {
  if (!g.job.is_array_task()) return "N/A";
  if (g.tasks.empty()) return std::to_string(g.job.array_task_id);
  return g.tasks.slurm_text() + throttle_suffix(g.job);
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
