#include "daemon/slurm_conf_file.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

#include <fmt/format.h>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "util/fs.hpp"

namespace stint::daemon {
namespace {

std::string time_text(Seconds s) {
  return s == k_infinite ? std::string("UNLIMITED") : parse::format_duration_fixed(s);
}

}  // namespace

std::vector<NodeDef> pool_nodes(const std::vector<NodeDef>& nodes, const std::string& pool) {
  std::vector<NodeDef> out;
  std::copy_if(nodes.begin(), nodes.end(), std::back_inserter(out),
               [&](const NodeDef& n) { return n.pool_id == pool; });
  return out;
}

std::string node_conf_line(const NodePool& pool, const std::vector<std::string>& names) {
  std::string line = fmt::format("NodeName={} CPUs={}", parse::compress_hostlist(names), pool.cpus);
  if (pool.sockets > 1 || pool.threads_per_core > 1) {
    const std::uint32_t per_core = std::max<std::uint32_t>(1, pool.sockets * pool.threads_per_core);
    line += fmt::format(" Sockets={} CoresPerSocket={} ThreadsPerCore={}", pool.sockets,
                        pool.cpus / per_core, pool.threads_per_core);
  }
  line += fmt::format(" RealMemory={}", pool.memory_mb);
  if (pool.gpus > 0) {
    line += pool.gpu_type.empty() ? fmt::format(" Gres=gpu:{}", pool.gpus)
                                  : fmt::format(" Gres=gpu:{}:{}", pool.gpu_type, pool.gpus);
  }
  if (!pool.features.empty()) line += fmt::format(" Features={}", fmt::join(pool.features, ","));
  if (pool.tmp_disk_mb > 0) line += fmt::format(" TmpDisk={}", pool.tmp_disk_mb);
  return line + " State=UNKNOWN\n";
}

std::string partition_conf_line(const PartitionConfig& p, const std::vector<std::string>& nodes,
                                bool is_default) {
  std::string line =
      fmt::format("PartitionName={} Nodes={}", p.id, parse::compress_hostlist(nodes));
  if (is_default) line += " Default=YES";
  line += fmt::format(" MaxTime={}", time_text(p.max_time));
  if (p.default_time) line += fmt::format(" DefaultTime={}", time_text(*p.default_time));
  line += fmt::format(" PriorityTier={}", p.priority_tier);
  if (p.priority_job_factor) line += fmt::format(" PriorityJobFactor={}", *p.priority_job_factor);
  if (!p.preempt_mode.empty()) line += fmt::format(" PreemptMode={}", p.preempt_mode);
  if (p.grace_time > 0) line += fmt::format(" GraceTime={}", p.grace_time);
  if (!p.over_subscribe.empty()) line += fmt::format(" OverSubscribe={}", p.over_subscribe);
  for (auto [key, names] :
       {std::pair{"AllowAccounts", &p.allow_accounts}, std::pair{"DenyAccounts", &p.deny_accounts},
        std::pair{"AllowQos", &p.allow_qos}, std::pair{"DenyQos", &p.deny_qos}}) {
    if (!names->empty()) line += fmt::format(" {}={}", key, fmt::join(*names, ","));
  }
  return line + fmt::format(" State={}\n", partition_state_name(p.state));
}

std::string slurm_conf_path(const std::string& state_dir) { return state_dir + "/slurm.conf"; }

std::string slurm_conf_text(const Config& config, const std::string& host) {
  std::string out = fmt::format(
      "# slurm.conf of the stint cluster {}, written by stintd from the configuration it\n"
      "# runs with ({}) each time that changes. stint reads stint.yaml, not this file.\n",
      config.cluster_name, config.source_path.empty() ? "built in" : config.source_path);
  out += fmt::format("ClusterName={}\n", config.cluster_name);
  out += fmt::format("SlurmctldHost={}(127.0.0.1)\n", host);
  out += fmt::format("SlurmctldPort={}\n", k_slurmctld_port);
  bool gres_types = false;
  for (const auto& [key, value, origin] : config.all_conf()) {
    if (origin == ConfigOrigin::built_in_default || key == "ClusterName") continue;
    if (key.rfind("Stint", 0) == 0) continue;  // stint's own, not Slurm's
    gres_types = gres_types || key == "GresTypes";
    out += fmt::format("{}={}\n", key, value);
  }
  const bool gpus = std::any_of(config.node_pools.begin(), config.node_pools.end(),
                                [](const NodePool& p) { return p.gpus > 0; });
  if (gpus && !gres_types) out += "GresTypes=gpu\n";
  const std::vector<NodeDef> nodes = config.nodes();
  for (const NodePool& pool : config.node_pools) {
    const std::vector<NodeDef> of_pool = pool_nodes(nodes, pool.id);
    if (of_pool.empty()) continue;
    std::vector<std::string> names;
    for (const NodeDef& n : of_pool) names.push_back(n.name);
    out += node_conf_line(pool, names);
  }
  const PartitionConfig* def = config.default_partition();
  for (const PartitionConfig& p : config.partitions) {
    std::vector<std::string> names;
    for (const NodeDef& n : config.partition_nodes(p)) names.push_back(n.name);
    out += partition_conf_line(p, names, &p == def);
  }
  return out;
}

void write_slurm_conf(const std::string& state_dir, const Config& config, const std::string& host) {
  const std::string path = slurm_conf_path(state_dir);
  // Not synced: it is written again from the configuration at every start.
  fs::write_file_if_changed(path, slurm_conf_text(config, host), 0644, fs::Sync::no);
}

}  // namespace stint::daemon
