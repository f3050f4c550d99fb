#include "cli/sbatch_options.hpp"

#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/error.hpp>

namespace {

using stint::Errc;
using stint::Error;
using stint::JobSpec;
using namespace stint::cli;

const std::string k_script = "#!/bin/sh\necho hi\n";

struct Submit {
  std::vector<std::string> args;
  std::string script = k_script;
  EnvList env{};
  std::string cwd = "/home/u/proj";
};

SbatchRequest build(const Submit& s) {
  const SbatchCommandLine cl = parse_sbatch_command_line(s.args);
  BatchScript script;
  if (cl.wrap) {
    script.source = ScriptSource::wrap;
    script.text = wrap_script(*cl.wrap);
  } else if (cl.script) {
    script.source = ScriptSource::file;
    script.path = s.cwd + "/" + *cl.script;
    script.text = s.script;
  } else {
    script.source = ScriptSource::standard_input;
    script.text = s.script;
  }
  return build_sbatch_request(cl, script, SubmitContext{s.env, s.cwd, "node1"});
}

JobSpec spec(std::vector<std::string> args) { return build(Submit{std::move(args)}).spec; }

// The code and message of the Error `f` throws.
template <typename F>
std::pair<Errc, std::string> error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  FAIL("no error thrown");
  return {Errc::ok, ""};
}

