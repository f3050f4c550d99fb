#pragma once
// The controller's state and its operations: what stintd holds in memory (the
// jobs that are not finished) and every change to it, each written through to
// the store before the request that caused it is answered.

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include <stint/accounts.hpp>
#include <stint/config.hpp>
#include <stint/model.hpp>
#include <stint/paths.hpp>
#include <stint/reservation.hpp>
#include <stint/run.hpp>
#include <stint/store.hpp>

#include "daemon/mail.hpp"
#include "sched/priority_state.hpp"
#include "sched/sched.hpp"
#include "stepd/signal_target.hpp"
#include "util/clock.hpp"

namespace stint {
struct TaskResult;  // stepd/launch.hpp
class ScriptStore;  // store/scripts.hpp
class Background;   // util/background.hpp
}  // namespace stint
namespace stint::sched {
class Cluster;
}

namespace stint::daemon {

class StepdForks;  // daemon/stepd_forks.hpp
class Mailer;      // daemon/mailer.hpp

/// Who sent a request, from SO_PEERCRED.
struct Caller {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::int64_t pid = 0;
};

class Controller {
 public:
  Controller(Paths paths, Config config, std::unique_ptr<Store> store, const Clock& clock);
  ~Controller();
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  /// Handles one request and returns the reply ({"ok": true, ...}); a refused
  /// request is thrown as stint::Error and changes nothing.
  nlohmann::json handle(const nlohmann::json& request, const Caller& caller);

  /// Loads the unfinished jobs and reconciles RUNNING ones with what is alive:
  /// result files are collected, tasks whose stepd vanished end NODE_FAIL.
  void recover();
  /// Empties and removes `folder` (a storage renamed for deletion) in a child
  /// process, as `owner` when stintd is root; the folder goes once the child
  /// has ended (storage_removal.cpp). Never waited for on the request path: a
  /// user may stop that child, or give it a million files.
  void remove_storage_later(const std::string& folder, std::uint32_t owner);
  /// run-storage delete: the storage `name` (at `folder`, owned by `owner`)
  /// is renamed out of the list at once and removed later.
  void delete_storage(const std::string& folder, const std::string& name, std::uint32_t owner);
  /// Starts the removals a previous stintd left unfinished.
  void resume_storage_removals();
  /// Whether `pid` was a storage removal's child; if so, finishes it.
  bool storage_removal_ended(std::int64_t pid, int status);
  /// Runs a scheduling pass and starts what fits.
  void schedule();
  /// How long the last pass took to decide, up to the starts (which it then
  /// carries out): what grows with the queue (server.cpp spaces passes by it).
  std::chrono::steady_clock::duration last_decision_cost() const { return m_decision_cost; }
  /// Collects the results of ended tasks; true if any job changed.
  bool collect();
  /// A stepd this process started has exited (from SIGCHLD, or the fork
  /// server's notice); a mailer's end (with its wait status) is the mailer's.
  void stepd_exited(std::int64_t pid, int status = 0);
  /// The fork server's socket, for the loop to poll (-1 when none runs),
  /// and the reading of its exit notices when it is readable.
  int stepd_forks_fd() const;
  void read_stepd_exits();

  /// Purges the jobs and steps PurgeJobAfter and PurgeStepAfter say are old
  /// enough, a batch at a time (purge.cpp), and the submission tokens of a
  /// day ago; true when a batch was full and more may be due.
  bool purge_records();
  /// Rewrites stint.db and scripts.db into their fewest pages.
  void compact_store();
  /// Empties the WAL files of stint.db and scripts.db, each once it has not
  /// been written for `quiet` (Store::empty_wal_when_quiet).
  void empty_wals_when_quiet(std::chrono::milliseconds quiet);
  /// log/stepd.log past StintLogMaxSize becomes stepd.log.1 (purge.cpp).
  void rotate_stepd_log();
  /// StintLogMaxSize in bytes: the log's size past which it is rotated (0: never).
  std::uint64_t log_limit() const {
    return static_cast<std::uint64_t>(m_config.conf_int("StintLogMaxSize")) * 1024 * 1024;
  }
  /// Nothing to follow: no job, no cluster run, no reservation (whose start
  /// and end stintd carries out), and no job mail still to go out.
  bool idle() const;
  bool shutdown_requested() const { return m_shutdown; }
  const Paths& paths() const { return m_paths; }
  const Config& config() const { return m_config; }
  Store& store() { return *m_store; }
  /// The jobs' scripts and environments (scripts.db), opened when first needed.
  ScriptStore& scripts();
  /// The id a job's script is kept under: an array's tasks share their first task's.
  static JobId script_id(const Job& job);
  Seconds now() const { return m_clock.now(); }

