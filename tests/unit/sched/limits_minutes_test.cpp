// The limits over time (GrpTRESMins, GrpTRESRunMins, GrpWall, MaxTRESMins):
// usage decayed over a fixed clock, safe and not safe, the hierarchy, and
// sacctmgr's words for them. Every number is worked out in the comments.

#include <catch2/catch.hpp>

#include <stint/error.hpp>

#include "sched/limits.hpp"

using namespace stint;
using sched::LimitTracker;
using sched::Setting;
using sched::UsageClock;
using sched::UsageRecord;

namespace {

// Times in the tests count from here (0 is "no time" to the model).
constexpr Seconds k_t0 = 1'000'000;

Association assoc(std::int64_t id, std::string account, std::string user = "") {
  Association a;
  a.id = id;
  a.account = std::move(account);
  a.user = std::move(user);
  return a;
}

// root ─ lab; alice and bob in lab.
Accounting sample() {
  Accounting d;
  d.accounts = {{"lab", "lab", "uni", "root"}, {"root", "default root account", "root", ""}};
  d.users = {{"alice", "lab", AdminLevel::none}, {"bob", "lab", AdminLevel::none}};
  d.associations = {assoc(1, "root"), assoc(3, "lab"), assoc(4, "lab", "alice"),
                    assoc(6, "lab", "bob")};
  Qos normal;
  normal.id = 1;
  normal.name = "normal";
  d.qos = {normal};
  return d;
}

AssocLimits& limits(Accounting& d, std::string_view account, std::string_view user = "") {
  for (auto& a : d.associations) {
    if (a.account == account && a.user == user) return a.limits;
  }
  FAIL("no association");
  throw 0;
}

// A pending job of `cpus` CPUs and `minutes` of time limit.
Job pending(JobId id, std::string user, std::uint32_t cpus, Seconds minutes) {
  Job j;
  j.id = id;
  j.user_name = std::move(user);
  j.account = "lab";
  j.partition = "debug";
  j.qos = "normal";
  j.state = JobState::pending;
  j.req.cpus_per_node = cpus;
  j.req.mem_per_node_mb = 100;
  j.time_limit = minutes * 60;
  return j;
}

// A job of `cpus` CPUs running since `start` with `minutes` of time limit.
Job running(JobId id, std::string user, std::uint32_t cpus, Seconds start, Seconds minutes) {
  Job j = pending(id, std::move(user), cpus, minutes);
  j.state = JobState::running;
  j.start_time = k_t0 + start;
  NodeAlloc a;
  a.node = "n-1";
  a.cpus = cpus;
  a.mem_mb = 100;
  j.alloc.push_back(a);
  return j;
}

// A run of `cpus` CPUs from `start` to `end` (seconds after k_t0) that has ended.
UsageRecord ended(std::string user, double cpus, Seconds start, Seconds end,
                  std::string qos = "normal") {
  UsageRecord r;
  r.job_id = static_cast<JobId>(start + 1);
  r.user = std::move(user);
  r.account = "lab";
  r.partition = "debug";
  r.qos = std::move(qos);
  r.start = k_t0 + start;
  r.end = k_t0 + end;
  r.tres.cpu = cpus;
  r.tres.mem_mb = 100;
  r.tres.node = 1;
  return r;
}

UsageClock clock_at(Seconds now, bool safe, Seconds half_life = 0, Seconds since = k_no_time) {
  UsageClock c;
  c.now = k_t0 + now;
  c.safe = safe;
  c.half_life = half_life;
  c.since = since == k_no_time ? k_no_time : k_t0 + since;
  return c;
}

std::optional<Reason> blocker(const Accounting& d, const UsageClock& c,
                              const std::vector<UsageRecord>& runs, const std::vector<Job>& live,
                              const Job& job) {
  LimitTracker t(d, 1000);
  t.track_usage(c, runs);
  for (const Job& j : live) t.add(j);
  return t.run_blocker(job);
}

Setting set(std::string key, std::string value) { return Setting{std::move(key), "=", value}; }

}  // namespace