std::string usage_error_of(const std::vector<std::string>& args) {
  try {
    (void)parse_sbatch_command_line(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  FAIL("no usage error thrown");
  return "";
}

}  // namespace

TEST_CASE("each option sets its JobSpec field, short and long", "[sbatch]") {
  CHECK(spec({"-J", "train", "job.sh"}).name == "train");
  CHECK(spec({"--job-name=a b", "job.sh"}).name == "a b");
  CHECK(spec({"--job-name", "x", "job.sh"}).name == "x");
  CHECK(spec({"-p", "gpu", "job.sh"}).partition == "gpu");
  CHECK(spec({"--partition=cpu,high", "job.sh"}).partition == "cpu,high");
  CHECK(spec({"-A", "lab", "job.sh"}).account == "lab");
  CHECK(spec({"--account=physics", "job.sh"}).account == "physics");
  CHECK(spec({"-q", "high", "job.sh"}).qos == "high");
  CHECK(spec({"--qos=normal", "job.sh"}).qos == "normal");
  CHECK(spec({"-N", "2", "job.sh"}).nodes == 2u);
  CHECK(spec({"--nodes=2-4", "job.sh"}).nodes == 2u);
  CHECK(spec({"-N0-3", "job.sh"}).nodes == 1u);
  CHECK(spec({"-n", "4", "job.sh"}).ntasks == 4u);
  CHECK(spec({"--ntasks=8", "job.sh"}).ntasks == 8u);
  CHECK(spec({"-c4", "job.sh"}).cpus_per_task == 4u);
  CHECK(spec({"--cpus-per-task", "2", "job.sh"}).cpus_per_task == 2u);
  CHECK(spec({"--ntasks-per-node=3", "job.sh"}).ntasks_per_node == 3u);
  CHECK(spec({"--mem=4G", "job.sh"}).mem_per_node_mb == 4096u);
  CHECK(spec({"--mem", "100", "job.sh"}).mem_per_node_mb == 100u);
  CHECK(spec({"--mem=0", "job.sh"}).mem_per_node_mb == 0u);
  CHECK(spec({"--mem-per-cpu=2G", "job.sh"}).mem_per_cpu_mb == 2048u);
  CHECK(spec({"-t", "10", "job.sh"}).time_limit == 600);
  CHECK(spec({"--time=1:00:00", "job.sh"}).time_limit == 3600);
  CHECK(spec({"--time=1-00:00:00", "job.sh"}).time_limit == 86400);
  CHECK(spec({"-t", "UNLIMITED", "job.sh"}).time_limit == stint::k_infinite);
  CHECK(spec({"--comment=hi there", "job.sh"}).comment == "hi there");
  CHECK(spec({"-H", "job.sh"}).hold);
  CHECK(spec({"--hold", "job.sh"}).hold);
  CHECK_FALSE(spec({"job.sh"}).hold);

  JobSpec g = spec({"--gres=gpu:a100:2", "job.sh"});
  CHECK(g.gpus_per_node == 2u);
  CHECK(g.gpu_type == "a100");
  g = spec({"--gres=gpu:1", "job.sh"});
  CHECK(g.gpus_per_node == 1u);
  CHECK(g.gpu_type.empty());
  g = spec({"-G", "3", "job.sh"});
  CHECK(g.gpus == 3u);
  CHECK_FALSE(g.gpus_per_node);
  g = spec({"--gpus=v100:2", "job.sh"});
  CHECK(g.gpus == 2u);
  CHECK(g.gpu_type == "v100");
  g = spec({"--gpus-per-node=4", "job.sh"});
  CHECK(g.gpus_per_node == 4u);
}

TEST_CASE("flags that change sbatch itself", "[sbatch]") {
  CHECK(build({{"--parsable", "job.sh"}}).parsable);
  CHECK(build({{"-Q", "job.sh"}}).quiet);
  CHECK(build({{"--quiet", "job.sh"}}).quiet);
  CHECK(build({{"-W", "job.sh"}}).wait);
  CHECK(build({{"--wait", "job.sh"}}).wait);
  CHECK(build({{"--test-only", "job.sh"}}).test_only);
  CHECK(build({{"-vv", "job.sh"}}).verbose == 2);
  const SbatchRequest bundle = build({{"-HQW", "job.sh"}});
  CHECK(bundle.spec.hold);
  CHECK(bundle.quiet);
  CHECK(bundle.wait);
  const SbatchRequest plain = build({{"job.sh"}});
  CHECK_FALSE(plain.parsable);
  CHECK_FALSE(plain.quiet);
  CHECK_FALSE(plain.wait);
  CHECK_FALSE(plain.test_only);
}

TEST_CASE("sbatch --nice takes a value only after '='", "[sbatch]") {
  CHECK(spec({"--nice", "job.sh"}).nice == 100);
  CHECK(spec({"--nice=-10", "job.sh"}).nice == -10);
  CHECK(spec({"--nice=5", "job.sh"}).nice == 5);
  // As with getopt's optional arguments, "--nice 5" leaves 5 as the script.
  const SbatchCommandLine cl = parse_sbatch_command_line({"--nice", "5", "job.sh"});
  CHECK(cl.script == "5");
  CHECK(cl.script_args == std::vector<std::string>{"job.sh"});
  CHECK(error_of([] { spec({"--nice=abc", "job.sh"}); }).first == Errc::usage);
  CHECK(error_of([] {
          spec({"--nice=9999999999", "job.sh"});
        }).second == "Nice value out of range (+/- 2147483645). Value ignored");
}

TEST_CASE("long options may be abbreviated to a unique prefix", "[sbatch]") {
  CHECK(spec({"--part=gpu", "job.sh"}).partition == "gpu");
  CHECK(spec({"--job", "x", "job.sh"}).name == "x");
  CHECK(spec({"--mem=1G", "job.sh"}).mem_per_node_mb == 1024u);  // exact beats prefix
  CHECK(spec({"--ntasks-per-n=2", "job.sh"}).ntasks_per_node == 2u);
  // An alias of the same option is no ambiguity (--tasks-per-node).
  CHECK(spec({"--tasks-per=2", "job.sh"}).ntasks_per_node == 2u);
  // As Slurm 22.05's sbatch prints them, candidates in its table's order.
  CHECK(usage_error_of({"--gpu=1", "job.sh"}) ==
        "option '--gpu=1' is ambiguous; possibilities: '--gpu-bind' '--gpu-freq' '--gpus' "
        "'--gpus-per-node' '--gpus-per-socket' '--gpus-per-task'");
  CHECK(usage_error_of({"--ntasks-per=2", "job.sh"}) ==
        "option '--ntasks-per=2' is ambiguous; possibilities: '--ntasks-per-core' "
        "'--ntasks-per-gpu' '--ntasks-per-node' '--ntasks-per-socket' '--ntasks-per-tres'");
}

TEST_CASE("the script and its arguments end the options", "[sbatch]") {
  SbatchCommandLine cl = parse_sbatch_command_line({"-n", "2", "args.sh", "a", "-n", "c d"});
  CHECK(cl.script == "args.sh");
  CHECK(cl.script_args == std::vector<std::string>{"a", "-n", "c d"});
  CHECK(cl.options.size() == 1);

  cl = parse_sbatch_command_line({"-H", "--", "-weird.sh", "x"});
  CHECK(cl.script == "-weird.sh");
  CHECK(cl.script_args == std::vector<std::string>{"x"});

  cl = parse_sbatch_command_line({"-Q"});
  CHECK_FALSE(cl.script);

  const SbatchRequest r = build({{"-n", "2", "args.sh", "a", "b", "c d"}});
  CHECK(r.spec.script_args == std::vector<std::string>{"a", "b", "c d"});
  CHECK(r.spec.script_name == "/home/u/proj/args.sh");
  CHECK(r.spec.script == k_script);
}

TEST_CASE("':' separates a heterogeneous job's components on the command line",
          "[sbatch][hetjob]") {
  SbatchCommandLine cl =
      parse_sbatch_command_line({"-n", "1", ":", "-n", "2", ":", "-c", "3", "job.sh", "a"});
  CHECK(cl.options.size() == 1);
  REQUIRE(cl.component_options.size() == 2);
  CHECK(cl.component_options[0].size() == 1);
  CHECK(cl.component_options[0][0].value == "2");
  CHECK(cl.component_options[1][0].value == "3");
  CHECK(cl.script == "job.sh");
  CHECK(cl.script_args == std::vector<std::string>{"a"});

  // The first pass reads every component: --wrap and --help count in any.
  cl = parse_sbatch_command_line({"-n1", ":", "-n2", "--wrap", "true"});
  CHECK(cl.wrap == "true");
  CHECK_FALSE(cl.script);
  CHECK(parse_sbatch_command_line({"-n1", ":", "--help"}).action ==
        SbatchCommandLine::Action::help);
  CHECK(usage_error_of({"-n1", ":", "--bogus", "job.sh"}) == "unrecognized option '--bogus'");

  const SbatchRequest r = build({{"-n", "3", ":", "-n", "5", "-c", "2", "job.sh", "x"}});
  CHECK(r.spec.ntasks == 3u);
  CHECK_FALSE(r.spec.cpus_per_task);
  CHECK(r.spec.script == k_script);
  CHECK(r.spec.script_args == std::vector<std::string>{"x"});
  CHECK(r.notices.empty());
  REQUIRE(r.het_components.size() == 1);
  const JobSpec& c = r.het_components[0];
  CHECK(c.ntasks == 5u);
  CHECK(c.cpus_per_task == 2u);
  // The script, its arguments and the environment are the leader's alone.
  CHECK(c.script.empty());
  CHECK(c.script_args.empty());
  CHECK(c.environment.empty());
  CHECK(c.name == "job.sh");
  CHECK(c.work_dir == "/home/u/proj");

  // An empty component is a component with defaults.
  CHECK(build({{"-n2", ":", "job.sh"}}).het_components.size() == 1);
  CHECK(build({{":", "-n2", "job.sh"}}).het_components.at(0).ntasks == 2u);

  // A ':' that is the script's argument is not a separator.
  cl = parse_sbatch_command_line({"job.sh", ":", "-n2"});
  CHECK(cl.component_options.empty());
  CHECK(cl.script_args == std::vector<std::string>{":", "-n2"});
  CHECK(build({{"job.sh", ":", "-n2"}}).het_components.empty());
}

TEST_CASE("'#SBATCH hetjob' lines separate a heterogeneous job's components",
          "[sbatch][hetjob][directives]") {
  Submit in;
  in.args = {"job.sh"};
  in.script =
      "#!/bin/sh\n#SBATCH -n 2 -p cpu\n#SBATCH hetjob\n#SBATCH -n 4\n#SBATCH -c 2\n"
      "#SBATCH packjob -N 3\necho hi\n";
  SbatchRequest r = build(in);
  CHECK(r.spec.ntasks == 2u);
  CHECK(r.spec.partition == "cpu");
  CHECK(r.spec.script == in.script);
  CHECK(r.notices.empty());
  REQUIRE(r.het_components.size() == 2);
  CHECK(r.het_components[0].ntasks == 4u);
  CHECK(r.het_components[0].cpus_per_task == 2u);
  CHECK_FALSE(r.het_components[0].partition);
  CHECK(r.het_components[1].nodes == 3u);
  CHECK_FALSE(r.het_components[1].ntasks);
  CHECK_FALSE(r.het_components[1].cpus_per_task);

  // A bad directive in a later component is an error too, naming its line.
  in.script = "#!/bin/sh\n#SBATCH -n 2\n#SBATCH hetjob\n#SBATCH --time=abc\n";
  const auto [code, message] = error_of([&] { build(in); });
  CHECK(code == Errc::invalid_time);
  CHECK(message == "Invalid --time specification\njob.sh:4: #SBATCH --time=abc");
}

TEST_CASE("the command line's component k overrides the script's component k",
          "[sbatch][hetjob][precedence]") {
  Submit in;
  in.script =
      "#!/bin/sh\n#SBATCH -n 2 -p cpu\n#SBATCH hetjob\n#SBATCH -n 4 -p gpu\n"
      "#SBATCH hetjob -n 6\necho hi\n";
  in.env = {{"SBATCH_PARTITION", "env"}};
  // More components in the script than on the command line: the extras come
  // from the script (and the environment) alone.
  in.args = {"-p", "cl", ":", "-n", "5", "job.sh"};
  SbatchRequest r = build(in);
  CHECK(r.spec.ntasks == 2u);
  CHECK(r.spec.partition == "cl");
  REQUIRE(r.het_components.size() == 2);
  CHECK(r.het_components[0].ntasks == 5u);
  CHECK(r.het_components[0].partition == "env");  // SBATCH_* apply to every component
  CHECK(r.het_components[1].ntasks == 6u);
  CHECK(r.het_components[1].partition == "env");

  // More on the command line: the extras come from it alone.
  in.script = "#!/bin/sh\n#SBATCH -n 2\n#SBATCH hetjob\n#SBATCH -n 4\necho hi\n";
  in.env = {};
  in.args = {":", ":", "-N", "2", "job.sh"};
  r = build(in);
  CHECK(r.spec.ntasks == 2u);
  REQUIRE(r.het_components.size() == 2);
  CHECK(r.het_components[0].ntasks == 4u);
  CHECK_FALSE(r.het_components[1].ntasks);
  CHECK(r.het_components[1].nodes == 2u);
}

TEST_CASE("a heterogeneous job's components propagate Slurm's propagated options",
          "[sbatch][hetjob]") {
  const SbatchRequest r = build({{"-J",
                                  "sim",
                                  "-t",
                                  "30",
                                  "-A",
                                  "lab",
                                  "--mem=2G",
                                  "-o",
                                  "out.txt",
                                  "--comment=c",
                                  "--parsable",
                                  "-n",
                                  "4",
                                  "-N",
                                  "2",
                                  "-p",
                                  "gpu",
                                  "--exclusive",
                                  "--gpus-per-node=1",
                                  "-C",
                                  "fast",
                                  "--mail-type=END",
                                  ":",
                                  "-c",
                                  "2",
                                  ":",
                                  "-t",
                                  "5",
                                  "-J",
                                  "post",
                                  "--mem-per-cpu=100",
                                  "job.sh"}});
  CHECK(r.parsable);
  REQUIRE(r.het_components.size() == 2);
  const JobSpec& one = r.het_components[0];
  CHECK(one.name == "sim");
  CHECK(one.time_limit == 1800);
  CHECK(one.account == "lab");
  CHECK(one.mem_per_node_mb == 2048u);
  CHECK(one.stdout_pattern == "/home/u/proj/out.txt");
  CHECK(one.comment == "c");
  CHECK(one.cpus_per_task == 2u);
  // Reset for each component.
  CHECK_FALSE(one.ntasks);
  CHECK_FALSE(one.nodes);
  CHECK_FALSE(one.partition);
  CHECK_FALSE(one.gpus_per_node);
  CHECK(one.options().exclusive == stint::Exclusive::unset);
  CHECK(one.options().constraint.empty());
  CHECK(one.options().mail_type.empty());
  // Component 2 starts from component 1 and changes what it gives.
  const JobSpec& two = r.het_components[1];
  CHECK(two.name == "post");
  CHECK(two.time_limit == 300);
  CHECK(two.account == "lab");
  CHECK_FALSE(two.cpus_per_task);
  // Its own --mem-per-cpu replaces the propagated --mem.
  CHECK(two.mem_per_cpu_mb == 100u);
  CHECK_FALSE(two.mem_per_node_mb);
  // The leader keeps its own.
  CHECK(r.spec.name == "sim");
  CHECK(r.spec.ntasks == 4u);
  CHECK(r.spec.options().mail_type == "END");

  // --mem-per-cpu and --ntasks do not propagate.
  const SbatchRequest m = build({{"--mem-per-cpu=500", "-n", "3", ":", "job.sh"}});
  REQUIRE(m.het_components.size() == 1);
  CHECK_FALSE(m.het_components[0].mem_per_cpu_mb);
  CHECK_FALSE(m.het_components[0].ntasks);

  // On the JobSpec level.
  JobSpec leader;
  leader.name = "a";
  leader.hold = true;
  leader.nice = 10;
  leader.dependency = "afterok:1";
  leader.partition = "p";
  leader.ntasks = 2;
  leader.script = "#!/bin/sh\n";
  leader.environment = {{"A", "1"}};
  leader.options_to_set().reservation = "r";
  leader.options_to_set().nodelist = "node1";
  leader.options_to_set().recorded["profile"] = "task";
  leader.options_to_set().recorded["bb"] = "x";
  const JobSpec base = het_component_base(leader);
  CHECK(base.name == "a");
  CHECK(base.hold);
  CHECK(base.nice == 10);
  CHECK(base.dependency == "afterok:1");
  CHECK_FALSE(base.partition);
  CHECK_FALSE(base.ntasks);
  CHECK(base.script.empty());
  CHECK(base.environment.empty());
  CHECK(base.options().reservation == "r");
  CHECK(base.options().nodelist.empty());
  CHECK(base.options().recorded == std::map<std::string, std::string>{{"profile", "task"}});
  CHECK_FALSE(het_component_base(JobSpec{}).more);
}

TEST_CASE("a heterogeneous job may not be an array", "[sbatch][hetjob][errors]") {
  const std::pair<Errc, std::string> refused = {
      Errc::invalid_array,
      "Job arrays of heterogeneous jobs are not supported\n"
      "Batch job submission failed: Invalid job array specification"};
  CHECK(error_of([] { build({{"--array=1-3", "-n1", ":", "-n2", "job.sh"}}); }) == refused);
  CHECK(error_of([] { build({{"-n1", ":", "-a", "1-3", "job.sh"}}); }) == refused);
  Submit in;
  in.args = {"job.sh"};
  in.script = "#!/bin/sh\n#SBATCH --array=0-1\n#SBATCH hetjob\n#SBATCH -n 2\n";
  CHECK(error_of([&] { build(in); }) == refused);
  CHECK(build({{"--array=1-3", "job.sh"}}).spec.array_spec == "1-3");
}

TEST_CASE("help, usage and version act in the first pass", "[sbatch]") {
  using Action = SbatchCommandLine::Action;
  CHECK(parse_sbatch_command_line({"--help"}).action == Action::help);
  CHECK(parse_sbatch_command_line({"-h"}).action == Action::help);
  CHECK(parse_sbatch_command_line({"--usage"}).action == Action::usage);
  CHECK(parse_sbatch_command_line({"-V"}).action == Action::version);
  CHECK(parse_sbatch_command_line({"--version", "--help"}).action == Action::version);
  // Bad values do not matter before the script is read.
  CHECK(parse_sbatch_command_line({"--time=abc", "--help"}).action == Action::help);
  CHECK(parse_sbatch_command_line({"job.sh"}).action == Action::submit);
  CHECK(sbatch_help_text().find("Usage: sbatch") == 0);
  CHECK(sbatch_usage_text().find("Usage: sbatch") == 0);
}

TEST_CASE("getopt's errors, in glibc's words", "[sbatch][errors]") {
  CHECK(usage_error_of({"--bogus-option", "--wrap", "true"}) ==
        "unrecognized option '--bogus-option'");
  CHECK(usage_error_of({"--bogus=1"}) == "unrecognized option '--bogus=1'");
  CHECK(usage_error_of({"-Z", "--wrap", "true"}) == "invalid option -- 'Z'");
  CHECK(usage_error_of({"--wrap"}) == "option '--wrap' requires an argument");
  CHECK(usage_error_of({"-t"}) == "option requires an argument -- 't'");
  CHECK(usage_error_of({"--hold=yes", "job.sh"}) == "option '--hold' doesn't allow an argument");
  CHECK(usage_error_of({"--parsable=1"}) == "option '--parsable' doesn't allow an argument");
  // A UsageError is an Errc::usage error (exit 255).
  CHECK(error_of([] { parse_sbatch_command_line({"--nope"}); }).first == Errc::usage);
}

TEST_CASE("sbatch --wrap builds Slurm's script and refuses script arguments", "[sbatch]") {
  CHECK(wrap_script("hostname") ==
        "#!/bin/sh\n# This script was created by sbatch --wrap.\n\nhostname\n");
  const SbatchRequest r = build({{"--wrap", "echo hi"}});
  CHECK(r.spec.script == "#!/bin/sh\n# This script was created by sbatch --wrap.\n\necho hi\n");
  CHECK(r.spec.name == "wrap");
  CHECK(r.spec.script_name.empty());
  CHECK(r.spec.script_args.empty());
  const auto [code, message] = error_of([] { parse_sbatch_command_line({"--wrap=true", "x.sh"}); });
  CHECK(code == Errc::invalid_argument);
  CHECK(message == "Script arguments not permitted with --wrap option");
}

TEST_CASE("default job name, working directory and output paths", "[sbatch]") {
  CHECK(spec({"sub/dir/train.sh"}).name == "train.sh");
  Submit in;
  in.args = {};
  CHECK(build(in).spec.name == "sbatch");  // read from standard input

  JobSpec s = spec({"job.sh"});
  CHECK(s.work_dir == "/home/u/proj");
  CHECK(s.submit_dir == "/home/u/proj");
  CHECK(s.submit_host == "node1");
  CHECK(s.stdout_pattern.empty());
  CHECK(s.stderr_pattern.empty());

  s = spec({"-o", "demo-%j.out", "-e", "/tmp/err-%j.err", "job.sh"});
  CHECK(s.stdout_pattern == "/home/u/proj/demo-%j.out");
  CHECK(s.stderr_pattern == "/tmp/err-%j.err");

  // Relative outputs follow -D, and a relative -D follows the submit dir.
  s = spec({"-D", "runs", "--output=%x-%j.out", "job.sh"});
  CHECK(s.work_dir == "/home/u/proj/runs");
  CHECK(s.stdout_pattern == "/home/u/proj/runs/%x-%j.out");
  s = spec({"--chdir=/scratch", "-o", "out", "job.sh"});
  CHECK(s.work_dir == "/scratch");
  CHECK(s.stdout_pattern == "/scratch/out");
  CHECK(spec({"-o", "none", "job.sh"}).stdout_pattern == "/dev/null");
}

TEST_CASE("precedence: directives, then SBATCH_* variables, then the command line",
          "[sbatch][precedence]") {
  Submit in;
  in.script =
      "#!/bin/bash\n"
      "#SBATCH --job-name=from-directive\n"
      "#SBATCH -p directive-part\n"
      "#SBATCH --time=5\n"
      "#SBATCH -A directive-acct\n"
      "#SBATCH --qos=dq\n"
      "echo hi\n";
  in.args = {"job.sh"};
  JobSpec s = build(in).spec;
  CHECK(s.name == "from-directive");
  CHECK(s.partition == "directive-part");
  CHECK(s.time_limit == 300);
  CHECK(s.account == "directive-acct");

  in.env = {{"SBATCH_JOB_NAME", "from-env"},
            {"SBATCH_PARTITION", "env-part"},
            {"SBATCH_TIMELIMIT", "10"},
            {"SBATCH_QOS", "eq"}};
  s = build(in).spec;
  CHECK(s.name == "from-env");
  CHECK(s.partition == "env-part");
  CHECK(s.time_limit == 600);
  CHECK(s.account == "directive-acct");  // no SBATCH_ACCOUNT: the directive stays
  CHECK(s.qos == "eq");

  in.args = {"-J", "from-cli", "--time=20", "job.sh"};
  s = build(in).spec;
  CHECK(s.name == "from-cli");
  CHECK(s.partition == "env-part");
  CHECK(s.time_limit == 1200);
  CHECK(s.qos == "eq");
}

TEST_CASE("every SBATCH_* input variable stint knows", "[sbatch][precedence]") {
  Submit in;
  in.args = {"job.sh"};
  in.env = {{"SBATCH_ACCOUNT", "acct"},         {"SBATCH_ERROR", "e.err"},
            {"SBATCH_EXPORT", "NONE"},          {"SBATCH_GPUS", "2"},
            {"SBATCH_GPUS_PER_NODE", "a100:1"}, {"SBATCH_JOB_NAME", "n"},
            {"SBATCH_MEM_PER_NODE", "2G"},      {"SBATCH_OUTPUT", "o.out"},
            {"SBATCH_PARTITION", "p"},          {"SBATCH_QOS", "q"},
            {"SBATCH_TIMELIMIT", "1:00:00"},    {"SBATCH_WAIT", ""},
            {"SLURM_CONF", "/etc/slurm.conf"}};
  const SbatchRequest r = build(in);
  CHECK(r.spec.account == "acct");
  CHECK(r.spec.stderr_pattern == "/home/u/proj/e.err");
  CHECK(r.spec.stdout_pattern == "/home/u/proj/o.out");
  CHECK(r.spec.export_spec == "NONE");
  // sbatch tells the job's steps what --export it was given (SLURM_EXPORT_ENV).
  // ... and that stepd loads the user's login environment (SLURM_GET_USER_ENV).
  CHECK(r.spec.environment == EnvList{{"SLURM_CONF", "/etc/slurm.conf"},
                                      {"SLURM_EXPORT_ENV", "NONE"},
                                      {"SLURM_GET_USER_ENV", "1"}});
  CHECK(r.spec.gpus == 2u);
  CHECK(r.spec.gpus_per_node == 1u);
  CHECK(r.spec.gpu_type == "a100");
  CHECK(r.spec.name == "n");
  CHECK(r.spec.mem_per_node_mb == 2048u);
  CHECK(r.spec.partition == "p");
  CHECK(r.spec.qos == "q");
  CHECK(r.spec.time_limit == 3600);
  CHECK(r.wait);

  in.env = {{"SBATCH_GRES", "gpu:2"}, {"SBATCH_MEM_PER_CPU", "100"}};
  const JobSpec s = build(in).spec;
  CHECK(s.gpus_per_node == 2u);
  CHECK(s.mem_per_cpu_mb == 100u);
}

TEST_CASE("a bad value is an error in any layer, even when overridden", "[sbatch][precedence]") {
  Submit in;
  in.script = "#!/bin/bash\n#SBATCH --time=bogus\necho x\n";
  in.args = {"--time=5", "job.sh"};
  CHECK(error_of([&] { build(in); }) ==
        std::pair<Errc, std::string>{Errc::invalid_time,
                                     "Invalid --time specification\njob.sh:2: #SBATCH "
                                     "--time=bogus"});

  in.script = k_script;
  in.env = {{"SBATCH_TIMELIMIT", "1:2:3:4"}};
  CHECK(error_of([&] { build(in); }).first == Errc::invalid_time);
}

TEST_CASE("sbatch --mem and --mem-per-cpu: the highest layer decides", "[sbatch][precedence]") {
  Submit in;
  in.script = "#!/bin/bash\n#SBATCH --mem=1G\necho x\n";
  in.args = {"--mem-per-cpu=100", "job.sh"};
  JobSpec s = build(in).spec;
  CHECK(s.mem_per_cpu_mb == 100u);
  CHECK_FALSE(s.mem_per_node_mb);

  in.args = {"job.sh"};
  in.env = {{"SBATCH_MEM_PER_CPU", "200"}};
  s = build(in).spec;
  CHECK(s.mem_per_cpu_mb == 200u);
  CHECK_FALSE(s.mem_per_node_mb);

  in.env.clear();
  in.args = {"--mem=1G", "--mem-per-cpu=1G", "job.sh"};
  CHECK(error_of([&] { build(in); }) ==
        std::pair<Errc, std::string>{
            Errc::invalid_argument,
            "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive."});
}

TEST_CASE("directives in the script reach the JobSpec", "[sbatch][directives]") {
  Submit in;
  in.script =
      "#!/bin/bash\n"
      "\n"
      "# a comment\n"
      "#SBATCH --job-name=demo\n"
      "#SBATCH --output=demo-%j.out\n"
      "#SBATCH --time=00:05:00   # five minutes\n"
      "#SBATCH -c 2 --mem=1G\n"
      "#SBATCH --comment=\"two words\"\n"
      "echo \"hello\"\n"
      "#SBATCH --partition=ignored\n";
  in.args = {"job.sh"};
  const JobSpec s = build(in).spec;
  CHECK(s.name == "demo");
  CHECK(s.stdout_pattern == "/home/u/proj/demo-%j.out");
  CHECK(s.time_limit == 300);
  CHECK(s.cpus_per_task == 2u);
  CHECK(s.mem_per_node_mb == 1024u);
  CHECK(s.comment == "two words");
  CHECK_FALSE(s.partition);
}

TEST_CASE("directive errors", "[sbatch][directives][errors]") {
  Submit in;
  in.args = {"job.sh"};
  in.script = "#!/bin/bash\n#SBATCH --no-such-opt\necho x\n";
  try {
    build(in);
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "unrecognized option '--no-such-opt'");
  }
  // An optional value needs '=': "--nice 0" leaves "0" as a stray word.
  in.script = "#!/bin/bash\n#SBATCH --nice 0\necho x\n";
  CHECK(error_of([&] { build(in); }) ==
        std::pair<Errc, std::string>{Errc::usage,
                                     "Invalid directive found in batch script: 0\njob.sh:2: "
                                     "#SBATCH 0"});
  in.script = "#!/bin/bash\n#SBATCH -J \"unterminated\necho x\n";
  CHECK(error_of([&] { build(in); }) ==
        std::pair<Errc, std::string>{Errc::batch_script_invalid,
                                     "job.sh: line 2: Unmatched `\"` in [#SBATCH -J "
                                     "\"unterminated]"});
}

