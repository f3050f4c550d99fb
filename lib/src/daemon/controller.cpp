#include "daemon/controller.hpp"

#include <algorithm>
#include <csignal>

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>

#include "config/exit_codes.hpp"
#include "daemon/log.hpp"
#include "daemon/mailer.hpp"
#include "daemon/node_ssh.hpp"
#include "daemon/spool.hpp"
#include "daemon/stepd_forks.hpp"
#include "stepd/launch.hpp"
#include "store/scripts.hpp"
#include "util/background.hpp"
#include "util/fs.hpp"
#include "util/proc.hpp"

namespace stint::daemon {
namespace {

std::uint32_t owner_of(const std::string& dir) {
  struct stat st {};
  return ::stat(dir.c_str(), &st) == 0 ? st.st_uid : 0;
}

}  // namespace

Controller::Controller(Paths paths, Config config, std::unique_ptr<Store> store, const Clock& clock)
    : m_paths(std::move(paths)),
      m_config(std::move(config)),
      m_file_config(m_config),
      m_store(std::move(store)),
      m_clock(clock),
      m_owner_uid(owner_of(m_paths.state_dir)) {}

Controller::~Controller() = default;

ScriptStore& Controller::scripts() {
  if (!m_scripts) m_scripts = ScriptStore::open(m_paths.scripts_db());
  return *m_scripts;
}

bool Controller::is_superuser(const Caller& caller) const {
  return caller.uid == 0 || caller.uid == m_owner_uid;
}

AdminLevel Controller::admin_level(const Caller& caller) {
  if (is_superuser(caller)) return AdminLevel::admin;
  const User* u = accounting().find_user(proc::user_name(caller.uid));
  return u ? u->admin_level : AdminLevel::none;
}

bool Controller::may_act_for(const Caller& caller, std::uint32_t uid) {
  return caller.uid == uid || is_operator(caller);
}

Job* Controller::find_live(JobId id) {
  auto it = m_live.find(id);
  return it == m_live.end() ? nullptr : &it->second;
}

Job& Controller::live_job(JobId id) {
  if (Job* j = find_live(id)) return *j;
  throw Error(Errc::invalid_job_id, std::string(errc_slurm_message(Errc::invalid_job_id)));
}

std::optional<Job> Controller::find_any(JobId id) {
  if (Job* j = find_live(id)) return *j;
  return m_store->job(id);
}

std::vector<Job*> Controller::live_jobs(JobId id, std::uint32_t array_task, bool split) {
  std::vector<Job*> out;
  if (array_task == k_no_array_task) {
    Job* plain = find_live(id);
    // A plain id names the job, or every task of the array it is the id of.
    if (plain && (!plain->is_array_task() || plain->array_job_id != id)) {
      out.push_back(plain);
      // A het job's leader names the whole job, as in Slurm.
      if (plain->is_het_leader()) {
        for (Job* component : het_components(id)) out.push_back(component);
      }
      return out;
    }
  }
  Job* record = nullptr;  // the array's record, holding the task named
  for (auto& [jid, job] : m_live) {
    if (job.array_job_id != id) continue;
    if (array_task == k_no_array_task || job.array_task_id == array_task)
      out.push_back(&job);
    else if (job.is_array_record() && job.array_pending.contains(array_task))
      record = &job;
  }
  // A task still in its array's record is split off it first, as slurmctld
  // splits a task acted on alone (after the walk: the split adds a live job).
  if (record) out.push_back(split ? &split_task(*record, array_task) : record);
  return out;
}

std::vector<Job> Controller::ended_jobs(JobId id, std::uint32_t array_task) {
  std::vector<Job> out;
  auto plain = m_store->job(id);
  if (array_task == k_no_array_task && plain && !plain->is_array_task()) {
    if (is_terminal(plain->state)) out.push_back(*plain);
    return out;
  }
  for (auto& t : m_store->array_tasks(id)) {
    if (is_terminal(t.state) && !find_live(t.id) &&
        (array_task == k_no_array_task || t.array_task_id == array_task))
      out.push_back(std::move(t));
  }
  return out;
}

bool Controller::ever_existed(JobId id, std::uint32_t array_task) {
  if (array_task == k_no_array_task && m_store->job(id)) return true;
  for (const auto& t : m_store->array_tasks(id)) {
    if (array_task == k_no_array_task || t.array_task_id == array_task) return true;
  }
  return false;
}

void Controller::save(const Job& job) {
  m_store->update_job(job);
  m_dirty = true;
}

void Controller::finish(Job& job, JobState state, Seconds ended_at) {
  // A pending job's start time is only the plan's guess (squeue --start).
  const bool ran = job.state != JobState::pending;
  job.state = state;
  const Seconds t = now();
  job.end_time =
      ran && ended_at != k_no_time && ended_at <= t && ended_at >= job.start_time ? ended_at : t;
  if (job.start_time == k_no_time || !ran) job.start_time = job.end_time;
  if (state != JobState::completed && job.reason == Reason::none) {
    // slurmctld's _job_complete: a script that exited non-zero is
    // NonZeroExitCode, one a signal killed JobLaunchFailure.
    if (state == JobState::failed)
      job.reason = job.exit_signal != 0 ? Reason::launch_failed : Reason::non_zero_exit_code;
    if (state == JobState::timeout) job.reason = Reason::time_limit;
    if (state == JobState::node_fail) job.reason = Reason::node_fail;
  }
  if (state == JobState::completed) job.reason = Reason::none;
  // Before the commit: a stintd killed after it would leave the sessions
  // of an ended run. (One killed before it finds the job still running.)
  if (ran) release_node_ssh(job);
  if (ran) {
    // Steps whose srun went down with the job never said how they ended:
    // closed with it, in one commit, so a crash between leaves neither half.
    Store::Transaction tx(*m_store);
    m_store->update_job(job);
    m_store->end_running_steps(job.id, job.restart_count, JobState::cancelled, job.end_time);
    tx.commit();
  } else {
    m_store->update_job(job);
  }
  log_info("job {} ended {} exit {}", job.display_id(), state_name(state),
           exit_code_text(job.exit_status, job.exit_signal));
  mail_ended(job);
  remove_job_spool(m_paths, job);
  if (job.is_het_leader()) end_het_components(job);
  count_array_live(job, false);
  m_live.erase(job.id);
  m_dirty = true;
}

void Controller::cancel_pending(const std::vector<Job*>& jobs, std::uint32_t by) {
  if (jobs.empty()) return;
  struct Before {
    JobState state;
    Seconds start_time;
    Seconds end_time;
    std::uint32_t cancelled_by;
  };
  std::vector<Before> before;
  before.reserve(jobs.size());
  const Seconds t = now();
  try {
    for (Job* job : jobs) {
      before.push_back({job->state, job->start_time, job->end_time, job->cancelled_by});
      // As finish(): a pending job's start time was only the plan's guess.
      job->cancelled_by = by;
      job->state = JobState::cancelled;
      job->end_time = t;
      job->start_time = t;
    }
    Store::Transaction tx(*m_store);
    m_store->update_ended_pending({jobs.begin(), jobs.end()});
    tx.commit();
  } catch (...) {
    for (std::size_t i = 0; i < before.size(); ++i) {
      jobs[i]->state = before[i].state;
      jobs[i]->start_time = before[i].start_time;
      jobs[i]->end_time = before[i].end_time;
      jobs[i]->cancelled_by = before[i].cancelled_by;
    }
    throw;
  }
  std::vector<Job> leaders;
  for (Job* job : jobs) {
    log_info("job {} ended {} exit {}", job->display_id(), state_name(job->state),
             exit_code_text(job->exit_status, job->exit_signal));
    mail_ended(*job);
    if (job->is_het_leader()) leaders.push_back(*job);
    count_array_live(*job, false);
    m_live.erase(job->id);
  }
  // Components not among `jobs` go with their leader.
  for (const Job& leader : leaders) end_het_components(leader);
  m_dirty = true;
}

namespace {

// A run whose command has ended on every node while its nodes stay its own.
bool kept_alive(const Job& job) {
  return job.spec.run && !job.alloc.empty() &&
         std::all_of(job.alloc.begin(), job.alloc.end(),
                     [](const NodeAlloc& a) { return a.task_ended; });
}

}  // namespace

void Controller::end_kept_alive(Job& job) {
  job.spec.run->stopped = true;
  const bool failed = std::any_of(job.alloc.begin(), job.alloc.end(), [](const NodeAlloc& a) {
    return a.exit_status != 0 || a.exit_signal != 0;
  });
  log_info("run {} stopped: its kept-alive nodes are released", job.spec.name);
  finish(job, failed ? JobState::failed : JobState::completed);
}

namespace {

// An sshd with a child is serving a session (it forks one per connection).
bool has_children(std::int64_t pid) {
  std::string children;
  try {
    children = fs::read_file(fmt::format("/proc/{0}/task/{0}/children", pid));
  } catch (const Error&) {
    return false;
  }
  return children.find_first_not_of(" \n") != std::string::npos;
}

}  // namespace

Seconds Controller::kept_alive_last_use(const Job& job, Seconds now) {
  Seconds last = job.start_time;
  for (std::uint32_t i = 0; i < job.alloc.size(); ++i) {
    struct stat st {};
    if (::stat(task_file(m_paths, job.id, i, "result").c_str(), &st) == 0)
      last = std::max<Seconds>(last, st.st_mtime);
  }
  for (const NodeAlloc& a : job.alloc) {
    if (a.sshd_pid > 0 && proc::alive(a.sshd_pid, a.sshd_start_ticks) && has_children(a.sshd_pid))
      return now;
  }
  for (const JobStep& s : m_store->steps({job.id})) {
    if (s.attempt != job.restart_count) continue;
    if (s.state == JobState::running || s.end_time == k_no_time) return now;
    last = std::max(last, s.end_time);
  }
  return last;
}

void Controller::end_idle_kept_alive() {
  const Seconds max_idle = m_config.conf_time("StintKeepAliveMax");
  if (max_idle == k_infinite) return;
  const Seconds t = now();
  std::vector<JobId> idle;
  for (const auto& [id, job] : m_live) {
    if (job.state != JobState::running || !kept_alive(job) || job.spec.run->stopped) continue;
    if (t - kept_alive_last_use(job, t) >= max_idle) idle.push_back(id);
  }
  for (JobId id : idle) {
    Job& job = m_live.at(id);
    job.state_desc =
        fmt::format("Released after {} unused with its command ended (StintKeepAliveMax)",
                    parse::format_duration(max_idle));
    log_info("run {}: {}", job.spec.name, job.state_desc);
    end_kept_alive(job);
  }
}

void Controller::cancel_running(Job& job, bool asked) {
  // A run kept alive has no task left to stop: its nodes are let go now.
  if (kept_alive(job)) {
    end_kept_alive(job);
    return;
  }
  // A het job's component with no task of its own lets its nodes go now.
  if (job.is_het_component() && !job.is_het_leader()) {
    finish(job, JobState::cancelled);
    return;
  }
  if (asked) {
    // Over a requeue or preemption under way: the user's cancel wins.
    RequeueMarker marker;
    marker.requeue = false;
    marker.user_cancel = true;
    write_requeue_marker(m_paths, job.id, marker);
  }
  for (const auto& a : job.alloc) {
    if (a.stepd_pid > 0 && proc::alive(a.stepd_pid, a.stepd_start_ticks))
      ::kill(static_cast<pid_t>(a.stepd_pid), SIGTERM);
  }
}

void Controller::signal_running(const Job& job, int signal, SignalTarget target) {
  for (const auto& a : job.alloc) {
    if (a.stepd_pid > 0 && proc::alive(a.stepd_pid, a.stepd_start_ticks)) {
      sigval value{};
      value.sival_int = forward_value(signal, target);
      ::sigqueue(static_cast<pid_t>(a.stepd_pid), k_stepd_forward_signal, value);
    }
  }
}

void Controller::recover() {
  // Opened (created, the first time) now, not by the first submission: a
  // new database's set-up takes several syncs.
  scripts();
  m_live_cluster_runs = m_store->live_cluster_runs().size();
  JobFilter active;
  active.active_only = true;
  for (auto& job : m_store->jobs(active)) {
    // The spec in the database has no environment and script; the launcher
    // reads them from the spool folder when it needs them.
    if (is_active(job.state)) m_maybe_active.insert(job.id);
    count_array_live(job, true);
    m_live.emplace(job.id, std::move(job));
  }
  log_info("recovered {} unfinished jobs", m_live.size());
  resume_storage_removals();
  // Node sshds: one started as the last stintd was killed (not recorded) is
  // adopted; one of a job that is over is stopped.
  for (const auto& found : sweep_node_sshds(m_paths, m_live)) {
    NodeAlloc& a = m_live.at(found.job).alloc.at(found.node);
    a.sshd_pid = found.pid;
    a.sshd_start_ticks = proc::start_ticks(found.pid).value_or(0);
    save(m_live.at(found.job));
  }
  recover_preemptions();
  load_node_state();
  load_reservations();
  collect();
}

bool Controller::collect() {
  bool changed = false;
  std::vector<JobId> running;
  std::erase_if(m_maybe_active, [&](JobId id) {
    auto it = m_live.find(id);
    return it == m_live.end() || !is_active(it->second.state);
  });
  running.assign(m_maybe_active.begin(), m_maybe_active.end());
  for (JobId id : running) {
    // A het job's component that its leader's end took along is gone.
    auto live = m_live.find(id);
    if (live == m_live.end()) continue;
    Job& job = live->second;
    if (kept_alive(job)) continue;  // its results are in; it waits for run-stop
    // No task of its own: it ends with its leader (daemon/het_jobs.cpp).
    if (job.is_het_component() && !job.is_het_leader()) {
      if (!find_live(job.het_job_id)) {
        // Its leader ended while stintd was down: it goes as the leader went.
        if (auto leader = m_store->job(job.het_job_id)) {
          job.exit_status = leader->exit_status;
          job.exit_signal = leader->exit_signal;
          finish(job, leader->state);
        } else {
          finish(job, JobState::cancelled);
        }
        changed = true;
      }
      continue;
    }
    std::uint32_t n = task_count(job);
    std::uint32_t ended = 0;
    bool lost = false;
    bool started = false;  // a result, a stepd or a launch file of this attempt
    for (std::uint32_t i = 0; i < n; ++i) {
      std::string result = task_file(m_paths, id, i, "result");
      if (fs::exists(result)) {
        ++ended;
        started = true;
        continue;
      }
      NodeAlloc& a = job.alloc[i];
      if (a.stepd_pid == 0) adopt_unrecorded_stepd(job, i);
      if (!proc::alive(a.stepd_pid, a.stepd_start_ticks)) {
        // stepd writes its result before it exits: look once more.
        if (fs::exists(result)) {
          ++ended;
          started = true;
        } else {
          lost = true;
          if (a.stepd_pid != 0 || !withdraw_start(id, i)) started = true;
        }
      } else {
        started = true;
      }
    }
    if (lost && !started) {
      // stintd was killed after writing the job RUNNING and before any task
      // was claimed by its stepd (launch() removes the last attempt's files
      // first): nothing ran, so the job simply waits again.
      log_info("job {}: its start was cut short by a restart of stintd; it waits again",
               job.display_id());
      release_node_ssh(job);
      job.state = JobState::pending;
      job.alloc.clear();
      job.start_time = k_no_time;
      save(job);
      changed = true;
      continue;
    }
    // What follows changes the live job and then writes it; a write that
    // fails (a full disk) must leave the live job as the database has it, or
    // the next collect would skip a job it took for ended and never retry.
    if (!lost && ended != n) continue;
    const Job before = job;
    try {
      end_collected(job, lost);
    } catch (...) {
      if (auto it = m_live.find(id); it != m_live.end()) it->second = before;
      throw;
    }
    changed = true;
  }
  return changed;
}

void Controller::end_collected(Job& job, bool lost) {
  if (!lost) {
    complete_from_results(job);
    return;
  }
  log_error("job {}: stepd vanished without a result", job.display_id());
  // The job's other stepds go too (their tasks die with them): the next
  // attempt must not run beside what is left of this one.
  for (const auto& a : job.alloc) {
    if (a.stepd_pid > 0 && proc::alive(a.stepd_pid, a.stepd_start_ticks))
      ::kill(static_cast<pid_t>(a.stepd_pid), SIGKILL);
  }
  job.exit_status = 0;
  job.exit_signal = 0;
  // Cancelled before its stepd went: the user's word stands, the job does
  // not run again.
  if (auto marker = read_requeue_marker(m_paths, job.id); marker && marker->user_cancel) {
    clear_requeue_marker(m_paths, job.id);
    m_preempting.erase(job.id);
    finish(job, JobState::cancelled);
    return;
  }
  if (job.requeue) {
    requeue_now(job, JobState::node_fail, false, false);
  } else {
    finish(job, JobState::node_fail);
  }
}

bool Controller::withdraw_start(JobId id, std::uint32_t task) {
  // Removing the launch file settles it with a stepd that may still be on its
  // way (spawned as stintd was killed, not yet running its own code): one
  // that has not renamed the file to task-<n>.claimed.json never will, and
  // never runs the task (stepd.cpp, claim_launch).
  const std::string launch = task_file(m_paths, id, task, "launch");
  if (::unlink(launch.c_str()) == 0) return true;
  return !fs::exists(task_file(m_paths, id, task, "claimed"));
}

void Controller::adopt_unrecorded_stepd(Job& job, std::uint32_t task) {
  // A stintd killed between the spawn and saving the pid: the stepd is known
  // by its launch file. None found means none was spawned, or it died; see
  // collect() for how each is told apart. Only a process running our
  // stint-stepd as our user: any local user may start one whose command line
  // names the launch file, and adopting it would make stintd wait on, signal
  // and trust the results of a stranger's process.
  std::string stepd_exe;
  try {
    stepd_exe = find_helper("stint-stepd");
  } catch (const Error& e) {
    log_error("job {}: {}", job.display_id(), e.what());
    return;
  }
  const auto pid =
      proc::find_process("stint-stepd", task_file(m_paths, job.id, task, "launch"), stepd_exe);
  if (!pid) return;
  NodeAlloc& a = job.alloc[task];
  a.stepd_pid = *pid;
  a.stepd_start_ticks = proc::start_ticks(*pid).value_or(0);
  save(job);
  log_info("job {}: found its stepd {} (task {}), started before the last restart",
           job.display_id(), *pid, task);
}

void Controller::stepd_exited(std::int64_t pid, int status) {
  if (m_mailer && m_mailer->reaped(pid, status)) return;
  if (storage_removal_ended(pid, status)) return;
  m_dirty = true;
}

void Controller::complete_from_results(Job& job) {
  std::uint32_t n = task_count(job);
  JobState state = JobState::completed;
  Seconds ended_at = k_no_time;  // the last task's end, as recorded
  for (std::uint32_t i = 0; i < n; ++i) {
    TaskResult r;
    try {
      r = task_result_from_json_text(fs::read_file(task_file(m_paths, job.id, i, "result")));
    } catch (const Error& e) {
      log_error("job {}: unreadable result: {}", job.display_id(), e.what());
      r.launch_failed = true;
      r.exit_status = 1;
    }
    if (i == 0 && site_scripts_ended(job, r)) return;  // requeued held: a prolog failed
    // As slurmstepd past UnkillableStepTimeout: the node is drained.
    if (r.kill_failed && i < job.alloc.size()) {
      log_error("job {}: processes outlived SIGKILL on {}", job.display_id(), job.alloc[i].node);
      drain_node(job.alloc[i].node, "Kill task failed");
    }
    if (r.launch_failed && r.exit_status == 0 && r.exit_signal == 0) r.exit_status = 1;
    // What stepd.log says of a failed launch, where scontrol and sacct show it.
    if (r.launch_failed && !r.error.empty() && job.state_desc.empty()) {
      job.state_desc = r.error;
      if (job.alloc.size() > 1 && i < job.alloc.size())
        job.state_desc += fmt::format(" (on {})", job.alloc[i].node);
    }
    if (i == 0) {
      job.exit_status = r.exit_status;
      job.exit_signal = r.exit_signal;
      state = state_from_result(r);
      if (r.start_time > 0) job.start_time = r.start_time;
    } else if (state == JobState::completed && state_from_result(r) != JobState::completed) {
      // A run ends as its worst node: the first rank that did not complete.
      state = state_from_result(r);
      job.exit_status = r.exit_status;
      job.exit_signal = r.exit_signal;
    }
    if (job.spec.run && i < job.alloc.size()) {
      job.alloc[i].task_ended = true;
      job.alloc[i].exit_status = r.exit_status;
      job.alloc[i].exit_signal = r.exit_signal;
    }
    if (r.end_time > 0 && (ended_at == k_no_time || r.end_time > ended_at)) ended_at = r.end_time;
    job.user_cpu_us += r.user_cpu_us;
    job.sys_cpu_us += r.sys_cpu_us;
    job.max_rss_kb = std::max(job.max_rss_kb, r.max_rss_kb);
  }
  // A requeue asked for while it ran: the attempt ends REQUEUED and the job
  // goes back in the queue instead of ending.
  clear_suspend_marker(m_paths, job.id);
  m_suspended_by.erase(job.id);
  if (job.spec.run && job.spec.run->keep_alive && !job.spec.run->stopped &&
      state != JobState::cancelled && !fs::exists(m_paths.spool(job.id) + "/requeue")) {
    // Keep-alive: the nodes stay the run's until run-stop.
    m_store->update_job(job);
    log_info("run {}: command ended, nodes kept alive", job.spec.name);
    return;
  }
  if (auto marker = read_requeue_marker(m_paths, job.id)) {
    clear_requeue_marker(m_paths, job.id);
    m_preempting.erase(job.id);
    // scancel: CANCELLED, even when the task ended on its own meanwhile, as
    // slurmctld marks the job at the cancel.
    if (marker->user_cancel) {
      finish(job, JobState::cancelled, ended_at);
      return;
    }
    if (marker->preempted && marker->cancel) {
      job.reason = Reason::none;
      finish(job, JobState::preempted);
      return;
    }
    // Killed at the end of its reservation (daemon/reservations.cpp): TIMEOUT,
    // as slurmctld ends it.
    if (marker->reservation_ended) {
      job.reason = Reason::none;
      finish(job, JobState::timeout);
      return;
    }
    // A node that went DOWN under the job: its attempt ended NODE_FAIL, and
    // the job ends so unless it may be requeued.
    if (marker->node_fail && !marker->requeue) {
      job.exit_status = 0;
      job.exit_signal = 0;
      finish(job, JobState::node_fail);
      return;
    }
    const JobState attempt = marker->preempted   ? JobState::preempted
                             : marker->node_fail ? JobState::node_fail
                                                 : JobState::requeued;
    requeue_now(job, attempt, marker->hold, marker->admin_hold, marker->special_exit);
    return;
  }
  // RequeueExit and RequeueExitHold (slurm.conf): a batch job whose script
  // exits with one of their codes goes back to the queue, the second held in
  // SPECIAL_EXIT; the attempt ends REQUEUED, as slurmctld's job_hold_requeue.
  if (!job.spec.run && !job.spec.allocation_only && job.exit_signal == 0 &&
      (state == JobState::completed || state == JobState::failed)) {
    const std::string requeue_exit = m_config.conf("RequeueExit").value_or("");
    const std::string requeue_exit_hold = m_config.conf("RequeueExitHold").value_or("");
    const bool again = config::exit_code_listed(requeue_exit, job.exit_status);
    const bool held = !again && config::exit_code_listed(requeue_exit_hold, job.exit_status);
    if (again || held) {
      requeue_now(job, JobState::requeued, false, false, held);
      return;
    }
  }
  finish(job, state, ended_at);  // `job` is gone from m_live after this
}

}  // namespace stint::daemon
