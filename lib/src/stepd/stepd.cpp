// stint-stepd's entry point, the result file and the report to stintd.

#include "stepd/stepd.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <optional>

#include <fcntl.h>
#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/paths.hpp>
#include <stint/tools.hpp>

#include "rpc/client.hpp"
#include "stepd/fork_server.hpp"
#include "stepd/scripts.hpp"
#include "stepd/spawn.hpp"
#include "stepd/user_env.hpp"
#include "util/clock.hpp"
#include "util/fs.hpp"

namespace stint {
namespace stepd {
namespace {

// stintd answers task_done at once; one that does not within this long is
// stuck, and the result file is already in place for it to find.
constexpr int k_notify_timeout_s = 2;

// Lines for stepd's own log (stderr, which stintd points at
// <state>/log/stepd-<jobid>.log), not for the job's output.
template <typename... Args>
void log(fmt::format_string<Args...> format, Args&&... args) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  const std::string line = fmt::format("[{}] stint-stepd[{}]: {}\n", stamp, ::getpid(),
                                       fmt::format(format, std::forward<Args>(args)...));
  // Not fmt::print, which throws when the write fails (a full disk): the line
  // is lost, the job is not.
  [[maybe_unused]] const std::size_t n = std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

std::string describe_end(const TaskResult& r) {
  if (r.launch_failed) return fmt::format("launch failed: {}", r.error);
  std::string how = r.exit_signal != 0 ? fmt::format("killed by signal {}", r.exit_signal)
                                       : fmt::format("exited with status {}", r.exit_status);
  if (r.timed_out) how += " (time limit)";
  if (r.cancelled) how += " (cancelled)";
  if (r.out_of_memory) how += " (out of memory)";
  return how;
}

// Blocks what stepd reads through its signalfd, as the first thing it does: a
// cancel arriving while the launch file is read then waits instead of killing
// stepd before it could write a result.
void block_supervisor_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGUSR1}) sigaddset(&set, s);
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  // Writes to a socket whose stintd went away must fail, not kill stepd.
  std::signal(SIGPIPE, SIG_IGN);
}

// Descriptors 0..2 closed by whoever started stepd would be reused by the
// first files it opens; keep them taken.
void ensure_std_fds() {
  for (int fd = 0; fd < 3; ++fd) {
    if (::fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
      if (opened >= 0 && opened != fd) ::close(opened);
    }
  }
}

// stintd killed before it recorded this stepd's pid leaves its successor
// unsure whether the task started; it settles that by removing the launch
// file, as this stepd settles it by renaming the file to task-<n>.claimed.json
// before the task runs. Only one of the two succeeds: a start withdrawn
// never runs, and a claimed one is this stepd's to finish.
bool claim_launch(const std::string& launch_path) {
  constexpr std::string_view suffix = "launch.json";
  if (launch_path.size() < suffix.size() ||
      launch_path.compare(launch_path.size() - suffix.size(), suffix.size(), suffix) != 0)
    return true;  // not a spool file of stintd's: nobody to settle with
  std::string claimed = launch_path.substr(0, launch_path.size() - suffix.size()) + "claimed.json";
  return ::rename(launch_path.c_str(), claimed.c_str()) == 0;
}

}  // namespace

namespace {

// Whether the file system holding `path` has (next to) no room left.
bool disk_full(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) return false;
  constexpr unsigned long long k_room = 64ULL * 1024;
  return static_cast<unsigned long long>(st.f_bavail) * st.f_frsize < k_room;
}

}  // namespace

void write_result(const TaskLaunch& launch, const TaskResult& result) {
  if (launch.result_path.empty()) return;
  const std::string text = to_json_text(result) + "\n";
  // The task has run: on a full disk its result waits here for room (stintd
  // sees this stepd alive and waits too) rather than being lost, which would
  // end the job NODE_FAIL and run it again. An hour bounds the wait.
  constexpr int k_full_disk_tries = 3600;
  for (int tries = 1;; ++tries) {
    try {
      fs::write_file_atomic(launch.result_path, text, 0600);
      return;
    } catch (const Error&) {
      // The job's spool folder removed under it (by hand, by a clean-up): made
      // again where stintd looks for the result. Without it stintd would take
      // a task that ran for a failed node and run the job again.
      const std::string folder = launch.result_path.substr(0, launch.result_path.rfind('/'));
      struct stat st {};
      if (tries == 1 && !folder.empty() && ::stat(folder.c_str(), &st) != 0 && errno == ENOENT) {
        log("job {} node {}: {} was removed; made again for the result", launch.job_id,
            launch.node_index, folder);
        fs::make_dirs(folder, 0711);
        continue;
      }
      if (tries >= k_full_disk_tries || !disk_full(launch.result_path)) throw;
    }
    if (tries == 1)
      log("job {} node {}: the disk is full; the result waits for room", launch.job_id,
          launch.node_index);
    ::sleep(1);
  }
}

