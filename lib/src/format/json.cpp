// squeue --json, sinfo --json and sacct --json: Slurm's openapi v0.0.38 and
// dbv0.0.38 record shapes for the fields stint has; fields it does not have
// keep Slurm's empty values.

#include <algorithm>
#include <cstring>

#include <nlohmann/json.hpp>

#include <stint/format.hpp>
#include <stint/parse.hpp>
#include <stint/tools.hpp>

#include "format/internal.hpp"

namespace stint::format {
namespace {

// The job's reason by name; a job past its deadline has Slurm's FAIL_DEADLINE.
std::string_view reason_label(const Job& job) {
  return job.state == JobState::deadline ? "DeadLine" : reason_name(effective_reason(job));
}

using ojson = nlohmann::ordered_json;

ojson meta(const Context& ctx) {
  ojson m;
  m["plugin"] = {{"type", "openapi/v0.0.38"}, {"name", "Slurm OpenAPI v0.0.38"}};
  // Scripts read jobs[], not this; it says which program answered.
  m["Slurm"] = {{"version", {{"major", 22}, {"micro", 8}, {"minor", 5}}}, {"release", "22.05.8"}};
  m["stint"] = {{"version", ctx.version}};
  return m;
}

/// Slurm's tres string, with keys in squeue's order.
std::string tres_or_empty(const Job& job, bool allocated) {
  if (allocated && job.alloc.empty()) return "";
  return job_tres(job);
}

ojson job_resources(const Job& job) {
  ojson r;
  r["nodes"] = detail::job_nodelist(job);
  r["allocated_cores"] = job.total_cpus();
  r["allocated_hosts"] = job.alloc.size();
  ojson nodes = ojson::array();
  for (const NodeAlloc& a : job.alloc) {
    ojson cores = ojson::object();
    for (std::uint32_t id : a.cpu_ids) cores[std::to_string(id)] = "allocated";
    ojson n;
    n["sockets"] = {{"0", {{"cores", cores}}}};
    n["nodename"] = a.node;
    n["cpus_used"] = 0;
    n["memory_used"] = 0;
    n["memory_allocated"] = a.mem_mb;
    nodes.push_back(std::move(n));
  }
  r["allocated_nodes"] = std::move(nodes);
  return r;
}

ojson job_record(const JobGroup& group, const Context& ctx) {
  const Job& job = group.job;
  const bool ran = !job.alloc.empty();
  ojson j;
  j["account"] = job.account;
  j["accrue_time"] = job.eligible_time;
  j["admin_comment"] = "";
  j["array_job_id"] = job.array_job_id;
  j["array_task_id"] =
      job.is_array_task() && group.tasks.empty() ? ojson(job.array_task_id) : ojson(nullptr);
  j["array_max_tasks"] = job.array_throttle;
  j["array_task_string"] = group.tasks.empty() ? std::string() : group_task_text(group);
  j["association_id"] = 0;
  j["batch_features"] = "";
  j["batch_flag"] = true;
  j["batch_host"] = ran ? job.alloc.front().node : "";
  j["flags"] = ojson::array();
  j["burst_buffer"] = "";
  j["burst_buffer_state"] = "";
  j["cluster"] = ctx.cluster_name;
  j["cluster_features"] = "";
  j["command"] = "";
  j["comment"] = job.spec.comment;
  j["container"] = "";
  j["contiguous"] = job.spec.options().contiguous;
  j["core_spec"] = nullptr;
  j["thread_spec"] = nullptr;
  j["cores_per_socket"] = nullptr;
  j["billable_tres"] = ran ? ojson(static_cast<double>(job.total_cpus())) : ojson(nullptr);
  j["cpus_per_task"] = job.spec.cpus_per_task ? ojson(*job.spec.cpus_per_task) : ojson(nullptr);
  j["cpu_frequency_minimum"] = nullptr;
  j["cpu_frequency_maximum"] = nullptr;
  j["cpu_frequency_governor"] = nullptr;
  j["cpus_per_tres"] = "";
  j["deadline"] = 0;
  j["delay_boot"] = 0;
  const std::string dependency = dependency_text(job, ctx);
  j["dependency"] = dependency == "(null)" ? std::string() : dependency;
  j["derived_exit_code"] = 0;
  j["eligible_time"] = job.eligible_time;
  j["end_time"] = job.end_time;
  j["excluded_nodes"] = "";
  // Slurm's exit_code is the wait status: exit status in the high byte.
  j["exit_code"] = (job.exit_status << 8) | job.exit_signal;
  j["features"] = "";
  j["federation_origin"] = "";
  j["federation_siblings_active"] = "";
  j["federation_siblings_viable"] = "";
  j["gres_detail"] = ojson::array();
  j["group_id"] = job.group_id;
  j["group_name"] = detail::group_name(ctx, job.group_id);
  j["job_id"] = job.id;
  if (ran) j["job_resources"] = job_resources(job);
  j["job_state"] = state_name(job.state);
  j["last_sched_evaluation"] = job.start_time != k_no_time ? job.start_time : job.submit_time;
  j["licenses"] = "";
  j["max_cpus"] = 0;
  j["max_nodes"] = 0;
  j["mcs_label"] = "";
  j["memory_per_tres"] = "";
  j["name"] = job.spec.name;
  j["nodes"] = detail::job_nodelist(job);
  j["nice"] = job.spec.nice != 0 ? ojson(job.spec.nice) : ojson(nullptr);
  j["tasks_per_core"] = nullptr;
  j["tasks_per_node"] = 0;
  j["tasks_per_socket"] = nullptr;
  j["tasks_per_board"] = 0;
  j["cpus"] = detail::job_cpu_count(job);
  j["node_count"] = detail::job_node_count(job);
  j["tasks"] = job.req.tasks;
  j["het_job_id"] = job.het_job_id;
  j["het_job_id_set"] = job.het_job_id_set();
  j["het_job_offset"] = job.het_job_offset;
  j["partition"] = job.partition;
  j["prefer"] = "";
  const auto per_cpu = job.mem_per_cpu_mb();
  j["memory_per_node"] = per_cpu ? ojson(nullptr) : ojson(job.req.mem_per_node_mb);
  j["memory_per_cpu"] = per_cpu ? ojson(*per_cpu) : ojson(nullptr);
  j["minimum_cpus_per_node"] = job.req.cpus_per_node;
  j["minimum_tmp_disk_per_node"] = job.spec.options().tmp_mb.value_or(0);
  j["preempt_time"] = 0;
  j["pre_sus_time"] = 0;
  j["priority"] = job.priority;
  j["profile"] = nullptr;
  j["qos"] = job.qos;
  j["reboot"] = false;
  j["required_nodes"] = "";
  j["requeue"] = job.requeue;
  j["resize_time"] = 0;
  j["restart_cnt"] = job.restart_count;
  j["resv_name"] = job.spec.options().reservation;
  j["shared"] = nullptr;
  j["show_flags"] = {"SHOW_ALL", "SHOW_DETAIL", "SHOW_LOCAL"};
  j["sockets_per_board"] = 0;
  j["sockets_per_node"] = nullptr;
  j["start_time"] = job.start_time;
  j["state_description"] = "";
  j["state_reason"] = reason_label(job);
  j["standard_error"] = job.stderr_path;
  j["standard_input"] = "/dev/null";
  j["standard_output"] = job.stdout_path;
  j["submit_time"] = job.submit_time;
  j["suspend_time"] = 0;
  j["system_comment"] = job.state_desc;
  // Minutes, null for UNLIMITED, as Slurm's openapi prints it.
  j["time_limit"] =
      job.time_limit == k_infinite ? ojson(nullptr) : ojson((job.time_limit + 59) / 60);
  j["time_minimum"] = 0;
  j["threads_per_core"] = nullptr;
  j["tres_bind"] = "";
  j["tres_freq"] = "";
  j["tres_per_job"] = "";
  j["tres_per_node"] = job.req.gpus_per_node > 0
                           ? "gres:gpu:" + std::to_string(job.req.gpus_per_node)
                           : std::string();
  j["tres_per_socket"] = "";
  j["tres_per_task"] = "";
  j["tres_req_str"] = tres_or_empty(job, false);
  j["tres_alloc_str"] = tres_or_empty(job, true);
  j["user_id"] = job.user_id;
  j["user_name"] = job.user_name;
  j["wckey"] = "";
  j["current_working_directory"] = job.spec.work_dir;
  return j;
}

/// A TRES list as Slurm's accounting JSON has it.
ojson tres_list(std::uint32_t cpus, std::uint64_t mem_mb, std::uint32_t nodes, std::uint32_t gpus) {
  ojson list = ojson::array();
  auto add = [&](std::string_view type, std::string_view name, int id, std::uint64_t count) {
    list.push_back({{"type", type}, {"name", name}, {"id", id}, {"count", count}});
  };
  add("cpu", "", 1, cpus);
  if (mem_mb > 0) add("mem", "", 2, mem_mb);
  add("node", "", 4, nodes);
  add("billing", "", 5, cpus);
  if (gpus > 0) add("gres", "gpu", 1001, gpus);
  return list;
}

/// Slurm's exit code object: status, return code and the signal, if any.
ojson exit_object(const Job& job, bool job_line) {
  ojson e;
  int status = job.exit_status;
  int signal = job.exit_signal;
  if (job_line && (job.state == JobState::timeout || job.state == JobState::cancelled ||
                   job.state == JobState::preempted || job.state == JobState::requeued ||
                   job.state == JobState::pending)) {
    status = 0;
    signal = 0;
  }
  e["status"] = signal != 0 ? "SIGNALED" : (status != 0 ? "FAILED" : "SUCCESS");
  e["return_code"] = status;
  if (signal != 0) {
    const char* name = ::sigabbrev_np(signal);
    e["signal"] = {{"signal_id", signal}, {"name", name != nullptr ? name : ""}};
  }
  return e;
}

ojson cpu_seconds(std::uint64_t usec) {
  return {{"seconds", usec / 1000000}, {"microseconds", usec % 1000000}};
}

ojson accounting_record(const JobGroup& group, const Context& ctx) {
  const Job& job = group.job;
  const bool ran = job.start_time != k_no_time && !job.alloc.empty();
  const Seconds elapsed = time_used(job, ctx.now);
  ojson j;
  j["account"] = job.account;
  j["comment"] = {{"administrator", ""}, {"job", job.spec.comment}, {"system", ""}};
  j["allocation_nodes"] = job.alloc.size();
  ojson array;
  array["job_id"] = job.array_job_id;
  array["limits"] = {{"max", {{"running", {{"tasks", job.array_throttle}}}}}};
  array["task"] = group.tasks.empty() ? std::string() : group_task_text(group);
  array["task_id"] =
      job.is_array_task() && group.tasks.empty() ? ojson(job.array_task_id) : ojson(nullptr);
  j["array"] = std::move(array);
  j["association"] = {{"account", job.account},
                      {"cluster", ctx.cluster_name},
                      {"partition", job.partition},
                      {"user", job.user_name}};
  j["cluster"] = ctx.cluster_name;
  j["constraints"] = "";
  j["container"] = "";
  j["derived_exit_code"] = {{"status", "SUCCESS"}, {"return_code", 0}};
  ojson time;
  time["elapsed"] = elapsed;
  time["eligible"] = job.eligible_time;
  time["end"] = job.end_time;
  time["start"] = job.start_time;
  time["submission"] = job.submit_time;
  time["suspended"] = 0;
  time["system"] = cpu_seconds(job.sys_cpu_us);
  // Minutes, as Slurm stores a time limit.
  time["limit"] = job.time_limit == k_infinite ? ojson(nullptr) : ojson((job.time_limit + 59) / 60);
  time["total"] = cpu_seconds(job.user_cpu_us + job.sys_cpu_us);
  time["user"] = cpu_seconds(job.user_cpu_us);
  j["time"] = std::move(time);
  j["exit_code"] = exit_object(job, true);
  j["flags"] = ojson::array();
  j["group"] = detail::group_name(ctx, job.group_id);
  j["het"] = {{"job_id", job.het_job_id},
              {"job_offset", job.is_het_component() ? ojson(job.het_job_offset) : ojson(nullptr)}};
  j["job_id"] = job.id;
  j["name"] = job.spec.name;
  j["mcs"] = {{"label", ""}};
  j["nodes"] = ran ? detail::job_nodelist(job) : std::string("None assigned");
  j["partition"] = job.partition;
  j["priority"] = job.priority;
  j["qos"] = job.qos;
  j["required"] = {{"CPUs", detail::job_cpu_count(job)},
                   {"memory", job.mem_per_cpu_mb().value_or(job.req.mem_per_node_mb)}};
  j["kill_request_user"] = job.state == JobState::cancelled && job.cancelled_by != 0
                               ? ojson(job.cancelled_by)
                               : ojson(nullptr);
  {
    const std::string& resv = job.spec.options().reservation;
    auto id = ctx.reservation_ids.find(resv);
    j["reservation"] = {{"id", id == ctx.reservation_ids.end() ? 0U : id->second}, {"name", resv}};
  }
  j["restarts"] = job.restart_count;
  j["state"] = {{"current", state_name(job.state)}, {"reason", reason_label(job)}};
  ojson steps = ojson::array();
  if (ran) {
    const NodeAlloc& first = job.alloc.front();
    ojson step;
    step["time"] = {{"elapsed", elapsed},
                    {"end", job.end_time},
                    {"start", job.start_time},
                    {"suspended", 0},
                    {"system", cpu_seconds(job.sys_cpu_us)},
                    {"total", cpu_seconds(job.user_cpu_us + job.sys_cpu_us)},
                    {"user", cpu_seconds(job.user_cpu_us)}};
    step["exit_code"] = exit_object(job, false);
    step["nodes"] = {{"count", 1}, {"range", first.node}};
    step["tasks"] = {{"count", 1}};
    step["kill_request_user"] = nullptr;
    // A batch step killed by a signal reads CANCELLED, as in sacct's table.
    const bool killed = job.exit_signal != 0 || job.state == JobState::timeout ||
                        job.state == JobState::cancelled || job.state == JobState::preempted ||
                        job.state == JobState::requeued;
    step["state"] =
        is_terminal(job.state) && killed ? std::string_view("CANCELLED") : state_name(job.state);
    step["statistics"] = {{"max_rss_kb", job.max_rss_kb}};
    step["step"] = {{"job_id", job.id},
                    {"het", {{"component", nullptr}}},
                    {"id", job.display_id() + ".batch"},
                    {"name", "batch"}};
    step["tres"] = {{"allocated", tres_list(first.cpus, first.mem_mb, 1,
                                            static_cast<std::uint32_t>(first.gpu_ids.size()))}};
    steps.push_back(std::move(step));
  }
  j["steps"] = std::move(steps);
  const std::uint32_t req_nodes = std::max<std::uint32_t>(job.req.nodes, 1);
  j["tres"] = {
      {"allocated", ran ? tres_list(job.total_cpus(), detail::job_memory_mb(job),
                                    static_cast<std::uint32_t>(job.alloc.size()), job.total_gpus())
                        : ojson::array()},
      {"requested", tres_list(detail::job_cpu_count(job), job.req.mem_per_node_mb * req_nodes,
                              req_nodes, job.req.gpus_per_node * req_nodes)}};
  j["user"] = job.user_name;
  j["wckey"] = {{"wckey", ""}, {"flags", ojson::array()}};
  j["working_directory"] = job.spec.work_dir;
  return j;
}

}  // namespace

std::string squeue_json(const std::vector<Job>& jobs, const Context& ctx, bool expand_arrays) {
  ojson out;
  out["meta"] = meta(ctx);
  out["errors"] = ojson::array();
  out["jobs"] = ojson::array();
  auto groups = expand_arrays ? single_groups(expand_array_records(jobs)) : array_groups(jobs);
  for (const JobGroup& g : groups) out["jobs"].push_back(job_record(g, ctx));
  return out.dump(2) + "\n";
}

std::string sinfo_json(const std::vector<query::NodeInfo>& nodes, const Context& ctx) {
  ojson out;
  out["meta"] = meta(ctx);
  out["errors"] = ojson::array();
  out["nodes"] = ojson::array();
  for (const query::NodeInfo& n : nodes) {
    ojson j;
    j["architecture"] = ctx.arch;
    j["burstbuffer_network_address"] = "";
    j["boards"] = 1;
    j["boot_time"] = ctx.boot_time;
    j["comment"] = "";
    j["cores"] = n.cpus;
    j["cpu_binding"] = 0;
    j["cpu_load"] = static_cast<std::int64_t>(ctx.cpu_load.value_or(0) * 100);
    j["extra"] = "";
    j["free_memory"] = n.memory_mb - std::min(n.memory_mb, n.memory_alloc_mb);
    j["cpus"] = n.cpus;
    j["last_busy"] = n.last_busy;
    j["features"] = "";
    j["active_features"] = "";
    std::string gres;
    if (n.gpus > 0)
      gres = n.gpu_type.empty() ? "gpu:" + std::to_string(n.gpus)
                                : "gpu:" + n.gpu_type + ":" + std::to_string(n.gpus);
    j["gres"] = gres;
    j["gres_drained"] = "N/A";
    j["gres_used"] = n.gpus > 0 ? "gpu:" + std::to_string(n.gpu_ids_alloc.size()) : std::string();
    j["mcs_label"] = "";
    j["name"] = n.name;
    j["next_state_after_reboot"] = "invalid";
    j["address"] = n.addr.empty() ? n.name : n.addr;
    j["hostname"] = n.name;
    // Slurm's JSON keeps the base state and lists DRAIN as a flag.
    const bool drain = is_drain(n.admin);
    j["state"] = node_state_long(n.admin == NodeAdminState::down_drain ? query::NodeState::down
                                 : drain                               ? n.alloc_state
                                                                       : n.state);
    j["state_flags"] = drain ? ojson::array({"DRAIN"}) : ojson::array();
    j["next_state_after_reboot_flags"] = ojson::array();
    j["operating_system"] = ctx.os;
    j["owner"] = nullptr;
    j["partitions"] = n.partitions;
    j["port"] = 0;
    j["real_memory"] = n.memory_mb;
    j["reason"] = n.reason;
    j["reason_changed_at"] = n.reason_time;
    j["reason_set_by_user"] = n.reason_user;
    j["slurmd_start_time"] = ctx.boot_time;
    j["sockets"] = 1;
    j["threads"] = 1;
    j["temporary_disk"] = 0;
    j["weight"] = 1;
    std::string tres = "cpu=" + std::to_string(n.cpus) +
                       ",mem=" + parse::format_memory_mb(n.memory_mb) +
                       ",billing=" + std::to_string(n.cpus);
    if (n.gpus > 0) tres += ",gres/gpu=" + std::to_string(n.gpus);
    j["tres"] = tres;
    j["slurmd_version"] = std::string(stint::slurm_release());
    j["alloc_memory"] = n.memory_alloc_mb;
    j["alloc_cpus"] = n.cpus_alloc;
    j["idle_cpus"] = n.cpus - n.cpus_alloc;
    std::string used;
    if (n.cpus_alloc > 0 || n.memory_alloc_mb > 0) {
      used = "cpu=" + std::to_string(n.cpus_alloc) +
             ",mem=" + parse::format_memory_mb(n.memory_alloc_mb);
      if (!n.gpu_ids_alloc.empty()) used += ",gres/gpu=" + std::to_string(n.gpu_ids_alloc.size());
    }
    j["tres_used"] = used;
    j["tres_weighted"] = static_cast<double>(n.cpus_alloc);
    out["nodes"].push_back(std::move(j));
  }
  return out.dump(2) + "\n";
}

std::string sacct_json(std::vector<Job> jobs, const Context& ctx) {
  ojson out;
  out["meta"] = meta(ctx);
  out["errors"] = ojson::array();
  out["jobs"] = ojson::array();
  sort_sacct(jobs);
  for (const JobGroup& g : array_groups(std::move(jobs)))
    out["jobs"].push_back(accounting_record(g, ctx));
  return out.dump(2) + "\n";
}

}  // namespace stint::format
