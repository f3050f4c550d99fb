#pragma once
/// Slurm-style output: squeue's -o/-O, sinfo's -o, sacct's --format, their
/// --noheader, --parsable and --json forms, and scontrol's `show` blocks.
///
/// Every column is a row of a table (in the .cpp files: long name, % letter,
/// header, default width, alignment, accessor); a format string selects rows
/// and widths. The formatters are pure: they take records and a Context with a
/// fixed "now", so golden tests need no live state. Errors (a malformed format
/// string, an unknown field) are stint::Error with Slurm's wording.

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <stint/export.hpp>
#include <stint/model.hpp>
#include <stint/query.hpp>

STINT_API_BEGIN
namespace stint::format {

enum class Align : std::uint8_t { left, right };

/// What formatters need besides the records.
struct Context {
  Seconds now = 0;
  std::string cluster_name = "stint";
  /// Partition PriorityTier by name, for squeue's priority sort.
  std::map<std::string, std::uint32_t> partition_tier;
  /// gid -> group name; unset or empty answer: the number is printed.
  std::function<std::string(std::uint32_t)> group_name;
  /// The machine the virtual nodes run on (scontrol show node).
  std::string arch = "x86_64";
  std::string os = "Linux";
  Seconds boot_time = k_no_time;
  /// Its one-minute load average, every virtual node's CPULoad (as several
  /// slurmds on one host each report the host's); unset: N/A.
  std::optional<double> cpu_load;
  std::string version;  ///< stint's version for scontrol's Version=
  /// Job ids that are array job ids: a dependency on the whole array prints
  /// "afterok:12_*" (query::dependency_arrays).
  std::set<JobId> array_jobs;
  /// TrackWCKey is on: scontrol show job prints WCKey=.
  bool track_wckey = false;
  /// Reservation name -> its id, for sacct's ReservationId (a reservation
  /// that is gone prints none).
  std::map<std::string, std::uint32_t> reservation_ids;
  /// --noconvert: memory sizes in MB as stored, not scaled to G or T.
  bool no_convert = false;
  /// The cluster's PreemptMode, every partition's (sinfo -O preemptmode).
  std::string preempt_mode = "OFF";
};

/// One selected column: which row of a tool's table, how wide, which way, and
/// the literal text printed after it.
struct Field {
  std::size_t column = 0;
  int width = 0;  ///< 0: as wide as the value; -1: the widest value (sinfo's "%#")
  Align align = Align::left;
  std::string suffix;
};

/// A parsed squeue/sinfo format: literal text before the first field, then
/// the fields.
struct Layout {
  std::string prefix;
  std::vector<Field> fields;
};

/// Pads or cuts `value` to `width` as squeue and sinfo print a field: right
/// alignment pads on the left, left alignment on the right; a value wider than
/// the field is cut to its width unless `cut` is false (node lists), and a
/// left-aligned value is always cut (Slurm prints it with "%.Ns").
std::string pad(std::string_view value, int width, Align align, bool cut = true);

/// The date line of `squeue -l` and `sinfo -l`: ctime's "Sun Nov 29 18:00:41 2026".
std::string date_line(Seconds t);

// --- arrays and dependencies ------------------------------------------------

/// Which tasks of an array fold into one line.
/// A line of output: one job, or an array's record, whose tasks Slurm shows
/// on one line ("28_[1-10%2]").
struct JobGroup {
  Job job;        ///< the job, or the record
  TaskSet tasks;  ///< the record's tasks; empty: `job` alone
};

/// Each job a group, in order: an array's record the group of its tasks.
/// Without `lone_records`, a record of one task left prints as that task
/// ("12_3", as squeue -j 12_3 and sacct -j 12_3 show it); with it, as the
/// record Slurm prints ("12_[3]").
std::vector<JobGroup> array_groups(std::vector<Job> jobs, bool lone_records = false);
/// `jobs` with each array's record replaced by its tasks, one job each
/// (array_task_of), in task order: squeue -r, --json.
std::vector<Job> expand_array_records(std::vector<Job> jobs);
/// Every job a group of its own (squeue -r).
std::vector<JobGroup> single_groups(std::vector<Job> jobs);
/// The JOBID column of squeue and sacct: "12", "12_3", "12_[1-10%2]".
std::string group_id_text(const JobGroup& group);
/// ArrayTaskId: "3", or "1-10%2" for folded tasks; "N/A" for a plain job.
std::string group_task_text(const JobGroup& group);
/// The dependency as squeue's %E and scontrol show it: each term with its
/// state while the job waits on it, "afterok:12_*(unfulfilled)",
/// "afterok:13(failed)", joined by ',' (all) or '?' (any); "(null)" when the
/// job waits on nothing.
std::string dependency_text(const Job& job, const Context& ctx);

// --- squeue ---------------------------------------------------------------

/// squeue -o: "%.18i %.9P %j..."; throws Errc::invalid_argument
/// "Invalid job format specification: X" for an unknown letter.
Layout parse_squeue_format(std::string_view format);
/// squeue -O: "JobID:10,Name:.20,State"; width 20 left-aligned by default;
/// throws "Invalid job format specification: name" for an unknown name.
Layout parse_squeue_long_format(std::string_view format);
/// `squeue --helpformat`: the field names -O takes, four to a line.
std::string squeue_helpformat();
/// The format squeue uses without -o/-O ("%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R",
/// or with -l the STATE and TIME_LIMIT form).
Layout squeue_default_layout(bool long_list);

/// The header line (with its newline).
std::string squeue_header(const Layout& layout);
/// One job's line (with its newline).
std::string squeue_line(const Layout& layout, const Job& job, const Context& ctx);
/// One line for a job or a folded group of array tasks.
std::string squeue_line(const Layout& layout, const JobGroup& group, const Context& ctx);

/// Sorts as squeue -S does: a comma list of format letters, '-' before a letter
/// reverses it; empty means Slurm's default "P,t,-p" (partition, state,
/// priority). Ties keep Slurm's order: newest job first (the tasks of an array
/// in task order, at the place of the array's job id), later start first.
/// Throws Errc::invalid_argument "Invalid sort specification: X".
void sort_squeue(std::vector<Job>& jobs, std::string_view spec, const Context& ctx);

struct SqueueOptions {
  Layout layout;               ///< from -o, -O, or squeue_default_layout
  std::string sort;            ///< -S; empty: Slurm's default order
  bool long_list = false;      ///< -l: the date line before the header
  bool no_header = false;      ///< -h
  bool expand_arrays = false;  ///< -r: one line per array task, no folding
  bool start = false;          ///< --start: expected starts first, soonest first
  /// -j named array tasks (12_3): each prints as itself ("12_3"), where a
  /// listing prints a lone task still in its array's record as that record
  /// ("12_[3]").
  bool task_query = false;
};
/// Whether the layout prints what a listing does not read of a job (its
/// comment, command, output paths...: JobPart::listing).
bool squeue_needs_whole_jobs(const Layout& layout);
/// squeue --start's layout.
inline constexpr std::string_view k_squeue_start_format =
    "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R";
/// When a job starts or started: a pending one's expected start (the
/// backfill plan's, else its begin time when that is ahead), k_no_time when
/// unknown.
Seconds expected_start(const Job& job, Seconds now);
/// The whole squeue output: sorted jobs under the header, the pending tasks of
/// an array folded into one line unless expand_arrays.
std::string render_squeue(std::vector<Job> jobs, const SqueueOptions& options, const Context& ctx);

/// render_squeue built one job at a time, for a listing too large to hold as
/// Jobs (100,000 of them were 120 MB): each job's line and sort values are
/// kept as it comes, not the job; of the pending array tasks that fold
/// together (unless expand_arrays), one job and the task ids. The output is
/// render_squeue's.
class SqueueLines {
 public:
  /// `ctx.array_jobs` is not used: render takes it.
  SqueueLines(SqueueOptions options, Context ctx);
  ~SqueueLines();
  SqueueLines(const SqueueLines&) = delete;
  SqueueLines& operator=(const SqueueLines&) = delete;

