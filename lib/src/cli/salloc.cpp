// salloc: get an allocation, run a command here while holding it, give it
// back when the command exits, as Slurm's salloc does.
//
// The allocation is a job whose batch script holds it: the script waits on a
// FIFO whose writing end salloc keeps open while its command runs. When the
// command exits salloc writes its exit status there ("Relinquishing job
// allocation"), and the script exits with it, so the job ends COMPLETED or
// FAILED with the command's status. A salloc that dies closes the FIFO too,
// and its allocation ends with it instead of staying held until its time
// limit. scancel and the time limit end the script like any batch job's; the
// command runs on (unless -K), as with Slurm, and srun in it then fails.

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "backend/command.hpp"
#include "cli/boundary.hpp"
#include "cli/refusal.hpp"
#include "cli/salloc_options.hpp"
#include "cli/usage_error.hpp"
#include "daemon/job_env.hpp"
#include "model/json.hpp"
#include "rpc/client.hpp"
#include "util/proc.hpp"

extern char** environ;

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "salloc";
// Slurm's salloc rings the bell by default only after a wait this long.
constexpr auto k_bell_delay = std::chrono::seconds(10);

volatile sig_atomic_t g_signal = 0;
void on_signal(int sig) { g_signal = sig; }

void info(bool quiet, const std::string& text) {
  if (!quiet) fmt::print(stderr, "{}: {}\n", k_tool, text);
}

// The variables salloc gives its command (Slurm's env_array_for_job): the
// allocation's, not a task's (no SLURM_PROCID, SLURMD_NODENAME...).
constexpr std::string_view k_allocation_variables[] = {
    "SLURM_CLUSTER_NAME",   "SLURM_CONF",
    "SLURM_CPUS_PER_TASK",  "SLURM_JOBID",
    "SLURM_JOB_ACCOUNT",    "SLURM_JOB_CPUS_PER_NODE",
    "SLURM_JOB_ID",         "SLURM_JOB_NAME",
    "SLURM_JOB_NODELIST",   "SLURM_JOB_NUM_NODES",
    "SLURM_JOB_PARTITION",  "SLURM_JOB_QOS",
    "SLURM_MEM_PER_CPU",    "SLURM_MEM_PER_NODE",
    "SLURM_NNODES",         "SLURM_NODELIST",
    "SLURM_NODE_ALIASES",   "SLURM_NPROCS",
    "SLURM_NTASKS",         "SLURM_NTASKS_PER_NODE",
    "SLURM_SUBMIT_DIR",     "SLURM_SUBMIT_HOST",
    "SLURM_TASKS_PER_NODE",
};

/// A private folder holding the FIFO the allocation's script waits on.
class HoldFifo {
 public:
  HoldFifo() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/salloc.XXXXXX", tmp != nullptr && *tmp ? tmp : "/tmp");
    if (::mkdtemp(pattern.data()) == nullptr)
      throw Error(Errc::io, fmt::format("mkdtemp: {}", std::strerror(errno)));
    m_dir = pattern;
    if (::mkfifo(path().c_str(), 0600) != 0)
      throw Error(Errc::io, fmt::format("mkfifo {}: {}", path(), std::strerror(errno)));
  }
  ~HoldFifo() {
    if (m_fd >= 0) ::close(m_fd);
    std::error_code ec;
    std::filesystem::remove_all(m_dir, ec);
  }
  HoldFifo(const HoldFifo&) = delete;
  HoldFifo& operator=(const HoldFifo&) = delete;

  std::string path() const { return m_dir + "/hold"; }
  /// Opens the writing end once the script has opened the other one; false
  /// while it has not.
  bool try_open() {
    if (m_fd < 0) m_fd = ::open(path().c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    return m_fd >= 0;
  }
  /// Hands the command's exit status to the script, which exits with it.
  void relinquish(int status) {
    if (m_fd < 0) return;
    const std::string line = fmt::format("{}\n", status);
    (void)!::write(m_fd, line.data(), line.size());
    ::close(m_fd);
    m_fd = -1;
  }

 private:
  std::string m_dir;
  int m_fd = -1;
};

