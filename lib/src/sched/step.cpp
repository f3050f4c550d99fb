#include "sched/step.hpp"

#include <algorithm>

#include <fmt/core.h>

#include <stint/error.hpp>

namespace stint::sched {

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

  // Block distribution: tasks fill the nodes in order, as evenly as the counts
  // allow (--ntasks-per-node caps each node).
  std::vector<std::uint32_t> per_node(nodes, tasks / nodes);
  for (std::uint32_t i = 0; i < tasks % nodes; ++i) per_node[i] += 1;
  if (request.tasks_per_node) {
    for (std::uint32_t n : per_node) {
      if (n > *request.tasks_per_node)
        throw Error(Errc::invalid_argument, "More processors requested than permitted");
    }
  }

  std::uint32_t next_task = 0;
  for (std::uint32_t k = 0; k < nodes; ++k) {
    const NodeAlloc& a = alloc[usable[k]];
    if (per_node[k] * cpt > a.cpus)
      throw Error(Errc::invalid_argument, "More processors requested than permitted");
    StepNode node;
    node.alloc_index = usable[k];
    node.name = a.node;
    node.first_task = next_task;
    node.tasks = per_node[k];
    for (std::uint32_t t = 0; t < node.tasks; ++t) {
      std::vector<std::uint32_t> cpus;
      for (std::uint32_t c = t * cpt; c < (t + 1) * cpt && c < a.cpu_ids.size(); ++c)
        cpus.push_back(a.cpu_ids[c]);
      node.task_cpus.push_back(std::move(cpus));
    }
    next_task += node.tasks;
    out.cpus += node.tasks * cpt;
    out.nodes.push_back(std::move(node));
  }
  out.tasks = tasks;
  return out;
}

}  // namespace stint::sched
