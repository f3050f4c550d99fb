#include "sched/step.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "util/text.hpp"

namespace stint::sched {

using text::iequals;
using text::istarts_with;

void read_distribution(std::string_view spec, StepRequest& request) {
  auto refuse = [&](std::string_view why) {
    throw Error(Errc::invalid_argument, fmt::format("--distribution={}: {}", spec, why));
  };
  std::string_view rest = spec;
  request.pack = false;
  if (const std::size_t comma = rest.find(','); comma != std::string_view::npos) {
    const std::string_view flag = rest.substr(comma + 1);
    if (!iequals(flag, "Pack") && !iequals(flag, "NoPack")) refuse("the flags are Pack and NoPack");
    request.pack = iequals(flag, "Pack");
    rest = rest.substr(0, comma);
  }
  if (istarts_with(rest, "plane=")) {
    std::uint32_t size = 0;
    const std::string_view digits = rest.substr(6);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), size);
    if (ec != std::errc() || end != digits.data() + digits.size() || size == 0)
      refuse("plane needs a positive size");
    request.distribution = Distribution::plane;
    request.plane_size = size;
    return;
  }
  std::size_t level = 0;
  while (true) {
    const std::size_t colon = rest.find(':');
    const std::string_view word = rest.substr(0, colon);
    if (level == 0 && iequals(word, "cyclic")) {
      request.distribution = Distribution::cyclic;
    } else if (level == 0 && iequals(word, "arbitrary")) {
      refuse("arbitrary layouts (SLURM_HOSTFILE) do not exist here; -w names the nodes");
    } else if (!word.empty() && word != "*" && !iequals(word, "block")) {
      refuse(level == 0 ? "the layouts are block, cyclic and plane=N"
                        : "a node's CPUs are handed out in order (block) here");
    } else if (level == 0) {
      request.distribution = Distribution::block;
    }
    if (colon == std::string_view::npos || ++level > 2) break;
    rest = rest.substr(colon + 1);
  }
}

std::string process_mapping(const StepLayout& layout) {
  std::vector<std::uint32_t> node_of(layout.tasks, 0);
  for (std::uint32_t k = 0; k < layout.nodes.size(); ++k) {
    for (std::uint32_t id : layout.nodes[k].task_ids) {
      if (id < node_of.size()) node_of[id] = k;
    }
  }
  // (first node, nodes, ranks per node): a run of ranks on one node, merged
  // with the next when that is the next node and holds as many.
  struct Triple {
    std::uint32_t node, nodes, ranks;
  };
  std::vector<Triple> triples;
  for (std::uint32_t r = 0; r < node_of.size();) {
    std::uint32_t run = 1;
    while (r + run < node_of.size() && node_of[r + run] == node_of[r]) ++run;
    Triple& last =
        triples.empty() ? triples.emplace_back(Triple{node_of[r], 0, run}) : triples.back();
    if (last.nodes > 0 && (last.ranks != run || last.node + last.nodes != node_of[r]))
      triples.push_back({node_of[r], 0, run});
    triples.back().nodes += 1;
    r += run;
  }
  std::string out = "(vector";
  for (const Triple& t : triples) out += fmt::format(",({},{},{})", t.node, t.nodes, t.ranks);
  return out + ")";
}

