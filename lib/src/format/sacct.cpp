// sacct: its fields (--format names), job and ".batch" step lines, and the
// fixed-width and parsable outputs.

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <optional>
#include <tuple>

#include <fmt/core.h>

#include <stint/error.hpp>
#include <stint/format.hpp>
#include <stint/parse.hpp>

#include "format/internal.hpp"

namespace stint::format {
namespace {

/// Which line of a job: the job (allocation) itself, its batch step, or a
/// step srun ran.
enum class Line : std::uint8_t { job, batch, step };

/// How a field prints when it does not fit: a string is cut with a '+', a
/// date is cut, a number is never cut.
enum class Kind : std::uint8_t { str, date, num };

/// What a field's value is taken from: one line of one job (or of folded
/// array tasks) and the options that change values.
struct Row {
  const JobGroup& group;
  const Job& job;
  Line line;
  const Context& ctx;
  std::optional<char> units;
  const JobStep* step = nullptr;  ///< with Line::step
  /// The steps of this attempt of the job (for the job line's DerivedExitCode).
  const std::vector<const JobStep*>* steps = nullptr;
  bool batch() const { return line == Line::batch; }
  bool srun_step() const { return line == Line::step; }
  /// A step line of either kind: job-only fields are blank on it.
  bool step_line() const { return line != Line::job; }
};

struct SacctColumn {
  std::string_view name;
  int width;  ///< negative: left-aligned
  Kind kind;
  std::string (*value)(const Row&);
};

bool started(const Job& job) { return job.start_time != k_no_time; }

std::string job_only(const Row& r, std::string value) {
  return r.step_line() ? std::string() : std::move(value);
}

std::string job_id(const Row& r) {
  if (r.batch()) return r.job.display_id() + ".batch";
  if (r.srun_step()) return fmt::format("{}.{}", r.job.display_id(), r.step->step_id);
  return group_id_text(r.group);
}

std::string reservation_id(const Row& r) {
  const std::string& name = r.job.spec.options().reservation;
  if (r.step_line() || name.empty()) return "";
  auto it = r.ctx.reservation_ids.find(name);
  return it == r.ctx.reservation_ids.end() ? std::string() : std::to_string(it->second);
}

std::string job_id_raw(const Row& r) {
  if (r.batch()) return fmt::format("{}.batch", r.job.id);
  if (r.srun_step()) return fmt::format("{}.{}", r.job.id, r.step->step_id);
  return std::to_string(r.job.id);
}

/// The batch step's state: a step killed by a signal (scancel, time limit,
/// preemption, kill -9, its node going DOWN) reads CANCELLED, as Slurm
/// records it.
JobState batch_state(const Job& job) {
  switch (job.state) {
    case JobState::failed:
      return job.exit_signal != 0 ? JobState::cancelled : JobState::failed;
    case JobState::node_fail:
    case JobState::timeout:
    case JobState::preempted:
    case JobState::requeued:
    case JobState::cancelled:
      return JobState::cancelled;
    default:
      return job.state;
  }
}

std::string state(const Row& r) {
  const Job& job = r.job;
  if (r.batch()) return std::string(state_name(batch_state(job)));
  if (r.srun_step()) return std::string(state_name(r.step->state));
  // Slurm names who cancelled every cancelled job, pending or running: the
  // uid stintd recorded, 0 for root and for stintd itself (a dependency that
  // can never be met), as slurmctld cancels as its SlurmUser.
  if (job.state == JobState::cancelled) return fmt::format("CANCELLED by {}", job.cancelled_by);
  return std::string(state_name(job.state));
}

std::string exit_code(const Row& r) {
  const Job& job = r.job;
  if (r.srun_step()) return exit_code_text(r.step->exit_status, r.step->exit_signal);
  if (!r.batch()) {
    // The job line of a job ended from outside (time limit, scancel,
    // preemption, requeue) shows 0:0; the signal is on its batch step.
    switch (job.state) {
      case JobState::timeout:
      case JobState::cancelled:
      case JobState::preempted:
      case JobState::requeued:
      case JobState::pending:
        return "0:0";
      default:
        break;
    }
  }
  return exit_code_text(job.exit_status, job.exit_signal);
}

/// sacct's Reason: the last reason the job waited for, other than its turn
/// (Priority, Resources); an ended job's own outcome is not a reason here.
std::string reason(const Row& r) {
  const Reason why = effective_reason(r.job);
  if (r.job.state == JobState::deadline) return job_only(r, "DeadLine");  // FAIL_DEADLINE
  // A script killed by a signal ends JobLaunchFailure: its outcome, too.
  if (why == Reason::launch_failed && is_terminal(r.job.state)) return job_only(r, "None");
  switch (why) {
    case Reason::priority:
    case Reason::resources:
    case Reason::req_node_not_avail:  // Slurm's Resources, with a description
    case Reason::non_zero_exit_code:
    case Reason::time_limit:
      return job_only(r, "None");
    default:
      return job_only(r, std::string(reason_name(why)));
  }
}

Seconds elapsed_secs(const Row& r) {
  if (!r.srun_step()) return time_used(r.job, r.ctx.now);
  const JobStep& s = *r.step;
  const Seconds end = s.end_time == k_no_time ? r.ctx.now : s.end_time;
  return std::max<Seconds>(0, end - s.start_time);
}

/// The job line's DerivedExitCode: the highest exit code of its steps (a
/// step killed by a signal counts that signal), as Slurm derives it.
std::string derived_exit_code(const Row& r) {
  if (r.step_line()) return "";
  int status = 0, signal = 0;
  if (r.steps != nullptr) {
    for (const JobStep* s : *r.steps) {
      status = std::max(status, s->exit_status);
      signal = std::max(signal, s->exit_signal);
    }
  }
  return exit_code_text(status, signal);
}

/// sacct's CPU time form: "MM:SS.mmm" under an hour, else "[D-]HH:MM:SS".
std::string cpu_time_text(std::uint64_t usec) {
  const std::uint64_t secs = usec / 1000000;
  const std::uint64_t ms = (usec % 1000000) / 1000;
  const std::uint64_t d = secs / 86400, h = (secs / 3600) % 24, m = (secs / 60) % 60, s = secs % 60;
  if (d > 0) return fmt::format("{}-{:02}:{:02}:{:02}", d, h, m, s);
  if (h > 0) return fmt::format("{:02}:{:02}:{:02}", h, m, s);
  return fmt::format("{:02}:{:02}.{:03}", m, s, ms);
}

std::string timelimit(const Row& r) {
  if (r.step_line()) return "";
  if (r.job.time_limit == k_infinite) return "UNLIMITED";
  return parse::format_duration_fixed(r.job.time_limit);
}

std::string timelimit_raw(const Row& r) {
  if (r.job.time_limit == k_infinite) return job_only(r, "UNLIMITED");
  return job_only(r, std::to_string((r.job.time_limit + 59) / 60));
}

std::string node_list(const Row& r) {
  if (r.srun_step()) return r.step->nodes;
  if (r.job.alloc.empty()) return r.batch() ? "" : "None assigned";
  if (r.batch()) return r.job.alloc.front().node;
  return detail::job_nodelist(r.job);
}

std::uint32_t line_cpus(const Row& r) {
  if (r.srun_step()) return r.step->cpus;
  if (r.batch()) return r.job.alloc.empty() ? 0 : r.job.alloc.front().cpus;
  return detail::job_cpu_count(r.job);
}

std::uint32_t req_cpus(const Job& j) {
  return std::max({j.req.tasks * j.req.cpus_per_task,
                   j.req.cpus_per_node * std::max<std::uint32_t>(j.req.nodes, 1), 1U});
}

/// TRES in sacct's order (sorted by name).
std::string tres_sorted(std::uint32_t cpus, std::uint64_t mem_mb, std::uint32_t nodes,
                        std::uint32_t gpus, bool billing) {
  std::string s;
  if (billing) s += fmt::format("billing={},", cpus);
  s += fmt::format("cpu={},", cpus);
  if (gpus > 0) s += fmt::format("gres/gpu={},", gpus);
  if (mem_mb > 0) s += "mem=" + parse::format_memory_mb(mem_mb) + ",";
  s += fmt::format("node={}", nodes);
  return s;
}

std::string alloc_tres(const Row& r) {
  const Job& job = r.job;
  if (r.srun_step()) return tres_sorted(r.step->cpus, 0, r.step->node_count, 0, false);
  if (job.alloc.empty()) return "";
  if (r.batch()) {
    const NodeAlloc& a = job.alloc.front();
    return tres_sorted(a.cpus, a.mem_mb, 1, static_cast<std::uint32_t>(a.gpu_ids.size()), false);
  }
  return tres_sorted(job.total_cpus(), detail::job_memory_mb(job),
                     static_cast<std::uint32_t>(job.alloc.size()), job.total_gpus(), true);
}

std::string req_tres(const Row& r) {
  if (r.step_line()) return "";
  const Job& job = r.job;
  const std::uint32_t nodes = std::max<std::uint32_t>(job.req.nodes, 1);
  return tres_sorted(req_cpus(job), job.req.mem_per_node_mb * nodes, nodes,
                     job.req.gpus_per_node * nodes, true);
}

/// sacct 22.05's ReqMem is the memory of the job's ReqTRES: the job's whole
/// request (per CPU times its CPUs, or per node times its nodes), not the
/// per-CPU or per-node figure earlier releases printed with a 'c' or 'n'.
std::string req_mem(const Row& r) {
  if (r.step_line()) return "";
  const Job& job = r.job;
  const std::uint32_t nodes = std::max<std::uint32_t>(job.req.nodes, 1);
  return sacct_memory(job.req.mem_per_node_mb * nodes, 'M', r.units);
}

std::string max_rss(const Row& r) {
  // No sample (a job too short to measure) prints blank, as in Slurm.
  if (r.srun_step())
    return r.step->max_rss_kb == 0 ? std::string() : sacct_memory(r.step->max_rss_kb, 'K', r.units);
  if (!r.batch() || !started(r.job) || r.job.max_rss_kb == 0) return "";
  return sacct_memory(r.job.max_rss_kb, 'K', r.units);
}

std::uint64_t user_cpu(const Row& r) {
  return r.srun_step() ? r.step->user_cpu_us : r.job.user_cpu_us;
}
std::uint64_t sys_cpu(const Row& r) {
  return r.srun_step() ? r.step->sys_cpu_us : r.job.sys_cpu_us;
}

// The usage statistics of a step (sacct --long). stint samples each step's
// memory (RSS) and CPU time; it measures no virtual size, pages, disk I/O or
// energy, so those print as Slurm prints a step its gatherer did not sample,
// and energy as 0, Slurm's value without an energy plugin. A step too short
// to be sampled shows nothing, as in Slurm. The per-task figures (Min*,
// *Node, *Task) need one task: a step of several has only its totals here.

/// Whether this step line was sampled.
bool sampled(const Row& r) {
  if (r.srun_step()) return r.step->max_rss_kb > 0;
  return r.batch() && started(r.job) && r.job.max_rss_kb > 0;
}
/// Sampled, and of one task (the batch step always is).
bool sampled_one_task(const Row& r) { return sampled(r) && (r.batch() || r.step->tasks == 1); }
std::string sampled_node(const Row& r) {
  if (r.srun_step()) {
    const std::vector<std::string> names = parse::expand_hostlist(r.step->nodes);
    return names.empty() ? std::string() : names.front();
  }
  return r.job.alloc.empty() ? std::string() : r.job.alloc.front().node;
}
std::uint32_t line_tasks(const Row& r) {
  return r.srun_step() ? std::max<std::uint32_t>(r.step->tasks, 1) : 1;
}
std::string cpu_seconds_text(std::uint64_t usec) {
  return parse::format_duration_fixed(static_cast<Seconds>(usec / 1000000));
}
std::string ave_cpu(const Row& r) {
  if (!sampled(r)) return "";
  return cpu_seconds_text((user_cpu(r) + sys_cpu(r)) / line_tasks(r));
}
std::string one_task(const Row& r, std::string value) {
  return sampled_one_task(r) ? std::move(value) : std::string();
}
std::string rss_text(const Row& r) {
  const std::uint64_t kb = r.srun_step() ? r.step->max_rss_kb : r.job.max_rss_kb;
  return sacct_memory(kb, 'K', r.units);
}
/// TRESUsageIn{Ave,Max,Min,Tot} of a one-task step: all four are its own.
std::string tres_usage_in(const Row& r) {
  if (sampled_one_task(r))
    return fmt::format("cpu={},energy=0,mem={}", cpu_seconds_text(user_cpu(r) + sys_cpu(r)),
                       rss_text(r));
  return "";
}
/// Where an unsampled step (or one of several tasks) has only its energy.
std::string energy_or_usage_in(const Row& r) {
  if (!r.step_line()) return "";
  return sampled_one_task(r) ? tres_usage_in(r) : std::string("energy=0");
}
std::string energy_out(const Row& r) { return r.step_line() ? std::string("energy=0") : ""; }
std::string req_cpu_freq(const Row& r) {
  // Slurm prints the batch step's request as 0 and the others' as Unknown.
  return r.batch() ? std::string("0") : std::string("Unknown");
}

/// A step's own times; the batch step is submitted and eligible when its job
/// starts.
Seconds line_start(const Row& r) {
  if (r.srun_step()) return r.step->start_time;
  return r.job.state == JobState::pending ? k_no_time : r.job.start_time;
}
Seconds line_submit(const Row& r, Seconds job_time) {
  if (r.srun_step()) return r.step->start_time;
  return r.batch() ? r.job.start_time : job_time;
}

std::string cpu_time(const Row& r) {
  return parse::format_duration_fixed(static_cast<Seconds>(line_cpus(r)) * elapsed_secs(r));
}

std::string timestamp(Seconds t) { return detail::timestamp_or(t, "Unknown"); }

// An option the job's spec records for display only (JobOptions::recorded).
std::string recorded(const Job& job, const std::string& name) {
  const auto& r = job.spec.options().recorded;
  const auto it = r.find(name);
  return it == r.end() ? std::string() : it->second;
}

// clang-format off
const std::array k_columns = {
  SacctColumn{"Account", 10, Kind::str, [](const Row& r) { return r.job.account; }},
  SacctColumn{"AllocCPUS", 10, Kind::num, [](const Row& r) { return std::to_string(line_cpus(r)); }},
  SacctColumn{"AllocNodes", 10, Kind::str, [](const Row& r) { return r.srun_step() ? std::to_string(r.step->node_count) : r.batch() ? std::string("1") : std::to_string(r.job.alloc.size()); }},
  SacctColumn{"AllocTRES", 10, Kind::str, alloc_tres},
  SacctColumn{"AveCPU", 10, Kind::str, ave_cpu},
  SacctColumn{"AveCPUFreq", 10, Kind::str, [](const Row& r) { return r.step_line() ? std::string("0") : std::string(); }},
  SacctColumn{"AveDiskRead", 14, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"AveDiskWrite", 14, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"AvePages", 10, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"AveRSS", 10, Kind::str, max_rss},
  SacctColumn{"AveVMSize", 10, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"Cluster", 10, Kind::str, [](const Row& r) { return r.ctx.cluster_name; }},
  SacctColumn{"Comment", 14, Kind::str, [](const Row& r) { return job_only(r, r.job.spec.comment); }},
  SacctColumn{"ConsumedEnergy", 14, Kind::num, [](const Row&) { return std::string("0"); }},
  SacctColumn{"Constraints", 19, Kind::str, [](const Row& r) { return job_only(r, r.job.spec.options().constraint); }},
  SacctColumn{"Container", 19, Kind::str, [](const Row& r) { return job_only(r, recorded(r.job, "container")); }},
  SacctColumn{"CPUTime", 10, Kind::num, cpu_time},
  SacctColumn{"CPUTimeRAW", 10, Kind::num, [](const Row& r) { return std::to_string(line_cpus(r) * elapsed_secs(r)); }},
  SacctColumn{"DerivedExitCode", 15, Kind::str, derived_exit_code},
  SacctColumn{"Elapsed", 10, Kind::num, [](const Row& r) { return parse::format_duration_fixed(elapsed_secs(r)); }},
  SacctColumn{"ElapsedRaw", 10, Kind::num, [](const Row& r) { return std::to_string(elapsed_secs(r)); }},
  SacctColumn{"Eligible", 19, Kind::date, [](const Row& r) { return timestamp(line_submit(r, r.job.eligible_time)); }},
  SacctColumn{"End", 19, Kind::date, [](const Row& r) { return timestamp(r.srun_step() ? r.step->end_time : r.job.end_time); }},
  SacctColumn{"ExitCode", 8, Kind::str, exit_code},
  SacctColumn{"GID", 6, Kind::num, [](const Row& r) { return job_only(r, std::to_string(r.job.group_id)); }},
  SacctColumn{"Group", 9, Kind::str, [](const Row& r) { return job_only(r, detail::group_name(r.ctx, r.job.group_id)); }},
  SacctColumn{"JobID", -12, Kind::str, job_id},
  SacctColumn{"JobIDRaw", -12, Kind::str, job_id_raw},
  SacctColumn{"JobName", 10, Kind::str, [](const Row& r) { return r.srun_step() ? r.step->name : r.batch() ? std::string("batch") : r.job.spec.name; }},
  SacctColumn{"MaxDiskRead", 12, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxDiskReadNode", 15, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxDiskReadTask", 15, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxDiskWrite", 12, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxDiskWriteNode", 16, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxDiskWriteTask", 16, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxPages", 8, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxPagesNode", 12, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxPagesTask", 14, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxRSS", 10, Kind::str, max_rss},
  SacctColumn{"MaxRSSNode", 10, Kind::str, [](const Row& r) { return one_task(r, sampled_node(r)); }},
  SacctColumn{"MaxRSSTask", 10, Kind::str, [](const Row& r) { return one_task(r, "0"); }},
  SacctColumn{"MaxVMSize", 10, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxVMSizeNode", 14, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MaxVMSizeTask", 14, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"MinCPU", 10, Kind::str, [](const Row& r) { return one_task(r, ave_cpu(r)); }},
  SacctColumn{"MinCPUNode", 10, Kind::str, [](const Row& r) { return one_task(r, sampled_node(r)); }},
  SacctColumn{"MinCPUTask", 10, Kind::str, [](const Row& r) { return one_task(r, "0"); }},
  SacctColumn{"NCPUS", 10, Kind::num, [](const Row& r) { return std::to_string(line_cpus(r)); }},
  SacctColumn{"NNodes", 8, Kind::num, [](const Row& r) { return r.srun_step() ? std::to_string(r.step->node_count) : r.batch() ? std::string("1") : std::to_string(detail::job_node_count(r.job)); }},
  SacctColumn{"NodeList", 15, Kind::str, node_list},
  SacctColumn{"NTasks", 8, Kind::num, [](const Row& r) { return r.srun_step() ? std::to_string(r.step->tasks) : r.batch() ? std::string("1") : std::string(); }},
  SacctColumn{"Partition", 10, Kind::str, [](const Row& r) { return job_only(r, r.job.partition); }},
  SacctColumn{"Priority", 10, Kind::num, [](const Row& r) { return job_only(r, std::to_string(r.job.priority)); }},
  SacctColumn{"QOS", 10, Kind::str, [](const Row& r) { return job_only(r, r.job.qos); }},
  SacctColumn{"Reason", 22, Kind::str, reason},
  SacctColumn{"ReqCPUFreqGov", 13, Kind::str, req_cpu_freq},
  SacctColumn{"ReqCPUFreqMax", 13, Kind::str, req_cpu_freq},
  SacctColumn{"ReqCPUFreqMin", 13, Kind::str, req_cpu_freq},
  SacctColumn{"ReqCPUS", 8, Kind::num, [](const Row& r) { return job_only(r, std::to_string(req_cpus(r.job))); }},
  SacctColumn{"ReqMem", 10, Kind::str, req_mem},
  SacctColumn{"ReqNodes", 8, Kind::str, [](const Row& r) { return job_only(r, std::to_string(std::max<std::uint32_t>(r.job.req.nodes, 1))); }},
  SacctColumn{"ReqTRES", 10, Kind::str, req_tres},
  SacctColumn{"Reservation", 20, Kind::str, [](const Row& r) { return job_only(r, r.job.spec.options().reservation); }},
  SacctColumn{"ReservationId", 8, Kind::num, reservation_id},
  SacctColumn{"Restarts", 8, Kind::num, [](const Row& r) { return job_only(r, std::to_string(r.job.restart_count)); }},
  SacctColumn{"Start", 19, Kind::date, [](const Row& r) { return timestamp(line_start(r)); }},
  SacctColumn{"State", 10, Kind::str, state},
  SacctColumn{"StdErr", 20, Kind::str, [](const Row& r) { return job_only(r, r.job.stderr_path); }},
  SacctColumn{"StdIn", 20, Kind::str, [](const Row& r) { return job_only(r, r.job.spec.options().stdin_pattern.empty() ? std::string("/dev/null") : r.job.spec.options().stdin_pattern); }},
  SacctColumn{"StdOut", 20, Kind::str, [](const Row& r) { return job_only(r, r.job.stdout_path); }},
  SacctColumn{"Submit", 19, Kind::date, [](const Row& r) { return timestamp(line_submit(r, r.job.submit_time)); }},
  SacctColumn{"SystemComment", 15, Kind::str, [](const Row& r) { return job_only(r, r.job.state_desc); }},
  SacctColumn{"SystemCPU", 10, Kind::str, [](const Row& r) { return cpu_time_text(sys_cpu(r)); }},
  SacctColumn{"Timelimit", 10, Kind::str, timelimit},
  SacctColumn{"TimelimitRaw", 10, Kind::str, timelimit_raw},
  SacctColumn{"TotalCPU", 10, Kind::str, [](const Row& r) { return cpu_time_text(user_cpu(r) + sys_cpu(r)); }},
  SacctColumn{"TRESUsageInAve", 14, Kind::str, energy_or_usage_in},
  SacctColumn{"TRESUsageInMax", 14, Kind::str, tres_usage_in},
  SacctColumn{"TRESUsageInMaxNode", 18, Kind::str, [](const Row& r) { const std::string n = sampled_node(r); return one_task(r, fmt::format("cpu={0},energy={0},mem={0}", n)); }},
  SacctColumn{"TRESUsageInMaxTask", 18, Kind::str, [](const Row& r) { return one_task(r, "cpu=0,mem=0"); }},
  SacctColumn{"TRESUsageInMin", 14, Kind::str, tres_usage_in},
  SacctColumn{"TRESUsageInMinNode", 18, Kind::str, [](const Row& r) { const std::string n = sampled_node(r); return one_task(r, fmt::format("cpu={0},energy={0},mem={0}", n)); }},
  SacctColumn{"TRESUsageInMinTask", 18, Kind::str, [](const Row& r) { return one_task(r, "cpu=0,mem=0"); }},
  SacctColumn{"TRESUsageInTot", 14, Kind::str, energy_or_usage_in},
  SacctColumn{"TRESUsageOutAve", 15, Kind::str, energy_out},
  SacctColumn{"TRESUsageOutMax", 15, Kind::str, [](const Row& r) { return one_task(r, "energy=0"); }},
  SacctColumn{"TRESUsageOutMaxNode", 19, Kind::str, [](const Row& r) { return one_task(r, "energy=" + sampled_node(r)); }},
  SacctColumn{"TRESUsageOutMaxTask", 19, Kind::str, [](const Row&) { return std::string(); }},
  SacctColumn{"TRESUsageOutTot", 15, Kind::str, energy_out},
  SacctColumn{"UID", 6, Kind::num, [](const Row& r) { return job_only(r, std::to_string(r.job.user_id)); }},
  SacctColumn{"User", 9, Kind::str, [](const Row& r) { return job_only(r, r.job.user_name); }},
  SacctColumn{"UserCPU", 10, Kind::str, [](const Row& r) { return cpu_time_text(user_cpu(r)); }},
  SacctColumn{"WCKey", 10, Kind::str, [](const Row& r) { return job_only(r, r.job.spec.options().wckey); }},
  SacctColumn{"WorkDir", 20, Kind::str, [](const Row& r) { return job_only(r, r.job.spec.work_dir); }},
};
// clang-format on

std::string fixed_cell(const SacctColumn& c, const SacctField& f, std::string value) {
  const auto w = static_cast<std::size_t>(std::abs(f.width));
  if (w == 0) return value + ' ';
  if (value.size() > w && c.kind != Kind::num) {
    value.resize(w);
    if (c.kind == Kind::str) value[w - 1] = '+';
  }
  return pad(value, static_cast<int>(w), f.align) + ' ';
}

std::string render_line(const std::vector<SacctField>& fields, const SacctOptions& o,
                        const std::function<std::string(const SacctColumn&)>& value, bool header) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const SacctField& f = fields[i];
    const SacctColumn& c = k_columns.at(f.column);
    std::string v = value(c);
    if (o.parsable == Parsable::no) {
      if (header) {
        const auto w = static_cast<std::size_t>(std::abs(f.width));
        if (v.size() > w) v.resize(w);
        line += pad(v, static_cast<int>(w), f.align) + ' ';
      } else {
        line += fixed_cell(c, f, std::move(v));
      }
    } else {
      line += v;
      if (o.parsable == Parsable::trailing || i + 1 < fields.size()) line += o.delimiter;
    }
  }
  line += '\n';
  return line;
}

constexpr std::string_view k_units = "KMGTP";

}  // namespace

