// A run's node watched for idleness: nvidia-smi's answer, CPU ticks from
// /proc/<pid>/stat (stepd/proc.hpp), and the idle stretch (stepd/activity.hpp).

#include "stepd/activity.hpp"

#include <ctime>
#include <string>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <stint/error.hpp>

#include "stepd/launch.hpp"
#include "stepd/proc.hpp"

using namespace stint;
using namespace stint::stepd::detail;

TEST_CASE("activity: nvidia-smi's utilisation of the node's GPUs") {
  const std::string csv = "0, 0\n1, 37\n2, 0\n3, [N/A]\n";
  CHECK(gpus_busy(csv, {0}) == false);
  CHECK(gpus_busy(csv, {1}) == true);
  CHECK(gpus_busy(csv, {0, 2}) == false);
  CHECK(gpus_busy(csv, {0, 1, 2}) == true);
  // Another node's GPU busy does not count.
  CHECK(gpus_busy("0, 0\n1, 100\n", {0}) == false);
  // Windows line ends, blank lines, no final newline.
  CHECK(gpus_busy("0, 0\r\n\n1, 5", {0, 1}) == true);
}

TEST_CASE("activity: an answer that does not say is no answer") {
  // A GPU of the node missing from the answer.
  CHECK_FALSE(gpus_busy("0, 0\n", {0, 1}).has_value());
  // A GPU that does not report utilisation.
  CHECK_FALSE(gpus_busy("3, [N/A]\n", {3}).has_value());
  // What a failing nvidia-smi prints instead.
  CHECK_FALSE(gpus_busy("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                        "driver.\n",
                        {0})
                  .has_value());
  CHECK_FALSE(gpus_busy("", {0}).has_value());
  CHECK_FALSE(gpus_busy("x, 0\n", {0}).has_value());
  CHECK_FALSE(gpus_busy("0, -1\n", {0}).has_value());
  CHECK_FALSE(gpus_busy("0, 0\n", {}).has_value());
}

TEST_CASE("activity: CPU ticks from /proc/<pid>/stat") {
  // Fields 14 to 17: utime stime cutime cstime.
  const std::string stat =
      "1234 (python3 (a) b) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 30 7 3 20 0 1 0 999 0 0";
  CHECK(cpu_ticks_from_stat(stat) == 290);
  CHECK(cpu_ticks_from_stat("1 (x) S 1 1 1 0 -1 0 0 0 0 0 5 5 -3 1 20") == 11);
  CHECK(cpu_ticks_from_stat("") == 0);
  CHECK(cpu_ticks_from_stat("1 (x) S 1 1") == 0);
  CHECK(cpu_ticks_from_stat("1 (x) S 1 1 1 0 -1 0 0 0 0 0 five 5 0 0 20") == 0);
  // This process's own, after it used 50 ms of CPU; a pid that is no
  // process adds nothing.
  const std::clock_t start = std::clock();
  while (std::clock() - start < CLOCKS_PER_SEC / 20) {
  }
  CHECK(cpu_ticks_sum({::getpid()}) > 0);
  CHECK(cpu_ticks_sum({-1}) == 0);
}

TEST_CASE("activity: the sample interval") {
  CHECK(activity_interval(3600) == 60);
  CHECK(activity_interval(120) == 30);
  CHECK(activity_interval(2) == 1);
  CHECK(activity_interval(1) == 1);
}

TEST_CASE("activity: an idle stretch is told once, and so is use again") {
  IdleWatch watch(100, 1000);
  CHECK_FALSE(watch.sample(1050, false, true));
  CHECK_FALSE(watch.sample(1099, false, true));
  const auto idle = watch.sample(1100, false, true);
  REQUIRE(idle);
  CHECK(idle->idle_since == 1000);  // idle since it started
  CHECK(idle->gpus);
  CHECK(watch.idle());
  CHECK_FALSE(watch.sample(1200, false, true));  // told once
  const auto busy = watch.sample(1210, true, true);
  REQUIRE(busy);
  CHECK(busy->idle_since == k_no_time);
  CHECK_FALSE(watch.idle());
  CHECK_FALSE(watch.sample(1220, true, false));
  // The next stretch starts at the last use.
  CHECK_FALSE(watch.sample(1300, false, false));
  const auto again = watch.sample(1320, false, false);
  REQUIRE(again);
  CHECK(again->idle_since == 1220);
  CHECK_FALSE(again->gpus);
}

TEST_CASE("activity: one busy sample ends a stretch before it is told") {
  IdleWatch watch(100, 0);
  CHECK_FALSE(watch.sample(90, false, true));
  CHECK_FALSE(watch.sample(95, true, true));
  CHECK_FALSE(watch.sample(150, false, true));
  CHECK(watch.sample(195, false, true));
}

TEST_CASE("activity: the file stepd writes for stintd") {
  const TaskActivity a = task_activity_from_json_text(to_json_text(TaskActivity{1700000000, true}));
  CHECK(a.idle_since == 1700000000);
  CHECK(a.gpus);
  CHECK(task_activity_from_json_text(R"({"idle_since": 0})").idle_since == k_no_time);
  for (const char* bad : {"", "[]", "{}", R"({"idle_since": "x"})", R"({"idle_since": -5})"}) {
    INFO(bad);
    CHECK_THROWS_AS(task_activity_from_json_text(bad), Error);
  }
}

TEST_CASE("activity: a watched launch keeps its settings through JSON") {
  TaskLaunch l;
  l.argv = {"/bin/true"};
  l.idle_after = 3600;
  l.activity_path = "/state/spool/7/task-1.activity.json";
  l.gpu_ids = {2, 3};
  const TaskLaunch back = task_launch_from_json_text(to_json_text(l));
  CHECK(back.idle_after == 3600);
  CHECK(back.activity_path == l.activity_path);
  CHECK(back.gpu_ids == l.gpu_ids);
  CHECK(task_launch_from_json_text(R"({"job_id": 5, "argv": ["/bin/true"]})").idle_after == 0);
}
