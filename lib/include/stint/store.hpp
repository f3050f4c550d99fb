#pragma once
/// The state database: SQLite in WAL mode, schema versioned by PRAGMA
/// user_version. stintd is the only writer; tools open it read-only and keep
/// working while stintd is down. Nothing outside store/ touches SQL.
///
/// The job's environment and script are not in the database: they live in the
/// job's spool folder, readable by its owner only.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <stint/accounts.hpp>
#include <stint/export.hpp>
#include <stint/model.hpp>

STINT_API_BEGIN
namespace stint {

struct Reservation;  // stint/reservation.hpp

/// A run that executes on a real Slurm cluster (the slurm run backend): the
/// registry's record of it, kept by stintd from what the cluster reports.
struct ClusterRun {
  std::string project;
  std::uint32_t number = 0;
  std::string backend = "slurm";
  std::string login;  ///< where its commands run: "" here, else over ssh
  std::string conf;   ///< SLURM_CONF for them ("" the environment's)
  std::uint64_t cluster_job_id = 0;
  std::uint32_t user_id = 0;
  std::uint32_t group_id = 0;
  std::string user_name;
  JobSpec spec;           ///< as run-create asked, with spec.run numbered
  std::string partition;  ///< the cluster's, as it reports it
  JobState state = JobState::pending;
  std::string cluster_state;  ///< Slurm's own words ("CANCELLED by 0")
  Seconds submit_time = k_no_time;
  Seconds start_time = k_no_time;
  Seconds end_time = k_no_time;
  std::int32_t exit_status = 0;
  std::int32_t exit_signal = 0;
  /// One entry per rank once the cluster placed it: host, ports, and its
  /// step's exit (task_ended).
  std::vector<NodeAlloc> nodes;
  std::vector<std::vector<std::uint16_t>> ports;  ///< per rank, given at submit
  Seconds polled = k_no_time;                     ///< when the cluster was last asked
  /// The cluster was asked once more after the job ended: slurmdbd may hold
  /// a placeholder record for a moment (JobName "allocation", one node) when
  /// the job ended before its start was recorded.
  bool settled = false;
  /// stintd still asks about it.
  bool live() const { return !is_terminal(state) || !settled; }
};

/// A project of runs (run-project): made by run-project create or by its
/// first run.
struct Project {
  std::string name;
  std::uint32_t owner_id = 0;
  std::string owner_name;
  std::string description;
  Seconds created = k_no_time;
  bool operator==(const Project&) const = default;
};

/// Which jobs to read. Empty lists match everything.
struct JobFilter {
  std::vector<JobId> ids;
  std::vector<JobState> states;
  std::vector<std::string> users;  ///< user names
  std::vector<std::string> partitions;
  std::vector<std::string> names;
  std::vector<std::string> accounts;
  bool active_only = false;  ///< pending, running, suspended, completing
  Seconds ended_after = 0;   ///< with !active_only: skip jobs that ended before this
};

/// How much of each job a listing reads. A row's spec (JSON, about 300
/// bytes) and the columns few listings print are most of what SQLite copies
/// out of it (squeue -r of 100,000 pending jobs, bench/RESULTS.md).
enum class JobPart : std::uint8_t {
  whole,
  /// All but the spec (its name is read), the output paths, the CPU times and
  /// memory used, and who cancelled it: those are left as they were
  /// (default-constructed in a fresh Job).
  listing,
};

/// A node's state as an operator (or a failing prolog) set it; a node with
/// none is up. What sinfo -R and scontrol show node print as the reason.
/// DRAIN is a flag in Slurm that a DOWN node keeps: down_drain is both (it
/// takes no jobs as down, and RESUME clears both). Stored by number.
enum class NodeAdminState : std::uint8_t { up, drain, down, down_drain };
/// DOWN, with or without DRAIN: its jobs are killed and it runs nothing.
inline bool is_down(NodeAdminState s) {
  return s == NodeAdminState::down || s == NodeAdminState::down_drain;
}
/// DRAIN, with or without DOWN.
inline bool is_drain(NodeAdminState s) {
  return s == NodeAdminState::drain || s == NodeAdminState::down_drain;
}

struct NodeStatus {
  std::string name;
  NodeAdminState state = NodeAdminState::up;
  std::string reason;
  std::uint32_t user_id = 0;  ///< who set it
  std::string user_name;
  Seconds since = k_no_time;  ///< when
  bool operator==(const NodeStatus&) const = default;
};

class Store {
 public:
  enum class Mode { read_only, read_write };