std::string holder_script(const std::string& fifo, bool no_shell) {
  if (no_shell)
    return "#!/bin/sh\n# salloc --no-shell: the allocation is held until scancel or its time "
           "limit\nexec sleep infinity\n";
  return fmt::format(
      "#!/bin/sh\n# salloc's allocation: held until salloc gives back its command's exit status\n"
      "IFS= read -r rc < {}\nexit \"${{rc:-1}}\"\n",
      backend::shell_quote(fifo));
}

bool option_given(const cli::SallocCommandLine& cl, cli::SbatchOpt id) {
  for (const auto& o : cl.allocation.options) {
    if (o.id == static_cast<int>(id)) return true;
  }
  return false;
}

const std::string* env_value(const cli::EnvList& env, std::string_view name) {
  const std::string* found = nullptr;
  for (const auto& [k, v] : env) {
    if (k == name) found = &v;
  }
  return found;
}

// salloc's own input variables, below its command line.
void apply_own_environment(cli::SallocCommandLine& cl, const cli::EnvList& env) {
  if (cl.bell == cli::Bell::after_delay) {
    if (env_value(env, "SALLOC_BELL")) cl.bell = cli::Bell::always;
    if (env_value(env, "SALLOC_NO_BELL")) cl.bell = cli::Bell::never;
  }
  if (const std::string* v = env_value(env, "SALLOC_IMMEDIATE"); v && !cl.immediate)
    cl.immediate = cli::parse_salloc_command_line({"--immediate=" + *v}).immediate;
  if (const std::string* v = env_value(env, "SALLOC_KILL_CMD"); v && !cl.kill_command_signal)
    cl.kill_command_signal =
        cli::parse_salloc_command_line({"--kill-command=" + *v}).kill_command_signal;
}

// The command when none is given: slurm.conf's SallocDefaultCommand, else
// an interactive step when LaunchParameters asks for one, else the shell.
std::vector<std::string> default_command(const Config& config) {
  const char* shell_env = std::getenv("SHELL");
  const std::string shell = shell_env != nullptr && *shell_env ? shell_env : "/bin/sh";
  if (auto cmd = config.conf("SallocDefaultCommand"); cmd && !cmd->empty())
    return {"/bin/sh", "-c", *cmd};
  const std::string launch = config.conf("LaunchParameters").value_or("");
  if (launch.find("use_interactive_step") != std::string::npos) {
    std::vector<std::string> cmd = {"srun"};
    std::string options =
        config.conf("InteractiveStepOptions").value_or("--interactive --preserve-env --pty $SHELL");
    std::size_t pos = 0;
    while (pos < options.size()) {
      const std::size_t space = options.find(' ', pos);
      std::string word = options.substr(pos, space - pos);
      if (word == "$SHELL") word = shell;
      if (!word.empty()) cmd.push_back(word);
      if (space == std::string::npos) break;
      pos = space + 1;
    }
    return cmd;
  }
  return {shell};
}

[[noreturn]] void exec_command(const std::vector<std::string>& command,
                               const std::vector<std::string>& env_strings,
                               const std::string& work_dir) {
  ::setpgid(0, 0);
  for (int sig : {SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGTTIN, SIGTTOU, SIGTSTP})
    ::signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (!work_dir.empty() && ::chdir(work_dir.c_str()) != 0) {
    fmt::print(stderr, "{}: error: chdir({}): {}\n", k_tool, work_dir, std::strerror(errno));
    ::_exit(1);
  }
  std::vector<char*> envp;
  for (const auto& e : env_strings) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  std::vector<char*> argv;
  for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  environ = envp.data();
  ::execvp(argv[0], argv.data());
  fmt::print(stderr, "{}: error: _fork_command: Unable to find command \"{}\"\n", k_tool,
             command.front());
  ::_exit(1);
}

// Cancels the request (a signal, -I's deadline), as salloc's destroy of a
// pending allocation.
void cancel(const Paths& paths, JobId id) {
  try {
    rpc::call(paths, {{"op", "cancel"}, {"job_ids", {id}}, {"signal", 0}, {"batch_only", false}});
  } catch (const Error&) {
    // It ended meanwhile.
  }
}

