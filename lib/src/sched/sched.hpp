#pragma once
// The scheduler's pure functions: from a job's request and the cluster's free
// resources to a decision. No I/O and no clock: time comes in as `now`.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <stint/config.hpp>
#include <stint/error.hpp>
#include <stint/model.hpp>

namespace stint::sched {

class LimitTracker;      // sched/limits.hpp
struct PreemptRules;     // sched/preempt.hpp
class ReservationRules;  // sched/reservation.hpp

/// The per-node shape a spec asks for, on the nodes of `partition` (their
/// shape decides whole-node memory and the default memory). Throws
/// Errc::invalid_argument for contradictory requests (e.g. more nodes than tasks).
ResourceRequest make_request(const JobSpec& spec, const std::vector<NodeDef>& partition_nodes,
                             const Config& config);

/// What the partition adds to a request: OverSubscribe=EXCLUSIVE gives
/// every job whole nodes.
void apply_partition(ResourceRequest& req, const PartitionConfig& partition);

/// Whether the partition's AllowAccounts/DenyAccounts and AllowQos/DenyQos
/// let a job of that account and QOS in (an allow list, where there is one,
/// decides alone, as slurmctld's _valid_job_part_acct): nullopt if they do,
/// else the error to refuse the submission with.
std::optional<Error> partition_access(const PartitionConfig& partition, std::string_view account,
                                      std::string_view qos);

/// Whether a request could ever run on the partition's nodes when they are all
/// idle (submit-time check); nullopt if it can, else the error to refuse with
/// (its message is the detail line Slurm prints before "submission failed",
/// empty where Slurm prints none).
std::optional<Error> never_fits(const ResourceRequest& req,
                                const std::vector<NodeDef>& partition_nodes);

/// One node's resources and what is in use on it.
struct NodeUsage {
  NodeDef def;
  std::vector<bool> cpu_used;  ///< per virtual CPU
  std::vector<bool> gpu_used;  ///< per GPU
  std::uint64_t mem_used_mb = 0;
  bool available = true;  ///< up (not down or drained)

  explicit NodeUsage(NodeDef d);
  std::uint32_t free_cpus() const;
  std::uint32_t free_gpus() const;
  std::uint64_t free_mem_mb() const;
  bool idle() const;
  void take(const NodeAlloc& a);
  void give_back(const NodeAlloc& a);
};

/// The cluster's nodes by name, in config order.
class Cluster {
 public:
  explicit Cluster(const std::vector<NodeDef>& nodes);
  /// Marks the resources of every active job as used, and keeps the jobs
  /// (the backfill plan needs their expected ends, preemption the jobs).
  void take_jobs(const std::vector<const Job*>& active);
  NodeUsage* find(const std::string& name);
  const NodeUsage* find(const std::string& name) const;
  const std::vector<NodeUsage>& nodes() const { return m_nodes; }
  std::vector<NodeUsage>& nodes() { return m_nodes; }
  const std::vector<const Job*>& jobs() const { return m_jobs; }
  /// Whether every CPU and GPU of `a` is free and its memory fits: a
  /// suspended job may resume only on exactly what it had.
  bool can_take(const NodeAlloc& a) const;
  void give_back(const std::vector<NodeAlloc>& alloc);

 private:
  std::vector<NodeUsage> m_nodes;
  std::vector<const Job*> m_jobs;
};

/// Picks nodes (first fit in config order, lowest CPU and GPU indices) for
/// `req` among the nodes named in `allowed`; nullopt if it does not fit now.
std::optional<std::vector<NodeAlloc>> fit(const ResourceRequest& req, const Cluster& cluster,
                                          const std::vector<std::string>& allowed);

/// The order pending jobs are considered in: partition PriorityTier (higher
/// first), priority (higher first), submit time, job id.
struct QueueKey {
  std::uint32_t priority_tier = 0;
  std::uint32_t priority = 0;
  Seconds submit_time = 0;
  JobId id = 0;
};
// Inline: the pass sorts the whole queue by it, a deep queue calls it millions of times.
inline bool goes_before(const QueueKey& a, const QueueKey& b) {
  if (a.priority_tier != b.priority_tier) return a.priority_tier > b.priority_tier;
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.submit_time != b.submit_time) return a.submit_time < b.submit_time;
  return a.id < b.id;
}

/// The placeholder priority the request handlers give a job whose priority
/// must be computed again (submitted, released, requeued, nice changed): a
/// fixed base lowered by nice, never below 1. stintd's next pass, before it
/// orders the queue, replaces it with the multifactor priority
/// (sched/priority.hpp, sched/priority_state.hpp), which the queue is ordered by.
std::uint32_t job_priority(const Job& job);

/// PreemptMode: what happens to a preempted job.
enum class PreemptMode : std::uint8_t { off, cancel, requeue, suspend };

/// A running job the pass chose to preempt for a pending one.
struct Preemption {
  JobId victim = 0;
  JobId preemptor = 0;
  PreemptMode mode = PreemptMode::cancel;  ///< requeue already falls back to cancel when it must
  Seconds grace_time = 0;
};

/// The reason of each pending job a pass did not start, in queue order. A
/// deep queue gives one per job (100k in a pass), so they are appended to a
/// vector rather than a node per job; a lookup by id (tests, --test-only)
/// builds an index on first use.
class JobReasons {
 public:
  using Item = std::pair<JobId, Reason>;
  void reserve(std::size_t n) { m_items.reserve(n); }
  /// Each job at most once a pass.
  void add(JobId id, Reason reason) { m_items.emplace_back(id, reason); }
  /// Throws std::out_of_range when the job has none.
  Reason at(JobId id) const;
  bool contains(JobId id) const;
  std::size_t size() const { return m_items.size(); }
  bool empty() const { return m_items.empty(); }
  std::vector<Item>::const_iterator begin() const { return m_items.begin(); }
  std::vector<Item>::const_iterator end() const { return m_items.end(); }

