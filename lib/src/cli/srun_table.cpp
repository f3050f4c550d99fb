// srun's options: the one table the parser, --help, the man page and the
// bash completion come from (cli/option_table.hpp), in --help order. The
// --help lines are Slurm 22.05's srun's; the options its help leaves out
// (--accel-bind, --cpu-bind, --test-only, ...) have lines in the same layout,
// so that every option is listed. Ranks are the places of srun's options in
// Slurm's own table (src/common/slurm_opt.c, the entries srun takes).
//
// The options srun shares with sbatch that only shape an allocation leave
// `here` empty: their text is sbatch's, followed by what srun does with them
// (build_table), so the two tools cannot describe one option two ways.

#include <array>
#include <deque>

#include "cli/srun_options.hpp"

namespace stint::cli {
namespace {

constexpr std::string_view k_parallel = "Parallel run options:";
constexpr std::string_view k_constraint = "Constraint options:";
constexpr std::string_view k_consumable = "Consumable resources related options:";
constexpr std::string_view k_affinity =
    "Affinity/Multi-core options: (when the task/affinity plugin is enabled)\n"
    "                              For the following 4 options, you are\n"
    "                              specifying the minimum resources available for\n"
    "                              the node(s) allocated to the job.";
constexpr std::string_view k_gpu = "GPU scheduling options:";
constexpr std::string_view k_help = "Help options:";
constexpr std::string_view k_other = "Other options:";

/// Follows sbatch's description of an allocation option.
constexpr std::string_view k_allocation_note =
    "srun outside an allocation asks for its job with it, as sbatch does; inside an allocation "
    "(SLURM_JOB_ID, --jobid) the job has its resources already and the step does not take it.";

// An allocation option sbatch has too: described by sbatch's row.
constexpr OptionSpec alloc(SbatchOpt id, char short_name, std::string_view long_name, ArgKind arg,
                           std::uint16_t slurm_rank, std::string_view env, std::string_view section,
                           std::string_view help) {
  return OptionSpec{static_cast<int>(id), short_name, long_name, arg,
                    slurm_rank,           env,        section,   help,
                    Effect::acts,         {}};
}

// An option sbatch has too that srun's step also uses, or uses otherwise.
constexpr OptionSpec shared(SbatchOpt id, char short_name, std::string_view long_name, ArgKind arg,
                            std::uint16_t slurm_rank, std::string_view env,
                            std::string_view section, std::string_view help, Effect effect,
                            std::string_view here) {
  return OptionSpec{static_cast<int>(id),
                    short_name,
                    long_name,
                    arg,
                    slurm_rank,
                    env,
                    section,
                    help,
                    effect,
                    here};
}

constexpr OptionSpec own(SrunOpt id, char short_name, std::string_view long_name, ArgKind arg,
                         std::uint16_t slurm_rank, std::string_view env, std::string_view section,
                         std::string_view help, Effect effect, std::string_view here) {
  return OptionSpec{static_cast<int>(id),
                    short_name,
                    long_name,
                    arg,
                    slurm_rank,
                    env,
                    section,
                    help,
                    effect,
                    here};
}

using A = ArgKind;
using S = SbatchOpt;
using R = SrunOpt;

constexpr std::array k_srun_options = {
    alloc(S::account, 'A', "account", A::required, 1, "SLURM_ACCOUNT", k_parallel,
          "  -A, --account=name          charge job to specified account\n"),
    alloc(S::acctg_freq, '\0', "acctg-freq", A::required, 2, "SLURM_ACCTG_FREQ", k_parallel,
          "      --acctg-freq=<datatype>=<interval> accounting and profiling sampling\n"
          "                              intervals. Supported datatypes:\n"
          "                              task=<interval> energy=<interval>\n"
          "                              network=<interval> filesystem=<interval>\n"),
    own(R::accel_bind, '\0', "accel-bind", A::required, 0, "", k_parallel,
        "      --accel-bind=options    bind tasks to the accelerators, NICs and MICs\n"
        "                              closest to them\n",
        Effect::acts,
        "Refused: there is no accelerator binding here; each task sees its node's GPUs in "
        "CUDA_VISIBLE_DEVICES."),
    alloc(S::bb, '\0', "bb", A::required, 6, "SLURM_BURST_BUFFER", k_parallel,
          "      --bb=<spec>             burst buffer specifications\n"),
    alloc(S::bbf, '\0', "bbf", A::required, 7, "", k_parallel,
          "      --bbf=<file_name>       burst buffer specification file\n"),
    own(R::bcast, '\0', "bcast", A::optional, 3, "SLURM_BCAST", k_parallel,
        "      --bcast=<dest_path>     Copy executable file to compute nodes\n", Effect::acts,
        "Copies the program to dest_path before the tasks start, and the tasks run the copy; a "
        "path ending in '/' (or none: the working directory) gets Slurm's name "
        "slurm_bcast_<job>.<step>_<node>."),
    own(R::bcast_exclude, '\0', "bcast-exclude", A::required, 4, "SLURM_BCAST_EXCLUDE", k_parallel,
        "      --bcast-exclude=<paths> Shared object directory paths to exclude\n", Effect::acts,
        "Refused: --bcast copies the program alone (no --send-libs here: the virtual nodes use "
        "this machine's libraries), so there is nothing to exclude."),
    alloc(S::begin, 'b', "begin", A::required, 5, "", k_parallel,
          "  -b, --begin=time            defer job until HH:MM MM/DD/YY\n"),
    shared(S::cpus_per_task, 'c', "cpus-per-task", A::required, 24, "SRUN_CPUS_PER_TASK",
           k_parallel, "  -c, --cpus-per-task=ncpus   number of cpus required per task\n",
           Effect::acts,
           "CPUs of each task; the task runs bound to them. Outside an allocation the job's too."),
    alloc(S::comment, '\0', "comment", A::required, 12, "", k_parallel,
          "      --comment=name          arbitrary comment\n"),
    own(R::compress, '\0', "compress", A::optional, 13, "SLURM_COMPRESS", k_parallel,
        "      --compress[=library]    data compression library used with --bcast\n",
        Effect::recorded,
        "lz4, zlib or none, checked as Slurm checks it (an unknown library is reported and "
        "compression disabled). The virtual nodes share this machine's disk, so --bcast's copy "
        "is a local one with nothing to compress."),
    alloc(S::container, '\0', "container", A::required, 14, "SRUN_CONTAINER", k_parallel,
          "      --container             Path to OCI container bundle\n"),
    alloc(S::context, '\0', "context", A::required, 15, "", k_parallel,
          "      --context=context       SELinux context of the job\n"),
    alloc(S::cpu_freq, '\0', "cpu-freq", A::required, 22, "SLURM_CPU_FREQ_REQ", k_parallel,
          "      --cpu-freq=min[-max[:gov]] requested cpu frequency (and governor)\n"),
    alloc(S::dependency, 'd', "dependency", A::required, 28, "SLURM_DEPENDENCY", k_parallel,
          "  -d, --dependency=type:jobid[:time] defer job until condition on jobid is "
          "satisfied\n"),
    alloc(S::deadline, '\0', "deadline", A::required, 25, "", k_parallel,
          "      --deadline=time         remove the job if no ending possible before\n"
          "                              this deadline (start > (deadline - time[-min]))\n"),
    own(R::debugger_test, '\0', "debugger-test", A::none, 26, "", k_parallel,
        "      --debugger-test         wait for a debugger to attach to the tasks\n", Effect::acts,
        "Refused: srun here has no debugger interface (MPIR); attach gdb -p to a task's pid "
        "(SLURM_TASK_PID) instead."),
    alloc(S::delay_boot, '\0', "delay-boot", A::required, 27, "SLURM_DELAY_BOOT", k_parallel,
          "      --delay-boot=mins       delay boot for desired node features\n"),
    shared(S::chdir, 'D', "chdir", A::required, 9, "SLURM_REMOTE_CWD SLURM_WORKING_DIR", k_parallel,
           "  -D, --chdir=path            change remote current working directory\n", Effect::acts,
           "The tasks' working directory. Outside an allocation the job's too, as sbatch's -D."),
    shared(S::export_env, '\0', "export", A::required, 36, "SLURM_EXPORT_ENV SRUN_EXPORT_ENV",
           k_parallel,
           "      --export=env_vars|NONE  environment variables passed to launcher with\n"
           "                              optional values or NONE (pass no variables)\n",
           Effect::acts,
           "Which of srun's variables the tasks get, as sbatch's --export: ALL (the default), "
           "NONE (only SLURM_* ones), or names and NAME=value pairs, with or without ALL."),
    shared(S::error, 'e', "error", A::required, 32, "SLURM_STDERRMODE", k_parallel,
           "  -e, --error=err             location of stderr redirection\n", Effect::acts,
           "A file for the tasks' standard error (%t task, %n node index, %N node name, %j job, "
           "%s step), instead of srun's own."),
    own(R::epilog, '\0', "epilog", A::required, 31, "SLURM_EPILOG", k_parallel,
        "      --epilog=program        run \"program\" after launching job step\n", Effect::acts,
        "srun runs the program after the step has ended, with the step's SLURM_* variables; "
        "none runs nothing."),
    own(R::preserve_env, 'E', "preserve-env", A::none, 93, "", k_parallel,
        "  -E, --preserve-env          env vars for node and task counts override\n"
        "                              command-line flags\n",
        Effect::acts,
        "The tasks get SLURM_NNODES and SLURM_NTASKS as srun found them, not the step's."),
    alloc(S::gres, '\0', "gres", A::required, 45, "SLURM_GRES", k_parallel,
          "      --gres=list             required generic resources\n"),
    alloc(S::gres_flags, '\0', "gres-flags", A::required, 46, "SLURM_GRES_FLAGS", k_parallel,
          "      --gres-flags=opts       flags related to GRES management\n"),
    alloc(S::gid, '\0', "gid", A::required, 38, "", k_parallel,
          "      --gid=group_id          group ID to run job as (user root only)\n"),
    alloc(S::hold, 'H', "hold", A::none, 50, "", k_parallel,
          "  -H, --hold                  submit job in held state\n"),
    shared(S::input, 'i', "input", A::required, 52, "SLURM_STDINMODE", k_parallel,
           "  -i, --input=in              location of stdin redirection\n", Effect::acts,
           "Where the tasks' standard input comes from: srun's to task 0 (the default) or to "
           "another task by its id, to every task (all), none (/dev/null), or a file each task "
           "reads (a pattern: %t, %n, %j as -o's)."),
    own(R::immediate, 'I', "immediate", A::optional, 51, "SLURM_IMMEDIATE", k_parallel,
        "  -I, --immediate[=secs]      exit if resources not available in \"secs\"\n", Effect::acts,
        "Outside an allocation: the job is cancelled unless it starts at once (or within "
        "secs), as salloc -I's. Inside one: a step whose CPUs other steps hold fails at once (or "
        "after secs) instead of waiting."),
    own(R::interactive, '\0', "interactive", A::none, 53, "", k_parallel,
        "      --interactive           the interactive step salloc starts\n", Effect::tool,
        "Marks the step salloc starts for its command when LaunchParameters has "
        "use_interactive_step; it runs as any other step."),
    own(R::jobid, '\0', "jobid", A::required, 54, "SLURM_JOB_ID", k_parallel,
        "      --jobid=id              run under already allocated job\n", Effect::acts,
        "Runs the step in that running job's allocation (its nodes, CPUs and GPUs), as from "
        "inside it; SLURM_JOB_ID (or SLURM_JOBID) does the same."),
    shared(S::job_name, 'J', "job-name", A::required, 55, "SLURM_JOB_NAME", k_parallel,
           "  -J, --job-name=jobname      name of job\n", Effect::acts,
           "The step's name (sacct JobName). Outside an allocation the job's too (by default "
           "the program's name); SLURM_JOB_NAME is not read inside an allocation, as in Slurm."),
    alloc(S::no_kill, 'k', "no-kill", A::optional, 74, "SLURM_NO_KILL", k_parallel,
          "  -k, --no-kill               do not kill job on node failure\n"),
    own(R::kill_on_bad_exit, 'K', "kill-on-bad-exit", A::optional, 56, "SLURM_KILL_BAD_EXIT",
        k_parallel,
        "  -K, --kill-on-bad-exit      kill the job if any task terminates with a\n"
        "                              non-zero exit code\n",
        Effect::acts,
        "Ends the step's other tasks when one exits non-zero (=0 turns it off, =1 or no value "
        "on)."),
    own(R::label, 'l', "label", A::none, 57, "SLURM_LABELIO", k_parallel,
        "  -l, --label                 prepend task number to lines of stdout/err\n", Effect::acts,
        "Each line of the tasks' output starts with the task's number (\"0: \")."),
    alloc(S::licenses, 'L', "licenses", A::required, 58, "", k_parallel,
          "  -L, --licenses=names        required license, comma separated\n"),
    alloc(S::clusters, 'M', "clusters", A::required, 11, "SLURM_CLUSTERS", k_parallel,
          "  -M, --clusters=names        Comma separated list of clusters to issue\n"
          "                              commands to.  Default is current cluster.\n"
          "                              Name of 'all' will submit to run on all clusters.\n"
          "                              NOTE: SlurmDBD must up.\n"),
    alloc(S::cluster, '\0', "cluster", A::required, 10, "", k_parallel,
          "      --cluster=name          same as --clusters\n"),
    shared(S::distribution, 'm', "distribution", A::required, 30, "SLURM_DISTRIBUTION", k_parallel,
           "  -m, --distribution=type     distribution method for processes to nodes\n"
           "                              (type = block|cyclic|arbitrary)\n",
           Effect::acts,
           "Checked as sbatch checks it. block, cyclic and plane=N lay the step's task ids over "
           "its nodes as Slurm's do, Pack fills each node first; within a node CPUs go in "
           "order (block), and arbitrary is refused. Outside an allocation the job's too."),
    alloc(S::mail_type, '\0', "mail-type", A::required, 59, "", k_parallel,
          "      --mail-type=type        notify on state change: BEGIN, END, FAIL or ALL\n"),
    alloc(S::mail_user, '\0', "mail-user", A::required, 60, "", k_parallel,
          "      --mail-user=user        who to send email notification for job state\n"
          "                              changes\n"),
    alloc(S::mcs_label, '\0', "mcs-label", A::required, 62, "", k_parallel,
          "      --mcs-label=mcs         mcs label if mcs plugin mcs/group is used\n"),
    own(R::mpi, '\0', "mpi", A::required, 68, "SLURM_MPI_TYPE", k_parallel,
        "      --mpi=type              type of MPI being used\n", Effect::acts,
        "none (the default) or pmi2, as Slurm's mpi plugins of those names; list prints the "
        "types this machine has. pmix and cray_shasta are refused, as on a cluster built "
        "without them."),
    own(R::msg_timeout, '\0', "msg-timeout", A::required, 69, "", k_parallel,
        "      --msg-timeout=secs      timeout for messages to the step's nodes\n", Effect::acts,
        "Refused: srun starts the tasks itself, with no messages to time out."),
    own(R::multi_prog, '\0', "multi-prog", A::none, 70, "SLURM_SRUN_MULTI", k_parallel,
        "      --multi-prog            if set the program name specified is the\n"
        "                              configuration specification for multiple programs\n",
        Effect::acts,
        "The command is a file of lines \"tasks program args\" (tasks: numbers, ranges, '*'; %t "
        "and %o in the arguments), each task running its line's program."),
    alloc(S::network, '\0', "network", A::required, 71, "SLURM_NETWORK", k_parallel,
          "      --network=type          specify information pertaining to the switch or\n"
          "                              interconnect\n"),
    shared(S::ntasks, 'n', "ntasks", A::required, 78, "SLURM_NPROCS SLURM_NTASKS", k_parallel,
           "  -n, --ntasks=ntasks         number of tasks to run\n", Effect::acts,
           "The step's tasks, laid out in blocks over its nodes. Outside an allocation the job's "
           "too."),
    alloc(S::nice, '\0', "nice", A::optional, 72, "", k_parallel,
          "      --nice[=value]          decrease scheduling priority by value\n"),
    shared(S::ntasks_per_node, '\0', "ntasks-per-node", A::required, 81, "SLURM_NTASKS_PER_NODE",
           k_parallel, "      --ntasks-per-node=n     number of tasks to invoke on each node\n",
           Effect::acts,
           "At most this many of the step's tasks on a node. Outside an allocation "
           "the job's too."),
    shared(S::nodes, 'N', "nodes", A::required, 77, "SLURM_NNODES SLURM_JOB_NUM_NODES", k_parallel,
           "  -N, --nodes=N               number of nodes on which to run (N = min[-max])\n",
           Effect::acts,
           "The step's node count (the lower one of min-max). Outside an allocation the job's, "
           "min-max as sbatch takes it. A count from the environment only bounds the step, as in "
           "Slurm: fewer tasks than nodes then take a node each."),
    shared(S::output, 'o', "output", A::required, 85, "SLURM_STDOUTMODE", k_parallel,
           "  -o, --output=out            location of stdout redirection\n", Effect::acts,
           "A file for the tasks' standard output (%t task, %n node index, %N node name, %j job, "
           "%s step), instead of srun's own."),
    shared(S::open_mode, '\0', "open-mode", A::required, 84, "SLURM_OPEN_MODE", k_parallel,
           "      --open-mode=append|truncate\n"
           "                              open the output and error files in append or\n"
           "                              truncate mode\n",
           Effect::acts, "Whether -o and -e files are appended to or truncated (the default)."),
    alloc(S::overcommit, 'O', "overcommit", A::none, 86, "SLURM_OVERCOMMIT", k_parallel,
          "  -O, --overcommit            overcommit resources\n"),
    own(R::overlap, '\0', "overlap", A::optional, 87, "SLURM_OVERLAP", k_parallel,
        "      --overlap               Allow other steps to overlap this step\n", Effect::acts,
        "The step may use CPUs other steps of the job use, and theirs it; not with --exclusive."),
    own(R::het_group, '\0', "het-group", A::required, 48, "", k_parallel,
        "      --het-group=value       hetjob component allocation(s) in which to launch\n"
        "                              application\n",
        Effect::acts,
        "Inside a heterogeneous job, the step runs in that component (0 by default), with its "
        "nodes and its _HET_GROUP_N variables, as sacct's 12+1.0; one component per srun."),
    own(R::het_group, '\0', "pack-group", A::required, 89, "", k_parallel,
        "      --pack-group=value      same as --het-group\n", Effect::acts,
        "Same as --het-group."),
    alloc(S::partition, 'p', "partition", A::required, 90, "SLURM_PARTITION", k_parallel,
          "  -p, --partition=partition   partition requested\n"),
    alloc(S::power, '\0', "power", A::required, 91, "SLURM_POWER", k_parallel,
          "      --power=flags           power management options\n"),
    alloc(S::priority, '\0', "priority", A::required, 94, "", k_parallel,
          "      --priority=value        set the priority of the job to value\n"),
    own(R::prolog, '\0', "prolog", A::required, 96, "SLURM_PROLOG", k_parallel,
        "      --prolog=program        run \"program\" before launching job step\n", Effect::acts,
        "srun runs the program before the step starts, with the step's SLURM_* variables; a "
        "non-zero exit stops the step. none runs nothing."),
    alloc(S::profile, '\0', "profile", A::required, 95, "SLURM_PROFILE", k_parallel,
          "      --profile=value         enable acct_gather_profile for detailed data\n"
          "                              value is all or none or any combination of\n"
          "                              energy, lustre, network or task\n"),
    alloc(S::propagate, '\0', "propagate", A::optional, 97, "", k_parallel,
          "      --propagate[=rlimits]   propagate all [or specific list of] rlimits\n"),
    own(R::pty, '\0', "pty", A::none, 98, "", k_parallel,
        "      --pty                   run task zero in pseudo terminal\n", Effect::acts,
        "Task 0 runs on a pseudo-terminal of its own (raw mode, window size; Ctrl-C and Ctrl-Z "
        "reach its foreground job); outside an allocation srun holds one through salloc and "
        "keeps the terminal."),
    own(R::quit_on_interrupt, '\0', "quit-on-interrupt", A::none, 101, "", k_parallel,
        "      --quit-on-interrupt     quit on single Ctrl-C\n", Effect::acts,
        "Refused: use -X/--disable-status, which sends Ctrl-C straight to the tasks."),
    alloc(S::qos, 'q', "qos", A::required, 99, "SLURM_QOS", k_parallel,
          "  -q, --qos=qos               quality of service\n"),
    shared(S::quiet, 'Q', "quiet", A::none, 100, "", k_parallel,
           "  -Q, --quiet                 quiet mode (suppress informational messages)\n",
           Effect::tool, "srun prints no informational messages (waiting, warnings)."),
    alloc(S::reboot, '\0', "reboot", A::none, 102, "", k_parallel,
          "      --reboot                reboot block before starting job\n"),
    own(R::relative, 'r', "relative", A::required, 103, "", k_parallel,
        "  -r, --relative=n            run job step relative to node n of allocation\n",
        Effect::acts, "The step's first node is the job's node n (counted from 0)."),
    alloc(S::oversubscribe, 's', "oversubscribe", A::none, 88, "", k_parallel,
          "  -s, --oversubscribe         over-subscribe resources with other jobs\n"),
    alloc(S::core_spec, 'S', "core-spec", A::required, 18, "SLURM_CORE_SPEC", k_parallel,
          "  -S, --core-spec=cores       count of reserved cores\n"),
    own(R::send_libs, '\0', "send-libs", A::optional, 106, "SLURM_SEND_LIBS", k_parallel,
        "      --send-libs[=yes|no]    autodetect and broadcast shared objects\n", Effect::acts,
        "no is taken (nothing is sent); yes is refused: --bcast copies the program alone, and "
        "the virtual nodes use this machine's libraries."),
    alloc(S::signal, '\0', "signal", A::required, 107, "SLURM_SIGNAL", k_parallel,
          "      --signal=[R:]num[@time] send signal when time limit within time seconds\n"),
    own(R::slurmd_debug, '\0', "slurmd-debug", A::required, 108, "SLURMD_DEBUG", k_parallel,
        "      --slurmd-debug=level    slurmd debug level\n", Effect::acts,
        "Refused: there is no slurmd; srun starts the tasks itself, and -v makes it say more."),
    alloc(S::spread_job, '\0', "spread-job", A::none, 110, "SLURM_SPREAD_JOB", k_parallel,
          "      --spread-job            spread job across as many nodes as possible\n"),
    alloc(S::switches, '\0', "switches", A::required, 111, "SLURM_REQ_SWITCH SLURM_WAIT4SWITCH",
          k_parallel,
          "      --switches=max-switches{@max-time-to-wait}\n"
          "                              Optimum switches and max time to wait for optimum\n"),
    own(R::task_epilog, '\0', "task-epilog", A::required, 112, "SLURM_TASK_EPILOG", k_parallel,
        "      --task-epilog=program   run \"program\" after launching task\n", Effect::acts,
        "Each task runs the program after its command ends, in the task's environment."),
    own(R::task_prolog, '\0', "task-prolog", A::required, 113, "SLURM_TASK_PROLOG", k_parallel,
        "      --task-prolog=program   run \"program\" before launching task\n", Effect::acts,
        "Each task runs the program before its command, in the task's environment; its "
        "\"export NAME=value\" lines set variables for the command, as Slurm's do."),
    shared(S::test_only, '\0', "test-only", A::none, 115, "", k_parallel,
           "      --test-only             validate and get estimated start time but do not "
           "submit\n",
           Effect::acts,
           "Refused: sbatch --test-only with the same options says when and where the job "
           "would start."),
    alloc(S::thread_spec, '\0', "thread-spec", A::required, 116, "SLURM_THREAD_SPEC", k_parallel,
          "      --thread-spec=threads   count of reserved threads\n"),
    own(R::threads, 'T', "threads", A::required, 61, "SLURM_THREADS", k_parallel,
        "  -T, --threads=threads       set srun launch fanout\n", Effect::acts,
        "Refused: srun starts the tasks itself, with no launch fan-out to set."),
    shared(S::time, 't', "time", A::required, 118, "SLURM_TIMELIMIT", k_parallel,
           "  -t, --time=minutes          time limit\n", Effect::acts,
           "Checked as sbatch checks it (\"Invalid --time specification\"). Outside an "
           "allocation the job's time limit, as sbatch's; inside one the step runs within the "
           "job's limit and has none of its own."),
    alloc(S::time_min, '\0', "time-min", A::required, 119, "", k_parallel,
          "      --time-min=minutes      minimum time limit (if distinct)\n"),
    alloc(S::uid, '\0', "uid", A::required, 121, "", k_parallel,
          "      --uid=user_id           user ID to run job as (user root only)\n"),
    own(R::unbuffered, 'u', "unbuffered", A::none, 122, "SLURM_UNBUFFEREDIO", k_parallel,
        "  -u, --unbuffered            do not line-buffer stdout/err\n", Effect::acts,
        "The tasks' output is passed on as they write it, not line by line."),
    alloc(S::use_min_nodes, '\0', "use-min-nodes", A::none, 123, "SLURM_USE_MIN_NODES", k_parallel,
          "      --use-min-nodes         if a range of node counts is given, prefer the\n"
          "                              smaller count\n"),
    shared(S::verbose, 'v', "verbose", A::none, 124, "SLURM_DEBUG", k_parallel,
           "  -v, --verbose               verbose mode (multiple -v's increase verbosity)\n",
           Effect::tool, "srun says more of what it does on standard error (more with -vv)."),
    own(R::wait, 'W', "wait", A::required, 127, "SLURM_WAIT", k_parallel,
        "  -W, --wait=sec              seconds to wait after first task exits\n"
        "                              before killing job\n",
        Effect::acts,
        "Ends the step's other tasks this many seconds after the first one exited (0: no "
        "limit)."),
    alloc(S::wckey, '\0', "wckey", A::required, 128, "SLURM_WCKEY", k_parallel,
          "      --wckey=wckey           wckey to run job under\n"),
    own(R::whole, '\0', "whole", A::none, 129, "", k_parallel,
        "      --whole                 use all the resources of the step's nodes\n", Effect::acts,
        "The step holds every free CPU of its nodes, as it does without --exact (Slurm 22.05's "
        "default); it undoes an --exact or --exclusive before it."),
    own(R::disable_status, 'X', "disable-status", A::none, 29, "SLURM_DISABLE_STATUS", k_parallel,
        "  -X, --disable-status        Disable Ctrl-C status feature\n", Effect::acts,
        "Ctrl-C (SIGINT) goes straight to the tasks instead of srun reporting the step's "
        "status first."),
    own(R::x11, '\0', "x11", A::optional, 130, "", k_parallel,
        "      --x11[=<all|first|last>] forward X11 to the nodes\n", Effect::acts,
        "Refused: there is no X11 forwarding; the tasks run on this machine and keep its "
        "DISPLAY."),

    alloc(S::cluster_constraint, '\0', "cluster-constraint", A::required, 8,
          "SLURM_CLUSTER_CONSTRAINT", k_constraint,
          "      --cluster-constraint=list specify a list of cluster-constraints\n"),
    alloc(S::contiguous, '\0', "contiguous", A::none, 16, "", k_constraint,
          "      --contiguous            demand a contiguous range of nodes\n"),
    alloc(S::constraint, 'C', "constraint", A::required, 17, "SLURM_CONSTRAINT", k_constraint,
          "  -C, --constraint=list       specify a list of constraints\n"),
    alloc(S::mem, '\0', "mem", A::required, 63, "SLURM_MEM_PER_NODE", k_constraint,
          "      --mem=MB                minimum amount of real memory\n"),
    alloc(S::mincpus, '\0', "mincpus", A::required, 67, "", k_constraint,
          "      --mincpus=n             minimum number of logical processors (threads)\n"
          "                              per node\n"),
    alloc(S::prefer, '\0', "prefer", A::required, 92, "", k_constraint,
          "      --prefer=list           features desired but not required by the job\n"),
    alloc(S::reservation, '\0', "reservation", A::required, 104, "SLURM_RESERVATION", k_constraint,
          "      --reservation=name      allocate resources from named reservation\n"),
    alloc(S::tmp, '\0', "tmp", A::required, 120, "", k_constraint,
          "      --tmp=MB                minimum amount of temporary disk\n"),
    shared(S::nodelist, 'w', "nodelist", A::required, 76, "", k_constraint,
           "  -w, --nodelist=hosts...     request a specific list of hosts\n", Effect::acts,
           "The nodes the step runs on, among the job's. Outside an allocation the job's, as "
           "sbatch's -w."),
    alloc(S::nodefile, 'F', "nodefile", A::required, 75, "", k_constraint,
          "  -F, --nodefile=filename     request a specific list of hosts\n"),
    alloc(S::exclude, 'x', "exclude", A::required, 34, "", k_constraint,
          "  -x, --exclude=hosts...      exclude a specific list of hosts\n"),
    own(R::no_allocate, 'Z', "no-allocate", A::none, 73, "", k_constraint,
        "  -Z, --no-allocate           don't allocate nodes (must supply -w)\n", Effect::acts,
        "Refused: every step here runs in an allocation; salloc or sbatch gets one, and srun "
        "runs in it."),

    own(R::exact, '\0', "exact", A::none, 33, "SLURM_EXACT", k_consumable,
        "      --exact                 use only the resources requested for the step\n"
        "                              (by default, all non-gres resources on each node\n"
        "                              in the allocation will be used in the step)\n",
        Effect::acts,
        "The step gets only the CPUs its tasks ask for, so that several steps run side by side "
        "in one allocation."),
    shared(S::exclusive, '\0', "exclusive", A::optional, 35, "SLURM_EXCLUSIVE", k_consumable,
           "      --exclusive[=user]      for job allocation, this allocates nodes in\n"
           "                              in exclusive mode\n"
           "                              for job steps, this is equivalent to --exact\n"
           "      --exclusive[=mcs]       allocate nodes in exclusive mode when\n"
           "                              cpu consumable resource is enabled\n"
           "                              and mcs plugin is enabled (--exact implied)\n"
           "                              or don't share CPUs for job steps\n",
           Effect::acts,
           "For the step, --exact (its CPUs are not shared with other steps). Outside an "
           "allocation also whole nodes for the job, as sbatch's --exclusive; not with "
           "--overlap."),
    alloc(S::mem_per_cpu, '\0', "mem-per-cpu", A::required, 65, "SLURM_MEM_PER_CPU", k_consumable,
          "      --mem-per-cpu=MB        maximum amount of real memory per allocated\n"
          "                              cpu required by the job.\n"
          "                              --mem >= --mem-per-cpu if --mem is specified.\n"),
    own(R::resv_ports, '\0', "resv-ports", A::optional, 105, "SLURM_RESV_PORTS", k_consumable,
        "      --resv-ports            reserve communication ports\n", Effect::acts,
        "Refused: no MpiParams=ports here; run-create --ports reserves ports for a run's "
        "nodes."),

    alloc(S::sockets_per_node, '\0', "sockets-per-node", A::required, 109,
          "SLURM_NSOCKETS_PER_NODE", k_affinity,
          "      --sockets-per-node=S    number of sockets per node to allocate\n"),
    alloc(S::cores_per_socket, '\0', "cores-per-socket", A::required, 19, "SLURM_NCORES_PER_SOCKET",
          k_affinity, "      --cores-per-socket=C    number of cores per socket to allocate\n"),
    alloc(S::threads_per_core, '\0', "threads-per-core", A::required, 117, "SLURM_THREADS_PER_CORE",
          k_affinity, "      --threads-per-core=T    number of threads per core to allocate\n"),
    alloc(S::extra_node_info, 'B', "extra-node-info", A::required, 37, "", k_affinity,
          "  -B  --extra-node-info=S[:C[:T]]  combine request of sockets per node,\n"
          "                              cores per socket and threads per core.\n"
          "                              Specify an asterisk (*) as a placeholder,\n"
          "                              a minimum value, or a min-max range.\n"),
    alloc(S::ntasks_per_core, '\0', "ntasks-per-core", A::required, 79, "SLURM_NTASKS_PER_CORE",
          k_affinity,
          "\n"
          "      --ntasks-per-core=n     number of tasks to invoke on each core\n"),
    alloc(S::ntasks_per_socket, '\0', "ntasks-per-socket", A::required, 82,
          "SLURM_NTASKS_PER_SOCKET", k_affinity,
          "      --ntasks-per-socket=n   number of tasks to invoke on each socket\n"),
    shared(S::ntasks_per_node, '\0', "tasks-per-node", A::required, 114, "", k_affinity,
           "      --tasks-per-node=n      same as --ntasks-per-node\n", Effect::acts,
           "Same as --ntasks-per-node."),
    own(R::cpu_bind, '\0', "cpu-bind", A::required, 20, "SLURM_CPU_BIND", k_affinity,
        "      --cpu-bind=             Bind tasks to CPUs\n"
        "                              (see \"--cpu-bind=help\" for options)\n",
        Effect::acts,
        "Types none, cores, threads, map_cpu:<list> and mask_cpu:<list>, after quiet or verbose: "
        "none leaves the "
        "tasks unbound, cores (the default) and threads bind each to its CPUs, map_cpu and "
        "mask_cpu to the CPUs listed per task; verbose reports each binding. rank, sockets, "
        "ldoms and the *_ldom types are refused (one locality domain per virtual node)."),
    own(R::cpu_bind, '\0', "cpu_bind", A::required, 21, "", k_affinity,
        "      --cpu_bind=             same as --cpu-bind\n", Effect::acts, "Same as --cpu-bind."),
    alloc(S::hint, '\0', "hint", A::required, 49, "SLURM_HINT", k_affinity,
          "      --hint=                 Bind tasks according to application hints\n"
          "                              (see \"--hint=help\" for options)\n"),
    alloc(S::mem_bind, '\0', "mem-bind", A::required, 64, "SLURM_MEM_BIND", k_affinity,
          "      --mem-bind=             Bind memory to locality domains (ldom)\n"
          "                              (see \"--mem-bind=help\" for options)\n"),

    alloc(S::cpus_per_gpu, '\0', "cpus-per-gpu", A::required, 23, "SLURM_CPUS_PER_GPU", k_gpu,
          "      --cpus-per-gpu=n        number of CPUs required per allocated GPU\n"),
    alloc(S::gpus, 'G', "gpus", A::required, 41, "SLURM_GPUS", k_gpu,
          "  -G, --gpus=n                count of GPUs required for the job\n"),
    alloc(S::gpu_bind, '\0', "gpu-bind", A::required, 39, "SLURM_GPU_BIND", k_gpu,
          "      --gpu-bind=...          task to gpu binding options\n"),
    alloc(S::gpu_freq, '\0', "gpu-freq", A::required, 40, "SLURM_GPU_FREQ", k_gpu,
          "      --gpu-freq=...          frequency and voltage of GPUs\n"),
    alloc(S::gpus_per_node, '\0', "gpus-per-node", A::required, 42, "SLURM_GPUS_PER_NODE", k_gpu,
          "      --gpus-per-node=n       number of GPUs required per allocated node\n"),
    alloc(S::gpus_per_socket, '\0', "gpus-per-socket", A::required, 43, "SLURM_GPUS_PER_SOCKET",
          k_gpu, "      --gpus-per-socket=n     number of GPUs required per allocated socket\n"),
    alloc(S::gpus_per_task, '\0', "gpus-per-task", A::required, 44, "SLURM_GPUS_PER_TASK", k_gpu,
          "      --gpus-per-task=n       number of GPUs required per spawned task\n"),
    alloc(S::mem_per_gpu, '\0', "mem-per-gpu", A::required, 66, "SLURM_MEM_PER_GPU", k_gpu,
          "      --mem-per-gpu=n         real memory required per allocated GPU\n"),
    alloc(S::ntasks_per_gpu, '\0', "ntasks-per-gpu", A::required, 80, "SLURM_NTASKS_PER_GPU", k_gpu,
          "      --ntasks-per-gpu=n      number of tasks to invoke for each allocated GPU\n"),
    alloc(S::ntasks_per_tres, '\0', "ntasks-per-tres", A::required, 83, "SLURM_NTASKS_PER_TRES",
          k_gpu, "      --ntasks-per-tres=n     same as --ntasks-per-gpu\n"),

    shared(S::help, 'h', "help", A::none, 47, "", k_help,
           "  -h, --help                  show this help message\n", Effect::tool,
           "Prints this list of options."),
    shared(S::usage, '\0', "usage", A::none, 126, "", k_help,
           "      --usage                 display brief usage message\n", Effect::tool,
           "Prints a short usage message."),

    shared(S::version, 'V', "version", A::none, 125, "", k_other,
           "  -V, --version               output version information and exit\n", Effect::tool,
           "Prints stint's version."),
};

std::vector<OptionSpec> build_table() {
  // Storage for the composed texts; the table's string_views point into it.
  static std::deque<std::string> composed;
  std::vector<OptionSpec> table;
  for (OptionSpec row : k_srun_options) {
    if (row.here.empty()) {
      for (const OptionSpec& batch : sbatch_option_table()) {
        if (batch.long_name != row.long_name) continue;
        composed.push_back(std::string(batch.here) + " " + std::string(k_allocation_note));
        row.here = composed.back();
        row.effect = batch.effect;
        break;
      }
    }
    table.push_back(row);
  }
  return table;
}

}  // namespace

std::span<const OptionSpec> srun_option_table() {
  static const std::vector<OptionSpec> table = build_table();
  return table;
}

std::string srun_mpi_list_text() { return "MPI plugin types are...\n\tnone\n\tpmi2\n"; }

std::string srun_help_text() {
  return help_text(srun_option_table(),
                   "Usage: srun [OPTIONS(0)... [executable(0) [args(0)...]]] [ : [OPTIONS(N)...]] "
                   "executable(N) [args(N)...]");
}

std::string srun_usage_text() {
  // Slurm's lines, two pairs of short ones joined: a usage message stays
  // within 30 lines (tests/cli/t92).
  return R"(Usage: srun [-N nnodes] [-n ntasks] [-i in] [-o out] [-e err]
            [-c ncpus] [-r n] [-p partition] [--hold] [-t minutes]
            [-D path] [--immediate[=secs]] [--overcommit] [--overlap] [--no-kill]
            [--oversubscribe] [--label] [--unbuffered] [-m dist] [-J jobname]
            [--jobid=id] [--verbose] [--slurmd_debug=#] [--gres=list]
            [-T threads] [-W sec] [--gres-flags=opts]
            [--licenses=names] [--clusters=cluster_names] [--qos=qos] [--time-min=minutes]
            [--contiguous] [--mincpus=n] [--mem=MB] [--tmp=MB] [-C list]
            [--mpi=type] [--account=name] [--dependency=type:jobid[+time]]
            [--kill-on-bad-exit] [--propagate[=rlimits] [--comment=name]
            [--cpu-bind=...] [--mem-bind=...] [--network=type]
            [--ntasks-per-node=n] [--ntasks-per-socket=n] [reservation=name]
            [--ntasks-per-core=n] [--mem-per-cpu=MB] [--preserve-env]
            [--profile=...] [--exact]
            [--mail-type=type] [--mail-user=user] [--nice[=value]]
            [--prolog=fname] [--epilog=fname]
            [--task-prolog=fname] [--task-epilog=fname]
            [--ctrl-comm-ifhn=addr] [--multi-prog] [--mcs-label=mcs]
            [--cpu-freq=min[-max[:gov]]] [--power=flags] [--spread-job]
            [--switches=max-switches{@max-time-to-wait}] [--reboot]
            [--core-spec=cores] [--thread-spec=threads]
            [--bb=burst_buffer_spec] [--bbf=burst_buffer_file]
            [--bcast=<dest_path>] [--bcast-exclude=<NONE|path1,...,pathN>]
            [--send-libs[=y|n]] [--compress[=library]]
            [--acctg-freq=<datatype>=<interval>] [--delay-boot=mins]
            [-w hosts...] [-x hosts...] [--use-min-nodes]
            [--mpi-combine=yes|no] [--het-group=value]
            [--cpus-per-gpu=n] [--gpus=n] [--gpu-bind=...] [--gpu-freq=...]
            [--gpus-per-node=n] [--gpus-per-socket=n] [--gpus-per-task=n]
            [--mem-per-gpu=MB] executable [args...]
)";
}

std::string_view srun_cpu_bind_help() {
  // Slurm's slurm_print_cpu_bind_help, as printed where binding is supported.
  return "CPU bind options:\n"
         "    --cpu-bind=         Bind tasks to CPUs\n"
         "        q[uiet]         quietly bind before task runs (default)\n"
         "        v[erbose]       verbosely report binding before task runs\n"
         "        no[ne]          don't bind tasks to CPUs (default)\n"
         "        rank            bind by task rank\n"
         "        map_cpu:<list>  specify a CPU ID binding for each task\n"
         "                        where <list> is <cpuid1>,<cpuid2>,...<cpuidN>\n"
         "        mask_cpu:<list> specify a CPU ID binding mask for each task\n"
         "                        where <list> is <mask1>,<mask2>,...<maskN>\n"
         "        rank_ldom       bind task by rank to CPUs in a NUMA locality domain\n"
         "        map_ldom:<list> specify a NUMA locality domain ID for each task\n"
         "                        where <list> is <ldom1>,<ldom2>,...<ldomN>\n"
         "        mask_ldom:<list>specify a NUMA locality domain ID mask for each task\n"
         "                        where <list> is <mask1>,<mask2>,...<maskN>\n"
         "        sockets         auto-generated masks bind to sockets\n"
         "        cores           auto-generated masks bind to cores\n"
         "        threads         auto-generated masks bind to threads\n"
         "        ldoms           auto-generated masks bind to NUMA locality domains\n"
         "        help            show this help message\n";
}

}  // namespace stint::cli
