// Job steps: srun inside an allocation runs the tasks itself and tells stintd
// when a step begins and how it ended, so sacct has its "12.0" lines.

#include <fmt/core.h>

#include <stint/error.hpp>

#include "daemon/controller.hpp"
#include "daemon/log.hpp"

namespace stint::daemon {

JobStep Controller::begin_step(const Job& job, JobStep step) {
  step.job_id = job.id;
  step.attempt = job.restart_count;
  step.step_id = m_store->next_step_id(job.id, job.restart_count);
  step.state = JobState::running;
  step.start_time = now();
  step.end_time = k_no_time;
  m_store->put_step(step);
  log_info("job {} step {} began: {} tasks on {}", job.display_id(), step.step_id, step.tasks,
           step.nodes);
  return step;
}

JobStep Controller::begin_step(const Job& job, JobStep step,
                               std::map<std::size_t, std::vector<std::uint32_t>> cpus) {
  step = begin_step(job, std::move(step));
  m_step_cpus[{job.id, job.restart_count}][step.step_id] = std::move(cpus);
  return step;
}

std::map<std::size_t, std::set<std::uint32_t>> Controller::step_cpus_held(const Job& job) {
  // Jobs that ended, attempts that were requeued: nothing of theirs is held.
  std::erase_if(m_step_cpus, [&](const auto& entry) {
    const auto& [key, steps] = entry;
    const Job* live = find_live(key.first);
    return steps.empty() || live == nullptr || live->state != JobState::running ||
           live->restart_count != key.second;
  });
  std::map<std::size_t, std::set<std::uint32_t>> held;
  const auto it = m_step_cpus.find({job.id, job.restart_count});
  if (it == m_step_cpus.end()) return held;
  // A step stintd closed itself (its srun died) holds nothing either.
  std::set<std::uint32_t> running;
  for (const JobStep& s : m_store->steps({job.id})) {
    if (s.attempt == job.restart_count && s.state == JobState::running) running.insert(s.step_id);
  }
  std::erase_if(it->second, [&](const auto& step) { return !running.contains(step.first); });
  for (const auto& [step_id, by_node] : it->second) {
    for (const auto& [index, ids] : by_node) held[index].insert(ids.begin(), ids.end());
  }
  return held;
}

void Controller::end_step(const Job& job, const JobStep& ended) {
  std::optional<JobStep> found;
  for (JobStep& s : m_store->steps({job.id})) {
    if (s.attempt == job.restart_count && s.step_id == ended.step_id) found = std::move(s);
  }
  if (!found || found->state != JobState::running)
    throw Error(Errc::invalid_argument,
                fmt::format("Job step {}.{} is not running", job.display_id(), ended.step_id));
  JobStep s = std::move(*found);
  s.state = ended.state;
  s.end_time = now();
  s.exit_status = ended.exit_status;
  s.exit_signal = ended.exit_signal;
  s.user_cpu_us = ended.user_cpu_us;
  s.sys_cpu_us = ended.sys_cpu_us;
  s.max_rss_kb = ended.max_rss_kb;
  m_store->put_step(s);
  if (auto it = m_step_cpus.find({job.id, job.restart_count}); it != m_step_cpus.end())
    it->second.erase(s.step_id);
  log_info("job {} step {} ended {} exit {}", job.display_id(), s.step_id, state_name(s.state),
           exit_code_text(s.exit_status, s.exit_signal));
}

}  // namespace stint::daemon
