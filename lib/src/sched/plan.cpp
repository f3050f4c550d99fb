#include "sched/plan.hpp"

#include <algorithm>
#include <map>

namespace stint::sched {
namespace {

std::uint64_t mem_wanted(const ResourceRequest& req, const NodeDef& def) {
  return req.whole_node_mem ? def.memory_mb : req.mem_per_node_mb;
}
// A whole-node job holds every CPU and GPU of its nodes.
std::uint64_t cpus_wanted(const ResourceRequest& req, const NodeDef& def) {
  return req.whole_nodes ? std::max(def.cpus, req.cpus_per_node) : req.cpus_per_node;
}
std::uint64_t gpus_wanted(const ResourceRequest& req, const NodeDef& def) {
  return req.whole_nodes ? std::max(def.gpus, req.gpus_per_node) : req.gpus_per_node;
}

// The nodes of a set that meets `rules`, from those with room (`room`, by
// candidate; `index`, each candidate's place in the cluster's order), or
// empty when there is none.
std::vector<std::size_t> pick_set(const std::vector<bool>& room,
                                  const std::vector<std::size_t>& index, std::uint32_t count,
                                  const NodeSetRules& rules) {
  auto required = [&](std::size_t j) {
    return rules.required && index[j] < rules.required->size() && (*rules.required)[index[j]];
  };
  std::vector<std::size_t> set;
  if (rules.contiguous) {
    // The first window of `count` candidates adjacent in the cluster, all
    // with room, that leaves out no required node.
    std::size_t required_total = 0;
    for (std::size_t j = 0; j < room.size(); ++j) required_total += required(j) ? 1 : 0;
    for (std::size_t first = 0; first + count <= room.size(); ++first) {
      bool ok = true;
      std::size_t required_in = 0;
      for (std::size_t j = first; j < first + count && ok; ++j) {
        ok = room[j] && (j == first || index[j] == index[j - 1] + 1);
        required_in += required(j) ? 1 : 0;
      }
      if (!ok || required_in != required_total) continue;
      for (std::size_t j = first; j < first + count; ++j) set.push_back(j);
      return set;
    }
    return {};
  }
  for (std::size_t j = 0; j < room.size(); ++j) {
    if (!required(j)) continue;
    if (!room[j]) return {};
    set.push_back(j);
  }
  for (std::size_t j = 0; j < room.size() && set.size() < count; ++j) {
    if (room[j] && !required(j)) set.push_back(j);
  }
  if (set.size() < count) return {};
  std::sort(set.begin(), set.end());
  return set;
}

Seconds end_of(Seconds start, Seconds duration) {
  return duration >= k_plan_forever - start ? k_plan_forever : start + duration;
}

}  // namespace

Plan::Plan(const Cluster& cluster, Seconds now, Seconds resolution)
    : m_now(now), m_resolution(std::max<Seconds>(1, resolution)) {
  m_nodes.reserve(cluster.nodes().size());
  std::vector<std::map<Seconds, Step>> releases(cluster.nodes().size());
  for (const NodeUsage& n : cluster.nodes()) {
    Node node{&n, {}};
    node.steps.push_back(
        Step{now, n.def.cpus - n.free_cpus(), n.def.gpus - n.free_gpus(), n.mem_used_mb});
    m_nodes.push_back(std::move(node));
  }
  // Each running job gives its room back at the end of its time limit; one
  // past it is being ended and gives it back at once.
  for (const Job* job : cluster.jobs()) {
    if (job->time_limit == k_infinite || job->start_time == k_no_time) continue;
    const Seconds end = round_up(std::max(now + 1, job->start_time + job->time_limit));
    for (const NodeAlloc& a : job->alloc) {
      for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        if (m_nodes[i].usage->def.name != a.node) continue;
        Step& r = releases[i][end];
        r.cpus += a.cpu_ids.size();
        r.gpus += a.gpu_ids.size();
        r.mem_mb += a.mem_mb;
      }
    }
  }
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    Step running = m_nodes[i].steps.front();
    for (const auto& [time, freed] : releases[i]) {
      running.time = time;
      running.cpus -= std::min(running.cpus, freed.cpus);
      running.gpus -= std::min(running.gpus, freed.gpus);
      running.mem_mb -= std::min(running.mem_mb, freed.mem_mb);
      m_nodes[i].steps.push_back(running);
    }
  }
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

