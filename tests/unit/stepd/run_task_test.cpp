// Real tasks through run_task, in this process: exit codes, signals, time
// limits, output files, environment, working directory, launch failures,
// accounting, CPU binding, leftovers.

#include <cerrno>
#include <chrono>
#include <csignal>

#include <catch2/catch.hpp>
#include <fmt/core.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.hpp"
#include "stepd/spawn.hpp"

using namespace stint;
using stint::test::read_text;
using stint::test::seconds_since;
using stint::test::shell_launch;
using stint::test::TempDir;
using Clock = std::chrono::steady_clock;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool process_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

TEST_CASE("a task that exits 0") {
  TempDir dir;
  TaskResult r = stepd::run_task(shell_launch(dir, "echo hello"));
  CHECK(r.job_id == 7);
  CHECK(r.exit_status == 0);
  CHECK(r.exit_signal == 0);
  CHECK_FALSE(r.timed_out);
  CHECK_FALSE(r.cancelled);
  CHECK_FALSE(r.launch_failed);
  CHECK(r.error.empty());
  CHECK(r.start_time > 0);
  CHECK(r.end_time >= r.start_time);
  CHECK(read_text(dir / "out") == "hello\n");
}

TEST_CASE("a task's exit status") {
  TempDir dir;
  TaskResult r = stepd::run_task(shell_launch(dir, "exit 3"));
  CHECK(r.exit_status == 3);
  CHECK(r.exit_signal == 0);
  CHECK_FALSE(r.launch_failed);
}

TEST_CASE("a task killed by a signal") {
  TempDir dir;
  TaskResult r = stepd::run_task(shell_launch(dir, "kill -9 $$"));
  CHECK(r.exit_status == 0);
  CHECK(r.exit_signal == 9);
  CHECK_FALSE(r.timed_out);
  CHECK_FALSE(r.cancelled);
}

TEST_CASE("the time limit: SIGTERM, and Slurm's line in the output") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "echo start; sleep 30");
  l.time_limit = 1;
  l.kill_wait = 1;
  auto t0 = Clock::now();
  TaskResult r = stepd::run_task(l);
  double took = seconds_since(t0);
  CHECK(r.timed_out);
  CHECK_FALSE(r.cancelled);
  CHECK(r.exit_signal == SIGTERM);
  CHECK(took >= 0.9);
  CHECK(took < 20);  // generous: the machine may be loaded
  std::string out = read_text(dir / "out");
  CHECK(out.rfind("start\nslurmstepd-n1: error: *** JOB 7 ON n1 CANCELLED AT ", 0) == 0);
  CHECK(contains(out, " DUE TO TIME LIMIT ***\n"));
}

TEST_CASE("the time limit: SIGKILL after KillWait for a task that ignores SIGTERM") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "trap '' TERM; sleep 30");
  l.time_limit = 1;
  l.kill_wait = 1;
  auto t0 = Clock::now();
  TaskResult r = stepd::run_task(l);
  double took = seconds_since(t0);
  CHECK(r.timed_out);
  CHECK(r.exit_signal == SIGKILL);
  CHECK(took >= 1.9);  // time limit + KillWait
  CHECK(took < 20);
}

TEST_CASE("no time limit when it is 0 or unlimited, and a huge one is not hit") {
  TempDir dir;
  // An absurd limit must not overflow the clock into an immediate timeout.
  for (Seconds limit : {Seconds{0}, k_infinite, Seconds{1} << 62}) {
    TaskLaunch l = shell_launch(dir, "exit 0");
    l.time_limit = limit;
    TaskResult r = stepd::run_task(l);
    CHECK_FALSE(r.timed_out);
    CHECK(r.exit_status == 0);
  }
}

