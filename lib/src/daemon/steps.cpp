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
  log_info("job {} step {} ended {} exit {}", job.display_id(), s.step_id, state_name(s.state),
           exit_code_text(s.exit_status, s.exit_signal));
}

}  // namespace stint::daemon
