#include <algorithm>

#include <fmt/core.h>

#include <stint/error.hpp>

#include "sched/sched.hpp"

namespace stint::sched {
namespace {

std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return b == 0 ? a : (a + b - 1) / b; }

std::optional<std::uint64_t> conf_mb(const Config& config, std::string_view key) {
  auto v = config.conf(key);
  if (!v || v->empty() || *v == "0" || *v == "UNLIMITED") return std::nullopt;
  try {
    return std::stoull(*v);
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

ResourceRequest make_request(const JobSpec& spec, const std::vector<NodeDef>& partition_nodes,
                             const Config& config) {
  ResourceRequest r;
  r.cpus_per_task = std::max<std::uint32_t>(1, spec.cpus_per_task.value_or(1));
  std::uint32_t largest_node_cpus = 1;
  for (const auto& n : partition_nodes) largest_node_cpus = std::max(largest_node_cpus, n.cpus);

  if (spec.ntasks && *spec.ntasks == 0) throw Error(Errc::invalid_argument, "Invalid --ntasks");
  if (spec.nodes && *spec.nodes == 0) throw Error(Errc::invalid_argument, "Invalid --nodes");

  if (spec.ntasks) {
    r.tasks = *spec.ntasks;
    if (spec.nodes) {
      r.nodes = *spec.nodes;
    } else if (spec.ntasks_per_node && *spec.ntasks_per_node > 0) {
      r.nodes = ceil_div(r.tasks, *spec.ntasks_per_node);
    } else {
      // Like Slurm, spread tasks over as many nodes as their CPUs need.
      r.nodes = std::max<std::uint32_t>(1, ceil_div(r.tasks * r.cpus_per_task, largest_node_cpus));
      r.nodes = std::min(r.nodes, r.tasks);
    }
  } else {
    r.nodes = spec.nodes.value_or(1);
    r.tasks = r.nodes * std::max<std::uint32_t>(1, spec.ntasks_per_node.value_or(1));
  }
  if (r.tasks < r.nodes)
    throw Error(Errc::invalid_argument,
                fmt::format("Number of nodes ({}) exceeds number of tasks ({})", r.nodes, r.tasks));
  r.tasks_per_node = spec.ntasks_per_node && *spec.ntasks_per_node > 0
                         ? std::max(*spec.ntasks_per_node, ceil_div(r.tasks, r.nodes))
                         : ceil_div(r.tasks, r.nodes);
  r.cpus_per_node = r.tasks_per_node * r.cpus_per_task;

  if (spec.mem_per_node_mb) {
    r.whole_node_mem = *spec.mem_per_node_mb == 0;
    r.mem_per_node_mb = *spec.mem_per_node_mb;
  } else if (spec.mem_per_cpu_mb) {
    r.mem_per_cpu_mb = *spec.mem_per_cpu_mb;
    r.mem_per_node_mb = r.mem_per_cpu_mb * r.cpus_per_node;
  } else if (auto per_cpu = conf_mb(config, "DefMemPerCPU")) {
    // Slurm's default stays per CPU (MinMemoryCPU, SLURM_MEM_PER_CPU).
    r.mem_per_cpu_mb = *per_cpu;
    r.mem_per_node_mb = r.mem_per_cpu_mb * r.cpus_per_node;
  } else if (auto per_node = conf_mb(config, "DefMemPerNode")) {
    r.mem_per_node_mb = *per_node;
  } else if (!partition_nodes.empty()) {
    // No memory asked and no default configured: a share of the node's memory
    // in proportion to the CPUs, so small jobs can share a node (Slurm would
    // give the whole node's memory and run them one at a time).
    const NodeDef& n = partition_nodes.front();
    r.mem_per_node_mb =
        std::max<std::uint64_t>(1, n.memory_mb * std::min(r.cpus_per_node, n.cpus) / n.cpus);
  }

  r.gpu_type = spec.gpu_type;
  if (spec.gpus_per_node) {
    r.gpus_per_node = *spec.gpus_per_node;
  } else if (spec.gpus) {
    r.gpus_per_node = ceil_div(*spec.gpus, r.nodes);
  }
  return r;
}

std::optional<Error> never_fits(const ResourceRequest& req,
                                const std::vector<NodeDef>& partition_nodes) {
  std::uint32_t cpu_ok = 0, mem_ok = 0, gpu_ok = 0, all_ok = 0;
  for (const auto& n : partition_nodes) {
    bool cpus = n.cpus >= req.cpus_per_node;
    bool mem = req.whole_node_mem || n.memory_mb >= req.mem_per_node_mb;
    bool gpus = n.gpus >= req.gpus_per_node &&
                (req.gpus_per_node == 0 || req.gpu_type.empty() || req.gpu_type == n.gpu_type);
    cpu_ok += cpus;
    mem_ok += mem;
    gpu_ok += gpus;
    all_ok += cpus && mem && gpus;
  }
  if (all_ok >= req.nodes) return std::nullopt;
  if (gpu_ok < req.nodes)
    return Error(Errc::invalid_gres, "Invalid generic resource (gres) specification");
  if (mem_ok < req.nodes)
    return Error(Errc::node_config_unavailable, "Memory specification can not be satisfied");
  if (cpu_ok < req.nodes)
    return Error(Errc::node_config_unavailable,
                 fmt::format("CPU count per node can not be satisfied ({} CPUs per node requested)",
                             req.cpus_per_node));
  return Error(Errc::node_config_unavailable,
               fmt::format("Node count specification invalid ({} nodes requested, {} fit)",
                           req.nodes, all_ok));
}

}  // namespace stint::sched
