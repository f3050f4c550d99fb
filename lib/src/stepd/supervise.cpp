// The supervision loop: one poll over a signalfd (SIGCHLD, stintd's SIGTERM
// and SIGUSR1) and the launch report pipe, with the next deadline (time limit,
// KillWait, the drain of leftovers) as poll's timeout. Nothing sleeps.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <optional>

#include <dirent.h>
#include <fmt/core.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "stepd/spawn.hpp"
#include "stepd/stepd.hpp"
#include "util/clock.hpp"

namespace stint::stepd {
namespace {

using detail::Fd;
using SteadyClock = std::chrono::steady_clock;

// A deadline this far away is as good as none, and keeps steady_clock's
// nanoseconds from overflowing on an absurd time limit.
constexpr Seconds k_max_delay = Seconds{100} * 365 * 24 * 3600;
// poll takes an int of milliseconds; longer waits are taken in slices.
constexpr std::int64_t k_max_poll_ms = 3600 * 1000;

SteadyClock::time_point after(Seconds delay) {
  return SteadyClock::now() + std::chrono::seconds(std::clamp<Seconds>(delay, 0, k_max_delay));
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

void append_children_of_thread(const std::string& file, std::vector<pid_t>& out) {
  FILE* f = std::fopen(file.c_str(), "re");
  if (!f) return;
  long pid = 0;
  while (std::fscanf(f, "%ld", &pid) == 1) out.push_back(static_cast<pid_t>(pid));
  std::fclose(f);
}

// The live children of this process. /proc/self/task/*/children lists them
// directly (CONFIG_PROC_CHILDREN); both supervision and leftovers are small
// enough that the list is short.
std::vector<pid_t> child_pids() {
  std::vector<pid_t> out;
  DIR* dir = ::opendir("/proc/self/task");
  if (!dir) return out;
  while (const dirent* e = ::readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    append_children_of_thread(fmt::format("/proc/self/task/{}/children", e->d_name), out);
  }
  ::closedir(dir);
  return out;
}

class Supervisor {
 public:
  explicit Supervisor(const TaskLaunch& launch) : m_launch(launch) {
    m_result.job_id = launch.job_id;
    m_result.node_index = launch.node_index;
  }

  TaskResult run() {
    SignalScope signals;
    m_result.start_time = wall_now();
    try {
      m_files = detail::open_output_files(m_launch);
    } catch (const Error& e) {
      return launch_failed(e.what());
    }
    try {
      detail::Spawned spawned = detail::spawn_task(m_launch, m_files);
      m_pid = spawned.pid;
      m_report = std::move(spawned.report);
    } catch (const Error& e) {
      write_output_line(output_error_prefix(m_launch) + e.what() + "\n");
      return launch_failed(e.what());
    }
    // Slurm's --time=0 means no limit, as does UNLIMITED (k_infinite).
    if (m_launch.time_limit > 0) m_deadline = after(m_launch.time_limit);
    try {
      loop(signals.fd());
    } catch (...) {
      // Never leave a task running without its supervisor.
      ::killpg(m_pid, SIGKILL);
      throw;
    }
    return m_result;
  }

 private:
  enum class Phase {
    running,      ///< the task runs; the deadline, if any, is its time limit
    terminating,  ///< SIGTERM sent; the deadline is the end of KillWait
    killed,       ///< SIGKILL sent; waiting for it to be reaped
    draining,     ///< the task was reaped; killing and reaping what it left
  };

  TaskResult launch_failed(const std::string& why) {
    m_result.launch_failed = true;
    m_result.error = why;
    m_result.end_time = wall_now();
    return m_result;
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
      if (!m_done && m_deadline && SteadyClock::now() >= *m_deadline) on_deadline();
    }
  }

  int timeout_ms() const {
    if (!m_deadline) return -1;
    auto left = std::chrono::ceil<std::chrono::milliseconds>(*m_deadline - SteadyClock::now());
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

  void forward(int sig) {
    if (m_task_reaped || sig <= 0 || sig >= NSIG) return;
    ::killpg(m_pid, sig);
  }

  // Slurm's order: the line into the job's error file, SIGCONT (so a stopped
  // task can act on what follows), SIGTERM, and SIGKILL after KillWait.
  void begin_kill(KillCause cause) {
    if (m_task_reaped || m_phase != Phase::running) return;
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
        m_deadline.reset();
        break;
      case Phase::killed:
        m_deadline.reset();
        break;
      case Phase::draining:
        // Leftovers that SIGKILL did not end in time (uninterruptible sleep):
        // the result must not wait for them.
        m_done = true;
        break;
    }
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
    m_phase = Phase::draining;
    m_deadline = after(k_drain_timeout);
  }

  // Slurm ends a job's remaining processes when its batch script ends. The
  // group holds most; children that left it (setsid, setpgid) were
  // re-parented to us as orphans and are killed one by one. Called again on
  // every SIGCHLD, since each death can hand us new orphans.
  void kill_leftovers() {
    ::killpg(m_pid, SIGKILL);
    for (pid_t pid : child_pids()) ::kill(pid, SIGKILL);
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
  TaskResult m_result;
  detail::OutputFiles m_files;
  pid_t m_pid = -1;
  Fd m_report;
  Phase m_phase = Phase::running;
  std::optional<SteadyClock::time_point> m_deadline;
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

TaskResult supervise_task(const TaskLaunch& launch) { return Supervisor(launch).run(); }

}  // namespace stint::stepd
