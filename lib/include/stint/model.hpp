#pragma once
/// The model: plain types for jobs, their requests and allocations, and the
/// job lifecycle. No I/O here; see store.hpp for persistence.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <stint/export.hpp>
#include <stint/task_set.hpp>

STINT_API_BEGIN
namespace stint {

using JobId = std::uint32_t;
/// Seconds since the Unix epoch, or a duration in seconds.
using Seconds = std::int64_t;
/// A time limit or duration with no bound (Slurm's UNLIMITED / INFINITE).
inline constexpr Seconds k_infinite = -1;
/// A time that has not happened (yet), e.g. the start of a pending job.
inline constexpr Seconds k_no_time = 0;

/// The lifecycle of a job, with Slurm's names and short codes.
///   pending ──▶ running ──▶ completing ──▶ completed | failed | cancelled | timeout
///      │           │                        node_fail | out_of_memory | preempted
///      └──▶ cancelled (before it ran)       (completing is brief: the job has ended,
///                                            its result is being recorded)
enum class JobState : std::uint8_t {
  pending,        ///< PD: waiting for resources, priority, a dependency, ...
  running,        ///< R: its tasks run
  suspended,      ///< S: stopped by preemption (SUSPEND mode)
  completing,     ///< CG: ended, result being collected
  completed,      ///< CD: every task exited 0
  failed,         ///< F: a task exited non-zero or was killed by a signal
  cancelled,      ///< CA: scancel, or an unmeetable dependency
  timeout,        ///< TO: over its time limit
  node_fail,      ///< NF: its stepd vanished (crash, reboot)
  preempted,      ///< PR: preempted with PreemptMode=CANCEL
  out_of_memory,  ///< OOM: over its memory
  requeued,       ///< RQ: shown in sacct for an attempt that was requeued
  deadline,       ///< DL: could not end before its --deadline
};

std::string_view state_name(JobState s);                         ///< "PENDING"
std::string_view state_code(JobState s);                         ///< "PD"
std::optional<JobState> state_from_name(std::string_view name);  ///< "PENDING", "PD", "pending"
bool is_terminal(JobState s);  ///< completed .. requeued: the job will not run again as is
bool is_active(JobState s);    ///< running, suspended, completing: holds resources
/// Whether the lifecycle allows from -> to. Every state change goes through a
/// caller that checks this (see sched/lifecycle).
bool transition_allowed(JobState from, JobState to);

/// Why a pending job is not running, with Slurm's reason names.
enum class Reason : std::uint8_t {
  none,
  priority,                    ///< Priority: higher priority jobs go first
  resources,                   ///< Resources: it is next, but does not fit now
  partition_time_limit,        ///< PartitionTimeLimit
  partition_down,              ///< PartitionDown
  partition_inactive,          ///< PartitionInactive
  req_node_not_avail,          ///< ReqNodeNotAvail
  job_held_user,               ///< JobHeldUser
  job_held_admin,              ///< JobHeldAdmin
  dependency,                  ///< Dependency
  dependency_never_satisfied,  ///< DependencyNeverSatisfied
  begin_time,                  ///< BeginTime
  non_zero_exit_code,          ///< NonZeroExitCode (an ended job's reason)
  time_limit,                  ///< TimeLimit
  node_fail,                   ///< NodeFail
  launch_failed,               ///< launch failed requeued held (Slurm: JobLaunchFailure)
  job_array_task_limit,        ///< JobArrayTaskLimit: the array's %N throttle is reached
  // Association and QOS limits (sched/limits.hpp), in Slurm's spelling.
  assoc_grp_cpu_limit,                    ///< AssocGrpCpuLimit
  assoc_grp_mem_limit,                    ///< AssocGrpMemLimit
  assoc_grp_node_limit,                   ///< AssocGrpNodeLimit
  assoc_grp_gres,                         ///< AssocGrpGRES
  assoc_grp_billing,                      ///< AssocGrpBilling
  assoc_grp_jobs_limit,                   ///< AssocGrpJobsLimit
  assoc_grp_submit_jobs_limit,            ///< AssocGrpSubmitJobsLimit
  assoc_max_jobs_limit,                   ///< AssocMaxJobsLimit
  assoc_max_submit_job_limit,             ///< AssocMaxSubmitJobLimit
  assoc_max_wall_duration_per_job_limit,  ///< AssocMaxWallDurationPerJobLimit
  assoc_max_cpu_per_job_limit,            ///< AssocMaxCpuPerJobLimit
  assoc_max_mem_per_job,                  ///< AssocMaxMemPerJob
  assoc_max_node_per_job_limit,           ///< AssocMaxNodePerJobLimit
  assoc_max_gres_per_job,                 ///< AssocMaxGRESPerJob
  assoc_max_billing_per_job,              ///< AssocMaxBillingPerJob
  assoc_max_cpu_per_node,                 ///< AssocMaxCpuPerNode
  assoc_max_mem_per_node,                 ///< AssocMaxMemPerNode
  assoc_max_gres_per_node,                ///< AssocMaxGRESPerNode
  assoc_max_billing_per_node,             ///< AssocMaxBillingPerNode
  qos_grp_cpu_limit,                      ///< QOSGrpCpuLimit
  qos_grp_mem_limit,                      ///< QOSGrpMemLimit
  qos_grp_node_limit,                     ///< QOSGrpNodeLimit
  qos_grp_gres,                           ///< QOSGrpGRES
  qos_grp_billing,                        ///< QOSGrpBilling
  qos_grp_jobs_limit,                     ///< QOSGrpJobsLimit
  qos_grp_submit_jobs_limit,              ///< QOSGrpSubmitJobsLimit
  qos_max_jobs_per_user_limit,            ///< QOSMaxJobsPerUserLimit
  qos_max_submit_job_per_user_limit,      ///< QOSMaxSubmitJobPerUserLimit
  qos_max_wall_duration_per_job_limit,    ///< QOSMaxWallDurationPerJobLimit
  qos_max_cpu_per_job_limit,              ///< QOSMaxCpuPerJobLimit
  qos_max_memory_per_job,                 ///< QOSMaxMemoryPerJob
  qos_max_node_per_job_limit,             ///< QOSMaxNodePerJobLimit
  qos_max_gres_per_job,                   ///< QOSMaxGRESPerJob
  qos_max_billing_per_job,                ///< QOSMaxBillingPerJob
  qos_max_cpu_per_node,                   ///< QOSMaxCpuPerNode
  qos_max_memory_per_node,                ///< QOSMaxMemoryPerNode
  qos_max_gres_per_node,                  ///< QOSMaxGRESPerNode
  qos_max_billing_per_node,               ///< QOSMaxBillingPerNode
  qos_max_cpu_per_user_limit,             ///< QOSMaxCpuPerUserLimit
  qos_max_memory_per_user,                ///< QOSMaxMemoryPerUser
  qos_max_node_per_user_limit,            ///< QOSMaxNodePerUserLimit
  qos_max_gres_per_user,                  ///< QOSMaxGRESPerUser
  qos_max_billing_per_user,               ///< QOSMaxBillingPerUser
  invalid_account,                        ///< InvalidAccount
  invalid_qos,                            ///< InvalidQOS
  // TRES-minutes and wall limits; appended because the store keeps reasons
  // by number.
  assoc_grp_cpu_minutes_limit,          ///< AssocGrpCPUMinutesLimit
  assoc_grp_mem_minutes,                ///< AssocGrpMemMinutes
  assoc_grp_node_minutes,               ///< AssocGrpNodeMinutes
  assoc_grp_gres_minutes,               ///< AssocGrpGRESMinutes
  assoc_grp_billing_minutes,            ///< AssocGrpBillingMinutes
  assoc_grp_cpu_run_minutes_limit,      ///< AssocGrpCPURunMinutesLimit
  assoc_grp_mem_run_minutes,            ///< AssocGrpMemRunMinutes
  assoc_grp_node_run_minutes,           ///< AssocGrpNodeRunMinutes
  assoc_grp_gres_run_minutes,           ///< AssocGrpGRESRunMinutes
  assoc_grp_billing_run_minutes,        ///< AssocGrpBillingRunMinutes
  assoc_max_cpu_minutes_per_job_limit,  ///< AssocMaxCpuMinutesPerJobLimit
  assoc_max_mem_minutes_per_job,        ///< AssocMaxMemMinutesPerJob
  assoc_max_node_minutes_per_job,       ///< AssocMaxNodeMinutesPerJob
  assoc_max_gres_minutes_per_job,       ///< AssocMaxGRESMinutesPerJob
  assoc_max_billing_minutes_per_job,    ///< AssocMaxBillingMinutesPerJob
  assoc_grp_wall_limit,                 ///< AssocGrpWallLimit
  qos_grp_cpu_minutes_limit,            ///< QOSGrpCPUMinutesLimit
  qos_grp_memory_minutes,               ///< QOSGrpMemoryMinutes
  qos_grp_node_minutes,                 ///< QOSGrpNodeMinutes
  qos_grp_gres_minutes,                 ///< QOSGrpGRESMinutes
  qos_grp_billing_minutes,              ///< QOSGrpBillingMinutes
  qos_grp_cpu_run_minutes_limit,        ///< QOSGrpCPURunMinutesLimit
  qos_grp_memory_run_minutes,           ///< QOSGrpMemoryRunMinutes
  qos_grp_node_run_minutes,             ///< QOSGrpNodeRunMinutes
  qos_grp_gres_run_minutes,             ///< QOSGrpGRESRunMinutes
  qos_grp_billing_run_minutes,          ///< QOSGrpBillingRunMinutes
  qos_max_cpu_minutes_per_job_limit,    ///< QOSMaxCpuMinutesPerJobLimit
  qos_max_memory_minutes_per_job,       ///< QOSMaxMemoryMinutesPerJob
  qos_max_node_minutes_per_job,         ///< QOSMaxNodeMinutesPerJob
  qos_max_gres_minutes_per_job,         ///< QOSMaxGRESMinutesPerJob
  qos_max_billing_minutes_per_job,      ///< QOSMaxBillingMinutesPerJob
  qos_grp_wall_limit,                   ///< QOSGrpWallLimit
  // Advance reservations (stint/reservation.hpp).
  reservation,               ///< Reservation: its reservation's window has not begun
  reservation_deleted,       ///< ReservationDeleted: held, its reservation ended or went
  reserved_for_maintenance,  ///< ReqNodeNotAvail, Reserved for maintenance
  // Placement (sched/placement.hpp).
  licenses,         ///< Licenses: the licenses it asks for are in use
  bad_constraints,  ///< BadConstraints: no node of its partition can ever take it
  /// Held by requeuehold State=SpecialExit or an exit code in RequeueExitHold:
  /// Slurm's JobHeldUser with the state SPECIAL_EXIT, released as a user hold.
  special_exit,
};
std::string_view reason_name(Reason r);
std::optional<Reason> reason_from_name(std::string_view name);

/// No array task: Slurm's NO_VAL, which is what %a prints for a plain job.
inline constexpr std::uint32_t k_no_array_task = 0xfffffffe;
/// sbatch --priority=TOP: the highest priority a job can be given (Slurm's NO_VAL - 2).
inline constexpr std::uint32_t k_top_priority = 0xfffffffd;

/// One term of a dependency expression ("afterok:12", "afterany:12_3", "singleton").
enum class DependencyType : std::uint8_t {
  after,
  afterany,
  afterok,
  afternotok,
  aftercorr,
  singleton
};
std::string_view dependency_type_name(DependencyType t);  ///< "afterok"

struct DependencyTerm {
  DependencyType type = DependencyType::afterany;
  JobId job_id = 0;  ///< the job, or the array job id (0 for singleton)
  /// One task of an array ("12_3"); k_no_array_task means the whole job or array.
  std::uint32_t array_task = k_no_array_task;
  Seconds delay = 0;  ///< after:12+5 — minutes after the start, in seconds
  bool operator==(const DependencyTerm&) const = default;
};

/// A dependency expression: terms joined by ',' (all must hold) or by '?' (any
/// one suffices). Slurm does not mix the two in one expression.
struct Dependency {
  std::vector<DependencyTerm> terms;
  bool any = false;  ///< joined by '?'
  bool empty() const { return terms.empty(); }
  bool operator==(const Dependency&) const = default;
};

/// --signal=[{R|B}:]<sig_num>[@sig_time]: a signal sent before the time limit.
struct SignalSpec {
  int signal = 0;           ///< 0: none
  Seconds before = 60;      ///< seconds before the end of the time limit
  bool batch_only = false;  ///< B: only the batch shell
  bool operator==(const SignalSpec&) const = default;
};

/// An optional value kept on the heap, with a value's copies: for a member that
/// is large and that most objects lack (a job's RunInfo, nearly 300 bytes, in
/// every job stintd holds and every row a listing reads). Used as std::optional.
template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const T& v) : m_value(std::make_unique<T>(v)) {}
  Boxed(T&& v) : m_value(std::make_unique<T>(std::move(v))) {}
  Boxed(const Boxed& o) : m_value(o.m_value ? std::make_unique<T>(*o.m_value) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& o) {
    if (this != &o) m_value = o.m_value ? std::make_unique<T>(*o.m_value) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(T v) {
    m_value = std::make_unique<T>(std::move(v));
    return *this;
  }
  ~Boxed() = default;

  explicit operator bool() const { return m_value != nullptr; }
  bool has_value() const { return m_value != nullptr; }
  void reset() { m_value.reset(); }
  T& operator*() { return *m_value; }
  const T& operator*() const { return *m_value; }
  T* operator->() { return m_value.get(); }
  const T* operator->() const { return m_value.get(); }
  bool operator==(const Boxed& o) const {
    return has_value() == o.has_value() && (!m_value || *m_value == *o.m_value);
  }

 private:
  std::unique_ptr<T> m_value;
};