std::string sacct_memory(std::uint64_t value, char unit, std::optional<char> to) {
  auto index = [](char u) {
    const auto pos = k_units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(u))));
    if (u == '\0' || pos == std::string_view::npos)
      throw Error(Errc::invalid_argument, "Invalid unit type");
    return static_cast<int>(pos);
  };
  int type = index(unit);
  if (to && *to == '*') to = unit;  // --noconvert
  const int target = to ? index(*to) : -1;
  if (value == 0) return "0";
  auto num = static_cast<double>(value);
  if (to) {
    for (; type > target; --type) num *= 1024;
    for (; type < target; ++type) num /= 1024;
  } else {
    // Up while exact; halves (1.50G) count as exact, as in Slurm.
    while (num >= 1024 && static_cast<std::uint64_t>(num) % 512 == 0 && type + 1 < 5) {
      num /= 1024;
      ++type;
    }
  }
  const auto whole = static_cast<std::uint64_t>(num);
  const char suffix = k_units[static_cast<std::size_t>(type)];
  if (static_cast<double>(whole) == num) return fmt::format("{}{}", whole, suffix);
  return fmt::format("{:.2f}{}", num, suffix);
}

std::string_view sacct_default_format() {
  return "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode";
}

std::vector<SacctField> parse_sacct_format(std::string_view format) {
  std::vector<SacctField> out;
  std::size_t start = 0;
  while (start <= format.size()) {
    std::size_t comma = format.find(',', start);
    std::string_view token = format.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    start = comma == std::string_view::npos ? format.size() + 1 : comma + 1;
    if (token.empty()) continue;
    std::string_view name = token;
    std::optional<int> width;
    if (std::size_t pct = token.find('%'); pct != std::string_view::npos) {
      name = token.substr(0, pct);
      std::string digits(token.substr(pct + 1));
      char* end = nullptr;
      long w = std::strtol(digits.c_str(), &end, 10);
      if (digits.empty() || *end != '\0' || w == 0 || w > 100000 || w < -100000)
        throw Error(Errc::invalid_argument, fmt::format("Invalid field requested: \"{}\"", token));
      width = static_cast<int>(w);
    }
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < k_columns.size() && !found; ++i) {
      if (detail::iequals(k_columns[i].name, name)) found = i;
    }
    // Slurm also takes a leading part of a name ("jobn" for JobName).
    for (std::size_t i = 0; i < k_columns.size() && !found && !name.empty(); ++i) {
      const std::string_view n = k_columns[i].name;
      if (n.size() > name.size() && detail::iequals(n.substr(0, name.size()), name)) found = i;
    }
    if (!found)
      throw Error(Errc::invalid_argument, fmt::format("Invalid field requested: \"{}\"", name));
    SacctField f;
    f.column = *found;
    if (width) {
      // "%30" right-aligns, "%-30" left-aligns, whatever the field's default.
      f.align = *width < 0 ? Align::left : Align::right;
      f.width = std::abs(*width);
    } else {
      f.align = k_columns[*found].width < 0 ? Align::left : Align::right;
      f.width = std::abs(k_columns[*found].width);
    }
    out.push_back(f);
  }
  if (out.empty()) throw Error(Errc::invalid_argument, "Invalid field requested: \"\"");
  return out;
}

