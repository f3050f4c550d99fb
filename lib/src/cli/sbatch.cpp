// sbatch: submit a batch script.
//
// The option work is in sbatch_options.cpp (pure); this file does the I/O:
// reading the script, the environment, the RPC, and --wait.

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <fmt/core.h>
#include <grp.h>
#include <pwd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/store.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/refusal.hpp"
#include "cli/sbatch_options.hpp"
#include "cli/usage_error.hpp"
#include "model/json.hpp"
#include "rpc/client.hpp"
#include "util/fs.hpp"
#include "util/proc.hpp"

extern char** environ;

namespace stint::tools {
namespace {

constexpr std::string_view k_tool = "sbatch";

// run_tool prints one "sbatch: error: " before a message; Slurm prints it
// before every line of a message of several lines (the "#!" complaint, a
// refused submission). Give each further line its own prefix.
Error with_prefixed_lines(const Error& e) {
  std::string text = e.what();
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out += fmt::format("{}: error: ", k_tool);
  }
  return Error(e.code(), out);
}

// Reads a whole file descriptor. A read error ends the text, as in Slurm
// (a directory reads as an empty script).
std::string read_all(int fd) {
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

bool readable(const std::string& path) { return ::access(path.c_str(), R_OK) == 0; }

// Slurm's script path resolution (man sbatch, SCRIPT PATH RESOLUTION): "/..."
// as is, "./..." from the working directory, then the working directory, then
// $PATH.
std::string resolve_script(const std::string& name, const std::string& cwd) {
  if (!name.empty() && name.front() == '/') return name;
  std::string local = cwd + "/" + name;
  if ((!name.empty() && name.front() == '.') || readable(local)) return local;
  if (const char* path = std::getenv("PATH")) {
    std::string_view dirs = path;
    while (!dirs.empty()) {
      const std::size_t colon = dirs.find(':');
      const std::string dir(dirs.substr(0, colon));
      dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
      if (dir.empty()) continue;
      std::string candidate = dir + "/" + name;
      if (readable(candidate)) return candidate;
    }
  }
  return local;
}

cli::BatchScript read_script(const cli::SbatchCommandLine& cl, const std::string& cwd) {
  cli::BatchScript script;
  if (cl.wrap) {
    script.source = cli::ScriptSource::wrap;
    script.text = cli::wrap_script(*cl.wrap);
    return script;  // Slurm checks only scripts it reads
  }
  if (cl.script) {
    script.source = cli::ScriptSource::file;
    script.path = resolve_script(*cl.script, cwd);
    const int fd = ::open(script.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      throw Error(Errc::batch_script_invalid, fmt::format("Unable to open file {}", *cl.script));
    }
    // A directory opens and reads as nothing: Slurm's sbatch then says
    // "Batch script is empty!", which sends the user looking in the wrong place.
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd);
      throw Error(Errc::batch_script_invalid,
                  fmt::format("Unable to open file {}: Is a directory", *cl.script));
    }
    script.text = read_all(fd);
    ::close(fd);
  } else {
    script.source = cli::ScriptSource::standard_input;
    script.text = read_all(STDIN_FILENO);
  }
  cli::check_batch_script(script.text);
  return script;
}

// How stintd and sbatch share the two lines of a refused submission (Slurm
// prints "sbatch: error: invalid partition specified: nosuch" and then
// "sbatch: error: Batch job submission failed: Invalid partition name
// specified"): the daemon throws Error(code, detail), where detail is the
// first line's text without "sbatch: error: ", or empty when Slurm prints
// only the second line. sbatch adds the second line from the code,
// errc_slurm_message(code). The same holds for errors of the client itself
// (stintd unreachable): its message is the detail.
bool cluster_has_gpus() {
  try {
    const Config config = query::read_config(default_paths());
    const std::vector<NodeDef> nodes = config.nodes();
    return std::any_of(nodes.begin(), nodes.end(), [](const NodeDef& n) { return n.gpus > 0; });
  } catch (const Error&) {
    return false;
  }
}

