// Slurm 22.05's whole sbatch vocabulary: every option of the table is
// accepted on the command line, in #SBATCH lines and through its input
// environment variables, and changes the request.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/core.h>

#include <stint/error.hpp>

#include "cli/sbatch_options.hpp"
#include "cli/sbatch_pbs.hpp"
#include "model/json.hpp"

namespace {

using namespace stint;
using namespace stint::cli;

// A value each option accepts (nullopt: a flag).
const std::map<std::string, std::optional<std::string>> k_samples = {
    {"account", "acct"},
    {"acctg-freq", "task=30"},
    {"array", "0-3"},
    {"batch", "ssd"},
    {"bb", "capacity=1G"},
    {"bbf", "/files/bb.txt"},
    {"begin", "now+60"},
    {"chdir", "/tmp/w"},
    {"cluster", "lab"},
    {"cluster-constraint", "c1"},
    {"clusters", "lab"},
    {"comment", "hi"},
    {"constraint", "a100&ib"},
    {"container", "/bundle"},
    {"context", "unconfined_u"},
    {"contiguous", std::nullopt},
    {"core-spec", "1"},
    {"cores-per-socket", "2"},
    {"cpu-freq", "high"},
    {"cpus-per-gpu", "2"},
    {"cpus-per-task", "2"},
    {"deadline", "now+3600"},
    {"delay-boot", "10"},
    {"dependency", "afterok:1"},
    {"distribution", "cyclic:block"},
    {"error", "e.txt"},
    {"exclude", "n-1"},
    {"exclusive", std::nullopt},
    {"export", "NONE"},
    {"export-file", "/files/env.txt"},
    {"extra-node-info", "2:4:1"},
    {"get-user-env", std::nullopt},
    {"gid", "100"},
    {"gpu-bind", "closest"},
    {"gpu-freq", "high"},
    {"gpus", "1"},
    {"gpus-per-node", "1"},
    {"gpus-per-socket", "1"},
    {"gpus-per-task", "1"},
    {"gres", "gpu:1"},
    {"gres-flags", "enforce-binding"},
    {"help", std::nullopt},
    {"hint", "nomultithread"},
    {"hold", std::nullopt},
    {"ignore-pbs", std::nullopt},
    {"input", "in.txt"},
    {"job-name", "x"},
    {"kill-on-invalid-dep", "yes"},
    {"licenses", "matlab:1"},
    {"mail-type", "END"},
    {"mail-user", "a@example.org"},
    {"mcs-label", "m"},
    {"mem", "1G"},
    {"mem-bind", "local"},
    {"mem-per-cpu", "100"},
    {"mem-per-gpu", "1G"},
    {"mincpus", "2"},
    {"network", "sn_all"},
    {"nice", "5"},
    {"no-kill", std::nullopt},
    {"no-requeue", std::nullopt},
    {"nodefile", "/files/nodes.txt"},
    {"nodelist", "n-[1-2]"},
    {"nodes", "2"},
    {"ntasks", "2"},
    {"ntasks-per-core", "1"},
    {"ntasks-per-gpu", "1"},
    {"ntasks-per-node", "1"},
    {"ntasks-per-socket", "1"},
    {"ntasks-per-tres", "1"},
    {"open-mode", "append"},
    {"output", "o.txt"},
    {"overcommit", std::nullopt},
    {"oversubscribe", std::nullopt},
    {"parsable", std::nullopt},
    {"partition", "p"},
    {"power", "level"},
    {"prefer", "fast"},
    {"priority", "5"},
    {"profile", "task"},
    {"propagate", std::nullopt},
    {"qos", "q"},
    {"quiet", std::nullopt},
    {"reboot", std::nullopt},
    {"requeue", std::nullopt},
    {"reservation", "r"},
    {"signal", "USR1@30"},
    {"sockets-per-node", "2"},
    {"spread-job", std::nullopt},
    {"switches", "1@10"},
    {"tasks-per-node", "1"},
    {"test-only", std::nullopt},
    {"thread-spec", "1"},
    {"threads-per-core", "1"},
    {"time", "10"},
    {"time-min", "5"},
    {"tmp", "1G"},
    {"uid", "0"},
    {"usage", std::nullopt},
    {"use-min-nodes", std::nullopt},
    {"verbose", std::nullopt},
    {"version", std::nullopt},
    {"wait", std::nullopt},
    {"wait-all-nodes", "1"},
    {"wckey", "w"},
    {"wrap", "true"},
};

// What an environment variable is set to: the sample, or what the option's
// setter accepts for a flag.
std::string env_value(const std::string& name) {
  if (name == "no-kill") return "set";
  if (name == "exclusive") return "user";
  if (name == "switches") return "1";
  const auto& v = k_samples.at(name);
  return v.value_or("1");
}

SubmitContext context(EnvList env = {}) {
  SubmitContext c{std::move(env), "/home/u", "node1"};
  c.uid = 0;
  c.cluster_name = [] { return std::string("lab"); };
  c.read_file = [](const std::string& path) -> std::optional<std::string> {
    if (path == "/files/bb.txt") return "capacity=2G";
    if (path == "/files/env.txt") return std::string("A=1\nB=2\n");
    if (path == "/files/nodes.txt") return "n-1\nn-2 # two\n";
    return std::nullopt;
  };
  return c;
}

BatchScript script(std::string text = "#!/bin/sh\ntrue\n") {
  BatchScript s;
  s.source = ScriptSource::file;
  s.path = "/home/u/job.sh";
  s.text = std::move(text);
  return s;
}

// The request as one text: the spec and sbatch's own flags.
std::string fingerprint(const SbatchRequest& r) {
  return to_json(r.spec).dump() + std::to_string(r.parsable) + std::to_string(r.quiet) +
         std::to_string(r.wait) + std::to_string(r.test_only) + std::to_string(r.verbose) +
         r.help_requested;
}

SbatchRequest submit_args(const std::vector<std::string>& args, const BatchScript& s = script(),
                          const EnvList& env = {}) {
  const SbatchCommandLine cl = parse_sbatch_command_line(args);
  return build_sbatch_request(cl, s, context(env));
}

std::string option_word(const OptionSpec& o) {
  const auto& v = k_samples.at(std::string(o.long_name));
  return v ? fmt::format("--{}={}", o.long_name, *v) : fmt::format("--{}", o.long_name);
}

// Options whose effect is on sbatch's first pass (or on other lines of the
// script) rather than on the request.
const std::set<std::string> k_first_pass = {"help", "usage", "version", "wrap", "ignore-pbs"};

}  // namespace