  // Operations used by the request handlers (handlers/*.cpp).
  Job& live_job(JobId id);  ///< throws Errc::invalid_job_id
  Job* find_live(JobId id);
  std::optional<Job> find_any(JobId id);  ///< live, else from the store
  const std::map<JobId, Job>& live() const { return m_live; }
  /// Whether `caller` may act on jobs of `uid` as their owner, or as an operator.
  bool may_act_for(const Caller& caller, std::uint32_t uid);
  /// Root or the state directory's owner: SlurmUser's powers (stop stintd).
  bool is_superuser(const Caller& caller) const;
  /// A superuser (Administrator), else the caller's sacctmgr AdminLevel.
  AdminLevel admin_level(const Caller& caller);
  /// AdminLevel Operator or above: may act on every user's jobs.
  bool is_operator(const Caller& caller) { return admin_level(caller) != AdminLevel::none; }
  /// A job's priority until the next pass assigns it (PriorityState::fresh_priority).
  std::uint32_t fresh_priority(const Job& job) const { return m_priority.fresh_priority(job); }
  /// Adds newly accepted jobs (one, or the tasks of an array, which share the
  /// first task's id as their array job id, or the components of a het job,
  /// marked by a non-zero het_job_id that becomes the first id): spool files
  /// first, then the database, in one transaction. Returns the first id.
  /// A non-empty `token` is kept with them, under their user (Store::Submission).
  JobId add_jobs(std::vector<Job> jobs, const std::string& token = {});
  /// `count` consecutive new job ids (intake.cpp); Errc::try_again when
  /// FirstJobId..MaxJobId has no such gap left.
  JobId job_ids(std::uint32_t count);
  /// Persists a changed live job.
  void save(const Job& job);
  /// A run's node: its stepd wrote what it found of its task's use (idle
  /// since, or in use again) into the spool; kept on the node's allocation,
  /// and the owner told when that makes the whole run idle (run_activity.cpp).
  void task_activity(JobId id, std::uint32_t node_index);
  /// Ends a job in `state` (pending or running): persists it and drops it from
  /// the live set.
  /// `ended_at`: when its tasks ended, as their stepds recorded it (a result
  /// collected after a restart of stintd keeps its own time, not the
  /// collection's); k_no_time or a time ahead of the clock: now.
  void finish(Job& job, JobState state, Seconds ended_at = k_no_time);
  /// Ends pending jobs CANCELLED by `by` (a uid), as finish() would one by
  /// one, in one commit (scancel of a deep queue): the rows are written
  /// first, and the jobs leave the live set only once they are committed; a
  /// failed commit leaves every one as it was, and throws.
  void cancel_pending(const std::vector<Job*>& jobs, std::uint32_t by);
  /// Asks the stepds of a running job to cancel it (SIGTERM; they report back).
  /// `asked`: a user's scancel or run-stop, written down first (a requeue
  /// marker that says so), so that the job ends CANCELLED whatever becomes
  /// of its stepd, and is never requeued as a node failure.
  void cancel_running(Job& job, bool asked = false);
  /// Puts a job back in the queue with the same id: an ended one at once, a
  /// running one once its tasks have stopped. `hold`: requeuehold;
  /// `special_exit`: requeuehold State=SpecialExit (held in SPECIAL_EXIT).
  void requeue(Job& job, bool hold, const Caller& caller, bool special_exit = false);
  /// Brings an ended job from the store back into the live set.
  Job& revive(const Job& ended);
  /// The live jobs a reference names: a job, an array's record and its live
  /// tasks, or one task ("12_3"); empty when none is live. A task still in
  /// its array's record is split off it first (split_task), as slurmctld
  /// splits a task acted on alone; with `split` false the record stands for it.
  std::vector<Job*> live_jobs(JobId id, std::uint32_t array_task, bool split = true);
  /// Makes `task` of an array's record a job of its own (daemon/array_records.cpp):
  /// the next job id, or the record's own when it is the last; persisted.
  Job& split_task(Job& record, std::uint32_t task);
  /// The ended jobs a reference names (from the store).
  std::vector<Job> ended_jobs(JobId id, std::uint32_t array_task);
  /// Whether a job or array with this id ever existed.
  bool ever_existed(JobId id, std::uint32_t array_task);
  /// Delivers `signal` to a running job's tasks.
  void signal_running(const Job& job, int signal, SignalTarget target = SignalTarget::all);
  /// `scontrol suspend`: stops a running job (its CPUs go back to the pass,
  /// its time limit's clock stops) until `scontrol resume`; nullopt, or the
  /// error Slurm gives for the job's state.
  std::optional<Error> suspend_job(Job& job);
  /// `scontrol resume` of a suspended job, where its resources are free.
  std::optional<Error> resume_job(Job& job);
  void request_shutdown() { m_shutdown = true; }
  void mark_dirty() { m_dirty = true; }
  bool dirty() const { return m_dirty; }