Error submission_failed(const Error& e) {
  std::string detail = e.what();
  const std::string_view reason = errc_slurm_message(e.code());
  if (detail == reason) detail.clear();  // the reason alone, never twice
  std::string text = detail.empty() ? std::string() : detail + "\n";
  // On a cluster without GPUs Slurm's sbatch knows no "gpu" GRES at all
  // (GresTypes) and refuses it itself, without the controller's "submission
  // failed"; where there are GPUs, the controller refuses a type or count.
  if (e.code() == Errc::invalid_gres && !cluster_has_gpus())
    return Error(e.code(), text + std::string(reason));
  text += fmt::format("Batch job submission failed: {}", reason);
  return Error(e.code(), text);
}

// The job's exit status as -W gives it: a job killed by a signal gives 1.
int wait_status(const Job& job) { return job.exit_signal != 0 ? 1 : job.exit_status; }

// -W: wait for the job to end and give its exit status, as Slurm's sbatch
// does; for an array, wait for every task and give the highest status
// (Slurm's _job_wait over the array's records). stintd creates an array's
// tasks when it accepts it and writes a job before it answers, so the
// read-only database has them all; poll it with a short backoff.
int wait_for_job(const Paths& paths, JobId id, bool array) {
  const auto store = Store::reader(paths.db());
  std::chrono::milliseconds delay{10};
  for (;;) {
    std::vector<Job> jobs;
    if (array) {
      jobs = store->array_tasks(id);
    } else if (std::optional<Job> job = store->job(id)) {
      jobs.push_back(std::move(*job));
    }
    if (jobs.empty()) {
      fmt::print(stderr, "{}: error: Job {} no longer found and exit code not found\n", k_tool, id);
      return 0;
    }
    if (std::all_of(jobs.begin(), jobs.end(), [](const Job& j) { return is_terminal(j.state); })) {
      int status = 0;
      for (const Job& j : jobs) status = std::max(status, wait_status(j));
      return status;
    }
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::milliseconds{500});
  }
}

int submit(const cli::SbatchRequest& request) {
  const Paths paths = default_paths();
  nlohmann::json message = {{"op", "submit"}, {"spec", to_json(request.spec)}};
  if (!request.het_components.empty()) {
    // stintd submits them together; its reply names the leader.
    nlohmann::json components = nlohmann::json::array();
    for (const JobSpec& c : request.het_components) components.push_back(to_json(c));
    message["het_components"] = std::move(components);
  }
  if (request.test_only) message["test_only"] = true;
  nlohmann::json reply;
  // A full queue (MaxJobCount) is waited out as Slurm's sbatch waits: it
  // says so once, then tries again after 1, 2, ... 15 seconds (two minutes
  // in all) before it gives up.
  constexpr int k_max_retries = 15;
  for (int retries = 0;; ++retries) {
    try {
      reply = rpc::call(paths, message);
      break;
    } catch (const Error& e) {
      if (e.code() != Errc::try_again || retries >= k_max_retries)
        cli::throw_with_hints(submission_failed(e), request.spec.partition.value_or(""),
                              request.spec.array_spec);
      if (retries == 0)
        fmt::print(stderr,
                   "{}: error: Slurm temporarily unable to accept job, sleeping and "
                   "retrying.\n",
                   k_tool);
      std::fflush(stderr);
      std::this_thread::sleep_for(std::chrono::seconds(retries + 1));
    }
  }
  const JobId id = reply.value("job_id", JobId{0});
  // What stintd accepted with a change the user should know of (a site name
  // mapped to this machine's, for one), as Slurm's controller warnings.
  if (const auto it = reply.find("warnings"); it != reply.end() && it->is_array()) {
    for (const auto& w : *it) {
      if (w.is_string()) fmt::print(stderr, "{}: warning: {}\n", k_tool, w.get<std::string>());
    }
  }

  if (request.test_only) {
    // Slurm's --test-only line; stintd's reply carries the prediction. For a
    // heterogeneous job Slurm's slurm_het_job_will_run words it otherwise:
    // the latest start, every component's processors and nodes, no partition.
    if (!request.het_components.empty()) {
      fmt::print(stderr, "{}: Job {} to start at {} using {} processors on {}\n", k_tool, id,
                 parse::format_timestamp(reply.value("start_time", Seconds{k_no_time})),
                 reply.value("cpus", 0U), reply.value("nodes", std::string()));
      return 0;
    }
    fmt::print(stderr,
               "{}: Job {} to start at {} using {} processors on nodes {} in partition {}\n",
               k_tool, id, parse::format_timestamp(reply.value("start_time", Seconds{k_no_time})),
               reply.value("cpus", 0U), reply.value("nodes", std::string("(null)")),
               reply.value("partition", std::string("(null)")));
    return 0;
  }
  if (!request.quiet) {
    if (request.parsable) {
      fmt::print("{}\n", id);
    } else {
      fmt::print("Submitted batch job {}\n", id);
    }
  }
  std::fflush(stdout);
  if (request.wait) return wait_for_job(paths, id, !request.spec.array_spec.empty());
  return 0;
}

