// The submitting shell's limits (SLURM_RLIMIT_*, PropagateResourceLimits,
// --propagate) and --get-user-env's login environment, in the task.

#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <sys/resource.h>
#include <unistd.h>

#include "helpers.hpp"
#include "stepd/rlimits.hpp"
#include "stepd/user_env.hpp"

using namespace stint;
using stint::test::read_text;
using stint::test::shell_launch;
using stint::test::TempDir;

namespace {

constexpr std::uint32_t k_nofile_bit = 1U << 7;  // k_rlimit_names: NOFILE
constexpr std::uint32_t k_core_bit = 1U << 4;

rlimit current(int resource) {
  rlimit r{};
  ::getrlimit(resource, &r);
  return r;
}

// A soft limit below the hard one and unlike the current one, for the test.
rlim_t lower_nofile() {
  const rlimit r = current(RLIMIT_NOFILE);
  return r.rlim_cur > 64 ? r.rlim_cur - 7 : r.rlim_cur + 1;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("rlimits: a configured limit is applied, one PropagateResourceLimits leaves out is not") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "true");
  const rlim_t wanted = lower_nofile();
  l.env.emplace_back("SLURM_RLIMIT_NOFILE", std::to_string(wanted));
  std::vector<std::string> notes;
  l.propagate_rlimits = k_all_rlimits;
  stepd::detail::RlimitPlan plan = stepd::detail::plan_rlimits(l, notes);
  REQUIRE(plan.count == 1);
  CHECK(plan.settings[0].resource == RLIMIT_NOFILE);
  CHECK(plan.settings[0].value.rlim_cur == wanted);
  CHECK(plan.settings[0].value.rlim_max == current(RLIMIT_NOFILE).rlim_max);
  CHECK(notes.empty());

  l.propagate_rlimits = k_all_rlimits & ~k_nofile_bit;
  plan = stepd::detail::plan_rlimits(l, notes);
  CHECK(plan.count == 0);
}

TEST_CASE("rlimits: 'U' (sbatch --propagate) applies whatever the configuration says") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "true");
  const rlim_t wanted = lower_nofile();
  l.env.emplace_back("SLURM_RLIMIT_NOFILE", "U" + std::to_string(wanted));
  l.propagate_rlimits = 0;
  std::vector<std::string> notes;
  const stepd::detail::RlimitPlan plan = stepd::detail::plan_rlimits(l, notes);
  REQUIRE(plan.count == 1);
  CHECK(plan.settings[0].value.rlim_cur == wanted);
}

TEST_CASE("rlimits: never above the hard limit; the reason is noted, nothing fails") {
  // This test process's own hard limit, made finite for it (stepd's is
  // what the task inherits).
  if (current(RLIMIT_CORE).rlim_max == RLIM_INFINITY) {
    const rlimit finite{0, rlim_t{1} << 20};
    REQUIRE(::setrlimit(RLIMIT_CORE, &finite) == 0);
  }
  const rlimit core = current(RLIMIT_CORE);
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "true");
  l.env.emplace_back("SLURM_RLIMIT_CORE", "18446744073709551615");
  std::vector<std::string> notes;
  stepd::detail::RlimitPlan plan = stepd::detail::plan_rlimits(l, notes);
  // Configured: lowered to the hard limit.
  if (core.rlim_cur != core.rlim_max) {
    REQUIRE(plan.count == 1);
    CHECK(plan.settings[0].value.rlim_cur == core.rlim_max);
  }
  REQUIRE(notes.size() == 1);
  CHECK(contains(notes[0], "RLIMIT_CORE: reducing req:inf to max:"));
  // Asked for: left as it is, with Slurm's error.
  l.env.back().second = "U18446744073709551615";
  notes.clear();
  plan = stepd::detail::plan_rlimits(l, notes);
  CHECK(plan.count == 0);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] ==
        "Can't propagate RLIMIT_CORE of 'unlimited' from submit host: Invalid argument");
  (void)k_core_bit;
}

TEST_CASE("rlimits: a value that is not a number is noted and skipped") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "true");
  l.env.emplace_back("SLURM_RLIMIT_STACK", "lots");
  std::vector<std::string> notes;
  const stepd::detail::RlimitPlan plan = stepd::detail::plan_rlimits(l, notes);
  CHECK(plan.count == 0);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "Invalid SLURM_RLIMIT_STACK env var, value = `lots'");
}

TEST_CASE("rlimits: the task runs under them, and does not see the variables") {
  TempDir dir;
  const rlim_t wanted = lower_nofile();
  TaskLaunch l = shell_launch(dir, "ulimit -n; env | grep -c SLURM_RLIMIT_ || true");
  l.env.emplace_back("SLURM_RLIMIT_NOFILE", std::to_string(wanted));
  const TaskResult r = stepd::run_task(l);
  REQUIRE(r.exit_status == 0);
  CHECK(read_text(dir / "out") == std::to_string(wanted) + "\n0\n");
  // stepd's own limit is untouched.
  CHECK(current(RLIMIT_NOFILE).rlim_cur != wanted);
}