TEST_CASE("value errors carry Slurm's message and exit code", "[sbatch][errors]") {
  using Result = std::pair<Errc, std::string>;
  CHECK(error_of([] {
          spec({"--time=abc", "job.sh"});
        }) == Result{Errc::invalid_time, "Invalid --time specification"});
  CHECK(error_of([] {
          spec({"-t", "1:2:3:4", "job.sh"});
        }) == Result{Errc::invalid_time, "Invalid --time specification"});
  CHECK(error_of([] {
          spec({"--mem=abc", "job.sh"});
        }) == Result{Errc::usage, "Invalid --mem specification"});
  CHECK(error_of([] {
          spec({"--mem-per-cpu=1X", "job.sh"});
        }) == Result{Errc::usage, "Invalid --mem-per-cpu specification"});
  CHECK(error_of([] {
          spec({"--gres=gpu:x:y:z", "job.sh"});
        }) == Result{Errc::invalid_gres, "Invalid generic resource (gres) specification"});
  CHECK(error_of([] { spec({"--gres=fpga:1", "job.sh"}); }).first == Errc::invalid_gres);
  CHECK(error_of([] { spec({"-G", "many", "job.sh"}); }).first == Errc::invalid_gres);
  CHECK(error_of([] {
          spec({"-c", "0", "job.sh"});
        }) == Result{Errc::invalid_argument, "Invalid numeric value \"0\" for --cpus-per-task."});
  CHECK(error_of([] {
          spec({"-n", "-1", "job.sh"});
        }) == Result{Errc::invalid_argument, "Invalid numeric value \"-1\" for --ntasks."});
  CHECK(error_of([] {
          spec({"--ntasks-per-node=x", "job.sh"});
        }) == Result{Errc::invalid_argument, "Invalid numeric value \"x\" for --ntasks-per-node."});
  CHECK(error_of([] {
          spec({"-N", "0", "job.sh"});
        }) == Result{Errc::usage, "\"0\" is not a valid node count"});
  CHECK(error_of([] {
          spec({"-N", "abc", "job.sh"});
        }) == Result{Errc::usage, "\"abc\" is not a valid node count"});
  CHECK(error_of([] {
          spec({"-N", "4-2", "job.sh"});
        }) == Result{Errc::usage, "Maximum node count 2 is less than minimum node count 4"});
  // Exit statuses as Slurm's: 255 for these option errors, 1 for counts.
  CHECK(stint::errc_exit_status(Errc::invalid_time) == 255);
  CHECK(stint::errc_exit_status(Errc::usage) == 255);
  CHECK(stint::errc_exit_status(Errc::invalid_argument) == 1);
}