int run(int argc, char** argv) {
  const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  try {
    const cli::SbatchCommandLine cl = cli::parse_sbatch_command_line(args);
    switch (cl.action) {
      case cli::SbatchCommandLine::Action::help:
        // The man page's OPTIONS section is made from the same table
        // (scripts/gen-man asks for it this way at build time).
        if (const char* format = std::getenv("STINT_HELP_FORMAT");
            format != nullptr && std::string_view(format) == "scdoc") {
          fmt::print("%%SCDOC%%\n{}", cli::options_scdoc(cli::sbatch_option_table()));
          return 0;
        }
        fmt::print("{}", cli::sbatch_help_text());
        return 0;
      case cli::SbatchCommandLine::Action::usage:
        fmt::print("{}", cli::sbatch_usage_text());
        return 0;
      case cli::SbatchCommandLine::Action::version:
        fmt::print("{}\n", stint::version_line());
        return 0;
      case cli::SbatchCommandLine::Action::submit:
        break;
    }
    const cli::SubmitContext context = cli::current_submit_context();
    const cli::BatchScript script = read_script(cl, context.cwd);
    const cli::SbatchRequest request = cli::build_sbatch_request(cl, script, context);
    std::fflush(stdout);
    for (const auto& [level, text] : request.notices) {
      if (level == "info" && request.verbose == 0) continue;
      fmt::print(stderr, "{}: {}{}\n", k_tool, level == "info" ? "" : level + ": ", text);
    }
    // A fatal() of Slurm's option checks: said above, nothing submitted.
    for (const auto& notice : request.notices)
      if (notice.first == "fatal") return 1;
    if (request.verbose >= 2) {
      // -vv: Slurm's debug() lines for what sbatch passes on to the job.
      for (const auto& [key, value] : request.spec.environment) {
        if (key == "SLURM_UMASK")
          fmt::print(stderr, "{}: debug:  propagating UMASK={}\n", k_tool, value);
      }
      fmt::print(stderr, "{}: debug:  propagating SLURM_PRIO_PROCESS=0\n", k_tool);
    }
    if (!request.help_requested.empty()) {
      fmt::print("{}", request.help_requested);
      return 0;
    }
    return submit(request);
  } catch (const cli::UsageError& e) {
    return cli::print_usage_error(k_tool, e);
  } catch (const cli::PrefacedError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "{}\n", e.preface());
    throw with_prefixed_lines(e);
  } catch (const cli::HintedError& e) {
    throw cli::HintedError(with_prefixed_lines(e), e.hints());
  } catch (const Error& e) {
    throw with_prefixed_lines(e);
  }
}

}  // namespace

