#pragma once
/// The read side: what squeue, sinfo, sacct and scontrol show. Jobs come from
/// the database opened read-only (stintd need not run; a state directory where
/// stintd never ran shows empty queues), the cluster from stint.yaml, and the
/// node view is derived from both. The records here are plain data, so the
/// formatters (format.hpp) take them as they are and tests build them by hand.

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <stint/config.hpp>
#include <stint/export.hpp>
#include <stint/model.hpp>
#include <stint/paths.hpp>
#include <stint/reservation.hpp>
#include <stint/store.hpp>

STINT_API_BEGIN
namespace stint::query {

/// A node's state as sinfo and scontrol name it (format.hpp has the names).
enum class NodeState : std::uint8_t {
  idle,        ///< nothing allocated
  mixed,       ///< some CPUs allocated
  allocated,   ///< every CPU allocated
  completing,  ///< a job on it is completing
  down,        ///< not usable
  drained,     ///< taken out of service, empty
  draining,    ///< taken out of service, jobs still running
};

/// One node of the cluster with what the active jobs hold on it.
struct NodeInfo {
  std::string name;
  std::string addr;  ///< NodeAddr: its own address (config.hpp's NodeDef)
  std::string pool_id;
  std::uint32_t cpus = 0;
  std::uint32_t cpus_alloc = 0;
  std::uint64_t memory_mb = 0;
  std::uint64_t memory_alloc_mb = 0;
  std::uint32_t gpus = 0;
  std::string gpu_type;
  std::vector<std::uint32_t> gpu_ids_alloc;  ///< sorted
  std::vector<std::string> features;         ///< its pool's, for -C/--constraint
  std::uint64_t tmp_disk_mb = 0;             ///< its pool's TmpDisk, for --tmp
  std::uint32_t sockets = 1;                 ///< its pool's layout of its CPUs
  std::uint32_t threads_per_core = 1;
  NodeState state = NodeState::idle;
  /// What the allocations alone make it (idle, mixed, allocated, completing):
  /// scontrol prints it before "+DRAIN".
  NodeState alloc_state = NodeState::idle;
  NodeAdminState admin = NodeAdminState::up;  ///< as scontrol update set it
  std::string reason;                         ///< why it is down or drained
  std::string reason_user;                    ///< who said so
  std::uint32_t reason_uid = 0;
  Seconds reason_time = k_no_time;      ///< when
  std::vector<std::string> partitions;  ///< in config order
  std::vector<JobId> jobs;              ///< active jobs holding resources here
  Seconds last_busy = k_no_time;        ///< latest start of those jobs
  bool reserved = false;                ///< in a reservation that holds it now (RESERVED)
  bool maint = false;                   ///< in a MAINT reservation that holds it now (MAINT, '$')
};

/// One partition with the totals of its nodes.
struct PartitionInfo {
  std::string name;
  bool is_default = false;
  PartitionState state = PartitionState::up;
  Seconds max_time = k_infinite;
  std::optional<Seconds> default_time;
  std::uint32_t priority_tier = 1;
  std::optional<std::uint32_t> priority_job_factor;  ///< PriorityJobFactor; unset: the tier
  std::vector<std::string> nodes;                    ///< node names in config order
  std::uint32_t total_cpus = 0;
  std::uint64_t total_memory_mb = 0;
  std::uint32_t total_gpus = 0;
  std::string over_subscribe = "NO";        ///< OverSubscribe= as scontrol prints it
  std::vector<std::string> allow_accounts;  ///< empty: ALL
  std::vector<std::string> deny_accounts;
  std::vector<std::string> allow_qos;  ///< empty: ALL
  std::vector<std::string> deny_qos;
};

/// The node view: every configured node, with the allocations of the active
/// jobs in `jobs` (terminal jobs are ignored) and the states operators set
/// (`states`: a drained node with jobs is draining). Pure; no I/O.
std::vector<NodeInfo> nodes(const Config& config, const std::vector<Job>& jobs,
                            const std::vector<NodeStatus>& states = {});
/// Marks the nodes the reservations hold at `now` RESERVED, and MAINT for a
/// MAINT reservation, as slurmctld flags them. Pure.
void mark_reserved(std::vector<NodeInfo>& nodes, const std::vector<Reservation>& reservations,
                   Seconds now);
/// Every configured partition in config order. Pure; no I/O.
std::vector<PartitionInfo> partitions(const Config& config);

/// The cluster config as stintd runs it: while stintd runs, the config it
/// loaded last (it keeps a copy in the database, so an edited stint.yaml shows
/// only after `scontrol reconfigure`), else stint.yaml (written with
/// autodetected defaults on first use); with the partition settings
/// `scontrol update` changed. Never needs stintd.
Config read_config(const Paths& paths);
/// Whether what the database shows may be out of date: no stintd runs for
/// the state directory while it records unfinished jobs, whose ends nobody
/// collects. An idle state directory is not stale (a personal stintd exits
/// when idle), nor is one where stintd never ran. Never throws.
bool state_may_be_stale(const Paths& paths) noexcept;
/// The node states operators set (scontrol update NodeName=), by name.
std::vector<NodeStatus> read_node_states(const Paths& paths);
/// Jobs matching `filter` in id order, read-only; a missing database (stintd
/// never ran) yields no jobs rather than an error.
std::vector<Job> read_jobs(const Paths& paths, const JobFilter& filter);
/// Store::each_job on the state directory's database: each job matching
/// `filter` in id order, one at a time; none when stintd never ran.
void each_job(const Paths& paths, const JobFilter& filter,
              const std::function<void(const Job&)>& visit, JobPart part = JobPart::whole);
/// Whether a job with this id was ever recorded.
bool job_exists(const Paths& paths, JobId id);
/// Every reservation, in the order slurmctld lists them (by id: the order
/// they were made in); none when stintd never ran.
std::vector<Reservation> read_reservations(const Paths& paths);

/// A job named on a command line: `12` is job 12 or, when 12 is an array job
/// id, every task of that array; `12_3` is task 3 of array 12 (Slurm's -j).
struct JobRef {
  JobId id = 0;
  std::uint32_t array_task = k_no_array_task;  ///< k_no_array_task: the whole job or array
  /// A het job's leader id names all its components; "12+0" names the
  /// leader alone (false).
  bool whole_het = true;
  bool operator==(const JobRef&) const = default;
};
/// "12" or "12_3", as the user wrote it and as stintd's requests take it.
std::string job_ref_text(const JobRef& ref);
/// Whether `job` is the job, or one of the tasks, that `ref` names. A task is
/// also named by its own job id.
bool matches(const JobRef& ref, const Job& job);
/// The jobs `refs` name, in order: an array's record named whole stays one
/// job; its tasks named one by one ("12_3") become those tasks
/// (array_task_of), as squeue -j 12_3 shows them.
std::vector<Job> named_jobs(std::vector<Job> jobs, const std::vector<JobRef>& refs);
/// Jobs matching `filter` and, unless `refs` is empty, one of `refs`, in id
/// order; `filter.ids` is not used.
std::vector<Job> read_jobs(const Paths& paths, JobFilter filter, const std::vector<JobRef>& refs);
/// Whether any job `ref` names was ever recorded.
bool job_exists(const Paths& paths, const JobRef& ref);
/// Every attempt of each of `jobs` (sacct --duplicates), oldest first and the
/// job as it is now last. An earlier attempt keeps the state it ended in
/// (PREEMPTED, NODE_FAIL...); one that was stopped while it ran reads REQUEUED.
std::vector<Job> with_attempts(const Paths& paths, const std::vector<Job>& jobs);
/// The srun steps of `jobs` (of every attempt), for sacct.
std::vector<JobStep> job_steps(const Paths& paths, const std::vector<Job>& jobs);
/// The job ids named by the dependencies of `jobs` that are array job ids, so
/// a term on a whole array prints "afterok:12_*" (format::Context::array_jobs).
std::set<JobId> dependency_arrays(const Paths& paths, const std::vector<Job>& jobs);

/// What sinfo and scontrol show node and partition views from.
struct ClusterView {
  Config config;
  std::vector<Job> active_jobs;
  std::vector<NodeStatus> node_states;
  std::vector<Reservation> reservations;
  std::vector<NodeInfo> nodes;  ///< with the reservations' marks at the time read
  std::vector<PartitionInfo> partitions;
};
/// Config, active jobs and the derived node and partition views.
ClusterView read_cluster(const Paths& paths);

}  // namespace stint::query
STINT_API_END
