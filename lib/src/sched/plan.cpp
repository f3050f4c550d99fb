#include "sched/plan.hpp"

#include <algorithm>

namespace stint::sched {
namespace {

std::uint64_t mem_wanted(const ResourceRequest& req, const NodeDef& def) {
  return req.whole_node_mem ? def.memory_mb : req.mem_per_node_mb;
}

Seconds end_of(Seconds start, Seconds duration) {
  return duration >= k_plan_forever - start ? k_plan_forever : start + duration;
}

}  // namespace

Plan::Plan(const Cluster& cluster, Seconds now, Seconds resolution)
    : m_now(now), m_resolution(std::max<Seconds>(1, resolution)) {
  m_nodes.reserve(cluster.nodes().size());
  for (const NodeUsage& n : cluster.nodes()) m_nodes.push_back(Node{&n, {}});
  m_times.push_back(now);
  for (const Job* job : cluster.jobs()) {
    // A job past its time limit is being ended: it frees its room soon.
    Seconds end = job->time_limit == k_infinite || job->start_time == k_no_time
                      ? k_plan_forever
                      : std::max(now + 1, job->start_time + job->time_limit);
    end = round_up(end);
    for (const NodeAlloc& a : job->alloc) {
      if (Node* n = node(a.node))
        n->uses.push_back(Use{now, end, static_cast<std::uint32_t>(a.cpu_ids.size()),
                              static_cast<std::uint32_t>(a.gpu_ids.size()), a.mem_mb});
    }
    if (end != k_plan_forever) m_times.push_back(end);
  }
  std::sort(m_times.begin(), m_times.end());
  m_times.erase(std::unique(m_times.begin(), m_times.end()), m_times.end());
}

Seconds Plan::round_up(Seconds t) const {
  if (t >= k_plan_forever || t <= m_now) return t;
  Seconds r = t % m_resolution;
  return r == 0 ? t : t + (m_resolution - r);
}

Plan::Node* Plan::node(const std::string& name) {
  for (Node& n : m_nodes) {
    if (n.usage->def.name == name) return &n;
  }
  return nullptr;
}

const Plan::Node* Plan::node(const std::string& name) const {
  return const_cast<Plan*>(this)->node(name);
}

bool Plan::room(const Node& n, const ResourceRequest& req, Seconds start, Seconds end) const {
  const NodeDef& def = n.usage->def;
  if (!n.usage->available) return false;
  if (req.gpus_per_node > 0 && !req.gpu_type.empty() && req.gpu_type != def.gpu_type) return false;
  const std::uint64_t mem = mem_wanted(req, def);
  if (req.cpus_per_node > def.cpus || req.gpus_per_node > def.gpus || mem > def.memory_mb)
    return false;
  // What is used only changes where a use begins: look at `start` and at
  // each beginning inside the window.
  auto fits_at = [&](Seconds t) {
    std::uint64_t cpus = 0, gpus = 0, mem_used = 0;
    for (const Use& u : n.uses) {
      if (u.start <= t && t < u.end) {
        cpus += u.cpus;
        gpus += u.gpus;
        mem_used += u.mem_mb;
      }
    }
    if (req.whole_node_mem && mem_used > 0) return false;
    return cpus + req.cpus_per_node <= def.cpus && gpus + req.gpus_per_node <= def.gpus &&
           mem_used + mem <= def.memory_mb;
  };
  if (!fits_at(start)) return false;
  for (const Use& u : n.uses) {
    if (u.start > start && u.start < end && !fits_at(u.start)) return false;
  }
  return true;
}

std::optional<Plan::Place> Plan::earliest(const ResourceRequest& req,
                                          const std::vector<std::string>& allowed, Seconds duration,
                                          Seconds latest) const {
  for (Seconds t : m_times) {
    if (t > latest) break;
    const Seconds end = end_of(t, duration);
    Place place;
    place.start = t;
    for (const Node& n : m_nodes) {
      if (place.nodes.size() == req.nodes) break;
      if (std::find(allowed.begin(), allowed.end(), n.usage->def.name) == allowed.end()) continue;
      if (room(n, req, t, end)) place.nodes.push_back(n.usage->def.name);
    }
    if (place.nodes.size() == req.nodes) return place;
  }
  return std::nullopt;
}

void Plan::add(const ResourceRequest& req, const std::vector<std::string>& nodes, Seconds start,
               Seconds duration) {
  const Seconds end = round_up(end_of(start, duration));
  for (const std::string& name : nodes) {
    Node* n = node(name);
    if (!n) continue;
    n->uses.push_back(
        Use{start, end, req.cpus_per_node, req.gpus_per_node, mem_wanted(req, n->usage->def)});
  }
  if (end != k_plan_forever) {
    auto it = std::lower_bound(m_times.begin(), m_times.end(), end);
    if (it == m_times.end() || *it != end) m_times.insert(it, end);
  }
}

}  // namespace stint::sched
