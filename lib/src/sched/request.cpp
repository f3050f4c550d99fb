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

[[noreturn]] void refuse_gpus(std::string_view why) {
  // slurmctld's gres_job_state_validate logs why; the submission fails with
  // the GRES error. The why is worth a line of its own here.
  throw Error(Errc::invalid_gres, fmt::format("Failed to validate job spec{}", why));
}

// The task count, -n or what the GPU options make of it (select/cons_tres's
// rules for --gpus-per-task and --ntasks-per-gpu); nullopt when neither says.
std::optional<std::uint32_t> task_count_from_gpus(const JobSpec& spec) {
  const JobOptions& more = spec.options();
  std::optional<std::uint32_t> ntasks = spec.ntasks;
  if (more.gpus_per_task) {
    const std::uint32_t per_task = *more.gpus_per_task;
    if (spec.gpus) {
      if (per_task == 0 || *spec.gpus % per_task != 0) {
        refuse_gpus(", --gpus not multiple of --gpus-per-task");
      }
      const std::uint32_t tasks = *spec.gpus / per_task;
      if (ntasks && *ntasks != tasks) {
        refuse_gpus(
            ". Based on --gpus and --gpus-per-task number of requested tasks differ from "
            "-n/--ntasks.");
      }
      ntasks = tasks;
    } else if (!ntasks) {
      refuse_gpus(". --gpus-per-task used without either --gpus or -n/--ntasks is not allowed.");
    }
  }
  if (more.ntasks_per_gpu) {
    const std::uint32_t per_gpu = *more.ntasks_per_gpu;
    if (ntasks && *ntasks % per_gpu != 0) {
      refuse_gpus(", -n/--ntasks has to be a multiple of --ntasks-per-gpu.");
    }
    if (!ntasks) {
      const std::uint32_t nodes = spec.nodes.value_or(1);
      const std::uint32_t gpus = spec.gpus            ? *spec.gpus
                                 : spec.gpus_per_node ? *spec.gpus_per_node * nodes
                                                      : 0;
      if (gpus > 0) ntasks = gpus * per_gpu;
    }
  }
  return ntasks;
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

  const JobOptions& more = spec.options();
  const std::optional<std::uint32_t> ntasks = task_count_from_gpus(spec);
  // --gpus (a total) without --nodes: as many nodes as the GPUs need, as
  // Slurm's cons_tres spreads them, each of the partition's largest (of the
  // type asked for). Each node then holds the same count, the total rounded up.
  std::uint32_t nodes_for_gpus = 1;
  if (spec.gpus && *spec.gpus > 0 && !spec.nodes) {
    std::uint32_t largest_node_gpus = 0;
    for (const auto& n : partition_nodes) {
      if (spec.gpu_type.empty() || spec.gpu_type == n.gpu_type)
        largest_node_gpus = std::max(largest_node_gpus, n.gpus);
    }
    if (largest_node_gpus > 0) nodes_for_gpus = ceil_div(*spec.gpus, largest_node_gpus);
  }

  // A virtual node has one socket: tasks per socket are tasks per node.
  std::optional<std::uint32_t> tasks_per_node = spec.ntasks_per_node;
  if (!tasks_per_node && more.ntasks_per_socket) tasks_per_node = more.ntasks_per_socket;
  if (ntasks) {
    r.tasks = *ntasks;
    if (spec.nodes) {
      r.nodes = *spec.nodes;
    } else if (tasks_per_node && *tasks_per_node > 0) {
      r.nodes = ceil_div(r.tasks, *tasks_per_node);
    } else if (more.spread_job) {
      // --spread-job: a task per node, on as many nodes as the partition has.
      r.nodes = std::min<std::uint32_t>(
          r.tasks, std::max<std::uint32_t>(1, static_cast<std::uint32_t>(partition_nodes.size())));
    } else {
      // Like Slurm, spread tasks over as many nodes as their CPUs need.
      r.nodes = std::max<std::uint32_t>(1, ceil_div(r.tasks * r.cpus_per_task, largest_node_cpus));
      r.nodes = std::min(std::max(r.nodes, nodes_for_gpus), r.tasks);
    }
  } else {
    r.nodes = spec.nodes.value_or(nodes_for_gpus);
    r.tasks = r.nodes * std::max<std::uint32_t>(1, spec.ntasks_per_node.value_or(1));
  }
  if (r.tasks < r.nodes)
    throw Error(Errc::invalid_argument,
                fmt::format("Number of nodes ({}) exceeds number of tasks ({})", r.nodes, r.tasks));
  r.tasks_per_node = spec.ntasks_per_node && *spec.ntasks_per_node > 0
                         ? std::max(*spec.ntasks_per_node, ceil_div(r.tasks, r.nodes))
                         : ceil_div(r.tasks, r.nodes);
  // -O/--overcommit: tasks may outnumber CPUs; a node gives one task's CPUs.
  r.cpus_per_node = (more.overcommit ? 1 : r.tasks_per_node) * r.cpus_per_task;
  // One task per core (--hint=nomultithread, --threads-per-core=1) on nodes
  // with several threads per core: Slurm allocates whole cores, so each
  // task's CPUs come with their sibling threads.
  if (!partition_nodes.empty() && partition_nodes.front().threads_per_core > 1 &&
      (more.hint == "nomultithread" || (more.threads_per_core && *more.threads_per_core == 1))) {
    r.cpus_per_node *= partition_nodes.front().threads_per_core;
  }
  // --mincpus: each node gives the job at least that many CPUs.
  if (more.mincpus) r.cpus_per_node = std::max(r.cpus_per_node, *more.mincpus);

  r.gpu_type = spec.gpu_type;
  if (spec.gpus_per_node) {
    r.gpus_per_node = *spec.gpus_per_node;
  } else if (more.gpus_per_task) {
    r.gpus_per_node = *more.gpus_per_task * r.tasks_per_node;
  } else if (spec.gpus) {
    r.gpus_per_node = ceil_div(*spec.gpus, r.nodes);
  } else if (more.gpus_per_socket) {
    // A virtual node has one socket (scontrol show node: Sockets=1).
    r.gpus_per_node = *more.gpus_per_socket;
  } else if (more.ntasks_per_gpu) {
    // -n with --ntasks-per-gpu: a GPU for every N tasks.
    r.gpus_per_node = ceil_div(ceil_div(r.tasks, *more.ntasks_per_gpu), r.nodes);
  }
  // CPUs and memory that follow the GPUs (select/cons_tres's cpus_per_tres
  // and mem_per_tres).
  if (more.cpus_per_gpu && r.gpus_per_node > 0) {
    r.cpus_per_node = std::max(r.cpus_per_node, *more.cpus_per_gpu * r.gpus_per_node);
  }

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

  if (more.mem_per_gpu_mb && !spec.mem_per_node_mb && !spec.mem_per_cpu_mb) {
    r.mem_per_node_mb = *more.mem_per_gpu_mb * std::max<std::uint32_t>(1, r.gpus_per_node);
    r.mem_per_cpu_mb = 0;  // not DefMemPerCPU's: the memory follows the GPUs
  }
  // --exclusive[=user|mcs]: whole nodes (=user and =mcs too: nodes are
  // never shared with another job, not even the same user's). Without a
  // memory of its own the job holds all of each node's.
  if (more.exclusive != Exclusive::unset) {
    r.whole_nodes = true;
    if (!spec.mem_per_node_mb && !spec.mem_per_cpu_mb && !more.mem_per_gpu_mb) {
      r.whole_node_mem = true;
      r.mem_per_node_mb = 0;
      r.mem_per_cpu_mb = 0;
    }
  }
  return r;
}

