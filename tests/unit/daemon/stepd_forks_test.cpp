// stint-stepd --fork-server through stintd's end of it (StepdForks), with the
// real stint-stepd: a forked stepd runs its launch file, reads as `stint-stepd
// <launch file>` to a successor's search, and its exit is told.

#include "daemon/stepd_forks.hpp"

#include <csignal>
#include <set>
#include <string>

#include <catch2/catch.hpp>
#include <poll.h>
#include <unistd.h>

#include "../stepd/helpers.hpp"
#include "stepd/launch.hpp"
#include "util/fs.hpp"
#include "util/proc.hpp"

using namespace stint;

namespace {

// A launch file of a task that runs `sh -c script` in `dir`.
std::string write_launch(const test::TempDir& dir, int task, const std::string& script) {
  TaskLaunch l;
  l.job_id = 5;
  l.node_index = static_cast<std::uint32_t>(task);
  l.node_name = "n1";
  l.argv = {"/bin/sh", "-c", script};
  l.env = {{"PATH", "/usr/bin:/bin"}};
  l.work_dir = dir.path();
  l.stdout_path = dir.path() + "/out-" + std::to_string(task);
  l.stderr_path = l.stdout_path;
  l.kill_wait = 1;
  l.uid = ::geteuid();
  l.gid = ::getegid();
  l.result_path = dir.path() + "/task-" + std::to_string(task) + ".result.json";
  const std::string path = dir.path() + "/task-" + std::to_string(task) + ".launch.json";
  fs::write_file_atomic(path, to_json_text(l), 0600);
  return path;
}

const std::string k_stepd = std::string(STINT_BIN_DIR) + "/stint-stepd";

}  // namespace

TEST_CASE("the fork server starts a stepd per launch file and tells of its end") {
  test::TempDir dir;
  daemon::StepdForks forks(dir.path() + "/stepd.log", dir.path().size() + 32);
  std::set<std::int64_t> exited;
  auto note = [&](std::int64_t pid) { exited.insert(pid); };
  // Whether the server's notice of `pid`'s end comes (read as stintd's loop
  // does, when the socket is readable).
  auto told_of_end = [&](std::int64_t pid) {
    return test::wait_until(
        [&] {
          pollfd p{forks.fd(), POLLIN, 0};
          if (::poll(&p, 1, 0) == 1) forks.read_exits(note);
          return exited.count(pid) == 1;
        },
        10);
  };

  const std::string launch = write_launch(dir, 0, "sleep 30");
  auto s = forks.start(k_stepd, launch, note);
  REQUIRE(s.outcome == daemon::StepdForks::Outcome::started);
  CHECK(s.pid > 0);
  CHECK(forks.fd() >= 0);
  // The start time is the child's, read before it could be reaped.
  CHECK(proc::start_ticks(s.pid) == s.start_ticks);
  CHECK(proc::alive(s.pid, s.start_ticks));
  // A successor of stintd finds it by its launch file, as it finds a spawned
  // stepd; once it has claimed the file it is the stepd of that task.
  CHECK(test::wait_until(
      [&] { return proc::find_process("stint-stepd", launch, k_stepd) == s.pid; }, 10));
  CHECK(test::wait_until([&] { return fs::exists(dir.path() + "/task-0.claimed.json"); }, 10));
  // A stepd of its own session, not the server's.
  CHECK(::getsid(static_cast<pid_t>(s.pid)) == s.pid);

  // The second one comes from the same server, and runs to its end.
  const int server_fd = forks.fd();
  const std::string second = write_launch(dir, 1, "echo ran");
  auto t = forks.start(k_stepd, second, note);
  REQUIRE(t.outcome == daemon::StepdForks::Outcome::started);
  CHECK(forks.fd() == server_fd);
  CHECK(told_of_end(t.pid));
  CHECK(fs::exists(dir.path() + "/task-1.result.json"));
  CHECK(fs::read_file(dir.path() + "/out-1") == "ran\n");

  // Killed, the first one is told of as well (the server reaps it).
  ::kill(static_cast<pid_t>(s.pid), SIGKILL);
  CHECK(told_of_end(s.pid));
  CHECK_FALSE(proc::alive(s.pid, s.start_ticks));
}

TEST_CASE("a launch path the server has no room for is not sent: stintd spawns instead") {
  test::TempDir dir;
  daemon::StepdForks forks(dir.path() + "/stepd.log", 4);
  const std::string launch = write_launch(dir, 0, "true");
  auto s = forks.start(k_stepd, launch, [](std::int64_t) {});
  CHECK(s.outcome == daemon::StepdForks::Outcome::not_sent);
  CHECK(fs::exists(launch));  // nobody claimed it
}

TEST_CASE("a server that has gone is replaced at the next start") {
  test::TempDir dir;
  daemon::StepdForks forks(dir.path() + "/stepd.log", dir.path().size() + 32);
  const std::string first = write_launch(dir, 0, "true");
  auto s = forks.start(k_stepd, first, [](std::int64_t) {});
  REQUIRE(s.outcome == daemon::StepdForks::Outcome::started);
  REQUIRE(forks.server_pid() > 0);
  ::kill(forks.server_pid(), SIGKILL);
  // Its end closes: read_exits forgets it.
  CHECK(test::wait_until(
      [&] {
        forks.read_exits([](std::int64_t) {});
        return forks.fd() < 0;
      },
      10));
  const std::string second = write_launch(dir, 1, "true");
  auto t = forks.start(k_stepd, second, [](std::int64_t) {});
  CHECK(t.outcome == daemon::StepdForks::Outcome::started);
  CHECK(test::wait_until([&] { return fs::exists(dir.path() + "/task-1.result.json"); }, 10));
}
