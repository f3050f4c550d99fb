#include "sched/reconfig.hpp"

#include <catch2/catch.hpp>

using namespace stint;

namespace {

Config cluster(std::uint32_t count, std::uint32_t cpus, bool with_gpu_partition) {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.count = count;
  pool.cpus = cpus;
  pool.memory_mb = 4096;
  c.node_pools.push_back(pool);
  PartitionConfig p;
  p.id = "debug";
  p.node_pool_ids = {"n"};
  c.partitions.push_back(p);
  if (with_gpu_partition) {
    p.id = "gpu";
    c.partitions.push_back(p);
  }
  return c;
}

Job running_on(JobId id, const std::string& partition, const std::string& node,
               std::vector<std::uint32_t> cpus) {
  Job j;
  j.id = id;
  j.partition = partition;
  j.state = JobState::running;
  NodeAlloc a;
  a.node = node;
  a.cpus = static_cast<std::uint32_t>(cpus.size());
  a.cpu_ids = std::move(cpus);
  a.mem_mb = 1024;
  j.alloc = {a};
  return j;
}

}  // namespace

TEST_CASE("a config that keeps every live job's partition and node may replace the running one") {
  Job a = running_on(1, "debug", "n-2", {0, 1});
  Job b;
  b.id = 2;
  b.partition = "gpu";
  b.state = JobState::pending;
  std::vector<const Job*> live = {&a, &b};
  CHECK(sched::reconfigure_problems(cluster(3, 4, true), live).empty());
  // Nodes that nothing runs on may go.
  CHECK(sched::reconfigure_problems(cluster(2, 4, true), live).empty());
}

TEST_CASE("removing a busy node, a used partition or shrinking a busy node is refused") {
  Job a = running_on(1, "debug", "n-2", {2, 3});
  Job b;
  b.id = 2;
  b.partition = "gpu";
  b.state = JobState::pending;
  std::vector<const Job*> live = {&a, &b};

  auto gone_node = sched::reconfigure_problems(cluster(1, 4, true), live);
  REQUIRE(gone_node.size() == 1);
  CHECK(gone_node[0] == "node n-2 cannot be removed: job 1 runs on it");

  auto gone_partition = sched::reconfigure_problems(cluster(2, 4, false), live);
  REQUIRE(gone_partition.size() == 1);
  CHECK(gone_partition[0] == "partition gpu cannot be removed: job 2 is pending in it");

  auto smaller = sched::reconfigure_problems(cluster(2, 2, true), live);
  REQUIRE(smaller.size() == 1);
  CHECK(smaller[0] == "node n-2 cannot shrink below what job 1 holds of it");
}