StepLayout layout_step(const std::vector<NodeAlloc>& alloc, const StepRequest& request) {
  StepLayout out;
  const std::uint32_t cpt = std::max<std::uint32_t>(request.cpus_per_task, 1);

  // The nodes the step may use: -w's, in the allocation's order, else all.
  std::vector<std::size_t> usable;
  for (const std::string& name : request.node_names) {
    if (std::none_of(alloc.begin(), alloc.end(),
                     [&](const NodeAlloc& a) { return a.node == name; }))
      throw Error(Errc::node_config_unavailable, "Requested node configuration is not available");
  }
  for (std::size_t i = 0; i < alloc.size(); ++i) {
    if (request.node_names.empty() ||
        std::find(request.node_names.begin(), request.node_names.end(), alloc[i].node) !=
            request.node_names.end())
      usable.push_back(i);
  }
  const auto allocated = static_cast<std::uint32_t>(usable.size());
  if (allocated == 0) throw Error(Errc::node_config_unavailable, "No nodes allocated");

  std::uint32_t nodes = request.nodes.value_or(0);
  if (nodes > allocated)
    throw Error(Errc::invalid_argument,
                fmt::format("Only allocated {} nodes asked for {}", allocated, nodes));

  std::uint32_t tasks = 0;
  if (request.tasks) {
    tasks = *request.tasks;
  } else if (request.tasks_per_node) {
    tasks = *request.tasks_per_node * (nodes ? nodes : allocated);
  } else if (request.nodes) {
    tasks = nodes;  // -N alone: one task on each node, as Slurm runs it
  } else {
    tasks = std::max<std::uint32_t>(request.job_tasks, 1);
  }
  if (tasks == 0) throw Error(Errc::invalid_argument, "Invalid number of tasks: 0");

  if (nodes == 0) {
    // Without -N a step spreads over the allocation, one task per node at least.
    nodes = std::min(allocated, tasks);
    if (request.tasks_per_node)
      nodes = std::min(allocated, (tasks + *request.tasks_per_node - 1) / *request.tasks_per_node);
  } else if (nodes > tasks) {
    out.warning = fmt::format("can't run {} processes on {} nodes, setting nnodes to {}", tasks,
                              nodes, tasks);
    nodes = tasks;
  }

  // How many tasks each node gets: as evenly as the counts allow (block and
  // cyclic), or whole planes in turn; --ntasks-per-node caps each node.
  std::vector<std::vector<std::uint32_t>> ids(nodes);
  if (request.distribution == Distribution::plane) {
    const std::uint32_t plane = std::max<std::uint32_t>(request.plane_size, 1);
    for (std::uint32_t t = 0; t < tasks; ++t) ids[(t / plane) % nodes].push_back(t);
  } else {
    std::vector<std::uint32_t> per_node(nodes, tasks / nodes);
    for (std::uint32_t i = 0; i < tasks % nodes; ++i) per_node[i] += 1;
    if (request.pack && tasks >= nodes) {
      // One task on each node, then each node filled in turn.
      std::uint32_t left = tasks - nodes;
      for (std::uint32_t k = 0; k < nodes; ++k) {
        const std::uint32_t room = alloc[usable[k]].cpus / cpt;
        per_node[k] = 1 + std::min(left, room > 0 ? room - 1 : 0);
        left -= per_node[k] - 1;
      }
      per_node.back() += left;  // more than fits: refused below, as without Pack
    }
    std::uint32_t next = 0;
    if (request.distribution == Distribution::block) {
      for (std::uint32_t k = 0; k < nodes; ++k) {
        for (std::uint32_t t = 0; t < per_node[k]; ++t) ids[k].push_back(next++);
      }
    } else {
      // Cyclic: one to each node that has room left, round and round.
      while (next < tasks) {
        for (std::uint32_t k = 0; k < nodes && next < tasks; ++k) {
          if (ids[k].size() < per_node[k]) ids[k].push_back(next++);
        }
      }
    }
  }
  if (request.tasks_per_node) {
    for (const auto& node_ids : ids) {
      if (node_ids.size() > *request.tasks_per_node)
        throw Error(Errc::invalid_argument, "More processors requested than permitted");
    }
  }

  for (std::uint32_t k = 0; k < nodes; ++k) {
    const NodeAlloc& a = alloc[usable[k]];
    const auto count = static_cast<std::uint32_t>(ids[k].size());
    if (count * cpt > a.cpus && !request.overcommit)
      throw Error(Errc::invalid_argument, "More processors requested than permitted");
    StepNode node;
    node.alloc_index = usable[k];
    node.name = a.node;
    node.task_ids = std::move(ids[k]);
    node.tasks = count;
    for (std::uint32_t t = 0; t < node.tasks; ++t) {
      std::vector<std::uint32_t> cpus;
      // Overcommitted tasks go round the node's CPUs again.
      for (std::uint32_t c = t * cpt; c < (t + 1) * cpt && !a.cpu_ids.empty(); ++c) {
        if (c >= a.cpu_ids.size() && !request.overcommit) break;
        const std::uint32_t id = a.cpu_ids[c % a.cpu_ids.size()];
        if (std::find(cpus.begin(), cpus.end(), id) == cpus.end()) cpus.push_back(id);
      }
      node.task_cpus.push_back(std::move(cpus));
    }
    out.cpus += std::min(node.tasks * cpt, request.overcommit ? a.cpus : node.tasks * cpt);
    out.nodes.push_back(std::move(node));
  }
  out.tasks = tasks;
  return out;
}

}  // namespace stint::sched
