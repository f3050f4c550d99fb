// The supervision loop: one poll over a signalfd (SIGCHLD, stintd's SIGTERM
// and SIGUSR1) and the launch report pipe, with the nearest deadline as poll's
// timeout: the phase's (time limit, KillWait, the drain of leftovers), the
// next memory sample, the next activity sample of a run's node, and
// --signal's. Nothing sleeps.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "stepd/activity.hpp"
#include "stepd/cgroup.hpp"
#include "stepd/proc.hpp"
#include "stepd/signal_target.hpp"
#include "stepd/spawn.hpp"
#include "stepd/stepd.hpp"
#include "util/clock.hpp"
#include "util/fs.hpp"

namespace stint::stepd {
namespace {

using detail::Fd;
using SteadyClock = std::chrono::steady_clock;

// A deadline this far away is as good as none, and keeps steady_clock's
// nanoseconds from overflowing on an absurd time limit.
constexpr Seconds k_max_delay = Seconds{100} * 365 * 24 * 3600;
// poll takes an int of milliseconds; longer waits are taken in slices.
constexpr std::int64_t k_max_poll_ms = std::int64_t{3600} * 1000;

SteadyClock::time_point after(Seconds delay) {
  return SteadyClock::now() + std::chrono::seconds(std::clamp<Seconds>(delay, 0, k_max_delay));
}

SteadyClock::time_point after(std::chrono::milliseconds delay) {
  return SteadyClock::now() + delay;
}

void earliest(std::optional<SteadyClock::time_point>& acc,
              const std::optional<SteadyClock::time_point>& t) {
  if (t && (!acc || *t < *acc)) acc = t;
}

bool due(const std::optional<SteadyClock::time_point>& t, SteadyClock::time_point now) {
  return t && now >= *t;
}

// Blocks the signals stepd reads, opens the signalfd and makes this process a
// child subreaper (orphaned grandchildren come to us, not to init, so they can
// be reaped and killed). All undone on destruction, for in-process callers.
class SignalScope {
 public:
  SignalScope() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGUSR1}) sigaddset(&set, s);
    ::pthread_sigmask(SIG_BLOCK, &set, &m_old_mask);
    m_fd = Fd(::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
    if (!m_fd) {
      int saved = errno;
      ::pthread_sigmask(SIG_SETMASK, &m_old_mask, nullptr);
      throw Error(Errc::internal, fmt::format("signalfd: {}", std::strerror(saved)));
    }
    ::prctl(PR_GET_CHILD_SUBREAPER, &m_was_subreaper);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  }
  ~SignalScope() {
    ::prctl(PR_SET_CHILD_SUBREAPER, m_was_subreaper);
    ::pthread_sigmask(SIG_SETMASK, &m_old_mask, nullptr);
  }
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

  int fd() const { return m_fd.get(); }

 private:
  sigset_t m_old_mask{};
  int m_was_subreaper = 0;
  Fd m_fd;
};

std::uint64_t micros(const timeval& tv) {
  return static_cast<std::uint64_t>(tv.tv_sec) * 1000000u + static_cast<std::uint64_t>(tv.tv_usec);
}

// How often the task's memory is sampled: often enough to catch a limit
// within a fraction of a second, rarely enough to cost nothing measurable.
// Without a limit the samples only feed MaxRSS.
constexpr std::chrono::milliseconds k_sample_limited{200};
constexpr std::chrono::milliseconds k_sample_unlimited{1000};

std::string step_id(const TaskLaunch& launch) {
  return fmt::format("StepId={}.batch", launch.job_id);
}

class Supervisor {
 public:
  Supervisor(const TaskLaunch& launch, const LogFn& log) : m_launch(launch), m_log(log) {
    m_result.job_id = launch.job_id;
    m_result.node_index = launch.node_index;
  }

