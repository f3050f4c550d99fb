// slurmctld's main scheduler's rule for the nodes a job may still get in a
// pass (job_scheduler.c): nodes down or drained, and the nodes of every
// partition whose first job had to wait, are out of its reach; a job whose
// partition has fewer nodes left than it needs waits with Slurm's
// "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher
// priority partitions", and backfill may still start it where it fits.

#include <catch2/catch.hpp>

#include "sched/sched.hpp"

using namespace stint;

namespace {

// Two partitions over the same nodes: "cpu" (tier 1) and "high" (tier 10).
Config tiers(std::uint32_t nodes = 1) {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.count = nodes;
  pool.cpus = 4;
  pool.memory_mb = 4096;
  c.node_pools.push_back(pool);
  for (auto [id, tier] : {std::pair{"cpu", 1U}, std::pair{"high", 10U}}) {
    PartitionConfig p;
    p.id = id;
    p.node_pool_ids = {"n"};
    p.priority_tier = tier;
    c.partitions.push_back(p);
  }
  return c;
}

Job job(JobId id, const Config& c, const std::string& partition, std::uint32_t nodes,
        std::uint32_t cpus_per_node, Seconds time_limit = 3600) {
  Job j;
  j.id = id;
  j.partition = partition;
  j.priority = 100;
  j.submit_time = 100;
  j.time_limit = time_limit;
  j.spec.nodes = nodes;
  j.spec.ntasks = nodes;
  j.spec.cpus_per_task = cpus_per_node;
  j.spec.mem_per_node_mb = 100;
  j.req = sched::make_request(j.spec, c.partition_nodes(*c.find_partition(partition)), c);
  return j;
}

// A job running since `start` on `nodes` of `cluster` (which it does not take).
Job running_on(Job j, const sched::Cluster& cluster, const std::vector<std::string>& nodes,
               Seconds start = 500) {
  j.state = JobState::running;
  j.start_time = start;
  j.alloc = *sched::fit(j.req, cluster, nodes);
  return j;
}

constexpr Seconds k_now = 1000;

}  // namespace

TEST_CASE("a job whose nodes a higher tier waits for has Slurm's description", "[sched]") {
  const Config c = tiers();
  sched::Cluster scratch(c.nodes());
  const Job holder = running_on(job(1, c, "high", 1, 4), scratch, {"n-1"});
  sched::Cluster cluster(c.nodes());
  cluster.take_jobs({&holder});
  Job waiting_high = job(2, c, "high", 1, 4);
  Job low = job(3, c, "cpu", 1, 1);

  SECTION("with a higher-tier job waiting for the node") {
    auto d = sched::schedule({&low, &waiting_high}, cluster, c, k_now);
    CHECK(d.starts.empty());
    CHECK(d.reasons.at(2) == Reason::resources);
    CHECK(d.reasons.at(3) == Reason::req_node_not_avail);
  }
  SECTION("with none, the node is only busy") {
    auto d = sched::schedule({&low}, cluster, c, k_now);
    CHECK(d.reasons.at(3) == Reason::resources);
  }
  SECTION("the jobs behind it in its partition wait for their turn") {
    Job low2 = job(4, c, "cpu", 1, 1);
    low2.submit_time = 200;
    auto d = sched::schedule({&low, &low2, &waiting_high}, cluster, c, k_now);
    CHECK(d.reasons.at(3) == Reason::req_node_not_avail);
    CHECK(d.reasons.at(4) == Reason::priority);
  }
}

TEST_CASE("a drained node leaves its partition short of nodes", "[sched]") {
  const Config c = tiers(2);
  Job one = job(1, c, "cpu", 1, 1);
  Job two = job(2, c, "cpu", 2, 1);

  SECTION("enough nodes left: a job that fits starts") {
    sched::Cluster cluster(c.nodes());
    cluster.find("n-1")->available = false;
    auto d = sched::schedule({&one}, cluster, c, k_now);
    REQUIRE(d.starts.size() == 1);
    CHECK(d.starts[0].second.front().node == "n-2");
  }
  SECTION("fewer nodes left than it needs") {
    sched::Cluster cluster(c.nodes());
    cluster.find("n-1")->available = false;
    auto d = sched::schedule({&two}, cluster, c, k_now);
    CHECK(d.starts.empty());
    CHECK(d.reasons.at(2) == Reason::req_node_not_avail);
  }
}

TEST_CASE("backfill still starts a job short of nodes where it delays no one", "[sched]") {
  // high is n-1 alone; cpu is n-1 and n-2. A high job holds one CPU of n-1
  // for an hour and another waits for all of n-1: the main scheduler leaves
  // n-1 out for the cpu job, which needs two nodes; one that ends before the
  // reservation still fits beside them.
  Config c = tiers(2);
  c.partitions[1].nodes = {"n-1"};
  sched::Cluster scratch(c.nodes());
  const Job holder = running_on(job(1, c, "high", 1, 1), scratch, {"n-1"});
  sched::Cluster cluster(c.nodes());
  cluster.take_jobs({&holder});
  Job waiting_high = job(2, c, "high", 1, 4);
  Job short_wide = job(3, c, "cpu", 2, 1, 600);
  Job long_wide = job(4, c, "cpu", 2, 1, 7200);
  long_wide.submit_time = 200;

  auto d = sched::schedule({&short_wide, &long_wide, &waiting_high}, cluster, c, k_now);
  REQUIRE(d.starts.size() == 1);
  CHECK(d.starts[0].first == 3);
  CHECK(d.reasons.at(2) == Reason::resources);
  // After a backfill start the partition still counts as waiting.
  CHECK(d.reasons.at(4) == Reason::priority);
}
