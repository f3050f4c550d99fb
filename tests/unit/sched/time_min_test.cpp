// --time-min in the backfill pass: a job whose limit does not fit the hole
// before a reservation starts anyway with a shorter limit, down to its
// minimum, as Slurm's backfill does (_reset_job_time_limit).

#include <catch2/catch.hpp>

#include "sched/plan.hpp"
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

Job job(JobId id, const Config& c, std::uint32_t nodes, std::uint32_t cpus_per_node,
        Seconds time_limit, std::uint32_t priority) {
  Job j;
  j.id = id;
  j.spec.nodes = nodes;
  j.spec.ntasks = nodes;
  j.spec.cpus_per_task = cpus_per_node;
  j.spec.mem_per_node_mb = 100;
  j.partition = "debug";
  j.time_limit = time_limit;
  j.submit_time = 0;
  j.priority = priority;
  j.req = sched::make_request(j.spec, c.partition_nodes(c.partitions[0]), c);
  return j;
}

Job running(JobId id, const Config& c, sched::Cluster& on, std::uint32_t cpus, Seconds start,
            Seconds limit, const std::vector<std::string>& nodes) {
  Job j = job(id, c, 1, cpus, limit, 1);
  j.state = JobState::running;
  j.start_time = start;
  j.alloc = *sched::fit(j.req, on, nodes);
  for (const auto& a : j.alloc) on.find(a.node)->take(a);
  return j;
}

// n-1 busy until 600, two CPUs of n-2 until 300; a wide job (both nodes
// whole) is reserved from 600.
struct Scene {
  Config c = two_nodes();
  sched::Cluster scratch{c.nodes()};
  Job r1 = running(1, c, scratch, 4, 1, 599, {"n-1"});
  Job r2 = running(2, c, scratch, 2, 1, 299, {"n-2"});
  sched::Cluster cl{c.nodes()};
  Job wide = job(3, c, 2, 4, 1000, 100);
  Scene() { cl.take_jobs({&r1, &r2}); }
};

}  // namespace

TEST_CASE("time-min: a job too long for the hole starts with the hole's whole minutes",
          "[backfill][time_min]") {
  Scene s;
  Job j = job(5, s.c, 1, 2, 3600, 40);
  j.spec.options_to_set().time_min = 300;
  auto d = sched::schedule({&s.wide, &j}, s.cl, s.c, 100);
  REQUIRE(d.starts.size() == 1);
  CHECK(d.starts[0].first == 5);
  CHECK(d.starts[0].second[0].node == "n-2");
  // From 100 to the wide job's 600: 500 s, 8 whole minutes.
  CHECK(d.time_limits.at(5) == 480);
  // The wide job keeps its place.
  CHECK(d.planned_starts.at(3).start == 600);
}

TEST_CASE("time-min: without it, the same job waits behind the reservation",
          "[backfill][time_min]") {
  Scene s;
  Job j = job(5, s.c, 1, 2, 3600, 40);
  auto d = sched::schedule({&s.wide, &j}, s.cl, s.c, 100);
  CHECK(d.starts.empty());
  CHECK(d.time_limits.empty());
  CHECK(d.reasons.at(5) == Reason::priority);
}

TEST_CASE("time-min: a minimum longer than the hole does not start; it is reserved by it",
          "[backfill][time_min]") {
  Scene s;
  Job j = job(5, s.c, 1, 2, 3600, 40);
  j.spec.options_to_set().time_min = 600;  // 100 + 600 > 600
  auto d = sched::schedule({&s.wide, &j}, s.cl, s.c, 100);
  CHECK(d.starts.empty());
  CHECK(d.reasons.at(5) == Reason::priority);
  // After the wide job (600 + 1000): room for its minimum from then.
  CHECK(d.planned_starts.at(5).start == 1620);
}

TEST_CASE("time-min: a job that fits whole keeps its own limit", "[backfill][time_min]") {
  Scene s;
  Job j = job(5, s.c, 1, 2, 3600, 40);
  j.spec.options_to_set().time_min = 60;
  auto d = sched::schedule({&j}, s.cl, s.c, 100);
  REQUIRE(d.starts.size() == 1);
  CHECK(d.time_limits.empty());
}

TEST_CASE("time-min: an unlimited job is given the hole", "[backfill][time_min]") {
  Scene s;
  Job j = job(5, s.c, 1, 2, k_infinite, 40);
  j.spec.options_to_set().time_min = 120;
  auto d = sched::schedule({&s.wide, &j}, s.cl, s.c, 100);
  REQUIRE(d.starts.size() == 1);
  CHECK(d.time_limits.at(5) == 480);
}

TEST_CASE("time-min: the hole's length and the limit it gives", "[time_min]") {
  CHECK(sched::time_min_limit(500, 300, 3600) == 480);
  CHECK(sched::time_min_limit(310, 300, 3600) == 300);  // never below the minimum
  CHECK(sched::time_min_limit(4000, 300, 3600) == 3600);
  Job j;
  CHECK(sched::least_duration(j, 3600) == 3600);
  j.spec.options_to_set().time_min = 600;
  CHECK(sched::least_duration(j, 3600) == 600);
  CHECK(sched::least_duration(j, 300) == 300);
}
