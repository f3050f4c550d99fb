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

#include "cli/srun_io.hpp"
#include "cli/srun_pty.hpp"
#include "process/run.hpp"
#include "util/fs.hpp"
#include "util/node_view.hpp"

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

int open_output(const std::string& path, bool append) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0)
    throw Error(Errc::io,
                fmt::format("Could not open output file {}: {}", path, std::strerror(errno)));
  return fd;
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

// Runs --task-prolog or --task-epilog with the task's environment, in the
// task's process group and with its stdin and stderr, and waits for it; its
// stdout is returned when captured.
std::string run_task_script(const std::string& program,
                            const std::vector<std::pair<std::string, std::string>>& env,
                            process::Output stdout_to) {
  process::Spec spec;
  spec.argv = {program};
  spec.environment.emplace();
  for (const auto& [k, v] : env) spec.environment->push_back(k + "=" + v);
  spec.inherit_stdin = true;
  spec.stdout_to = stdout_to;
  spec.stderr_to = process::Output::inherited;
  spec.new_process_group = false;
  try {
    return process::run(spec).out;
  } catch (const Error& e) {
    fs::write_fully(2, fmt::format("srun: error: exec {}\n", e.what()));
    return {};
  }
}

// --task-prolog, as slurmstepd runs it: what it prints is read line by line;
// "export NAME=value" and "unset NAME" change the task's environment,
// "print text" goes to the task's stdout.
void run_task_prolog(const std::string& program,
                     std::vector<std::pair<std::string, std::string>>& env) {
  const std::string text = run_task_script(program, env, process::Output::captured);
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
      fs::write_fully(1, line.substr(6) + "\n");
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
  ::signal(SIGTTIN, SIG_DFL);
  if (o.own_groups && !o.pty) ::setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) ::_exit(127);
  // A refusal leaves the machine's name and hosts (node_view.hpp).
  if (!o.hosts_file.empty()) (void)node_view::enter(node_view::plan(t.node, o.hosts_file));
  if (t.inherited_fd > 2) ::fcntl(t.inherited_fd, F_SETFD, 0);
  if (!o.work_dir.empty() && ::chdir(o.work_dir.c_str()) != 0) {
    const std::string msg = fmt::format("slurmstepd: error: couldn't chdir to `{}': {}\n",
                                        o.work_dir, std::strerror(errno));
    fs::write_fully(2, msg);
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
      fs::write_fully(2, fmt::format("cpu-bind=MASK - {}, task {:2} {:2} [{}]: mask 0x{:x} set\n",
                                     t.node, t.task_id, local_id(t), ::getpid(), mask));
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
  const int err = errno;
  if (!o.voice.empty()) {
    // As a shell says it: 127 for a program not found, 126 for one it cannot run.
    const bool missing = err == ENOENT && args.front().find('/') == std::string::npos;
    fs::write_fully(2, fmt::format("{}: {}: {}\n", o.voice, args.front(),
                                   missing ? "command not found" : std::strerror(err)));
    ::_exit(err == ENOENT ? 127 : 126);
  }
  const std::string msg =
      fmt::format("slurmstepd: error: execve(): {}: {}\n", args.front(), std::strerror(err));
  fs::write_fully(2, msg);
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
  // srun reads its stdin for the tasks; in the background of its terminal the
  // read fails (EIO) instead of stopping srun, and the tasks' stdin ends, as
  // with Slurm's srun. --pty copies the terminal as it always has.
  struct sigaction ignore {};
  struct sigaction saved_ttin {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  if (!o.pty) ::sigaction(SIGTTIN, &ignore, &saved_ttin);

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

  // The tasks' I/O through srun (cli/srun_io.hpp), which sattach attaches to.
  StepIo io(o.label, !o.unbuffered);
  if (!o.io_socket.empty()) {
    AttachLayout layout;
    layout.task_count = static_cast<std::uint32_t>(tasks.size());
    for (const StepTask& t : tasks) {
      if (layout.nodes.empty() || layout.nodes.back().name != t.node)
        layout.nodes.push_back({t.node, {}});
      layout.nodes.back().tasks.push_back(t.task_id);
    }
    if (!io.listen(o.io_socket, layout))
      fmt::print(stderr, "srun: warning: sattach cannot attach to step {}: {}\n", o.step_label,
                 std::strerror(errno));
  }
  auto make_pipe = [](int fds[2]) {
    if (::pipe2(fds, O_CLOEXEC) != 0)
      throw Error(Errc::io, fmt::format("pipe: {}", std::strerror(errno)));
  };
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
      const bool out_to_srun = t.stdout_path.empty();
      const bool err_to_srun = t.stdout_path.empty() && t.stderr_path.empty();
      const bool on_pty = pty && t.task_id == 0;
      int child_in = dev_null, child_out = out_dest, child_err = err_dest;
      int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1}, in_pipe[2] = {-1, -1};
      int in_file = -1;
      if (pty) {
        if (!on_pty) child_out = child_err = dev_null_out;
      } else {
        // As Slurm's tasks write to slurmstepd's pipes: what goes to srun's
        // own stdout and stderr (and with -l everything, labelled in the
        // files too) passes through srun, and sattach gets a copy of it.
        if (o.label || out_to_srun) {
          make_pipe(out_pipe);
          child_out = out_pipe[1];
        }
        if (o.label || err_to_srun) {
          make_pipe(err_pipe);
          child_err = err_pipe[1];
        }
        if (!t.stdin_path.empty()) {
          in_file = ::open(t.stdin_path.c_str(), O_RDONLY | O_CLOEXEC);
          if (in_file < 0)
            throw Error(Errc::io, fmt::format("Could not open stdin file {}: {}", t.stdin_path,
                                              std::strerror(errno)));
          child_in = in_file;
        } else if (t.takes_stdin) {
          make_pipe(in_pipe);
          child_in = in_pipe[0];
        }
      }
      // The task's own fork, not process::run: it gets the step's pipes,
      // terminal and CPUs, and runs beside the others, reaped with wait4.
      pid_t pid = ::fork();
      if (pid < 0) throw Error(Errc::io, fmt::format("fork: {}", std::strerror(errno)));
      if (pid == 0) {
        if (on_pty) {
          if (!pty->attach_child()) ::_exit(1);
          exec_task(t, o, 0, 1, 2);
        }
        exec_task(t, o, child_in, child_out, child_err);
      }
      if (on_pty) pty_task = pid;
      if (o.own_groups && !on_pty) ::setpgid(pid, pid);
      started.push_back({pid, i});
      if (out_pipe[0] >= 0) {
        ::close(out_pipe[1]);
        io.add_output(t.task_id, FrameKind::task_stdout, out_pipe[0], out_dest, out_to_srun);
      }
      if (err_pipe[0] >= 0) {
        ::close(err_pipe[1]);
        io.add_output(t.task_id, FrameKind::task_stderr, err_pipe[0], err_dest, err_to_srun);
      }
      if (in_pipe[0] >= 0) {
        ::close(in_pipe[0]);
        io.add_input(t.task_id, in_pipe[1]);
      }
      if (in_file >= 0) ::close(in_file);
    }
  } catch (...) {
    for (const Started& s : started) ::kill(s.pid, SIGKILL);
    for (const Started& s : started) ::waitpid(s.pid, nullptr, 0);
    if (!o.pty) ::sigaction(SIGTTIN, &saved_ttin, nullptr);
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
  while (running > 0 || io.output_open()) {
    std::vector<pollfd> fds;
    fds.push_back({g_signal_pipe[0], POLLIN, 0});
    io.add_poll_fds(fds);
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
    io.handle(fds);
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
      io.task_ended(out.task_id, {out.exit_status, out.exit_signal});
      if (!first_end) first_end = Clock::now();
      if (!o.task_epilog.empty())
        run_task_script(o.task_epilog, tasks[s.index].env, process::Output::inherited);
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
    // A task's own children may hold its output open: take what is there and stop.
    if (running == 0) io.drain_output();
  }
  // Attached clients get a moment to take the step's last output; then their
  // connections close, which tells each sattach that the step has ended.
  io.finish(2000);
  for (int sig : k_forwarded) ::signal(sig, SIG_DFL);
  if (!o.pty) ::sigaction(SIGTTIN, &saved_ttin, nullptr);
  return outcomes;
}

}  // namespace stint::cli
