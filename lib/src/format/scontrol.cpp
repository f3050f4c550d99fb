// scontrol show job/node/partition: Slurm's "Key=Value" blocks. Values stint
// does not track print as Slurm prints them when unset ((null), N/A, None).

#include <algorithm>
#include <utility>

#include <fmt/core.h>
#include <fmt/format.h>

#include <stint/format.hpp>
#include <stint/parse.hpp>
#include <stint/tools.hpp>

#include "format/internal.hpp"
#include "format/job_options.hpp"

namespace stint::format {
namespace {

// A count the job asked for, or Slurm's "*" where it asked for none.
std::string or_star(const std::optional<std::uint32_t>& n) {
  return n ? std::to_string(*n) : std::string("*");
}

using Lines = std::vector<std::vector<std::string>>;

// scontrol keeps each Key=Value one word: a description's spaces become '_'.
std::string underscored(std::string text) {
  for (char& c : text) {
    if (c == ' ') c = '_';
  }
  return text;
}

/// Joins a block: the first line as is, the others indented by three spaces;
/// or, for -o, everything on one line.
std::string join_block(const Lines& lines, bool one_liner) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line;
    for (std::size_t k = 0; k < lines[i].size(); ++k) {
      if (k > 0) line += ' ';
      line += lines[i][k];
    }
    if (one_liner) {
      if (i > 0) out += ' ';
      out += line;
    } else {
      if (i > 0) out += "   ";
      out += line + "\n";
    }
  }
  if (one_liner) out += '\n';
  return out;
}

std::string limit_text(Seconds s, std::string_view unlimited) {
  if (s == k_infinite) return std::string(unlimited);
  return parse::format_duration_fixed(s);
}

// The job's standard input: its -i pattern with the job's values, as Slurm
// prints StdIn= (slurm_get_job_stdin).
std::string stdin_path(const Job& job, const std::string& pattern) {
  parse::PatternValues v;
  v.job_id = job.id;
  v.array_job_id = job.array_job_id != 0 ? job.array_job_id : job.id;
  v.array_task_id = job.array_task_id;
  v.job_name = job.spec.name;
  v.user = job.user_name;
  if (!job.alloc.empty()) v.node = job.alloc.front().node;
  return parse::expand_pattern(pattern, v);
}

std::string gres_text(std::uint32_t count, const std::string& type) {
  if (type.empty()) return fmt::format("gpu:{}", count);
  return fmt::format("gpu:{}:{}", type, count);
}

}  // namespace

std::string scontrol_job(const Job& job, const Context& ctx, bool one_liner, bool details) {
  return scontrol_job(JobGroup{job, {}}, ctx, one_liner, details);
}

std::string scontrol_jobs(std::vector<Job> jobs, const Context& ctx, bool one_liner, bool details) {
  // slurmctld lists its newest job first, a het job's components after
  // their leader, in order.
  auto key = [](const Job& j) {
    return std::pair{j.is_het_component() ? j.het_job_id : j.id, ~j.het_job_offset};
  };
  std::stable_sort(jobs.begin(), jobs.end(),
                   [&key](const Job& a, const Job& b) { return key(a) > key(b); });
  std::string out;
  for (const JobGroup& g : array_groups(std::move(jobs)))
    out += scontrol_job(g, ctx, one_liner, details);
  return out;
}

