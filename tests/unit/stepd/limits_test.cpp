// Memory limits (cgroup v2 where it works here, RSS sampling otherwise), max
// RSS and CPU accounting, and --signal, with real tasks.

#include <algorithm>
#include <chrono>
#include <csignal>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include "helpers.hpp"
#include "stepd/cgroup.hpp"
#include "stepd/proc.hpp"

using namespace stint;
using stint::test::fork_stepd;
using stint::test::read_text;
using stint::test::seconds_since;
using stint::test::shell_launch;
using stint::test::TempDir;
using stint::test::wait_child;
using stint::test::wait_until;
using Clock = std::chrono::steady_clock;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool ends_with(const std::string& text, const std::string& part) {
  return text.size() >= part.size() &&
         text.compare(text.size() - part.size(), part.size(), part) == 0;
}

// A command that holds `mb` MiB of touched memory for `hold_s` seconds (0:
// exits at once): python3 when the tasks' PATH has it, else dd with a buffer of
// that size (reading /dev/zero into it touches every page). Empty: neither.
std::string memory_hog(int mb, int hold_s) {
  if (::access("/usr/bin/python3", X_OK) == 0 || ::access("/bin/python3", X_OK) == 0) {
    std::string hold = hold_s > 0 ? fmt::format("; import time; time.sleep({})", hold_s) : "";
    return fmt::format("python3 -c \"b = bytearray({} * 1024 * 1024){}\"", mb, hold);
  }
  if (::access("/usr/bin/dd", X_OK) == 0 || ::access("/bin/dd", X_OK) == 0) {
    // One block read takes a few ms once touched: 10000 of them hold it long enough.
    return fmt::format("dd if=/dev/zero of=/dev/null bs={}M count={} 2>/dev/null", mb,
                       hold_s > 0 ? 100000 : 1);
  }
  return "";
}

struct Logged {
  std::vector<std::string> lines;
  stepd::LogFn fn() {
    return [this](const std::string& line) { lines.push_back(line); };
  }
  bool has(const std::string& part) const {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return contains(l, part); });
  }
};

}  // namespace

TEST_CASE("going over the memory limit ends the task as out of memory") {
  std::string hog = memory_hog(200, 30);
  if (hog.empty()) {
    WARN("neither python3 nor dd in /usr/bin:/bin: skipped");
    return;
  }
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "echo start; " + hog + "; echo after");
  l.mem_limit_mb = 50;
  Logged log;
  auto t0 = Clock::now();
  TaskResult r = stepd::run_task(l, log.fn());
  double took = seconds_since(t0);
  INFO("log: " << (log.lines.empty() ? "" : log.lines.front()));
  std::string out = read_text(dir / "out");
  INFO("output: " << out);
  CHECK(r.out_of_memory);
  CHECK_FALSE(r.timed_out);
  CHECK_FALSE(r.cancelled);
  CHECK(took < 15);  // the hog would hold on for 30 s
  // It got close to 50 MiB (the kernel counts more than RSS) or past it.
  CHECK(r.max_rss_kb > 40 * 1024);
  // stepd's log says which mechanism ran.
  REQUIRE(log.lines.size() >= 1);
  CHECK(contains(log.lines.front(), "job 7 node 0: memory limit 50 MiB: "));
  if (log.has("cgroup v2 ")) {
    // The kernel killed the hog; the shell went on. Slurm's task/cgroup line.
    CHECK(contains(out, "slurmstepd-n1: error: Detected "));
    CHECK(ends_with(out,
                    " oom-kill event(s) in StepId=7.batch. Some of your processes may have "
                    "been killed by the cgroup out-of-memory handler.\n"));
  } else {
    REQUIRE(log.has("sampling the task's RSS every 200 ms (no cgroup: "));
    // OverMemoryKill, as in 08-sacct.txt's job 37: SIGKILL to all of it.
    CHECK(r.exit_signal == SIGKILL);
    CHECK(out.rfind("start\nslurmstepd-n1: error: StepId=7.batch exceeded memory limit (", 0) == 0);
    CHECK(contains(out,
                   " > 52428800), being killed\nslurmstepd-n1: error: *** JOB 7 ON n1 "
                   "CANCELLED AT "));
    CHECK(ends_with(out, " ***\nslurmstepd-n1: error: Exceeded job memory limit\n"));
    CHECK_FALSE(contains(out, "after"));
  }
}