TEST_CASE("batch script checks, in Slurm's order and words", "[sbatch][errors]") {
  using Result = std::pair<Errc, std::string>;
  CHECK_NOTHROW(check_batch_script("#!/bin/sh\ntrue\n"));
  CHECK(error_of([] { check_batch_script(""); }) ==
        Result{Errc::batch_script_invalid, "Batch script is empty!"});
  CHECK(error_of([] { check_batch_script(" \n\t\n"); }) ==
        Result{Errc::batch_script_invalid, "Batch script contains only whitespace!"});
  CHECK(error_of([] { check_batch_script("echo no shebang\n"); }) ==
        Result{Errc::batch_script_invalid,
               "This does not look like a batch script.  The first\n"
               "line must start with #! followed by the path to an interpreter.\n"
               "For instance: #!/bin/sh"});
  CHECK(error_of([] { check_batch_script(std::string("#!/bin/sh\n\0x\n", 13)); }).second ==
        "The Slurm controller does not allow scripts that\ncontain a NULL character '\\0'.");
  CHECK(error_of([] { check_batch_script("#!/bin/sh\r\ntrue\r\n"); }).second ==
        "Batch script contains DOS line breaks (\\r\\n)\n"
        "instead of expected UNIX line breaks (\\n).");
  CHECK(stint::errc_exit_status(Errc::batch_script_invalid) == 1);
}