TEST_CASE("the table holds Slurm 22.05's 106 sbatch options, each documented", "[vocabulary]") {
  const auto table = sbatch_option_table();
  CHECK(table.size() == 106);
  std::set<std::string> names;
  std::set<char> shorts;
  for (const auto& o : table) {
    INFO(o.long_name);
    CHECK(names.insert(std::string(o.long_name)).second);
    if (o.short_name != '\0') CHECK(shorts.insert(o.short_name).second);
    CHECK_FALSE(o.here.empty());
    CHECK_FALSE(o.section.empty());
    CHECK(o.help.find("--" + std::string(o.long_name)) != std::string_view::npos);
    CHECK(k_samples.count(std::string(o.long_name)) == 1);
  }
  CHECK(k_samples.size() == table.size());
}

TEST_CASE("--help lists every option of the table", "[vocabulary][help]") {
  const std::string help = sbatch_help_text();
  for (const auto& o : sbatch_option_table()) {
    INFO(o.long_name);
    CHECK(help.find("--" + std::string(o.long_name)) != std::string::npos);
  }
  // Slurm's own lines, byte for byte, where Slurm prints the option.
  CHECK(help.find("  -a, --array=indexes         job array index values\n") != std::string::npos);
  CHECK(help.find("\nAffinity/Multi-core options: (when the task/affinity plugin is enabled)\n"
                  "                              For the following 4 options, you are\n") !=
        std::string::npos);
  CHECK(help.rfind("Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]\n",
                   0) == 0);
}

TEST_CASE("every option is accepted on the command line and changes the request", "[vocabulary]") {
  const std::string baseline = fingerprint(submit_args({"job.sh"}));
  for (const auto& o : sbatch_option_table()) {
    const std::string name(o.long_name);
    if (name == "wrap") continue;  // takes the script's place
    INFO(name);
    const std::vector<std::string> args = {option_word(o), "job.sh"};
    const SbatchCommandLine cl = parse_sbatch_command_line(args);
    if (name == "help" || name == "usage" || name == "version") {
      CHECK(cl.action != SbatchCommandLine::Action::submit);
      continue;
    }
    SbatchRequest r;
    REQUIRE_NOTHROW(r = build_sbatch_request(cl, script(), context()));
    if (!k_first_pass.count(name)) CHECK(fingerprint(r) != baseline);
  }
}