TEST_CASE("rlimits: the job's memory is its RSS limit, as slurmstepd sets it") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "true");
  l.mem_limit_mb = 100;
  std::vector<std::string> notes;
  const stepd::detail::RlimitPlan plan = stepd::detail::plan_rlimits(l, notes);
  if (current(RLIMIT_RSS).rlim_max <= 100ULL * 1024 * 1024) {
    CHECK(plan.count == 0);
  } else {
    REQUIRE(plan.count == 1);
    CHECK(plan.settings[0].resource == RLIMIT_RSS);
    CHECK(plan.settings[0].value.rlim_cur == 100ULL * 1024 * 1024);
    CHECK(plan.settings[0].value.rlim_max == 100ULL * 1024 * 1024);
  }
}

TEST_CASE("rlimit masks: Slurm's names, RLIMIT_ prefixes, ALL and NONE") {
  CHECK(rlimit_mask("ALL") == k_all_rlimits);
  CHECK(rlimit_mask("NONE") == 0U);
  CHECK(rlimit_mask("NOFILE") == k_nofile_bit);
  CHECK(rlimit_mask("RLIMIT_CORE, NOFILE") == (k_nofile_bit | k_core_bit));
  CHECK_FALSE(rlimit_mask("NOFILES"));
  CHECK_FALSE(rlimit_mask("ALL,CORE"));
  CHECK_FALSE(rlimit_mask(""));
}

TEST_CASE("user env: what lies between the markers, NUL-separated, less Slurm's discards") {
  using stepd::parse_user_env_output;
  std::string out = "motd line\n\n\n\nXXXXSLURMSTARTPARSINGHEREXXXX\n";
  out += std::string("HOME=/home/a") + '\0' + "DISPLAY=:0" + '\0' + "F=() { echo\n}" + '\0' +
         "HOSTNAME=x" + '\0' + "ENVIRONMENT=BATCH" + '\0';
  out += "\nXXXXSLURMSTOPPARSINGHEREXXXXX\n";
  const auto env = parse_user_env_output(out);
  REQUIRE(env);
  CHECK(*env == stepd::Environment{{"HOME", "/home/a"}, {"F", "() { echo\n}"}});
  CHECK_FALSE(parse_user_env_output("no markers"));
  CHECK_FALSE(parse_user_env_output("XXXXSLURMSTARTPARSINGHEREXXXX\nA=1"));
}

TEST_CASE("user env: the submitted variables win, in place; new ones follow") {
  const stepd::Environment merged =
      stepd::merge_user_env({{"PATH", "/login"}, {"HOME", "/h"}}, {{"PATH", "/mine"}, {"X", "1"}});
  CHECK(merged == stepd::Environment{{"PATH", "/mine"}, {"HOME", "/h"}, {"X", "1"}});
}

TEST_CASE("user env: the user's login environment under the submitted one") {
  // As root, su - <user>; as the user, their own login shell.
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "echo \"$SHELL|$LOGNAME|$MINE\"");
  l.uid = static_cast<std::uint32_t>(::getuid());
  l.gid = static_cast<std::uint32_t>(::getgid());
  l.env = {{"MINE", "kept"}};
  l.user_env_timeout = 60;
  std::vector<std::string> lines;
  const TaskLaunch merged =
      stepd::with_user_environment(l, [&](const std::string& s) { lines.push_back(s); });
  INFO((lines.empty() ? std::string() : lines.back()));
  const auto value = [&](const std::string& name) -> std::string {
    for (const auto& [k, v] : merged.env)
      if (k == name) return v;
    return "<unset>";
  };
  CHECK(value("MINE") == "kept");
  CHECK(value("LOGNAME") != "<unset>");
  CHECK(value("SHELL") != "<unset>");
  CHECK(value("ENVIRONMENT") == "<unset>");
  // The submitted variable is last: it was not in the login environment.
  CHECK(merged.env.back() == std::pair<std::string, std::string>{"MINE", "kept"});
}

TEST_CASE("launch file: the propagate mask and the login environment request travel") {
  TaskLaunch l;
  l.job_id = 3;
  l.argv = {"/bin/true"};
  CHECK(to_json_text(l).find("propagate_rlimits") == std::string::npos);
  CHECK(to_json_text(l).find("user_env") == std::string::npos);
  l.propagate_rlimits = k_nofile_bit;
  l.user_env_timeout = 10;
  l.user_env_mode = 'S';
  const TaskLaunch back = task_launch_from_json_text(to_json_text(l));
  CHECK(back.propagate_rlimits == k_nofile_bit);
  CHECK(back.user_env_timeout == 10);
  CHECK(back.user_env_mode == 'S');
  const TaskLaunch old = task_launch_from_json_text(R"({"job_id": 3, "argv": ["/bin/true"]})");
  CHECK(old.propagate_rlimits == k_all_rlimits);
  CHECK(old.user_env_timeout == 0);
  CHECK_THROWS(
      task_launch_from_json_text(R"({"job_id": 3, "argv": ["/bin/true"], "user_env_mode": "X"})"));
}
