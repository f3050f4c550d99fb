// sbatch's options: the one table the parser, --help, the man page and the
// bash completion come from (cli/option_table.hpp), in --help order. The
// --help lines are Slurm 22.05's where Slurm prints the option; the options
// its help leaves out (--hint, --prefer, --test-only, ...) have lines in the
// same layout, so that every option is listed. `here` is what the option does
// on this machine; Effect::recorded marks those whose facility (burst
// buffers, power management, ...) does not exist here: they are checked,
// recorded and shown as on a cluster without it.

#include <array>

#include "cli/sbatch_options.hpp"

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

constexpr OptionSpec row(SbatchOpt id, char short_name, std::string_view long_name, ArgKind arg,
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

constexpr std::array k_sbatch_options = {
    row(SbatchOpt::array, 'a', "array", ArgKind::required, 2, "SBATCH_ARRAY_INX", k_parallel,
        "  -a, --array=indexes         job array index values\n", Effect::acts,
        "A job array: one job per index, each with SLURM_ARRAY_TASK_ID, at most N running at once "
        "with %N; indexes below the cluster's MaxArraySize."),
    row(SbatchOpt::account, 'A', "account", ArgKind::required, 0, "SBATCH_ACCOUNT", k_parallel,
        "  -A, --account=name          charge job to specified account\n", Effect::acts,
        "Charges the job to this account of the accounting store (sacctmgr); refused when the user "
        "has no association with it and AccountingStorageEnforce asks for associations."),
    row(SbatchOpt::acctg_freq, '\0', "acctg-freq", ArgKind::required, 1, "SBATCH_ACCTG_FREQ",
        k_parallel,
        "      --acctg-freq=<datatype>=<interval> accounting and profiling sampling\n"
        "                              intervals. Supported datatypes:\n"
        "                              task=<interval> energy=<interval>\n"
        "                              network=<interval> filesystem=<interval>\n",
        Effect::acts,
        "Checked as Slurm checks it (task=, energy=, network=, filesystem= or a bare number of "
        "seconds) and recorded; the task's memory and CPU time are read by stepd when the task "
        "ends, so the interval changes no figure here."),
    row(SbatchOpt::bb, '\0', "bb", ArgKind::required, 5, "SBATCH_BURST_BUFFER", k_parallel,
        "      --bb=<spec>             burst buffer specifications\n", Effect::recorded,
        "Burst buffer request. This machine has no burst buffer plugin: recorded and shown as "
        "BurstBuffer= in scontrol show job, as on a cluster without one."),
    row(SbatchOpt::bbf, '\0', "bbf", ArgKind::required, 6, "", k_parallel,
        "      --bbf=<file_name>       burst buffer specification file\n", Effect::acts,
        "A file whose lines go into the batch script after its first line (before it when "
        "that is not a comment), as Slurm's sbatch splices them, so they run first."),
    row(SbatchOpt::begin, 'b', "begin", ArgKind::required, 4, "", k_parallel,
        "  -b, --begin=time            defer job until HH:MM MM/DD/YY\n", Effect::acts,
        "Holds the job until that time (reason BeginTime)."),
    row(SbatchOpt::comment, '\0', "comment", ArgKind::required, 11, "", k_parallel,
        "      --comment=name          arbitrary comment\n", Effect::acts,
        "Recorded; shown by scontrol show job, squeue %k and sacct Comment."),
    row(SbatchOpt::context, '\0', "context", ArgKind::required, 13, "", k_parallel,
        "      --context=context       SELinux context of the job\n", Effect::recorded,
        "SELinux context. Recorded; this build has no SELinux support, as Slurm built without it."),
    row(SbatchOpt::cpu_freq, '\0', "cpu-freq", ArgKind::required, 18, "SBATCH_CPU_FREQ_REQ",
        k_parallel, "      --cpu-freq=min[-max[:gov]] requested cpu frequency (and governor)\n",
        Effect::recorded,
        "Checked as Slurm checks it and recorded (CpuFreqMin/Max/Gov in scontrol show job); CPU "
        "frequency is not changed here."),
    row(SbatchOpt::cpus_per_task, 'c', "cpus-per-task", ArgKind::required, 20, "", k_parallel,
        "  -c, --cpus-per-task=ncpus   number of cpus required per task\n", Effect::acts,
        "CPUs per task; the task runs bound to them (sched_setaffinity)."),
    row(SbatchOpt::dependency, 'd', "dependency", ArgKind::required, 23, "", k_parallel,
        "  -d, --dependency=type:jobid[:time] defer job until condition on jobid is satisfied\n",
        Effect::acts,
        "after, afterany, afterok, afternotok, aftercorr, afterburstbuffer, singleton; ',' all, "
        "'?' any."),
    row(SbatchOpt::deadline, '\0', "deadline", ArgKind::required, 21, "", k_parallel,
        "      --deadline=time         remove the job if no ending possible before\n"
        "                              this deadline (start > (deadline - time[-min]))\n",
        Effect::acts,
        "Ends a pending job that can no longer end before this time (state DEADLINE, reason "
        "DeadLine); it starts with its time limit cut to the minutes left."),
    row(SbatchOpt::delay_boot, '\0', "delay-boot", ArgKind::required, 22, "SBATCH_DELAY_BOOT",
        k_parallel, "      --delay-boot=mins       delay boot for desired node features\n",
        Effect::recorded, "Nodes never reboot here: recorded."),
    row(SbatchOpt::chdir, 'D', "chdir", ArgKind::required, 8, "", k_parallel,
        "  -D, --chdir=directory       set working directory for batch script\n", Effect::acts,
        "The job's working directory; relative output paths are relative to it."),
    row(SbatchOpt::error, 'e', "error", ArgKind::required, 25, "SBATCH_ERROR", k_parallel,
        "  -e, --error=err             file for batch script's standard error\n", Effect::acts,
        "The file for the script's standard error (file name patterns as for --output)."),
    row(SbatchOpt::export_env, '\0', "export", ArgKind::required, 28, "SBATCH_EXPORT", k_parallel,
        "      --export[=names]        specify environment variables to export\n", Effect::acts,
        "Which of the submitting environment's variables the job gets: ALL, NONE, or names and "
        "NAME=value pairs."),
    row(SbatchOpt::export_file, '\0', "export-file", ArgKind::required, 29, "", k_parallel,
        "      --export-file=file|fd   specify environment variables file or file\n"
        "                              descriptor to export\n",
        Effect::acts,
        "Variables from a file (NUL- or newline-separated NAME=value) added to the job's "
        "environment."),
    row(SbatchOpt::get_user_env, '\0', "get-user-env", ArgKind::optional, 31, "SBATCH_GET_USER_ENV",
        k_parallel, "      --get-user-env          load environment from local cluster\n",
        Effect::acts,
        "The job starts with the user's login environment (su - user, or the user's login shell "
        "under a personal stintd) beneath the submitted one; the optional timeout (default 8 s) "
        "and S or L mode as in Slurm."),
    row(SbatchOpt::gid, '\0', "gid", ArgKind::required, 32, "", k_parallel,
        "      --gid=group_id          group ID to run job as (user root only)\n", Effect::acts,
        "Root only: the group the job runs as."),
    row(SbatchOpt::gres, '\0', "gres", ArgKind::required, 39, "SBATCH_GRES", k_parallel,
        "      --gres=list             required generic resources\n", Effect::acts,
        "Generic resources: gpu[:type]:N per node."),
    row(SbatchOpt::gres_flags, '\0', "gres-flags", ArgKind::required, 40, "SBATCH_GRES_FLAGS",
        k_parallel, "      --gres-flags=opts       flags related to GRES management\n",
        Effect::recorded,
        "disable-binding or enforce-binding: checked and recorded; a virtual node's GPUs all sit "
        "on its one socket."),
    row(SbatchOpt::hold, 'H', "hold", ArgKind::none, 43, "", k_parallel,
        "  -H, --hold                  submit job in held state\n", Effect::acts,
        "Submits the job held (JobHeldUser) until scontrol release."),
    row(SbatchOpt::ignore_pbs, '\0', "ignore-pbs", ArgKind::none, 44, "SBATCH_IGNORE_PBS",
        k_parallel,
        "      --ignore-pbs            Ignore #PBS and #BSUB options in the batch script\n",
        Effect::acts,
        "Ignores #PBS and #BSUB lines in the script (read otherwise, as Slurm reads them)."),
    row(SbatchOpt::input, 'i', "input", ArgKind::required, 45, "SBATCH_INPUT", k_parallel,
        "  -i, --input=in              file for batch script's standard input\n", Effect::acts,
        "The file the script reads as standard input (default /dev/null)."),
    row(SbatchOpt::job_name, 'J', "job-name", ArgKind::required, 46, "SBATCH_JOB_NAME", k_parallel,
        "  -J, --job-name=jobname      name of job\n", Effect::acts,
        "The job's name (default: the script's file name, or wrap)."),
    row(SbatchOpt::kill_on_invalid_dep, '\0', "kill-on-invalid-dep", ArgKind::required, 47, "",
        k_parallel,
        "      --kill-on-invalid-dep=yes|no\n"
        "                              cancel the job if its dependency can never be\n"
        "                              satisfied, rather than leave it pending\n",
        Effect::acts,
        "Cancels the job when its dependency can never be satisfied, rather than leaving it "
        "pending."),
    row(SbatchOpt::no_kill, 'k', "no-kill", ArgKind::optional, 59, "SBATCH_NO_KILL", k_parallel,
        "  -k, --no-kill               do not kill job on node failure\n", Effect::acts,
        "A job on several nodes keeps running when one of them goes DOWN (the node leaves its "
        "allocation), unless it is the node running the script."),
    row(SbatchOpt::licenses, 'L', "licenses", ArgKind::required, 48, "", k_parallel,
        "  -L, --licenses=names        required license, comma separated\n", Effect::acts,
        "Licenses the job holds while it runs, from Licenses= in the config (name[:count], comma "
        "separated; '|' is refused, as in Slurm 22.05); it waits with reason Licenses while they "
        "are taken."),
    row(SbatchOpt::clusters, 'M', "clusters", ArgKind::required, 10,
        "SBATCH_CLUSTERS SLURM_CLUSTERS", k_parallel,
        "  -M, --clusters=names        Comma separated list of clusters to issue\n"
        "                              commands to.  Default is current cluster.\n"
        "                              Name of 'all' will submit to run on all clusters.\n"
        "                              NOTE: SlurmDBD must up.\n",
        Effect::acts,
        "Only this machine's cluster (its cluster_name) is known: naming it submits here, any "
        "other name is refused as Slurm refuses a cluster it cannot reach."),
    row(SbatchOpt::cluster, '\0', "cluster", ArgKind::required, 9, "", k_parallel,
        "      --cluster=name          same as --clusters\n", Effect::acts, "Same as --clusters."),
    row(SbatchOpt::container, '\0', "container", ArgKind::required, 12, "SBATCH_CONTAINER",
        k_parallel, "      --container             Path to OCI container bundle\n",
        Effect::recorded,
        "OCI container bundle path. Recorded and exported as SLURM_CONTAINER, as with Slurm's "
        "oci.conf absent; run-create --image runs a command in an image."),
    row(SbatchOpt::distribution, 'm', "distribution", ArgKind::required, 24, "SBATCH_DISTRIBUTION",
        k_parallel,
        "  -m, --distribution=type     distribution method for processes to nodes\n"
        "                              (type = block|cyclic|arbitrary)\n",
        Effect::acts,
        "Checked (block, cyclic, plane=N, arbitrary, with :block|cyclic|fcyclic and ,Pack|NoPack) "
        "and recorded; steps started by srun lay their tasks out by it."),
    row(SbatchOpt::mail_type, '\0', "mail-type", ArgKind::required, 49, "", k_parallel,
        "      --mail-type=type        notify on state change: BEGIN, END, FAIL or ALL\n",
        Effect::acts,
        "When to notify: BEGIN, END, FAIL, REQUEUE, ALL, TIME_LIMIT, TIME_LIMIT_50/80/90, "
        "ARRAY_TASKS, INVALID_DEPEND, STAGE_OUT, NONE. The notification runs MailProg (default "
        "/bin/mail) with Slurm's subject lines."),
    row(SbatchOpt::mail_user, '\0', "mail-user", ArgKind::required, 50, "", k_parallel,
        "      --mail-user=user        who to send email notification for job state\n"
        "                              changes\n",
        Effect::acts, "Who MailProg notifies (default: the submitting user)."),
    row(SbatchOpt::mcs_label, '\0', "mcs-label", ArgKind::required, 51, "", k_parallel,
        "      --mcs-label=mcs         mcs label if mcs plugin mcs/group is used\n", Effect::acts,
        "With no MCS plugin, as Slurm's mcs/none: refused unless empty."),
    row(SbatchOpt::ntasks, 'n', "ntasks", ArgKind::required, 64, "", k_parallel,
        "  -n, --ntasks=ntasks         number of tasks to run\n", Effect::acts,
        "Number of tasks; sets SLURM_NTASKS."),
    row(SbatchOpt::nice, '\0', "nice", ArgKind::optional, 58, "", k_parallel,
        "      --nice[=value]          decrease scheduling priority by value\n", Effect::acts,
        "Lowers the job's priority by this much (negative values: operators only)."),
    row(SbatchOpt::network, '\0', "network", ArgKind::required, 57, "SBATCH_NETWORK", k_parallel,
        "      --network=type          specify information pertaining to the switch or\n"
        "                              interconnect\n",
        Effect::recorded, "Interconnect options (Cray, IBM): recorded and shown as Network=."),
    row(SbatchOpt::no_requeue, '\0', "no-requeue", ArgKind::none, 60, "SBATCH_NO_REQUEUE",
        k_parallel, "      --no-requeue            if set, do not permit the job to be requeued\n",
        Effect::acts,
        "The job is never requeued (by scontrol requeue, preemption or a node failure)."),
    row(SbatchOpt::ntasks_per_node, '\0', "ntasks-per-node", ArgKind::required, 67, "", k_parallel,
        "      --ntasks-per-node=n     number of tasks to invoke on each node\n", Effect::acts,
        "Tasks on each node."),
    row(SbatchOpt::nodes, 'N', "nodes", ArgKind::required, 63, "", k_parallel,
        "  -N, --nodes=N               number of nodes on which to run (N = min[-max])\n",
        Effect::acts,
        "Node count, N or min-max: the job gets min nodes (Slurm may give more when they are "
        "free); max is recorded."),
    row(SbatchOpt::output, 'o', "output", ArgKind::required, 71, "SBATCH_OUTPUT", k_parallel,
        "  -o, --output=out            file for batch script's standard output\n", Effect::acts,
        "The file for the script's standard output (default slurm-%j.out, slurm-%A_%a.out for an "
        "array)."),
    row(SbatchOpt::open_mode, '\0', "open-mode", ArgKind::required, 70, "SBATCH_OPEN_MODE",
        k_parallel,
        "      --open-mode=append|truncate\n"
        "                              open the output and error files in append or\n"
        "                              truncate mode\n",
        Effect::acts,
        "append or truncate the output files (default truncate; a requeued attempt truncates "
        "too)."),
    row(SbatchOpt::overcommit, 'O', "overcommit", ArgKind::none, 72, "SBATCH_OVERCOMMIT",
        k_parallel, "  -O, --overcommit            overcommit resources\n", Effect::acts,
        "Tasks may outnumber the CPUs: one CPU per node is allocated."),
    row(SbatchOpt::partition, 'p', "partition", ArgKind::required, 75, "SBATCH_PARTITION",
        k_parallel, "  -p, --partition=partition   partition requested\n", Effect::acts,
        "The partition (default: the cluster file's default_partition_id)."),
    row(SbatchOpt::parsable, '\0', "parsable", ArgKind::none, 74, "", k_parallel,
        "      --parsable              outputs only the jobid and cluster name (if present),\n"
        "                              separated by semicolon, only on successful submission.\n",
        Effect::tool, "Prints only the job id (and ;cluster)."),
    row(SbatchOpt::power, '\0', "power", ArgKind::required, 76, "SBATCH_POWER", k_parallel,
        "      --power=flags           power management options\n", Effect::recorded,
        "Power management flags: recorded (no power plugin here)."),
    row(SbatchOpt::priority, '\0', "priority", ArgKind::required, 78, "", k_parallel,
        "      --priority=value        set the priority of the job to value\n", Effect::acts,
        "Operators only: fixes the job's priority (or TOP)."),
    row(SbatchOpt::profile, '\0', "profile", ArgKind::required, 79, "SBATCH_PROFILE", k_parallel,
        "      --profile=value         enable acct_gather_profile for detailed data\n"
        "                              value is all or none or any combination of\n"
        "                              energy, lustre, network or task\n",
        Effect::recorded,
        "acct_gather_profile series: checked and recorded; no profile plugin here."),
    row(SbatchOpt::propagate, '\0', "propagate", ArgKind::optional, 80, "", k_parallel,
        "      --propagate[=rlimits]   propagate all [or specific list of] rlimits\n", Effect::acts,
        "Which of the submitting shell's resource limits (ulimit) the job gets: ALL by default "
        "(PropagateResourceLimits), or a list (AS, CORE, CPU, DATA, FSIZE, MEMLOCK, NOFILE, NPROC, "
        "RSS, STACK), or NONE."),
    row(SbatchOpt::qos, 'q', "qos", ArgKind::required, 81, "SBATCH_QOS", k_parallel,
        "  -q, --qos=qos               quality of service\n", Effect::acts,
        "Quality of service from the accounting store (sacctmgr)."),
    row(SbatchOpt::quiet, 'Q', "quiet", ArgKind::none, 82, "", k_parallel,
        "  -Q, --quiet                 quiet mode (suppress informational messages)\n",
        Effect::tool, "Prints nothing on success."),
    row(SbatchOpt::reboot, '\0', "reboot", ArgKind::none, 83, "", k_parallel,
        "      --reboot                reboot compute nodes before starting job\n",
        Effect::recorded, "Nodes never reboot here: recorded and shown as Reboot=Yes."),
    row(SbatchOpt::requeue, '\0', "requeue", ArgKind::none, 84, "SBATCH_REQUEUE", k_parallel,
        "      --requeue               if set, permit the job to be requeued\n", Effect::acts,
        "The job may be requeued (the default is JobRequeue)."),
    row(SbatchOpt::oversubscribe, 's', "oversubscribe", ArgKind::none, 73, "", k_parallel,
        "  -s, --oversubscribe         over subscribe resources with other jobs\n", Effect::acts,
        "Recorded (OverSubscribe=YES in scontrol show job). Jobs never share a CPU here, as "
        "on a Slurm partition with OverSubscribe=NO, where the option changes nothing either."),
    row(SbatchOpt::core_spec, 'S', "core-spec", ArgKind::required, 16, "SBATCH_CORE_SPEC",
        k_parallel, "  -S, --core-spec=cores       count of reserved cores\n", Effect::recorded,
        "Cores reserved for system use on each node. Recorded and shown as CoreSpec=; every CPU of "
        "a virtual node is the job's to use."),
    row(SbatchOpt::signal, '\0', "signal", ArgKind::required, 86, "SBATCH_SIGNAL", k_parallel,
        "      --signal=[[R][B]:]num[@time] send signal when time limit within time seconds\n",
        Effect::acts,
        "Signal (to the batch shell only with B:) this many seconds before the time limit."),
    row(SbatchOpt::spread_job, '\0', "spread-job", ArgKind::none, 88, "SBATCH_SPREAD_JOB",
        k_parallel, "      --spread-job            spread job across as many nodes as possible\n",
        Effect::acts,
        "Without -N, a node per task over as many of the partition's nodes as it has tasks."),
    row(SbatchOpt::switches, '\0', "switches", ArgKind::required, 89,
        "SBATCH_REQ_SWITCH SBATCH_WAIT4SWITCH", k_parallel,
        "      --switches=max-switches{@max-time-to-wait}\n"
        "                              Optimum switches and max time to wait for optimum\n",
        Effect::recorded,
        "Network topology (topology plugin): recorded; all virtual nodes hang off one switch."),
    row(SbatchOpt::test_only, '\0', "test-only", ArgKind::none, 91, "", k_parallel,
        "      --test-only             validate and get estimated start time but do not submit\n",
        Effect::tool, "Submits nothing: prints when and where the job would start."),
    row(SbatchOpt::thread_spec, '\0', "thread-spec", ArgKind::required, 92, "SBATCH_THREAD_SPEC",
        k_parallel, "      --thread-spec=threads   count of reserved threads\n", Effect::recorded,
        "Threads reserved for system use: recorded and shown as ThreadSpec=."),
    row(SbatchOpt::time, 't', "time", ArgKind::required, 94, "SBATCH_TIMELIMIT", k_parallel,
        "  -t, --time=minutes          time limit\n", Effect::acts,
        "Time limit (minutes, MM:SS, HH:MM:SS, D-HH[:MM[:SS]]); SIGTERM then SIGKILL after "
        "KillWait at its end."),
    row(SbatchOpt::time_min, '\0', "time-min", ArgKind::required, 95, "", k_parallel,
        "      --time-min=minutes      minimum time limit (if distinct)\n", Effect::acts,
        "The least time limit the job accepts: the scheduler may start it earlier with a shorter "
        "limit, down to this."),
    row(SbatchOpt::uid, '\0', "uid", ArgKind::required, 97, "", k_parallel,
        "      --uid=user_id           user ID to run job as (user root only)\n", Effect::acts,
        "Root only: the user the job runs as."),
    row(SbatchOpt::use_min_nodes, '\0', "use-min-nodes", ArgKind::none, 98, "SBATCH_USE_MIN_NODES",
        k_parallel,
        "      --use-min-nodes         if a range of node counts is given, prefer the\n"
        "                              smaller count\n",
        Effect::acts, "With -N min-max, the least node count: what stint always gives."),
    row(SbatchOpt::verbose, 'v', "verbose", ArgKind::none, 99, "SBATCH_DEBUG", k_parallel,
        "  -v, --verbose               verbose mode (multiple -v's increase verbosity)\n",
        Effect::tool,
        "Lists the options set (\"defined options\", as Slurm's sbatch) on standard error; "
        "SBATCH_DEBUG=N sets the level."),
    row(SbatchOpt::wait, 'W', "wait", ArgKind::none, 102, "SBATCH_WAIT", k_parallel,
        "  -W, --wait                  wait for completion of submitted job\n", Effect::tool,
        "Waits for the job to end and exits with its exit status."),
    row(SbatchOpt::wait_all_nodes, '\0', "wait-all-nodes", ArgKind::required, 103,
        "SBATCH_WAIT_ALL_NODES", k_parallel,
        "      --wait-all-nodes=0|1    wait for all nodes to be ready (1) or not (0)\n"
        "                              before starting the batch script\n",
        Effect::acts, "0 or 1: checked and recorded; virtual nodes are ready when the job starts."),
    row(SbatchOpt::wckey, '\0', "wckey", ArgKind::required, 104, "SBATCH_WCKEY", k_parallel,
        "      --wckey=wckey           wckey to run job under\n", Effect::acts,
        "Workload characterisation key: recorded and shown by sacct WCKey and scontrol show job."),
    row(SbatchOpt::wrap, '\0', "wrap", ArgKind::required, 105, "", k_parallel,
        "      --wrap[=command string] wrap command string in a sh script and submit\n",
        Effect::tool, "Wraps the command in a sh script and submits it."),
    row(SbatchOpt::batch, '\0', "batch", ArgKind::required, 3, "SBATCH_BATCH", k_constraint,
        "      --batch=list            node features the batch step's node must have\n",
        Effect::recorded,
        "Node features for the batch step. Recorded and shown as BatchFeatures= in scontrol show "
        "job; the batch step runs on the job's first node."),
    row(SbatchOpt::cluster_constraint, '\0', "cluster-constraint", ArgKind::required, 7,
        "SBATCH_CLUSTER_CONSTRAINT", k_constraint,
        "      --cluster-constraint=[!]list specify a list of cluster constraints\n",
        Effect::recorded, "Federation cluster features. One cluster here: recorded."),
    row(SbatchOpt::contiguous, '\0', "contiguous", ArgKind::none, 14, "", k_constraint,
        "      --contiguous            demand a contiguous range of nodes\n", Effect::acts,
        "The nodes must be adjacent in the cluster file's order."),
    row(SbatchOpt::constraint, 'C', "constraint", ArgKind::required, 15, "SBATCH_CONSTRAINT",
        k_constraint, "  -C, --constraint=list       specify a list of constraints\n", Effect::acts,
        "Node features the job needs, matched against the features declared per node pool in "
        "stint.yaml: a&b, a|b, parentheses, [a|b] (one choice for all its nodes); a count (a*2) "
        "asks every node of the job for the feature."),
    row(SbatchOpt::nodefile, 'F', "nodefile", ArgKind::required, 61, "", k_constraint,
        "  -F, --nodefile=filename     request a specific list of hosts\n", Effect::acts,
        "A file of node names the job must run on, as --nodelist."),
    row(SbatchOpt::prefer, '\0', "prefer", ArgKind::required, 77, "", k_constraint,
        "      --prefer=list           features desired but not required by the job\n",
        Effect::acts, "Features wanted when nodes with them are free; ignored otherwise."),
    row(SbatchOpt::mem, '\0', "mem", ArgKind::required, 52, "SBATCH_MEM_PER_NODE", k_constraint,
        "      --mem=MB                minimum amount of real memory\n", Effect::acts,
        "Memory per node (0: all of it); the job's cgroup (or RLIMIT_AS without one) enforces it."),
    row(SbatchOpt::mincpus, '\0', "mincpus", ArgKind::required, 56, "", k_constraint,
        "      --mincpus=n             minimum number of logical processors (threads)\n"
        "                              per node\n",
        Effect::acts, "Nodes must give the job at least this many CPUs each."),
    row(SbatchOpt::reservation, '\0', "reservation", ArgKind::required, 85, "SBATCH_RESERVATION",
        k_constraint, "      --reservation=name      allocate resources from named reservation\n",
        Effect::acts,
        "Runs in that advance reservation (scontrol create reservation): on its nodes, in its time "
        "window."),
    row(SbatchOpt::tmp, '\0', "tmp", ArgKind::required, 96, "", k_constraint,
        "      --tmp=MB                minimum amount of temporary disk\n", Effect::acts,
        "Nodes must have at least this much temporary disk (TmpDisk of the pool)."),
    row(SbatchOpt::nodelist, 'w', "nodelist", ArgKind::required, 62, "", k_constraint,
        "  -w, --nodelist=hosts...     request a specific list of hosts\n", Effect::acts,
        "Nodes the job must run on (a hostlist, or a file if it contains '/'); -N rises to their "
        "count."),
    row(SbatchOpt::exclude, 'x', "exclude", ArgKind::required, 26, "", k_constraint,
        "  -x, --exclude=hosts...      exclude a specific list of hosts\n", Effect::acts,
        "Never run on these nodes."),
    row(SbatchOpt::exclusive, '\0', "exclusive", ArgKind::optional, 27, "SBATCH_EXCLUSIVE",
        k_consumable,
        "      --exclusive[=user]      allocate nodes in exclusive mode when\n"
        "                              cpu consumable resource is enabled\n"
        "      --exclusive[=mcs]       allocate nodes in exclusive mode when\n"
        "                              cpu consumable resource is enabled\n"
        "                              and mcs plugin is enabled\n",
        Effect::acts,
        "Whole nodes for the job, with all their CPUs, GPUs and (without --mem) memory. =user and "
        "=mcs give whole nodes too: stricter than Slurm, which shares them with the same user's "
        "(or MCS label's) jobs."),
    row(SbatchOpt::mem_per_cpu, '\0', "mem-per-cpu", ArgKind::required, 54, "SBATCH_MEM_PER_CPU",
        k_consumable,
        "      --mem-per-cpu=MB        maximum amount of real memory per allocated\n"
        "                              cpu required by the job.\n"
        "                              --mem >= --mem-per-cpu if --mem is specified.\n",
        Effect::acts, "Memory per allocated CPU."),
    row(SbatchOpt::sockets_per_node, '\0', "sockets-per-node", ArgKind::required, 87, "",
        k_affinity, "      --sockets-per-node=S    number of sockets per node to allocate\n",
        Effect::acts, "Nodes must have at least this many sockets (the pool's sockets)."),
    row(SbatchOpt::cores_per_socket, '\0', "cores-per-socket", ArgKind::required, 17, "",
        k_affinity, "      --cores-per-socket=C    number of cores per socket to allocate\n",
        Effect::acts,
        "Nodes must have at least this many cores per socket (the pool's CPUs over "
        "its sockets and threads)."),
    row(SbatchOpt::threads_per_core, '\0', "threads-per-core", ArgKind::required, 93,
        "SBATCH_THREADS_PER_CORE", k_affinity,
        "      --threads-per-core=T    number of threads per core to allocate\n", Effect::acts,
        "Nodes must have at least this many threads per core (the pool's threads_per_core); 1 on "
        "nodes with more takes whole cores, as Slurm does."),
    row(SbatchOpt::extra_node_info, 'B', "extra-node-info", ArgKind::required, 30, "", k_affinity,
        "  -B  --extra-node-info=S[:C[:T]]  combine request of sockets per node,\n"
        "                              cores per socket and threads per core.\n"
        "                              Specify an asterisk (*) as a placeholder,\n"
        "                              a minimum value, or a min-max range.\n",
        Effect::acts,
        "Sockets, cores per socket and threads per core each node must have at least (S[:C[:T]]), "
        "against its pool's layout (sockets, threads_per_core in stint.yaml)."),
    row(SbatchOpt::ntasks_per_core, '\0', "ntasks-per-core", ArgKind::required, 65, "", k_affinity,
        "\n"
        "      --ntasks-per-core=n     number of tasks to invoke on each core\n",
        Effect::acts, "At most this many tasks per core (one thread per core: per CPU)."),
    row(SbatchOpt::ntasks_per_socket, '\0', "ntasks-per-socket", ArgKind::required, 68, "",
        k_affinity, "      --ntasks-per-socket=n   number of tasks to invoke on each socket\n",
        Effect::acts, "At most this many tasks per socket of a node."),
    row(SbatchOpt::ntasks_per_node, '\0', "tasks-per-node", ArgKind::required, 90, "", k_affinity,
        "      --tasks-per-node=n      same as --ntasks-per-node\n", Effect::acts,
        "Same as --ntasks-per-node."),
    row(SbatchOpt::hint, '\0', "hint", ArgKind::required, 42, "SLURM_HINT SBATCH_HINT", k_affinity,
        "      --hint=                 Bind tasks according to application hints\n"
        "                              (see \"--hint=help\" for options)\n",
        Effect::acts,
        "compute_bound, memory_bound, [no]multithread: checked as Slurm checks it. nomultithread "
        "on a pool with threads_per_core > 1 takes whole cores (each task's CPUs with their "
        "sibling threads); otherwise the allocation is the same."),
    row(SbatchOpt::mem_bind, '\0', "mem-bind", ArgKind::required, 53, "SBATCH_MEM_BIND", k_affinity,
        "      --mem-bind=             Bind memory to locality domains (ldom)\n"
        "                              (see \"--mem-bind=help\" for options)\n",
        Effect::recorded,
        "Checked and recorded. Memory is not bound to NUMA nodes here (virtual nodes have one "
        "locality domain): the job runs as under Slurm's --mem-bind=none."),
    row(SbatchOpt::cpus_per_gpu, '\0', "cpus-per-gpu", ArgKind::required, 19, "SBATCH_CPUS_PER_GPU",
        k_gpu, "      --cpus-per-gpu=n        number of CPUs required per allocated GPU\n",
        Effect::acts, "CPUs per allocated GPU: the job's CPUs follow its GPU count."),
    row(SbatchOpt::gpus, 'G', "gpus", ArgKind::required, 35, "SBATCH_GPUS", k_gpu,
        "  -G, --gpus=n                count of GPUs required for the job\n", Effect::acts,
        "GPUs for the whole job, spread over its nodes; CUDA_VISIBLE_DEVICES names them."),
    row(SbatchOpt::gpu_bind, '\0', "gpu-bind", ArgKind::required, 33, "SBATCH_GPU_BIND", k_gpu,
        "      --gpu-bind=...          task to gpu binding options\n", Effect::recorded,
        "Checked and recorded (TresBind=gpu:... in scontrol show job). Steps do not take it as "
        "their default here: give srun its own --gpu-bind."),
    row(SbatchOpt::gpu_freq, '\0', "gpu-freq", ArgKind::required, 34, "SBATCH_GPU_FREQ", k_gpu,
        "      --gpu-freq=...          frequency and voltage of GPUs\n", Effect::recorded,
        "Checked and recorded; GPU clocks are not changed here."),
    row(SbatchOpt::gpus_per_node, '\0', "gpus-per-node", ArgKind::required, 36,
        "SBATCH_GPUS_PER_NODE", k_gpu,
        "      --gpus-per-node=n       number of GPUs required per allocated node\n", Effect::acts,
        "GPUs on each node of the job."),
    row(SbatchOpt::gpus_per_socket, '\0', "gpus-per-socket", ArgKind::required, 37,
        "SBATCH_GPUS_PER_SOCKET", k_gpu,
        "      --gpus-per-socket=n     number of GPUs required per allocated socket\n",
        Effect::acts,
        "GPUs per socket of each node (the pool's shape); needs --sockets-per-node, as in Slurm."),
    row(SbatchOpt::gpus_per_task, '\0', "gpus-per-task", ArgKind::required, 38,
        "SBATCH_GPUS_PER_TASK", k_gpu,
        "      --gpus-per-task=n       number of GPUs required per spawned task\n", Effect::acts,
        "GPUs for each task: the job's GPUs are tasks times this."),
    row(SbatchOpt::mem_per_gpu, '\0', "mem-per-gpu", ArgKind::required, 55, "SBATCH_MEM_PER_GPU",
        k_gpu, "      --mem-per-gpu=n         real memory required per allocated GPU\n",
        Effect::acts, "Memory per allocated GPU."),
    row(SbatchOpt::ntasks_per_gpu, '\0', "ntasks-per-gpu", ArgKind::required, 66, "", k_gpu,
        "      --ntasks-per-gpu=n      number of tasks to invoke for each allocated GPU\n",
        Effect::acts, "Tasks per GPU: the job's GPUs follow its task count."),
    row(SbatchOpt::ntasks_per_tres, '\0', "ntasks-per-tres", ArgKind::required, 69, "", k_gpu,
        "      --ntasks-per-tres=n     same as --ntasks-per-gpu\n", Effect::acts,
        "Same as --ntasks-per-gpu (Slurm's older spelling)."),
    row(SbatchOpt::help, 'h', "help", ArgKind::none, 41, "", k_help,
        "  -h, --help                  show this help message\n", Effect::tool,
        "Prints this help."),
    row(SbatchOpt::usage, '\0', "usage", ArgKind::none, 101, "", k_help,
        "      --usage                 display brief usage message\n", Effect::tool,
        "Prints a short usage message."),
    row(SbatchOpt::version, 'V', "version", ArgKind::none, 100, "", k_other,
        "  -V, --version               output version information and exit\n", Effect::tool,
        "Prints the version."),
};

}  // namespace

std::span<const OptionSpec> sbatch_option_table() { return k_sbatch_options; }

}  // namespace stint::cli