std::string scontrol_job(const JobGroup& group, const Context& ctx, bool one_liner, bool details) {
  const Job& job = group.job;
  const bool has_alloc = !job.alloc.empty();
  const bool ran = job.start_time != k_no_time && job.state != JobState::pending;
  const std::string user = job.user_name.empty() ? std::to_string(job.user_id) : job.user_name;

  Seconds end = job.end_time;
  if (end == k_no_time && ran && !is_terminal(job.state) && job.time_limit != k_infinite)
    end = job.start_time + job.time_limit;
  // A job waiting for its --begin time (the plan has no guess for it) is
  // expected then, as slurmctld reports it.
  Seconds start = job.start_time;
  if (job.state == JobState::pending && start == k_no_time && job.eligible_time > ctx.now) {
    start = job.eligible_time;
    if (job.time_limit != k_infinite) end = std::max(end, start + job.time_limit);
  }

  std::string min_memory;
  if (auto per_cpu = job.mem_per_cpu_mb())
    min_memory = "MinMemoryCPU=" + parse::format_memory_mb(*per_cpu);
  else
    min_memory = "MinMemoryNode=" + parse::format_memory_mb(job.req.mem_per_node_mb);

  std::string command = "(null)";
  if (!job.spec.script_name.empty() && !job.spec.allocation_only) {
    command = job.spec.script_name.front() == '/' || job.spec.submit_dir.empty()
                  ? job.spec.script_name
                  : job.spec.submit_dir + "/" + job.spec.script_name;
  }

  // A job waiting for its --begin time is eligible then.
  Seconds eligible = job.eligible_time;
  if (eligible == k_no_time && job.spec.begin_time) eligible = *job.spec.begin_time;

  Lines l;
  if (job.is_array_task()) {
    l.push_back({fmt::format("JobId={}", job.id), fmt::format("ArrayJobId={}", job.array_job_id),
                 "ArrayTaskId=" + group_task_text(group),
                 fmt::format("ArrayTaskThrottle={}", job.array_throttle),
                 "JobName=" + job.spec.name});
  } else if (job.is_het_component()) {
    l.push_back({fmt::format("JobId={}", job.id), fmt::format("HetJobId={}", job.het_job_id),
                 fmt::format("HetJobOffset={}", job.het_job_offset), "JobName=" + job.spec.name});
    l.push_back({"HetJobIdSet=" + job.het_job_id_set()});
  } else {
    l.push_back({fmt::format("JobId={}", job.id), "JobName=" + job.spec.name});
  }
  l.push_back({fmt::format("UserId={}({})", user, job.user_id),
               fmt::format("GroupId={}({})", detail::group_name(ctx, job.group_id), job.group_id),
               "MCS_label=N/A"});
  const JobOptions& more = job.spec.options();
  l.push_back({fmt::format("Priority={}", job.priority), fmt::format("Nice={}", job.spec.nice),
               "Account=" + job.account, "QOS=" + job.qos});
  if (ctx.track_wckey) l.back().push_back("WCKey=" + more.wckey);
  l.push_back({fmt::format("JobState={}", detail::shown_state_name(job)),
               fmt::format("Reason={}", underscored(reason_text(job))),
               "Dependency=" + dependency_text(job, ctx)});
  l.push_back({fmt::format("Requeue={}", job.requeue ? 1 : 0),
               fmt::format("Restarts={}", job.restart_count),
               job.spec.allocation_only ? "BatchFlag=0" : "BatchFlag=1",
               fmt::format("Reboot={}", more.recorded.count("reboot") ? 1 : 0),
               "ExitCode=" + exit_code_text(job.exit_status, job.exit_signal)});
  if (details) l.push_back({"DerivedExitCode=0:0"});
  l.push_back({"RunTime=" + parse::format_duration_fixed(time_used(job, ctx.now)),
               "TimeLimit=" + limit_text(job.time_limit, "UNLIMITED"),
               "TimeMin=" + detail::time_min_text(more)});
  l.push_back({"SubmitTime=" + detail::timestamp_or(job.submit_time, "Unknown"),
               "EligibleTime=" + detail::timestamp_or(eligible, "Unknown")});
  l.push_back({"AccrueTime=" + detail::timestamp_or(job.eligible_time, "Unknown")});
  l.push_back({"StartTime=" + detail::timestamp_or(start, "Unknown"),
               "EndTime=" + detail::timestamp_or(end, "Unknown"),
               "Deadline=" + detail::timestamp_or(job.spec.deadline.value_or(k_no_time), "N/A")});
  if (ran) {
    l.push_back({"PreemptEligibleTime=" + detail::timestamp_or(job.start_time, "Unknown"),
                 "PreemptTime=None"});
  }
  // stint keeps no separate time of the scheduler's last look: the start, or
  // the submission while it waits.
  l.push_back(
      {"SuspendTime=None", "SecsPreSuspend=0",
       "LastSchedEval=" + detail::timestamp_or(ran ? job.start_time : job.submit_time, "Unknown"),
       // slurmctld's main scheduler leaves het jobs to the backfill one.
       job.is_het_component() ? "Scheduler=Backfill" : "Scheduler=Main"});
  l.push_back({"Partition=" + detail::job_partition(job),
               fmt::format("AllocNode:Sid={}:0",
                           job.spec.submit_host.empty() ? "localhost" : job.spec.submit_host)});
  l.push_back({"ReqNodeList=(null)", "ExcNodeList=(null)"});
  l.push_back({"NodeList=" + detail::job_nodelist(job)});
  if (has_alloc) l.push_back({"BatchHost=" + job.alloc.front().node});
  l.push_back({fmt::format("NumNodes={}", detail::job_node_count(job)),
               fmt::format("NumCPUs={}", detail::job_cpu_count(job)),
               fmt::format("NumTasks={}", job.req.tasks),
               fmt::format("CPUs/Task={}", job.req.cpus_per_task),
               fmt::format("ReqB:S:C:T=0:0:{}:{}", or_star(more.cores_per_socket),
                           or_star(more.threads_per_core))});
  l.push_back({"TRES=" + job_tres(job)});
  l.push_back({"Socks/Node=" + or_star(more.sockets_per_node),
               fmt::format("NtasksPerN:B:S:C={}:0:{}:{}", job.spec.ntasks_per_node.value_or(0),
                           or_star(more.ntasks_per_socket), or_star(more.ntasks_per_core)),
               detail::core_spec_text(more)});
  if (details && has_alloc) {
    const std::uint32_t gpus = job.total_gpus();
    l.push_back({"JOB_GRES=" + (gpus > 0 ? gres_text(gpus, job.req.gpu_type) : "(null)")});
    for (const NodeAlloc& a : job.alloc) {
      std::string gres;
      if (!a.gpu_ids.empty()) {
        gres = gres_text(static_cast<std::uint32_t>(a.gpu_ids.size()), job.req.gpu_type) +
               "(IDX:" + id_ranges(a.gpu_ids) + ")";
      }
      // Slurm indents these per-node lines by five spaces.
      l.push_back({fmt::format("  Nodes={} CPU_IDs={} Mem={} GRES={}", a.node, id_ranges(a.cpu_ids),
                               a.mem_mb, gres)});
    }
  }
  l.push_back({fmt::format("MinCPUsNode={}", job.req.cpus_per_node), min_memory,
               "MinTmpDiskNode=" + parse::format_memory_mb(more.tmp_mb.value_or(0))});
  l.push_back({"Features=(null)", "DelayBoot=" + detail::delay_boot_text(more)});
  if (!more.cluster_constraint.empty()) l.push_back({"ClusterFeatures=" + more.cluster_constraint});
  if (!more.reservation.empty()) l.push_back({"Reservation=" + more.reservation});
  l.push_back({"OverSubscribe=" + detail::share_text(more),
               more.contiguous ? "Contiguous=1" : "Contiguous=0", "Licenses=(null)",
               "Network=" + detail::network_text(more)});
  l.push_back({"Command=" + command});
  l.push_back({"WorkDir=" + job.spec.work_dir});
  // Slurm ends these with a space. Its Reason= stays the reason's name, as
  // slurmctld leaves it for a failed launch; the why is the system comment.
  if (!job.state_desc.empty()) l.push_back({"SystemComment=" + job.state_desc + " "});
  if (!job.spec.comment.empty()) l.push_back({"Comment=" + job.spec.comment + " "});
  if (!job.spec.allocation_only) {  // salloc's has no output of its own
    l.push_back({"StdErr=" + job.stderr_path});
    l.push_back({"StdIn=" + (more.stdin_pattern.empty() ? std::string("/dev/null")
                                                        : stdin_path(job, more.stdin_pattern))});
    l.push_back({"StdOut=" + job.stdout_path});
  }
  for (const std::string& line : {detail::switches_line(more), detail::burst_buffer_line(more),
                                  detail::cpu_freq_line(more)}) {
    if (!line.empty()) l.push_back({line});
  }
  l.push_back({"Power=" + detail::power_text(more)});
  for (std::string& line : detail::optional_trailing_lines(job.spec, user)) {
    l.push_back({std::move(line)});
  }
  // Slurm ends the block with an empty indented line, then a blank line.
  l.push_back({""});
  std::string out = join_block(l, one_liner);
  if (!one_liner) out += '\n';
  return out;
}

