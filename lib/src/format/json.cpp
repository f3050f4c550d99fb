// squeue --json and sinfo --json: Slurm's openapi v0.0.38 record shapes for
// the fields stint has; fields it does not have keep Slurm's empty values.

#include <nlohmann/json.hpp>

#include <stint/format.hpp>
#include <stint/parse.hpp>

#include "format/internal.hpp"

namespace stint::format {
namespace {

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

ojson job_record(const Job& job, const Context& ctx) {
  const bool ran = !job.alloc.empty();
  ojson j;
  j["account"] = job.account;
  j["accrue_time"] = job.eligible_time;
  j["admin_comment"] = "";
  j["array_job_id"] = 0;
  j["array_task_id"] = nullptr;
  j["array_max_tasks"] = 0;
  j["array_task_string"] = "";
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
  j["contiguous"] = false;
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
  j["dependency"] = "";
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
  j["het_job_id"] = 0;
  j["het_job_id_set"] = "";
  j["het_job_offset"] = 0;
  j["partition"] = job.partition;
  j["prefer"] = "";
  j["memory_per_node"] = job.spec.mem_per_cpu_mb ? ojson(nullptr) : ojson(job.req.mem_per_node_mb);
  j["memory_per_cpu"] = job.spec.mem_per_cpu_mb ? ojson(*job.spec.mem_per_cpu_mb) : ojson(nullptr);
  j["minimum_cpus_per_node"] = job.req.cpus_per_node;
  j["minimum_tmp_disk_per_node"] = 0;
  j["preempt_time"] = 0;
  j["pre_sus_time"] = 0;
  j["priority"] = job.priority;
  j["profile"] = nullptr;
  j["qos"] = job.qos;
  j["reboot"] = false;
  j["required_nodes"] = "";
  j["requeue"] = true;
  j["resize_time"] = 0;
  j["restart_cnt"] = job.restart_count;
  j["resv_name"] = "";
  j["shared"] = nullptr;
  j["show_flags"] = {"SHOW_ALL", "SHOW_DETAIL", "SHOW_LOCAL"};
  j["sockets_per_board"] = 0;
  j["sockets_per_node"] = nullptr;
  j["start_time"] = job.start_time;
  j["state_description"] = "";
  j["state_reason"] = reason_name(effective_reason(job));
  j["standard_error"] = job.stderr_path;
  j["standard_input"] = "/dev/null";
  j["standard_output"] = job.stdout_path;
  j["submit_time"] = job.submit_time;
  j["suspend_time"] = 0;
  j["system_comment"] = "";
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

}  // namespace

std::string squeue_json(const std::vector<Job>& jobs, const Context& ctx) {
  ojson out;
  out["meta"] = meta(ctx);
  out["errors"] = ojson::array();
  out["jobs"] = ojson::array();
  for (const Job& job : jobs) out["jobs"].push_back(job_record(job, ctx));
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
    j["cpu_load"] = 0;
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
    j["address"] = n.name;
    j["hostname"] = n.name;
    j["state"] = node_state_long(n.state);
    j["state_flags"] = ojson::array();
    j["next_state_after_reboot_flags"] = ojson::array();
    j["operating_system"] = ctx.os;
    j["owner"] = nullptr;
    j["partitions"] = n.partitions;
    j["port"] = 0;
    j["real_memory"] = n.memory_mb;
    j["reason"] = "";
    j["reason_changed_at"] = 0;
    j["reason_set_by_user"] = "";
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
    j["slurmd_version"] = ctx.version;
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

}  // namespace stint::format