/// What makes a job a run (NSML's model): its command starts on
/// every node of its allocation, rank 0..N-1, each with ports of its own.
struct RunInfo {
  std::string project;
  std::uint32_t number = 0;  ///< given by stintd: the project's next
  bool keep_alive = false;   ///< the nodes stay allocated after the command, until run-stop
  std::uint32_t ports_per_node = 2;
  std::string image;
  std::vector<std::pair<std::string, std::string>> storages;  ///< name, mount point
  /// The run's own variables, in order (run-list's columns); they are in the
  /// job's environment too.
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> command;
  std::string description;
  std::string cloned_from;                 ///< "project/n" of the source run, if a clone
  bool stopped = false;                    ///< run-stop has ended it
  std::vector<std::string> metrics_files;  ///< run-create --metrics-file, globs
  bool metrics_all_ranks = false;          ///< --metrics-rank all
  /// Where it executes: "" stintd's own nodes; "slurm" a real cluster (the
  /// run is then in the cluster_runs registry, not a job of stintd).
  std::string backend;
  /// Why stint lost track of a cluster run (its job vanished from the
  /// cluster); "" while it is followed.
  std::string lost;
  bool operator==(const RunInfo&) const = default;
};

/// How a job shares its nodes: --exclusive[=user|mcs] (unset: the
/// partition's OverSubscribe decides).
enum class Exclusive : std::uint8_t { unset, node, user, mcs };
std::string_view exclusive_name(Exclusive e);  ///< "", "node", "user", "mcs"