  // Accounts, users, associations and QOS (sacctmgr; handlers/sacctmgr*.cpp).
  /// The records as stored: read on first use, replaced by save_accounting.
  const Accounting& accounting();
  /// Writes every record of `next` that differs from accounting() (and
  /// deletes the ones it lacks) in one transaction, then holds `next`.
  void save_accounting(const Accounting& next);

  // Node states, partition overrides and reconfiguration (daemon/nodes.cpp,
  // daemon/reconfigure.cpp).
  /// Sets the state of nodes (all checked by the caller): DRAIN keeps their
  /// jobs running, DOWN requeues them (or ends them NODE_FAIL when they may
  /// not be requeued), up (RESUME) clears the state. Persisted, and logged
  /// with `who`.
  void set_node_states(const std::vector<NodeStatus>& states, const std::string& who);
  const std::map<std::string, NodeStatus>& node_states() const { return m_node_states; }
  /// Sets the features of nodes (scontrol update NodeName= AvailableFeatures=);
  /// persisted and logged. Jobs that ask for them (-C) may start there at once.
  void set_node_features(const std::vector<std::string>& names,
                         const std::vector<std::string>& features, const std::string& who);
  /// Merges `change` into the partition's overrides; persisted and logged.
  void update_partition(const std::string& name, const PartitionOverride& change,
                        const std::string& who);
  /// Re-reads stint.yaml, checks it whole against the live jobs and switches
  /// to it; throws Errc::config_invalid (changing nothing) when it may not.
  /// Returns the changes, as logged.
  std::vector<std::string> reconfigure(const std::string& who);
  /// Takes the nodes that are down or drained out of a pass (schedule.cpp).
  void mark_unavailable(sched::Cluster& cluster) const;
  /// ReqNodeNotAvail for a pending job that could not run on its partition's
  /// nodes that are up even if they were idle.
  Reason unavailable_reason(const Job& job, Reason pass_reason) const;
  /// "name(uid)" for the log.
  static std::string who(const Caller& caller);

 private:
  /// Loads node states and partition overrides from the store and keeps a copy
  /// of the config text there for the tools (at start).
  void load_node_state();
  /// m_file_config with the partition overrides.
  void apply_overrides();
  /// Ends (or requeues) a running job whose node went DOWN.
  void node_failed(Job& job);
  /// Drains node `name` with `reason`, as slurmctld's user, unless it is down.
  void drain_node(const std::string& name, const std::string& reason);
  /// Logs what the prolog and epilog printed; a failed one drains its node
  /// and, for the prolog, requeues the job held. True when it did that.
  bool site_scripts_ended(Job& job, const TaskResult& result);

  /// Starts `job` on `alloc`; throws when it cannot. `recorded` tells whether
  /// the database had the job RUNNING by then (a file written first failed
  /// when not: the database still has the job as it was).
  void launch(Job& job, std::vector<NodeAlloc> alloc, bool& recorded);
  /// A heterogeneous job's component other than its leader: it holds
  /// `alloc` from now on, with no task of its own (the leader's batch script
  /// is the job's), and ends with its leader (daemon/het_jobs.cpp).
  void start_het_component(Job& job, std::vector<NodeAlloc> alloc);
  /// The components of het job `leader` started in this pass wait again:
  /// their leader could not start.
  void withdraw_het_components(JobId leader);
  /// The live components of het job `leader`, the leader aside.
  std::vector<Job*> het_components(JobId leader);
  /// Ends what is left of `leader`'s het job as the leader ended.
  void end_het_components(const Job& leader);
  /// A stepd for task `task` of job `id`: forked by the fork server, else
  /// spawned. Returns its pid and start time, or the errno; pid 0 with no
  /// errno when the server did not answer (collect() settles it).
  std::tuple<std::int64_t, std::uint64_t, int> start_stepd(const std::string& exe, JobId id,
                                                           std::uint32_t task);

