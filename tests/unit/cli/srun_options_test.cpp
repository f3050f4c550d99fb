#include "cli/srun_options.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <catch2/catch.hpp>

using namespace stint;
using namespace stint::cli;

namespace {

// Slurm 22.05's srun(1): `man srun | grep -E '^       -'`, every long option.
constexpr std::array<std::string_view, 122> k_man_page_options = {
    "accel-bind",
    "account",
    "acctg-freq",
    "bb",
    "bbf",
    "bcast",
    "bcast-exclude",
    "begin",
    "chdir",
    "cluster-constraint",
    "clusters",
    "comment",
    "compress",
    "constraint",
    "container",
    "contiguous",
    "core-spec",
    "cores-per-socket",
    "cpu-bind",
    "cpu-freq",
    "cpus-per-gpu",
    "cpus-per-task",
    "deadline",
    "delay-boot",
    "dependency",
    "disable-status",
    "distribution",
    "epilog",
    "error",
    "exact",
    "exclude",
    "exclusive",
    "export",
    "extra-node-info",
    "gid",
    "gpu-bind",
    "gpu-freq",
    "gpus",
    "gpus-per-node",
    "gpus-per-socket",
    "gpus-per-task",
    "gres",
    "gres-flags",
    "help",
    "het-group",
    "hint",
    "hold",
    "immediate",
    "input",
    "job-name",
    "jobid",
    "kill-on-bad-exit",
    "label",
    "licenses",
    "mail-type",
    "mail-user",
    "mcs-label",
    "mem",
    "mem-bind",
    "mem-per-cpu",
    "mem-per-gpu",
    "mincpus",
    "mpi",
    "msg-timeout",
    "multi-prog",
    "network",
    "nice",
    "no-allocate",
    "no-kill",
    "nodefile",
    "nodelist",
    "nodes",
    "ntasks",
    "ntasks-per-core",
    "ntasks-per-gpu",
    "ntasks-per-node",
    "ntasks-per-socket",
    "open-mode",
    "output",
    "overcommit",
    "overlap",
    "oversubscribe",
    "partition",
    "power",
    "prefer",
    "preserve-env",
    "priority",
    "profile",
    "prolog",
    "propagate",
    "pty",
    "qos",
    "quiet",
    "quit-on-interrupt",
    "reboot",
    "relative",
    "reservation",
    "resv-ports",
    "send-libs",
    "signal",
    "slurmd-debug",
    "sockets-per-node",
    "spread-job",
    "switches",
    "task-epilog",
    "task-prolog",
    "test-only",
    "thread-spec",
    "threads",
    "threads-per-core",
    "time",
    "time-min",
    "tmp",
    "uid",
    "unbuffered",
    "usage",
    "use-min-nodes",
    "verbose",
    "version",
    "wait",
    "wckey",
    "x11",
};

const OptionSpec* by_name(std::string_view name) {
  for (const OptionSpec& o : srun_option_table()) {
    if (o.long_name == name) return &o;
  }
  return nullptr;
}

SrunOptions parse(const std::vector<std::string>& args, const EnvList& env = {}) {
  return parse_srun_command_line(args, env).options;
}

std::string allocation_value(const SrunOptions& o, std::string_view flag) {
  for (const auto& [f, v] : o.allocation) {
    if (f == flag) return v;
  }
  return "<none>";
}

}  // namespace

TEST_CASE("srun's table has every option of Slurm's srun(1)", "[srun]") {
  for (std::string_view name : k_man_page_options) {
    INFO(name);
    const OptionSpec* o = by_name(name);
    REQUIRE(o != nullptr);
    CHECK_FALSE(o->help.empty());
    CHECK_FALSE(o->here.empty());
  }
  // Slurm's srun also takes a few its page does not list.
  for (auto name : {"cpu_bind", "pack-group", "tasks-per-node", "interactive", "whole",
                    "debugger-test", "cluster", "context", "ntasks-per-tres"})
    CHECK(by_name(name) != nullptr);
  // Each name once; ranks distinct but for nothing (getopt's order).
  std::set<std::string_view> names;
  std::set<int> ranks;
  for (const OptionSpec& o : srun_option_table()) {
    CHECK(names.insert(o.long_name).second);
    CHECK(ranks.insert(o.slurm_rank).second);
  }
}

