// Advance reservations in the scheduler on a fixed clock: who may use one,
// where and when a job in one runs, what the others keep from the jobs
// outside them, and the checks of a new reservation (slurmctld's rules).

#include "sched/reservation.hpp"

#include <catch2/catch.hpp>

#include "sched/sched.hpp"

using namespace stint;

namespace {

constexpr Seconds k_now = 1'800'000'000;

Config cluster(std::uint32_t nodes = 3, std::uint32_t cpus = 4) {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.count = nodes;
  pool.cpus = cpus;
  pool.memory_mb = 4096;
  pool.features = {"fast"};
  c.node_pools.push_back(pool);
  PartitionConfig p;
  p.id = "debug";
  p.node_pool_ids = {"n"};
  c.partitions.push_back(p);
  return c;
}

Job job(JobId id, const Config& c, std::uint32_t cpus, Seconds time_limit,
        const std::string& reservation = "", const std::string& user = "alice") {
  Job j;
  j.id = id;
  j.spec.nodes = 1;
  j.spec.ntasks = 1;
  j.spec.cpus_per_task = cpus;
  j.spec.mem_per_node_mb = 100;
  if (!reservation.empty()) j.spec.options_to_set().reservation = reservation;
  j.partition = "debug";
  j.account = "lab";
  j.user_name = user;
  j.user_id = 1000;
  j.time_limit = time_limit;
  j.submit_time = 0;
  j.priority = 100 - id;
  j.req = sched::make_request(j.spec, c.partition_nodes(c.partitions[0]), c);
  return j;
}

Reservation resv(const std::string& name, std::vector<std::string> nodes, Seconds start,
                 Seconds end, const std::string& users = "alice") {
  Reservation r;
  r.name = name;
  r.nodes = std::move(nodes);
  r.start_time = start;
  r.end_time = end;
  r.users = users;
  r.flags.set(ResvFlag::spec_nodes);
  return r;
}

sched::Decision pass(const std::vector<const Job*>& pending, const Config& c,
                     const std::vector<Reservation>& reservations,
                     const std::vector<const Job*>& active = {}) {
  sched::Cluster cl(c.nodes());
  cl.take_jobs(active);
  const sched::ReservationRules rules(reservations, {{"lab", "root"}}, k_now);
  sched::PassContext ctx;
  ctx.reservations = &rules;
  return sched::schedule(pending, cl, c, k_now, std::move(ctx));
}

std::string started_on(const sched::Decision& d, JobId id) {
  for (const auto& [jid, alloc] : d.starts) {
    if (jid == id) return alloc.front().node;
  }
  return "";
}

}  // namespace

TEST_CASE("Users= and Accounts= admit as slurmctld does", "[reservation]") {
  Reservation r = resv("r", {"n-1"}, k_now, k_now + 3600, "alice,bob");
  CHECK(sched::may_use(r, "alice", 1000, {"lab"}));
  CHECK_FALSE(sched::may_use(r, "carol", 1001, {"lab"}));
  // A uid named by number admits that user.
  r.users = "1001";
  CHECK(sched::may_use(r, "carol", 1001, {"lab"}));
  // Everyone but the denied.
  r.users = "-carol";
  CHECK(sched::may_use(r, "alice", 1000, {"lab"}));
  CHECK_FALSE(sched::may_use(r, "carol", 1001, {"lab"}));
  // Accounts only: the job's account or one of its parents.
  r.users.clear();
  r.accounts = "root";
  CHECK(sched::may_use(r, "alice", 1000, {"lab", "root"}));
  r.accounts = "other";
  CHECK_FALSE(sched::may_use(r, "alice", 1000, {"lab", "root"}));
  // Users and accounts: both must admit.
  r.users = "alice";
  CHECK_FALSE(sched::may_use(r, "alice", 1000, {"lab"}));
  r.accounts = "lab";
  CHECK(sched::may_use(r, "alice", 1000, {"lab"}));
  r.accounts = "-lab";
  CHECK_FALSE(sched::may_use(r, "alice", 1000, {"lab"}));
}

TEST_CASE("a job in a reservation runs on its nodes, in its window", "[reservation]") {
  const Config c = cluster();
  const std::vector<Reservation> rs = {resv("maint1", {"n-3"}, k_now - 60, k_now + 3600)};
  Job in = job(1, c, 1, 600, "maint1");
  Job out = job(2, c, 1, 600);
  sched::Decision d = pass({&in, &out}, c, rs);
  CHECK(started_on(d, 1) == "n-3");
  CHECK(started_on(d, 2) == "n-1");

  // Before its window: reason Reservation, nothing started.
  const std::vector<Reservation> later = {resv("r", {"n-3"}, k_now + 600, k_now + 3600)};
  Job early = job(3, c, 1, 600, "r");
  d = pass({&early}, c, later);
  CHECK(d.starts.empty());
  CHECK(d.reasons.at(3) == Reason::reservation);

  // A user it does not admit, or a reservation that is gone: Reservation.
  Job stranger = job(4, c, 1, 600, "maint1", "mallory");
  Job orphan = job(5, c, 1, 600, "gone");
  d = pass({&stranger, &orphan}, c, rs);
  CHECK(d.starts.empty());
  CHECK(d.reasons.at(4) == Reason::reservation);
  CHECK(d.reasons.at(5) == Reason::reservation);
}

