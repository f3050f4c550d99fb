// sattach: attaches to the standard I/O of a running job step, as Slurm
// 22.05's does: the tasks' output (all of it, or one task's) on sattach's
// stdout and stderr, optionally labelled, and sattach's stdin to the tasks
// (all of them, or one). Slurm's sattach asks slurmctld for the step's layout
// and each node's slurmstepd for its tasks' I/O; here the step's srun carries
// its tasks' I/O and serves it on an abstract Unix socket (cli/srun_io.hpp),
// so sattach reads the job and step from the database, read-only, then
// connects there. Detaching (SIGINT, SIGTERM, SIGHUP, SIGQUIT) leaves the
// step running.

#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/option_table.hpp"
#include "cli/srun_io.hpp"
#include "cli/usage_error.hpp"
#include "util/fs.hpp"

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "sattach";
constexpr std::string_view k_usage = "Usage: sattach [options] <jobid.stepid>";

enum class Opt : int {
  input_filter,
  output_filter,
  error_filter,
  label,
  layout,
  quiet,
  verbose,
  version,
  help,
  usage,
  pty,
};

constexpr cli::OptionSpec spec(Opt id, char short_name, std::string_view long_name,
                               cli::ArgKind arg, std::uint16_t slurm_rank, std::string_view section,
                               std::string_view help, cli::Effect effect, std::string_view here) {
  return cli::OptionSpec{static_cast<int>(id),
                         short_name,
                         long_name,
                         arg,
                         slurm_rank,
                         {},
                         section,
                         help,
                         effect,
                         here};
}

constexpr std::string_view k_help_section = "Help options:";
using A = cli::ArgKind;
using E = cli::Effect;

// Slurm 22.05's sattach options, in its --help order and with its --help
// lines; the ranks are their places in its getopt table. --pty, which its
// --help leaves out, comes last.
constexpr std::array k_options = {
    spec(Opt::input_filter, '\0', "input-filter", A::required, 8, "",
         "      --input-filter=taskid  send stdin to only the specified task\n", E::acts,
         "Without it, or with -, stdin goes to every task that reads it (srun's -i decides "
         "which do: task 0 by default). The task must be one of the step's. The end of "
         "sattach's stdin ends the task's stdin."),
    spec(Opt::output_filter, '\0', "output-filter", A::required, 9, "",
         "      --output-filter=taskid only print stdout from the specified task\n", E::acts,
         "Also stderr's filter when --error-filter is not given. With -, every task's."),
    spec(Opt::error_filter, '\0', "error-filter", A::required, 10, "",
         "      --error-filter=taskid  only print stderr from the specified task\n", E::acts,
         "With -, every task's."),
    spec(Opt::label, 'l', "label", A::none, 1, "",
         "  -l, --label        prepend task number to lines of stdout & stderr\n", E::acts,
         "Whole lines, \"0: text\", as srun -l writes them."),
    spec(Opt::layout, '\0', "layout", A::none, 6, "",
         "      --layout       print task layout info and exit (does not attach to tasks)\n",
         E::acts, "The layout srun was given for the step: its tasks on each node."),
    spec(Opt::quiet, 'Q', "quiet", A::none, 2, "",
         "  -Q, --quiet        quiet mode (suppress informational messages)\n", E::tool, {}),
    spec(Opt::verbose, 'v', "verbose", A::none, 4, "",
         "  -v, --verbose      verbose mode (multiple -v's increase verbosity)\n", E::tool,
         "Says which srun sattach attached to and when tasks end; twice, the options read."),
    spec(Opt::version, 'V', "version", A::none, 5, "",
         "  -V, --version      print the Slurm version and exit\n", E::tool,
         "Prints the Slurm release the tools follow, then stint's version."),
    spec(Opt::help, 'h', "help", A::none, 0, k_help_section,
         "  -h, --help         print this help message\n", E::tool, {}),
    spec(Opt::usage, 'u', "usage", A::none, 3, k_help_section,
         "  -u, --usage        print a brief usage message\n", E::tool, {}),
    spec(Opt::pty, '\0', "pty", A::none, 11, k_help_section, {}, E::acts, {}),
};