void apply_partition(ResourceRequest& req, const PartitionConfig& partition) {
  if (partition.over_subscribe == "EXCLUSIVE") req.whole_nodes = true;
}

std::optional<Error> partition_access(const PartitionConfig& partition, std::string_view account,
                                      std::string_view qos) {
  auto listed = [](const std::vector<std::string>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  auto admitted = [&](const std::vector<std::string>& allow, const std::vector<std::string>& deny,
                      std::string_view name) {
    return allow.empty() ? !listed(deny, name) : listed(allow, name);
  };
  if (!admitted(partition.allow_accounts, partition.deny_accounts, account))
    return Error(Errc::invalid_account, std::string(errc_slurm_message(Errc::invalid_account)));
  if (!admitted(partition.allow_qos, partition.deny_qos, qos))
    return Error(Errc::invalid_qos, std::string(errc_slurm_message(Errc::invalid_qos)));
  return std::nullopt;
}

std::optional<Error> never_fits(const ResourceRequest& req,
                                const std::vector<NodeDef>& partition_nodes) {
  // Slurm says only "Requested node configuration is not available" for too
  // many nodes or CPUs (the tools add the partition's shape after it), and
  // names memory and GRES in a line of their own before it.
  const Error unavailable(Errc::node_config_unavailable, "");
  if (partition_nodes.size() < req.nodes) return unavailable;
  std::uint32_t mem_ok = 0, gpu_ok = 0, all_ok = 0;
  for (const auto& n : partition_nodes) {
    bool cpus = n.cpus >= req.cpus_per_node;
    bool mem = req.whole_node_mem || n.memory_mb >= req.mem_per_node_mb;
    bool gpus = n.gpus >= req.gpus_per_node &&
                (req.gpus_per_node == 0 || req.gpu_type.empty() || req.gpu_type == n.gpu_type);
    mem_ok += mem;
    gpu_ok += gpus;
    all_ok += cpus && mem && gpus;
  }
  if (all_ok >= req.nodes) return std::nullopt;
  if (gpu_ok < req.nodes)
    return Error(Errc::invalid_gres, "Invalid generic resource (gres) specification");
  if (mem_ok < req.nodes)
    return Error(Errc::node_config_unavailable, "Memory specification can not be satisfied");
  return unavailable;
}

}  // namespace stint::sched
