// sbatch's batch semantics: arrays, dependencies, --begin/--deadline,
// requeue, --open-mode and --signal, through every layer options come from.

#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include <stint/error.hpp>
#include <stint/parse.hpp>

#include "cli/sbatch_options.hpp"

namespace {

using stint::Errc;
using stint::Error;
using stint::JobSpec;
using stint::Seconds;
using stint::SignalSpec;
using namespace stint::cli;
using Result = std::pair<Errc, std::string>;

const std::string k_script = "#!/bin/sh\necho hi\n";

// A fixed "now": 2026-11-29T18:00:00 local time.
Seconds fixed_now() {
  std::tm tm{};
  tm.tm_year = 2026 - 1900;
  tm.tm_mon = 10;
  tm.tm_mday = 29;
  tm.tm_hour = 18;
  tm.tm_isdst = -1;
  return static_cast<Seconds>(std::mktime(&tm));
}

struct Submit {
  std::vector<std::string> args;
  std::string script = k_script;
  EnvList env{};
};

SbatchRequest build(const Submit& s) {
  const SbatchCommandLine cl = parse_sbatch_command_line(s.args);
  BatchScript script;
  if (cl.wrap) {
    script.source = ScriptSource::wrap;
    script.text = wrap_script(*cl.wrap);
  } else {
    script.source = ScriptSource::file;
    script.path = "/home/u/proj/" + cl.script.value_or("job.sh");
    script.text = s.script;
  }
  return build_sbatch_request(cl, script,
                              SubmitContext{s.env, "/home/u/proj", "node1", fixed_now()});
}

JobSpec spec(std::vector<std::string> args) { return build(Submit{std::move(args)}).spec; }

JobSpec directive_spec(const std::string& directives) {
  return build(Submit{{"job.sh"}, "#!/bin/sh\n" + directives + "echo hi\n"}).spec;
}

JobSpec env_spec(EnvList env) { return build(Submit{{"job.sh"}, k_script, std::move(env)}).spec; }

template <typename F>
Result error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  FAIL("no error thrown");
  return {Errc::ok, ""};
}

}  // namespace

TEST_CASE("sbatch --array keeps the spec as written", "[sbatch][array]") {
  CHECK(spec({"--array=0-15:2%4", "job.sh"}).array_spec == "0-15:2%4");
  CHECK(spec({"-a", "1,3,5", "job.sh"}).array_spec == "1,3,5");
  CHECK(spec({"-a1-3", "job.sh"}).array_spec == "1-3");
  CHECK(spec({"--array", "7", "job.sh"}).array_spec == "7");
  CHECK(spec({"--arr=1-2", "job.sh"}).array_spec == "1-2");
  CHECK(spec({"job.sh"}).array_spec.empty());
  // Only Slurm's own ceiling is checked here; stintd applies MaxArraySize.
  CHECK(spec({"--array=1-200000", "job.sh"}).array_spec == "1-200000");
  CHECK(spec({"--array=4000000", "job.sh"}).array_spec == "4000000");
}

TEST_CASE("sbatch --array: an array writes slurm-%A_%a.out unless -o says", "[sbatch][array]") {
  JobSpec s = spec({"--array=1-3", "job.sh"});
  CHECK(s.stdout_pattern == "/home/u/proj/slurm-%A_%a.out");
  CHECK(s.stderr_pattern.empty());  // with the output, as for any job
  s = spec({"--array=1-3", "-D", "/scratch", "job.sh"});
  CHECK(s.stdout_pattern == "/scratch/slurm-%A_%a.out");
  // 12-arrays-deps.txt: -o arr-%A_%a.out is used as given.
  s = spec({"--array=1-3", "-o", "arr-%A_%a.out", "job.sh"});
  CHECK(s.stdout_pattern == "/home/u/proj/arr-%A_%a.out");
  s = spec({"--array=1-3", "-o", "all.out", "job.sh"});
  CHECK(s.stdout_pattern == "/home/u/proj/all.out");
  // -e alone leaves standard output at the array's default.
  s = spec({"--array=1-3", "-e", "err-%a.err", "job.sh"});
  CHECK(s.stdout_pattern == "/home/u/proj/slurm-%A_%a.out");
  CHECK(s.stderr_pattern == "/home/u/proj/err-%a.err");
  // Not an array: the default stays stintd's slurm-%j.out.
  CHECK(spec({"job.sh"}).stdout_pattern.empty());
}