/// The options --help lists: all but --pty, as Slurm's.
std::span<const cli::OptionSpec> listed_options() {
  return std::span<const cli::OptionSpec>(k_options).first(k_options.size() - 1);
}

/// Slurm's error(), then its exit with the tool's error status.
struct Exit {
  int status = 1;
};

struct Args {
  bool label = false;
  bool layout_only = false;
  int quiet = 0;
  int verbose = 0;
  bool pty = false;
  bool input_filter_set = false;
  bool output_filter_set = false;
  bool error_filter_set = false;
  std::uint32_t input_filter = cli::k_every_task;
  std::uint32_t output_filter = cli::k_every_task;
  std::uint32_t error_filter = cli::k_every_task;
  // The step, as slurm_parse_step_str reads it.
  JobId job = 0;
  std::uint32_t array_task = k_no_array_task;
  std::string step;  ///< "0", "batch", "extern", "interactive"
};

void print_error(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: error: {}\n", k_tool, message);
}

void print_usage() { fmt::print("{}\n", k_usage); }

/// Slurm's _get_pos_int: a decimal count, or the tool exits.
std::uint32_t positive_int(const std::string& text, std::string_view what, int error_exit) {
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  bool trailing = false;
  for (const char* p = end; p != nullptr && *p != '\0'; ++p)
    trailing = trailing || std::isspace(static_cast<unsigned char>(*p)) == 0;
  if (end == text.c_str() || trailing || value < 0) {
    print_error(fmt::format("Invalid numeric value \"{}\" for {}.", text, what));
    throw Exit{error_exit};
  }
  if (value > INT_MAX) {
    print_error(fmt::format("Numeric argument {} to big for {}.", value, what));
    throw Exit{error_exit};
  }
  return static_cast<std::uint32_t>(value);
}

/// Slurm's fatal(): its line, and exit status 1 whatever SLURM_EXIT_ERROR says.
[[noreturn]] void fatal(std::string_view message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: fatal: {}\n", k_tool, message);
  throw Exit{1};
}

/// slurm_parse_step_str: "12.0", "12_3.0", "12.batch"; false when no step is
/// named at all.
bool parse_step(std::string name, Args& a) {
  const std::size_t dot = name.find('.');
  if (dot == std::string::npos) return false;
  const std::string step = name.substr(dot + 1);
  name.erase(dot);
  if (step == "batch" || step == "extern" || step == "interactive") {
    a.step = step;
  } else if (!step.empty() && std::isdigit(static_cast<unsigned char>(step.front())) != 0) {
    a.step = std::to_string(std::atoi(step.c_str()));
  } else {
    fatal(fmt::format("Bad step specified: {}", name));
  }
  if (const std::size_t under = name.find('_'); under != std::string::npos) {
    const std::string task = name.substr(under + 1);
    name.erase(under);
    if (task.empty() || std::isdigit(static_cast<unsigned char>(task.front())) == 0)
      fatal(fmt::format("Bad job array element specified: {}", name));
    a.array_task = static_cast<std::uint32_t>(std::atoi(task.c_str()));
  } else if (const std::size_t plus = name.find('+'); plus != std::string::npos) {
    // A het job's component: Slurm's sattach asks for the step of the job id
    // before the '+', as this does.
    const std::string offset = name.substr(plus + 1);
    name.erase(plus);
    if (offset.empty() || std::isdigit(static_cast<unsigned char>(offset.front())) == 0)
      fatal(fmt::format("Bad hetjob offset specified: {}", name));
  }
  a.job = static_cast<JobId>(std::atoll(name.c_str()));
  return true;
}

std::string user_name(uid_t uid) {
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) == 0 && found != nullptr)
    return found->pw_name;
  return std::to_string(uid);
}

