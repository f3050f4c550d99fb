// The backfill plan and the pass on a fixed clock: a wide job's start is
// reserved behind running jobs; a narrow job starts early only where it
// cannot delay it.

#include <set>

#include <catch2/catch.hpp>

#include "sched/plan.hpp"
#include "sched/sched.hpp"

using namespace stint;

namespace {

Config cluster(std::uint32_t nodes = 2, std::uint32_t cpus = 4) {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.count = nodes;
  pool.cpus = cpus;
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

// A job already running since `start`, placed by the scheduler's own fit.
Job running(JobId id, const Config& c, sched::Cluster& on, std::uint32_t cpus, Seconds start,
            Seconds limit, const std::vector<std::string>& nodes) {
  Job j = job(id, c, 1, cpus, limit, 1);
  j.state = JobState::running;
  j.start_time = start;
  j.alloc = *sched::fit(j.req, on, nodes);
  for (const auto& a : j.alloc) on.find(a.node)->take(a);
  return j;
}

}  // namespace

TEST_CASE("the plan places a job after the running jobs it waits for", "[backfill]") {
  Config c = cluster();
  sched::Cluster scratch(c.nodes());
  Job r1 = running(1, c, scratch, 4, 1, 599, {"n-1"});
  Job r2 = running(2, c, scratch, 2, 1, 299, {"n-2"});
  sched::Cluster cl(c.nodes());
  cl.take_jobs({&r1, &r2});
  sched::Plan plan(cl, 100, 1);
  Job wide = job(3, c, 2, 4, 1000, 10);
  auto place =
      plan.earliest(wide.req, std::vector<std::string>{"n-1", "n-2"}, wide.time_limit, 100 + 86400);
  REQUIRE(place);
  CHECK(place->start == 600);  // both nodes whole: when r1 ends
  CHECK(place->nodes == std::vector<std::string>{"n-1", "n-2"});
  // Two CPUs are free on n-2 now.
  Job narrow = job(4, c, 1, 2, 50, 5);
  auto now = plan.earliest(narrow.req, std::vector<std::string>{"n-1", "n-2"}, 50, 100 + 86400);
  REQUIRE(now);
  CHECK(now->start == 100);
  CHECK(now->nodes == std::vector<std::string>{"n-2"});
  // Nothing later than `latest` is offered.
  CHECK_FALSE(
      plan.earliest(wide.req, std::vector<std::string>{"n-1", "n-2"}, wide.time_limit, 599));
}

TEST_CASE("bf_resolution rounds planned times up", "[backfill]") {
  Config c = cluster(1);
  sched::Cluster scratch(c.nodes());
  Job r1 = running(1, c, scratch, 4, 1, 600, {"n-1"});
  sched::Cluster cl(c.nodes());
  cl.take_jobs({&r1});
  sched::Plan plan(cl, 100, 60);
  Job next = job(2, c, 1, 4, 60, 1);
  auto place = plan.earliest(next.req, std::vector<std::string>{"n-1"}, 60, 100 + 86400);
  REQUIRE(place);
  CHECK(place->start == 660);
}

TEST_CASE(
    "backfill: a short narrow job starts now, a long one that would delay the wide job does not",
    "[backfill]") {
  Config c = cluster();
  sched::Cluster scratch(c.nodes());
  // n-1 is busy until 600; n-2 has two CPUs busy until 300.
  Job r1 = running(1, c, scratch, 4, 1, 599, {"n-1"});
  Job r2 = running(2, c, scratch, 2, 1, 299, {"n-2"});
  sched::Cluster cl(c.nodes());
  cl.take_jobs({&r1, &r2});
  Job wide = job(3, c, 2, 4, 1000, 100);  // needs both nodes: reserved at 600
  Job short_ = job(4, c, 1, 2, 300, 50);  // ends by 400 < 600: may start now
  Job long_ = job(5, c, 1, 2, 3600, 40);  // would run past 600 on n-2: may not
  auto d = sched::schedule({&wide, &short_, &long_}, cl, c, 100);
  REQUIRE(d.starts.size() == 1);
  CHECK(d.starts[0].first == 4);
  CHECK(d.starts[0].second[0].node == "n-2");
  CHECK(d.reasons.at(3) == Reason::resources);
  CHECK(d.reasons.at(5) == Reason::priority);
  CHECK(d.planned_starts.at(3).start == 600);
  // The long job goes after the wide one.
  CHECK(d.planned_starts.at(5).start == 1620);  // 1600, rounded up to bf_resolution (60 s)
}

TEST_CASE("sched/builtin keeps strict order: nothing passes a job that waits", "[backfill]") {
  Config c = cluster();
  c.set_conf("SchedulerType", "sched/builtin");
  sched::Cluster scratch(c.nodes());
  Job r1 = running(1, c, scratch, 4, 1, 599, {"n-1"});
  Job r2 = running(2, c, scratch, 2, 1, 299, {"n-2"});
  sched::Cluster cl(c.nodes());
  cl.take_jobs({&r1, &r2});
  Job wide = job(3, c, 2, 4, 1000, 100);
  Job short_ = job(4, c, 1, 2, 300, 50);
  auto d = sched::schedule({&wide, &short_}, cl, c, 100);
  CHECK(d.starts.empty());
  CHECK(d.reasons.at(4) == Reason::priority);
  CHECK(d.planned_starts.empty());
}

TEST_CASE("bf_window and bf_max_job_test bound the plan", "[backfill]") {
  Config c = cluster(1);
  c.set_conf("SchedulerParameters", "bf_window=5,bf_max_job_test=1");
  auto o = sched::pass_options(c);
  CHECK(o.window == 300);
  CHECK(o.max_job_test == 1);
  CHECK(o.backfill);
  sched::Cluster scratch(c.nodes());
  Job r1 = running(1, c, scratch, 4, 1, 999, {"n-1"});
  sched::Cluster cl(c.nodes());
  cl.take_jobs({&r1});
  Job a = job(2, c, 1, 4, 100, 10);
  auto d = sched::schedule({&a}, cl, c, 100);
  // Its start (1000) is beyond the 5-minute window: no reservation.
  CHECK(d.planned_starts.empty());
  c.set_conf("SchedulerParameters", "bf_window=60,bf_max_job_test=1");
  Job b = job(3, c, 1, 4, 100, 5);
  d = sched::schedule({&a, &b}, cl, c, 100);
  CHECK(d.planned_starts.at(2).start == 1020);  // rounded up to 60 s
  CHECK_FALSE(d.planned_starts.count(3));       // past bf_max_job_test
}

TEST_CASE("a job without a time limit is planned to run for ever", "[backfill]") {
  Config c = cluster(1);
  sched::Cluster cl(c.nodes());
  Job forever = job(1, c, 1, 2, k_infinite, 10);
  Job later_wide = job(2, c, 1, 4, 100, 5);
  Job small = job(3, c, 1, 2, 100, 1);
  auto d = sched::schedule({&forever, &later_wide, &small}, cl, c, 100);
  REQUIRE(d.starts.size() == 2);
  CHECK(d.starts[0].first == 1);
  CHECK(d.starts[1].first == 3);
  CHECK_FALSE(d.planned_starts.count(2));
}

TEST_CASE("a deep queue is taken in order until no partition can start a job", "[backfill]") {
  // The pass draws the queue from a heap and stops ordering once every
  // partition with jobs left has one waiting: a job of a partition that does
  // not wait, however low, must still be reached in order and start.
  Config c = cluster(1);
  NodePool side_pool = c.node_pools[0];
  side_pool.id = "s";
  c.node_pools.push_back(side_pool);
  PartitionConfig side;
  side.id = "side";
  side.node_pool_ids = {"s"};
  c.partitions.push_back(side);
  for (const char* type : {"sched/builtin", "sched/backfill"}) {
    c.set_conf("SchedulerType", type);
    c.set_conf("SchedulerParameters", "bf_max_job_test=2");
    sched::Cluster scratch(c.nodes());
    Job r1 = running(1, c, scratch, 4, 1, 599, {"n-1"});
    sched::Cluster cl(c.nodes());
    cl.take_jobs({&r1});
    std::vector<Job> jobs;
    for (JobId id = 10; id < 60; ++id) jobs.push_back(job(id, c, 1, 4, 100, 1000 - id));
    jobs[7].hold_reason = Reason::job_held_user;
    Job low = job(99, c, 1, 4, 100, 1);  // the lowest priority of all
    low.partition = "side";
    low.req = sched::make_request(low.spec, c.partition_nodes(c.partitions[1]), c);
    jobs.push_back(low);
    std::vector<const Job*> pending;
    // Out of priority order: every 7th (7 is prime to 51).
    for (std::size_t i = 0; i < jobs.size(); ++i) pending.push_back(&jobs[(i * 7) % jobs.size()]);
    REQUIRE(std::set<const Job*>(pending.begin(), pending.end()).size() == jobs.size());
    auto d = sched::schedule(pending, cl, c, 100);
    INFO(type);
    REQUIRE(d.starts.size() == 1);
    CHECK(d.starts[0].first == 99);
    CHECK(d.reasons.at(10) == Reason::resources);  // the highest waits for r1
    CHECK(d.reasons.at(17) == Reason::job_held_user);
    for (JobId id = 11; id < 60; ++id) {
      if (id != 17) CHECK(d.reasons.at(id) == Reason::priority);
    }
  }
}
