// stintd's side of the contract, against a supervisor in a forked child (as
// stint-stepd runs): cancel by SIGTERM, signal forwarding by sigqueue, the
// result file, and the task_done message.

#include <cerrno>
#include <csignal>
#include <cstring>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "helpers.hpp"
#include "rpc/client.hpp"
#include "stepd/spawn.hpp"

using namespace stint;
using stint::test::fork_stepd;
using stint::test::read_text;
using stint::test::shell_launch;
using stint::test::TempDir;
using stint::test::wait_child;
using stint::test::wait_until;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TaskResult read_result(const TaskLaunch& l) {
  return task_result_from_json_text(read_text(l.result_path));
}

}  // namespace

TEST_CASE("SIGTERM to stepd cancels the task") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "echo ready > ready; sleep 30");
  l.result_path = dir / "result.json";
  pid_t stepd = fork_stepd(l);
  REQUIRE(stepd > 0);
  REQUIRE(wait_until([&] { return fs::exists(dir / "ready"); }, 20));
  REQUIRE(::kill(stepd, SIGTERM) == 0);
  int status = wait_child(stepd, 20);
  REQUIRE(status != -1);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);

  TaskResult r = read_result(l);
  CHECK(r.cancelled);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_signal == SIGTERM);
  std::string out = read_text(dir / "out");
  CHECK(out.rfind("slurmstepd-n1: error: *** JOB 7 ON n1 CANCELLED AT ", 0) == 0);
  CHECK_FALSE(contains(out, "DUE TO"));
}

TEST_CASE("SIGINT to stepd cancels too") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "echo ready > ready; sleep 30");
  l.result_path = dir / "result.json";
  pid_t stepd = fork_stepd(l);
  REQUIRE(wait_until([&] { return fs::exists(dir / "ready"); }, 20));
  REQUIRE(::kill(stepd, SIGINT) == 0);
  REQUIRE(wait_child(stepd, 20) != -1);
  CHECK(read_result(l).cancelled);
}

TEST_CASE("a cancel escalates to SIGKILL after KillWait") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "trap '' TERM; echo ready > ready; sleep 30");
  l.result_path = dir / "result.json";
  l.kill_wait = 1;
  pid_t stepd = fork_stepd(l);
  REQUIRE(wait_until([&] { return fs::exists(dir / "ready"); }, 20));
  REQUIRE(::kill(stepd, SIGTERM) == 0);
  REQUIRE(wait_child(stepd, 20) != -1);
  TaskResult r = read_result(l);
  CHECK(r.cancelled);
  CHECK(r.exit_signal == SIGKILL);
}

TEST_CASE("SIGUSR1 with a value forwards that signal to the task") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir,
                              "trap 'echo got USR2; exit 5' USR2; echo ready > ready; "
                              "while :; do sleep 0.1; done");
  l.result_path = dir / "result.json";
  pid_t stepd = fork_stepd(l);
  REQUIRE(wait_until([&] { return fs::exists(dir / "ready"); }, 20));
  sigval value{};
  value.sival_int = SIGUSR2;
  REQUIRE(::sigqueue(stepd, k_stepd_forward_signal, value) == 0);
  REQUIRE(wait_child(stepd, 20) != -1);

  TaskResult r = read_result(l);
  CHECK_FALSE(r.cancelled);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_status == 5);
  // The shell may also report its `sleep` killed by the same signal first.
  std::string out = read_text(dir / "out");
  CHECK(out.size() >= 9);
  CHECK(out.substr(out.size() - 9) == "got USR2\n");
}

TEST_CASE("the result file is written before stintd is told") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "exit 4");
  l.job_id = 12;
  l.node_index = 2;
  l.result_path = dir / "result.json";
  l.socket_path = dir / "stintd.sock";

  // A stand-in stintd: listen, take one frame, answer ok.
  stepd::detail::Fd listener(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  REQUIRE(listener);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strcpy(addr.sun_path, l.socket_path.c_str());
  REQUIRE(::bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener.get(), 4) == 0);

  pid_t stepd = fork_stepd(l);
  pollfd pfd{listener.get(), POLLIN, 0};
  REQUIRE(::poll(&pfd, 1, 20000) == 1);
  stepd::detail::Fd conn(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
  REQUIRE(conn);
  bool result_there = fs::exists(l.result_path);
  auto request = rpc::read_frame(conn.get());
  REQUIRE(request);
  rpc::write_frame(conn.get(), R"({"ok": true})");
  REQUIRE(wait_child(stepd, 20) != -1);

  CHECK(result_there);
  auto j = nlohmann::json::parse(*request);
  CHECK(j["op"].get<std::string>() == "task_done");
  CHECK(j["job_id"].get<int>() == 12);
  CHECK(j["node_index"].get<int>() == 2);
  TaskResult r = read_result(l);
  CHECK(r.job_id == 12);
  CHECK(r.node_index == 2);
  CHECK(r.exit_status == 4);
}

TEST_CASE("telling a stintd that is not there fails quietly") {
  TempDir dir;
  TaskLaunch l = shell_launch(dir, "exit 0");
  l.socket_path = dir / "nobody.sock";
  CHECK_FALSE(stepd::notify_task_done(l));
  l.socket_path.clear();
  CHECK_FALSE(stepd::notify_task_done(l));
  l.result_path = dir / "result.json";
  l.socket_path = dir / "nobody.sock";
  TaskResult r = stepd::run_task(l);
  CHECK(r.exit_status == 0);
  CHECK(fs::exists(l.result_path));
}
