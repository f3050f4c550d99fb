// Preemption carried out: the pass (sched/pass.cpp, sched/preempt.cpp) picks
// the victims; here they are requeued, cancelled or suspended. A requeue or
// cancel goes through the requeue marker (spool.hpp), so the job's ending is
// read as PREEMPTED even across a restart of stintd; GraceTime is the time
// between SIGTERM to the job and the kill.

#include "sched/preempt.hpp"

#include <algorithm>
#include <csignal>

#include "daemon/controller.hpp"
#include "daemon/log.hpp"
#include "daemon/spool.hpp"
#include "sched/sched.hpp"

namespace stint::daemon {

void Controller::preempt(Job& victim, const sched::Preemption& p) {
  log_info("job {} preempted by job {} (PreemptMode={}, GraceTime={})", victim.display_id(),
           p.preemptor, sched::preempt_mode_name(p.mode), p.grace_time);
  if (p.mode == sched::PreemptMode::suspend) {
    // Slurm's order: SIGTSTP, then SIGSTOP (stepd sends both and stops the
    // clock of the time limit).
    write_suspend_marker(m_paths, victim.id, p.preemptor);
    signal_running(victim, SIGSTOP, SignalTarget::suspend);
    victim.state = JobState::suspended;
    save(victim);
    m_suspended_by[victim.id] = p.preemptor;
    return;
  }
  RequeueMarker marker;
  marker.preempted = true;
  marker.cancel = p.mode == sched::PreemptMode::cancel;
  marker.kill_at = now() + p.grace_time;
  write_requeue_marker(m_paths, victim.id, marker);
  m_preempting[victim.id] = marker.kill_at;
  if (p.grace_time > 0) {
    // One signal: stepd's SIGUSR1 carrying it is not queued twice (stepd
    // sends SIGCONT ahead of a forwarded SIGTERM).
    signal_running(victim, SIGTERM);
  } else {
    cancel_running(victim);
  }
}

void Controller::end_grace_times() {
  const Seconds t = now();
  for (auto it = m_preempting.begin(); it != m_preempting.end();) {
    Job* job = find_live(it->first);
    if (!job || !is_active(job->state)) {
      it = m_preempting.erase(it);
      continue;
    }
    if (it->second != k_no_time && it->second <= t) {
      cancel_running(*job);
      it->second = k_no_time;  // killed: stepd reports when it is over
    }
    ++it;
  }
}

void Controller::resume_suspended(sched::Cluster& cluster, std::vector<Job*> suspended) {
  std::sort(suspended.begin(), suspended.end(),
            [](const Job* a, const Job* b) { return a->priority > b->priority; });
  for (Job* job : suspended) {
    auto by = m_suspended_by.find(job->id);
    // An operator's suspension (no preemptor) lasts until scontrol resume.
    if (by != m_suspended_by.end() &&
        (by->second == k_suspended_by_operator || find_live(by->second)))
      continue;
    bool free = std::all_of(job->alloc.begin(), job->alloc.end(),
                            [&](const NodeAlloc& a) { return cluster.can_take(a); });
    if (!free) continue;
    for (const auto& a : job->alloc) cluster.find(a.node)->take(a);
    signal_running(*job, SIGCONT, SignalTarget::suspend);
    job->state = JobState::running;
    save(*job);
    clear_suspend_marker(m_paths, job->id);
    m_suspended_by.erase(job->id);
    log_info("job {} resumed", job->display_id());
  }
}

std::optional<Error> Controller::suspend_job(Job& job) {
  if (job.state == JobState::pending)
    return Error(Errc::job_state_invalid, "Job is pending execution");
  if (is_terminal(job.state) || job.state == JobState::completing)
    return Error(Errc::job_state_invalid, "Job/step already completing or completed");
  if (job.state != JobState::running) return Error(Errc::job_state_invalid, "Job is not running");
  write_suspend_marker(m_paths, job.id, k_suspended_by_operator);
  signal_running(job, SIGSTOP, SignalTarget::suspend);
  job.state = JobState::suspended;
  save(job);
  m_suspended_by[job.id] = k_suspended_by_operator;
  log_info("job {} suspended", job.display_id());
  return std::nullopt;
}

std::optional<Error> Controller::resume_job(Job& job) {
  if (job.state == JobState::pending)
    return Error(Errc::job_state_invalid, "Job is pending execution");
  if (is_terminal(job.state) || job.state == JobState::completing)
    return Error(Errc::job_state_invalid, "Job/step already completing or completed");
  if (job.state != JobState::suspended)
    return Error(Errc::job_state_invalid, "Job is not suspended");
  // Its CPUs went back to the pass while it was stopped: another job may
  // hold them now.
  std::vector<const Job*> active;
  for (const auto& [id, other] : m_live) {
    if (is_active(other.state) && other.state != JobState::suspended) active.push_back(&other);
  }
  sched::Cluster cluster(m_config.nodes());
  cluster.take_jobs(active);
  if (!std::all_of(job.alloc.begin(), job.alloc.end(),
                   [&](const NodeAlloc& a) { return cluster.can_take(a); }))
    return Error(Errc::nodes_busy, "Requested nodes are busy");
  signal_running(job, SIGCONT, SignalTarget::suspend);
  job.state = JobState::running;
  save(job);
  clear_suspend_marker(m_paths, job.id);
  m_suspended_by.erase(job.id);
  log_info("job {} resumed", job.display_id());
  return std::nullopt;
}

void Controller::recover_preemptions() {
  for (auto& [id, job] : m_live) {
    if (job.state == JobState::suspended) {
      if (auto by = read_suspend_marker(m_paths, id)) m_suspended_by[id] = *by;
      continue;
    }
    if (!is_active(job.state)) continue;
    auto marker = read_requeue_marker(m_paths, id);
    if (marker && marker->preempted) m_preempting[id] = marker->kill_at;
  }
}

}  // namespace stint::daemon