TEST_CASE("sbatch --export forms", "[sbatch][export]") {
  const EnvList env = {
      {"HOME", "/home/u"}, {"SLURM_CONF", "/etc/slurm.conf"}, {"EDITOR", "vi"}, {"PATH", "/bin"}};
  CHECK(export_environment("", env) == env);
  CHECK(export_environment("ALL", env) == env);
  CHECK(export_environment("all", env) == env);
  CHECK(export_environment("NONE", env) == EnvList{{"SLURM_CONF", "/etc/slurm.conf"}});
  CHECK(export_environment("NIL", env) == EnvList{{"SLURM_CONF", "/etc/slurm.conf"}});
  CHECK(export_environment("EDITOR,ARG1=test", env) ==
        EnvList{{"SLURM_CONF", "/etc/slurm.conf"}, {"EDITOR", "vi"}, {"ARG1", "test"}});
  CHECK(export_environment("NOSUCH,PATH", env) ==
        EnvList{{"SLURM_CONF", "/etc/slurm.conf"}, {"PATH", "/bin"}});
  CHECK(export_environment("X=a=b", env) ==
        EnvList{{"SLURM_CONF", "/etc/slurm.conf"}, {"X", "a=b"}});
  // With ALL, the caller's own value wins over an explicit one.
  EnvList all = env;
  all.emplace_back("NEW", "1");
  CHECK(export_environment("ALL,EDITOR=/bin/emacs,NEW=1", env) == all);

  Submit in;
  in.args = {"--export=EDITOR", "job.sh"};
  in.env = env;
  const JobSpec s = build(in).spec;
  CHECK(s.export_spec == "EDITOR");
  CHECK(s.environment == EnvList{{"SLURM_CONF", "/etc/slurm.conf"},
                                 {"EDITOR", "vi"},
                                 {"SLURM_EXPORT_ENV", "EDITOR"},
                                 {"SLURM_GET_USER_ENV", "1"}});
  in.args = {"job.sh"};
  CHECK(build(in).spec.environment == env);
  CHECK(build(in).spec.export_spec.empty());
}