TEST_CASE("srun's --help is Slurm's, in its sections", "[srun]") {
  const std::string help = srun_help_text();
  CHECK(help.rfind("Usage: srun [OPTIONS(0)... [executable(0) [args(0)...]]]", 0) == 0);
  CHECK(help.find("\nParallel run options:\n  -A, --account=name          charge job to "
                  "specified account\n") != std::string::npos);
  CHECK(help.find("\nHelp options:\n  -h, --help                  show this help message\n") !=
        std::string::npos);
  CHECK(help.find("\n\nOther options:\n  -V, --version") != std::string::npos);
  // The short usage stays short (tests/cli/t92).
  const std::string usage = srun_usage_text();
  CHECK(std::count(usage.begin(), usage.end(), '\n') <= 30);
}

TEST_CASE("srun's abbreviations and getopt's messages, as the real srun's", "[srun]") {
  CHECK_THROWS_WITH(parse({"--n", "true"}),
                    "option '--n' is ambiguous; possibilities: '--network' '--nice' "
                    "'--no-allocate' '--no-kill' '--nodefile' '--nodelist' '--nodes' '--ntasks' "
                    "'--ntasks-per-core' '--ntasks-per-gpu' '--ntasks-per-node' "
                    "'--ntasks-per-socket' '--ntasks-per-tres'");
  CHECK_THROWS_WITH(parse({"--cpu", "true"}),
                    "option '--cpu' is ambiguous; possibilities: '--cpu-bind' '--cpu-freq' "
                    "'--cpus-per-gpu' '--cpus-per-task'");
  CHECK_THROWS_WITH(parse({"--ac", "true"}),
                    "option '--ac' is ambiguous; possibilities: '--accel-bind' '--account' "
                    "'--acctg-freq'");
  CHECK_THROWS_AS(parse({"--bogus"}), UsageError);
  // An alias is one option: --cpu_b is --cpu_bind; --het is --het-group.
  CHECK(parse({"--cpu_b=none", "true"}).cpu_bind == "none");
  CHECK(parse({"--ntasks-per-n=2", "true"}).ntasks_per_node == 2U);
  CHECK(parse({"--tasks-per=2", "true"}).ntasks_per_node == 2U);  // --tasks-per-node
  // The program's own options are its own.
  CHECK(parse({"-n2", "ls", "-l", "--bogus"}).command ==
        std::vector<std::string>{"ls", "-l", "--bogus"});
  // --mem takes the next word as its value, as getopt does.
  CHECK_THROWS_WITH(parse({"--mem", "true"}), "Invalid --mem specification");
  CHECK_THROWS_WITH(parse({"-n2"}), "No command given to execute.");
}