TEST_CASE("every option is accepted in an #SBATCH line", "[vocabulary][directives]") {
  const std::string baseline = fingerprint(submit_args({"job.sh"}));
  for (const auto& o : sbatch_option_table()) {
    const std::string name(o.long_name);
    if (k_first_pass.count(name)) continue;
    INFO(name);
    const BatchScript s = script(fmt::format("#!/bin/sh\n#SBATCH {}\ntrue\n", option_word(o)));
    SbatchRequest r;
    REQUIRE_NOTHROW(r = submit_args({"job.sh"}, s));
    CHECK(fingerprint(r) != baseline);
  }
}

TEST_CASE("every input environment variable sets its option", "[vocabulary][environment]") {
  const std::string baseline = fingerprint(submit_args({"job.sh"}));
  std::size_t variables = 0;
  for (const auto& o : sbatch_option_table()) {
    std::string_view vars = o.env;
    while (!vars.empty()) {
      const std::size_t space = vars.find(' ');
      const std::string var(vars.substr(0, space));
      vars = space == std::string_view::npos ? std::string_view() : vars.substr(space + 1);
      ++variables;
      if (var == "SBATCH_IGNORE_PBS") continue;
      INFO(var);
      SbatchRequest r;
      REQUIRE_NOTHROW(
          r = submit_args({"job.sh"}, script(), {{var, env_value(std::string(o.long_name))}}));
      CHECK(fingerprint(r) != baseline);
    }
  }
  // sbatch(1)'s INPUT ENVIRONMENT VARIABLES that set options.
  CHECK(variables == 60);
}

TEST_CASE("values land where the scheduler and the listings read them", "[vocabulary]") {
  SbatchRequest r = submit_args({"-C", "a100", "-w", "n-[1-3]", "-x", "n-4", "--exclusive=user",
                                 "--mail-type=BEGIN,end", "--mail-type=FAIL", "--mail-user=me",
                                 "-L", "matlab:2", "--tmp=2G", "--time-min=1:00", "-B", "2:*:1",
                                 "--gpus-per-task=a100:2", "--wckey=proj", "job.sh"});
  const JobOptions& o = r.spec.options();
  CHECK(o.constraint == "a100");
  CHECK(o.nodelist == "n-[1-3]");
  CHECK(r.spec.nodes == 3u);  // -w names three nodes
  CHECK(o.exclude == "n-4");
  CHECK(o.exclusive == Exclusive::user);
  CHECK(o.mail_type == "BEGIN,END,FAIL");
  CHECK(o.mail_user == "me");
  CHECK(o.licenses == "matlab:2");
  CHECK(o.tmp_mb == 2048u);
  CHECK(o.time_min == 60);  // MM:SS
  CHECK(o.sockets_per_node == 2u);
  CHECK_FALSE(o.cores_per_socket);
  CHECK(o.threads_per_core == 1u);
  CHECK(o.gpus_per_task == 2u);
  CHECK(r.spec.gpu_type == "a100");
  CHECK(o.wckey == "proj");

  r = submit_args({"--nodefile=/files/nodes.txt", "--export-file=/files/env.txt",
                   "--bbf=/files/bb.txt", "-i", "in.txt", "job.sh"});
  CHECK(r.spec.options().nodelist == "n-1,n-2");
  // --bbf's lines go into the script after its "#!" line, not into --bb.
  CHECK(r.spec.script == "#!/bin/sh\ncapacity=2G\ntrue\n");
  CHECK(r.spec.options().recorded.count("bb") == 0);
  CHECK(submit_args({"--bbf=/files/bb.txt", "job.sh"}, script("echo hi\n")).spec.script ==
        "capacity=2G\necho hi\n");
  CHECK(submit_args({"--bbf=/files/bb.txt", "job.sh"}, script("#!/bin/sh")).spec.script ==
        "#!/bin/sh\ncapacity=2G\n");
  CHECK_THROWS(submit_args({"--bbf=/files/bb.txt", "--bb=x", "job.sh"}));
  CHECK(r.spec.options().stdin_pattern == "/home/u/in.txt");
  bool a = false;
  for (const auto& [k, v] : r.spec.environment) a = a || (k == "A" && v == "1");
  CHECK(a);
  CHECK(submit_args({"--exclusive", "-s", "job.sh"}).spec.options().oversubscribe == true);
  CHECK(submit_args({"-N", "2-4", "job.sh"}).spec.options().max_nodes == 4u);
}