/// The options of Slurm's vocabulary that most jobs do not use, kept apart
/// from JobSpec so that a job without them carries one empty pointer (see
/// JobSpec::options). Each field is the option's value as sbatch checked it;
/// the option table (cli/option_table) says what each does on this machine.
struct JobOptions {
  // Where the job may run.
  std::string nodelist;                    ///< -w/--nodelist (or --nodefile's names), a hostlist
  std::string exclude;                     ///< -x/--exclude, a hostlist
  std::string constraint;                  ///< -C/--constraint: node features, Slurm's expression
  std::string prefer;                      ///< --prefer: features wanted when they are free
  std::string cluster_constraint;          ///< --cluster-constraint (one cluster here: recorded)
  Exclusive exclusive = Exclusive::unset;  ///< --exclusive[=user|mcs]
  std::optional<bool> oversubscribe;       ///< -s/--oversubscribe
  bool contiguous = false;                 ///< --contiguous
  std::optional<std::uint32_t> max_nodes;  ///< -N min-max: the max
  std::optional<std::uint32_t> mincpus;    ///< --mincpus: CPUs per node at least
  std::optional<std::uint64_t> tmp_mb;     ///< --tmp: node TmpDisk at least
  bool spread_job = false;                 ///< --spread-job
  bool use_min_nodes = false;              ///< --use-min-nodes
  std::string licenses;                    ///< -L/--licenses as given ("a:2,b")
  std::string reservation;                 ///< --reservation
  std::optional<Seconds> time_min;         ///< --time-min, in seconds
  // The shape of its tasks.
  std::optional<std::uint32_t> gpus_per_task;
  std::optional<std::uint32_t> gpus_per_socket;
  std::optional<std::uint32_t> cpus_per_gpu;
  std::optional<std::uint64_t> mem_per_gpu_mb;
  std::optional<std::uint32_t> ntasks_per_gpu;
  std::optional<std::uint32_t> ntasks_per_core;
  std::optional<std::uint32_t> ntasks_per_socket;
  std::optional<std::uint32_t> sockets_per_node;  ///< -B S, --sockets-per-node
  std::optional<std::uint32_t> cores_per_socket;  ///< -B S:C, --cores-per-socket
  std::optional<std::uint32_t> threads_per_core;  ///< -B S:C:T, --threads-per-core
  std::string hint;                               ///< --hint
  bool overcommit = false;                        ///< -O/--overcommit
  std::string distribution;                       ///< -m/--distribution
  std::string cpu_bind;                           ///< --cpu-bind
  std::string mem_bind;                           ///< --mem-bind
  std::string gpu_bind;                           ///< --gpu-bind
  std::string gres_flags;                         ///< --gres-flags
  std::string gres;                               ///< --gres as given (all of it)
  // What happens around it.
  std::string mail_type;                    ///< --mail-type, normalised ("BEGIN,END")
  std::string mail_user;                    ///< --mail-user
  std::string wckey;                        ///< --wckey
  std::string acctg_freq;                   ///< --acctg-freq
  std::optional<std::string> propagate;     ///< --propagate[=rlimits]; "" is ALL
  bool no_kill = false;                     ///< -k/--no-kill
  std::optional<bool> wait_all_nodes;       ///< --wait-all-nodes=0|1
  std::string stdin_pattern;                ///< -i/--input
  std::string cluster;                      ///< -M/--clusters (this cluster's name)
  std::optional<std::string> get_user_env;  ///< --get-user-env[=timeout][mode]
  std::optional<std::uint32_t> uid;         ///< --uid (root only): the user the job runs as
  std::optional<std::uint32_t> gid;         ///< --gid (root only): the group it runs as
  /// Options with nothing to act on here (no burst buffer, no power
  /// management...), by long name, value as given: recorded and shown as
  /// Slurm shows them on a cluster without the facility.
  std::map<std::string, std::string> recorded;
  bool operator==(const JobOptions&) const = default;
};