TEST_CASE("jobs outside a reservation keep off its nodes until it ends", "[reservation]") {
  const Config c = cluster(1, 4);
  // Starts in 10 minutes: a 5-minute job fits before it, a 20-minute one not.
  const std::vector<Reservation> rs = {resv("r", {"n-1"}, k_now + 600, k_now + 3600)};
  Job shorter = job(1, c, 1, 300);
  sched::Decision d = pass({&shorter}, c, rs);
  CHECK(started_on(d, 1) == "n-1");
  Job longer = job(2, c, 1, 1200);
  d = pass({&longer}, c, rs);
  CHECK(d.starts.empty());
  CHECK(d.reasons.at(2) == Reason::resources);
  // The backfill plan places it after the reservation.
  REQUIRE(d.planned_starts.count(2));
  CHECK(d.planned_starts.at(2).start >= k_now + 3600);
  // A job without a time limit would run into it: it waits too.
  Job endless = job(3, c, 1, k_infinite);
  d = pass({&endless}, c, rs);
  CHECK(d.starts.empty());
}

TEST_CASE("a reservation's jobs wait behind each other, not behind the partition",
          "[reservation]") {
  const Config c = cluster(2, 4);
  const std::vector<Reservation> rs = {resv("r", {"n-2"}, k_now - 60, k_now + 3600)};
  Job first = job(1, c, 4, 600, "r");
  Job second = job(2, c, 4, 600, "r");
  Job outside = job(3, c, 4, 600);
  sched::Decision d = pass({&first, &second, &outside}, c, rs);
  CHECK(started_on(d, 1) == "n-2");
  CHECK(d.reasons.at(2) == Reason::resources);  // the first of its reservation to wait
  CHECK(started_on(d, 3) == "n-1");
}

TEST_CASE("maintenance of a whole partition: ReqNodeNotAvail, Reserved for maintenance",
          "[reservation]") {
  const Config c = cluster(2, 4);
  Reservation m = resv("m", {"n-1", "n-2"}, k_now - 60, k_now + 3600, "root");
  m.flags.set(ResvFlag::maint);
  Job j = job(1, c, 1, 600);
  sched::Decision d = pass({&j}, c, {m});
  CHECK(d.starts.empty());
  CHECK(d.reasons.at(1) == Reason::reserved_for_maintenance);
  // A maintenance of part of it keeps only its nodes.
  m.nodes = {"n-1"};
  d = pass({&j}, c, {m});
  CHECK(started_on(d, 1) == "n-2");
  // Nodes=ALL keeps every node from jobs outside it, maintenance or not.
  Reservation all = resv("all", {"n-1", "n-2"}, k_now - 60, k_now + 3600, "root");
  all.flags.set(ResvFlag::all_nodes);
  d = pass({&j}, c, {all});
  CHECK(d.reasons.at(1) == Reason::reserved_for_maintenance);
}

TEST_CASE("FLEX lets a reservation's jobs start early and use other nodes", "[reservation]") {
  const Config c = cluster(2, 4);
  Reservation r = resv("r", {"n-2"}, k_now + 600, k_now + 3600);
  r.flags.set(ResvFlag::flex);
  Job j = job(1, c, 1, 300, "r");
  sched::Decision d = pass({&j}, c, {r});
  CHECK(started_on(d, 1) == "n-1");
}

TEST_CASE("an OVERLAP reservation's jobs may use another reservation's nodes", "[reservation]") {
  const Config c = cluster(1, 4);
  Reservation a = resv("a", {"n-1"}, k_now - 60, k_now + 3600);
  Reservation b = resv("b", {"n-1"}, k_now - 60, k_now + 3600);
  Job in_b = job(1, c, 1, 300, "b");
  sched::Decision d = pass({&in_b}, c, {a, b});
  CHECK(d.starts.empty());  // a keeps n-1 from b's jobs
  b.flags.set(ResvFlag::overlap);
  d = pass({&in_b}, c, {a, b});
  CHECK(started_on(d, 1) == "n-1");
}

TEST_CASE("sched/builtin honours reservations without a plan", "[reservation]") {
  Config c = cluster(2, 4);
  c.slurm_conf["SchedulerType"] = "sched/builtin";
  const std::vector<Reservation> rs = {resv("r", {"n-1"}, k_now + 60, k_now + 3600)};
  Job outside = job(1, c, 1, 600);
  Job inside = job(2, c, 1, 600, "r");
  sched::Decision d = pass({&outside, &inside}, c, rs);
  CHECK(started_on(d, 1) == "n-2");
  CHECK(d.reasons.at(2) == Reason::reservation);
}