TEST_CASE("GrpTRESMins without safe holds jobs only once the limit is reached", "[limits]") {
  Accounting d = sample();
  limits(d, "lab").grp_tres_mins = {{"cpu", 100}};
  const UsageClock c = clock_at(10000, false);
  // alice ran 2 CPUs for 40 minutes: 80 CPU-minutes of 100 (no decay).
  std::vector<UsageRecord> runs = {ended("alice", 2, 0, 2400)};
  // A job of 1 CPU and 60 minutes would end 40 past the limit: without safe
  // it starts all the same.
  CHECK_FALSE(blocker(d, c, runs, {}, pending(10, "bob", 1, 60)));
  // bob's 20 more CPU-minutes reach it: nothing beneath lab starts.
  runs.push_back(ended("bob", 1, 3000, 4200));
  CHECK(blocker(d, c, runs, {}, pending(10, "alice", 1, 1)) == Reason::assoc_grp_cpu_minutes_limit);
}

TEST_CASE("GrpTRESMins with safe starts a job only if its whole time fits", "[limits]") {
  Accounting d = sample();
  limits(d, "lab").grp_tres_mins = {{"cpu", 100}};
  const UsageClock c = clock_at(10000, true);
  const std::vector<UsageRecord> runs = {ended("alice", 2, 0, 2400)};  // 80 of 100
  // 1 CPU x 20 minutes = 20 fits in the 20 left; 1 x 21 does not.
  CHECK_FALSE(blocker(d, c, runs, {}, pending(10, "bob", 1, 20)));
  CHECK(blocker(d, c, runs, {}, pending(10, "bob", 1, 21)) == Reason::assoc_grp_cpu_minutes_limit);
  // bob's job has run 5 of its 10 minutes on 1 CPU: 5 used (85) and 5 still
  // to come, which leaves 10 for another job.
  const std::vector<Job> live = {running(5, "bob", 1, 10000 - 300, 10)};
  CHECK_FALSE(blocker(d, c, runs, live, pending(10, "alice", 1, 10)));
  CHECK(blocker(d, c, runs, live, pending(10, "alice", 2, 10)) ==
        Reason::assoc_grp_cpu_minutes_limit);
  // Without safe the same job starts: 85 < 100.
  CHECK_FALSE(blocker(d, clock_at(10000, false), runs, live, pending(10, "alice", 2, 10)));
  // A job that asks more than the whole limit never starts under safe.
  CHECK(blocker(d, c, {}, {}, pending(10, "alice", 1, 101)) == Reason::assoc_grp_cpu_minutes_limit);
}

TEST_CASE("GrpTRESMins usage decays with PriorityDecayHalfLife and resets", "[limits]") {
  Accounting d = sample();
  limits(d, "lab").grp_tres_mins = {{"cpu", 30}};
  const Seconds h = 3600;
  // 1 CPU for an hour, from 0 to 3600. At 3600 its usage is the integral of
  // 2^(-(3600-t)/h) over the hour: h/ln 2 x (1 - 1/2) = 2596.98 s = 43.28
  // CPU-minutes, over 30. An hour later every second weighs half as much:
  // 21.64 CPU-minutes, under 30.
  const std::vector<UsageRecord> runs = {ended("alice", 1, 0, 3600)};
  CHECK(blocker(d, clock_at(3600, false, h), runs, {}, pending(10, "bob", 1, 1)) ==
        Reason::assoc_grp_cpu_minutes_limit);
  CHECK_FALSE(blocker(d, clock_at(7200, false, h), runs, {}, pending(10, "bob", 1, 1)));
  // With safe, at 7200: 30 - 21.64 = 8.36 minutes are left for 1 CPU.
  CHECK_FALSE(blocker(d, clock_at(7200, true, h), runs, {}, pending(10, "bob", 1, 8)));
  CHECK(blocker(d, clock_at(7200, true, h), runs, {}, pending(10, "bob", 1, 9)) ==
        Reason::assoc_grp_cpu_minutes_limit);
  // Usage before a reset (PriorityUsageResetPeriod) no longer counts: from
  // 1800 on, 30 CPU-minutes without decay, which reaches the limit; from
  // 1801 on, it does not.
  CHECK(blocker(d, clock_at(3600, false, 0, 1800), runs, {}, pending(10, "bob", 1, 1)) ==
        Reason::assoc_grp_cpu_minutes_limit);
  CHECK_FALSE(blocker(d, clock_at(3600, false, 0, 1801), runs, {}, pending(10, "bob", 1, 1)));
}