TEST_CASE("srun's step options", "[srun]") {
  const SrunOptions o = parse({"-n4",
                               "-N",
                               "2-4",
                               "-c2",
                               "--ntasks-per-node=2",
                               "-l",
                               "-K0",
                               "-u",
                               "-X",
                               "-vv",
                               "-W",
                               "30",
                               "-r1",
                               "--exact",
                               "--mpi=pmi2",
                               "--cpu-bind=v,map_cpu:0*2,3",
                               "--bcast",
                               "--task-prolog=/p",
                               "--task-epilog=/e",
                               "--prolog=none",
                               "--epilog=/ep",
                               "-E",
                               "--export=NONE",
                               "--open-mode=a",
                               "-i",
                               "all",
                               "--jobid=12",
                               "prog"});
  CHECK(o.ntasks == 4U);
  CHECK(o.nodes == 2U);
  CHECK(o.cpus_per_task == 2U);
  CHECK(o.ntasks_per_node == 2U);
  CHECK(o.label);
  CHECK(o.kill_on_bad_exit == false);  // -K0: given, off
  CHECK(o.unbuffered);
  CHECK(o.disable_status);
  CHECK(o.verbose == 2);
  CHECK(o.wait_after_first == 30U);
  CHECK(o.relative == 1U);
  CHECK(o.exact);
  CHECK(o.mpi == "pmi2");
  CHECK(o.cpu_bind == "verbose,map_cpu:0,0,3");
  CHECK(o.bcast == "");
  CHECK(o.task_prolog == "/p");
  CHECK(o.task_epilog == "/e");
  CHECK(o.prolog.empty());
  CHECK(o.epilog == "/ep");
  CHECK(o.preserve_env);
  CHECK(o.export_spec == "NONE");
  CHECK(o.open_append);
  CHECK(o.input == "all");
  CHECK(o.jobid == 12U);
  CHECK(o.command == std::vector<std::string>{"prog"});

  CHECK(parse({"-K", "true"}).kill_on_bad_exit == true);
  CHECK(parse({"--kill-on-bad-exit=1", "true"}).kill_on_bad_exit == true);
  // Given as 0, it overrides slurm.conf's KillOnBadExit=1; not given, it is unset.
  CHECK(parse({"--kill-on-bad-exit=0", "true"}).kill_on_bad_exit == false);
  CHECK_FALSE(parse({"true"}).kill_on_bad_exit.has_value());
  CHECK(parse({"--bcast=/tmp/x", "true"}).bcast == "/tmp/x");
  CHECK_FALSE(parse({"true"}).bcast);
  CHECK(parse({"--cpu-bind=threads", "true"}).cpu_bind == "threads");
  CHECK(parse({"--cpu-bind=quiet,mask_cpu:0x3,c", "true"}).cpu_bind == "mask_cpu:3,c");
  CHECK(parse({"--mpi=none", "true"}).mpi == "none");
  CHECK(parse({"true"}).mpi.empty());  // slurm.conf's MpiDefault decides
  // --exclusive is --exact for a step; --overlap lets steps share.
  CHECK(parse({"--exclusive", "true"}).exact);
  CHECK_FALSE(parse({"--exact", "--whole", "true"}).exact);
  CHECK(parse({"-I", "true"}).immediate == 0U);
  CHECK(parse({"--immediate=5", "true"}).immediate == 5U);
  CHECK_FALSE(parse({"true"}).immediate);
  CHECK(parse({"--overlap", "true"}).overlap);
  CHECK(parse({"--multi-prog", "tasks.conf"}).multi_prog);
  CHECK(parse({"-m", "block:*,Pack", "true"}).distribution == "block:*,Pack");
  CHECK(parse({"-m", "plane=2", "true"}).distribution == "plane=2");
}

TEST_CASE("srun's actions: help, usage, --mpi=list, --cpu-bind=help", "[srun]") {
  using Action = SrunCommandLine::Action;
  CHECK(parse_srun_command_line({"--help"}, {}).action == Action::help);
  CHECK(parse_srun_command_line({"--usage"}, {}).action == Action::usage);
  CHECK(parse_srun_command_line({"-V"}, {}).action == Action::version);
  CHECK(parse_srun_command_line({"--mpi=list"}, {}).action == Action::mpi_list);
  CHECK(parse_srun_command_line({"--cpu-bind=help"}, {}).action == Action::cpu_bind_help);
  CHECK(parse_srun_command_line({"--hint=help"}, {}).action == Action::hint_help);
  CHECK(parse_srun_command_line({"--mem-bind=help"}, {}).action == Action::mem_bind_help);
  CHECK(srun_mpi_list_text() == "MPI plugin types are...\n\tnone\n\tpmi2\n");
}

TEST_CASE("srun's bad values, with Slurm's messages", "[srun]") {
  CHECK_THROWS_WITH(parse({"-n", "0", "true"}), "Invalid numeric value \"0\" for --ntasks.");
  CHECK_THROWS_WITH(parse({"-c", "0", "true"}), "Invalid numeric value \"0\" for --cpus-per-task.");
  CHECK_THROWS_WITH(parse({"-N", "x", "true"}), "\"x\" is not a valid node count");
  CHECK_THROWS_WITH(parse({"-W", "x", "true"}), "Invalid numeric value \"x\" for --wait.");
  CHECK_THROWS_WITH(parse({"-r", "-1", "true"}), "Invalid numeric value \"-1\" for --relative.");
  CHECK_THROWS_WITH(parse({"--jobid=abc", "true"}), "Invalid numeric value \"abc\" for --jobid.");
  CHECK_THROWS_WITH(parse({"--kill-on-bad-exit=abc", "true"}),
                    "Invalid numeric value \"abc\" for --kill-on-bad-exit.");
  CHECK_THROWS_WITH(parse({"--time=bogus", "true"}), "Invalid --time specification");
  CHECK_THROWS_WITH(parse({"--open-mode=x", "true"}), "Invalid --open-mode specification");
  CHECK_THROWS_WITH(parse({"-m", "bogus", "true"}), "Invalid --distribution specification");
  CHECK_THROWS_WITH(parse({"--send-libs=maybe", "true"}), "Invalid --send-libs specification");
  CHECK_THROWS_WITH(parse({"--exclusive", "--overlap", "true"}),
                    "--exclusive and --overlap are mutually exclusive");
  CHECK_THROWS_WITH(parse({"--cpu-bind=bogus", "true"}),
                    "unrecognized --cpu-bind argument \"bogus\"\n"
                    "srun: fatal: Failed to parse --cpu-bind= values.");
  CHECK_THROWS_WITH(parse({"--cpu-bind=map_cpu:", "true"}),
                    "missing list for \"--cpu-bind=map_cpu:<list>\"\n"
                    "srun: fatal: Failed to parse --cpu-bind= values.");
  CHECK_THROWS_WITH(parse({"--cpu-bind=mask_cpu:zz", "true"}),
                    "Failed to validate number: zz, the offending character is z\n"
                    "srun: fatal: Failed to parse --cpu-bind= values.");
  CHECK_THROWS_WITH(parse({"--mpi=bogus", "true"}),
                    Catch::Contains("Invalid MPI type 'bogus', --mpi=list for acceptable types"));
  CHECK(parse({"-i", "file%t.txt", "true"}).input == "file%t.txt");
  CHECK(parse({"-i", "3", "true"}).input == "3");
  CHECK(parse({"--input=ALL", "true"}).input == "all");
}