TEST_CASE("sbatch --array refuses a bad spec as slurmctld does", "[sbatch][array][errors]") {
  // 10-errors.txt: abc and 5-1, "Batch job submission failed: Invalid job
  // array specification", exit 1.
  for (const std::string bad : {"abc", "5-1", "", "1-5:0", "1-4000001", "1-3%x", "-1"}) {
    CAPTURE(bad);
    const Result r = error_of([&] { spec({"--array=" + bad, "job.sh"}); });
    CHECK(r == Result{Errc::invalid_argument,
                      "Batch job submission failed: Invalid job array specification"});
  }
  CHECK(stint::errc_exit_status(Errc::invalid_argument) == 1);
}

TEST_CASE("sbatch --dependency keeps the expression as written", "[sbatch][dependency]") {
  CHECK(spec({"--dependency=afterok:12:13,afterany:14", "job.sh"}).dependency ==
        "afterok:12:13,afterany:14");
  CHECK(spec({"-d", "afterok:12?afternotok:13", "job.sh"}).dependency ==
        "afterok:12?afternotok:13");
  CHECK(spec({"-dsingleton", "job.sh"}).dependency == "singleton");
  CHECK(spec({"--dep=after:12+5", "job.sh"}).dependency == "after:12+5");
  CHECK(spec({"-d", "afterok:87_*", "job.sh"}).dependency == "afterok:87_*");
  // 10-errors.txt: a job that does not exist is stintd's business.
  CHECK(spec({"--dependency=afterok:999999", "job.sh"}).dependency == "afterok:999999");
  CHECK(spec({"job.sh"}).dependency.empty());
}

TEST_CASE("sbatch --dependency refuses junk as slurmctld does", "[sbatch][dependency][errors]") {
  // 10-errors.txt: afterok:abc and bogus:1.
  for (const std::string bad :
       {"afterok:abc", "bogus:1", "afterok:12,afterok:13?afterok:14", "afterok:", "afterok:12+5"}) {
    CAPTURE(bad);
    const Result r = error_of([&] { spec({"--dependency=" + bad, "job.sh"}); });
    CHECK(r ==
          Result{Errc::invalid_argument, "Batch job submission failed: Job dependency problem"});
  }
}

TEST_CASE("sbatch --kill-on-invalid-dep", "[sbatch][dependency]") {
  CHECK(spec({"--kill-on-invalid-dep=yes", "job.sh"}).kill_on_invalid_dep == true);
  CHECK(spec({"--kill-on-invalid-dep=NO", "job.sh"}).kill_on_invalid_dep == false);
  CHECK(spec({"--kill", "yes", "job.sh"}).kill_on_invalid_dep == true);
  CHECK_FALSE(spec({"job.sh"}).kill_on_invalid_dep);
  CHECK(error_of([] {
          spec({"--kill-on-invalid-dep=maybe", "job.sh"});
        }) == Result{Errc::usage, "Invalid --kill-on-invalid-dep specification"});
}

TEST_CASE("sbatch --begin and --deadline resolve from the time of submission", "[sbatch][begin]") {
  const Seconds now = fixed_now();
  CHECK(spec({"--begin=now+20", "job.sh"}).begin_time == now + 20);
  CHECK(spec({"-b", "now+1hour", "job.sh"}).begin_time == now + 3600);
  CHECK(spec({"--begin=now", "job.sh"}).begin_time == now);
  // 16:00 has passed at 18:00: tomorrow's, as Slurm's "next day is assumed".
  CHECK(spec({"--begin=16:00", "job.sh"}).begin_time == now - 2 * 3600 + 24 * 3600);
  CHECK(spec({"--begin=tomorrow", "job.sh"}).begin_time == now - 18 * 3600 + 24 * 3600);
  CHECK(spec({"--begin=2030-01-01T00:00:00", "job.sh"}).begin_time ==
        stint::parse::date_time("2030-01-01T00:00:00", now));
  CHECK_FALSE(spec({"job.sh"}).begin_time);

  CHECK(spec({"--deadline=now+1", "job.sh"}).deadline == now + 1);
  CHECK(spec({"--deadline", "now+2days", "job.sh"}).deadline == now + 2 * 86400);
  CHECK_FALSE(spec({"job.sh"}).deadline);
}

TEST_CASE("sbatch --begin and --deadline refuse junk with exit 255", "[sbatch][begin][errors]") {
  // 10-errors.txt: sbatch --begin=notatime, "Invalid --begin specification", exit 255.
  CHECK(error_of([] {
          spec({"--begin=notatime", "job.sh"});
        }) == Result{Errc::usage, "Invalid --begin specification"});
  CHECK(error_of([] { spec({"--begin=", "job.sh"}); }).second == "Invalid --begin specification");
  CHECK(error_of([] {
          spec({"--deadline=never", "job.sh"});
        }) == Result{Errc::usage, "Invalid --deadline specification"});
  CHECK(stint::errc_exit_status(Errc::usage) == 255);
}