TEST_CASE("output and error files") {
  TempDir dir;
  const std::string script = "echo out; echo err >&2; echo out2";

  SECTION("separate files, truncated") {
    fs::write_file_atomic(dir / "o", "old\n");
    fs::write_file_atomic(dir / "e", "old\n");
    TaskLaunch l = shell_launch(dir, script);
    l.stdout_path = dir / "o";
    l.stderr_path = dir / "e";
    stepd::run_task(l);
    CHECK(read_text(dir / "o") == "out\nout2\n");
    CHECK(read_text(dir / "e") == "err\n");
  }
  SECTION("separate files, appended") {
    fs::write_file_atomic(dir / "o", "old\n");
    fs::write_file_atomic(dir / "e", "old\n");
    TaskLaunch l = shell_launch(dir, script);
    l.stdout_path = dir / "o";
    l.stderr_path = dir / "e";
    l.open_append = true;
    stepd::run_task(l);
    CHECK(read_text(dir / "o") == "old\nout\nout2\n");
    CHECK(read_text(dir / "e") == "old\nerr\n");
  }
  SECTION("one file for both, in order") {
    fs::write_file_atomic(dir / "out", "a much longer old content\n");
    stepd::run_task(shell_launch(dir, script));
    CHECK(read_text(dir / "out") == "out\nerr\nout2\n");
  }
  SECTION("one file for both, appended") {
    fs::write_file_atomic(dir / "out", "old\n");
    TaskLaunch l = shell_launch(dir, script);
    l.open_append = true;
    stepd::run_task(l);
    CHECK(read_text(dir / "out") == "old\nout\nerr\nout2\n");
  }
  SECTION("an empty stderr path means the stdout file") {
    TaskLaunch l = shell_launch(dir, script);
    l.stderr_path.clear();
    stepd::run_task(l);
    CHECK(read_text(dir / "out") == "out\nerr\nout2\n");
  }
  SECTION("a relative path is taken from the working directory") {
    TaskLaunch l = shell_launch(dir, script);
    l.stdout_path = "rel.out";
    l.stderr_path = "rel.out";
    stepd::run_task(l);
    CHECK(read_text(dir / "rel.out") == "out\nerr\nout2\n");
  }
  SECTION("new files are created with mode 0666 less the umask") {
    mode_t old = ::umask(022);
    stepd::run_task(shell_launch(dir, script));
    ::umask(old);
    struct stat st {};
    REQUIRE(::stat((dir / "out").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0644);
  }
  SECTION("with the submitter's umask (SLURM_UMASK), which the task does not see") {
    mode_t old = ::umask(022);
    TaskLaunch l = shell_launch(dir, "umask; echo \"[$SLURM_UMASK]\"; touch made");
    l.env.emplace_back("SLURM_UMASK", "0027");
    stepd::run_task(l);
    ::umask(old);
    struct stat st {};
    REQUIRE(::stat((dir / "out").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0640);
    REQUIRE(::stat((dir / "made").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0640);
    CHECK(read_text(dir / "out") == "0027\n[]\n");
  }
  SECTION("stdin is /dev/null") {
    stepd::run_task(shell_launch(dir, "cat; echo done"));
    CHECK(read_text(dir / "out") == "done\n");
  }
}

TEST_CASE("the environment is exactly the one given, and the task's pid") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "");
  l.argv = {"/usr/bin/env"};
  l.env = {{"B", "2"}, {"A", "x=y z"}, {"EMPTY", ""}, {"SLURM_TASK_PID", "exported"}};
  TaskResult r = stepd::run_task(l);
  CHECK(r.exit_status == 0);
  const std::string out = read_text(dir / "out");
  const std::string given = "B=2\nA=x=y z\nEMPTY=\nSLURM_TASK_PID=";
  REQUIRE(out.rfind(given, 0) == 0);
  const std::string pid = out.substr(given.size());
  CHECK(pid.size() > 1);
  CHECK(pid.back() == '\n');
  CHECK(pid.find_first_not_of("0123456789\n") == std::string::npos);
}

TEST_CASE("SLURM_TASK_PID is the task's own pid, as slurmstepd sets it") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "echo \"$$ $SLURM_TASK_PID\"");
  TaskResult r = stepd::run_task(l);
  CHECK(r.exit_status == 0);
  const std::string out = read_text(dir / "out");
  const std::size_t space = out.find(' ');
  REQUIRE(space != std::string::npos);
  CHECK(out.substr(0, space) + "\n" == out.substr(space + 1));
}

TEST_CASE("arguments reach the program as given") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "");
  l.argv = {"/bin/sh", "-c", "printf '[%s]' \"$0\" \"$@\"", "zero", "one two", ""};
  stepd::run_task(l);
  CHECK(read_text(dir / "out") == "[zero][one two][]");
}

TEST_CASE("the working directory") {
  TempDir dir;
  fs::make_dirs(dir / "sub");

  SECTION("is the one given") {
    TaskLaunch l = shell_launch(dir, "pwd");
    l.work_dir = dir / "sub";
    TaskResult r = stepd::run_task(l);
    CHECK(r.exit_status == 0);
    CHECK(read_text(dir / "out") == dir / "sub\n");
  }
  SECTION("a missing one: Slurm's error line, and the task runs in /tmp") {
    TaskLaunch l = shell_launch(dir, "pwd");
    l.work_dir = dir / "missing";
    TaskResult r = stepd::run_task(l);
    CHECK_FALSE(r.launch_failed);
    CHECK(r.exit_status == 0);
    CHECK(read_text(dir / "out") ==
          fmt::format("slurmstepd-n1: error: couldn't chdir to `{}': No such file or directory: "
                      "going to /tmp instead\n/tmp\n",
                      dir / "missing"));
  }
}