  TaskResult run() {
    SignalScope signals;
    m_result.start_time = wall_now();
    try {
      m_files = detail::open_output_files(m_launch);
    } catch (const Error& e) {
      // slurmstepd reports ESLURMD_IO_ERROR (4021) as the batch step's raw
      // status, which sacct reads as signal 53: the job shows ExitCode 0:53
      // and its .batch step CANCELLED, as on a cluster.
      constexpr int k_io_error_signal = 4021 & 0x7f;
      m_result.exit_signal = k_io_error_signal;
      return launch_failed(e.what());
    }
    set_up_memory_limit();
    std::vector<std::string> notes;
    const detail::RlimitPlan limits = detail::plan_rlimits(m_launch, notes);
    for (const std::string& note : notes) log("{}", note);
    try {
      detail::Spawned spawned =
          detail::spawn_task(m_launch, m_files, m_cgroup ? m_cgroup->procs_fd() : -1, limits);
      m_pid = spawned.pid;
      m_report = std::move(spawned.report);
    } catch (const Error& e) {
      write_output_line(output_error_prefix(m_launch) + e.what() + "\n");
      return launch_failed(e.what());
    }
    // Slurm's --time=0 means no limit, as does UNLIMITED (k_infinite).
    bool limited = m_launch.time_limit > 0;
    if (limited) m_deadline = after(m_launch.time_limit);
    const SignalSpec& sig = m_launch.signal;
    if (limited && sig.signal > 0 && sig.signal < NSIG)
      m_signal_at = after(m_launch.time_limit - std::max<Seconds>(sig.before, 0));
    m_sample_at = after(sample_interval());
    if (m_launch.idle_after > 0) {
      m_idle.emplace(m_launch.idle_after, m_result.start_time);
      m_activity_at = after(detail::activity_interval(m_launch.idle_after));
      m_activity_sampled = SteadyClock::now();
    }
    try {
      loop(signals.fd());
    } catch (...) {
      // Never leave a task running without its supervisor.
      ::killpg(m_pid, SIGKILL);
      throw;
    }
    finish_memory();
    return m_result;
  }

 private:
  enum class Phase {
    running,      ///< the task runs; the deadline, if any, is its time limit
    terminating,  ///< SIGTERM sent; the deadline is the end of KillWait
    killed,       ///< SIGKILL sent; waiting for it to be reaped
    draining,     ///< the task was reaped; killing and reaping what it left
  };

  template <typename... Args>
  void log(fmt::format_string<Args...> format, Args&&... args) {
    if (!m_log) return;
    m_log(fmt::format("job {} node {}: {}", m_launch.job_id, m_launch.node_index,
                      fmt::format(format, std::forward<Args>(args)...)));
  }

  TaskResult launch_failed(const std::string& why) {
    m_result.launch_failed = true;
    m_result.error = why;
    m_result.end_time = wall_now();
    return m_result;
  }

  // cgroup v2 where it really works (cgroup.hpp), RSS sampling otherwise; the
  // choice goes into stepd's log.
  void set_up_memory_limit() {
    if (m_launch.mem_limit_mb == 0) return;
    // Saturating: an absurd limit is as good as none, not a wrapped tiny one.
    constexpr std::uint64_t k_max_mb = std::numeric_limits<std::uint64_t>::max() >> 20;
    m_limit_bytes = std::min(m_launch.mem_limit_mb, k_max_mb) << 20;
    detail::CgroupSetup setup;
    if (const char* configured = std::getenv("STINT_CGROUP")) setup.configured = configured;
    std::string why;
    m_cgroup =
        detail::Cgroup::create(fmt::format("stint_job_{}_{}", m_launch.job_id, m_launch.node_index),
                               m_limit_bytes, why, setup);
    if (m_cgroup) {
      log("memory limit {} MiB: cgroup v2 {}", m_launch.mem_limit_mb, m_cgroup->path());
    } else {
      log("memory limit {} MiB: sampling the task's RSS every {} ms (no cgroup: {})",
          m_launch.mem_limit_mb, k_sample_limited.count(), why);
    }
  }

  std::chrono::milliseconds sample_interval() const {
    return m_limit_bytes > 0 ? k_sample_limited : k_sample_unlimited;
  }

  void loop(int signal_fd) {
    while (!m_done) {
      pollfd fds[2] = {{signal_fd, POLLIN, 0}, {m_report ? m_report.get() : -1, POLLIN, 0}};
      int n = ::poll(fds, 2, timeout_ms());
      if (n < 0) {
        if (errno == EINTR) continue;
        throw Error(Errc::internal, fmt::format("poll: {}", std::strerror(errno)));
      }
      if (fds[1].revents != 0) read_report();
      if (fds[0].revents != 0) read_signals(signal_fd);
      auto now = SteadyClock::now();
      if (!m_done && due(m_signal_at, now)) send_time_signal();
      if (!m_done && due(m_sample_at, now)) sample_memory();
      if (!m_done && due(m_activity_at, now)) sample_activity();
      if (!m_done && due(m_deadline, now)) on_deadline();
    }
  }

