#include "cli/srun_tasks.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <optional>

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stint/error.hpp>

#include "cli/srun_pty.hpp"

extern char** environ;

namespace stint::cli {
namespace {

// The signals srun passes on to its tasks, as Slurm's srun does.
constexpr int k_forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};

int g_signal_pipe[2] = {-1, -1};

struct SignalNote {
  int signal;
  pid_t sender;
  int code;
};

void on_signal(int sig, siginfo_t* info, void*) {
  const int saved = errno;
  SignalNote note{sig, info != nullptr ? info->si_pid : 0, info != nullptr ? info->si_code : 0};
  (void)!::write(g_signal_pipe[1], &note, sizeof note);
  errno = saved;
}

void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

int open_output(const std::string& path, bool append) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0)
    throw Error(Errc::io,
                fmt::format("Could not open output file {}: {}", path, std::strerror(errno)));
  return fd;
}

// One labelled stream of one task: what has come in since the last newline.
struct Stream {
  std::uint32_t task_id = 0;
  int read_fd = -1;
  int dest_fd = -1;
  std::string partial;
};

void flush_and_close(Stream& s) {
  if (!s.partial.empty()) write_all(s.dest_fd, fmt::format("{}: {}\n", s.task_id, s.partial));
  s.partial.clear();
  ::close(s.read_fd);
  s.read_fd = -1;
}

/// Reads what a task wrote and passes on its whole lines, labelled. False
/// when nothing was there to read (a non-blocking stream that would block).
bool pump(Stream& s) {
  char buf[65536];
  ssize_t n = ::read(s.read_fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return false;
  if (n <= 0) {
    flush_and_close(s);
    return true;
  }
  s.partial.append(buf, static_cast<std::size_t>(n));
  std::string out;
  std::size_t start = 0;
  for (std::size_t nl; (nl = s.partial.find('\n', start)) != std::string::npos; start = nl + 1)
    out +=
        fmt::format("{}: {}\n", s.task_id, std::string_view(s.partial).substr(start, nl - start));
  s.partial.erase(0, start);
  write_all(s.dest_fd, out);
  return true;
}

struct Started {
  pid_t pid = -1;
  std::size_t index = 0;
};

void set_env(std::vector<std::pair<std::string, std::string>>& env, const std::string& key,
             std::string value) {
  for (auto& [k, v] : env) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  env.emplace_back(key, std::move(value));
}

std::string local_id(const StepTask& t) {
  for (const auto& [k, v] : t.env) {
    if (k == "SLURM_LOCALID") return v;
  }
  return "0";
}

std::vector<char*> c_strings(std::vector<std::string>& words) {
  std::vector<char*> out;
  for (auto& w : words) out.push_back(w.data());
  out.push_back(nullptr);
  return out;
}

// Runs a program with the task's environment and waits for it; its output
// comes back through `out_fd` (or goes to the task's stdout when -1).
int run_with_env(const std::string& program,
                 const std::vector<std::pair<std::string, std::string>>& env, int out_fd) {
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<std::string> argv = {program};
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (out_fd >= 0) ::dup2(out_fd, 1);
    auto envp = c_strings(env_strings);
    auto args = c_strings(argv);
    ::execve(program.c_str(), args.data(), envp.data());
    write_all(2, fmt::format("srun: error: exec {}: {}\n", program, std::strerror(errno)));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// --task-prolog, as slurmstepd runs it: what it prints is read line by line;
// "export NAME=value" and "unset NAME" change the task's environment,
// "print text" goes to the task's stdout.
void run_task_prolog(const std::string& program,
                     std::vector<std::pair<std::string, std::string>>& env) {
  int fds[2];
  if (::pipe(fds) != 0) return;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::_exit(run_with_env(program, env, fds[1]));
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(start, nl - start);
    start = nl + 1;
    if (line.rfind("export ", 0) == 0) {
      const std::string assignment = line.substr(7);
      const std::size_t eq = assignment.find('=');
      if (eq != std::string::npos && eq > 0)
        set_env(env, assignment.substr(0, eq), assignment.substr(eq + 1));
    } else if (line.rfind("unset ", 0) == 0) {
      const std::string name = line.substr(6);
      std::erase_if(env, [&](const auto& kv) { return kv.first == name; });
    } else if (line.rfind("print ", 0) == 0) {
      write_all(1, line.substr(6) + "\n");
    }
  }
}

// What each node's slurmstepd writes when the job ends under a step, once
// per node: "slurmstepd-n1: error: *** STEP 52.0 ON n1 CANCELLED AT <time> ***".
void print_step_cancelled(const std::vector<StepTask>& tasks, const std::string& step,
                          const std::string& why) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  std::vector<std::string> nodes;
  for (const StepTask& t : tasks) {
    if (std::find(nodes.begin(), nodes.end(), t.node) == nodes.end()) nodes.push_back(t.node);
  }
  for (const std::string& node : nodes)
    fmt::print(stderr, "slurmstepd-{}: error: *** STEP {} ON {} CANCELLED AT {}{} ***\n", node,
               step, node, stamp, why);
}

