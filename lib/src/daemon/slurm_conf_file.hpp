#pragma once
// The slurm.conf stintd keeps in the state directory, which every job finds
// in SLURM_CONF as Slurm's jobs find theirs: the configuration stintd runs
// with (stint.yaml with its `scontrol update PartitionName=` changes), in
// slurm.conf's words, so that a script reading its cluster's settings
// (ClusterName, the nodes, the partitions, DefMemPerCPU, ...) reads this
// cluster's. stint itself reads stint.yaml, never this file.

#include <string>
#include <vector>

#include <stint/config.hpp>

namespace stint::daemon {

/// Slurm's default SlurmctldPort: the port slurm.conf and
/// SLURM_WORKING_CLUSTER name (stintd itself answers on its socket).
inline constexpr int k_slurmctld_port = 6817;

/// Where it is: `<state_dir>/slurm.conf`.
std::string slurm_conf_path(const std::string& state_dir);

/// Its text for `config` on host `host`: ClusterName, SlurmctldHost and
/// SlurmctldPort, every slurm.conf key the file sets to other than Slurm's
/// default (stint's own Stint* keys left out), GresTypes when nodes have GPUs,
/// then one NodeName line per node pool and one PartitionName line per
/// partition.
std::string slurm_conf_text(const Config& config, const std::string& host);

/// The nodes of `pool` among `nodes` (Config::nodes()), in their order.
std::vector<NodeDef> pool_nodes(const std::vector<NodeDef>& nodes, const std::string& pool);

/// A NodeName line (its newline included) for a pool's nodes named `names`:
/// CPUs (with their layout when it is not one socket of single-thread
/// cores), RealMemory, Gres, Features, TmpDisk.
std::string node_conf_line(const NodePool& pool, const std::vector<std::string>& names);

/// A PartitionName line (its newline included) whose nodes are `nodes`: the
/// partition's limits, tiers, preemption and access lists as slurm.conf
/// spells them.
std::string partition_conf_line(const PartitionConfig& p, const std::vector<std::string>& nodes,
                                bool is_default);

/// Writes it (0644, atomically) when its text differs from what is there.
/// Throws Errc::io when it cannot.
void write_slurm_conf(const std::string& state_dir, const Config& config, const std::string& host);

}  // namespace stint::daemon