 private:
  const std::unordered_map<JobId, std::size_t>& index() const;
  std::vector<Item> m_items;
  mutable std::unordered_map<JobId, std::size_t> m_index;  ///< built by index()
};

struct Decision {
  std::vector<std::pair<JobId, std::vector<NodeAlloc>>> starts;
  JobReasons reasons;  ///< for every pending job that does not start
  /// The expected start of pending jobs the backfill plan placed within
  /// bf_window (squeue --start); others have none.
  struct Planned {
    Seconds start = 0;
    std::vector<std::string> nodes;
  };
  std::map<JobId, Planned> planned_starts;
  std::vector<Preemption> preemptions;
  /// Jobs of `starts` that start with a shorter time limit than they asked
  /// for, down to their --time-min, to fit before a reservation: the limit.
  std::map<JobId, Seconds> time_limits;
};

/// SchedulerType and SchedulerParameters' backfill settings.
struct PassOptions {
  bool backfill = true;              ///< sched/backfill (default); false: sched/builtin
  Seconds window = 86400;            ///< bf_window (minutes in slurm.conf; default one day)
  Seconds resolution = 60;           ///< bf_resolution (seconds)
  std::uint32_t max_job_test = 500;  ///< bf_max_job_test
};
PassOptions pass_options(const Config& config);

/// What a pass needs besides the queue and the cluster.
struct PassContext {
  /// Running tasks of each array (by array job id), for the %N throttle
  /// (reason JobArrayTaskLimit).
  std::map<JobId, std::uint32_t> array_running;
  /// Association and QOS run limits (sched/limits.hpp): a job over one keeps
  /// its reason (AssocMaxJobsLimit, ...) without blocking the jobs behind it,
  /// and each start is counted.
  LimitTracker* limits = nullptr;
  /// Preemption rules (sched/preempt.hpp); nullptr: PreemptType=preempt/none.
  const PreemptRules* preempt = nullptr;
  /// Running jobs already being preempted: their resources are spoken for.
  std::vector<JobId> preempting;
  /// Advance reservations (sched/reservation.hpp); nullptr: none.
  const ReservationRules* reservations = nullptr;
  /// Heterogeneous jobs: the pending components of each (by leader id). A
  /// component starts only beside all of these; a het job not named here is
  /// not held to that (sbatch --test-only asks for one job alone).
  std::map<JobId, std::uint32_t> het_pending;
};

/// One scheduling pass: walks the pending jobs in queue order (goes_before).
/// With sched/backfill every job considered gets the earliest start the plan
/// allows (running jobs end at their time limits, and each job placed before
/// it keeps its place): it starts now if that is now, else its resources are
/// reserved from then on, so a lower job starts early only where it delays
/// none of them. With sched/builtin a job that does not fit blocks the ones
/// behind it in its partition. Either way the first job of a partition that
/// waits has reason Resources, the later ones Priority. A job that cannot
/// start now may preempt lower jobs (`ctx.preempt`): it then waits for them.
/// `cluster` is updated with the starts.
Decision schedule(const std::vector<const Job*>& pending, Cluster& cluster, const Config& config,
                  Seconds now, PassContext ctx);
/// The all-or-nothing rule of heterogeneous jobs, on a pass's decision: the
/// starts of a het job that does not start whole (fewer starts than
/// `het_pending` counts) are withdrawn, and those components wait with
/// reason Resources. Their resources stay taken in the pass's `cluster`, so
/// that no lower job takes what the het job is to get.
void keep_whole_het_jobs(Decision& d, const std::vector<const Job*>& pending,
                         const std::map<JobId, std::uint32_t>& het_pending);
Decision schedule(const std::vector<const Job*>& pending, Cluster& cluster, const Config& config,
                  Seconds now, std::map<JobId, std::uint32_t> array_running = {},
                  LimitTracker* limits = nullptr);

/// Where a job's dependency stands.
enum class DependencyStatus { satisfied, waiting, never };

/// What the dependency check needs to know of a job it names.
struct DependencyView {
  JobId id = 0;
  std::uint32_t array_task_id = k_no_array_task;
  JobState state = JobState::pending;
  Seconds start_time = k_no_time;
  /// An array's record: the tasks it stands for, each in its state.
  const TaskSet* record_tasks = nullptr;
};

/// The jobs a term names: the job itself, or every task of the array
/// `job_id` (empty when no such job exists).
using DependencyLookup = std::function<std::vector<DependencyView>(JobId job_id)>;

/// Whether one of the terms is aftercorr (each array task waits for its own).
bool has_aftercorr(const Dependency& dependency);

/// Evaluates `job`'s dependency at `now`. `singleton_blocked` says whether an
/// earlier job of the same name and user is still unfinished. A job that does
/// not exist never satisfies a term that names it.
DependencyStatus evaluate_dependency(const Job& job, const DependencyLookup& lookup,
                                     bool singleton_blocked, Seconds now);

/// The dependency with the terms that are met taken out, as Slurm does: in a
/// ',' list each met term goes; a '?' list goes whole once one term is met.
Dependency prune_satisfied(const Job& job, const DependencyLookup& lookup, bool singleton_blocked,
                           Seconds now);

}  // namespace stint::sched
