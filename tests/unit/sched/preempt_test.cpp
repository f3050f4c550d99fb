// Preemption's rules and victim choice, with plain jobs and a fixed clock.

#include "sched/preempt.hpp"

#include <catch2/catch.hpp>

using namespace stint;

namespace {

Config tiers() {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.count = 1;
  pool.cpus = 4;
  pool.memory_mb = 4096;
  c.node_pools.push_back(pool);
  PartitionConfig low;
  low.id = "low";
  low.node_pool_ids = {"n"};
  low.priority_tier = 1;
  PartitionConfig high = low;
  high.id = "high";
  high.priority_tier = 2;
  PartitionConfig same = low;
  same.id = "same";
  c.partitions = {low, high, same};
  c.set_conf("PreemptType", "preempt/partition_prio");
  c.set_conf("PreemptMode", "REQUEUE");
  return c;
}

Job job(JobId id, const Config& c, const std::string& partition, std::uint32_t cpus,
        std::uint32_t priority = 1) {
  Job j;
  j.id = id;
  j.partition = partition;
  j.spec.cpus_per_task = cpus;
  j.spec.mem_per_node_mb = 100;
  j.priority = priority;
  j.time_limit = 600;
  j.requeue = true;
  j.req = sched::make_request(j.spec, c.nodes(), c);
  return j;
}

Job running(JobId id, const Config& c, sched::Cluster& cl, const std::string& partition,
            std::uint32_t cpus, Seconds start, std::uint32_t priority = 1) {
  Job j = job(id, c, partition, cpus, priority);
  j.state = JobState::running;
  j.start_time = start;
  j.alloc = *sched::fit(j.req, cl, {"n-1"});
  for (const auto& a : j.alloc) cl.find(a.node)->take(a);
  return j;
}

}  // namespace

TEST_CASE("partition_prio: only a strictly higher tier preempts, in the victim's mode",
          "[preempt]") {
  Config c = tiers();
  auto rules = sched::preempt_rules(c, Accounting{});
  REQUIRE(rules.enabled());
  Job low = job(1, c, "low", 1), high = job(2, c, "high", 1), same = job(3, c, "same", 1);
  auto p = sched::preemption_of(rules, high, low);
  REQUIRE(p);
  CHECK(p->mode == sched::PreemptMode::requeue);
  CHECK(p->victim == 1);
  CHECK(p->preemptor == 2);
  CHECK_FALSE(sched::preemption_of(rules, same, low));  // equal tiers
  CHECK_FALSE(sched::preemption_of(rules, low, high));
  // A job that may not be requeued is cancelled instead.
  low.requeue = false;
  CHECK(sched::preemption_of(rules, high, low)->mode == sched::PreemptMode::cancel);
  // The partition's own mode and grace time win over the cluster's; OFF protects.
  c.partitions[0].preempt_mode = "SUSPEND";
  c.partitions[0].grace_time = 30;
  rules = sched::preempt_rules(c, Accounting{});
  CHECK(sched::preemption_of(rules, high, low)->mode == sched::PreemptMode::suspend);
  CHECK(sched::preemption_of(rules, high, low)->grace_time == 30);
  c.partitions[0].preempt_mode = "OFF";
  rules = sched::preempt_rules(c, Accounting{});
  CHECK_FALSE(sched::preemption_of(rules, high, low));
}

TEST_CASE("qos: the preemptor's QOS must list the victim's", "[preempt]") {
  Config c = tiers();
  c.set_conf("PreemptType", "preempt/qos");
  c.set_conf("PreemptMode", "CANCEL");
  Accounting a;
  Qos urgent;
  urgent.name = "urgent";
  urgent.preempt = {"scavenger"};
  Qos scavenger;
  scavenger.name = "scavenger";
  scavenger.preempt_mode = "requeue";
  scavenger.preempt_exempt_time = 120;
  a.qos = {urgent, scavenger};
  auto rules = sched::preempt_rules(c, a);
  Job victim = job(1, c, "low", 1), boss = job(2, c, "low", 1), other = job(3, c, "low", 1);
  victim.qos = "scavenger";
  boss.qos = "urgent";
  other.qos = "normal";
  REQUIRE(sched::preemption_of(rules, boss, victim));
  CHECK(sched::preemption_of(rules, boss, victim)->mode == sched::PreemptMode::requeue);
  CHECK_FALSE(sched::preemption_of(rules, boss, other));
  CHECK_FALSE(sched::preemption_of(rules, other, victim));
  // PreemptExemptTime: the QOS's, else the cluster's.
  victim.start_time = 1000;
  other.start_time = 1000;
  CHECK(sched::preemptable_from(rules, victim) == 1120);
  c.set_conf("PreemptExemptTime", "00:00:05");
  rules = sched::preempt_rules(c, a);
  CHECK(sched::preemptable_from(rules, other) == 1005);
}

