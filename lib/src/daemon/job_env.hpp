#pragma once
// What a batch job finds in its environment and where its output goes.

#include <string>
#include <utility>
#include <vector>

#include <stint/config.hpp>
#include <stint/model.hpp>

namespace stint::daemon {

using Environment = std::vector<std::pair<std::string, std::string>>;

/// The job's environment on node `node_index` of its allocation: what was
/// exported at submit, then Slurm's variables (SLURM_JOB_ID ... and
/// CUDA_VISIBLE_DEVICES for the allocated GPUs), which win over exported ones.
/// A run's storages are named by their folders under `state_dir`.
Environment job_environment(const Job& job, const Config& config, std::uint32_t node_index,
                            const std::string& submit_host, const std::string& state_dir = {});

/// A het job's variables, added to its leader's environment: SLURM_HET_SIZE
/// and, for each component (`components`, the leader first, in order), the
/// _HET_GROUP_<n> forms of SLURM_JOB_ID, _NAME, _NODELIST, _NUM_NODES,
/// _CPUS_PER_NODE, _PARTITION, _ACCOUNT, _QOS, _RESERVATION, SLURM_MEM_PER_*
/// and SLURM_TASKS_PER_NODE (slurmctld's _set_het_job_env), and of
/// SLURM_CPUS_PER_TASK, SLURM_NTASKS and SLURM_NPROCS where the component
/// asked (sbatch's), with the _PACK_ forms Slurm still sets. As Slurm's, the
/// plain SLURM_CPUS_PER_TASK goes.
void add_het_environment(Environment& env, const std::vector<const Job*>& components);

/// The absolute output and error paths of a job: its patterns (default
/// slurm-%j.out) expanded, relative ones taken from the working directory.
/// For a run, each node has its own (run-create's pattern names the node, %n).
std::pair<std::string, std::string> output_paths(const Job& job, std::uint32_t node_index = 0);
/// The batch script's standard input (sbatch -i, its patterns expanded,
/// absolute); empty for /dev/null, the default.
std::string input_path(const Job& job);

/// The job's working directory: -D, else the directory it was submitted from.
std::string work_dir(const Job& job);

/// SLURM_WORKING_CLUSTER: "<cluster>:127.0.0.1:6817:9728:109", the shape
/// Slurm gives it (cluster, controller address and port, protocol version,
/// select plugin).
std::string working_cluster(const Config& config);

}  // namespace stint::daemon