/// Reads the command line as Slurm's sattach does; nullopt when it has
/// answered already (--help, --usage, --version).
std::optional<Args> read_command_line(int argc, char** argv, int error_exit) {
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  cli::OptionScan scan;
  try {
    scan = cli::scan_options(k_options, args);
  } catch (const cli::UsageError& e) {
    (void)cli::print_usage_error(k_tool, e);
    throw Exit{error_exit};
  }
  Args a;
  for (const cli::FoundOption& f : scan.options) {
    const std::string value = f.value.value_or("");
    switch (static_cast<Opt>(f.id)) {
      case Opt::help:
        if (const char* format = std::getenv("STINT_HELP_FORMAT");
            format != nullptr && std::string_view(format) == "scdoc") {
          // The options before "Help options:" have no title of their own.
          std::string text = cli::options_scdoc(listed_options());
          if (text.rfind("## \n\n", 0) == 0) text.erase(0, 5);
          fmt::print("%%SCDOC%%\n{}", text);
          return std::nullopt;
        }
        {
          std::string text = cli::help_text(listed_options(), k_usage);
          if (text.size() >= 2 && text.substr(text.size() - 2) == "\n\n") text.pop_back();
          fmt::print("{}", text);
        }
        return std::nullopt;
      case Opt::usage:
        print_usage();
        return std::nullopt;
      case Opt::version:
        fmt::print("{}\n", stint::version_line());
        return std::nullopt;
      case Opt::label:
        a.label = true;
        break;
      case Opt::quiet:
        ++a.quiet;
        break;
      case Opt::verbose:
        ++a.verbose;
        break;
      case Opt::layout:
        a.layout_only = true;
        break;
      case Opt::pty:
        a.pty = true;
        break;
      case Opt::input_filter:
        if (value != "-") a.input_filter = positive_int(value, "input-filter", error_exit);
        a.input_filter_set = true;
        break;
      case Opt::output_filter:
        if (value != "-") a.output_filter = positive_int(value, "output-filter", error_exit);
        a.output_filter_set = true;
        break;
      case Opt::error_filter:
        if (value != "-") a.error_filter = positive_int(value, "error-filter", error_exit);
        a.error_filter_set = true;
        break;
    }
  }
  if (args.size() - scan.first_operand != 1) {
    print_error("too many parameters");
    print_usage();
    throw Exit{error_exit};
  }
  if (!parse_step(args[scan.first_operand], a)) {
    print_error("Failed to parse stepid from command line options");
    print_usage();
    throw Exit{error_exit};
  }
  // Slurm's _opt_verify: every complaint, then the exit.
  bool verified = true;
  if (a.quiet > 0 && a.verbose > 0) {
    print_error("don't specify both --verbose (-v) and --quiet (-Q)");
    verified = false;
  }
  if (a.step == "batch" || a.step == "extern") {
    print_error("Cannot be used with extern or batch steps");
    verified = false;
  }
  if ((a.input_filter_set || a.output_filter_set || a.error_filter_set) && a.pty) {
    print_error("don't specify both --pty and I/O filtering");
    verified = false;
  }
  if (!verified) throw Exit{error_exit};
  if (a.verbose > 1) {
    const std::string step_line = a.step == "batch"         ? "4294967291"
                                  : a.step == "extern"      ? "4294967292"
                                  : a.step == "interactive" ? "4294967290"
                                                            : a.step;
    for (const std::string& line :
         {std::string("defined options for program `sattach'"),
          std::string("--------------- ---------------------"),
          fmt::format("job ID         : {}", a.job), fmt::format("step ID        : {}", step_line),
          fmt::format("user           : `{}'", user_name(::getuid())),
          fmt::format("uid            : {}", ::getuid()),
          fmt::format("gid            : {}", ::getgid()),
          fmt::format("verbose        : {}", a.verbose)})
      fmt::print(stderr, "{}: {}\n", k_tool, line);
  }
  if (!a.error_filter_set && a.output_filter_set) a.error_filter = a.output_filter;
  return a;
}