TEST_CASE("sbatch --requeue and --no-requeue: the last one wins", "[sbatch][requeue]") {
  CHECK(spec({"--requeue", "job.sh"}).requeue == true);
  CHECK(spec({"--no-requeue", "job.sh"}).requeue == false);
  CHECK(spec({"--requeue", "--no-requeue", "job.sh"}).requeue == false);
  CHECK(spec({"--no-requeue", "--requeue", "job.sh"}).requeue == true);
  CHECK_FALSE(spec({"job.sh"}).requeue);  // JobRequeue decides
  CHECK(error_of([] {
          parse_sbatch_command_line({"--requeue=1", "job.sh"});
        }).first == Errc::usage);
}

TEST_CASE("sbatch --open-mode reads the first letter, as Slurm", "[sbatch][open-mode]") {
  CHECK(spec({"--open-mode=append", "job.sh"}).open_append == true);
  CHECK(spec({"--open-mode=truncate", "job.sh"}).open_append == false);
  CHECK(spec({"--open-mode=A", "job.sh"}).open_append == true);
  CHECK(spec({"--open-mode", "t", "job.sh"}).open_append == false);
  CHECK_FALSE(spec({"job.sh"}).open_append);
  // 10-errors.txt: --open-mode=bogus, exit 255.
  CHECK(error_of([] {
          spec({"--open-mode=bogus", "job.sh"});
        }) == Result{Errc::usage, "Invalid --open-mode specification"});
  CHECK(error_of([] { spec({"--open-mode=", "job.sh"}); }).first == Errc::usage);
}

TEST_CASE("sbatch --signal", "[sbatch][signal]") {
  CHECK(spec({"--signal=USR1", "job.sh"}).signal == SignalSpec{10, 60, false});
  CHECK(spec({"--signal=B:USR1@90", "job.sh"}).signal == SignalSpec{10, 90, true});
  CHECK(spec({"--signal", "SIGTERM@5", "job.sh"}).signal == SignalSpec{15, 5, false});
  CHECK(spec({"job.sh"}).signal == SignalSpec{});
  // 10-errors.txt: --signal=BOGUS, exit 255.
  CHECK(error_of([] {
          spec({"--signal=BOGUS", "job.sh"});
        }) == Result{Errc::usage, "Invalid --signal specification"});
  CHECK(error_of([] { spec({"--signal=USR1@x", "job.sh"}); }).first == Errc::usage);
}

TEST_CASE("the batch options as #SBATCH directives", "[sbatch][directives]") {
  const JobSpec s = directive_spec(
      "#SBATCH --array=1-4%2\n"
      "#SBATCH -d afterok:5\n"
      "#SBATCH --kill-on-invalid-dep=yes\n"
      "#SBATCH --begin=now+60 --deadline=now+3600\n"
      "#SBATCH --no-requeue\n"
      "#SBATCH --open-mode=append\n"
      "#SBATCH --signal=B:USR2@30\n");
  CHECK(s.array_spec == "1-4%2");
  CHECK(s.stdout_pattern == "/home/u/proj/slurm-%A_%a.out");
  CHECK(s.dependency == "afterok:5");
  CHECK(s.kill_on_invalid_dep == true);
  CHECK(s.begin_time == fixed_now() + 60);
  CHECK(s.deadline == fixed_now() + 3600);
  CHECK(s.requeue == false);
  CHECK(s.open_append == true);
  CHECK(s.signal == SignalSpec{12, 30, true});

  CHECK(directive_spec("#SBATCH -a 3\n").array_spec == "3");
  CHECK(error_of([] { directive_spec("#SBATCH --array=abc\n"); }).second ==
        "Batch job submission failed: Invalid job array specification\njob.sh:2: #SBATCH "
        "--array=abc");
  CHECK(error_of([] { directive_spec("#SBATCH --begin=bogus\n"); }).second ==
        "Invalid --begin specification\njob.sh:2: #SBATCH --begin=bogus");
}