TEST_CASE("victims: the fewest, lowest priority, most recently started", "[preempt]") {
  Config c = tiers();
  sched::Cluster cl(c.nodes());
  Job old_low = running(1, c, cl, "low", 1, 100, 10);
  Job new_low = running(2, c, cl, "low", 1, 200, 10);
  Job higher = running(3, c, cl, "low", 1, 300, 50);
  Job big = running(4, c, cl, "low", 1, 50, 20);
  // The node is full. One CPU needed: the most recent of the lowest.
  Job one = job(10, c, "high", 1);
  auto v = sched::choose_victims(one.req, {"n-1"}, cl, {&old_low, &new_low, &higher, &big});
  REQUIRE(v);
  REQUIRE(v->size() == 1);
  CHECK((*v)[0]->id == 2);
  // Two CPUs: the two lowest.
  Job two = job(11, c, "high", 2);
  v = sched::choose_victims(two.req, {"n-1"}, cl, {&old_low, &new_low, &higher, &big});
  REQUIRE(v);
  REQUIRE(v->size() == 2);
  CHECK(((*v)[0]->id + (*v)[1]->id) == 3);
  // More than all candidates free: none.
  Job five = job(12, c, "high", 4);
  CHECK_FALSE(sched::choose_victims(five.req, {"n-1"}, cl, {&old_low, &new_low}));
}

TEST_CASE("victims not needed are put back", "[preempt]") {
  Config c = tiers();
  sched::Cluster cl(c.nodes());
  Job small = running(1, c, cl, "low", 1, 100, 1);  // lowest, but too small alone
  Job large = running(2, c, cl, "low", 3, 100, 5);
  Job three = job(10, c, "high", 3);
  auto v = sched::choose_victims(three.req, {"n-1"}, cl, {&small, &large});
  REQUIRE(v);
  REQUIRE(v->size() == 1);
  CHECK((*v)[0]->id == 2);
}

TEST_CASE("the pass preempts only when the job cannot start otherwise, and respects exempt time",
          "[preempt]") {
  Config c = tiers();
  c.set_conf("PreemptExemptTime", "00:00:05");
  auto rules = sched::preempt_rules(c, Accounting{});
  sched::Cluster scratch(c.nodes());
  Job low = running(1, c, scratch, "low", 2, 100);
  sched::Cluster cl(c.nodes());
  cl.take_jobs({&low});
  Job fits = job(2, c, "high", 2);
  sched::PassContext ctx;
  ctx.preempt = &rules;
  auto d = sched::schedule({&fits}, cl, c, 200, ctx);
  CHECK(d.preemptions.empty());
  REQUIRE(d.starts.size() == 1);
  // Now the node is full: the next high job needs the low job's CPUs.
  sched::Cluster full(c.nodes());
  full.take_jobs({&low});
  Job big = job(3, c, "high", 4);
  d = sched::schedule({&big}, full, c, 103, ctx);  // low has run 3 s of its 5 exempt
  CHECK(d.preemptions.empty());
  CHECK(d.reasons.at(3) == Reason::resources);
  d = sched::schedule({&big}, full, c, 105, ctx);
  REQUIRE(d.preemptions.size() == 1);
  CHECK(d.preemptions[0].victim == 1);
  CHECK(d.preemptions[0].mode == sched::PreemptMode::requeue);
  CHECK(d.starts.empty());
  // A job already being preempted is waited for, not preempted again.
  ctx.preempting = {1};
  d = sched::schedule({&big}, full, c, 106, ctx);
  CHECK(d.preemptions.empty());
  CHECK(d.reasons.at(3) == Reason::resources);
}