TEST_CASE("cgroup v2 where it works: the task runs inside and the cgroup goes away") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "cat /proc/self/cgroup");
  l.mem_limit_mb = 100;
  Logged log;
  TaskResult r = stepd::run_task(l, log.fn());
  REQUIRE(log.lines.size() >= 1);
  const std::string marker = "memory limit 100 MiB: cgroup v2 ";
  auto at = log.lines.front().find(marker);
  if (at == std::string::npos) {
    WARN("no cgroup v2 here, RSS sampling instead: " << log.lines.front());
    return;
  }
  std::string path = log.lines.front().substr(at + marker.size());
  CHECK(ends_with(path, "/stint_job_7_0"));
  CHECK(r.exit_status == 0);
  CHECK_FALSE(r.out_of_memory);
  // The task saw itself in it (the path relative to the cgroup2 mount).
  std::string out = read_text(dir / "out");
  CHECK(contains(out, "0::/"));
  CHECK(ends_with(out, "/stint_job_7_0\n"));
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("the memory limit counts the task's processes together") {
  std::string hog = memory_hog(40, 10);
  if (hog.empty()) {
    WARN("neither python3 nor dd in /usr/bin:/bin: skipped");
    return;
  }
  TempDir dir;
  // 40 MiB each is under the limit; together they are over it. One leaves the
  // process group (and the session), and still counts.
  TaskLaunch l = shell_launch(dir, hog + " & setsid " + hog + " & " + hog + " & wait");
  l.mem_limit_mb = 100;
  Logged log;
  auto t0 = Clock::now();
  TaskResult r = stepd::run_task(l, log.fn());
  CHECK(r.out_of_memory);
  CHECK(seconds_since(t0) < 30);
  if (!log.has("cgroup v2 ")) {
    CHECK(r.exit_signal == SIGKILL);
    CHECK(seconds_since(t0) < 8);      // not the hogs' 10 s
    CHECK(r.max_rss_kb > 100 * 1024);  // the sampled sum, larger than any one of them
  }
}

TEST_CASE("a task under its memory limit is not touched") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "echo fine");
  l.mem_limit_mb = 100;
  TaskResult r = stepd::run_task(l);
  CHECK_FALSE(r.out_of_memory);
  CHECK(r.exit_status == 0);
  CHECK(read_text(dir / "out") == "fine\n");
}

TEST_CASE("max RSS of a task holding about 200 MiB with no limit") {
  std::string hog = memory_hog(200, 0);
  if (hog.empty()) {
    WARN("neither python3 nor dd in /usr/bin:/bin: skipped");
    return;
  }
  TempDir dir;
  TaskResult r = stepd::run_task(shell_launch(dir, hog));
  CHECK(r.exit_status == 0);
  CHECK_FALSE(r.out_of_memory);
  CHECK(r.max_rss_kb > 200 * 1024 * 3 / 4);
  CHECK(r.max_rss_kb < 200 * 1024 * 5 / 4);
}

