// Requeue: a job goes back to PENDING with the same id; each earlier attempt is
// kept for sacct --duplicates.

#include <stint/error.hpp>

#include "daemon/controller.hpp"
#include "daemon/log.hpp"
#include "daemon/spool.hpp"
#include "sched/sched.hpp"

namespace stint::daemon {

Job& Controller::revive(const Job& ended) {
  auto [it, inserted] = m_live.emplace(ended.id, ended);
  if (inserted) count_array_live(ended, true);
  return it->second;
}

void Controller::requeue(Job& job, bool hold, const Caller& caller, bool special_exit) {
  // SPECIAL_EXIT is a user hold whoever asked for it (slurmctld's
  // WAIT_HELD_USER): the owner may release it.
  bool admin_hold = hold && !special_exit && is_operator(caller) && caller.uid != job.user_id;
  if (is_active(job.state)) {
    RequeueMarker marker{hold, admin_hold};
    marker.special_exit = special_exit;
    write_requeue_marker(m_paths, job.id, marker);
    cancel_running(job);
    return;
  }
  if (job.state == JobState::pending) {
    if (hold) {
      job.hold_reason = special_exit ? Reason::special_exit
                        : admin_hold ? Reason::job_held_admin
                                     : Reason::job_held_user;
      job.reason = job.hold_reason;
      job.priority = 0;
      save(job);
    }
    return;
  }
  // An ended job: its last attempt stays as it ended.
  Job& live = revive(job);
  requeue_now(live, live.state, hold, admin_hold, special_exit);
}

void Controller::requeue_now(Job& job, JobState attempt_state, bool hold, bool admin_hold,
                             bool special_exit) {
  release_node_ssh(job);
  Store::Transaction tx(*m_store);
  Job attempt = job;
  attempt.state = attempt_state == JobState::cancelled ? JobState::requeued : attempt_state;
  if (attempt.end_time == k_no_time) attempt.end_time = now();
  m_store->insert_attempt(attempt);
  m_store->end_running_steps(job.id, job.restart_count, JobState::cancelled, attempt.end_time);

  job.restart_count += 1;
  job.state = JobState::pending;
  job.alloc.clear();
  job.start_time = k_no_time;
  job.end_time = k_no_time;
  job.exit_status = 0;
  job.exit_signal = 0;
  job.user_cpu_us = job.sys_cpu_us = job.max_rss_kb = 0;
  // As in Slurm, a requeued job waits a while (reason BeginTime) before it
  // may start again.
  job.eligible_time = now() + m_config.conf_int("StintRequeueDelay");
  job.reason = Reason::begin_time;
  job.hold_reason = Reason::none;
  if (hold || special_exit) {
    job.hold_reason = special_exit ? Reason::special_exit
                      : admin_hold ? Reason::job_held_admin
                                   : Reason::job_held_user;
    job.reason = job.hold_reason;
    job.priority = 0;
  } else {
    job.priority = fresh_priority(job);
  }
  m_store->update_job(job);
  tx.commit();
  // A het job waits again whole: its components let their nodes go.
  if (job.is_het_leader()) withdraw_het_components(job.id);
  log_info("job {} requeued (restart {})", job.display_id(), job.restart_count);
  mail_requeued(job, attempt);
  m_dirty = true;
}

}  // namespace stint::daemon