TEST_CASE("srun refuses what this machine cannot do, saying what there is", "[srun]") {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--accel-bind=g"},
                                             {"--bcast-exclude=NONE"},
                                             {"--debugger-test"},
                                             {"--msg-timeout=5"},
                                             {"-Z"},
                                             {"--quit-on-interrupt"},
                                             {"--resv-ports"},
                                             {"--send-libs"},
                                             {"--slurmd-debug=2"},
                                             {"-T4"},
                                             {"--x11"},
                                             {"--test-only"},
                                             {"--mpi=pmix"},
                                             {"--cpu-bind=sockets"},
                                             {"-m", "arbitrary"}}) {
    std::vector<std::string> with_command = args;
    with_command.push_back("true");
    INFO(args.front());
    CHECK_THROWS_WITH(parse(with_command), Catch::Contains("is not available here: "));
  }
  CHECK(parse({"--send-libs=no", "true"}).command.size() == 1);
  // An unknown compression library is reported and srun goes on, as Slurm's does.
  const SrunCommandLine cl = parse_srun_command_line({"--compress=bogus", "true"}, {});
  REQUIRE(cl.notices.size() == 1);
  CHECK(cl.notices[0] == "error: Compression type 'bogus' unknown, disabling compression support.");
}

TEST_CASE("srun's allocation options, spelled as sbatch's", "[srun]") {
  const SrunOptions o = parse({"-p",     "debug",       "-t",
                               "10",     "--mem=1G",    "-N2-4",
                               "-n4",    "-J",          "x",
                               "--hold", "--exclusive", "--gres=gpu:1",
                               "-A",     "acct",        "--mail-type=END",
                               "-w",     "n-1",         "--nice",
                               "-o",     "out.txt",     "--export=NONE",
                               "-Q",     "true"});
  CHECK(allocation_value(o, "--partition") == "debug");
  CHECK(allocation_value(o, "--time") == "10");
  CHECK(allocation_value(o, "--mem") == "1G");
  CHECK(allocation_value(o, "--nodes") == "2-4");
  CHECK(allocation_value(o, "--ntasks") == "4");
  CHECK(allocation_value(o, "--job-name") == "x");
  CHECK(allocation_value(o, "--hold") == "");
  CHECK(allocation_value(o, "--exclusive") == "exclusive");
  CHECK(allocation_value(o, "--gres") == "gpu:1");
  CHECK(allocation_value(o, "--account") == "acct");
  CHECK(allocation_value(o, "--mail-type") == "END");
  CHECK(allocation_value(o, "--nodelist") == "n-1");
  CHECK(allocation_value(o, "--nice") == "100");
  // The step's files, environment and srun's own flags are not the job's.
  CHECK(allocation_value(o, "--output") == "<none>");
  CHECK(allocation_value(o, "--export") == "<none>");
  CHECK(allocation_value(o, "--quiet") == "<none>");
  CHECK(o.nodes == 2U);
  CHECK(o.quiet);
}