namespace {

enum class Told { yes, no_stintd, failed };

// Told::no_stintd only for a socket that is there with nobody listening: a
// stintd that stopped, on purpose or idle, removed its socket; one that was
// killed left it.
Told tell_stintd(const TaskLaunch& launch, const char* op) noexcept {
  if (launch.socket_path.empty()) return Told::failed;
  try {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (launch.socket_path.size() >= sizeof addr.sun_path) return Told::failed;
    std::memcpy(addr.sun_path, launch.socket_path.c_str(), launch.socket_path.size() + 1);
    detail::Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd) return Told::failed;
    // rpc::call has no timeout and would start a stintd; stepd wants neither,
    // so it speaks the same frames over its own bounded connection.
    timeval tv{k_notify_timeout_s, 0};
    ::setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0)
      return errno == ECONNREFUSED ? Told::no_stintd : Told::failed;
    nlohmann::json request = {
        {"op", op}, {"job_id", launch.job_id}, {"node_index", launch.node_index}};
    rpc::write_frame(fd.get(), request.dump());
    return rpc::read_frame(fd.get()).has_value() ? Told::yes : Told::failed;
  } catch (...) {
    return Told::failed;
  }
}

// The state directory whose killed stintd this stepd may start again: one of
// its own user's, as a tool would start it there, and not the system one,
// whose stintd its administrator starts (systemd restarts it; a stepd there
// runs as root and would start one outside systemd).
std::optional<Paths> personal_state_dir(const TaskLaunch& launch) {
  constexpr std::string_view k_socket = "/stintd.sock";
  const std::string& socket = launch.socket_path;
  if (socket.size() <= k_socket.size() ||
      socket.compare(socket.size() - k_socket.size(), k_socket.size(), k_socket) != 0)
    return std::nullopt;
  Paths paths{socket.substr(0, socket.size() - k_socket.size())};
  struct stat st {};
  if (paths.state_dir == system_state_dir() || ::stat(paths.state_dir.c_str(), &st) != 0 ||
      st.st_uid != ::geteuid())
    return std::nullopt;
  return paths;
}

// Tells stintd the task has ended. A killed personal stintd is started again
// the way a tool starts it, once: until something did, its jobs would read
// RUNNING in squeue and sacct long after they ended, and reading tools never
// start it. The stintd started collects the result file on its start.
void report_end(const TaskLaunch& launch, const LogFn& log) noexcept {
  if (tell_stintd(launch, "task_done") != Told::no_stintd) return;
  try {
    const std::optional<Paths> paths = personal_state_dir(launch);
    if (!paths) return;
    try {
      rpc::call(*paths,
                {{"op", "task_done"}, {"job_id", launch.job_id}, {"node_index", launch.node_index}},
                rpc::AutoStart::yes);
      if (log)
        log(fmt::format("job {} node {}: stintd was not running: started it to collect the result",
                        launch.job_id, launch.node_index));
    } catch (const Error& e) {
      if (log)
        log(fmt::format("job {} node {}: stintd was not running and did not start: {}",
                        launch.job_id, launch.node_index, e.what()));
    }
  } catch (...) {
    // The result file is written; whatever starts stintd next collects it.
  }
}

}  // namespace

bool notify_task_done(const TaskLaunch& launch) noexcept {
  return tell_stintd(launch, "task_done") == Told::yes;
}

bool notify_task_activity(const TaskLaunch& launch) noexcept {
  return tell_stintd(launch, "task_activity") == Told::yes;
}