/// What a user asked for: the result of sbatch's options, #SBATCH directives and
/// SBATCH_* variables. Optional fields were not given; defaults are applied at submit.
struct JobSpec {
  std::string name;                      ///< -J; default: script name or "wrap"
  std::optional<std::string> partition;  ///< -p
  std::optional<std::string> account;    ///< -A
  std::optional<std::string> qos;        ///< -q
  std::optional<std::uint32_t> nodes;    ///< -N (minimum node count)
  std::optional<std::uint32_t> ntasks;   ///< -n
  std::optional<std::uint32_t> ntasks_per_node;
  std::optional<std::uint32_t> cpus_per_task;    ///< -c
  std::optional<std::uint64_t> mem_per_node_mb;  ///< --mem (0: all of the node's memory)
  std::optional<std::uint64_t> mem_per_cpu_mb;   ///< --mem-per-cpu
  std::optional<std::uint32_t> gpus;             ///< -G/--gpus (total)
  std::optional<std::uint32_t> gpus_per_node;    ///< --gpus-per-node or --gres=gpu:N
  std::string gpu_type;                          ///< gpu:TYPE:N
  std::optional<Seconds> time_limit;             ///< -t; k_infinite for UNLIMITED
  std::string stdout_pattern;                    ///< -o; empty: slurm-%j.out
  std::string stderr_pattern;                    ///< -e; empty: with stdout
  std::string work_dir;                          ///< -D; default: submit dir
  std::string export_spec;                       ///< --export; empty means ALL
  bool hold = false;                             ///< -H
  std::int32_t nice = 0;                         ///< --nice
  /// A priority an operator fixed (sbatch --priority, scontrol update
  /// Priority=, scontrol top): kept instead of the multifactor value.
  std::optional<std::uint32_t> fixed_priority;
  std::int64_t site_factor = 0;             ///< scontrol update SiteFactor= (operators)
  std::string comment;                      ///< --comment
  std::string array_spec;                   ///< -a/--array as given ("0-15:2%4")
  std::string dependency;                   ///< -d/--dependency as given
  std::optional<bool> kill_on_invalid_dep;  ///< --kill-on-invalid-dep=yes|no
  std::optional<Seconds> begin_time;        ///< --begin, resolved to a time
  std::optional<Seconds> deadline;          ///< --deadline, resolved to a time
  std::optional<bool> requeue;              ///< --requeue / --no-requeue
  std::optional<bool> open_append;          ///< --open-mode=append|truncate
  /// salloc's allocation: its script only holds the nodes for a command
  /// salloc runs, so the job has no batch step (sacct) and BatchFlag=0.
  bool allocation_only = false;
  SignalSpec signal;                     ///< --signal
  std::string script;                    ///< the batch script's text
  std::string script_name;               ///< its file name ("" for --wrap/stdin)
  std::vector<std::string> script_args;  ///< arguments after the script
  /// The environment to run with, already filtered by --export, in order.
  std::vector<std::pair<std::string, std::string>> environment;
  std::string submit_dir;
  std::string submit_host;
  Boxed<RunInfo> run;      ///< set for a run (run-create, run-clone)
  Boxed<JobOptions> more;  ///< the rarer options; unset when none was given
  /// The rarer options, empty ones when none was given.
  const JobOptions& options() const;
  /// The rarer options, made when first written.
  JobOptions& options_to_set();
  bool operator==(const JobSpec&) const = default;
};