/// The job and step, as slurmctld's REQUEST_STEP_LAYOUT answers for them:
/// the message of the error behind "Could not get job step info", or none.
std::optional<std::string> step_refusal(const Paths& paths, const Args& a, Job& job) {
  constexpr std::string_view k_invalid = "Invalid job id specified";
  std::vector<Job> found =
      query::read_jobs(paths, JobFilter{}, {query::JobRef{a.job, a.array_task}});
  // "12" names that job only, not the tasks of an array 12.
  std::erase_if(found,
                [&a](const Job& j) { return a.array_task == k_no_array_task && j.id != a.job; });
  if (found.empty()) return std::string(k_invalid);
  job = found.front();
  if (::getuid() != 0 && ::getuid() != job.user_id) return std::string("Access/permission denied");
  if (job.state == JobState::pending) return std::string("Job is pending execution");
  if (job.state != JobState::running && job.state != JobState::suspended)
    return std::string("Job/step already completing or completed");
  for (const JobStep& s : query::job_steps(paths, {job})) {
    if (s.attempt == job.restart_count && std::to_string(s.step_id) == a.step &&
        s.end_time == k_no_time)
      return std::nullopt;
  }
  return std::string(k_invalid);
}

bool step_still_running(const Paths& paths, const Args& a) {
  Job job;
  return !step_refusal(paths, a, job).has_value();
}

int g_detach_pipe[2] = {-1, -1};

void on_detach_signal(int sig) {
  const int saved = errno;
  const auto byte = static_cast<char>(sig);
  (void)!::write(g_detach_pipe[1], &byte, 1);
  errno = saved;
}

void print_layout(const cli::AttachLayout& layout) {
  std::vector<std::string> names;
  for (const cli::AttachLayout::Node& n : layout.nodes) names.push_back(n.name);
  std::string out = "Job step layout:\n";
  out += fmt::format("\t{} tasks, {} nodes ({})\n\n", layout.task_count, layout.nodes.size(),
                     parse::compress_hostlist(names));
  for (std::size_t i = 0; i < layout.nodes.size(); ++i) {
    const cli::AttachLayout::Node& n = layout.nodes[i];
    out += fmt::format("\tNode {} ({}), {} task(s): ", i, n.name, n.tasks.size());
    for (const std::uint32_t t : n.tasks) out += fmt::format("{} ", t);
    out += "\n";
  }
  fmt::print("{}", out);
  std::fflush(stdout);
}

/// The attached session: what srun sends printed here, sattach's stdin sent there.
class Session {
 public:
  Session(const Args& a, int socket) : m_args(a), m_socket(socket) {}

  /// Waits for srun's first frame, the step's layout; nullopt when srun
  /// closed first or sattach was told to detach.
  std::optional<cli::AttachLayout> read_layout() {
    for (;;) {
      bool bad = false;
      if (std::optional<cli::Frame> f = cli::take_frame(m_received, bad)) {
        if (f->kind != cli::FrameKind::layout) return std::nullopt;
        return cli::decode_layout(f->payload);
      }
      if (bad) return std::nullopt;
      std::array<pollfd, 2> fds{{{m_socket, POLLIN, 0}, {g_detach_pipe[0], POLLIN, 0}}};
      if (::poll(fds.data(), fds.size(), -1) < 0) continue;
      if (fds[1].revents != 0) return std::nullopt;
      if (!receive()) return std::nullopt;
    }
  }

