#include <algorithm>

#include "sched/sched.hpp"

namespace stint::sched {

NodeUsage::NodeUsage(NodeDef d)
    : def(std::move(d)), cpu_used(def.cpus, false), gpu_used(def.gpus, false) {}

std::uint32_t NodeUsage::free_cpus() const {
  return static_cast<std::uint32_t>(std::count(cpu_used.begin(), cpu_used.end(), false));
}

std::uint32_t NodeUsage::free_gpus() const {
  return static_cast<std::uint32_t>(std::count(gpu_used.begin(), gpu_used.end(), false));
}

std::uint64_t NodeUsage::free_mem_mb() const {
  return def.memory_mb > mem_used_mb ? def.memory_mb - mem_used_mb : 0;
}

bool NodeUsage::idle() const { return free_cpus() == def.cpus && free_gpus() == def.gpus; }

void NodeUsage::take(const NodeAlloc& a) {
  for (auto c : a.cpu_ids) {
    if (c < cpu_used.size()) cpu_used[c] = true;
  }
  for (auto g : a.gpu_ids) {
    if (g < gpu_used.size()) gpu_used[g] = true;
  }
  mem_used_mb += a.mem_mb;
}

void NodeUsage::give_back(const NodeAlloc& a) {
  for (auto c : a.cpu_ids) {
    if (c < cpu_used.size()) cpu_used[c] = false;
  }
  for (auto g : a.gpu_ids) {
    if (g < gpu_used.size()) gpu_used[g] = false;
  }
  mem_used_mb = mem_used_mb > a.mem_mb ? mem_used_mb - a.mem_mb : 0;
}

Cluster::Cluster(const std::vector<NodeDef>& nodes) {
  m_nodes.reserve(nodes.size());
  for (const auto& n : nodes) m_nodes.emplace_back(n);
}

void Cluster::take_jobs(const std::vector<const Job*>& active) {
  for (const Job* job : active) {
    m_jobs.push_back(job);
    for (const auto& a : job->alloc) {
      if (NodeUsage* n = find(a.node)) n->take(a);
    }
  }
}

NodeUsage* Cluster::find(const std::string& name) {
  for (auto& n : m_nodes) {
    if (n.def.name == name) return &n;
  }
  return nullptr;
}

const NodeUsage* Cluster::find(const std::string& name) const {
  return const_cast<Cluster*>(this)->find(name);
}

bool Cluster::can_take(const NodeAlloc& a) const {
  const NodeUsage* n = find(a.node);
  if (!n || !n->available) return false;
  for (auto c : a.cpu_ids) {
    if (c >= n->cpu_used.size() || n->cpu_used[c]) return false;
  }
  for (auto g : a.gpu_ids) {
    if (g >= n->gpu_used.size() || n->gpu_used[g]) return false;
  }
  return n->free_mem_mb() >= a.mem_mb;
}

void Cluster::give_back(const std::vector<NodeAlloc>& alloc) {
  for (const auto& a : alloc) {
    if (NodeUsage* n = find(a.node)) n->give_back(a);
  }
}

namespace {

std::vector<std::uint32_t> lowest_free(const std::vector<bool>& used, std::uint32_t count) {
  std::vector<std::uint32_t> ids;
  for (std::uint32_t i = 0; i < used.size() && ids.size() < count; ++i) {
    if (!used[i]) ids.push_back(i);
  }
  return ids;
}

bool node_fits(const NodeUsage& n, const ResourceRequest& req) {
  if (!n.available) return false;
  if (req.gpus_per_node > 0 && !req.gpu_type.empty() && req.gpu_type != n.def.gpu_type)
    return false;
  if (n.free_cpus() < req.cpus_per_node || n.free_gpus() < req.gpus_per_node) return false;
  // A whole-node job shares its nodes with no other job.
  if (req.whole_nodes && !n.idle()) return false;
  // --mem=0 asks for the node's whole memory, so nothing else may hold any.
  if (req.whole_node_mem) return n.mem_used_mb == 0;
  return n.free_mem_mb() >= req.mem_per_node_mb;
}

}  // namespace

std::optional<std::vector<NodeAlloc>> fit(const ResourceRequest& req, const Cluster& cluster,
                                          const std::vector<std::string>& allowed) {
  std::vector<NodeAlloc> picked;
  for (const auto& n : cluster.nodes()) {
    if (picked.size() == req.nodes) break;
    if (std::find(allowed.begin(), allowed.end(), n.def.name) == allowed.end()) continue;
    if (!node_fits(n, req)) continue;
    NodeAlloc a;
    a.node = n.def.name;
    const std::uint32_t cpus = req.whole_nodes ? n.def.cpus : req.cpus_per_node;
    a.cpus = cpus;
    a.cpu_ids = lowest_free(n.cpu_used, cpus);
    a.gpu_ids = lowest_free(n.gpu_used, req.whole_nodes ? n.def.gpus : req.gpus_per_node);
    a.mem_mb = req.whole_node_mem ? n.def.memory_mb : req.mem_per_node_mb;
    a.tasks = req.tasks_per_node;
    picked.push_back(std::move(a));
  }
  if (picked.size() < req.nodes) return std::nullopt;
  // Tasks that do not divide evenly: the last nodes get fewer.
  std::uint32_t remaining = req.tasks;
  for (auto& a : picked) {
    a.tasks = std::min(a.tasks, remaining);
    remaining -= a.tasks;
  }
  return picked;
}

}  // namespace stint::sched