TEST_CASE("the rarer options' values are checked with Slurm's words", "[vocabulary][errors]") {
  auto error_of = [](const std::vector<std::string>& args) -> std::pair<Errc, std::string> {
    try {
      (void)submit_args(args);
    } catch (const Error& e) {
      return {e.code(), e.what()};
    }
    return {Errc::ok, ""};
  };
  using R = std::pair<Errc, std::string>;
  CHECK(error_of({"--mail-type=sometimes", "job.sh"}) ==
        R{Errc::usage, "Invalid --mail-type specification"});
  CHECK(error_of({"--exclusive=everyone", "job.sh"}) ==
        R{Errc::usage, "Invalid --exclusive specification"});
  CHECK(error_of({"--hint=fast", "job.sh"}) ==
        R{Errc::usage, "unrecognized --hint argument \"fast\", see --hint=help"});
  CHECK(error_of({"-m", "diagonal", "job.sh"}) ==
        R{Errc::usage, "Invalid --distribution specification"});
  CHECK(error_of({"--acctg-freq=disk=3", "job.sh"}) ==
        R{Errc::usage, "Invalid --acctg-freq specification: disk=3"});
  CHECK(error_of({"--cpu-freq=fastest", "job.sh"}) ==
        R{Errc::usage, "Invalid --cpu-freq argument"});
  CHECK(error_of({"--gpu-bind=nearby", "job.sh"}) ==
        R{Errc::usage, "Invalid --gpu-bind argument: gpu:nearby"});
  CHECK(error_of({"--gres-flags=loose", "job.sh"}) ==
        R{Errc::usage, "Invalid --gres-flags specification"});
  CHECK(error_of({"--wait-all-nodes=2", "job.sh"}) ==
        R{Errc::usage, "Invalid --wait-all-nodes specification"});
  CHECK(error_of({"--time-min=soon", "job.sh"}) ==
        R{Errc::usage, "Invalid --time-min specification"});
  CHECK(error_of({"--tmp=lots", "job.sh"}) == R{Errc::usage, "Invalid --tmp specification"});
  CHECK(error_of({"--mincpus=0", "job.sh"}) ==
        R{Errc::invalid_argument, "Invalid numeric value \"0\" for --mincpus."});
  CHECK(error_of({"-B", "x", "job.sh"}) ==
        R{Errc::invalid_argument, "Invalid numeric value \"x\" for first arg of -B."});
  CHECK(error_of({"--propagate=SPEED", "job.sh"}) ==
        R{Errc::usage, "--propagate=SPEED is not valid."});
  CHECK(error_of({"--nodefile=/nope", "job.sh"}) == R{Errc::usage, "Invalid --nodefile node file"});
  CHECK(error_of({"-M", "other", "job.sh"}) ==
        R{Errc::invalid_argument,
          "'other' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr "
          "list clusters' to see available clusters."});
  CHECK(
      error_of({"--mem=1G", "--mem-per-gpu=1G", "job.sh"}) ==
      R{Errc::invalid_argument, "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive."});
  CHECK(error_of({"--ntasks-per-gpu=2", "--gpus-per-task=1", "job.sh"}).second ==
        "--gpus-per-task is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU");
  CHECK(error_of({"--begin=now+2hours", "--deadline=now+1hour", "job.sh"}) ==
        R{Errc::usage, "Incompatible begin and deadline time specification"});
  CHECK(error_of({"--begin=notatime", "job.sh"}) ==
        R{Errc::usage, "Invalid --begin specification"});
  try {
    (void)submit_args({"--deadline=never", "job.sh"});
    FAIL("no error");
  } catch (const PrefacedError& e) {
    CHECK(e.preface() == "Invalid time specification (pos=0): never");
  }
  // Not root: --uid is refused as Slurm refuses it.
  SubmitContext c = context();
  c.uid = 1000;
  try {
    (void)build_sbatch_request(parse_sbatch_command_line({"--uid=0", "job.sh"}), script(), c);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "--uid only permitted by root user");
  }
  // --hint=help and --mem-bind=help print their lists instead of submitting.
  CHECK(submit_args({"--hint=help", "job.sh"}).help_requested.rfind("Application hint", 0) == 0);
  CHECK(submit_args({"--mem-bind=help", "job.sh"}).help_requested.rfind("Memory bind", 0) == 0);
}

TEST_CASE("directive errors name the script's file and line", "[vocabulary][directives]") {
  try {
    (void)submit_args({"job.sh"},
                      script("#!/bin/sh\n#SBATCH -J x\n\n#SBATCH --mial-type=ALL\ntrue\n"));
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "unrecognized option '--mial-type=ALL'");
    CHECK(e.detail() ==
          "job.sh:4: unrecognized option '--mial-type=ALL'; did you mean '--mail-type'?");
  }
  try {
    (void)submit_args({"job.sh"}, script("#!/bin/sh\n#SBATCH -J x\n#SBATCH --time abc\ntrue\n"));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "Invalid --time specification\njob.sh:3: #SBATCH --time abc");
  }
  // The old magic word is read, and Slurm's complaint is kept for the tool to print.
  const SbatchRequest r = submit_args({"job.sh"}, script("#!/bin/sh\n#SLURM -J old\ntrue\n"));
  CHECK(r.spec.name == "old");
  REQUIRE(r.notices.size() == 1);
  CHECK(r.notices[0].first == "error");
}