  /// Runs until the step ends or sattach detaches; returns sattach's exit
  /// status: the highest exit code of the tasks it saw end.
  int run() {
    ::fcntl(m_socket, F_SETFL, ::fcntl(m_socket, F_GETFL) | O_NONBLOCK);
    if (!handle_frames()) return finish();
    for (;;) {
      std::array<pollfd, 3> fds{};
      fds[0] = {m_socket, static_cast<short>(POLLIN | (m_unsent.empty() ? 0 : POLLOUT)), 0};
      fds[1] = {g_detach_pipe[0], POLLIN, 0};
      // Input is read while srun takes it: a step nobody reads the input of
      // holds sattach's stdin where it is.
      const bool read_input = m_stdin_open && m_unsent.size() < (1U << 20);
      fds[2] = {read_input ? 0 : -1, POLLIN, 0};
      if (::poll(fds.data(), fds.size(), -1) < 0) continue;
      if (fds[1].revents != 0) return finish();  // detached: the step goes on
      if ((fds[0].revents & POLLOUT) != 0 && !send_unsent()) return finish();
      if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        if (!receive() || !handle_frames()) return finish();
      }
      if (read_input && fds[2].revents != 0) read_stdin();
    }
  }

 private:
  /// Reads what srun sent; false once srun has closed (the step has ended).
  bool receive() {
    char buf[65536];
    for (;;) {
      const ssize_t n = ::recv(m_socket, buf, sizeof buf, MSG_DONTWAIT);
      if (n > 0) {
        m_received.append(buf, static_cast<std::size_t>(n));
        return true;
      }
      if (n < 0 && errno == EINTR) continue;
      return n < 0 && errno == EAGAIN;
    }
  }

  bool handle_frames() {
    bool bad = false;
    while (std::optional<cli::Frame> f = cli::take_frame(m_received, bad)) {
      switch (f->kind) {
        case cli::FrameKind::task_stdout:
          if (m_args.output_filter == cli::k_every_task || m_args.output_filter == f->task) {
            if (!print(f->task, 1, f->payload)) return false;
          }
          break;
        case cli::FrameKind::task_stderr:
          if (m_args.error_filter == cli::k_every_task || m_args.error_filter == f->task) {
            if (!print(f->task, 2, f->payload)) return false;
          }
          break;
        case cli::FrameKind::task_end:
          if (const std::optional<cli::TaskEnd> end = cli::decode_task_end(f->payload))
            task_ended(f->task, *end);
          break;
        case cli::FrameKind::layout:
        case cli::FrameKind::input:
          break;
      }
    }
    return !bad;
  }

  bool print(std::uint32_t task, int fd, std::string_view bytes) {
    if (!m_args.label) return fs::write_fully(fd, bytes);
    std::string& partial = m_partial[{task, fd}];
    partial.append(bytes);
    std::string out;
    std::size_t start = 0;
    for (std::size_t nl; (nl = partial.find('\n', start)) != std::string::npos; start = nl + 1)
      out += fmt::format("{}: {}\n", task, std::string_view(partial).substr(start, nl - start));
    partial.erase(0, start);
    return out.empty() || fs::write_fully(fd, out);
  }

  /// Slurm's sattach on MESSAGE_TASK_EXIT.
  void task_ended(std::uint32_t task, const cli::TaskEnd& end) {
    const bool quiet = m_args.quiet > 0;
    if (m_args.verbose > 0 && !quiet)
      fmt::print(stderr, "{}: 1 tasks finished (rc={})\n", k_tool,
                 end.exit_signal != 0 ? end.exit_signal : end.exit_status << 8);
    if (end.exit_signal == 0 && end.exit_status != 0) {
      flush_partial(task);
      print_error(fmt::format("task {} exited with exit code {}", task, end.exit_status));
      m_status = std::max(m_status, end.exit_status);
    } else if (end.exit_signal != 0 && m_args.verbose > 0 && !quiet) {
      fmt::print(stderr, "{}: task {} killed by signal {}\n", k_tool, task, end.exit_signal);
    }
  }

  void read_stdin() {
    char buf[65536];
    const ssize_t n = ::read(0, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    // Its end (or an error: EIO in the background of a terminal) ends the
    // tasks' stdin too, as Slurm's sattach sends its end on.
    const std::string_view bytes =
        n > 0 ? std::string_view(buf, static_cast<std::size_t>(n)) : std::string_view();
    if (n <= 0) m_stdin_open = false;
    m_unsent += cli::encode_frame(m_args.input_filter, cli::FrameKind::input, bytes);
    send_unsent();
  }

  bool send_unsent() {
    while (!m_unsent.empty()) {
      const ssize_t n =
          ::send(m_socket, m_unsent.data(), m_unsent.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n > 0) {
        m_unsent.erase(0, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      return n < 0 && errno == EAGAIN;
    }
    return true;
  }

  void flush_partial(std::uint32_t task) {
    for (auto& [key, partial] : m_partial) {
      if (key.first != task || partial.empty()) continue;
      fs::write_fully(key.second, fmt::format("{}: {}\n", task, partial));
      partial.clear();
    }
  }

  int finish() {
    for (auto& [key, partial] : m_partial) {
      if (!partial.empty())
        fs::write_fully(key.second, fmt::format("{}: {}\n", key.first, partial));
      partial.clear();
    }
    return m_status;
  }

  const Args& m_args;
  int m_socket;
  std::string m_received;
  std::string m_unsent;
  bool m_stdin_open = true;
  std::map<std::pair<std::uint32_t, int>, std::string> m_partial;
  int m_status = 0;
};

int run(int argc, char** argv) {
  int error_exit = 1;
  if (const char* value = std::getenv("SLURM_EXIT_ERROR")) {
    if (const int i = std::atoi(value); i == 0) {
      print_error("SLURM_EXIT_ERROR has zero value");
    } else {
      error_exit = i;
    }
  }
  try {
    const std::optional<Args> read = read_command_line(argc, argv, error_exit);
    if (!read) return 0;
    const Args& a = *read;
    if (a.pty) {
      print_error(
          "--pty is not supported: a step's terminal is its srun's alone; run the step with "
          "srun --pty to have one, or attach without --pty to its output and input");
      return error_exit;
    }
    const Paths paths = default_paths();
    Job job;
    if (const std::optional<std::string> refusal = step_refusal(paths, a, job)) {
      print_error(fmt::format("Could not get job step info: {}", *refusal));
      return error_exit;
    }
    const std::string step_text = fmt::format("{}.{}", job.id, a.step);
    const std::string name = cli::step_io_socket_name(
        paths.state_dir, job.id, static_cast<std::uint32_t>(std::stoul(a.step)));
    // The step's record comes a moment before its srun listens: wait for it
    // while the step runs.
    int fd = -1;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while ((fd = cli::connect_step_io(name)) < 0) {
      const int error = errno;
      if (std::chrono::steady_clock::now() >= deadline || !step_still_running(paths, a)) {
        if (a.verbose > 0)
          fmt::print(stderr, "{}: no srun of StepId={} at @{}: {}\n", k_tool, step_text, name,
                     std::strerror(error));
        print_error("Could not get job step info: Invalid job id specified");
        return error_exit;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    // Anyone may take an abstract name first: only a process of the job's
    // owner (or root) is the step's srun.
    ucred cred{};
    socklen_t length = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0 ||
        (cred.uid != job.user_id && cred.uid != 0)) {
      ::close(fd);
      print_error(fmt::format(
          "the process serving StepId={} at @{} runs as uid {}, not as the job's owner: not "
          "attaching",
          step_text, name, cred.uid));
      return error_exit;
    }
    if (a.verbose > 0)
      fmt::print(stderr, "{}: attached to srun (pid {}) of StepId={} at @{}\n", k_tool, cred.pid,
                 step_text, name);

    if (::pipe2(g_detach_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
      throw Error(Errc::io, fmt::format("pipe: {}", std::strerror(errno)));
    struct sigaction sa {};
    sa.sa_handler = on_detach_signal;
    sigemptyset(&sa.sa_mask);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(sig, &sa, nullptr);
    // In the background of a terminal, reading it fails instead of stopping
    // sattach, as with Slurm's.
    ::signal(SIGTTIN, SIG_IGN);

    Session session(a, fd);
    const std::optional<cli::AttachLayout> layout = session.read_layout();
    if (!layout) {
      ::close(fd);
      return 0;  // the step ended, or sattach was told to detach, before it began
    }
    if (a.layout_only) {
      ::close(fd);
      print_layout(*layout);
      return 0;
    }
    if (a.input_filter_set && a.input_filter != cli::k_every_task &&
        a.input_filter >= layout->task_count) {
      ::close(fd);
      print_error(fmt::format("--input-filter={}: StepId={} has tasks 0 to {} only", a.input_filter,
                              step_text, layout->task_count - 1));
      return error_exit;
    }
    const int status = session.run();
    ::close(fd);
    return status;
  } catch (const Exit& e) {
    return e.status;
  }
}

}  // namespace

int sattach(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