bool Plan::eligible(const Node& n, const ResourceRequest& req) const {
  const NodeDef& def = n.usage->def;
  if (!n.usage->available) return false;
  if (req.gpus_per_node > 0 && !req.gpu_type.empty() && req.gpu_type != def.gpu_type) return false;
  return req.cpus_per_node <= def.cpus && req.gpus_per_node <= def.gpus &&
         mem_wanted(req, def) <= def.memory_mb;
}

bool Plan::fits(const Node& n, const Step& s, const ResourceRequest& req) {
  const NodeDef& def = n.usage->def;
  if (req.whole_node_mem && s.mem_mb > 0) return false;
  if (req.whole_nodes && (s.cpus > 0 || s.gpus > 0 || s.mem_mb > 0)) return false;
  return s.cpus + req.cpus_per_node <= def.cpus && s.gpus + req.gpus_per_node <= def.gpus &&
         s.mem_mb + mem_wanted(req, def) <= def.memory_mb;
}

std::optional<Seconds> Plan::node_earliest(const Node& n, const ResourceRequest& req,
                                           Seconds duration, Seconds latest) const {
  // Room only ever opens where a step begins: the soonest step from which
  // every step before its end has room. A step without room rules out every
  // start whose time span holds it, which is every start from the candidate
  // up to that step: the next candidate is the step after it. One walk.
  const std::vector<Step>& steps = n.steps;
  std::size_t candidate = 0;
  std::size_t i = 0;
  while (candidate < steps.size() && steps[candidate].time <= latest) {
    const Seconds end = end_of(steps[candidate].time, duration);
    while (i < steps.size() && steps[i].time < end && fits(n, steps[i], req)) ++i;
    if (i == steps.size() || steps[i].time >= end) return steps[candidate].time;
    candidate = ++i;  // steps[i] has no room
  }
  return std::nullopt;
}

std::vector<bool> Plan::allowed_mask(const std::vector<std::string>& names) const {
  std::vector<bool> mask(m_nodes.size(), false);
  for (std::size_t i = 0; i < m_nodes.size(); ++i)
    mask[i] = std::find(names.begin(), names.end(), m_nodes[i].usage->def.name) != names.end();
  return mask;
}

std::optional<Plan::Place> Plan::earliest(const ResourceRequest& req,
                                          const std::vector<std::string>& allowed, Seconds duration,
                                          Seconds latest) const {
  return earliest(req, allowed_mask(allowed), duration, latest);
}