void sort_sacct(std::vector<Job>& jobs) {
  std::vector<std::size_t> order = detail::identity_order(jobs.size());
  std::stable_sort(order.begin(), order.end(), detail::by_job(jobs, [](const Job& a, const Job& b) {
                     return std::tuple(a.submit_time, a.array_job_id, a.array_task_id, a.id) <
                            std::tuple(b.submit_time, b.array_job_id, b.array_task_id, b.id);
                   }));
  detail::apply_order(jobs, order);
}

std::string render_sacct(std::vector<Job> jobs, const SacctOptions& options, const Context& ctx,
                         const std::vector<JobStep>& steps) {
  std::string out;
  if (!options.no_header) {
    out += render_line(
        options.fields, options, [](const SacctColumn& c) { return std::string(c.name); }, true);
    if (options.parsable == Parsable::no) {
      for (const SacctField& f : options.fields)
        out += std::string(static_cast<std::size_t>(std::abs(f.width)), '-') + ' ';
      out += '\n';
    }
  }
  sort_sacct(jobs);
  for (const JobGroup& g : array_groups(std::move(jobs), !options.task_query)) {
    std::vector<const JobStep*> job_steps;
    for (const JobStep& s : steps) {
      if (s.job_id == g.job.id && s.attempt == g.job.restart_count) job_steps.push_back(&s);
    }
    const auto only = options.only_steps.find(g.job.id);
    const std::set<std::string>* named = only == options.only_steps.end() ? nullptr : &only->second;
    Row job_row{g, g.job, Line::job, ctx, options.units};
    job_row.steps = &job_steps;
    if (named == nullptr) {
      out += render_line(
          options.fields, options, [&](const SacctColumn& c) { return c.value(job_row); }, false);
    }
    // A batch step exists once the job has started on its nodes; a het job
    // has one, its leader's.
    // salloc's allocation has none: its command ran outside the job.
    const bool has_batch =
        (!g.job.is_het_component() || g.job.is_het_leader()) && !g.job.spec.allocation_only;
    if (!options.allocations_only && has_batch && started(g.job) && !g.job.alloc.empty() &&
        (named == nullptr || named->contains("batch"))) {
      const Row batch_row{g, g.job, Line::batch, ctx, options.units};
      out += render_line(
          options.fields, options, [&](const SacctColumn& c) { return c.value(batch_row); }, false);
    }
    if (options.allocations_only) continue;
    for (const JobStep* s : job_steps) {
      if (named != nullptr && !named->contains(std::to_string(s->step_id))) continue;
      Row step_row{g, g.job, Line::step, ctx, options.units};
      step_row.step = s;
      out += render_line(
          options.fields, options, [&](const SacctColumn& c) { return c.value(step_row); }, false);
    }
  }
  return out;
}

std::string sacct_helpformat() {
  std::vector<std::string_view> names;
  for (const SacctColumn& c : k_columns) names.push_back(c.name);
  std::sort(names.begin(), names.end(), [](std::string_view a, std::string_view b) {
    return detail::lower(a) < detail::lower(b);
  });
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += fmt::format("{:<19}", names[i]);
    out += (i % 4 == 3 || i + 1 == names.size()) ? "\n" : " ";
  }
  return out;
}

}  // namespace stint::format