TEST_CASE("GrpTRESMins at every level, and a QOS limit replaces them", "[limits]") {
  Accounting d = sample();
  const UsageClock c = clock_at(10000, false);
  const std::vector<UsageRecord> runs = {ended("bob", 1, 0, 3000)};  // 50 CPU-minutes
  // alice's own limit counts only her jobs; lab's counts bob's too.
  limits(d, "lab", "alice").grp_tres_mins = {{"cpu", 50}};
  CHECK_FALSE(blocker(d, c, runs, {}, pending(10, "alice", 1, 1)));
  limits(d, "lab").grp_tres_mins = {{"cpu", 50}};
  CHECK(blocker(d, c, runs, {}, pending(10, "alice", 1, 1)) == Reason::assoc_grp_cpu_minutes_limit);
  // Memory is limited on its own: 100 MiB x 50 minutes = 5000 of 4000.
  limits(d, "lab").grp_tres_mins = {{"mem", 4000}};
  CHECK(blocker(d, c, runs, {}, pending(10, "alice", 1, 1)) == Reason::assoc_grp_mem_minutes);
  // The QOS's cpu limit replaces the associations' cpu limits (and counts
  // the QOS's usage, here the same run).
  limits(d, "lab").grp_tres_mins = {{"cpu", 50}};
  d.qos[0].limits.grp_tres_mins = {{"cpu", 1000}};
  CHECK_FALSE(blocker(d, c, runs, {}, pending(10, "alice", 1, 1)));
  d.qos[0].limits.grp_tres_mins = {{"cpu", 40}};
  CHECK(blocker(d, c, runs, {}, pending(10, "alice", 1, 1)) == Reason::qos_grp_cpu_minutes_limit);
  // UsageFactor 2 doubles what a run in that QOS is charged: 100 of 90.
  d.qos[0].limits.grp_tres_mins = {{"cpu", 90}};
  CHECK_FALSE(blocker(d, c, runs, {}, pending(10, "alice", 1, 1)));
  d.qos[0].usage_factor = 2;
  CHECK(blocker(d, c, runs, {}, pending(10, "alice", 1, 1)) == Reason::qos_grp_cpu_minutes_limit);
}

TEST_CASE("GrpTRESRunMins counts the time left of running jobs and of starts", "[limits]") {
  Accounting d = sample();
  limits(d, "lab").grp_tres_run_mins = {{"cpu", 30}};
  const UsageClock c = clock_at(10000, false);
  // bob's 1 CPU has 20 of its 30 minutes left: 10 more fit, 11 do not.
  const std::vector<Job> live = {running(5, "bob", 1, 10000 - 600, 30)};
  CHECK_FALSE(blocker(d, c, {}, live, pending(10, "alice", 1, 10)));
  CHECK(blocker(d, c, {}, live, pending(10, "alice", 1, 11)) ==
        Reason::assoc_grp_cpu_run_minutes_limit);
  // A start in the same pass counts its whole time limit.
  LimitTracker t(d, 1000);
  t.track_usage(c, {});
  const Job first = pending(10, "alice", 1, 20);
  CHECK_FALSE(t.run_blocker(first));
  t.started(first);
  CHECK(t.run_blocker(pending(11, "bob", 1, 11)) == Reason::assoc_grp_cpu_run_minutes_limit);
  CHECK_FALSE(t.run_blocker(pending(11, "bob", 1, 10)));
}

