#include "cli/scontrol_step.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <tuple>
#include <utility>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>
#include <stint/paths.hpp>
#include <stint/query.hpp>

#include "util/fs.hpp"
#include "util/proc.hpp"

namespace stint::tools::scontrol_step {

std::optional<StepRef> parse_ref(const std::string& text) {
  const std::size_t dot = text.find('.');
  const std::string job_text = text.substr(0, dot);
  StepRef ref;
  const auto [end, ec] =
      std::from_chars(job_text.data(), job_text.data() + job_text.size(), ref.job);
  if (job_text.empty() || ec != std::errc() || end != job_text.data() + job_text.size())
    return std::nullopt;
  if (dot != std::string::npos) ref.step = text.substr(dot + 1);
  return ref;
}

namespace {

// One record: its fields as Slurm groups them on lines.
using Record = std::vector<std::vector<std::string>>;

void print(const Record& r, bool one_liner) {
  std::string out;
  for (std::size_t line = 0; line < r.size(); ++line) {
    std::string text;
    for (const std::string& field : r[line]) text += (text.empty() ? "" : " ") + field;
    if (line == 0) {
      out = text;
    } else {
      out += one_liner ? " " + text : "\n   " + text;
    }
  }
  fmt::print("{}\n{}", out, one_liner ? "" : "\n");
}

Record batch_record(const Job& job) {
  const std::string node = job.alloc.empty() ? "(null)" : job.alloc.front().node;
  return {{fmt::format("StepId={}.batch", job.id), fmt::format("UserId={}", job.user_id),
           "StartTime=" + parse::format_timestamp(job.start_time), "TimeLimit=UNLIMITED"},
          {"State=RUNNING", "Partition=" + job.partition, "NodeList=" + node},
          {"Nodes=1", "CPUs=0", "Tasks=1", "Name=batch", "Network=(null)"},
          {"TRES=(null)"},
          {"ResvPorts=(null)"},
          {"CPUFreqReq=Default"},
          {"SrunHost:Pid=(null):0"}};
}

Record step_record(const Job& job, const JobStep& s) {
  // The step's share of the job's memory: per CPU it uses, or per node.
  const std::uint64_t mem = job.req.mem_per_cpu_mb > 0 ? job.req.mem_per_cpu_mb * s.cpus
                                                       : job.req.mem_per_node_mb * s.node_count;
  // Slurm's default layout reads Cyclic while there are no more tasks than
  // nodes (each node one task), Block beyond.
  const char* dist = s.tasks <= s.node_count ? "Cyclic" : "Block";
  const std::string limit =
      s.time_limit == k_infinite ? "UNLIMITED" : parse::format_duration_fixed(s.time_limit);
  return {{fmt::format("StepId={}.{}", job.id, s.step_id), fmt::format("UserId={}", job.user_id),
           "StartTime=" + parse::format_timestamp(s.start_time), "TimeLimit=" + limit},
          {"State=RUNNING", "Partition=" + job.partition, "NodeList=" + s.nodes},
          {fmt::format("Nodes={}", s.node_count), fmt::format("CPUs={}", s.cpus),
           fmt::format("Tasks={}", s.tasks), "Name=" + s.name, "Network=(null)"},
          {fmt::format("TRES=cpu={},mem={},node={}", s.cpus, parse::format_memory_mb(mem),
                       s.node_count)},
          {"ResvPorts=(null)"},
          {"CPUFreqReq=Default", fmt::format("Dist={}", dist)},
          // srun's pid is not recorded: the host is this machine's.
          {fmt::format("SrunHost:Pid={}:0", proc::short_hostname())}};
}

/// The running job a process belongs to: one of its ancestors is a job's
/// stepd (a batch script, srun's tasks), or its environment names the job
/// (salloc's command). 0: none.
JobId job_of_pid(pid_t pid, const std::vector<Job>& running) {
  for (pid_t p = pid; p > 1;) {
    for (const Job& job : running) {
      for (const NodeAlloc& a : job.alloc) {
        if (a.stepd_pid == p) return job.id;
      }
    }
    const std::optional<std::int64_t> parent = proc::parent_pid(p);
    if (!parent || *parent == p) break;
    p = static_cast<pid_t>(*parent);
  }
  const std::string job_id = proc::environment_value(pid, "SLURM_JOB_ID");
  for (const Job& job : running) {
    if (!job_id.empty() && std::to_string(job.id) == job_id) return job.id;
  }
  return 0;
}

/// One process of a job on a node, as slurmstepd's task list and pid list
/// give them to listpids: a task with its local and global ids, or another
/// process of the step ("-").
struct StepProcess {
  pid_t pid = 0;
  std::string step;  ///< "batch" or the step's number
  std::string node;
  std::optional<std::pair<std::string, std::string>> ids;  ///< local, global
};

std::string command_name(std::int64_t pid) {
  try {
    std::string text = fs::read_file(fmt::format("/proc/{}/comm", pid));
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  } catch (const Error&) {
    return {};
  }
}

/// A running job's processes: what its stepds started (the batch shell and
/// everything under it, srun's tasks among them), each placed in its step by
/// the SLURM_STEP_ID srun gives its tasks.
std::vector<StepProcess> job_processes(const Job& job) {
  std::vector<StepProcess> out;
  for (const NodeAlloc& a : job.alloc) {
    if (a.stepd_pid <= 0 || !proc::alive(a.stepd_pid, a.stepd_start_ticks)) continue;
    for (std::int64_t pid : proc::descendants(a.stepd_pid)) {
      const auto ticks = proc::start_ticks(pid);
      if (!ticks) continue;
      StepProcess p;
      p.pid = static_cast<pid_t>(pid);
      const std::string step = proc::environment_value(pid, "SLURM_STEP_ID");
      // A process that ended since the scan reads an empty environment and
      // would pass for one of the batch step's; it is not listed at all.
      if (step.empty() && !proc::alive(pid, *ticks)) continue;
      p.step = step.empty() ? "batch" : step;
      const std::string node = proc::environment_value(pid, "SLURMD_NODENAME");
      p.node = step.empty() || node.empty() ? a.node : node;
      const auto parent = proc::parent_pid(pid);
      if (step.empty() && parent && *parent == a.stepd_pid) {
        p.ids = std::pair<std::string, std::string>{"0", "0"};
      } else if (!step.empty() && parent && command_name(*parent) == "srun") {
        p.ids = std::pair{proc::environment_value(pid, "SLURM_LOCALID"),
                          proc::environment_value(pid, "SLURM_PROCID")};
      }
      out.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace

int listpids(const std::vector<std::string>& w) {
  if (w.size() > 3) throw Error(Errc::usage, "too many arguments for keyword:listpids");
  std::optional<StepRef> ref;
  if (w.size() > 1 && w[1] != "*") {
    ref = parse_ref(w[1]);
    if (!ref) {
      std::fflush(stdout);
      fmt::print(stderr, "Invalid job id specified\n");
      return 1;
    }
  }
  const std::string node = w.size() > 2 ? w[2] : std::string();
  fmt::print("{:<8} {:<8} {:<8} {:<7} {:<8}\n", "PID", "JOBID", "STEPID", "LOCALID", "GLOBALID");
  JobFilter filter;
  filter.states = {JobState::running};
  std::vector<std::pair<JobId, StepProcess>> found;
  for (const Job& job : query::read_jobs(default_paths(), filter)) {
    if (ref && ref->job != job.id) continue;
    for (StepProcess& p : job_processes(job)) {
      if (!node.empty() && p.node != node) continue;
      if (ref && ref->step && *ref->step != p.step) continue;
      found.emplace_back(job.id, std::move(p));
    }
  }
  // Each step's tasks first (by local id), then its other processes; the
  // batch step before the numbered ones.
  auto step_rank = [](const std::string& step) {
    return step == "batch" ? -1L : std::strtol(step.c_str(), nullptr, 10);
  };
  std::stable_sort(found.begin(), found.end(), [&](const auto& a, const auto& b) {
    return std::tuple(a.first, step_rank(a.second.step), !a.second.ids.has_value(),
                      a.second.ids ? std::strtol(a.second.ids->first.c_str(), nullptr, 10) : 0L) <
           std::tuple(b.first, step_rank(b.second.step), !b.second.ids.has_value(),
                      b.second.ids ? std::strtol(b.second.ids->first.c_str(), nullptr, 10) : 0L);
  });
  for (const auto& [job, p] : found) {
    fmt::print("{:<8} {:<8} {:<8} {:<7} {:<8}\n", p.pid, job, p.step,
               p.ids ? p.ids->first : std::string("-"), p.ids ? p.ids->second : std::string("-"));
  }
  if (!found.empty()) return 0;
  std::fflush(stdout);
  const std::string on = node.empty() ? std::string("(null)") : node;
  if (!ref) {
    fmt::print(stderr, "No job steps exist on this node.\n");
  } else if (ref->step) {
    fmt::print(stderr, "StepId={}.{} does not exist on node {}.\n", ref->job, *ref->step, on);
  } else {
    fmt::print(stderr, "There are no steps for job {} on node {}.\n", ref->job, on);
  }
  return 1;
}

int show(const std::vector<std::string>& ids, bool one_liner) {
  const Paths paths = default_paths();
  std::vector<StepRef> refs;
  for (const std::string& text : ids) {
    const auto ref = parse_ref(text);
    if (!ref) {
      fmt::print(stderr, "slurm_get_job_steps error: {}\n",
                 errc_slurm_message(Errc::invalid_job_id));
      return 1;
    }
    refs.push_back(*ref);
  }
  JobFilter filter;
  filter.active_only = true;
  std::vector<Job> jobs = query::read_jobs(paths, filter);
  std::erase_if(jobs, [](const Job& j) { return j.state != JobState::running; });
  std::vector<JobStep> steps = query::job_steps(paths, jobs);
  // The running attempt's steps that still run.
  std::erase_if(steps, [&](const JobStep& s) {
    const auto job =
        std::find_if(jobs.begin(), jobs.end(), [&](const Job& j) { return j.id == s.job_id; });
    return s.state != JobState::running || job == jobs.end() || job->restart_count != s.attempt;
  });
  std::sort(steps.begin(), steps.end(), [](const JobStep& a, const JobStep& b) {
    return std::tie(a.job_id, a.step_id) < std::tie(b.job_id, b.step_id);
  });

  auto records_of = [&](const Job& job, const std::optional<std::string>& step) {
    std::vector<Record> out;
    if (!step || *step == "batch") {
      if (!job.spec.allocation_only) out.push_back(batch_record(job));
    }
    for (const JobStep& s : steps) {
      if (s.job_id == job.id && (!step || *step == std::to_string(s.step_id)))
        out.push_back(step_record(job, s));
    }
    return out;
  };

  if (refs.empty()) {
    std::vector<Record> all;
    for (const Job& job : jobs) {
      for (Record& r : records_of(job, std::nullopt)) all.push_back(std::move(r));
    }
    if (all.empty()) {
      fmt::print("No job steps in the system\n");
      return 0;
    }
    for (const Record& r : all) print(r, one_liner);
    return 0;
  }
  int rc = 0;
  for (const StepRef& ref : refs) {
    const auto job =
        std::find_if(jobs.begin(), jobs.end(), [&](const Job& j) { return j.id == ref.job; });
    std::vector<Record> found;
    if (job != jobs.end()) found = records_of(*job, ref.step);
    if (found.empty()) {
      if (job == jobs.end() && !query::job_exists(paths, ref.job)) {
        fmt::print(stderr, "slurm_get_job_steps error: {}\n",
                   errc_slurm_message(Errc::invalid_job_id));
      } else {
        fmt::print("Job step {}.{} not found\n", ref.job, ref.step.value_or(""));
      }
      rc = 1;
      continue;
    }
    for (const Record& r : found) print(r, one_liner);
  }
  return rc;
}

int pidinfo(const std::vector<std::string>& w, bool quiet) {
  if (w.size() != 2) throw Error(Errc::usage, "pidinfo requires one process id");
  char* end = nullptr;
  const long pid = std::strtol(w[1].c_str(), &end, 10);
  if (end == w[1].c_str() || *end != '\0' || pid <= 0) {
    std::fflush(stdout);
    fmt::print(stderr, "Invalid pid specified: {}\n", w[1]);
    return 1;
  }
  JobFilter filter;
  filter.states = {JobState::running};
  const std::vector<Job> running = query::read_jobs(default_paths(), filter);
  const JobId id = job_of_pid(static_cast<pid_t>(pid), running);
  if (id == 0) {
    if (!quiet) fmt::print(stderr, "Failed to locate job for requested pid\n");
    return 1;
  }
  const Job& job =
      *std::find_if(running.begin(), running.end(), [&](const Job& j) { return j.id == id; });
  // A job without a limit ends a year on, as slurmctld reckons it.
  constexpr Seconds k_year = Seconds{365} * 24 * 3600;
  const Seconds ends = job.start_time + (job.time_limit == k_infinite ? k_year : job.time_limit);
  const std::time_t when = ends;
  std::tm tm{};
  ::localtime_r(&when, &tm);
  char text[64];
  std::strftime(text, sizeof text, "%a %b %d %H:%M:%S %Y", &tm);
  fmt::print("Slurm JobId={} ends at {}\n", id, text);
  fmt::print("Job remaining time is {} seconds\n",
             std::max<Seconds>(0, ends - static_cast<Seconds>(std::time(nullptr))));
  return 0;
}

int completing() {
  JobFilter filter;
  filter.states = {JobState::completing};
  for (const Job& job : query::read_jobs(default_paths(), filter)) {
    std::vector<std::string> nodes;
    for (const NodeAlloc& a : job.alloc) nodes.push_back(a.node);
    const std::string end = parse::format_timestamp(job.end_time);
    fmt::print("JobId={} EndTime={} CompletingTime=00:00:00 Nodes(COMPLETING)={}\n", job.id, end,
               parse::compress_hostlist(nodes));
  }
  return 0;
}

}  // namespace stint::tools::scontrol_step
