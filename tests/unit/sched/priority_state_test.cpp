// stintd's priority bookkeeping over a fixed clock: when priorities are
// computed, what fair share sees of ended jobs, holds and dependencies, and
// priorities set by hand.

#include "sched/priority_state.hpp"

#include <catch2/catch.hpp>

#include "sched/sched.hpp"

using namespace stint;
using namespace stint::sched;

namespace {

Config config() {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.cpus = 2;
  c.node_pools.push_back(pool);
  PartitionConfig p;
  p.id = "cpu";
  p.node_pool_ids = {"n"};
  c.partitions.push_back(p);
  c.set_conf("PriorityWeightAge", "604800");  // a point a second
  c.set_conf("PriorityWeightFairshare", "100000");
  c.set_conf("PriorityDecayHalfLife", "0");
  return c;
}

Job pending(JobId id, std::string user, Seconds submit) {
  Job j;
  j.id = id;
  j.user_name = user;
  j.account = user;
  j.partition = "cpu";
  j.submit_time = j.eligible_time = submit;
  j.req.cpus_per_task = j.req.cpus_per_node = 1;
  j.priority = job_priority(j);
  return j;
}

std::set<JobId> all_eligible(const std::map<JobId, Job>& live) {
  std::set<JobId> out;
  for (const auto& [id, j] : live) out.insert(id);
  return out;
}

// One pass as daemon/schedule.cpp runs it, with `ended` as the store's answer.
std::vector<JobId> pass(PriorityState& s, std::map<JobId, Job>& live, const Config& c, Seconds now,
                        std::vector<UsageRecord> ended = {},
                        std::optional<std::set<JobId>> eligible = std::nullopt) {
  if (!s.loaded()) s.load({}, {}, k_no_time);
  auto stopped = s.stopped_running(live);
  if (!stopped.empty()) s.add_ended(stopped, std::move(ended));
  bool due = s.due(live, c, Accounting{}, now, !stopped.empty());
  if (due) s.recompute(live, c, Accounting{}, now);
  return s.assign(live, eligible.value_or(all_eligible(live)), now, due);
}

}  // namespace

TEST_CASE("priorities are computed every PriorityCalcPeriod, new jobs at once", "[priority]") {
  Config c = config();
  PriorityState s;
  std::map<JobId, Job> live;
  live[1] = pending(1, "alice", 1000);
  CHECK(pass(s, live, c, 1100) == std::vector<JobId>{1});
  // Fair share 1 (nobody used anything) + 100 s of age.
  CHECK(live[1].priority == 100000 + 100);
  CHECK(s.calc_time() == 1100);
  // 60 s later: no calculation is due; a new job gets one from the same snapshot.
  live[2] = pending(2, "alice", 1150);
  CHECK(pass(s, live, c, 1160) == std::vector<JobId>{2});
  CHECK(live[1].priority == 100100);
  CHECK(live[2].priority == 100000);
  CHECK(s.calc_time() == 1100);
  // Five minutes after the last one: both age.
  CHECK(pass(s, live, c, 1400).size() == 2);
  CHECK(live[1].priority == 100400);
  CHECK(live[2].priority == 100250);
  CHECK(pass(s, live, c, 1401).empty());
}

TEST_CASE("a job that ends changes fair share at once", "[priority]") {
  Config c = config();
  PriorityState s;
  std::map<JobId, Job> live;
  Job run = pending(1, "alice", 1000);
  run.state = JobState::running;
  run.start_time = 1000;
  NodeAlloc a;
  a.cpus = 1;
  run.alloc.push_back(a);
  live[1] = run;
  live[2] = pending(2, "alice", 1000);
  live[3] = pending(3, "bob", 1000);
  pass(s, live, c, 1000);
  // Both users at the top while alice's job has used nothing yet.
  CHECK(live[2].priority == live[3].priority);
  // alice's job ends after 50 s: her usage counts, bob's job goes first.
  live.erase(1);
  UsageRecord ended = running_record(run);
  ended.end = 1050;
  pass(s, live, c, 1050, {ended});
  CHECK(s.calc_time() == 1050);
  CHECK(live[3].priority > live[2].priority);
  CHECK(live[3].priority == 100000 + 50);  // first of two users, 50 s of age
  CHECK(live[2].priority == 50000 + 50);   // second of two
}