TEST_CASE("StintForeignNames=map sets a site's #SBATCH options and other clusters aside",
          "[sbatch][directives][foreign]") {
  Submit in;
  in.args = {"job.sh"};
  in.script =
      "#!/bin/bash\n#SBATCH --image=docker:x/y:1 -t 5\n#SBATCH --module gpu\n"
      "#SBATCH -M other -w compute[01-04]\necho x\n";
  SubmitContext ctx{in.env, in.cwd, "node1"};
  ctx.cluster_name = [] { return std::string("here"); };
  ctx.node_known = [](const std::string& name) { return name == "node1"; };
  bool mapped = true;
  ctx.foreign_names_mapped = [&mapped] { return mapped; };
  BatchScript script;
  script.source = ScriptSource::file;
  script.path = in.cwd + "/job.sh";
  script.text = in.script;
  const SbatchRequest r = build_sbatch_request(parse_sbatch_command_line(in.args), script, ctx);
  CHECK(r.spec.time_limit == 300);
  CHECK(r.spec.options().cluster == "here");
  // The cluster's node names count for nothing here: stintd leaves them out.
  CHECK_FALSE(r.spec.nodes.has_value());
  std::vector<std::string> warnings;
  for (const auto& [kind, text] : r.notices) {
    if (kind == "warning") warnings.push_back(text);
  }
  REQUIRE(warnings.size() == 3);
  CHECK(warnings[0] ==
        "job.sh:2: '--image=docker:x/y:1' is not an option of Slurm 22.05's sbatch (a site's "
        "own); left out, as StintForeignNames is map");
  CHECK(warnings[1] ==
        "job.sh:3: '--module gpu' is not an option of Slurm 22.05's sbatch (a site's own); left "
        "out, as StintForeignNames is map");
  CHECK(warnings[2] == "cluster 'other' mapped to 'here' (StintForeignNames is map)");
  // Without map: Slurm's refusals.
  mapped = false;
  CHECK_THROWS_AS(build_sbatch_request(parse_sbatch_command_line(in.args), script, ctx),
                  UsageError);
}