TEST_CASE("#PBS and #BSUB lines are read as Slurm reads them", "[vocabulary][pbs]") {
  const SbatchRequest r = submit_args(
      {"job.sh"}, script("#!/bin/sh\n#PBS -N pbsjob -q batch\n#PBS -l walltime=1:00:00,mem=2gb\n"
                         "#PBS -l nodes=2:ppn=4\n#PBS -m abe -M me@x\n#PBS -W depend=afterok:7\n"
                         "echo hi\n#PBS -A late # read too: Slurm reads the whole top\n"));
  CHECK(r.spec.name == "pbsjob");
  CHECK(r.spec.partition == "batch");
  CHECK(r.spec.time_limit == 3600);
  CHECK(r.spec.mem_per_node_mb == 2048u);
  CHECK(r.spec.nodes == 2u);
  CHECK(r.spec.ntasks == 8u);
  CHECK(r.spec.options().mail_type == "BEGIN,END,FAIL");
  CHECK(r.spec.options().mail_user == "me@x");
  CHECK(r.spec.dependency == "afterok:7");
  CHECK(r.spec.account == "late");
  // #PBS lines are applied after the #SBATCH ones, as Slurm does; --ignore-pbs drops them.
  const std::string both = "#!/bin/sh\n#SBATCH -J sb\n#PBS -N pbs\ntrue\n";
  CHECK(submit_args({"job.sh"}, script(both)).spec.name == "pbs");
  CHECK(submit_args({"--ignore-pbs", "job.sh"}, script(both)).spec.name == "sb");
  CHECK(submit_args({"job.sh"}, script(both), {{"SBATCH_IGNORE_PBS", "1"}}).spec.name == "sb");
  const SbatchRequest lsf = submit_args(
      {"job.sh"}, script("#!/bin/sh\n#BSUB -J lsf -n 2,4 -W 30 -M 100 -x\n#BSUB -cwd /scratch\n"));
  CHECK(lsf.spec.name == "lsf");
  CHECK(lsf.spec.ntasks == 4u);
  CHECK(lsf.spec.time_limit == 1800);
  CHECK(lsf.spec.mem_per_cpu_mb == 1u);  // LSF's unit is the KB: 100K
  CHECK(lsf.spec.options().exclusive == Exclusive::node);
  CHECK(lsf.spec.work_dir == "/scratch");
}

TEST_CASE("resource limits travel as SLURM_RLIMIT_* for --propagate", "[vocabulary][propagate]") {
  auto with_limits = [](std::vector<std::string> args) {
    SubmitContext c = context();
    c.rlimits = {{"NOFILE", "1024"}, {"STACK", "8388608"}, {"CORE", "0"}};
    return build_sbatch_request(parse_sbatch_command_line(args), script(), c).spec.environment;
  };
  auto find = [](const EnvList& env, const std::string& name) -> std::optional<std::string> {
    for (const auto& [k, v] : env) {
      if (k == name) return v;
    }
    return std::nullopt;
  };
  // All of them by default (PropagateResourceLimits decides which apply).
  EnvList env = with_limits({"job.sh"});
  CHECK(find(env, "SLURM_RLIMIT_NOFILE") == "1024");
  CHECK(find(env, "SLURM_RLIMIT_CORE") == "0");
  // --propagate names some, marked as asked for.
  env = with_limits({"--propagate=STACK,nofile", "job.sh"});
  CHECK(find(env, "SLURM_RLIMIT_NOFILE") == "U1024");
  CHECK(find(env, "SLURM_RLIMIT_STACK") == "U8388608");
  CHECK_FALSE(find(env, "SLURM_RLIMIT_CORE"));
  env = with_limits({"--propagate=NONE", "job.sh"});
  CHECK_FALSE(find(env, "SLURM_RLIMIT_NOFILE"));
  CHECK(find(with_limits({"--propagate", "job.sh"}), "SLURM_RLIMIT_CORE") == "U0");
  // --get-user-env: the limits come with the login environment, as in Slurm.
  env = with_limits({"--get-user-env", "job.sh"});
  CHECK_FALSE(find(env, "SLURM_RLIMIT_NOFILE"));
  CHECK(find(env, "SLURM_GET_USER_ENV") == "1");
}
