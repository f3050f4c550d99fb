#include "sched/step.hpp"

#include <catch2/catch.hpp>

#include <stint/error.hpp>

using namespace stint;
using sched::layout_step;
using sched::StepRequest;

namespace {

std::vector<NodeAlloc> allocation(std::uint32_t nodes, std::uint32_t cpus) {
  std::vector<NodeAlloc> out;
  for (std::uint32_t i = 0; i < nodes; ++i) {
    NodeAlloc a;
    a.node = "n" + std::to_string(i + 1);
    a.cpus = cpus;
    for (std::uint32_t c = 0; c < cpus; ++c) a.cpu_ids.push_back(10 * i + c);
    out.push_back(a);
  }
  return out;
}

std::vector<std::uint32_t> tasks_per_node(const sched::StepLayout& l) {
  std::vector<std::uint32_t> out;
  for (const auto& n : l.nodes) out.push_back(n.tasks);
  return out;
}

}  // namespace

TEST_CASE("a step takes the job's task count over every node by default") {
  StepRequest r;
  r.job_tasks = 4;
  const auto l = layout_step(allocation(2, 2), r);
  CHECK(l.tasks == 4);
  CHECK(tasks_per_node(l) == std::vector<std::uint32_t>{2, 2});
  CHECK(l.nodes[1].first_task == 2);
  CHECK(l.nodes[1].task_cpus == std::vector<std::vector<std::uint32_t>>{{10}, {11}});
  CHECK(l.cpus == 4);
}

TEST_CASE("a step of one task uses the first node only") {
  StepRequest r;
  r.tasks = 1;
  r.job_tasks = 4;
  const auto l = layout_step(allocation(2, 2), r);
  REQUIRE(l.nodes.size() == 1);
  CHECK(l.nodes[0].name == "n1");
  CHECK(l.nodes[0].task_cpus == std::vector<std::vector<std::uint32_t>>{{0}});
}

TEST_CASE("blocks: the first nodes take the remainder") {
  StepRequest r;
  r.tasks = 5;
  r.nodes = 2;
  const auto l = layout_step(allocation(2, 4), r);
  CHECK(tasks_per_node(l) == std::vector<std::uint32_t>{3, 2});
  CHECK(l.nodes[1].first_task == 3);
}

TEST_CASE("a step with -N alone runs one task on each node") {
  StepRequest r;
  r.nodes = 2;
  r.job_tasks = 8;
  const auto l = layout_step(allocation(2, 4), r);
  CHECK(tasks_per_node(l) == std::vector<std::uint32_t>{1, 1});
}

TEST_CASE("a step with --ntasks-per-node sets the count and the spread") {
  StepRequest r;
  r.tasks_per_node = 1;
  const auto l = layout_step(allocation(3, 2), r);
  CHECK(tasks_per_node(l) == std::vector<std::uint32_t>{1, 1, 1});
  StepRequest capped;
  capped.tasks = 4;
  capped.tasks_per_node = 1;
  CHECK_THROWS_WITH(layout_step(allocation(3, 2), capped),
                    "More processors requested than permitted");
}

TEST_CASE("cpus per task slice each node's CPUs") {
  StepRequest r;
  r.tasks = 2;
  r.cpus_per_task = 2;
  const auto l = layout_step(allocation(1, 4), r);
  CHECK(l.nodes[0].task_cpus == std::vector<std::vector<std::uint32_t>>{{0, 1}, {2, 3}});
  CHECK(l.cpus == 4);
}

TEST_CASE("more than the allocation is refused with Slurm's words") {
  StepRequest many;
  many.tasks = 5;
  CHECK_THROWS_WITH(layout_step(allocation(2, 2), many),
                    "More processors requested than permitted");
  StepRequest wide;
  wide.nodes = 3;
  CHECK_THROWS_WITH(layout_step(allocation(2, 2), wide), "Only allocated 2 nodes asked for 3");
  StepRequest fat;
  fat.tasks = 1;
  fat.cpus_per_task = 3;
  CHECK_THROWS_WITH(layout_step(allocation(2, 2), fat), "More processors requested than permitted");
}

TEST_CASE("a step with -N above -n is lowered with a warning") {
  StepRequest r;
  r.tasks = 1;
  r.nodes = 2;
  const auto l = layout_step(allocation(2, 2), r);
  CHECK(l.nodes.size() == 1);
  CHECK(l.warning == "can't run 1 processes on 2 nodes, setting nnodes to 1");
}

TEST_CASE("a step with -w picks nodes of the allocation, in its order") {
  StepRequest r;
  r.tasks = 2;
  r.node_names = {"n3", "n2"};
  const auto l = layout_step(allocation(3, 1), r);
  REQUIRE(l.nodes.size() == 2);
  CHECK(l.nodes[0].name == "n2");
  CHECK(l.nodes[1].name == "n3");
  StepRequest outside;
  outside.node_names = {"x9"};
  try {
    layout_step(allocation(1, 1), outside);
    FAIL("expected a refusal");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::node_config_unavailable);
  }
}

TEST_CASE("zero tasks is refused") {
  StepRequest r;
  r.tasks = 0;
  CHECK_THROWS_AS(layout_step(allocation(1, 1), r), Error);
}