 public:
  // Runs (launcher.cpp, handlers/run.cpp).
  /// TCP ports the live runs hold.
  std::set<std::uint16_t> ports_in_use() const;
  /// StintRunPorts.
  run::PortRange run_ports() const;
  /// Gives each node of a run its ports (throws when the range is exhausted),
  /// and its SSH port when node SSH is served (daemon/node_ssh.hpp).
  void reserve_run_ports(Job& job);
  /// The ports a node of `run` takes from StintRunPorts: its own, and one for
  /// its sshd when node SSH is served.
  std::uint32_t ports_per_node(const RunInfo& run) const;
  /// Starts the sshd of each node of a run that has an SSH port (launch).
  void start_node_sshds(Job& job,
                        const std::vector<std::vector<std::pair<std::string, std::string>>>& envs);
  /// Stops the sshds of a job's nodes and their sessions, and removes its ssh
  /// folder: its nodes are let go (its end, a requeue).
  void release_node_ssh(Job& job);
  /// Ends a run whose nodes were kept alive after its command ended.
  void end_kept_alive(Job& job);
  /// Ends the kept-alive runs nobody has used for StintKeepAliveMax, with
  /// the reason in their state_desc (run-show's Reason).
  void end_idle_kept_alive();
  /// When a kept-alive run was last in use: its command's end, a run-exec's
  /// start or end; `now` while a run-exec runs or an SSH session is open.
  Seconds kept_alive_last_use(const Job& job, Seconds now);
  /// The next number of a run of `project`.
  std::uint32_t next_run_number(const std::string& project);

  // Runs on a real Slurm cluster (daemon/cluster_runs.cpp).
  /// Submits a run of the slurm backend (run-create, run-clone) and records
  /// it in the registry; returns the reply ({"job_id", "run"}).
  nlohmann::json submit_cluster_run(JobSpec spec, const Caller& caller, const std::string& token);
  /// run-stop of a cluster run: scancel, and the record says STOPPED.
  /// Returns the result entry for run-stop's reply.
  nlohmann::json stop_cluster_run(const RunName& name, const Caller& caller);
  /// Asks the cluster about the live cluster runs (those of `project`, or
  /// all when empty) when their poll period has passed, or now when `force`.
  void poll_cluster_runs(bool force, const std::string& project = {});

  // Advance reservations (daemon/reservations.cpp, handlers/reservation.cpp).
  const std::vector<Reservation>& reservations() const { return m_reservations; }
  /// Creates a reservation as slurmctld's create_resv does (every check
  /// first, then one commit); returns its name. Throws Slurm's refusal.
  std::string create_reservation(const ReservationRequest& request);
  /// Changes one as slurmctld's update_resv does; throws Slurm's refusal.
  void update_reservation(const ReservationRequest& request);
  /// Deletes one; refused (reservation_busy) while a job that is not over
  /// names it, as slurmctld refuses.
  void delete_reservation(const std::string& name);
  /// What a pass (and --test-only) applies; refers to reservations().
  sched::ReservationRules reservation_rules();
  /// Throws Slurm's refusal of a job (at submit) whose --reservation does
  /// not exist, does not admit it, or has no node of its partition.
  void check_reservation_use(const Job& job);

  // Job steps (srun inside an allocation; daemon/steps.cpp).
  /// Records a new step of a running job's current attempt, numbered next;
  /// returns it with its id and start time.
  JobStep begin_step(const Job& job, JobStep step);
  /// The same for a step that holds CPUs (srun without --overlap): `cpus`,
  /// by index in the job's allocation, are the step's until it ends.
  JobStep begin_step(const Job& job, JobStep step,
                     std::map<std::size_t, std::vector<std::uint32_t>> cpus);
  /// The CPUs the running steps of the job's current attempt hold, by index
  /// in its allocation.
  std::map<std::size_t, std::set<std::uint32_t>> step_cpus_held(const Job& job);
  /// Records how a step of the job's current attempt ended; throws
  /// Errc::invalid_argument for a step that is not running.
  void end_step(const Job& job, const JobStep& ended);

