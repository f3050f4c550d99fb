// What node and partition states mean to a pass: a node that is not
// available takes no job; a DRAIN partition still runs what it has queued,
// a DOWN or INACTIVE one does not.

#include <catch2/catch.hpp>

#include "sched/sched.hpp"

using namespace stint;

namespace {

Config two_nodes() {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.count = 2;
  pool.cpus = 4;
  pool.memory_mb = 4096;
  c.node_pools.push_back(pool);
  PartitionConfig p;
  p.id = "debug";
  p.node_pool_ids = {"n"};
  c.partitions.push_back(p);
  return c;
}

Job wants_cpus(JobId id, const Config& c, std::uint32_t cpus) {
  Job j;
  j.id = id;
  j.partition = "debug";
  j.priority = 100;
  j.submit_time = 100;
  j.spec.cpus_per_task = cpus;
  j.req = sched::make_request(j.spec, c.partition_nodes(c.partitions[0]), c);
  return j;
}

}  // namespace

TEST_CASE("a node that is not available takes no job") {
  const Config c = two_nodes();
  Job a = wants_cpus(1, c, 4);
  Job b = wants_cpus(2, c, 4);
  sched::Cluster cluster(c.nodes());
  cluster.find("n-1")->available = false;
  auto d = sched::schedule({&a, &b}, cluster, c, 1000);
  REQUIRE(d.starts.size() == 1);
  CHECK(d.starts[0].second.front().node == "n-2");
  CHECK(d.reasons.at(2) == Reason::resources);
}

TEST_CASE("a DRAIN partition runs its queued jobs; DOWN and INACTIVE ones hold them") {
  Config c = two_nodes();
  Job a = wants_cpus(1, c, 1);
  c.partitions[0].state = PartitionState::drain;
  sched::Cluster drained(c.nodes());
  CHECK(sched::schedule({&a}, drained, c, 1000).starts.size() == 1);
  c.partitions[0].state = PartitionState::down;
  sched::Cluster down(c.nodes());
  CHECK(sched::schedule({&a}, down, c, 1000).reasons.at(1) == Reason::partition_down);
  c.partitions[0].state = PartitionState::inactive;
  sched::Cluster inactive(c.nodes());
  CHECK(sched::schedule({&a}, inactive, c, 1000).reasons.at(1) == Reason::partition_inactive);
}