std::string scontrol_node(const query::NodeInfo& n, const Context& ctx, bool one_liner) {
  std::string cfg_tres =
      fmt::format("cpu={},mem={},billing={}", n.cpus, parse::format_memory_mb(n.memory_mb), n.cpus);
  if (n.gpus > 0) cfg_tres += fmt::format(",gres/gpu={}", n.gpus);
  std::string alloc_tres;
  if (n.cpus_alloc > 0 || n.memory_alloc_mb > 0) {
    alloc_tres =
        fmt::format("cpu={},mem={}", n.cpus_alloc, parse::format_memory_mb(n.memory_alloc_mb));
    if (!n.gpu_ids_alloc.empty()) alloc_tres += fmt::format(",gres/gpu={}", n.gpu_ids_alloc.size());
  }
  std::string partitions;
  for (const std::string& p : n.partitions) partitions += (partitions.empty() ? "" : ",") + p;

  Lines l;
  // Slurm leaves a space at the end of the first, OS and Partitions lines.
  l.push_back({"NodeName=" + n.name, "Arch=" + ctx.arch,
               fmt::format("CoresPerSocket={}", detail::cores_per_socket(n)), ""});
  l.push_back({fmt::format("CPUAlloc={}", n.cpus_alloc), fmt::format("CPUEfctv={}", n.cpus),
               fmt::format("CPUTot={}", n.cpus), "CPULoad=" + detail::cpu_load_text(ctx)});
  const std::string features =
      n.features.empty() ? std::string("(null)") : fmt::format("{}", fmt::join(n.features, ","));
  l.push_back({"AvailableFeatures=" + features});
  l.push_back({"ActiveFeatures=" + features});
  l.push_back({"Gres=" + (n.gpus > 0 ? gres_text(n.gpus, n.gpu_type) : std::string("(null)"))});
  l.push_back({"NodeAddr=" + (n.addr.empty() ? n.name : n.addr), "NodeHostName=" + n.name,
               "Version=" + std::string(stint::slurm_release())});
  l.push_back({"OS=" + ctx.os, ""});
  l.push_back({fmt::format("RealMemory={}", n.memory_mb),
               fmt::format("AllocMem={}", n.memory_alloc_mb),
               fmt::format("FreeMem={}", n.memory_mb - std::min(n.memory_mb, n.memory_alloc_mb)),
               fmt::format("Sockets={}", n.sockets), "Boards=1"});
  l.push_back({"State=" + node_state_scontrol(n),
               fmt::format("ThreadsPerCore={}", n.threads_per_core),
               fmt::format("TmpDisk={}", n.tmp_disk_mb), "Weight=1", "Owner=N/A", "MCS_label=N/A"});
  l.push_back({"Partitions=" + partitions, ""});
  l.push_back({"BootTime=" + detail::timestamp_or(ctx.boot_time, "None"),
               "SlurmdStartTime=" + detail::timestamp_or(ctx.boot_time, "None")});
  l.push_back({"LastBusyTime=" + detail::timestamp_or(n.last_busy, "None")});
  l.push_back({"CfgTRES=" + cfg_tres});
  l.push_back({"AllocTRES=" + alloc_tres});
  l.push_back({"CapWatts=n/a"});
  l.push_back({"CurrentWatts=0", "AveWatts=0"});
  l.push_back({"ExtSensorsJoules=n/s", "ExtSensorsWatts=0", "ExtSensorsTemp=n/s"});
  if (n.admin != NodeAdminState::up) {
    l.push_back({fmt::format("Reason={} [{}@{}]", n.reason, n.reason_user,
                             detail::timestamp_or(n.reason_time, "Unknown"))});
  }
  std::string out = join_block(l, one_liner);
  if (!one_liner) out += '\n';
  return out;
}