 private:
  void complete_from_results(Job& job);
  /// collect()'s end of one job: every task ended, or (lost) a stepd gone
  /// without a result.
  void end_collected(Job& job, bool lost);
  void adopt_unrecorded_stepd(Job& job, std::uint32_t task);
  /// Whether the start of `task` may still be called off (nothing ran).
  bool withdraw_start(JobId id, std::uint32_t task);
  /// Back to PENDING after an attempt that ended in `attempt_state`.
  void requeue_now(Job& job, JobState attempt_state, bool hold, bool admin_hold,
                   bool special_exit = false);
  /// Dependencies, deadlines: decides which pending jobs may be considered.
  std::vector<const Job*> eligible_pending();
  /// An aftercorr record's dependency: met when one of its first tasks'
  /// is (those go to m_aftercorr_ready), never met when none of its tasks'
  /// can be, else waiting. `never` gets the first tasks whose partner failed.
  sched::DependencyStatus gather_aftercorr_tasks(const Job& record,
                                                 const sched::DependencyLookup& lookup,
                                                 bool singleton_blocked, Seconds t,
                                                 std::vector<std::uint32_t>& never);
  /// The tasks of arrays' records a pass is offered (array_records.cpp):
  /// copies under ids of their own, and where each came from.
  struct ArrayOffers {
    struct Source {
      JobId record = 0;
      std::uint32_t task = 0;
    };
    std::deque<Job> tasks;
    std::map<JobId, Source> of;
  };
  /// `pending` with each array's record replaced by the first of its tasks:
  /// as many as `free_cpus` could start, plus one, within its throttle (an
  /// aftercorr record's: the first of those whose own terms are met).
  std::vector<const Job*> offer_array_tasks(const std::vector<const Job*>& pending,
                                            std::uint32_t free_cpus, ArrayOffers& offers);
  /// The pass's decision on offered tasks carried to their records: a
  /// record waits as its first offered task does; the tasks that start or
  /// preempt are split off and the decision names them by their new ids.
  void settle_array_offers(sched::Decision& d, const ArrayOffers& offers);

  // Preemption (daemon/preempt.cpp).
  /// Carries out the pass's decision to preempt a running job.
  void preempt(Job& victim, const sched::Preemption& p);
  /// Kills the preempted jobs whose GraceTime is over.
  void end_grace_times();
  /// Resumes the suspended jobs (`suspended`: every one) whose preemptor has
  /// ended, where their resources are free again; takes them in `cluster`.
  void resume_suspended(sched::Cluster& cluster, std::vector<Job*> suspended);
  /// After a restart: the preemptions and suspensions under way, from the spool.
  void recover_preemptions();
  /// Pending jobs' reasons and expected starts (squeue --start) from the pass.
  void save_reasons_and_planned_starts(const sched::Decision& d);
  /// Reads the reservations (at start).
  void load_reservations();
  /// Before each pass: reservations that ended end their jobs, repeat, or
  /// go (their pending jobs held unless NO_HOLD_JOBS_AFTER_END); PURGE_COMP
  /// ones that stood idle long enough end; persisted.
  void check_reservations();
  /// Writes `r` (and the next reservation id) in one commit, then keeps it.
  void save_reservation(const Reservation& r, std::uint32_t next_id);
  /// A new reservation id (Slurm's top_suffix: the next unused one).
  std::uint32_t next_reservation_id();

  // Job mail, --mail-type (daemon/mail.cpp): when slurmctld sends which.
  /// A job started: BEGIN (once for an array without ARRAY_TASKS), and its
  /// time-limit mails to watch for.
  void mail_began(const Job& job);
  /// A job ended (its state set and saved, still live): TIME_LIMIT for a
  /// timeout not yet told, then FAIL or END; for an array without
  /// ARRAY_TASKS, the summary once its last task has ended.
  void mail_ended(const Job& job);
  /// A job went back to the queue after `attempt`: FAIL for a failed one, REQUEUE.
  void mail_requeued(const Job& job, const Job& attempt);
  /// A job's dependency can never be satisfied (first seen so).
  void mail_invalid_dependency(const Job& job);
  /// At each pass: TIME_LIMIT_50/80/90 (and TIME_LIMIT) of running jobs, and
  /// mailers past their time.
  void mail_tick();
  void send_mail(const Job& job, MailType type, const ArrayOutcome* array = nullptr);
  /// The meta job of `job`'s array (its first task), for the summary form.
  std::optional<Job> array_meta(const Job& job);