/// The resources a job holds on one node.
struct NodeAlloc {
  std::string node;  ///< node name
  std::uint32_t cpus = 0;
  std::vector<std::uint32_t> cpu_ids;  ///< virtual CPU indices on that node
  std::uint64_t mem_mb = 0;
  std::vector<std::uint32_t> gpu_ids;  ///< GPU indices on that node
  std::uint32_t tasks = 1;             ///< tasks of the job on this node
  /// The stint-stepd supervising this node's task: pid and its start time in
  /// clock ticks since boot (/proc/PID/stat field 22), so a reused pid is not mistaken.
  std::int64_t stepd_pid = 0;
  std::uint64_t stepd_start_ticks = 0;
  std::vector<std::uint16_t> ports;  ///< a run's TCP ports on this node
  /// A run's node SSH (StintRunSsh): the port its sshd listens on (0: not
  /// served) and that sshd's pid and start time, as for stepd.
  std::uint16_t ssh_port = 0;
  std::int64_t sshd_pid = 0;
  std::uint64_t sshd_start_ticks = 0;
  /// A run's node whose task has ended (kept alive, or the run's end).
  bool task_ended = false;
  std::int32_t exit_status = 0;
  std::int32_t exit_signal = 0;
  /// A run's node whose task has used nothing for StintIdleRunAfter: since
  /// when (k_no_time: in use), as its stepd measured it, and whether that was
  /// its GPUs at 0 % (nvidia-smi) or, without them, its processes' CPU time.
  Seconds idle_since = k_no_time;
  bool idle_gpus = false;
};