  int timeout_ms() const {
    std::optional<SteadyClock::time_point> next = m_deadline;
    earliest(next, m_sample_at);
    earliest(next, m_activity_at);
    earliest(next, m_signal_at);
    if (!next) return -1;
    auto left = std::chrono::ceil<std::chrono::milliseconds>(*next - SteadyClock::now());
    return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, k_max_poll_ms));
  }

  void read_signals(int signal_fd) {
    bool child = false;
    signalfd_siginfo si{};
    while (::read(signal_fd, &si, sizeof si) == static_cast<ssize_t>(sizeof si)) {
      switch (si.ssi_signo) {
        case SIGCHLD:
          child = true;
          break;
        case SIGTERM:
        case SIGINT:
          begin_kill(KillCause::cancel);
          break;
        case SIGUSR1:
          // Only stintd's sigqueue carries a signal number; a bare kill -USR1
          // (ssi_int 0) is not a request.
          if (si.ssi_code == SI_QUEUE) forward(si.ssi_int);
          break;
        default:
          break;
      }
    }
    // SIGCHLD is not queued: one notification may stand for many children.
    if (child) reap();
  }

  // stintd suspends a job (scontrol suspend, preemption) with SIGSTOP and
  // resumes it with SIGCONT: Slurm sends SIGTSTP first (a shell or a job that
  // catches it may act), every process of the job stops (srun's tasks too,
  // in process groups of their own), and the time a job spends suspended
  // does not count toward its time limit, so the clocks stop with it. Other
  // signals reach what `target` says (scancel's --batch and --full).
  void forward(int value) {
    const int sig = forwarded_signal(value);
    const SignalTarget target = forwarded_target(value);
    if (m_task_reaped || sig <= 0 || sig >= NSIG) return;
    switch (target) {
      case SignalTarget::batch:
        ::kill(m_pid, sig);
        return;
      case SignalTarget::steps:
        signal_steps(sig);
        return;
      case SignalTarget::suspend:
        suspend_or_resume(sig);
        return;
      case SignalTarget::all:
        break;
    }
    // A stopped task must run to act on SIGTERM (GraceTime's, or scancel -s).
    if (sig == SIGTERM) ::killpg(m_pid, SIGCONT);
    ::killpg(m_pid, sig);
  }

  // The job's steps are what its sruns started: every process of each, as
  // slurmstepd signals a step's processes under proctrack/linuxproc. The
  // batch shell, srun itself and what the shell started outside srun get
  // nothing. (srun does not pass on a signal from this stepd: it takes one
  // for a signal to the whole process group, which its tasks had too.)
  void signal_steps(int sig) {
    for (pid_t pid : detail::descendants_of(::getpid())) {
      if (pid == m_pid || detail::command_name(pid) != "srun") continue;
      for (pid_t task : detail::descendants_of(pid)) {
        if (detail::command_name(task) != "srun") ::kill(task, sig);
      }
    }
  }

  void suspend_or_resume(int sig) {
    if (sig == SIGSTOP && m_phase == Phase::running && !m_suspended_at) {
      ::killpg(m_pid, SIGTSTP);
      for (pid_t pid : detail::descendants_of(::getpid())) ::kill(pid, SIGSTOP);
      m_suspended_at = SteadyClock::now();
      m_left_at_suspend = m_deadline;
      m_signal_left_at_suspend = m_signal_at;
      m_deadline.reset();
      m_signal_at.reset();
      log("suspended");
      return;
    }
    if (sig == SIGCONT && m_suspended_at) {
      const auto paused = SteadyClock::now() - *m_suspended_at;
      m_suspended_at.reset();
      if (m_left_at_suspend) m_deadline = *m_left_at_suspend + paused;
      if (m_signal_left_at_suspend) m_signal_at = *m_signal_left_at_suspend + paused;
      m_left_at_suspend.reset();
      m_signal_left_at_suspend.reset();
      for (pid_t pid : detail::descendants_of(::getpid())) ::kill(pid, SIGCONT);
      log("resumed");
    }
  }

  // --signal: once, `before` seconds ahead of the time limit, to the task's
  // process group, or with B: to the batch shell (the task's own process) only.
  // A task already being ended gets nothing more.
  void send_time_signal() {
    m_signal_at.reset();
    if (m_task_reaped || m_phase != Phase::running) return;
    const SignalSpec& sig = m_launch.signal;
    // sbatch --signal: the steps, as Slurm's default; B: the batch shell alone.
    if (sig.batch_only) {
      ::kill(m_pid, sig.signal);
    } else {
      signal_steps(sig.signal);
    }
    log("signal {} sent {} s before the time limit{}", sig.signal, sig.before,
        sig.batch_only ? " (batch shell only)" : "");
  }

  // Slurm's order: the line into the job's error file, SIGCONT (so a stopped
  // task can act on what follows), SIGTERM, and SIGKILL after KillWait.
  void begin_kill(KillCause cause) {
    if (m_task_reaped || m_phase != Phase::running) return;
    m_suspended_at.reset();  // the SIGCONT below wakes it to be ended
    if (cause == KillCause::cancel) {
      m_result.cancelled = true;
    } else {
      m_result.timed_out = true;
    }
    write_output_line(kill_line(m_launch, cause, wall_now()));
    ::killpg(m_pid, SIGCONT);
    ::killpg(m_pid, SIGTERM);
    m_phase = Phase::terminating;
    m_deadline = after(m_launch.kill_wait);
  }

  void on_deadline() {
    switch (m_phase) {
      case Phase::running:
        begin_kill(KillCause::time_limit);
        break;
      case Phase::terminating:
        ::killpg(m_pid, SIGKILL);
        m_phase = Phase::killed;
        m_deadline = after(m_launch.unkillable_timeout);
        break;
      case Phase::killed:
        // SIGKILL did not end the task within UnkillableStepTimeout
        // (uninterruptible sleep, a hung filesystem): as slurmstepd, give up
        // on it and say so, and the node is drained.
        log("the task outlived SIGKILL by {} s (UnkillableStepTimeout)",
            m_launch.unkillable_timeout);
        m_result.kill_failed = true;
        m_result.exit_signal = SIGKILL;
        m_result.end_time = wall_now();
        m_done = true;
        break;
      case Phase::draining:
        // Leftovers that SIGKILL did not end in time: the same.
        log("processes the task left outlived SIGKILL by {} s (UnkillableStepTimeout)",
            m_launch.unkillable_timeout);
        m_result.kill_failed = true;
        m_done = true;
        break;
    }
  }

  // The task's memory: the sum of VmRSS over its processes (those in its
  // cgroup, or every descendant of this subreaper), as Slurm's jobacct_gather
  // sums a task's process tree. The peak feeds max_rss_kb; without a cgroup,
  // going over the limit ends the task here (Slurm's OverMemoryKill).
  void sample_memory() {
    if (m_task_reaped) {
      m_sample_at.reset();
      return;
    }
    std::vector<pid_t> pids = m_cgroup ? m_cgroup->pids() : detail::descendants_of(::getpid());
    std::uint64_t kb = detail::rss_kb_sum(pids);
    m_peak_rss_kb = std::max(m_peak_rss_kb, kb);
    if (m_limit_bytes > 0 && !m_cgroup && kb * 1024 > m_limit_bytes) memory_kill(kb, pids);
    m_sample_at = after(sample_interval());
  }

  // A run's node: is it in use (stepd/activity.hpp)? Its GPUs where it has
  // them and nvidia-smi answers, else the CPU time of its processes, those
  // running and those reaped. A suspended task is not idle by its owner's
  // doing, so it counts as in use.
  void sample_activity() {
    if (m_task_reaped) {
      m_activity_at.reset();
      return;
    }
    const auto now = SteadyClock::now();
    std::vector<pid_t> pids = m_cgroup ? m_cgroup->pids() : detail::descendants_of(::getpid());
    static const long k_ticks_per_s = std::max(::sysconf(_SC_CLK_TCK), 1L);
    const std::uint64_t reaped_us = m_result.user_cpu_us + m_result.sys_cpu_us;
    const std::uint64_t ticks = detail::cpu_ticks_sum(pids) +
                                reaped_us * static_cast<std::uint64_t>(k_ticks_per_s) / 1000000u;
    const double elapsed_s = std::chrono::duration<double>(now - m_activity_sampled).count();
    // At least 1 % of one CPU since the last sample; a total that went down
    // (a process gone unreaped) is a change, so use too.
    const bool cpu_used = ticks < m_cpu_ticks || static_cast<double>(ticks - m_cpu_ticks) * 100.0 >=
                                                     elapsed_s * static_cast<double>(k_ticks_per_s);
    m_cpu_ticks = ticks;
    m_activity_sampled = now;
    bool gpus = false;
    bool in_use = cpu_used;
    if (!m_launch.gpu_ids.empty()) {
      if (const std::optional<bool> busy = detail::sample_gpus(m_launch.gpu_ids)) {
        gpus = true;
        in_use = *busy;
      } else if (!m_said_no_gpu_sample) {
        m_said_no_gpu_sample = true;
        log("nvidia-smi gave no utilisation for GPUs {}: idle is measured on CPU time",
            fmt::join(m_launch.gpu_ids, ","));
      }
    }
    if (m_suspended_at) in_use = true;
    if (const auto change = m_idle->sample(wall_now(), in_use, gpus)) {
      m_activity = TaskActivity{change->idle_since, change->gpus};
      m_activity_untold = true;
      if (change->idle_since != k_no_time) {
        log("idle for {} s ({}): telling stintd", wall_now() - change->idle_since,
            change->gpus ? "its GPUs at 0 %" : "no CPU time used");
      } else {
        log("in use again");
      }
    }
    if (m_activity_untold) tell_activity();
    m_activity_at = after(detail::activity_interval(m_launch.idle_after));
  }

  // The file is what stintd reads (its spool, written only by stepd); the
  // message says "look now". Told again at the next sample when stintd did
  // not answer.
  void tell_activity() {
    try {
      fs::write_file_atomic(m_launch.activity_path, to_json_text(m_activity), 0600, fs::Sync::no);
    } catch (const Error& e) {
      log("cannot write {}: {}", m_launch.activity_path, e.what());
      return;
    }
    m_activity_untold = !notify_task_activity(m_launch);
  }

  // Slurm's lines, as slurmstepd with JobAcctGatherParams=OverMemoryKill writes
  // them (08-sacct.txt, job 37): the excess in bytes, the cancel line; then
  // SIGKILL to everything, and "Exceeded job memory limit" once it ended.
  void memory_kill(std::uint64_t kb, const std::vector<pid_t>& pids) {
    if (m_result.out_of_memory || m_phase == Phase::killed || m_phase == Phase::draining) return;
    m_result.out_of_memory = true;
    write_output_line(fmt::format("{}{} exceeded memory limit ({} > {}), being killed\n",
                                  output_error_prefix(m_launch), step_id(m_launch), kb * 1024,
                                  m_limit_bytes));
    write_output_line(kill_line(m_launch, KillCause::cancel, wall_now()));
    log("RSS {} KiB is over the limit of {} MiB: killing the task", kb, m_launch.mem_limit_mb);
    ::killpg(m_pid, SIGKILL);
    for (pid_t pid : pids) ::kill(pid, SIGKILL);
    m_phase = Phase::killed;
    m_deadline = after(m_launch.unkillable_timeout);
  }

  // After the loop: the cgroup's verdict and its removal, and max RSS as the
  // larger of wait4's (one process's peak, exact) and the sampled sum.
  void finish_memory() {
    m_result.max_rss_kb = std::max(m_result.max_rss_kb, m_peak_rss_kb);
    if (!m_cgroup) return;
    if (std::uint64_t kills = m_cgroup->oom_kills(); kills > 0) {
      m_result.out_of_memory = true;
      write_output_line(fmt::format(
          "{}Detected {} oom-kill event(s) in {}. Some of your processes may have been killed by "
          "the cgroup out-of-memory handler.\n",
          output_error_prefix(m_launch), kills, step_id(m_launch)));
      log("{} oom-kill event(s) in {}", kills, m_cgroup->path());
    }
    if (!m_cgroup->remove()) log("could not remove {}: {}", m_cgroup->path(), std::strerror(errno));
  }

  void reap() {
    for (;;) {
      int status = 0;
      rusage ru{};
      pid_t pid = ::wait4(-1, &status, WNOHANG, &ru);
      if (pid > 0) {
        // Orphans reaped here did work for the task too: count their CPU time.
        m_result.user_cpu_us += micros(ru.ru_utime);
        m_result.sys_cpu_us += micros(ru.ru_stime);
        m_result.max_rss_kb =
            std::max(m_result.max_rss_kb, static_cast<std::uint64_t>(std::max(ru.ru_maxrss, 0L)));
        if (pid == m_pid) task_ended(status);
        continue;
      }
      if (pid < 0 && errno == EINTR) continue;
      if (pid < 0 && errno == ECHILD && m_task_reaped) m_done = true;
      break;
    }
    if (m_task_reaped && !m_done) kill_leftovers();
  }

  void task_ended(int status) {
    m_task_reaped = true;
    m_result.end_time = wall_now();
    if (WIFEXITED(status)) m_result.exit_status = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) m_result.exit_signal = WTERMSIG(status);
    // A child that failed before exec wrote its report before exiting, so
    // the report is complete now.
    if (m_report) read_report();
    if (m_result.out_of_memory && !m_cgroup)
      write_output_line(output_error_prefix(m_launch) + "Exceeded job memory limit\n");
    m_phase = Phase::draining;
    m_deadline = after(m_launch.unkillable_timeout);
    m_sample_at.reset();
    m_activity_at.reset();
    m_signal_at.reset();
  }

  // Slurm ends a job's remaining processes when its batch script ends. The
  // group holds most; children that left it (setsid, setpgid) were
  // re-parented to us as orphans and are killed one by one. Called again on
  // every SIGCHLD, since each death can hand us new orphans.
  // What stepd may not signal (a setuid program the task left running, in
  // personal mode) it cannot end and does not wait for: it is no sign of a
  // node in trouble, and the job ends without it.
  void kill_leftovers() {
    ::killpg(m_pid, SIGKILL);
    bool left = false;
    bool ours = false;
    for (pid_t pid : detail::children_of(::getpid())) {
      left = true;
      if (::kill(pid, SIGKILL) == 0 || errno != EPERM) ours = true;
    }
    if (left && !ours) {
      log("what the task left runs as another user: not waiting for it");
      m_done = true;
    }
  }

  void read_report() {
    detail::LaunchFailure failure{};
    ssize_t n;
    do {
      n = ::read(m_report.get(), &failure, sizeof failure);
    } while (n < 0 && errno == EINTR);
    m_report.reset();
    if (n != static_cast<ssize_t>(sizeof failure)) return;  // end of file: exec succeeded
    std::string why = detail::describe(m_launch, failure);
    write_output_line(output_error_prefix(m_launch) + why + "\n");
    m_result.launch_failed = true;
    m_result.error = why;
  }

  void write_output_line(const std::string& line) {
    int fd = m_files.err_fd();
    if (fd < 0) return;
    std::size_t done = 0;
    while (done < line.size()) {
      ssize_t n = ::write(fd, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // a full disk loses the line, not the job's result
      done += static_cast<std::size_t>(n);
    }
  }

  const TaskLaunch& m_launch;
  const LogFn& m_log;
  TaskResult m_result;
  detail::OutputFiles m_files;
  pid_t m_pid = -1;
  Fd m_report;
  Phase m_phase = Phase::running;
  std::optional<SteadyClock::time_point> m_deadline;   ///< the phase's
  std::optional<SteadyClock::time_point> m_sample_at;  ///< the next memory sample
  std::optional<SteadyClock::time_point> m_signal_at;  ///< --signal's moment
  /// A run's node watched for idleness (launch.idle_after): the next sample,
  /// the last one's time and CPU ticks, and what stintd was (to be) told.
  std::optional<SteadyClock::time_point> m_activity_at;
  SteadyClock::time_point m_activity_sampled;
  std::uint64_t m_cpu_ticks = 0;
  std::optional<detail::IdleWatch> m_idle;
  TaskActivity m_activity;
  bool m_activity_untold = false;
  bool m_said_no_gpu_sample = false;
  /// While suspended: since when, and the deadlines it had then.
  std::optional<SteadyClock::time_point> m_suspended_at;
  std::optional<SteadyClock::time_point> m_left_at_suspend;
  std::optional<SteadyClock::time_point> m_signal_left_at_suspend;
  std::unique_ptr<detail::Cgroup> m_cgroup;  ///< the task's, when cgroup v2 works
  std::uint64_t m_limit_bytes = 0;           ///< 0: no memory limit
  std::uint64_t m_peak_rss_kb = 0;           ///< largest sampled sum
  bool m_task_reaped = false;
  bool m_done = false;
};

}  // namespace

std::string output_error_prefix(const TaskLaunch& launch) {
  if (launch.node_name.empty()) return "slurmstepd: error: ";
  return fmt::format("slurmstepd-{}: error: ", launch.node_name);
}

std::string kill_line(const TaskLaunch& launch, KillCause cause, Seconds when) {
  std::time_t t = static_cast<std::time_t>(when);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}*** JOB {} ON {} CANCELLED AT {}{} ***\n", output_error_prefix(launch),
                     launch.job_id, launch.node_name, stamp,
                     cause == KillCause::time_limit ? " DUE TO TIME LIMIT" : "");
}

TaskResult supervise_task(const TaskLaunch& launch, const LogFn& log) {
  return Supervisor(launch, log).run();
}

}  // namespace stint::stepd