TEST_CASE("srun's input environment variables, below the command line", "[srun]") {
  const EnvList env = {
      {"SLURM_PARTITION", "gpu"},  {"SLURM_NTASKS", "3"},        {"SLURM_NPROCS", "9"},
      {"SLURM_LABELIO", "1"},      {"SLURM_UNBUFFEREDIO", "no"}, {"SRUN_CPUS_PER_TASK", "2"},
      {"SLURM_CPU_BIND", "none"},  {"SLURM_KILL_BAD_EXIT", "1"}, {"SLURM_EXPORT_ENV", "ALL"},
      {"SRUN_EXPORT_ENV", "NONE"}, {"SLURM_JOB_NAME", "batch"},  {"SLURM_MPI_TYPE", "pmi2"}};
  SrunOptions o = parse({"true"}, env);
  CHECK(allocation_value(o, "--partition") == "gpu");
  CHECK(o.ntasks == 3U);  // SLURM_NTASKS after SLURM_NPROCS
  CHECK(o.label);
  CHECK_FALSE(o.unbuffered);  // "no" leaves a flag unset
  CHECK(o.cpus_per_task == 2U);
  CHECK(o.cpu_bind == "none");
  CHECK(o.kill_on_bad_exit == true);
  CHECK(o.export_spec == "NONE");  // SRUN_EXPORT_ENV over SLURM_EXPORT_ENV
  CHECK(o.job_name == "batch");
  CHECK(o.mpi == "pmi2");
  // The command line wins.
  o = parse({"-n1", "-p", "debug", "--cpu-bind=cores", "true"}, env);
  CHECK(o.ntasks == 1U);
  CHECK(o.cpu_bind == "cores");
  CHECK(o.allocation.back() == std::pair<std::string, std::string>("--partition", "debug"));

  // Inside an allocation the batch job's name is not the step's, and its
  // node count only bounds the step: fewer tasks than nodes is a warning.
  const EnvList job = {{"SLURM_JOB_ID", "7"},
                       {"SLURM_JOB_NAME", "batch"},
                       {"SLURM_JOB_NUM_NODES", "2"},
                       {"SLURM_NNODES", "2"}};
  const SrunCommandLine cl = parse_srun_command_line({"-n1", "true"}, job);
  CHECK_FALSE(cl.options.job_name);
  CHECK_FALSE(cl.options.nodes);
  CHECK_FALSE(cl.options.jobid);  // SLURM_JOB_ID is read by srun itself
  CHECK(cl.notices ==
        std::vector<std::string>{"Warning: can't run 1 processes on 2 nodes, setting nnodes to 1"});
  CHECK(parse({"-N1", "true"}, job).nodes == 1U);
  // A bad value in a variable is an error, as in Slurm.
  CHECK_THROWS_WITH(parse({"true"}, {{"SLURM_NTASKS", "x"}}),
                    "Invalid numeric value \"x\" for --ntasks.");
}

TEST_CASE("srun --het-group=N reads component N's variables", "[srun]") {
  const EnvList env = {{"SLURM_JOB_ID", "12"},
                       {"SLURM_NTASKS", "1"},
                       {"SLURM_NTASKS_HET_GROUP_0", "1"},
                       {"SLURM_NTASKS_HET_GROUP_1", "4"},
                       {"SLURM_PARTITION", "a"},
                       {"SLURM_PARTITION_HET_GROUP_0", "a"},
                       {"SLURM_JOB_ID_HET_GROUP_1", "13"}};
  SrunOptions o = parse({"--het-group=1", "true"}, env);
  CHECK(o.het_group == 1U);
  CHECK(o.ntasks == 4U);
  o = parse({"--het-group=2", "true"}, env);
  CHECK_FALSE(o.ntasks);  // only components 0 and 1 asked for -n
  o = parse({"--het-group=0", "true"}, env);
  CHECK(o.ntasks == 1U);
  CHECK(parse({"--het-group=[1]", "true"}, env).het_group == 1U);
  CHECK(parse({"--pack-group=1", "true"}, env).het_group == 1U);
  for (const char* bad : {"x", "", "1-", "-1", "2-1", "128", "1,,2"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse({std::string("--het-group=") + bad, "true"}, env),
                      Catch::Contains("Invalid --het-group value"));
  }
  CHECK_THROWS_WITH(parse({"--het-group=0,1", "true"}, env),
                    Catch::Contains("one component at a time"));
}