TEST_CASE("a program that cannot be executed") {
  TempDir dir;

  SECTION("not executable") {
    std::string script = dir / "script.sh";
    fs::write_file_atomic(script, "#!/bin/sh\necho never\n", 0644);
    TaskLaunch l = shell_launch(dir, "");
    l.argv = {script};
    TaskResult r = stepd::run_task(l);
    CHECK(r.launch_failed);
    CHECK(r.error == fmt::format("execve(): {}: Permission denied", script));
    CHECK(r.exit_status == EACCES);  // slurmstepd exits with errno
    CHECK(read_text(dir / "out") ==
          fmt::format("slurmstepd-n1: error: execve(): {}: Permission denied\n", script));
  }
  SECTION("missing") {
    TaskLaunch l = shell_launch(dir, "");
    l.argv = {dir / "nothing-here"};
    TaskResult r = stepd::run_task(l);
    CHECK(r.launch_failed);
    CHECK(r.error == fmt::format("execve(): {}: No such file or directory", dir / "nothing-here"));
  }
}

TEST_CASE("an output file that cannot be opened fails the launch") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "echo never > " + (dir / "ran"));
  l.stdout_path = dir / "no-such-dir/out";
  l.stderr_path = l.stdout_path;
  TaskResult r = stepd::run_task(l);
  CHECK(r.launch_failed);
  CHECK(r.error ==
        fmt::format("Could not open stdout file {}: No such file or directory", l.stdout_path));
  // slurmstepd's ESLURMD_IO_ERROR as a raw status: sacct's ExitCode 0:53.
  CHECK(r.exit_status == 0);
  CHECK(r.exit_signal == 53);
  CHECK(r.end_time >= r.start_time);
  CHECK_FALSE(fs::exists(dir / "ran"));
}

TEST_CASE("accounting: CPU time and max RSS from wait4") {
  TempDir dir;

  SECTION("CPU time") {
    TaskResult r =
        stepd::run_task(shell_launch(dir, "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"));
    CHECK(r.exit_status == 0);
    CHECK(r.user_cpu_us + r.sys_cpu_us > 10000);
  }
  SECTION("max RSS of a process holding about 50 MiB") {
    // tail keeps everything since the last newline, and /dev/zero has none.
    TaskResult r = stepd::run_task(shell_launch(dir, "head -c 50M /dev/zero | tail > /dev/null"));
    CHECK(r.exit_status == 0);
    CHECK(r.max_rss_kb > 45 * 1024);
    CHECK(r.max_rss_kb < 150 * 1024);
  }
}

TEST_CASE("CPU binding folds virtual CPUs onto the real ones") {
  std::vector<int> allowed;
  cpu_set_t set;
  REQUIRE(::sched_getaffinity(0, sizeof set, &set) == 0);
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) allowed.push_back(c);
  }
  REQUIRE(!allowed.empty());
  const auto n = static_cast<std::uint32_t>(allowed.size());

  CHECK(stepd::detail::fold_cpus({}).empty());
  CHECK(stepd::detail::fold_cpus({0, n, 2 * n}) == std::vector<int>{allowed[0]});
  CHECK(stepd::detail::fold_cpus({n + n - 1, 0}) ==
        (n == 1 ? std::vector<int>{allowed[0]} : std::vector<int>{allowed[0], allowed[n - 1]}));

  TempDir dir;
  TaskLaunch l = shell_launch(dir, "grep Cpus_allowed_list /proc/self/status");
  l.cpu_ids = {n + n - 1};  // folds onto the last allowed CPU
  TaskResult r = stepd::run_task(l);
  CHECK(r.exit_status == 0);
  CHECK(read_text(dir / "out") == fmt::format("Cpus_allowed_list:\t{}\n", allowed[n - 1]));
}

TEST_CASE("processes the task leaves behind are killed when it ends") {
  TempDir dir;
  // One in the task's process group, one that left it with setsid.
  TaskLaunch l = shell_launch(dir,
                              "sleep 1000 & echo $! > pid1; "
                              "setsid sleep 1000 & echo $! > pid2; exit 0");
  auto t0 = Clock::now();
  TaskResult r = stepd::run_task(l);
  CHECK(r.exit_status == 0);
  CHECK(seconds_since(t0) < 10);
  auto pid1 = static_cast<pid_t>(std::stol(read_text(dir / "pid1")));
  auto pid2 = static_cast<pid_t>(std::stol(read_text(dir / "pid2")));
  // Both were re-parented to the supervisor (a subreaper) and reaped by it.
  CHECK(process_gone(pid1));
  CHECK(process_gone(pid2));
}

TEST_CASE("the task runs as the launch's user when stepd is root") {
  if (::geteuid() != 0) {
    WARN("not root: skipped");
    return;
  }
  TempDir dir;
  ::chmod(dir.path().c_str(), 0777);
  TaskLaunch l = shell_launch(dir, "id -u; id -g; pwd");
  l.uid = 65534;
  l.gid = 65534;
  TaskResult r = stepd::run_task(l);
  CHECK_FALSE(r.launch_failed);
  CHECK(read_text(dir / "out") == fmt::format("65534\n65534\n{}\n", dir.path()));
  struct stat st {};
  REQUIRE(::stat((dir / "out").c_str(), &st) == 0);
  CHECK(st.st_uid == 65534);
  // stepd is root again afterwards.
  CHECK(::geteuid() == 0);
  CHECK(::getegid() == 0);
}