/// The per-node shape a job needs, derived from its spec (see sched/request).
struct ResourceRequest {
  std::uint32_t nodes = 1;
  std::uint32_t tasks = 1;
  std::uint32_t tasks_per_node = 1;  ///< the most tasks on any one node
  std::uint32_t cpus_per_task = 1;
  std::uint32_t cpus_per_node = 1;
  std::uint64_t mem_per_node_mb = 0;  ///< 0 with whole_node_mem: all of a node's memory
  /// The memory asked per allocated CPU (--mem-per-cpu, or DefMemPerCPU as
  /// the default): Slurm keeps it per CPU (MinMemoryCPU, SLURM_MEM_PER_CPU),
  /// and mem_per_node_mb is it times the node's CPUs. 0: memory is per node.
  std::uint64_t mem_per_cpu_mb = 0;
  bool whole_node_mem = false;
  /// --exclusive (or OverSubscribe=EXCLUSIVE): each node is the job's alone,
  /// with all its CPUs and GPUs, as Slurm's whole-node allocation.
  bool whole_nodes = false;
  std::uint32_t gpus_per_node = 0;
  std::string gpu_type;
  bool operator==(const ResourceRequest&) const = default;
};

/// A job as the controller knows it: the request, the decisions, the outcome.
struct Job {
  JobId id = 0;
  JobSpec spec;
  ResourceRequest req;
  std::uint32_t user_id = 0;
  std::uint32_t group_id = 0;
  std::string user_name;
  std::string partition;  ///< resolved partition
  std::string account;    ///< resolved account
  std::string qos = "normal";
  Seconds time_limit = k_infinite;  ///< resolved, in seconds
  JobState state = JobState::pending;
  Reason reason = Reason::none;
  Reason hold_reason = Reason::none;  ///< job_held_user / job_held_admin while held
  /// What the reason alone does not say (slurmctld's state_desc): why its
  /// launch failed ("Could not open stdout file ..."), why stintd ended a
  /// kept-alive run. scontrol shows it in place of the reason's name.
  std::string state_desc;
  std::uint32_t priority = 0;
  Seconds submit_time = k_no_time;
  Seconds eligible_time = k_no_time;
  Seconds start_time = k_no_time;
  Seconds end_time = k_no_time;
  std::vector<NodeAlloc> alloc;  ///< empty unless it ran or runs
  /// How it ended: exit status of the batch script (0..255) and the signal that
  /// killed it (0 if none), as sacct's ExitCode "status:signal".
  int exit_status = 0;
  int exit_signal = 0;
  std::uint64_t user_cpu_us = 0;
  std::uint64_t sys_cpu_us = 0;
  std::uint64_t max_rss_kb = 0;
  std::uint32_t restart_count = 0;
  JobId array_job_id = 0;  ///< the array this task belongs to (0: not an array)
  std::uint32_t array_task_id = k_no_array_task;
  std::uint32_t array_throttle = 0;  ///< %N: at most N tasks of the array run (0: no limit)
  /// A component of a heterogeneous job (sbatch's ':' or "#SBATCH hetjob"):
  /// the leader's id (component 0's, whose batch script runs; 0: not one)
  /// and this component's place. Components have consecutive ids and start,
  /// and end with their leader, together.
  JobId het_job_id = 0;
  std::uint32_t het_job_offset = 0;
  std::uint32_t het_job_size = 0;  ///< its number of components (HetJobIdSet)
  /// A task of an array changed on its own (scontrol update 12_3): slurmctld
  /// splits it off its array's pending record, so it shows its own JobId.
  bool array_split = false;
  /// An array's record (slurmctld's meta record): the tasks that have not
  /// started, which share everything but their task id, kept as one job
  /// whatever their number; empty for any other job. A task becomes a job of
  /// its own (a new id; the last one takes the record's) when it starts or
  /// is acted on alone. A record has array_job_id set and array_task_id
  /// k_no_array_task; one cancelled keeps the tasks it held (sacct's 12_[3-9]).
  TaskSet array_pending;
  Dependency dependency;           ///< parsed from spec.dependency
  bool requeue = true;             ///< may be requeued (JobRequeue / --requeue)
  std::uint32_t cancelled_by = 0;  ///< uid that cancelled it (sacct "CANCELLED by N")
  std::string stdout_path;         ///< resolved output file (absolute)
  std::string stderr_path;         ///< resolved error file (absolute; equals stdout when joined)