TEST_CASE("GrpWall counts decayed wall time, and safe counts the job's", "[limits]") {
  Accounting d = sample();
  limits(d, "lab").grp_wall = 3600;
  // 50 minutes of wall time (CPUs do not matter) of the hour.
  const std::vector<UsageRecord> runs = {ended("alice", 4, 0, 3000)};
  CHECK_FALSE(blocker(d, clock_at(9000, false), runs, {}, pending(10, "bob", 1, 20)));
  CHECK_FALSE(blocker(d, clock_at(9000, true), runs, {}, pending(10, "bob", 1, 10)));
  CHECK(blocker(d, clock_at(9000, true), runs, {}, pending(10, "bob", 1, 11)) ==
        Reason::assoc_grp_wall_limit);
  const std::vector<UsageRecord> more = {ended("alice", 4, 0, 3000), ended("bob", 1, 4000, 4600)};
  CHECK(blocker(d, clock_at(9000, false), more, {}, pending(10, "bob", 1, 1)) ==
        Reason::assoc_grp_wall_limit);
  d.qos[0].limits.grp_wall = 7200;
  CHECK_FALSE(blocker(d, clock_at(9000, false), more, {}, pending(10, "bob", 1, 1)));
}

TEST_CASE("MaxTRESMins: the job's TRES x time limit, nearest level first", "[limits]") {
  Accounting d = sample();
  limits(d, "lab").max_tres_mins_per_job = {{"cpu", 20}};
  const UsageClock c = clock_at(0, false);
  CHECK_FALSE(blocker(d, c, {}, {}, pending(10, "alice", 2, 10)));  // 20
  CHECK(blocker(d, c, {}, {}, pending(10, "alice", 3, 10)) ==       // 30
        Reason::assoc_max_cpu_minutes_per_job_limit);
  // alice's own limit comes first.
  limits(d, "lab", "alice").max_tres_mins_per_job = {{"cpu", 40}};
  CHECK_FALSE(blocker(d, c, {}, {}, pending(10, "alice", 3, 10)));
  CHECK(blocker(d, c, {}, {}, pending(10, "bob", 3, 10)) ==
        Reason::assoc_max_cpu_minutes_per_job_limit);
  d.qos[0].limits.max_tres_mins_per_job = {{"cpu", 25}};
  CHECK(blocker(d, c, {}, {}, pending(10, "alice", 3, 10)) ==
        Reason::qos_max_cpu_minutes_per_job_limit);
  // An infinite time limit is over any such limit.
  Job forever = pending(10, "alice", 1, 1);
  forever.time_limit = k_infinite;
  CHECK(blocker(d, c, {}, {}, forever) == Reason::qos_max_cpu_minutes_per_job_limit);
}

TEST_CASE("Limits over time refuse at submit only with DenyOnLimit", "[limits]") {
  Accounting d = sample();
  limits(d, "lab").grp_tres_mins = {{"cpu", 100}};
  const Job big = pending(10, "alice", 2, 60);  // 120 CPU-minutes
  CHECK_FALSE(sched::job_minutes_refusal(d, big, 1000));
  d.qos[0].flags = {"denyonlimit"};
  CHECK(sched::job_minutes_refusal(d, big, 1000) == Reason::assoc_grp_cpu_minutes_limit);
  CHECK_FALSE(sched::job_minutes_refusal(d, pending(10, "alice", 2, 50), 1000));
}