  Paths m_paths;
  Config m_config;       ///< what the scheduler uses: m_file_config with the overrides
  Config m_file_config;  ///< as the config file says
  std::map<std::string, PartitionOverride> m_partition_overrides;
  /// Config::node_features: what scontrol update set, until a reconfigure.
  std::map<std::string, std::vector<std::string>> m_node_features;
  std::map<std::string, NodeStatus> m_node_states;  ///< nodes that are not up
  std::unique_ptr<Store> m_store;
  std::unique_ptr<ScriptStore> m_scripts;
  /// The tasks of aftercorr records whose terms this pass found met, in task
  /// order, and how many of them a record may have (the cluster's CPUs, plus one).
  std::map<JobId, std::vector<std::uint32_t>> m_aftercorr_ready;
  std::size_t m_aftercorr_most = 0;
  std::unique_ptr<StepdForks> m_stepd_forks;  ///< started with the first task
  std::unique_ptr<Background> m_script_sync;  ///< scripts.db's sync at a submission
  const Clock& m_clock;
  std::map<JobId, Job> m_live;
  /// How many live jobs each array has (its record and its tasks): the
  /// array's last one ends it (its mail). Kept by count_array_live.
  std::map<JobId, std::uint32_t> m_array_live;
  void count_array_live(const Job& job, bool added) {
    if (!job.is_array_task()) return;
    if (added) {
      ++m_array_live[job.array_job_id];
    } else if (auto it = m_array_live.find(job.array_job_id);
               it != m_array_live.end() && --it->second == 0) {
      m_array_live.erase(it);
    }
  }
  /// CPUs held by running steps: (job, attempt) -> step id -> allocation
  /// index -> CPU ids. Kept in memory only: a stintd that restarts forgets
  /// what the steps of the moment hold, and later steps may share with them.
  std::map<std::pair<JobId, std::uint32_t>,
           std::map<std::uint32_t, std::map<std::size_t, std::vector<std::uint32_t>>>>
      m_step_cpus;
  /// The ids of the live jobs that may be active (launch and recover add
  /// them; collect drops those that no longer are): collect walks these,
  /// not every live job (a walk of 100,000 pending ones took 70 ms).
  std::set<JobId> m_maybe_active;
  std::uint32_t m_owner_uid = 0;           ///< owner of the state directory: its admin
  std::optional<Accounting> m_accounting;  ///< see accounting()
  bool m_shutdown = false;
  bool m_dirty = true;
  std::chrono::steady_clock::duration m_decision_cost{};  ///< see last_decision_cost()
  sched::PriorityState m_priority;  ///< multifactor priority between passes (schedule.cpp)
  /// Running jobs being preempted: when their GraceTime ends (they are then killed).
  std::map<JobId, Seconds> m_preempting;
  /// suspended job -> the job it was preempted for, or k_suspended_by_operator
  std::map<JobId, JobId> m_suspended_by;
  static constexpr JobId k_suspended_by_operator = 0;
  std::size_t m_live_cluster_runs = 0;  ///< cluster runs not ended: stintd stays to follow them
  std::unique_ptr<Mailer> m_mailer;     ///< made with the first mail
  /// Live jobs with time-limit mail: the types already sent (slurmctld
  /// clears them from the job's mail type as it sends them).
  std::map<JobId, std::uint16_t> m_mail_time_sent;
  bool m_mail_time_loaded = false;          ///< the running jobs found at start are in it
  std::set<JobId> m_mail_arrays_begun;      ///< arrays whose BEGIN went out
  std::set<JobId> m_mail_arrays_invalid;    ///< arrays whose INVALID_DEPEND went out
  std::vector<Reservation> m_reservations;  ///< by name, as stored
  /// Running jobs killed because their reservation ended (each killed once).
  std::set<JobId> m_reservation_kills;
  /// Deleted storages being emptied: the child's pid -> the folder
  /// (storage_removal.cpp).
  std::map<std::int64_t, std::string> m_storage_removals;
};

}  // namespace stint::daemon
