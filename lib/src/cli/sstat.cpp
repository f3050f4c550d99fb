// sstat: live CPU, memory and I/O figures of the steps of running jobs, as
// Slurm 22.05's sstat prints them. Slurm asks each node's slurmstepd, whose
// gatherer polls /proc; stint's steps run on this machine, so sstat reads
// /proc itself: a process belongs to step J.S when its environment holds
// SLURM_JOB_ID=J and SLURM_STEP_ID=S (the batch step: SLURM_JOB_ID=J and no
// step id), its task is SLURM_PROCID and its node SLURMD_NODENAME. Which steps
// run comes from the database, read-only; stintd is not asked.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include <dirent.h>
#include <fmt/core.h>
#include <unistd.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>
#include <stint/tools.hpp>

#include "cli/boundary.hpp"
#include "cli/cli11.hpp"
#include "cli/read_common.hpp"
#include "cli/sstat_fields.hpp"
#include "cli/sstat_usage.hpp"
#include "daemon/slurm_conf_file.hpp"

namespace stint::tools {
namespace {

namespace ss = cli::sstat;

constexpr std::string_view k_tool = "sstat";

struct SstatArgs {
  bool all_steps = false;
  bool helpformat = false;
  bool pid_format = false;
  std::vector<std::string> jobs;
  bool no_header = false;
  bool noconvert = false;
  std::vector<std::string> formats;
  bool parsable = false;
  bool parsable2 = false;
  bool usage = false;
  std::int64_t verbose = 0;
};

/// Slurm's fatal(): the message and exit status 1, no error code involved.
struct Fatal {
  std::string message;
};

/// A job step as -j names it: "12", "12.0", "12.batch", "12_3.1".
struct SelectedStep {
  JobId job = 0;
  std::uint32_t array_task = k_no_array_task;
  std::optional<std::string> step;  ///< "0", "batch", "extern", "interactive"; none: not named
  bool operator==(const SelectedStep&) const = default;
};

// Slurm's slurm_addto_step_list and slurm_parse_step_str, messages and all.
void add_step_list(std::vector<SelectedStep>& out, std::string_view names) {
  std::size_t start = 0;
  while (start <= names.size()) {
    std::size_t comma = names.find(',', start);
    if (comma == std::string_view::npos) comma = names.size();
    std::string_view name = names.substr(start, comma - start);
    start = comma + 1;
    if (name.empty()) continue;
    if (!std::isdigit(static_cast<unsigned char>(name.front())))
      throw Fatal{fmt::format("Bad job/step specified: {}", name)};
    SelectedStep s;
    if (const std::size_t dot = name.find('.'); dot != std::string_view::npos) {
      std::string_view step = name.substr(dot + 1);
      name = name.substr(0, dot);
      if (step == "batch" || step == "extern" || step == "interactive") {
        s.step = std::string(step);
      } else if (!step.empty() && std::isdigit(static_cast<unsigned char>(step.front()))) {
        s.step = std::to_string(std::atoi(std::string(step).c_str()));
      } else {
        throw Fatal{fmt::format("Bad step specified: {}", name)};
      }
    }
    if (const std::size_t under = name.find('_'); under != std::string_view::npos) {
      const std::string_view task = name.substr(under + 1);
      if (task.empty() || !std::isdigit(static_cast<unsigned char>(task.front())))
        throw Fatal{fmt::format("Bad job array element specified: {}", name.substr(0, under))};
      s.array_task = static_cast<std::uint32_t>(std::atoi(std::string(task).c_str()));
      name = name.substr(0, under);
    }
    s.job = static_cast<JobId>(std::atoll(std::string(name).c_str()));
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
}

/// "StepId=12.0", as Slurm's %ps names a step.
std::string step_name(JobId job, const std::string& step) {
  return fmt::format("StepId={}.{}", job, step);
}

void print_error(const std::string& message) {
  std::fflush(stdout);
  fmt::print(stderr, "{}: error: {}\n", k_tool, message);
}

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

/// The tasks of every step of the jobs `job_ids`, by "job.step" (the batch
/// step's key is "job."), each task's processes summed.
using StepTasks = std::map<std::string, std::map<std::uint32_t, ss::TaskUsage>>;

/// Whether a process's SLURM_CONF is this cluster's: job ids are only unique
/// within one state directory, and other stint clusters (or a Slurm) may run
/// jobs with the same ids on this machine. A task without SLURM_CONF (an
/// srun from outside the job, whose environment had none) is taken.
bool same_cluster(const std::string& conf, const std::string& own_conf) {
  if (conf.empty() || conf == own_conf) return true;
  std::error_code ec;
  return std::filesystem::weakly_canonical(conf, ec) ==
         std::filesystem::weakly_canonical(own_conf, ec);
}

StepTasks scan_processes(const Paths& paths, const std::vector<std::string>& job_ids) {
  StepTasks out;
  const std::string own_conf = daemon::slurm_conf_path(paths.state_dir);
  const std::uint32_t mhz = ss::parse_cpuinfo_mhz(read_text("/proc/cpuinfo").value_or(""));
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return out;
  while (const dirent* entry = ::readdir(proc)) {
    const std::string_view name = entry->d_name;
    if (name.empty() ||
        !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    const std::string dir = fmt::format("/proc/{}/", name);
    // Another user's environ is unreadable (as Slurm shows only one's own
    // jobs' steps to a user); a process that ended meanwhile is skipped.
    const std::optional<std::string> environ = read_text(dir + "environ");
    if (!environ) continue;
    const std::optional<ss::ProcessEnv> env = ss::parse_environ(*environ);
    if (!env || std::find(job_ids.begin(), job_ids.end(), env->job_id) == job_ids.end() ||
        !same_cluster(env->conf, own_conf))
      continue;
    ss::ProcessFigures figures;
    const std::optional<std::string> stat = read_text(dir + "stat");
    if (!stat || !ss::parse_proc_stat(*stat, figures)) continue;
    ss::parse_proc_status(read_text(dir + "status").value_or(""), figures);
    ss::parse_proc_io(read_text(dir + "io").value_or(""), figures);
    ss::TaskUsage& task = out[env->job_id + "." + env->step_id][env->task];
    task.task = env->task;
    task.node = env->node;
    task.cpu_mhz = mhz;
    ss::add_process(task, std::atoi(std::string(name).c_str()), figures);
  }
  ::closedir(proc);
  return out;
}

std::string join_pids(const std::vector<int>& pids) {
  std::string out;
  for (const int pid : pids) {
    if (!out.empty()) out += ',';
    out += std::to_string(pid);
  }
  return out;
}

/// Prints one step: its line, or with -i a line per node.
void print_step(const ss::Output& output, const SstatArgs& a, const Job& job,
                const std::string& step, const StepTasks& found) {
  std::vector<ss::TaskUsage> tasks;
  const std::string key = fmt::format("{}.{}", job.id, step == "batch" ? "" : step);
  if (const auto it = found.find(key); it != found.end()) {
    for (const auto& entry : it->second) tasks.push_back(entry.second);
  }
  ss::StepLine line;
  line.id = fmt::format("{}.{}", job.id, step);
  line.batch = step == "batch";
  if (a.pid_format) {
    // Slurm answers node by node: a line per node with its tasks' pids.
    std::vector<std::string> nodes;
    for (const ss::TaskUsage& t : tasks) {
      if (std::find(nodes.begin(), nodes.end(), t.node) == nodes.end()) nodes.push_back(t.node);
    }
    for (const std::string& node : nodes) {
      std::vector<int> pids;
      for (const ss::TaskUsage& t : tasks) {
        if (t.node == node) pids.insert(pids.end(), t.pids.begin(), t.pids.end());
      }
      line.nodes = node;
      line.pids = join_pids(pids);
      fmt::print("{}", ss::render_line(output, line));
    }
    return;
  }
  const ss::StepUsage usage = ss::aggregate(tasks, ::sysconf(_SC_CLK_TCK));
  std::vector<std::string> nodes = usage.nodes;
  std::sort(nodes.begin(), nodes.end());
  line.nodes = parse::compress_hostlist(nodes);
  line.pids = join_pids(usage.pids);
  line.usage = &usage;
  fmt::print("{}", ss::render_line(output, line));
}

/// The steps of a running job that are running now: the batch step, then the
/// srun steps (of this attempt) that have not ended, by id.
std::vector<std::string> running_steps(const Paths& paths, const Job& job) {
  std::vector<std::string> out = {"batch"};
  std::vector<JobStep> steps = query::job_steps(paths, {job});
  std::sort(steps.begin(), steps.end(),
            [](const JobStep& x, const JobStep& y) { return x.step_id < y.step_id; });
  for (const JobStep& s : steps) {
    if (s.attempt == job.restart_count && s.end_time == k_no_time)
      out.push_back(std::to_string(s.step_id));
  }
  return out;
}

int stat_steps(const SstatArgs& a, const ss::Output& output,
               const std::vector<SelectedStep>& selected) {
  const Paths paths = default_paths();
  cli::warn_if_stale("sstat", paths);
  fmt::print("{}", ss::render_header(output));
  // Read the jobs first, then /proc once for all of them.
  std::vector<std::optional<Job>> jobs;
  std::vector<std::string> running_ids;
  for (const SelectedStep& s : selected) {
    std::vector<Job> read =
        query::read_jobs(paths, JobFilter{}, {query::JobRef{s.job, s.array_task}});
    // "12" names an array's first task only here: sstat stats one job.
    std::erase_if(read,
                  [&s](const Job& j) { return s.array_task == k_no_array_task && j.id != s.job; });
    jobs.push_back(read.empty() ? std::nullopt : std::optional<Job>(read.front()));
    if (jobs.back() && jobs.back()->state == JobState::running)
      running_ids.push_back(std::to_string(jobs.back()->id));
  }
  const StepTasks found = scan_processes(paths, running_ids);
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const SelectedStep& s = selected[i];
    if (!jobs[i]) {
      print_error(fmt::format("couldn't get steps for job {}", s.job));
      continue;
    }
    const Job& job = *jobs[i];
    const std::vector<std::string> steps =
        job.state == JobState::running ? running_steps(paths, job) : std::vector<std::string>{};
    if (s.step) {
      if (std::find(steps.begin(), steps.end(), *s.step) == steps.end()) {
        print_error(fmt::format("{} not found running.", step_name(s.job, *s.step)));
        continue;
      }
      print_step(output, a, job, *s.step, found);
      continue;
    }
    if (steps.empty()) {
      print_error(fmt::format("No steps running for job {}", s.job));
      continue;
    }
    // No step named: all of them with -a, else the lowest numbered one.
    for (const std::string& step : steps) {
      if (!a.all_steps && step == "batch") continue;
      print_step(output, a, job, step, found);
      if (!a.all_steps) break;
    }
  }
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"sstat: display the CPU, memory and I/O figures of the running steps of jobs"};
  cli::configure_app(app, k_tool);
  // Slurm's sstat --usage is its own two lines, not a list of the options.
  app.remove_option(app.get_option("--usage"));
  SstatArgs a;
  app.add_flag("-a,--allsteps", a.all_steps,
               "print all running steps of the jobs (the batch step too) when -j names no step");
  app.add_flag("-e,--helpformat", a.helpformat,
               "print a list of fields that can be specified with the '--format' option");
  app.add_flag("-i,--pidformat", a.pid_format,
               "list the pids of each step on each node (JobId,Nodes,Pids)");
  app.add_option("-j,--jobs", a.jobs,
                 "job(.step) or comma-separated list of them: 12, 12.0, 12.batch; without a "
                 "step, the lowest numbered running step (all with --allsteps)");
  app.add_flag("-n,--noheader", a.no_header, "no header line");
  app.add_flag("--noconvert", a.noconvert, "don't convert units (2048M stays 2048M, not 2G)");
  app.add_option("-o,--format,--fields", a.formats,
                 "comma separated list of fields, Name%WIDTH to set a width (--helpformat lists "
                 "them)");
  app.add_flag("-p,--parsable", a.parsable, "'|' delimited output with a trailing '|'");
  app.add_flag("-P,--parsable2", a.parsable2, "'|' delimited output without a trailing '|'");
  app.add_flag("--usage", a.usage, "display a brief usage message");
  app.add_flag_function(
      "-v,--verbose", [&a](std::int64_t n) { a.verbose = n; }, "more messages (accepted)");
  // Slurm's getopt table, in its order.
  static const cli::GetoptRules rules{{{"allsteps", "--allsteps"},
                                       {"helpformat", "--helpformat"},
                                       {"help", "--help"},
                                       {"jobs", "--jobs"},
                                       {"noheader", "--noheader"},
                                       {"fields", "--format"},
                                       {"format", "--format"},
                                       {"noconvert", "--noconvert"},
                                       {"pidformat", "--pidformat"},
                                       {"parsable", "--parsable"},
                                       {"parsable2", "--parsable2"},
                                       {"usage", "--usage"},
                                       {"verbose", "--verbose"},
                                       {"version", "--version"}},
                                      {},
                                      1};
  std::vector<SelectedStep> selected;
  try {
    std::vector<std::string> operands;
    if (const int rc = cli::parse_args_getopt(app, k_tool, argc, argv, rules, operands); rc >= 0)
      return rc;
    if (a.usage) {
      fmt::print("Usage: sstat [options] -j <job(.stepid)>\n\tUse --help for help\n");
      return 0;
    }
    if (a.helpformat) {
      fmt::print("{}", ss::helpformat());
      return 0;
    }
    for (const std::string& j : a.jobs) add_step_list(selected, j);
    // Slurm takes the first word after the options as a job list too.
    if (!operands.empty()) add_step_list(selected, operands.front());
  } catch (const Fatal& f) {
    std::fflush(stdout);
    fmt::print(stderr, "{}: fatal: {}\n", k_tool, f.message);
    return 1;
  }

  std::string list;
  if (a.pid_format) list += fmt::format("{},", ss::pid_fields());
  for (const std::string& f : a.formats) list += f + ',';
  if (list.empty()) list = std::string(ss::default_fields());
  ss::Output output;
  output.fields = ss::parse_fields(list);
  output.no_header = a.no_header;
  output.convert = !a.noconvert;
  output.parsable = a.parsable2 ? format::Parsable::no_trailing
                                : (a.parsable ? format::Parsable::trailing : format::Parsable::no);
  // Both -p and -P: the later one wins, as each sets the same switch in Slurm.
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "-p" || word == "--parsable") output.parsable = format::Parsable::trailing;
    if (word == "-P" || word == "--parsable2") output.parsable = format::Parsable::no_trailing;
  }
  if (selected.empty()) throw Error(Errc::invalid_argument, "You didn't give me any jobs to stat.");
  return stat_steps(a, output, selected);
}

}  // namespace

int sstat(int argc, char** argv) {
  return cli::run_tool(k_tool, [argc, argv] { return run(argc, argv); });
}

}  // namespace stint::tools