// Waits for the job to start. Returns the running job, or nullopt after
// printing why not (salloc then exits 1).
std::optional<Job> wait_for_grant(const Paths& paths, Store& store, JobId id,
                                  const cli::SallocCommandLine& cl, bool quiet,
                                  std::chrono::steady_clock::duration& waited) {
  const auto since = std::chrono::steady_clock::now();
  // stintd schedules right after its reply: an allocation that can start
  // at once has started within its first pass.
  const auto first_pass = since + std::chrono::milliseconds(300);
  bool said_pending = false;
  std::chrono::milliseconds delay{2};
  for (;;) {
    std::optional<Job> job = store.job(id);
    if (!job) throw Error(Errc::invalid_job_id, fmt::format("Job {} vanished", id));
    const auto now = std::chrono::steady_clock::now();
    if (job->state != JobState::pending) {
      waited = now - since;
      if (job->state == JobState::running) {
        if (said_pending) info(quiet, fmt::format("job {} has been allocated resources", id));
        return job;
      }
      info(quiet, fmt::format("Job allocation {} has been revoked.", id));
      return std::nullopt;
    }
    if (g_signal != 0) {
      cancel(paths, id);
      info(quiet, fmt::format("Job allocation {} has been revoked.", id));
      info(quiet, "Job aborted due to signal");
      return std::nullopt;
    }
    if (cl.immediate && *cl.immediate == 0 && now >= first_pass) {
      // Slurm's controller answers an -I request it cannot grant at once.
      cancel(paths, id);
      fmt::print(stderr, "{}: error: Unable to allocate resources: Requested nodes are busy\n",
                 k_tool);
      info(quiet, fmt::format("Job allocation {} has been revoked.", id));
      return std::nullopt;
    }
    if (!said_pending && now >= first_pass) {
      said_pending = true;
      info(quiet, fmt::format("Pending job allocation {}", id));
      info(quiet, fmt::format("job {} queued and waiting for resources", id));
    }
    if (cl.immediate && *cl.immediate > 0 && now - since >= std::chrono::seconds(*cl.immediate)) {
      cancel(paths, id);
      info(quiet, fmt::format("Job allocation {} has been revoked.", id));
      fmt::print(stderr, "{}: error: Unable to allocate resources: Connection timed out\n", k_tool);
      return std::nullopt;
    }
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::milliseconds(100));
  }
}

int pidfd_of(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

// salloc's exit status from its command's (Slurm: a command ended by a
// signal a user sends, HUP, INT, QUIT or KILL, counts as a normal end).
int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    switch (WTERMSIG(status)) {
      case SIGHUP:
      case SIGINT:
      case SIGQUIT:
      case SIGKILL:
        return 0;
      default:
        return 1;
    }
  }
  return 1;
}

