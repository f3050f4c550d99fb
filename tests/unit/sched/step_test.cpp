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
  CHECK(l.nodes[1].task_ids == std::vector<std::uint32_t>{2, 3});
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
  CHECK(l.nodes[0].task_ids == std::vector<std::uint32_t>{0, 1, 2});
  CHECK(l.nodes[1].task_ids == std::vector<std::uint32_t>{3, 4});
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

using Ids = std::vector<std::uint32_t>;

TEST_CASE("layout -m cyclic: one task to each node in turn, as many per node as block") {
  StepRequest r;
  r.tasks = 5;
  r.nodes = 2;
  sched::read_distribution("cyclic", r);
  const auto l = layout_step(allocation(2, 4), r);
  CHECK(l.nodes[0].task_ids == Ids{0, 2, 4});
  CHECK(l.nodes[1].task_ids == Ids{1, 3});
  CHECK(l.nodes[0].task_cpus == std::vector<std::vector<std::uint32_t>>{{0}, {1}, {2}});
  CHECK(sched::process_mapping(l) == "(vector,(0,2,1),(0,2,1),(0,1,1))");
}

TEST_CASE("layout -m plane=N: N consecutive tasks to each node in turn") {
  StepRequest r;
  r.tasks = 6;
  r.nodes = 2;
  sched::read_distribution("plane=4", r);
  auto l = layout_step(allocation(2, 4), r);
  CHECK(l.nodes[0].task_ids == Ids{0, 1, 2, 3});
  CHECK(l.nodes[1].task_ids == Ids{4, 5});
  CHECK(sched::process_mapping(l) == "(vector,(0,1,4),(1,1,2))");
  r.tasks = 8;
  sched::read_distribution("plane=2", r);
  l = layout_step(allocation(2, 4), r);
  CHECK(l.nodes[0].task_ids == Ids{0, 1, 4, 5});
  CHECK(l.nodes[1].task_ids == Ids{2, 3, 6, 7});
  CHECK(sched::process_mapping(l) == "(vector,(0,2,2),(0,2,2))");
  // A plane larger than a node's CPUs does not fit there.
  r.tasks = 6;
  sched::read_distribution("plane=5", r);
  CHECK_THROWS_WITH(layout_step(allocation(2, 4), r),
                    Catch::Contains("More processors requested than permitted"));
}

TEST_CASE("layout -m ...,Pack: each node filled before the next") {
  StepRequest r;
  r.tasks = 5;
  r.nodes = 3;
  sched::read_distribution("block,Pack", r);
  CHECK(r.pack);
  auto l = layout_step(allocation(3, 4), r);
  CHECK(tasks_per_node(l) == std::vector<std::uint32_t>{3, 1, 1});
  r.tasks = 9;
  l = layout_step(allocation(3, 4), r);
  CHECK(tasks_per_node(l) == std::vector<std::uint32_t>{4, 4, 1});
  sched::read_distribution("cyclic,Pack", r);
  l = layout_step(allocation(3, 4), r);
  CHECK(l.nodes[2].task_ids == Ids{2});
  CHECK(l.nodes[0].task_ids == Ids{0, 3, 5, 7});
  r.tasks = 13;
  CHECK_THROWS_WITH(layout_step(allocation(3, 4), r),
                    Catch::Contains("More processors requested than permitted"));
  sched::read_distribution("block,NoPack", r);
  CHECK_FALSE(r.pack);
}

TEST_CASE("PMI_process_mapping of block layouts: runs of nodes merged") {
  StepRequest r;
  r.tasks = 4;
  CHECK(sched::process_mapping(layout_step(allocation(2, 2), r)) == "(vector,(0,2,2))");
  r.tasks = 5;
  r.nodes = 3;
  CHECK(sched::process_mapping(layout_step(allocation(3, 2), r)) == "(vector,(0,2,2),(2,1,1))");
  r.tasks = 1;
  r.nodes.reset();
  CHECK(sched::process_mapping(layout_step(allocation(1, 1), r)) == "(vector,(0,1,1))");
}

TEST_CASE("layout -m: what a step here can and cannot be") {
  StepRequest r;
  for (const char* block : {"block", "*", "block:block", "Block:*:block", "block,NoPack", ""}) {
    INFO(block);
    r.distribution = sched::Distribution::cyclic;
    sched::read_distribution(block, r);
    CHECK(r.distribution == sched::Distribution::block);
  }
  sched::read_distribution("CYCLIC:block", r);
  CHECK(r.distribution == sched::Distribution::cyclic);
  sched::read_distribution("plane=3", r);
  CHECK(r.distribution == sched::Distribution::plane);
  CHECK(r.plane_size == 3);
  const std::pair<const char*, const char*> refused[] = {
      {"arbitrary", "SLURM_HOSTFILE"},
      {"block:cyclic", "in order (block)"},
      {"cyclic:fcyclic", "in order (block)"},
      {"block,Tight", "Pack and NoPack"},
      {"plane=0", "positive size"},
      {"plane=x", "positive size"},
      {"spiral", "block, cyclic and plane=N"},
  };
  for (const auto& [text, why] : refused) {
    INFO(text);
    CHECK_THROWS_WITH(sched::read_distribution(text, r), Catch::Contains(why));
  }
}

TEST_CASE("layout -O: more tasks than CPUs share them round the node") {
  StepRequest r;
  r.tasks = 5;
  r.nodes = 1;
  CHECK_THROWS_WITH(layout_step(allocation(1, 2), r),
                    Catch::Contains("More processors requested than permitted"));
  r.overcommit = true;
  const auto l = layout_step(allocation(1, 2), r);
  CHECK(tasks_per_node(l) == std::vector<std::uint32_t>{5});
  CHECK(l.nodes[0].task_cpus == std::vector<std::vector<std::uint32_t>>{{0}, {1}, {0}, {1}, {0}});
  CHECK(l.cpus == 2);
}