[[noreturn]] void exec_task(const StepTask& t, const StepOptions& o, int in_fd, int out_fd,
                            int err_fd) {
  // Default dispositions for the task, whatever srun set for itself.
  for (int sig : k_forwarded) ::signal(sig, SIG_DFL);
  ::signal(SIGPIPE, SIG_DFL);
  if (o.own_groups && !o.pty) ::setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) ::_exit(127);
  if (t.inherited_fd > 2) ::fcntl(t.inherited_fd, F_SETFD, 0);
  if (!o.work_dir.empty() && ::chdir(o.work_dir.c_str()) != 0) {
    const std::string msg = fmt::format("slurmstepd: error: couldn't chdir to `{}': {}\n",
                                        o.work_dir, std::strerror(errno));
    write_all(2, msg);
    ::_exit(1);
  }
  if (!t.cpus.empty()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : t.cpus) CPU_SET(c, &set);
    // A CPU outside this process's cpuset is refused: the task then runs unbound.
    ::sched_setaffinity(0, sizeof set, &set);
    if (o.cpu_bind_verbose) {
      unsigned long long mask = 0;
      for (int c : t.cpus) {
        if (c < 64) mask |= 1ULL << c;
      }
      write_all(2, fmt::format("cpu-bind=MASK - {}, task {:2} {:2} [{}]: mask 0x{:x} set\n", t.node,
                               t.task_id, local_id(t), ::getpid(), mask));
    }
  }
  std::vector<std::pair<std::string, std::string>> env = t.env;
  set_env(env, "SLURM_TASK_PID", std::to_string(::getpid()));  // as slurmstepd sets it
  if (!o.task_prolog.empty()) run_task_prolog(o.task_prolog, env);
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = t.argv.empty() ? o.argv : t.argv;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  environ = envp.data();  // execvp searches the task's PATH
  ::execvp(argv[0], argv.data());
  const std::string msg =
      fmt::format("slurmstepd: error: execve(): {}: {}\n", args.front(), std::strerror(errno));
  write_all(2, msg);
  ::_exit(2);
}

}  // namespace

