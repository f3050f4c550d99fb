// Heterogeneous jobs (sbatch's ':' and "#SBATCH hetjob"): each component is
// a job of its own, with consecutive ids after its leader's. They start in
// one pass or not at all (sched::keep_whole_het_jobs); the leader's batch
// script is the job's only task, so the other components hold their nodes
// without a stepd and end when the leader ends.

#include <stint/parse.hpp>

#include "daemon/controller.hpp"
#include "daemon/log.hpp"

namespace stint::daemon {

std::vector<Job*> Controller::het_components(JobId leader) {
  std::vector<Job*> out;
  // Consecutive ids: the first live job after them that is not one ends them.
  for (auto it = m_live.upper_bound(leader); it != m_live.end() && it->second.het_job_id == leader;
       ++it)
    out.push_back(&it->second);
  return out;
}

void Controller::start_het_component(Job& job, std::vector<NodeAlloc> alloc) {
  job.alloc = std::move(alloc);
  job.state = JobState::running;
  job.reason = Reason::none;
  job.state_desc.clear();
  job.start_time = now();
  m_maybe_active.insert(job.id);
  m_store->update_job(job);
  log_info("job {} started on {}", job.display_id(), parse::compress_hostlist(job.node_names()));
}

void Controller::withdraw_het_components(JobId leader) {
  for (Job* component : het_components(leader)) {
    if (!is_active(component->state)) continue;
    component->state = JobState::pending;
    component->reason = Reason::resources;
    component->alloc.clear();
    component->start_time = k_no_time;
    try {
      m_store->update_job(*component);
    } catch (const Error& e) {
      // The leader's start failed for want of room: the next write that
      // succeeds (the component's next start) sets the row right.
      log_error("job {}: {}", component->display_id(), e.what());
    }
  }
  m_dirty = true;
}

void Controller::end_het_components(const Job& leader) {
  for (Job* component : het_components(leader.id)) {
    component->exit_status = leader.exit_status;
    component->exit_signal = leader.exit_signal;
    component->cancelled_by = leader.cancelled_by;
    if (component->state == JobState::pending) component->reason = leader.reason;
    finish(*component, leader.state);
  }
}

}  // namespace stint::daemon
