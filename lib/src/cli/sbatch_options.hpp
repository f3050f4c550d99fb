#pragma once
// sbatch's options: the option table, Slurm's getopt_long rules for reading
// them, and the building of a JobSpec from the three places options come from.
//
// Precedence (Slurm's src/sbatch/opt.c, STYLE.md): defaults, then #SBATCH
// directives, then SBATCH_* environment variables, then the command line.
// Each layer's values are checked as it is applied, so a bad directive is an
// error even when the command line overrides it, as in Slurm.
//
// Everything here is pure: no I/O, no globals. The tool (sbatch.cpp) reads the
// script and the process environment and hands them in.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <stint/error.hpp>
#include <stint/model.hpp>

#include "cli/option_table.hpp"

namespace stint::cli {

/// Environment variables as (name, value) pairs, in the order the process had them.
using EnvList = std::vector<std::pair<std::string, std::string>>;

/// Every option sbatch knows (Slurm 22.05's whole vocabulary): the ids of
/// sbatch_option_table().
enum class SbatchOpt : std::uint8_t {
  account,
  acctg_freq,
  array,
  batch,
  bb,
  bbf,
  begin,
  chdir,
  cluster,
  cluster_constraint,
  clusters,
  comment,
  constraint,
  container,
  context,
  contiguous,
  core_spec,
  cores_per_socket,
  cpu_freq,
  cpus_per_gpu,
  cpus_per_task,
  deadline,
  delay_boot,
  dependency,
  distribution,
  error,
  exclude,
  exclusive,
  export_env,
  export_file,
  extra_node_info,
  get_user_env,
  gid,
  gpu_bind,
  gpu_freq,
  gpus,
  gpus_per_node,
  gpus_per_socket,
  gpus_per_task,
  gres,
  gres_flags,
  help,
  hint,
  hold,
  ignore_pbs,
  input,
  job_name,
  kill_on_invalid_dep,
  licenses,
  mail_type,
  mail_user,
  mcs_label,
  mem,
  mem_bind,
  mem_per_cpu,
  mem_per_gpu,
  mincpus,
  network,
  nice,
  no_kill,
  no_requeue,
  nodefile,
  nodelist,
  nodes,
  ntasks,
  ntasks_per_core,
  ntasks_per_gpu,
  ntasks_per_node,
  ntasks_per_socket,
  ntasks_per_tres,
  open_mode,
  output,
  overcommit,
  oversubscribe,
  parsable,
  partition,
  power,
  prefer,
  priority,
  profile,
  propagate,
  qos,
  quiet,
  reboot,
  requeue,
  reservation,
  signal,
  sockets_per_node,
  spread_job,
  switches,
  test_only,
  thread_spec,
  threads_per_core,
  time,
  time_min,
  tmp,
  uid,
  usage,
  use_min_nodes,
  verbose,
  version,
  wait,
  wait_all_nodes,
  wckey,
  wrap,
};

/// sbatch's option table, in --help order (cli/sbatch_table.cpp).
std::span<const OptionSpec> sbatch_option_table();

/// One option as found (FoundOption's id is a SbatchOpt).
using SbatchOptionArg = FoundOption;

/// What the first pass over the command line finds (Slurm's
/// process_options_first_pass): the options, unchecked, and the script.
struct SbatchCommandLine {
  enum class Action : std::uint8_t { submit, help, usage, version };
  Action action = Action::submit;
  std::vector<SbatchOptionArg> options;  ///< in order; values not yet checked
  std::optional<std::string> script;     ///< the script argument as written
  std::vector<std::string> script_args;  ///< the arguments after it
  std::optional<std::string> wrap;       ///< --wrap's command (the last one)
  bool ignore_pbs = false;               ///< --ignore-pbs: the script's #PBS lines are not read
  /// The options of the heterogeneous job's components after the first, one
  /// list for each ':' ("-n1 : -n2 job.sh" gives {{-n2}}); empty for an
  /// ordinary job. `options` holds component 0's.
  std::vector<std::vector<SbatchOptionArg>> component_options;
};

/// Reads sbatch's command line (without argv[0]) as Slurm's getopt_long does:
/// short options may be bundled (-HQ) and take values attached or separate
/// (-c4, -c 4); long options may be abbreviated to a unique prefix and take
/// values as --opt=value or --opt value; --nice takes a value only as
/// --nice=N; the first non-option argument is the script and everything after
/// it belongs to the script; "--" ends the options. A ':' alone separates
/// the components of a heterogeneous job; the script follows the last. As
/// Slurm's first pass reads every component's options, --help, --usage,
/// --version, --wrap and --ignore-pbs act from any component.
/// Throws UsageError for getopt's errors; Errc::invalid_argument for script
/// arguments combined with --wrap ("Script arguments not permitted with --wrap
/// option").
SbatchCommandLine parse_sbatch_command_line(const std::vector<std::string>& args);

/// Where the batch script came from.
enum class ScriptSource : std::uint8_t { file, wrap, standard_input };

/// The batch script as the tool read it.
struct BatchScript {
  std::string text;
  ScriptSource source = ScriptSource::file;
  std::string path;  ///< the file as resolved (absolute); empty unless source is file
};

/// What the submitting process looks like.
struct SubmitContext {
  EnvList environment;   ///< the whole environment, in order
  std::string cwd;       ///< absolute
  std::string hostname;  ///< short host name
  Seconds now = 0;       ///< the time of submission: --begin and --deadline count from it
  /// Reads a file the options name (--nodefile): its text, or nullopt when
  /// it cannot be read. Unset: no file can be read.
  std::function<std::optional<std::string>(const std::string& path)> read_file = nullptr;
  /// The submitting user's uid (--uid and --gid are root's only).
  std::uint32_t uid = 0;
  /// This cluster's name, for -M/--clusters (asked only when -M is given).
  std::function<std::string()> cluster_name = nullptr;
  /// Whether the config says StintForeignNames=map: a cluster's own names
  /// this machine lacks (another cluster for -M, a site plugin's #SBATCH
  /// option) are then set aside with a warning instead of refused. Asked
  /// only when one turns up.
  std::function<bool()> foreign_names_mapped = nullptr;
  /// Whether this cluster has a node of that name: with foreign names mapped,
  /// a -w list counts only those toward the node count (stintd leaves the
  /// others out).
  std::function<bool(const std::string& name)> node_known = nullptr;
  /// Resolves a user or group name or number for --uid/--gid: the id, or
  /// nullopt for none. Unset: numbers only.
  std::function<std::optional<std::uint32_t>(const std::string& name)> user_id = nullptr;
  std::function<std::optional<std::uint32_t>(const std::string& name)> group_id = nullptr;
  /// The submitting process's soft resource limits by Slurm's names (AS, CORE,
  /// CPU, DATA, FSIZE, MEMLOCK, NOFILE, NPROC, RSS, STACK), for --propagate.
  std::vector<std::pair<std::string, std::string>> rlimits = {};
};
/// This process's: its environment, working directory, host and the time
/// (sbatch.cpp; run-create submits with the same).
SubmitContext current_submit_context();

/// The result of sbatch's options: the job, and how sbatch itself behaves.
struct SbatchRequest {
  JobSpec spec;  ///< the job, or a heterogeneous job's component 0 (its leader)
  /// A heterogeneous job's components 1..N-1 (empty for an ordinary job). The
  /// script, its arguments and the environment are the leader's alone: these
  /// have none.
  std::vector<JobSpec> het_components;
  bool parsable = false;   ///< --parsable: print only the job id
  bool quiet = false;      ///< -Q: print nothing on success
  bool wait = false;       ///< -W: wait for the job to end, exit with its status
  bool test_only = false;  ///< --test-only: ask when it would start, submit nothing
  int verbose = 0;         ///< -v count
  /// Lines sbatch prints on standard error before it submits, as
  /// (level, text): ("error", "Change from #SLURM to #SBATCH ..."),
  /// ("warning", ...). What Slurm's client prints and goes on.
  std::vector<std::pair<std::string, std::string>> notices;
  /// --hint=help or --mem-bind=help: the text to print instead of submitting.
  std::string help_requested;
};

/// The largest MaxArraySize sbatch lets through: Slurm's own ceiling. The
/// cluster's MaxArraySize is stintd's to enforce.
inline constexpr std::uint32_t k_sbatch_max_array_size = 4000001;

/// Builds the request from the command line's first pass, the script, and the
/// submitting context: directives (extract_directives), SBATCH_* variables,
/// then the command line; then the defaults Slurm's client fills in (job name,
/// working directory, absolute output paths, slurm-%A_%a.out for an array) and
/// the environment per --export.
/// A heterogeneous job (components split by ':' on the command line or by
/// "#SBATCH hetjob" lines) is built component by component as Slurm's sbatch
/// builds it: component k starts from het_component_base of component k-1,
/// then takes its own directives (those after the k-th hetjob line), the
/// SBATCH_* variables, and the command line's k-th component. The script and
/// the command line may have different numbers of components: the extra ones
/// come from whichever has them. An --array in any component is refused
/// (Errc::invalid_array) after every component is built.
/// Throws stint::Error with Slurm's message for a bad value (e.g.
/// Errc::invalid_time "Invalid --time specification"), UsageError for an
/// unknown option in a directive, Errc::usage "Invalid directive found in batch
/// script: X" for a directive word that is not an option. A bad --array or
/// --dependency is refused here with the words and exit status (1) of
/// slurmctld's refusal, "Batch job submission failed: Invalid job array
/// specification" and "... Job dependency problem", since Slurm's sbatch
/// leaves both to the controller.
SbatchRequest build_sbatch_request(const SbatchCommandLine& command_line, const BatchScript& script,
                                   const SubmitContext& context);

/// Where a heterogeneous job's component k >= 1 starts: the options of
/// component k-1 that Slurm 22.05 carries over (those its slurm_opt.c does
/// not reset each pass: account, acctg-freq, batch, begin, chdir, clusters,
/// cluster-constraint, comment, container, context, deadline, delay-boot,
/// dependency, error, export, exclude, get-user-env, gid, hold, input,
/// job-name, kill-on-invalid-dep, mcs-label, mem, nice, no-kill, open-mode,
/// output, prefer, priority, profile, propagate, qos, reboot, requeue and
/// no-requeue, reservation, signal, time, time-min, uid, wait-all-nodes,
/// wckey); everything else (partition, nodes, tasks, CPUs, memory per CPU or
/// GPU, GPUs, constraint, node list, exclusive, distribution, mail...) as
/// defaults. The script, its arguments and the environment are not carried.
JobSpec het_component_base(const JobSpec& previous);

/// The script --wrap builds around a command, byte for byte as Slurm does.
std::string wrap_script(std::string_view command);

/// Slurm's checks of a script read from a file or standard input, in its
/// order: empty ("Batch script is empty!"), only whitespace, no "#!" on the
/// first line (three lines), a NUL character (two lines), DOS line breaks (two
/// lines). Throws Errc::batch_script_invalid; a message of several lines has
/// them separated by '\n' (the tool prefixes each).
void check_batch_script(std::string_view text);

/// The job's environment for an --export value (empty: ALL) and the
/// submitting environment, in order:
/// - ALL: everything.
/// - NONE, NIL: only SLURM_* variables. (Slurm's NONE also loads the user's
///   login environment on the node; stint keeps export_spec in the JobSpec so
///   the launcher may do so.)
/// - NAME,NAME=value,...: SLURM_* variables, then each named variable that is
///   set, then each NAME=value, in the order given.
/// - ALL,NAME=value,...: everything, then each NAME=value whose NAME is not
///   already set (the caller's own value takes precedence, as in Slurm).
EnvList export_environment(std::string_view spec, const EnvList& environment);

/// The --help text (ends with a newline).
std::string sbatch_help_text();
/// The --usage text (ends with a newline).
std::string sbatch_usage_text();

}  // namespace stint::cli