std::vector<TaskOutcome> run_step_tasks(const std::vector<StepTask>& tasks, const StepOptions& o) {
  if (o.argv.empty()) throw Error(Errc::invalid_argument, "No command given to execute.");
  if (::pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
    throw Error(Errc::io, fmt::format("pipe: {}", std::strerror(errno)));
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int sig : k_forwarded) ::sigaction(sig, &sa, nullptr);

  const int dev_null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  const int dev_null_out = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  std::optional<PseudoTerminal> pty;
  if (o.pty) pty.emplace();
  pid_t pty_task = -1;
  bool pty_input = o.pty;
  bool pty_output = o.pty;
  // Files named by -o/-e: opened once per path, shared by the tasks writing there.
  std::map<std::string, int> files;
  auto file_fd = [&](const std::string& path) {
    auto it = files.find(path);
    if (it == files.end()) it = files.emplace(path, open_output(path, o.open_append)).first;
    return it->second;
  };

  std::vector<Stream> streams;
  std::vector<Started> started;
  std::vector<TaskOutcome> outcomes(tasks.size());
  try {
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      const StepTask& t = tasks[i];
      outcomes[i].task_id = t.task_id;
      outcomes[i].node = t.node;
      int out_dest = t.stdout_path.empty() ? 1 : file_fd(t.stdout_path);
      int err_dest = !t.stderr_path.empty()  ? file_fd(t.stderr_path)
                     : t.stdout_path.empty() ? 2
                                             : out_dest;
      int child_out = out_dest, child_err = err_dest;
      int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
      if (o.label) {
        if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0)
          throw Error(Errc::io, fmt::format("pipe: {}", std::strerror(errno)));
        child_out = out_pipe[1];
        child_err = err_pipe[1];
      }
      const bool on_pty = pty && t.task_id == 0;
      if (pty && !on_pty) child_out = child_err = dev_null_out;
      pid_t pid = ::fork();
      if (pid < 0) throw Error(Errc::io, fmt::format("fork: {}", std::strerror(errno)));
      if (pid == 0) {
        if (on_pty) {
          if (!pty->attach_child()) ::_exit(1);
          exec_task(t, o, 0, 1, 2);
        }
        exec_task(t, o, t.takes_stdin && !pty ? 0 : dev_null, child_out, child_err);
      }
      if (on_pty) pty_task = pid;
      if (o.own_groups && !on_pty) ::setpgid(pid, pid);
      started.push_back({pid, i});
      if (o.label) {
        ::close(out_pipe[1]);
        ::close(err_pipe[1]);
        streams.push_back({t.task_id, out_pipe[0], out_dest, {}});
        streams.push_back({t.task_id, err_pipe[0], err_dest, {}});
      }
    }
  } catch (...) {
    for (const Started& s : started) ::kill(s.pid, SIGKILL);
    for (const Started& s : started) ::waitpid(s.pid, nullptr, 0);
    throw;
  }
  ::close(dev_null);
  ::close(dev_null_out);
  for (auto& [path, fd] : files) ::close(fd);
  if (pty) pty->start();
  if (o.on_launched) o.on_launched();
  // Sends a signal to each task still running (the one on a terminal, to its
  // whole session's foreground: its process group).
  auto signal_tasks = [&](int sig) {
    for (const Started& s : started) {
      if (s.pid > 0) ::kill(s.pid == pty_task || o.own_groups ? -s.pid : s.pid, sig);
    }
  };
  using Clock = std::chrono::steady_clock;
  auto next_allocation_check = Clock::now();
  std::optional<Clock::time_point> kill_at;
  std::optional<Clock::time_point> first_end;
  bool waited_out = false;

  std::size_t running = started.size();
  while (running > 0 || std::any_of(streams.begin(), streams.end(),
                                    [](const Stream& s) { return s.read_fd >= 0; })) {
    std::vector<pollfd> fds;
    fds.push_back({g_signal_pipe[0], POLLIN, 0});
    for (const Stream& s : streams) {
      if (s.read_fd >= 0) fds.push_back({s.read_fd, POLLIN, 0});
    }
    const std::size_t pty_at = fds.size();
    if (pty) {
      fds.push_back({pty_output ? pty->master() : -1, POLLIN, 0});
      fds.push_back({pty_input ? 0 : -1, POLLIN, 0});
    }
    // Children are reaped on a short tick: SIGCHLD is not worth a handler here.
    ::poll(fds.data(), fds.size(), running > 0 ? 20 : 200);
    SignalNote note{};
    while (::read(g_signal_pipe[0], &note, sizeof note) == sizeof note) {
      // Signals from the job's stepd or the terminal went to the whole group,
      // but for the task on a terminal, in a session of its own.
      const bool to_group =
          note.code == SI_KERNEL || (o.group_signaller > 0 && note.sender == o.group_signaller);
      for (const Started& s : started) {
        if (s.pid <= 0) continue;
        if (s.pid == pty_task || o.own_groups) {
          ::kill(-s.pid, note.signal);
        } else if (!to_group) {
          ::kill(s.pid, note.signal);
        }
      }
    }
    for (std::size_t k = 0, f = 1; k < streams.size(); ++k) {
      if (streams[k].read_fd < 0) continue;
      if (fds[f++].revents != 0) pump(streams[k]);
    }
    if (pty) {
      if (g_window_changed) pty->copy_window_size();
      if (pty_output && fds[pty_at].revents != 0) pty_output = pty->copy_output();
      if (pty_input && fds[pty_at + 1].revents != 0) pty_input = pty->copy_input();
    }
    if (o.allocation_ended && running > 0 && Clock::now() >= next_allocation_check) {
      next_allocation_check = Clock::now() + std::chrono::milliseconds(500);
      const auto ended = kill_at ? std::nullopt : o.allocation_ended();
      if (ended) {
        const int kill_wait = o.kill_wait();
        fmt::print(stderr,
                   "srun: Job step aborted: Waiting up to {} seconds for job step to finish.\n",
                   kill_wait + 2);
        print_step_cancelled(tasks, o.step_label, *ended);
        signal_tasks(SIGCONT);
        signal_tasks(SIGTERM);
        kill_at = Clock::now() + std::chrono::seconds(kill_wait);
      }
    }
    if (o.wait_after_first > 0 && first_end && running > 0 && !waited_out &&
        Clock::now() - *first_end >= std::chrono::seconds(o.wait_after_first)) {
      // -W, as Slurm's srun words it.
      waited_out = true;
      fmt::print(stderr, "srun: First task exited {}s ago\n", o.wait_after_first);
      fmt::print(stderr, "srun: Terminating StepId={}\n", o.step_label);
      signal_tasks(SIGKILL);
    }
    if (kill_at && Clock::now() >= *kill_at) {
      signal_tasks(SIGKILL);
      kill_at = Clock::now() + std::chrono::hours(24);
    }
    for (Started& s : started) {
      if (s.pid < 0) continue;
      int status = 0;
      rusage ru{};
      pid_t got = ::wait4(s.pid, &status, WNOHANG, &ru);
      if (got != s.pid) continue;
      TaskOutcome& out = outcomes[s.index];
      if (WIFEXITED(status)) out.exit_status = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) out.exit_signal = WTERMSIG(status);
      out.user_cpu_us = static_cast<std::uint64_t>(ru.ru_utime.tv_sec) * 1000000 +
                        static_cast<std::uint64_t>(ru.ru_utime.tv_usec);
      out.sys_cpu_us = static_cast<std::uint64_t>(ru.ru_stime.tv_sec) * 1000000 +
                       static_cast<std::uint64_t>(ru.ru_stime.tv_usec);
      out.max_rss_kb = static_cast<std::uint64_t>(ru.ru_maxrss);
      s.pid = -1;
      --running;
      if (!first_end) first_end = Clock::now();
      if (!o.task_epilog.empty()) run_with_env(o.task_epilog, tasks[s.index].env, -1);
      if (o.kill_on_bad_exit && (out.exit_status != 0 || out.exit_signal != 0))
        signal_tasks(SIGKILL);
    }
    if (running == 0 && pty && pty_output) {
      // What the task wrote last is still in the terminal: take it.
      ::fcntl(pty->master(), F_SETFL, O_NONBLOCK);
      while (pty->copy_output()) {
        pollfd p{pty->master(), POLLIN, 0};
        if (::poll(&p, 1, 0) <= 0) break;
      }
      pty_output = false;
    }
    if (running == 0) pty.reset();
    if (running == 0) {
      // A task's own children may hold its output open: take what is there and stop.
      for (Stream& s : streams) {
        if (s.read_fd < 0) continue;
        ::fcntl(s.read_fd, F_SETFL, O_NONBLOCK);
        while (s.read_fd >= 0) {
          if (!pump(s) && s.read_fd >= 0) flush_and_close(s);
        }
      }
    }
  }
  for (int sig : k_forwarded) ::signal(sig, SIG_DFL);
  return outcomes;
}

}  // namespace stint::cli
