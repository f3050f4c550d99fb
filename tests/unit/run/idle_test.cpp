// When a run is IDLE (run/idle.hpp): every node whose command still runs idle.

#include "run/idle.hpp"

#include <catch2/catch.hpp>

using namespace stint;

namespace {

Job running_run(std::size_t nodes) {
  Job job;
  job.spec.run = RunInfo{};
  job.state = JobState::running;
  for (std::size_t i = 0; i < nodes; ++i) job.alloc.push_back(NodeAlloc{});
  return job;
}

}  // namespace

TEST_CASE("run idle: every running node idle", "[run]") {
  Job job = running_run(2);
  CHECK_FALSE(run::is_idle(job));
  job.alloc[0].idle_since = 1000;
  job.alloc[0].idle_gpus = true;
  CHECK_FALSE(run::is_idle(job));
  CHECK(run::idle_since(job) == k_no_time);
  job.alloc[1].idle_since = 1200;
  job.alloc[1].idle_gpus = true;
  CHECK(run::is_idle(job));
  CHECK(run::idle_since(job) == 1200);  // the whole run since the later
  CHECK(run::idle_on_gpus(job));
  job.alloc[1].idle_gpus = false;
  CHECK_FALSE(run::idle_on_gpus(job));
}

TEST_CASE("run idle: nodes whose command ended do not count", "[run]") {
  Job job = running_run(2);
  job.alloc[1].task_ended = true;
  CHECK_FALSE(run::is_idle(job));
  job.alloc[0].idle_since = 50;
  CHECK(run::is_idle(job));
  CHECK(run::idle_since(job) == 50);
  // All ended: kept alive, not idle.
  job.alloc[0].task_ended = true;
  CHECK_FALSE(run::is_idle(job));
}

TEST_CASE("run idle: only a running run that is not being stopped", "[run]") {
  Job job = running_run(1);
  job.alloc[0].idle_since = 50;
  CHECK(run::is_idle(job));
  job.spec.run->stopped = true;
  CHECK_FALSE(run::is_idle(job));
  job.spec.run->stopped = false;
  job.state = JobState::suspended;
  CHECK_FALSE(run::is_idle(job));
  job.state = JobState::running;
  job.spec.run.reset();
  CHECK_FALSE(run::is_idle(job));
  Job none = running_run(0);
  CHECK_FALSE(run::is_idle(none));
}