TEST_CASE("sacctmgr sets, clears and prints the limits over time", "[limits]") {
  Accounting d = sample();
  Association a = assoc(4, "lab", "alice");
  const std::vector<Setting> given = {set("GrpTRESMins", "cpu=100,mem=2G"),
                                      set("MaxTRESMinsPerJob", "cpu=20"), set("GrpWall", "1:00:00"),
                                      set("GrpTRESRunMins", "cpu=30")};
  for (const auto& s : given) CHECK(sched::apply_assoc_setting(a, s, d, {}));
  CHECK(a.limits.grp_tres_mins == Tres{{"cpu", 100}, {"mem", 2048}});
  CHECK(a.limits.max_tres_mins_per_job == Tres{{"cpu", 20}});
  CHECK(a.limits.grp_wall == 3600);
  CHECK(a.limits.grp_tres_run_mins == Tres{{"cpu", 30}});
  CHECK(sched::assoc_limit_lines(a, given) ==
        std::vector<std::string>{"  GrpTRESMins   = cpu=100,mem=2G", "  GrpTRESRunMins= cpu=30",
                                 "  GrpWall       = 01:00:00", "  MaxTRESMins   = cpu=20"});
  CHECK(sched::apply_assoc_setting(a, set("GrpTRESMins", "mem=-1"), d, {}));
  CHECK(a.limits.grp_tres_mins == Tres{{"cpu", 100}});
  CHECK(sched::apply_assoc_setting(a, set("GrpWall", "-1"), d, {}));
  CHECK_FALSE(a.limits.grp_wall);
  CHECK(sched::apply_assoc_setting(a, set("GrpCPUMins", "7"), d, {}));
  CHECK(a.limits.grp_tres_mins == Tres{{"cpu", 7}});
  CHECK_THROWS_AS(sched::apply_assoc_setting(a, set("GrpTRESMins", "cpu=x"), d, {}), Error);
  CHECK_THROWS_AS(sched::apply_assoc_setting(a, set("GrpWall", "soon"), d, {}), Error);

  Qos q = d.qos[0];
  const std::vector<Setting> qgiven = {set("GrpTRESMins", "cpu=100"), set("GrpWall", "2:00:00"),
                                       set("MaxTRESMins", "gpu=60")};
  for (const auto& s : qgiven) CHECK(sched::apply_qos_setting(q, s, d));
  CHECK(sched::qos_limit_lines(q, qgiven) ==
        std::vector<std::string>{"  GrpTRESMins              = cpu=100",
                                 "  GrpWall                  = 02:00:00",
                                 "  MaxTRESMins              = gres/gpu=60"});
}

TEST_CASE("A job without --time gets the time its limits over time allow", "[limits]") {
  Accounting d = sample();
  CHECK_FALSE(sched::minutes_time_limit(d, pending(10, "alice", 2, 60), 1000));
  // 600 CPU-minutes for 2 CPUs: 300 minutes.
  limits(d, "lab").grp_tres_mins = {{"cpu", 600}};
  CHECK(sched::minutes_time_limit(d, pending(10, "alice", 2, 60), 1000) == 300 * 60);
  // Whole minutes, as Slurm divides: 601 / 2 = 300.
  limits(d, "lab").grp_tres_mins = {{"cpu", 601}};
  CHECK(sched::minutes_time_limit(d, pending(10, "alice", 2, 60), 1000) == 300 * 60);
  // The smallest of all: alice's MaxTRESMins cpu=100 gives 50 minutes, and
  // GrpWall 40 minutes on lab gives 40.
  limits(d, "lab", "alice").max_tres_mins_per_job = {{"cpu", 100}};
  CHECK(sched::minutes_time_limit(d, pending(10, "alice", 2, 60), 1000) == 50 * 60);
  limits(d, "lab").grp_wall = 40 * 60;
  CHECK(sched::minutes_time_limit(d, pending(10, "alice", 2, 60), 1000) == 40 * 60);
  // A QOS limit on cpu replaces the associations' on cpu.
  limits(d, "lab").grp_wall.reset();
  d.qos[0].limits.max_tres_mins_per_job = {{"cpu", 1000}};
  CHECK(sched::minutes_time_limit(d, pending(10, "alice", 2, 60), 1000) == 300 * 60);
}

TEST_CASE("A requeued job that starts again counts its whole time limit", "[limits]") {
  Accounting d = sample();
  limits(d, "lab").grp_tres_run_mins = {{"cpu", 30}};
  LimitTracker t(d, 1000);
  t.track_usage(clock_at(10000, false), {});
  Job again = pending(10, "alice", 1, 20);
  again.start_time = k_t0 + 9000;  // its first run's start
  t.started(again);
  CHECK(t.run_blocker(pending(11, "bob", 1, 11)) == Reason::assoc_grp_cpu_run_minutes_limit);
}