std::optional<Plan::Place> Plan::earliest(const ResourceRequest& req,
                                          const std::vector<bool>& allowed, Seconds duration,
                                          Seconds latest, const NodeSetRules& rules) const {
  std::vector<const Node*> candidates;
  std::vector<std::size_t> index;  // each candidate's place in the cluster's order
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    if (i < allowed.size() && allowed[i] && eligible(m_nodes[i], req)) {
      candidates.push_back(&m_nodes[i]);
      index.push_back(i);
    }
  }
  if (candidates.size() < req.nodes) return std::nullopt;
  const bool ruled = rules.contiguous || rules.required;
  if (req.nodes == 1 && !ruled) {
    // One node: each node's own earliest start, the soonest of them (the
    // first in config order among equals).
    std::optional<Place> best;
    for (const Node* n : candidates) {
      auto t = node_earliest(*n, req, duration, best ? std::min(best->start, latest) : latest);
      if (t && (!best || *t < best->start)) best = Place{*t, {n->usage->def.name}};
      if (best && best->start == m_now) break;
    }
    return best;
  }
  // Several nodes: the first time at which enough of them have room, among
  // the times where any of them gets room back.
  std::vector<Seconds> times;
  for (const Node* n : candidates) {
    for (const Step& s : n->steps) {
      if (s.time <= latest) times.push_back(s.time);
    }
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  // A node has room for [t, end) when none of its steps from the one in force
  // at t to the last that begins before end lacks room. Both ends only move
  // forward as t grows: each node keeps a cursor, and counts the steps
  // without room before each index (prefix sums), so each test is O(1).
  struct Cursor {
    std::size_t first = 0;    ///< the step in force at t
    std::size_t last = 0;     ///< the first step at or after end
    std::size_t lacking = 0;  ///< offset of the node's prefix sums in `lacking_before`
  };
  std::vector<Cursor> cursors(candidates.size());
  std::vector<std::uint32_t> lacking_before;
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    cursors[j].lacking = lacking_before.size();
    std::uint32_t count = 0;
    lacking_before.push_back(0);
    for (const Step& s : candidates[j]->steps) {
      count += fits(*candidates[j], s, req) ? 0 : 1;
      lacking_before.push_back(count);
    }
  }
  std::vector<bool> room(ruled ? candidates.size() : 0);
  for (Seconds t : times) {
    const Seconds end = end_of(t, duration);
    Place place{t, {}};
    for (std::size_t j = 0; j < candidates.size(); ++j) {
      const std::vector<Step>& steps = candidates[j]->steps;
      Cursor& c = cursors[j];
      while (c.first + 1 < steps.size() && steps[c.first + 1].time <= t) ++c.first;
      while (c.last < steps.size() && steps[c.last].time < end) ++c.last;
      const bool has_room = c.last <= c.first || lacking_before[c.lacking + c.last] ==
                                                     lacking_before[c.lacking + c.first];
      if (ruled) {
        room[j] = has_room;
        continue;
      }
      if (has_room) place.nodes.push_back(candidates[j]->usage->def.name);
      if (place.nodes.size() == req.nodes) return place;
    }
    if (!ruled) continue;
    const std::vector<std::size_t> set = pick_set(room, index, req.nodes, rules);
    if (set.empty()) continue;
    for (std::size_t j : set) place.nodes.push_back(candidates[j]->usage->def.name);
    return place;
  }
  return std::nullopt;
}

std::size_t Plan::split(Node& n, Seconds t) {
  auto it = std::lower_bound(n.steps.begin(), n.steps.end(), t,
                             [](const Step& s, Seconds v) { return s.time < v; });
  if (it != n.steps.end() && it->time == t) return static_cast<std::size_t>(it - n.steps.begin());
  // A time before the first step cannot happen: every plan time is >= now.
  Step copy = *(it - 1);
  copy.time = t;
  // insert may move the steps: take begin() only after it.
  auto inserted = n.steps.insert(it, copy);
  return static_cast<std::size_t>(inserted - n.steps.begin());
}

void Plan::add(const ResourceRequest& req, const std::vector<std::string>& nodes, Seconds start,
               Seconds duration) {
  const Seconds end = round_up(end_of(start, duration));
  for (const std::string& name : nodes) {
    Node* n = node(name);
    if (!n) continue;
    const std::uint64_t mem = mem_wanted(req, n->usage->def);
    const std::size_t first = split(*n, std::max(start, m_now));
    const std::size_t last = end == k_plan_forever ? n->steps.size() : split(*n, end);
    const std::uint64_t cpus = cpus_wanted(req, n->usage->def);
    const std::uint64_t gpus = gpus_wanted(req, n->usage->def);
    for (std::size_t i = first; i < last; ++i) {
      n->steps[i].cpus += cpus;
      n->steps[i].gpus += gpus;
      n->steps[i].mem_mb += mem;
    }
  }
}

void Plan::remove(const ResourceRequest& req, const std::vector<std::string>& nodes, Seconds start,
                  Seconds duration) {
  const Seconds end = round_up(end_of(start, duration));
  for (const std::string& name : nodes) {
    Node* n = node(name);
    if (!n) continue;
    const std::uint64_t mem = mem_wanted(req, n->usage->def);
    const std::size_t first = split(*n, std::max(start, m_now));
    const std::size_t last = end == k_plan_forever ? n->steps.size() : split(*n, end);
    const std::uint64_t cpus = cpus_wanted(req, n->usage->def);
    const std::uint64_t gpus = gpus_wanted(req, n->usage->def);
    for (std::size_t i = first; i < last; ++i) {
      n->steps[i].cpus -= std::min(n->steps[i].cpus, cpus);
      n->steps[i].gpus -= std::min(n->steps[i].gpus, gpus);
      n->steps[i].mem_mb -= std::min(n->steps[i].mem_mb, mem);
    }
  }
}

}  // namespace stint::sched