std::string scontrol_reservation(const Reservation& r, std::uint32_t cpus, const Context& ctx,
                                 bool one_liner) {
  // slurm_sprint_reservation_info: unset values print as C's "(null)".
  auto or_null = [](const std::string& s) { return s.empty() ? std::string("(null)") : s; };
  const std::string line_end = one_liner ? " " : "\n   ";
  std::string out = fmt::format(
      "ReservationName={} StartTime={} EndTime={} Duration={}", r.name,
      parse::format_timestamp(r.start_time), parse::format_timestamp(r.end_time),
      r.end_time >= r.start_time ? parse::format_duration_fixed(r.end_time - r.start_time) : "N/A");
  out += line_end;
  out += fmt::format("Nodes={} NodeCnt={} CoreCnt={} Features={} PartitionName={} Flags={}",
                     or_null(parse::compress_hostlist(r.nodes)), r.nodes.size(), cpus,
                     or_null(r.features), or_null(r.partition), reservation_flags_text(r));
  out += line_end;
  out += cpus > 0 ? fmt::format("TRES=cpu={}", cpus) : std::string("TRES=(null)");
  out += line_end;
  out += fmt::format(
      "Users={} Groups=(null) Accounts={} Licenses=(null) State={} BurstBuffer=(null) Watts=n/a",
      or_null(r.users), or_null(r.accounts),
      reservation_active(r, ctx.now) ? "ACTIVE" : "INACTIVE");
  out += line_end;
  out += "MaxStartDelay=(null)";
  out += one_liner ? "\n" : "\n\n";
  return out;
}