TEST_CASE("CPU time: user and system time of the task's processes") {
  TempDir dir;
  // Busy loops bounded by CPU time (RLIMIT_CPU ends each one), not by wall
  // time, so a loaded machine makes the test slower but not wrong.
  const std::string burn = "(ulimit -t {}; exec sh -c 'while :; do :; done')";

  SECTION("one process burning 2 s") {
    TaskResult r = stepd::run_task(shell_launch(dir, fmt::format(fmt::runtime(burn), 2)));
    double cpu = static_cast<double>(r.user_cpu_us + r.sys_cpu_us) / 1e6;
    INFO("cpu " << cpu << " s");
    CHECK(cpu > 2 * 0.6);
    CHECK(cpu < 2 * 1.4);
  }
  SECTION("two processes burning 1 s each") {
    std::string one = fmt::format(fmt::runtime(burn), 1);
    TaskResult r = stepd::run_task(shell_launch(dir, one + " & " + one + " & wait"));
    double cpu = static_cast<double>(r.user_cpu_us + r.sys_cpu_us) / 1e6;
    INFO("cpu " << cpu << " s");
    CHECK(cpu > 2 * 0.6);
    CHECK(cpu < 2 * 1.4);
  }
}

TEST_CASE("sbatch --signal arrives 'before' seconds ahead of the time limit") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir,
                              "trap 'echo got > got; exit 0' USR1; "
                              "while :; do sleep 0.1; done");
  l.time_limit = 61;
  l.signal.signal = SIGUSR1;
  l.signal.before = 60;
  l.signal.batch_only = true;  // B:, to the shell that traps it
  l.result_path = dir / "result.json";
  auto t0 = Clock::now();
  pid_t stepd = fork_stepd(l);
  REQUIRE(stepd > 0);
  REQUIRE(wait_until([&] { return fs::exists(dir / "got"); }, 20));
  double arrived = seconds_since(t0);
  CHECK(arrived > 0.9);
  CHECK(arrived < 10);
  REQUIRE(wait_child(stepd, 20) != -1);
  TaskResult r = task_result_from_json_text(read_text(l.result_path));
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_status == 0);
}

TEST_CASE("sbatch --signal earlier than the whole time limit goes out at once") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "trap 'exit 0' USR2; while :; do sleep 0.1; done");
  l.time_limit = 30;
  l.signal.signal = SIGUSR2;
  l.signal.before = 60;
  l.signal.batch_only = true;
  auto t0 = Clock::now();
  TaskResult r = stepd::run_task(l);
  CHECK(seconds_since(t0) < 10);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_status == 0);
}

TEST_CASE("sbatch --signal: the steps, or with B: only the batch shell") {
  TempDir dir;
  // A step is what an srun started: here a copy of sh named srun runs
  // task.sh, which records what reaches it. The batch shell records a signal
  // of its own in "shell", then tells the step to stop; it waits for srun.
  const std::string srun = dir / "srun";
  fs::write_file_atomic(srun, fs::read_file("/bin/sh"), 0755);
  fs::write_file_atomic(dir / "task.sh",
                        "trap 'echo usr1 >> step; exit 0' USR1\n"
                        "while [ ! -e stop ]; do sleep 0.1; done\n",
                        0644);
  TaskLaunch l = shell_launch(dir,
                              "trap 'echo usr1 > shell; touch stop' USR1; "
                              "./srun -c 'sh ./task.sh; true' & s=$!; "
                              "while kill -0 $s 2>/dev/null; do sleep 0.1; done; exit 0");
  l.time_limit = 61;
  l.signal.signal = SIGUSR1;
  l.signal.before = 59;  // 2 s in: time for the traps to be set

  SECTION("without B: the step's processes, not the shell") {
    TaskResult r = stepd::run_task(l);
    CHECK(r.exit_status == 0);
    CHECK(read_text(dir / "step") == "usr1\n");
    CHECK_FALSE(std::filesystem::exists(dir / "shell"));
  }
  SECTION("B: the batch shell only") {
    l.signal.batch_only = true;
    // The shell tells the step to stop, which then ends on its own.
    TaskResult r = stepd::run_task(l);
    CHECK(read_text(dir / "shell") == "usr1\n");
    CHECK_FALSE(std::filesystem::exists(dir / "step"));
  }
}