TEST_CASE("a new reservation may not take nodes busy at its start or reserved then",
          "[reservation]") {
  const Config c = cluster(2, 4);
  Job busy = job(1, c, 1, 600);
  busy.state = JobState::running;
  busy.start_time = k_now - 60;
  NodeAlloc a;
  a.node = "n-1";
  a.cpus = 1;
  a.cpu_ids = {0};
  busy.alloc = {a};
  Reservation r = resv("r", {"n-1"}, k_now, k_now + 3600);
  auto e = sched::reservation_conflict(r, {}, {&busy});
  REQUIRE(e);
  CHECK(e->code() == Errc::nodes_busy);
  // Once the job will have ended (by its time limit), it may start.
  r.start_time = k_now + 600;
  CHECK_FALSE(sched::reservation_conflict(r, {}, {&busy}));
  // IGNORE_JOBS makes it regardless.
  r.start_time = k_now;
  r.flags.set(ResvFlag::ignore_jobs);
  CHECK_FALSE(sched::reservation_conflict(r, {}, {&busy}));

  // Another reservation on the node at the same time: overlap, unless
  // either may share (MAINT, OVERLAP).
  Reservation other = resv("other", {"n-1", "n-2"}, k_now + 1800, k_now + 7200);
  e = sched::reservation_conflict(r, {other}, {});
  REQUIRE(e);
  CHECK(e->code() == Errc::reservation_overlap);
  r.flags.set(ResvFlag::overlap);
  CHECK_FALSE(sched::reservation_conflict(r, {other}, {}));
  // A new reservation meets a daily one's next occurrences (a week ahead).
  Reservation daily = resv("daily", {"n-2"}, k_now - 86400 + 3600, k_now - 86400 + 5400);
  daily.flags.set(ResvFlag::daily);
  CHECK(sched::windows_overlap(other, daily));
  daily.flags = {};
  CHECK_FALSE(sched::windows_overlap(other, daily));
}

TEST_CASE("NodeCnt= picks idle, unreserved nodes with the features", "[reservation]") {
  const Config c = cluster(3, 4);
  Job busy = job(1, c, 1, 600);
  busy.state = JobState::running;
  busy.start_time = k_now;
  NodeAlloc a;
  a.node = "n-1";
  busy.alloc = {a};
  const std::vector<Reservation> others = {resv("o", {"n-2"}, k_now, k_now + 3600)};
  Reservation r = resv("r", {}, k_now, k_now + 3600);
  CHECK(sched::pick_reservation_nodes(r, 1, c.nodes(), {}, others, {&busy}) ==
        std::vector<std::string>{"n-3"});
  try {
    sched::pick_reservation_nodes(r, 2, c.nodes(), {}, others, {&busy});
    FAIL("two nodes are not free");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::nodes_busy);
  }
  try {
    sched::pick_reservation_nodes(r, 4, c.nodes(), {}, {}, {});
    FAIL("the partition has three nodes");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::node_config_unavailable);
  }
  r.features = "slow";
  try {
    sched::pick_reservation_nodes(r, 1, c.nodes(), {}, {}, {});
    FAIL("no node is slow");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_feature);
  }
  r.features = "fast";
  CHECK(sched::pick_reservation_nodes(r, 1, c.nodes(), {"n-1"}, {}, {}) ==
        std::vector<std::string>{"n-2"});
}

TEST_CASE("repeating reservations move on by a day, a week, or to the next weekday",
          "[reservation]") {
  Reservation r = resv("r", {"n-1"}, k_now, k_now + 3600);
  CHECK_FALSE(sched::next_occurrence(r, k_now + 3600));
  r.flags.set(ResvFlag::daily);
  auto next = sched::next_occurrence(r, k_now + 3600);
  REQUIRE(next);
  // A calendar day later (23 to 25 hours across a change of summer time).
  CHECK(next->start_time - r.start_time >= 23 * 3600);
  CHECK(next->start_time - r.start_time <= 25 * 3600);
  CHECK(next->end_time - next->start_time == 3600);
  r.flags = {};
  r.flags.set(ResvFlag::weekly);
  next = sched::next_occurrence(r, k_now + 3600);
  REQUIRE(next);
  CHECK(next->start_time - r.start_time >= 7 * 86400 - 3600);
  CHECK(next->start_time - r.start_time <= 7 * 86400 + 3600);
  r.flags = {};
  r.flags.set(ResvFlag::hourly);
  next = sched::next_occurrence(r, k_now + 3600);
  REQUIRE(next);
  CHECK(next->start_time == r.start_time + 3600);
}