TEST_CASE("no age while held or waiting on a dependency; it starts when they end", "[priority]") {
  Config c = config();
  PriorityState s;
  std::map<JobId, Job> live;
  live[1] = pending(1, "alice", 1000);
  live[1].hold_reason = Reason::job_held_user;
  live[1].priority = 0;
  live[2] = pending(2, "alice", 1000);  // waits on a dependency
  pass(s, live, c, 1000, {}, std::set<JobId>{1});
  CHECK(live[1].priority == 0);
  pass(s, live, c, 1400, {}, std::set<JobId>{1});
  CHECK(live[2].priority == 100000);  // no age while waiting
  // Released and the dependency met at 1500: eligible (accrue) time 1500.
  live[1].hold_reason = Reason::none;
  live[1].priority = job_priority(live[1]);
  auto changed = pass(s, live, c, 1500);
  CHECK(changed.size() == 2);
  CHECK(live[1].eligible_time == 1500);
  CHECK(live[2].eligible_time == 1500);
  CHECK(pass(s, live, c, 1800).size() == 2);
  CHECK(live[1].priority == 100000 + 300);
  CHECK(live[2].priority == 100000 + 300);
}

TEST_CASE("a priority set by hand is kept", "[priority]") {
  Config c = config();
  PriorityState s;
  std::map<JobId, Job> live;
  live[1] = pending(1, "alice", 1000);
  pass(s, live, c, 1000);
  live[1].spec.fixed_priority = 7;  // scontrol update priority=7
  live[1].priority = 7;
  CHECK(pass(s, live, c, 1400).empty());
  CHECK(live[1].priority == 7);
  // A fresh state (stintd restarted) keeps it too: it is part of the job.
  PriorityState fresh;
  CHECK(pass(fresh, live, c, 1500).empty());
  CHECK(live[1].priority == 7);
  // Its nice changed: the handler sets the placeholder, which is recomputed.
  live[2] = pending(2, "alice", 1000);
  pass(s, live, c, 1401);
  live[2].spec.nice = 10;
  live[2].priority = job_priority(live[2]);
  CHECK(pass(s, live, c, 1402) == std::vector<JobId>{2});
  CHECK(live[2].priority == 100000 + 400 - 10);
}

TEST_CASE("the ended runs the limits over time count follow what is known", "[priority]") {
  PriorityState s;
  UsageRecord a;
  a.job_id = 1;
  a.start = 100;
  a.end = 200;
  UsageRecord running = a;
  running.job_id = 2;
  running.end = k_no_time;
  s.load({a, running}, {}, k_no_time);
  REQUIRE(s.ended_runs().size() == 1);
  CHECK(s.ended_runs()[0].job_id == 1);
  // Job 2 ends, and job 1's run is replaced by what the store now says.
  UsageRecord b = running;
  b.end = 300;
  UsageRecord a2 = a;
  a2.end = 250;
  s.add_ended({1, 2}, {a2, b});
  REQUIRE(s.ended_runs().size() == 2);
  CHECK(s.ended_runs()[0].end == 250);
  CHECK(s.ended_runs()[1].job_id == 2);
}

TEST_CASE("a new job's priority at submission is the one the next pass gives it", "[priority]") {
  Config c = config();
  PriorityState s;
  std::map<JobId, Job> live;
  // Before any calculation there is no snapshot: priority/basic's.
  live[1] = pending(1, "alice", 1000);
  CHECK(s.fresh_priority(live[1]) == job_priority(live[1]));
  pass(s, live, c, 1100);
  // Submitted after the snapshot: what the pass gives it, so a job handled
  // before that pass (scontrol top) compares with the others as they are.
  Job next = pending(2, "alice", 1150);
  const std::uint32_t fresh = s.fresh_priority(next);
  CHECK(fresh == 100000);
  next.priority = fresh;
  live[2] = next;
  pass(s, live, c, 1160);
  CHECK(live[2].priority == fresh);
  // A job that waited since before the snapshot ages up to it.
  Job older = pending(3, "alice", 1050);
  CHECK(s.fresh_priority(older) == 100000 + 50);
}
