#pragma once
// Where the tasks of a job step go (srun inside an allocation): a pure
// function of the allocation and srun's options, as Slurm's block, cyclic
// and plane distributions (srun -m) lay them out.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/model.hpp>

namespace stint::sched {

/// srun -m's first level: how task ids go round the step's nodes.
enum class Distribution : std::uint8_t {
  block,   ///< consecutive ids fill a node, then the next
  cyclic,  ///< one id to each node in turn
  plane,   ///< plane_size consecutive ids to each node in turn
};

/// What srun asks of a step.
struct StepRequest {
  std::optional<std::uint32_t> tasks;           ///< -n
  std::optional<std::uint32_t> nodes;           ///< -N
  std::optional<std::uint32_t> tasks_per_node;  ///< --ntasks-per-node
  std::uint32_t cpus_per_task = 1;              ///< -c
  std::vector<std::string> node_names;          ///< -w (empty: any of the allocation's)
  std::uint32_t job_tasks = 1;                  ///< the job's task count: the default -n
  Distribution distribution = Distribution::block;
  std::uint32_t plane_size = 1;  ///< -m plane=N
  /// -m ...,Pack: each node filled to its CPUs before the next, rather than
  /// the tasks spread evenly (NoPack, the default).
  bool pack = false;
  /// -O: a node may take more tasks than its CPUs; they share them.
  bool overcommit = false;
};

/// One node of a step and its tasks.
struct StepNode {
  std::size_t alloc_index = 0;  ///< index in the job's allocation
  std::string name;
  std::vector<std::uint32_t> task_ids;  ///< the step's task ids (SLURM_PROCID) on this node
  std::uint32_t tasks = 0;
  /// Each task's virtual CPUs on the node (cpus_per_task of the node's CPUs).
  std::vector<std::vector<std::uint32_t>> task_cpus;
};

struct StepLayout {
  std::vector<StepNode> nodes;
  std::uint32_t tasks = 0;
  std::uint32_t cpus = 0;  ///< CPUs the step's tasks use in all
  /// A note srun prints (Slurm's "can't run 1 processes on 2 nodes, setting
  /// nnodes to 1"); empty when none.
  std::string warning;
};

/// -m's text ("cyclic", "plane=4", "block:block,Pack") as a request's
/// distribution; Errc::invalid_argument for a layout steps here do not have.
void read_distribution(std::string_view text, StepRequest& request);

/// PMI_process_mapping ("(vector,(0,2,2))") of a layout: runs of ranks on one
/// node, merged where consecutive nodes hold runs of the same length, as
/// MPICH reads it to learn which ranks share a node.
std::string process_mapping(const StepLayout& layout);

/// Lays a step out over `alloc` (the job's allocation, in node order).
/// Throws Error with Slurm's wording when it cannot be done:
/// Errc::node_config_unavailable for nodes outside the allocation,
/// Errc::invalid_argument for "Only allocated N nodes asked for M" and
/// "More processors requested than permitted".
StepLayout layout_step(const std::vector<NodeAlloc>& alloc, const StepRequest& request);

}  // namespace stint::sched
