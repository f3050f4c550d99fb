// The launch and result files: JSON round trips and malformed input.

#include "stepd/launch.hpp"

#include <functional>
#include <string>

#include <catch2/catch.hpp>

#include <stint/error.hpp>

#include "stepd/stepd.hpp"

using namespace stint;

namespace {

Errc code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  return Errc::ok;
}

}  // namespace

TEST_CASE("a launch survives a round trip through JSON") {
  TaskLaunch l;
  l.job_id = 42;
  l.node_index = 3;
  l.node_name = "gpu-3";
  l.argv = {"/spool/42/script", "arg one", ""};
  l.env = {{"B", "2"}, {"A", "x=y"}, {"EMPTY", ""}, {"UTF", "명령"}};
  l.work_dir = "/home/u/exp";
  l.stdout_path = "/home/u/exp/slurm-42.out";
  l.stderr_path = "/home/u/exp/slurm-42.err";
  l.open_append = true;
  l.cpu_ids = {4, 5, 17};
  l.time_limit = 3600;
  l.kill_wait = 5;
  l.unkillable_timeout = 7;
  l.uid = 1000;
  l.gid = 100;
  l.mem_limit_mb = 4096;
  l.signal = SignalSpec{10, 120, true};
  l.result_path = "/state/spool/42/result-3.json";
  l.socket_path = "/state/stintd.sock";

  TaskLaunch back = task_launch_from_json_text(to_json_text(l));
  CHECK(back.job_id == 42);
  CHECK(back.node_index == 3);
  CHECK(back.node_name == "gpu-3");
  CHECK(back.argv == l.argv);
  CHECK(back.env == l.env);  // order kept
  CHECK(back.work_dir == l.work_dir);
  CHECK(back.stdout_path == l.stdout_path);
  CHECK(back.stderr_path == l.stderr_path);
  CHECK(back.open_append);
  CHECK(back.cpu_ids == l.cpu_ids);
  CHECK(back.time_limit == 3600);
  CHECK(back.kill_wait == 5);
  CHECK(back.unkillable_timeout == 7);
  CHECK(back.uid == 1000);
  CHECK(back.gid == 100);
  CHECK(back.mem_limit_mb == 4096);
  CHECK(back.signal == SignalSpec{10, 120, true});
  CHECK(back.result_path == l.result_path);
  CHECK(back.socket_path == l.socket_path);
}

TEST_CASE("an unlimited time limit stays unlimited") {
  TaskLaunch l;
  l.argv = {"/bin/true"};
  REQUIRE(l.time_limit == k_infinite);
  CHECK(task_launch_from_json_text(to_json_text(l)).time_limit == k_infinite);
}

TEST_CASE("absent optional fields keep their defaults") {
  TaskLaunch l = task_launch_from_json_text(R"({"job_id": 5, "argv": ["/bin/true"]})");
  CHECK(l.job_id == 5);
  CHECK(l.kill_wait == 30);
  CHECK(l.time_limit == k_infinite);
  CHECK(l.env.empty());
  CHECK_FALSE(l.open_append);
  // What an older stintd's launch file lacks: no memory limit, no --signal.
  CHECK(l.mem_limit_mb == 0);
  CHECK(l.signal == SignalSpec{});
  CHECK(l.unkillable_timeout == 60);  // Slurm's default UnkillableStepTimeout
}

TEST_CASE("sbatch --signal in a launch file: parts may be absent") {
  TaskLaunch l = task_launch_from_json_text(
      R"({"job_id": 5, "argv": ["/bin/true"], "signal": {"signal": 12}, "mem_limit_mb": 50})");
  CHECK(l.signal.signal == 12);
  CHECK(l.signal.before == 60);
  CHECK_FALSE(l.signal.batch_only);
  CHECK(l.mem_limit_mb == 50);
  CHECK(task_launch_from_json_text(R"({"job_id": 5, "argv": ["/bin/true"], "signal": null})")
            .signal == SignalSpec{});
}