std::string scontrol_partition(const query::PartitionInfo& p, std::string_view preempt_mode,
                               bool one_liner) {
  std::string nodes = p.nodes.empty() ? "(null)" : parse::compress_hostlist(p.nodes);
  std::string tres =
      fmt::format("cpu={},mem={},node={},billing={}", p.total_cpus,
                  parse::format_memory_mb(p.total_memory_mb), p.nodes.size(), p.total_cpus);
  if (p.total_gpus > 0) tres += fmt::format(",gres/gpu={}", p.total_gpus);

  Lines l;
  l.push_back({"PartitionName=" + p.name});
  // A deny list shows only where there is no allow list (partition_info.c).
  auto access = [](std::string_view what, const std::vector<std::string>& allow,
                   const std::vector<std::string>& deny) {
    if (!allow.empty() || deny.empty())
      return fmt::format(
          "Allow{}={}", what,
          allow.empty() ? std::string("ALL") : fmt::format("{}", fmt::join(allow, ",")));
    return fmt::format("Deny{}={}", what, fmt::join(deny, ","));
  };
  l.push_back({"AllowGroups=ALL", access("Accounts", p.allow_accounts, p.deny_accounts),
               access("Qos", p.allow_qos, p.deny_qos)});
  l.push_back(
      {"AllocNodes=ALL", std::string("Default=") + (p.is_default ? "YES" : "NO"), "QoS=N/A"});
  l.push_back({"DefaultTime=" + (p.default_time ? limit_text(*p.default_time, "UNLIMITED")
                                                : std::string("NONE")),
               "DisableRootJobs=NO", "ExclusiveUser=NO", "GraceTime=0", "Hidden=NO"});
  l.push_back({"MaxNodes=UNLIMITED", "MaxTime=" + limit_text(p.max_time, "UNLIMITED"), "MinNodes=0",
               "LLN=NO", "MaxCPUsPerNode=UNLIMITED"});
  l.push_back({"Nodes=" + nodes});
  l.push_back({fmt::format("PriorityJobFactor={}", p.priority_job_factor.value_or(p.priority_tier)),
               fmt::format("PriorityTier={}", p.priority_tier), "RootOnly=NO", "ReqResv=NO",
               "OverSubscribe=" + p.over_subscribe});
  l.push_back({"OverTimeLimit=NONE", fmt::format("PreemptMode={}", preempt_mode)});
  l.push_back({fmt::format("State={}", partition_state_name(p.state)),
               fmt::format("TotalCPUs={}", p.total_cpus),
               fmt::format("TotalNodes={}", p.nodes.size()), "SelectTypeParameters=NONE"});
  l.push_back({"JobDefaults=(null)"});
  l.push_back({"DefMemPerNode=UNLIMITED", "MaxMemPerNode=UNLIMITED"});
  l.push_back({"TRES=" + tres});
  std::string out = join_block(l, one_liner);
  if (!one_liner) out += '\n';
  return out;
}

}  // namespace stint::format