  std::uint32_t total_cpus() const;
  std::uint32_t total_gpus() const;
  /// The memory asked per CPU (MinMemoryCPU, SLURM_MEM_PER_CPU), or nullopt
  /// when the job's memory is per node (MinMemoryNode, SLURM_MEM_PER_NODE).
  std::optional<std::uint64_t> mem_per_cpu_mb() const;
  /// Node names of the allocation in order (parse::compress_hostlist folds them).
  std::vector<std::string> node_names() const;
  bool is_array_task() const { return array_job_id != 0; }
  bool is_array_record() const { return !array_pending.empty(); }
  bool is_het_component() const { return het_job_id != 0; }
  bool is_het_leader() const { return het_job_id != 0 && het_job_offset == 0; }
  /// Slurm's HetJobIdSet: the components' ids as a range ("12-13"); "" when
  /// not a het job.
  std::string het_job_id_set() const;
  /// "12", "12_3" for an array task, "12_[3-9%2]" for an array's record,
  /// "12+1" for a heterogeneous job's component (Slurm's JobID column).
  std::string display_id() const;
};

/// Task `task` of an array's record as a job of its own, as the tools show
/// it (squeue -r, squeue -j 12_3): the record's job with that task id; its
/// id stays the record's, as slurmctld's record shows for it.
Job array_task_of(const Job& record, std::uint32_t task);