TEST_CASE("sbatch --signal needs a time limit") {
  TempDir dir;
  // Without one there is no moment to send it at; the task ends on its own.
  TaskLaunch l = shell_launch(dir, "trap 'echo got > got' USR1; echo done");
  l.time_limit = 0;
  l.signal.signal = SIGUSR1;
  l.signal.before = 3600;
  TaskResult r = stepd::run_task(l);
  CHECK(r.exit_status == 0);
  CHECK_FALSE(fs::exists(dir / "got"));
}

TEST_CASE("cgroup v2: the reason where it cannot work") {
  TempDir dir;
  std::string why;
  stepd::detail::CgroupSetup setup;
  setup.mount = dir.path();  // a tmpfs or ext4 folder, not cgroup2
  CHECK(stepd::detail::Cgroup::create("stint_job_1_0", 50 << 20, why, setup) == nullptr);
  CHECK(why == dir.path() + " is not cgroup v2");
  setup.mount = dir / "missing";
  CHECK(stepd::detail::Cgroup::create("stint_job_1_0", 50 << 20, why, setup) == nullptr);
  CHECK(why == dir / "missing: No such file or directory");
}

TEST_CASE("cgroup v2: reading /proc/self/cgroup and memory.events") {
  using stepd::detail::memory_event;
  using stepd::detail::own_cgroup_path;
  CHECK(own_cgroup_path("0::/user.slice/user-1000.slice/session-3.scope\n") ==
        "/user.slice/user-1000.slice/session-3.scope");
  CHECK(own_cgroup_path("12:memory:/x\n1:name=systemd:/y\n0::/\n") == "/");
  CHECK_FALSE(own_cgroup_path("4:memory:/process_api/x\n1:cpu:/\n").has_value());
  CHECK_FALSE(own_cgroup_path("").has_value());

  const std::string events = "low 0\nhigh 0\nmax 17\noom 2\noom_kill 1\noom_group_kill 0\n";
  CHECK(memory_event(events, "oom_kill") == 1);
  CHECK(memory_event(events, "max") == 17);
  CHECK(memory_event(events, "oom_group_kill") == 0);
  CHECK(memory_event("", "oom_kill") == 0);
}

TEST_CASE("/proc: parents and descendants of processes and their RSS") {
  using namespace stepd::detail;
  CHECK(parent_from_stat("123 (sh) S 45 123 123 0 -1") == 45);
  CHECK(parent_from_stat("123 (a) b) (c) R 7 1 1") == 7);  // a command name with ") "
  CHECK(parent_from_stat("garbage") == -1);

  CHECK(rss_kb(::getpid()) > 0);
  CHECK(rss_kb(0) == 0);

  // A shell with a child of its own and an orphan, under a forked child of ours.
  TempDir dir;
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(dir.path().c_str()) != 0) ::_exit(126);
    ::execl("/bin/sh", "sh", "-c",
            "sleep 30 & echo $! > child; (setsid sleep 30 & echo $! > orphan); "
            "echo ready > ready; wait",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  REQUIRE(pid > 0);
  bool ready = wait_until([&] { return fs::exists(dir / "ready"); }, 20);
  std::vector<pid_t> children = children_of(::getpid());
  std::vector<pid_t> all = descendants_of(::getpid());
  auto pid_in = [&](const std::string& name) {
    return fs::exists(dir / name) ? static_cast<pid_t>(std::stol(read_text(dir / name))) : -1;
  };
  pid_t child = pid_in("child");
  pid_t orphan = pid_in("orphan");
  for (pid_t p : {pid, child, orphan}) {
    if (p > 0) ::kill(p, SIGKILL);
  }
  ::waitpid(pid, nullptr, 0);
  REQUIRE(ready);
  CHECK(children == std::vector<pid_t>{pid});
  // The shell and its sleep; the orphan went to init (this test process is no
  // subreaper now) and is not ours.
  auto has = [&](pid_t p) { return std::find(all.begin(), all.end(), p) != all.end(); };
  CHECK(has(pid));
  CHECK(has(child));
  CHECK_FALSE(has(orphan));
  CHECK(all.size() == 2);
}