int sbatch(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools

namespace stint::cli {

SubmitContext current_submit_context() {
  SubmitContext ctx;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view entry = *e;
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    ctx.environment.emplace_back(std::string(entry.substr(0, eq)),
                                 std::string(entry.substr(eq + 1)));
  }
  // As Slurm's sbatch: the job creates its files with the submitter's umask
  // (stepd applies SLURM_UMASK), unless the caller set one already.
  if (std::none_of(ctx.environment.begin(), ctx.environment.end(),
                   [](const auto& kv) { return kv.first == "SLURM_UMASK"; })) {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ctx.environment.emplace_back(
        "SLURM_UMASK", fmt::format("0{:o}{:o}{:o}", (mask >> 6) & 7, (mask >> 3) & 7, mask & 7));
  }
  std::vector<char> buf(4096);
  while (::getcwd(buf.data(), buf.size()) == nullptr) {
    if (errno != ERANGE) {
      throw Error(Errc::io, fmt::format("getcwd failed: {}", std::strerror(errno)));
    }
    buf.resize(buf.size() * 2);
  }
  ctx.cwd = buf.data();
  ctx.hostname = proc::short_hostname();
  ctx.now = static_cast<Seconds>(std::time(nullptr));
  ctx.uid = ::getuid();
  static constexpr std::array<std::pair<const char*, int>, 10> k_limits = {{
      {"CPU", RLIMIT_CPU},
      {"FSIZE", RLIMIT_FSIZE},
      {"DATA", RLIMIT_DATA},
      {"STACK", RLIMIT_STACK},
      {"CORE", RLIMIT_CORE},
      {"RSS", RLIMIT_RSS},
      {"NPROC", RLIMIT_NPROC},
      {"NOFILE", RLIMIT_NOFILE},
      {"MEMLOCK", RLIMIT_MEMLOCK},
      {"AS", RLIMIT_AS},
  }};
  for (const auto& [name, resource] : k_limits) {
    rlimit limit{};
    if (::getrlimit(resource, &limit) == 0) {
      ctx.rlimits.emplace_back(name, std::to_string(static_cast<unsigned long>(limit.rlim_cur)));
    }
  }
  // Read only when a cluster's name or option turns up, not at every submission.
  ctx.foreign_names_mapped = [] {
    try {
      std::string v =
          query::read_config(default_paths()).conf("StintForeignNames").value_or("refuse");
      for (char& ch : v) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return v == "map";
    } catch (const Error&) {
      return false;
    }
  };
  // The node names are read once, at the first name asked.
  ctx.node_known =
      [names = std::optional<std::vector<std::string>>()](const std::string& name) mutable {
        if (!names) {
          names.emplace();
          try {
            for (const NodeDef& n : query::read_config(default_paths()).nodes())
              names->push_back(n.name);
          } catch (const Error&) {
            return true;  // no config to tell: stintd decides
          }
        }
        return names->empty() || std::find(names->begin(), names->end(), name) != names->end();
      };
  // Only -M needs it: the configuration is read then, not at every submission.
  ctx.cluster_name = [] {
    try {
      return query::read_config(default_paths()).cluster_name;
    } catch (const Error&) {
      return std::string();
    }
  };
  ctx.user_id = [](const std::string& name) -> std::optional<std::uint32_t> {
    if (const passwd* pw = ::getpwnam(name.c_str())) return pw->pw_uid;
    return std::nullopt;
  };
  ctx.group_id = [](const std::string& name) -> std::optional<std::uint32_t> {
    if (const group* gr = ::getgrnam(name.c_str())) return gr->gr_gid;
    return std::nullopt;
  };
  ctx.read_file = [](const std::string& path) -> std::optional<std::string> {
    try {
      return fs::read_file(path);
    } catch (const Error&) {
      return std::nullopt;
    }
  };
  return ctx;
}

}  // namespace stint::cli