namespace {

// The prolog on each node of the job (SLURMD_NODENAME), or the epilog:
// nullopt when all went well, else the node where it failed.
std::optional<std::string> run_site_scripts(const TaskLaunch& launch, bool prolog,
                                            TaskResult& result) {
  const auto& scripts = prolog ? launch.prolog : launch.epilog;
  if (scripts.empty()) return std::nullopt;
  std::vector<std::string> nodes = launch.script_nodes;
  if (nodes.empty()) nodes.push_back(launch.node_name);
  for (const std::string& node : nodes) {
    auto env = launch.script_env;
    env.emplace_back("SLURMD_NODENAME", node);
    env.emplace_back("SLURM_SCRIPT_CONTEXT", prolog ? "prolog_slurmd" : "epilog_slurmd");
    ScriptsOutcome o = run_scripts(scripts, env, launch.script_timeout);
    if (!o.output.empty())
      result.script_output +=
          fmt::format("{} on {}:\n{}", prolog ? "prolog" : "epilog", node, o.output);
    if (!o.ok) {
      result.script_node = node;
      result.error =
          fmt::format("{} failed on {}: {}", prolog ? "prolog" : "epilog", node, o.failure);
      return node;
    }
  }
  return std::nullopt;
}

}  // namespace

TaskResult run_task(const TaskLaunch& launch, const LogFn& log) {
  TaskResult prolog;
  if (run_site_scripts(launch, true, prolog)) {
    // As slurmd: a failing prolog means the task never runs.
    prolog.job_id = launch.job_id;
    prolog.node_index = launch.node_index;
    prolog.prolog_failed = true;
    prolog.launch_failed = true;
    prolog.exit_status = 1;
    prolog.start_time = prolog.end_time = wall_now();
    if (log) log(prolog.error);
    write_result(launch, prolog);
    report_end(launch, log);
    return prolog;
  }
  // After the prolog, as slurmd loads it (--get-user-env).
  TaskResult result = launch.user_env_timeout > 0
                          ? supervise_task(with_user_environment(launch, log), log)
                          : supervise_task(launch, log);
  result.script_output = prolog.script_output;
  if (run_site_scripts(launch, false, result)) {
    result.epilog_failed = true;
    if (log) log(result.error);
  }
  // The file first: it is what counts. The message only saves stintd a wait.
  write_result(launch, result);
  report_end(launch, log);
  return result;
}

namespace {

// What a stepd does with its launch file, spawned or forked by the server.
int run_launch_file(const char* path) {
  try {
    TaskLaunch launch = task_launch_from_json_text(fs::read_file(path));
    if (!claim_launch(path)) {
      log("job {} node {}: start withdrawn by stintd", launch.job_id, launch.node_index);
      return 0;
    }
    log("job {} node {} ({}): starting {}", launch.job_id, launch.node_index, launch.node_name,
        launch.argv.front());
    TaskResult result = run_task(launch, [](const std::string& line) { log("{}", line); });
    log("job {} node {}: {}", launch.job_id, launch.node_index, describe_end(result));
    return 0;
  } catch (const Error& e) {
    log("error: {}", e.what());
    return errc_exit_status(e.code());
  } catch (const std::exception& e) {
    log("error: {}", e.what());
    return 1;
  }
}

int entry(int argc, char** argv) {
  block_supervisor_signals();
  ensure_std_fds();
  // stintd starts it with a launch file; a person asking what it is gets an
  // answer, the same one every tool gives, rather than "Unable to open file".
  if (argc == 2) {
    const std::string_view arg = argv[1];
    if (arg == "-h" || arg == "--help" || arg == "--usage") {
      fmt::print("Usage: stint-stepd <launch-file>\n");
      if (arg != "--usage")
        fmt::print(
            "\nThe supervisor of one task of one job on one node, started by stintd.\n"
            "It is not run by hand; see stint-stepd(8).\n");
      return 0;
    }
    if (arg == "-V" || arg == "--version") {
      fmt::print("{}\n", stint::version_line());
      return 0;
    }
  }
  if (argc >= 2 && argv[1] == k_fork_server_flag) return serve_forks(argc, argv, run_launch_file);
  if (argc != 2) {
    fmt::print(stderr, "Usage: stint-stepd <launch-file>\n");
    return errc_exit_status(Errc::usage);
  }
  return run_launch_file(argv[1]);
}

}  // namespace
}  // namespace stepd

// The one place stepd prints and picks an exit status: 0 once the result file
// is written, whatever the task did (that is in the file).
int tools::stepd(int argc, char** argv) { return ::stint::stepd::entry(argc, argv); }

}  // namespace stint