TEST_CASE("a malformed launch file is a protocol error") {
  for (std::string text : {
           "",
           "not json",
           "[1, 2]",
           R"({"argv": ["/bin/true"]})",                                      // no job_id
           R"({"job_id": 1})",                                                // no argv
           R"({"job_id": 1, "argv": []})",                                    // nothing to run
           R"({"job_id": "one", "argv": ["/bin/true"]})",                     // wrong type
           R"({"job_id": 1, "argv": "/bin/true"})",                           // not a list
           R"({"job_id": 1, "argv": ["/bin/true"], "env": [["A"]]})",         // not a pair
           R"({"job_id": 1, "argv": ["/bin/true"], "env": {"A": "1"}})",      // not a list
           R"({"job_id": 1, "argv": ["/bin/true"], "open_append": "yes"})",   // not a bool
           R"({"job_id": 1, "argv": ["/bin/true"], "mem_limit_mb": "50M"})",  // not a number
           R"({"job_id": 1, "argv": ["/bin/true"], "mem_limit_mb": -1})",     // negative
           R"({"job_id": 1, "argv": ["/bin/true"], "signal": 10})",           // not an object
           R"({"job_id": 1, "argv": ["/bin/true"], "signal": {"signal": "USR1"}})",
       }) {
    INFO(text);
    CHECK(code_of([&] { task_launch_from_json_text(text); }) == Errc::protocol);
  }
}

TEST_CASE("a result survives a round trip through JSON") {
  TaskResult r;
  r.job_id = 9;
  r.node_index = 1;
  r.exit_status = 0;
  r.exit_signal = 9;
  r.timed_out = true;
  r.cancelled = false;
  r.launch_failed = true;
  r.out_of_memory = true;
  r.error = "execve(): /x: Permission denied";
  r.start_time = 1795975247;
  r.end_time = 1795975250;
  r.user_cpu_us = 1234567;
  r.sys_cpu_us = 89;
  r.max_rss_kb = 424408;
  r.kill_failed = true;

  TaskResult back = task_result_from_json_text(to_json_text(r));
  CHECK(back.job_id == 9);
  CHECK(back.node_index == 1);
  CHECK(back.exit_status == 0);
  CHECK(back.exit_signal == 9);
  CHECK(back.timed_out);
  CHECK_FALSE(back.cancelled);
  CHECK(back.launch_failed);
  CHECK(back.out_of_memory);
  CHECK(back.error == r.error);
  CHECK(back.start_time == r.start_time);
  CHECK(back.end_time == r.end_time);
  CHECK(back.user_cpu_us == r.user_cpu_us);
  CHECK(back.sys_cpu_us == r.sys_cpu_us);
  CHECK(back.max_rss_kb == r.max_rss_kb);
  CHECK(back.kill_failed);
}

TEST_CASE("a result file without out_of_memory reads as false") {
  CHECK_FALSE(task_result_from_json_text(R"({"job_id": 1, "exit_signal": 9})").out_of_memory);
  CHECK_FALSE(task_result_from_json_text(R"({"job_id": 1, "exit_signal": 9})").kill_failed);
}

TEST_CASE("a malformed result file is a protocol error") {
  for (std::string text :
       {"", "{", "null", R"({"exit_status": 1})", R"({"job_id": 1, "exit_status": "1"})",
        R"({"job_id": 1, "timed_out": 1})", R"({"job_id": 1, "out_of_memory": "yes"})"}) {
    INFO(text);
    CHECK(code_of([&] { task_result_from_json_text(text); }) == Errc::protocol);
  }
}

TEST_CASE("Slurm's kill lines for the job's output") {
  TaskLaunch l;
  l.job_id = 36;
  l.node_name = "vm";
  std::string prefix = "slurmstepd-vm: error: *** JOB 36 ON vm CANCELLED AT ";
  const stint::Seconds when = 1795975350;

  std::string timeout = stepd::kill_line(l, stepd::KillCause::time_limit, when);
  REQUIRE(timeout.rfind(prefix, 0) == 0);
  std::string rest = timeout.substr(prefix.size());
  CHECK(rest.size() == std::string("2026-11-29T18:02:30 DUE TO TIME LIMIT ***\n").size());
  CHECK(rest.substr(4, 1) == "-");
  CHECK(rest.substr(10, 1) == "T");
  CHECK(rest.substr(19) == " DUE TO TIME LIMIT ***\n");

  std::string cancel = stepd::kill_line(l, stepd::KillCause::cancel, when);
  REQUIRE(cancel.rfind(prefix, 0) == 0);
  CHECK(cancel.substr(prefix.size() + 19) == " ***\n");
}
