// The node and partition views: configured nodes plus what active jobs hold.

#include <algorithm>
#include <map>

#include <stint/query.hpp>

#include "util/proc.hpp"

namespace stint::query {

std::vector<NodeInfo> nodes(const Config& config, const std::vector<Job>& jobs,
                            const std::vector<NodeStatus>& states) {
  std::vector<NodeInfo> out;
  std::map<std::string, std::size_t> by_name;
  // The machine itself as its one node is reached by its name, as Slurm's
  // NodeAddr defaults to the node's name.
  const bool virtual_nodes = config.has_virtual_nodes(proc::short_hostname());
  for (const NodeDef& def : config.nodes()) {
    NodeInfo n;
    n.name = def.name;
    n.pool_id = def.pool_id;
    n.cpus = def.cpus;
    n.memory_mb = def.memory_mb;
    n.gpus = def.gpus;
    n.gpu_type = def.gpu_type;
    n.features = def.features;
    n.tmp_disk_mb = def.tmp_disk_mb;
    n.sockets = def.sockets;
    n.threads_per_core = def.threads_per_core;
    n.addr = virtual_nodes ? def.addr : def.name;
    by_name.emplace(n.name, out.size());
    out.push_back(std::move(n));
  }
  for (const PartitionConfig& p : config.partitions) {
    for (const NodeDef& def : config.partition_nodes(p)) {
      auto it = by_name.find(def.name);
      if (it == by_name.end()) continue;
      auto& parts = out[it->second].partitions;
      if (std::find(parts.begin(), parts.end(), p.id) == parts.end()) parts.push_back(p.id);
    }
  }

  std::vector<bool> completing(out.size(), false);
  for (const Job& job : jobs) {
    if (!is_active(job.state)) continue;
    for (const NodeAlloc& a : job.alloc) {
      auto it = by_name.find(a.node);
      // An allocation on a node the config no longer has (config changed under
      // a running job) cannot be shown on any node line.
      if (it == by_name.end()) continue;
      NodeInfo& n = out[it->second];
      n.cpus_alloc += a.cpus;
      n.memory_alloc_mb += a.mem_mb;
      n.gpu_ids_alloc.insert(n.gpu_ids_alloc.end(), a.gpu_ids.begin(), a.gpu_ids.end());
      if (std::find(n.jobs.begin(), n.jobs.end(), job.id) == n.jobs.end()) n.jobs.push_back(job.id);
      n.last_busy = std::max(n.last_busy, job.start_time);
      if (job.state == JobState::completing) completing[it->second] = true;
    }
  }

  for (std::size_t i = 0; i < out.size(); ++i) {
    NodeInfo& n = out[i];
    std::sort(n.gpu_ids_alloc.begin(), n.gpu_ids_alloc.end());
    // More allocated than configured (an oversubscribed virtual node) still
    // reads as fully allocated.
    n.cpus_alloc = std::min(n.cpus_alloc, n.cpus);
    if (completing[i])
      n.state = NodeState::completing;
    else if (n.cpus_alloc == 0 && n.jobs.empty())
      n.state = NodeState::idle;
    else if (n.cpus_alloc >= n.cpus)
      n.state = NodeState::allocated;
    else
      n.state = NodeState::mixed;
    n.alloc_state = n.state;
  }
  for (const NodeStatus& st : states) {
    auto it = by_name.find(st.name);
    if (it == by_name.end() || st.state == NodeAdminState::up) continue;
    NodeInfo& n = out[it->second];
    n.admin = st.state;
    n.reason = st.reason;
    n.reason_user = st.user_name;
    n.reason_uid = st.user_id;
    n.reason_time = st.since;
    // DOWN+DRAIN reads as drained, as node_state_string prints it; its base
    // state (sinfo -t down, scontrol's DOWN+DRAIN) comes from `admin`.
    if (st.state == NodeAdminState::down)
      n.state = NodeState::down;
    else if (st.state == NodeAdminState::down_drain)
      n.state = NodeState::drained;
    else
      n.state = n.alloc_state == NodeState::idle ? NodeState::drained : NodeState::draining;
  }
  return out;
}

void mark_reserved(std::vector<NodeInfo>& nodes, const std::vector<Reservation>& reservations,
                   Seconds now) {
  for (const Reservation& r : reservations) {
    if (!reservation_holds_nodes(r, now)) continue;
    for (NodeInfo& n : nodes) {
      if (std::find(r.nodes.begin(), r.nodes.end(), n.name) == r.nodes.end()) continue;
      n.reserved = true;
      n.maint = n.maint || r.flags.has(ResvFlag::maint);
    }
  }
}

std::vector<PartitionInfo> partitions(const Config& config) {
  std::vector<PartitionInfo> out;
  const PartitionConfig* def = config.default_partition();
  for (const PartitionConfig& p : config.partitions) {
    PartitionInfo info;
    info.name = p.id;
    info.is_default = def != nullptr && def->id == p.id;
    info.state = p.state;
    if (!p.over_subscribe.empty()) info.over_subscribe = p.over_subscribe;
    info.max_time = p.max_time;
    info.default_time = p.default_time;
    info.allow_accounts = p.allow_accounts;
    info.deny_accounts = p.deny_accounts;
    info.allow_qos = p.allow_qos;
    info.deny_qos = p.deny_qos;
    info.priority_tier = p.priority_tier;
    info.priority_job_factor = p.priority_job_factor;
    for (const NodeDef& n : config.partition_nodes(p)) {
      info.nodes.push_back(n.name);
      info.total_cpus += n.cpus;
      info.total_memory_mb += n.memory_mb;
      info.total_gpus += n.gpus;
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace stint::query