TEST_CASE("the batch options' SBATCH_* variables", "[sbatch][precedence]") {
  JobSpec s = env_spec({{"SBATCH_ARRAY_INX", "0-9%3"},
                        {"SBATCH_NO_REQUEUE", "1"},
                        {"SBATCH_OPEN_MODE", "append"},
                        {"SBATCH_SIGNAL", "USR1@120"}});
  CHECK(s.array_spec == "0-9%3");
  CHECK(s.stdout_pattern == "/home/u/proj/slurm-%A_%a.out");
  CHECK(s.requeue == false);
  CHECK(s.open_append == true);
  CHECK(s.signal == SignalSpec{10, 120, false});

  CHECK(env_spec({{"SBATCH_REQUEUE", ""}}).requeue == true);
  // Both set: Slurm reads SBATCH_REQUEUE after SBATCH_NO_REQUEUE.
  CHECK(env_spec({{"SBATCH_REQUEUE", "1"}, {"SBATCH_NO_REQUEUE", "1"}}).requeue == true);
  // Slurm has no variable for these; the names do nothing.
  s = env_spec({{"SBATCH_DEPENDENCY", "afterok:1"},
                {"SBATCH_BEGIN", "now+1"},
                {"SBATCH_DEADLINE", "now+1"}});
  CHECK(s.dependency.empty());
  CHECK_FALSE(s.begin_time);
  CHECK_FALSE(s.deadline);

  CHECK(error_of([] {
          env_spec({{"SBATCH_SIGNAL", "BOGUS"}});
        }) == Result{Errc::usage, "Invalid --signal specification"});
  CHECK(error_of([] {
          env_spec({{"SBATCH_OPEN_MODE", "x"}});
        }).second == "Invalid --open-mode specification");
  CHECK(error_of([] {
          env_spec({{"SBATCH_ARRAY_INX", "x"}});
        }).second == "Batch job submission failed: Invalid job array specification");
}

TEST_CASE("the batch options: directives, then variables, then the command line",
          "[sbatch][precedence]") {
  Submit in;
  in.script =
      "#!/bin/sh\n"
      "#SBATCH --array=1-2\n"
      "#SBATCH --requeue\n"
      "#SBATCH --open-mode=truncate\n"
      "#SBATCH --signal=INT\n"
      "#SBATCH -d afterok:1\n"
      "#SBATCH --begin=now+10\n"
      "echo hi\n";
  in.args = {"job.sh"};
  JobSpec s = build(in).spec;
  CHECK(s.array_spec == "1-2");
  CHECK(s.requeue == true);
  CHECK(s.open_append == false);
  CHECK(s.signal.signal == 2);
  CHECK(s.dependency == "afterok:1");
  CHECK(s.begin_time == fixed_now() + 10);

  in.env = {{"SBATCH_ARRAY_INX", "3-4"},
            {"SBATCH_NO_REQUEUE", ""},
            {"SBATCH_OPEN_MODE", "append"},
            {"SBATCH_SIGNAL", "HUP"}};
  s = build(in).spec;
  CHECK(s.array_spec == "3-4");
  CHECK(s.requeue == false);
  CHECK(s.open_append == true);
  CHECK(s.signal.signal == 1);

  in.args = {"-a", "5-6",        "--requeue", "--open-mode=t", "--signal=TERM",
             "-d", "afterany:2", "-b",        "now+99",        "job.sh"};
  s = build(in).spec;
  CHECK(s.array_spec == "5-6");
  CHECK(s.requeue == true);
  CHECK(s.open_append == false);
  CHECK(s.signal.signal == 15);
  CHECK(s.dependency == "afterany:2");
  CHECK(s.begin_time == fixed_now() + 99);

  // A bad directive is an error even when the command line overrides it.
  in.script = "#!/bin/sh\n#SBATCH --signal=BOGUS\necho hi\n";
  in.env.clear();
  CHECK(error_of([&] { build(in); }).second ==
        "Invalid --signal specification\njob.sh:2: #SBATCH --signal=BOGUS");
}

TEST_CASE("the new options in getopt's rules and in --help", "[sbatch]") {
  // Abbreviations that became ambiguous with the new options.
  try {
    (void)parse_sbatch_command_line({"--de=1", "job.sh"});
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) ==
          "option '--de=1' is ambiguous; possibilities: '--deadline' '--delay-boot' "
          "'--dependency'");
  }
  CHECK(spec({"--req", "job.sh"}).requeue == true);
  CHECK(spec({"--no-r", "job.sh"}).requeue == false);
  const std::string help = sbatch_help_text();
  for (const std::string option :
       {"--array=", "--begin=", "--dependency=", "--deadline=", "--kill-on-invalid-dep=",
        "--no-requeue", "--requeue", "--open-mode=", "--signal="}) {
    CAPTURE(option);
    CHECK(help.find(option) != std::string::npos);
  }
}