  void add(const Job& job);
  /// The jobs added with a dependency (of folded tasks, the group's): their
  /// lines wait for Context::array_jobs, which is worked out from them.
  std::vector<Job> with_dependencies() const;
  /// Writes the header and the lines, in squeue's order, to `out`.
  void print(std::FILE* out, std::set<JobId> array_jobs);

 private:
  struct State;
  std::unique_ptr<State> m_state;
};

/// `squeue --json`: {"meta":..., "errors":[], "jobs":[...]} in the shape of
/// Slurm's openapi v0.0.38 job records, for the fields stint has; pending
/// array tasks fold into one record (array_task_string) unless expand_arrays.
std::string squeue_json(const std::vector<Job>& jobs, const Context& ctx,
                        bool expand_arrays = false);

// --- sinfo ----------------------------------------------------------------

struct SinfoOptions {
  std::string format;                   ///< -o; empty: the default for the mode
  bool node_oriented = false;           ///< -N
  bool long_list = false;               ///< -l
  bool summarize = false;               ///< -s
  bool reasons = false;                 ///< -R
  bool no_header = false;               ///< -h
  std::vector<std::string> partitions;  ///< -p; empty: all
  /// -S: format letters, each maybe preceded by '+' or '-' (descending).
  std::string sort;
  /// -n, -t, -d: the nodes were filtered, so a partition none of whose
  /// nodes is left is not listed.
  bool hide_empty = false;
  /// -e: nodes share a line only when their configuration is the same.
  bool exact = false;
};

/// sinfo -o: "%P %a %l %D %t %N"; throws Errc::invalid_argument
/// "Invalid node format specification: X".
Layout parse_sinfo_format(std::string_view format);
/// The whole sinfo output (date line with -l, header, lines).
std::string render_sinfo(const std::vector<query::PartitionInfo>& partitions,
                         const std::vector<query::NodeInfo>& nodes, const SinfoOptions& options,
                         const Context& ctx);
/// `sinfo --json`: {"meta":..., "errors":[], "nodes":[...]}.
std::string sinfo_json(const std::vector<query::NodeInfo>& nodes, const Context& ctx);
/// A --json document as --yaml prints it (Slurm's tagged YAML 1.1).
std::string yaml_from_json(std::string_view json);

/// Node state names: sinfo %t ("mix"), sinfo %T ("mixed"), scontrol ("MIXED").
std::string_view node_state_short(query::NodeState s);
std::string_view node_state_long(query::NodeState s);
std::string_view node_state_upper(query::NodeState s);
/// A node's state with its reservation marks, as Slurm prints them: sinfo %t
/// ("maint", "resv", "mix$"), sinfo %T ("maint", "reserved", "mixed$"), and
/// scontrol's State= ("IDLE+MAINTENANCE+RESERVED", "MIXED+DRAIN").
std::string node_state_short(const query::NodeInfo& n);
std::string node_state_long(const query::NodeInfo& n);
std::string node_state_scontrol(const query::NodeInfo& n);

/// `sinfo -T`: "RESV_NAME STATE START_TIME END_TIME DURATION NODELIST", a line
/// per reservation, or "No reservations in the system".
std::string sinfo_reservations(const std::vector<Reservation>& reservations, bool no_header,
                               const Context& ctx);

// --- sacct ----------------------------------------------------------------

enum class Parsable : std::uint8_t {
  no,          ///< fixed-width columns with a dashed line under the header
  trailing,    ///< -p: "a|b|c|"
  no_trailing  ///< -P: "a|b|c"
};

/// One sacct field: a row of the sacct table with its (possibly overridden) width.
struct SacctField {
  std::size_t column = 0;
  int width = 0;
  Align align = Align::right;
};

/// sacct --format: "JobID,JobName%30,State"; names match case-insensitively
/// (then by prefix, as Slurm does); "%30" right-aligns in 30 columns, "%-30"
/// left-aligns; throws Errc::invalid_argument `Invalid field requested: "Foo"`.
std::vector<SacctField> parse_sacct_format(std::string_view format);
/// "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode".
std::string_view sacct_default_format();

struct SacctOptions {
  std::vector<SacctField> fields;
  Parsable parsable = Parsable::no;
  std::string delimiter = "|";  ///< --delimiter, with -p and -P
  bool no_header = false;
  bool allocations_only = false;  ///< -X: no step lines
  /// -j 12.0, 12.batch: of these jobs, only the steps named ("batch" or the
  /// step number), without the job's own line.
  std::map<JobId, std::set<std::string>> only_steps;
  /// --units=[KMGTP]: memory fields (MaxRSS, AveRSS, ReqMem) in this unit;
  /// '*' (--noconvert) leaves each in the unit it is kept in (K for RSS, M
  /// for ReqMem); nullopt converts each to the largest unit that keeps it
  /// exact.
  std::optional<char> units;
  /// As SqueueOptions::task_query.
  bool task_query = false;
};
/// Slurm's order of sacct records: by submit time, then array job id (0 for a
/// plain job), array task id and job id. Stable, so the attempts of a
/// requeued job stay oldest first.
void sort_sacct(std::vector<Job>& jobs);
/// The whole sacct output: header (and dashes), then per job its line and,
/// unless allocations_only, its ".batch" step line once it has started. The
/// records are sorted (sort_sacct), and the tasks of an array that never
/// started fold into one line ("28_[1-10%2]"). A job may appear more than
/// once (the attempts of sacct --duplicates).
/// `steps` are the jobs' srun steps (any order): each attempt's follow its
/// batch line, by step id ("12.0"), unless allocations_only.
std::string render_sacct(std::vector<Job> jobs, const SacctOptions& options, const Context& ctx,
                         const std::vector<JobStep>& steps = {});
/// `sacct --helpformat` / `-e`: the field names, four to a line.
std::string sacct_helpformat();
/// `sacct --json`: {"meta":..., "errors":[], "jobs":[...]} in the shape of
/// Slurm's dbv0.0.38 job records (with their "batch" step), sorted as sacct.
std::string sacct_json(std::vector<Job> jobs, const Context& ctx);
/// A memory amount as sacct prints it (Slurm's convert_num_unit): `value` in
/// units of `unit` ('K' or 'M'); to `to` when given ("96.17M"; '*' keeps
/// `unit`), else up while exact ("1.50G", "98480K"); 0 prints "0". Throws
/// Errc::invalid_argument
/// "Invalid unit type" for a unit other than K, M, G, T, P.
std::string sacct_memory(std::uint64_t value, char unit, std::optional<char> to);

// --- scontrol -------------------------------------------------------------

/// `scontrol show job` for one job: the "JobId=... JobName=..." block with
/// Slurm's placeholders for what stint does not have; `one_liner` (-o) puts
/// it on one line; `details` (-d) adds DerivedExitCode and the per-node
/// CPU_IDs/Mem/GRES lines (GPUs as "gpu:N(IDX:0-1)"). An array task names
/// its array on the first line (ArrayJobId, ArrayTaskId, ArrayTaskThrottle).
std::string scontrol_job(const Job& job, const Context& ctx, bool one_liner, bool details);
/// The same for a group: folded pending tasks print as one record with
/// ArrayTaskId=1-10%2, as Slurm shows a pending array.
std::string scontrol_job(const JobGroup& group, const Context& ctx, bool one_liner, bool details);
/// `scontrol show job` for several jobs: newest first, the pending tasks of
/// an array folded into one record.
std::string scontrol_jobs(std::vector<Job> jobs, const Context& ctx, bool one_liner, bool details);
/// `scontrol show node` for one node.
std::string scontrol_node(const query::NodeInfo& node, const Context& ctx, bool one_liner);
/// `scontrol show reservation` for one reservation: Slurm's block (one line
/// with `one_liner`); `cpus` is what its nodes have (CoreCnt, TRES).
std::string scontrol_reservation(const Reservation& r, std::uint32_t cpus, const Context& ctx,
                                 bool one_liner);
/// `scontrol show partition` for one partition; `preempt_mode` is the
/// cluster's PreemptMode.
std::string scontrol_partition(const query::PartitionInfo& part, std::string_view preempt_mode,
                               bool one_liner);

// --- sprio -----------------------------------------------------------------

/// One job's priority factors as sprio shows them: each factor normalised
/// (0..1, or raw with PriorityFlags=NO_NORMAL_*); the weighted values are
/// factor x weight (SprioWeights).
struct SprioRecord {
  JobId id = 0;
  std::string partition;
  std::string user;
  std::string account;
  std::string qos;
  double priority = 1;  ///< the weighted sum, at least 1, before truncation
  std::int64_t site = 0;
  std::int64_t nice = 0;
  double age = 0;
  double assoc = 0;
  double fairshare = 0;
  double job_size = 0;
  double partition_factor = 0;
  double qos_factor = 0;
  std::vector<std::pair<std::string, double>> tres;  ///< per weighted TRES ("cpu", "mem")
};

/// The PriorityWeight* keys, as `sprio -w` prints them.
struct SprioWeights {
  std::uint32_t age = 0;
  std::uint32_t assoc = 0;
  std::uint32_t fairshare = 0;
  std::uint32_t job_size = 0;
  std::uint32_t partition = 0;
  std::uint32_t qos = 0;
  std::vector<std::pair<std::string, double>> tres;  ///< PriorityWeightTRES by TRES name
  std::string tres_text;                             ///< PriorityWeightTRES as written
};

struct SprioOptions {
  std::string format;       ///< -o; empty: the default of the mode
  std::string sort;         ///< -S; empty: "i" (job id)
  bool long_list = false;   ///< -l
  bool normalized = false;  ///< -n
  bool weights = false;     ///< -w: the weights line instead of the jobs
  bool no_header = false;   ///< -h
  bool show_user = false;   ///< -u was given: the default format shows USER
};

/// sprio -o: "%.15i %9r %.10Y"; letters a A b B c f F i j J n N o p P q Q r S
/// t T u y Y (lower case normalised, upper case weighted); throws
/// Errc::invalid_argument "Invalid job format specification: X".
Layout parse_sprio_format(std::string_view format);
/// The format sprio uses without -o: JOBID, PARTITION, (USER,) PRIORITY,
/// SITE and a column for each factor with a weight; -l every column; -n the
/// normalised forms.
Layout sprio_default_layout(const SprioOptions& options, const SprioWeights& weights);
/// The whole sprio output: the header and a line per job (sorted as -S says;
/// letters as -o's, '-' before one reverses it), or with -w the weights line.
/// Throws Errc::invalid_argument "Invalid sort specification: X".
std::string render_sprio(std::vector<SprioRecord> records, const SprioOptions& options,
                         const SprioWeights& weights, const Context& ctx);

// --- sshare ----------------------------------------------------------------

/// One association as sshare shows it.
struct SshareRecord {
  std::string account;
  std::string user;  ///< empty: the account's own line
  int depth = 0;     ///< root 0; a user one deeper than its account
  bool is_root = false;
  std::optional<std::uint32_t> raw_shares;  ///< unset for root
  bool shares_parent = false;               ///< Fairshare=parent
  double norm_shares = 0;
  double raw_usage = 0;
  double norm_usage = 0;
  double effective_usage = 0;
  std::optional<double> fairshare;  ///< blank when unset (accounts under Fair Tree, root)
  std::optional<double> level_fs;   ///< blank when unset (root)
  std::string partition;
  std::string grp_tres_mins;  ///< GrpTRESMins as "cpu=100,..." (empty: none)
  /// TRES-minutes of the running jobs beneath, by TRES ("cpu", "mem", ...).
  std::vector<std::pair<std::string, std::uint64_t>> tres_run_mins;
};

struct SshareOptions {
  std::string format;                ///< -o: "Account,User,RawUsage%20"
  bool long_list = false;            ///< -l: NormUsage (and LevelFS under Fair Tree), TRES columns
  bool fair_tree = true;             ///< the default columns follow the algorithm
  bool partitions = false;           ///< -m: the Partition column
  bool users_only = false;           ///< -U
  bool no_header = false;            ///< -n
  Parsable parsable = Parsable::no;  ///< -p, -P
  std::string cluster_name;          ///< the Cluster field
};

/// sshare's output: header (with its dashes) and a line per record, in the
/// order given; fields matched by name prefix as sshare's -o does. Throws
/// Errc::invalid_argument `Invalid field requested: "X"`.
std::string render_sshare(const std::vector<SshareRecord>& records, const SshareOptions& options);
/// `sshare --helpformat`: the field names, four to a line.
std::string sshare_helpformat();

// --- shared value forms -----------------------------------------------------

/// The job's pending reason as squeue and scontrol show it: the hold reason
/// while held, else the scheduler's reason.
Reason effective_reason(const Job& job);
/// effective_reason as squeue's %r prints it: Slurm's description for the
/// reasons it describes ("Nodes required for job are DOWN, DRAINED or ..."
/// for ReqNodeNotAvail, "launch failed requeued held"), else the name.
std::string reason_text(const Job& job);
/// Seconds the job has run: now - start while it runs, end - start after.
Seconds time_used(const Job& job, Seconds now);
/// TRES as squeue/scontrol print it: "cpu=2,mem=512M,node=1,billing=2[,gres/gpu=1]";
/// from the allocation once the job has one, else from the request.
std::string job_tres(const Job& job);
/// CPU indices as Slurm folds them: {0,1,2,5} -> "0-2,5".
std::string id_ranges(const std::vector<std::uint32_t>& ids);

}  // namespace stint::format
STINT_API_END