  /// Opens (read_write: creating and migrating) the database at `path`.
  /// read_only on a missing file throws Errc::store; callers that may run
  /// before stintd ever did use Store::exists first.
  static std::unique_ptr<Store> open(const std::string& path, Mode mode);
  static bool exists(const std::string& path);
  /// The calling thread's read-only connection to the database at `path`,
  /// opened as open(path, read_only) does on first use and kept while the
  /// thread asks for that path and the file is the same one (a database
  /// created anew there is opened anew). A tool's reads (its configuration,
  /// its jobs, its nodes) share one connection: the schema is parsed and the
  /// WAL index mapped once, not once per query. Each statement still reads
  /// the latest commit.
  static std::shared_ptr<Store> reader(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  /// The schema version this build writes, and the one in the file.
  static int current_schema_version();
  int schema_version();

  /// How a commit reaches the disk. The database runs WAL with
  /// synchronous=NORMAL: a power cut may lose the last commits (never corrupt
  /// the file). A durable commit (synchronous=FULL for it) is on disk before
  /// commit() returns: for what is acknowledged to a user, a submission.
  enum class Sync { normal, durable };

  /// A write transaction (BEGIN IMMEDIATE); rolled back unless committed.
  class Transaction {
   public:
    explicit Transaction(Store& s, Sync sync = Sync::normal);
    ~Transaction();
    void commit();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

   private:
    Store& m_store;
    Sync m_sync;
    bool m_done = false;
  };

  // Writes (stintd only).
  /// Copies the WAL's pages into the database (a passive checkpoint) once the
  /// WAL holds `min_pages` or more; the writer's commits never do it
  /// themselves (stintd calls this after it has answered). True if it ran
  /// and succeeded; a failure is retried after the next commit.
  bool checkpoint_if_due(int min_pages);
  /// Empties the WAL file into the database (a truncating checkpoint) once
  /// nothing has been written for `quiet`, so that at rest the state
  /// directory holds the database alone, not the last burst's log as well.
  /// A tool still reading an older snapshot is not waited for: the attempt
  /// gives up at once and is made again a `quiet` later. True if it emptied it.
  bool empty_wal_when_quiet(std::chrono::milliseconds quiet);
  /// The next job id (kept in the meta table; first id is 1).
  JobId allocate_job_id();
  /// `count` consecutive ids at once (the tasks of an array); the first.
  JobId allocate_job_ids(std::uint32_t count);
  /// The first of `count` consecutive ids in [from, limit) that no job in the
  /// database has, the lowest such; none if the range has no such gap. Used
  /// once the sequence wraps at MaxJobId: an id is never given twice while
  /// its job is on record.
  std::optional<JobId> free_job_ids(JobId from, JobId limit, std::uint32_t count);
  struct PurgedJobs {
    std::vector<JobId> jobs;     ///< the jobs removed (their spool folders can go)
    std::vector<JobId> scripts;  ///< the script ids no job left names (scripts.db)
  };
  /// Removes at most `max` ended jobs submitted at or before `submitted_by`
  /// (slurmdbd's PurgeJobAfter), with their attempts, steps and array texts;
  /// jobs that are runs are kept (runs are the record of an experiment).
  PurgedJobs purge_jobs(Seconds submitted_by, std::size_t max);
  /// Removes at most `max` ended steps started at or before `started_by`
  /// (PurgeStepAfter); the number removed.
  std::size_t purge_steps(Seconds started_by, std::size_t max);
  /// Rewrites the database into the fewest pages (VACUUM); readers go on
  /// reading meanwhile (WAL). Not inside a transaction.
  void compact();
  void insert_job(const Job& job);
  /// Inserts jobs submitted together. The tasks of one array (consecutive,
  /// same array_job_id) must share their request, spec and dependency, as the
  /// tasks of one submission do: those are serialised once, from the first.
  void insert_jobs(const std::vector<Job>& jobs);
  /// Removes the rows insert_jobs wrote for the `count` jobs from `first` (a
  /// submission undone after its commit: its script did not reach the disk).
  void remove_jobs(JobId first, std::uint32_t count);
  void update_job(const Job& job);

  // Submissions by token (store/submissions.cpp). A client sends a token it
  // made up with each submission; the token is kept, under the submitting
  // user, in the transaction that adds the jobs. A client that lost stintd's
  // answer (stintd killed between its commit and its reply) sends the same
  // submission again and is given what the first one made, not a second job.
  struct Submission {
    /// The job (an array's or het job's first), or a cluster run's cluster job.
    std::uint64_t job_id = 0;
    std::string run;  ///< the run's name, for a run
  };
  std::optional<Submission> submission(std::uint32_t user_id, const std::string& token);
  void add_submission(std::uint32_t user_id, const std::string& token, const Submission& made,
                      Seconds at);
  void remove_submission(std::uint32_t user_id, const std::string& token);
  /// Forgets the tokens kept since before `made_before` (a client asks again
  /// within seconds); the number forgotten.
  std::size_t purge_submissions(Seconds made_before);

  void set_meta(const std::string& key, const std::string& value);
  /// Keeps an ended attempt of a job that is about to be requeued (its
  /// restart_count numbers the attempt), for sacct --duplicates.
  void insert_attempt(const Job& ended_attempt);

  // Reads.
  std::optional<Job> job(JobId id);
  /// The tasks of array `array_job_id`, in task order (uses an index).
  std::vector<Job> array_tasks(JobId array_job_id);
  /// The runs of `project` (every project when empty), by run number.
  std::vector<Job> run_jobs(const std::string& project);
  /// The longest name of a run's job squeue lists (not ended, or ended at or
  /// after `ended_after`); 0 when there is none.
  std::size_t longest_run_name(Seconds ended_after);
  /// The highest run number of `project` so far (0: none), of either backend.
  std::uint32_t max_run_number(const std::string& project);

  // The registry of cluster runs (store/cluster_runs.cpp).
  /// Inserts a new one or replaces the record of (project, number).
  void save_cluster_run(const ClusterRun& run);
  /// The cluster runs of `project` (every project when empty), by number.
  std::vector<ClusterRun> cluster_runs(const std::string& project);
  /// The cluster runs that have not ended (stintd follows them).
  std::vector<ClusterRun> live_cluster_runs();

  // Projects and deleted runs (store/projects.cpp).
  /// Inserts `project` unless one of that name exists; returns whether it did.
  bool add_project(const Project& project);
  std::optional<Project> project(const std::string& name);
  /// Every project, by name.
  std::vector<Project> projects();
  /// Marks a run deleted: run_jobs and cluster_runs leave it out from now on;
  /// its job stays (sacct, usage, run numbers).
  void delete_run(const std::string& project, std::uint32_t number, std::uint32_t deleted_by,
                  Seconds at);
  /// Removes the project's record (run-project delete; its runs are deleted
  /// one by one with delete_run first); returns whether there was one.
  bool delete_project(const std::string& name);
  /// Matching jobs in id order.
  std::vector<Job> jobs(const JobFilter& filter);
  /// Calls `visit` with each matching job in id order, one at a time: the
  /// job it is given is overwritten by the next, so a listing of 100,000
  /// jobs holds one, not 100,000 (keep what is needed of each), and reads
  /// `part` of each.
  void each_job(const JobFilter& filter, const std::function<void(const Job&)>& visit,
                JobPart part = JobPart::whole);
  std::size_t job_count();
  /// Whether any job is pending, running, suspended or completing: one row
  /// read through the state index.
  bool has_unfinished_jobs();
  /// Every attempt of a job, oldest first, the current one last; empty if the
  /// job does not exist.
  std::vector<Job> attempts(JobId id);
  std::optional<std::string> meta(const std::string& key);

  // Usage for fair share (store/usage.cpp).
  /// Every run that started and has not ended by `ended_after` (it ended
  /// later, or runs on), in (job, attempt) order; only the jobs `ids` names
  /// when it is not empty. The TRES are the allocation's.
  std::vector<JobRun> job_runs(Seconds ended_after, const std::vector<JobId>& ids = {});
  /// Every (user name, account) pair jobs were charged to, sorted.
  std::vector<std::pair<std::string, std::string>> job_associations();
  /// Writes a job's priority and eligible (accrue) time only: what stintd's
  /// priority calculation changes, without rewriting the whole row.
  void update_job_priority(JobId id, std::uint32_t priority, Seconds eligible_time);
  /// Writes what ending pending jobs changes (state, reason, start and end
  /// times, cancelled_by) and nothing else of their rows: scancel of a deep
  /// queue need not encode every job's spec again. One statement for all.
  void update_ended_pending(const std::vector<const Job*>& jobs);

  // Job steps (srun; store/steps.cpp).
  /// The next step id of the job's current attempt (0 for the first).
  std::uint32_t next_step_id(JobId job, std::uint32_t attempt);
  /// Inserts or replaces the step of that (job, attempt, step id).
  void put_step(const JobStep& step);
  /// Ends every step of the attempt still running with `state` at `end`: the
  /// steps a job's end took down without their srun saying so.
  void end_running_steps(JobId job, std::uint32_t attempt, JobState state, Seconds end);
  /// The steps of the jobs `ids` (every job when empty), by (job, attempt, step).
  std::vector<JobStep> steps(const std::vector<JobId>& ids);

  // Node states and partition overrides (scontrol update; store/nodes.cpp).
  /// Every node that is not up, by name.
  std::vector<NodeStatus> node_states();
  /// Writes a node's state; an up node's row is deleted.
  void put_node_state(const NodeStatus& status);
  /// Partition settings changed by scontrol update: partition name and its
  /// settings as JSON text (config.hpp's PartitionOverride), by name.
  std::vector<std::pair<std::string, std::string>> partition_overrides();
  /// Writes (or, with empty `settings_json`, deletes) one partition's overrides.
  void put_partition_override(const std::string& name, const std::string& settings_json);
  /// Node features set by `scontrol update NodeName= AvailableFeatures=`
  /// (Config::node_features), by node name.
  std::map<std::string, std::vector<std::string>> node_features();
  /// Sets one node's; nullopt removes them (the pool's hold again).
  void put_node_features(const std::string& name,
                         const std::optional<std::vector<std::string>>& features);

  // Advance reservations (scontrol create reservation; store/reservations.cpp).
  /// Every reservation, by name.
  std::vector<Reservation> reservations();
  /// Inserts or replaces the reservation of that name.
  void put_reservation(const Reservation& reservation);
  void delete_reservation(const std::string& name);

  // Accounts, users, associations and QOS (sacctmgr; store/accounts.cpp).
  // Writes are stintd's, inside a Transaction; nothing here checks the
  // records against each other (the daemon's sacctmgr handlers do).
  /// Every record, accounts and users by name, associations and QOS by id.
  Accounting accounting();
  /// Inserts or replaces the account of that name.
  void put_account(const Account& account);
  void delete_account(const std::string& name);
  /// Inserts or replaces the user of that name.
  void put_user(const User& user);
  void delete_user(const std::string& name);
  /// Inserts an association with id 0 (returning its new id), else replaces
  /// the one with its id. Throws Errc::store for a second association of the
  /// same (account, user, partition).
  std::int64_t put_association(const Association& association);
  void delete_association(std::int64_t id);
  /// Inserts a QOS with id 0 (returning its new id), else replaces by id.
  std::int64_t put_qos(const Qos& qos);
  void delete_qos(std::int64_t id);

 private:
  struct Impl;
  /// Adds the association a job names to job_associations, unless known.
  void record_association(const Job& job);
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace stint
STINT_API_END