/// A job step (`srun` inside an allocation): sacct's "12.0" line. Its tasks
/// run under srun, on nodes of the job's allocation; stintd records when it
/// began and how it ended.
struct JobStep {
  JobId job_id = 0;
  std::uint32_t attempt = 0;  ///< the job's restart count when the step ran
  std::uint32_t step_id = 0;
  std::string name;   ///< the program's name, as Slurm names a step
  std::string nodes;  ///< hostlist of the nodes it ran on
  std::uint32_t node_count = 0;
  std::uint32_t tasks = 0;
  std::uint32_t cpus = 0;
  JobState state = JobState::running;
  Seconds start_time = k_no_time;
  Seconds end_time = k_no_time;
  int exit_status = 0;  ///< the highest exit status of its tasks
  int exit_signal = 0;  ///< the signal that killed one of them (0: none)
  std::uint64_t user_cpu_us = 0;
  std::uint64_t sys_cpu_us = 0;
  std::uint64_t max_rss_kb = 0;
  /// srun -t (or scontrol update StepId= TimeLimit=): srun ends the step's
  /// tasks this long after its start, the step TIMEOUT; k_infinite: none of
  /// its own (the job's limit holds).
  Seconds time_limit = k_infinite;
};

/// One run of a job that held resources: the job as it runs or ran last, or an
/// earlier attempt of a requeued job. What fair share charges usage for.
struct JobRun {
  JobId job_id = 0;
  std::uint32_t attempt = 0;  ///< the job's restart count for that run
  std::string user;
  std::string account;
  std::string partition;
  std::string qos;
  std::uint32_t cpus = 0;
  std::uint64_t mem_mb = 0;
  std::uint32_t nodes = 0;
  std::uint32_t gpus = 0;
  Seconds start = k_no_time;
  Seconds end = k_no_time;  ///< k_no_time: it still runs
};

/// Slurm's exit code text: "status:signal".
std::string exit_code_text(int status, int signal);

}  // namespace stint
STINT_API_END