int run(int argc, char** argv) {
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  cli::SallocCommandLine cl = cli::parse_salloc_command_line(args);
  switch (cl.allocation.action) {
    case cli::SbatchCommandLine::Action::help:
      if (const char* format = std::getenv("STINT_HELP_FORMAT");
          format != nullptr && std::string_view(format) == "scdoc") {
        fmt::print("%%SCDOC%%\n{}", cli::options_scdoc(cli::salloc_option_table()));
        return 0;
      }
      fmt::print("{}", cli::salloc_help_text());
      return 0;
    case cli::SbatchCommandLine::Action::usage:
      fmt::print("{}", cli::salloc_usage_text());
      return 0;
    case cli::SbatchCommandLine::Action::version:
      fmt::print("{}\n", stint::version_line());
      return 0;
    case cli::SbatchCommandLine::Action::submit:
      break;
  }
  cli::SubmitContext context = cli::current_submit_context();
  apply_own_environment(cl, context.environment);
  cli::EnvList own_environment = context.environment;
  // sbatch's context adds the umask for a batch job; the command runs here, under salloc's.
  if (std::getenv("SLURM_UMASK") == nullptr)
    std::erase_if(own_environment, [](const auto& kv) { return kv.first == "SLURM_UMASK"; });
  context.environment = cli::salloc_input_environment(context.environment);

  HoldFifo fifo;
  cli::BatchScript script;
  script.source = cli::ScriptSource::wrap;
  script.text = holder_script(fifo.path(), cl.no_shell);
  cli::SbatchRequest request = cli::build_sbatch_request(cl.allocation, script, context);
  for (const auto& [level, text] : request.notices) {
    if (level == "info" && request.verbose == 0) continue;
    fmt::print(stderr, "{}: {}{}\n", k_tool, level == "info" ? "" : level + ": ", text);
  }
  // A fatal() of Slurm's option checks: said above, nothing submitted.
  for (const auto& notice : request.notices)
    if (notice.first == "fatal") return 1;
  if (!request.help_requested.empty()) {
    fmt::print("{}", request.help_requested);
    return 0;
  }
  JobSpec& spec = request.spec;
  if (!option_given(cl, cli::SbatchOpt::job_name) &&
      !env_value(context.environment, "SBATCH_JOB_NAME"))
    spec.name = cl.no_shell ? "no-shell" : "interactive";
  spec.stdout_pattern = "/dev/null";
  spec.stderr_pattern = "/dev/null";
  spec.requeue = false;  // its command runs here, once
  spec.allocation_only = true;
  const bool quiet = request.quiet;

  const Paths paths = default_paths();
  const Config config = query::read_config(paths);
  std::vector<std::string> command = cl.command;
  if (command.empty() && !cl.no_shell) command = default_command(config);

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2})
    ::sigaction(sig, &sa, nullptr);

  JobId id = 0;
  try {
    const nlohmann::json reply = rpc::call(paths, {{"op", "submit"}, {"spec", to_json(spec)}});
    id = reply.value("job_id", JobId{0});
    if (const auto it = reply.find("warnings"); it != reply.end() && it->is_array()) {
      for (const auto& w : *it) {
        if (w.is_string()) fmt::print(stderr, "{}: warning: {}\n", k_tool, w.get<std::string>());
      }
    }
  } catch (const Error& e) {
    // slurmctld's message, where it sends one, comes first on its own line
    // (the client library logs it), as sbatch's does.
    const std::string_view reason = errc_slurm_message(e.code());
    const std::string detail = e.what();
    cli::throw_with_hints(
        Error(e.code(), detail.empty() || detail == reason
                            ? fmt::format("Job submit/allocate failed: {}", reason)
                            : fmt::format("{}\nsalloc: error: Job submit/allocate failed: {}",
                                          detail, reason)),
        spec.partition.value_or(""), spec.array_spec);
  }

  auto store = Store::reader(paths.db());
  std::chrono::steady_clock::duration waited{};
  std::optional<Job> job = wait_for_grant(paths, *store, id, cl, quiet, waited);
  if (!job) return 1;
  info(quiet, fmt::format("Granted job allocation {}", id));
  if (::isatty(1) && (cl.bell == cli::Bell::always ||
                      (cl.bell == cli::Bell::after_delay && waited > k_bell_delay)))
    (void)!::write(1, "\a", 1);
  if (cl.no_shell) return 0;

  // The script opens its end of the FIFO as soon as it starts.
  for (std::chrono::milliseconds delay{1}; !fifo.try_open();) {
    job = store->job(id);
    if (!job || is_terminal(job->state)) {
      fmt::print(stderr,
                 "{}: error: Allocation was revoked for JobId={} before command could be run\n",
                 k_tool, id);
      return 1;
    }
    if (g_signal != 0) {
      cancel(paths, id);
      info(quiet, "Job aborted due to signal");
      return 1;
    }
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::milliseconds(50));
  }

  // The command's environment: salloc's own, then the allocation's.
  const daemon::Environment job_env =
      daemon::job_environment(*job, config, 0, proc::short_hostname(), paths.state_dir);
  cli::EnvList env = own_environment;
  for (const auto& variable : job_env) {
    const std::string& name = variable.first;
    if (std::find(std::begin(k_allocation_variables), std::end(k_allocation_variables), name) ==
        std::end(k_allocation_variables))
      continue;
    std::erase_if(env, [&](const auto& kv) { return kv.first == name; });
    env.emplace_back(name, variable.second);
  }
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);

  // With a terminal, the command gets it (its own process group in the
  // foreground), as a shell gives it to a job; salloc takes it back after.
  const bool interactive = ::isatty(0) != 0;
  const pid_t parent_group = ::getpgrp();
  if (interactive) {
    for (int sig : {SIGTSTP, SIGTTIN, SIGTTOU}) ::signal(sig, SIG_IGN);
  }
  g_signal = 0;
  const std::string work_dir = spec.work_dir;
  // Its own fork, not process::run: a shell's job control (the terminal, a
  // stop seen through WUNTRACED, signals passed on while it runs).
  const pid_t child = ::fork();
  if (child < 0) throw Error(Errc::io, fmt::format("fork: {}", std::strerror(errno)));
  if (child == 0) exec_command(command, env_strings, work_dir);
  ::setpgid(child, child);
  if (interactive) ::tcsetpgrp(0, child);

  const int child_fd = pidfd_of(child);
  bool revoked = false;
  int status = 0;
  for (;;) {
    const pid_t got = ::waitpid(child, &status, WNOHANG | WUNTRACED);
    if (got == child && !WIFSTOPPED(status)) break;
    if (got == child && WIFSTOPPED(status)) {
      // Slurm's salloc ends a command that stops rather than keep the allocation idle.
      ::kill(-child, SIGKILL);
      continue;
    }
    if (g_signal != 0) {
      const int sig = g_signal;
      g_signal = 0;
      // The terminal's INT and QUIT reached the command's group already.
      if (sig != SIGINT && sig != SIGQUIT) ::kill(-child, sig);
    }
    if (!revoked) {
      job = store->job(id);
      if (!job || is_terminal(job->state)) {
        revoked = true;
        if (job && job->state == JobState::timeout) {
          info(quiet,
               fmt::format(
                   "Job {} has exceeded its time limit and its allocation has been revoked.", id));
        } else {
          info(quiet, fmt::format("Job allocation {} has been revoked.", id));
        }
        if (cl.kill_command_signal) ::kill(-child, *cl.kill_command_signal);
      }
    }
    if (child_fd >= 0) {
      pollfd p{child_fd, POLLIN, 0};
      ::poll(&p, 1, 200);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  if (child_fd >= 0) ::close(child_fd);
  if (interactive) ::tcsetpgrp(0, parent_group);
  if (!revoked) {
    // The allocation may have ended first (a step's srun ends with it).
    job = store->job(id);
    if (!job || is_terminal(job->state)) {
      revoked = true;
      info(quiet, job && job->state == JobState::timeout
                      ? fmt::format("Job {} has exceeded its time limit and its allocation has "
                                    "been revoked.",
                                    id)
                      : fmt::format("Job allocation {} has been revoked.", id));
    }
  }

  if (!revoked) {
    info(quiet, fmt::format("Relinquishing job allocation {}", id));
    int job_status = 1;
    if (WIFEXITED(status)) job_status = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) job_status = 128 + WTERMSIG(status);
    fifo.relinquish(job_status);
    // As Slurm's salloc returns after the controller has the job complete.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (std::chrono::milliseconds delay{1}; std::chrono::steady_clock::now() < deadline;) {
      job = store->job(id);
      if (!job || is_terminal(job->state)) break;
      std::this_thread::sleep_for(delay);
      delay = std::min(delay * 2, std::chrono::milliseconds(50));
    }
  }
  return exit_code_of(status);
}

}  // namespace

int salloc(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] {
    try {
      return run(argc, argv);
    } catch (const cli::UsageError& e) {
      return cli::print_usage_error(k_tool, e);
    } catch (const cli::PrefacedError& e) {
      std::fflush(stdout);
      fmt::print(stderr, "{}\n", e.preface());
      throw;
    }
  });
}

}  // namespace stint::tools
