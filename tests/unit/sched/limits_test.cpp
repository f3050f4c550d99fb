// Associations, QOS and the limit hierarchy (sched/limits.hpp).

#include "sched/limits.hpp"

#include <catch2/catch.hpp>

#include <stint/error.hpp>

using namespace stint;
using sched::LimitTracker;
using sched::Setting;

namespace {

Association assoc(std::int64_t id, std::string account, std::string user = "",
                  std::string partition = "") {
  Association a;
  a.id = id;
  a.account = std::move(account);
  a.user = std::move(user);
  a.partition = std::move(partition);
  return a;
}

// root ─ lab ─ physics; alice in lab (also lab/cpu) and physics; bob in lab.
Accounting sample() {
  Accounting d;
  d.accounts = {{"lab", "lab", "uni", "root"},
                {"physics", "physics", "lab", "lab"},
                {"root", "default root account", "root", ""}};
  d.users = {{"alice", "lab", AdminLevel::none},
             {"bob", "lab", AdminLevel::none},
             {"root", "root", AdminLevel::admin}};
  Association root = assoc(1, "root");
  root.qos = {"normal"};
  d.associations = {root,
                    assoc(2, "root", "root"),
                    assoc(3, "lab"),
                    assoc(4, "lab", "alice"),
                    assoc(5, "lab", "alice", "cpu"),
                    assoc(6, "lab", "bob"),
                    assoc(7, "physics"),
                    assoc(8, "physics", "alice")};
  Qos normal;
  normal.id = 1;
  normal.name = "normal";
  Qos high;
  high.id = 2;
  high.name = "high";
  high.priority = 100;
  d.qos = {normal, high};
  return d;
}

Association& find(Accounting& d, std::string_view account, std::string_view user,
                  std::string_view partition = "") {
  for (auto& a : d.associations) {
    if (a.account == account && a.user == user && a.partition == partition) return a;
  }
  FAIL("no association");
  throw 0;
}

Qos& find_qos(Accounting& d, std::string_view name) {
  for (auto& q : d.qos) {
    if (q.name == name) return q;
  }
  FAIL("no qos");
  throw 0;
}

Job job(JobId id, std::string user, std::string account, std::uint32_t cpus = 1,
        JobState state = JobState::pending, std::string qos = "normal") {
  Job j;
  j.id = id;
  j.user_name = std::move(user);
  j.account = std::move(account);
  j.partition = "debug";
  j.qos = std::move(qos);
  j.state = state;
  j.req.cpus_per_node = cpus;
  j.req.mem_per_node_mb = 100;
  j.time_limit = 600;
  if (is_active(state)) {
    NodeAlloc a;
    a.node = "n-1";
    a.cpus = cpus;
    a.mem_mb = 100;
    j.alloc.push_back(a);
  }
  return j;
}

Setting set(std::string key, std::string value, std::string op = "=") {
  return Setting{std::move(key), std::move(op), std::move(value)};
}

}  // namespace

TEST_CASE("AccountingStorageEnforce and what each word implies", "[limits]") {
  Config c;
  CHECK_FALSE(sched::enforcement(c).associations);
  c.slurm_conf["AccountingStorageEnforce"] = "limits";
  auto e = sched::enforcement(c);
  CHECK(e.associations);
  CHECK(e.limits);
  CHECK_FALSE(e.qos);
  c.slurm_conf["AccountingStorageEnforce"] = "associations,QOS";
  e = sched::enforcement(c);
  CHECK(e.associations);
  CHECK(e.qos);
  CHECK_FALSE(e.limits);
  c.slurm_conf["AccountingStorageEnforce"] = "all";
  e = sched::enforcement(c);
  CHECK((e.associations && e.limits && e.qos && e.safe));
}

TEST_CASE("TRES lists read and print as sacctmgr's", "[limits]") {
  Tres t = sched::parse_tres("cpu=4,mem=2G,GPU=1,node=2");
  CHECK(t == Tres{{"cpu", 4}, {"mem", 2048}, {"gres/gpu", 1}, {"node", 2}});
  CHECK(sched::format_tres(t) == "cpu=4,mem=2G,node=2,gres/gpu=1");
  CHECK(sched::format_tres({{"mem", 1536}}) == "mem=1536M");
  CHECK(sched::parse_tres("cpu=-1") == Tres{{"cpu", -1}});
  CHECK_THROWS_AS(sched::parse_tres("cpu"), Error);
  CHECK_THROWS_AS(sched::parse_tres("cpu=x"), Error);
  CHECK_THROWS_AS(sched::parse_tres("bogus=1"), Error);
  CHECK_THROWS_AS(sched::parse_tres(""), Error);
  CHECK_THROWS_AS(sched::parse_tres("mem=4Q"), Error);
}

TEST_CASE("settings split and apply to associations", "[limits]") {
  CHECK(sched::split_setting("MaxJobs=2") == Setting{"MaxJobs", "=", "2"});
  CHECK(sched::split_setting("qos+=high") == Setting{"qos", "+=", "high"});
  CHECK(sched::split_setting("QOS-=high") == Setting{"QOS", "-=", "high"});
  CHECK(sched::split_setting("GrpTRES=cpu=4") == Setting{"GrpTRES", "=", "cpu=4"});
  CHECK_FALSE(sched::split_setting("alice"));
  CHECK_FALSE(sched::split_setting("=x"));

  const Accounting d = sample();
  Association a = assoc(9, "lab", "carol");
  CHECK(sched::apply_assoc_setting(a, set("MaxJobs", "2"), d, {}));
  CHECK(a.limits.max_jobs == 2);
  CHECK(sched::apply_assoc_setting(a, set("maxjobs", "-1"), d, {}));
  CHECK_FALSE(a.limits.max_jobs);
  CHECK(sched::apply_assoc_setting(a, set("GrpTRES", "cpu=4,mem=1G"), d, {}));
  CHECK(sched::apply_assoc_setting(a, set("GrpTRES", "cpu=-1"), d, {}));
  CHECK(a.limits.grp_tres == Tres{{"mem", 1024}});
  CHECK(sched::apply_assoc_setting(a, set("MaxWall", "1:00:00"), d, {}));
  CHECK(a.limits.max_wall == 3600);
  CHECK(sched::apply_assoc_setting(a, set("Fairshare", "parent"), d, {}));
  CHECK(a.shares == k_shares_parent);
  CHECK(sched::apply_assoc_setting(a, set("Shares", "50"), d, {}));
  CHECK(a.shares == 50);
  // QOS+= starts from the inherited list when the association has none.
  CHECK(sched::apply_assoc_setting(a, set("qos", "high", "+="), d, {"normal"}));
  CHECK(a.qos == std::vector<std::string>{"high", "normal"});
  CHECK(sched::apply_assoc_setting(a, set("qos", "normal", "-="), d, {"normal"}));
  CHECK(a.qos == std::vector<std::string>{"high"});
  CHECK(sched::apply_assoc_setting(a, set("DefaultQOS", "HIGH"), d, {}));
  CHECK(a.default_qos == "high");

  CHECK_FALSE(sched::apply_assoc_setting(a, set("Bogus", "1"), d, {}));
  CHECK_FALSE(sched::apply_assoc_setting(a, set("Description", "x"), d, {}));
  CHECK_THROWS_AS(sched::apply_assoc_setting(a, set("MaxJobs", "x"), d, {}), Error);
  CHECK_THROWS_AS(sched::apply_assoc_setting(a, set("MaxJobs", "-2"), d, {}), Error);
  CHECK_THROWS_AS(sched::apply_assoc_setting(a, set("QOS", "nosuch"), d, {}), Error);
  CHECK_THROWS_AS(sched::apply_assoc_setting(a, set("MaxWall", "abc"), d, {}), Error);
  CHECK_THROWS_AS(sched::apply_assoc_setting(a, set("MaxJobs", "2", "+="), d, {}), Error);
}

TEST_CASE("QOS settings", "[limits]") {
  const Accounting d = sample();
  Qos q;
  q.name = "gold";
  CHECK(sched::apply_qos_setting(q, set("Priority", "100"), d));
  CHECK(sched::apply_qos_setting(q, set("MaxJobsPerUser", "1"), d));
  CHECK(sched::apply_qos_setting(q, set("MaxTRESPU", "cpu=8"), d));
  CHECK(sched::apply_qos_setting(q, set("UsageFactor", "2.5"), d));
  CHECK(sched::apply_qos_setting(q, set("Preempt", "normal,high"), d));
  CHECK(sched::apply_qos_setting(q, set("PreemptMode", "REQUEUE"), d));
  CHECK(q.priority == 100);
  CHECK(q.limits.max_jobs_per_user == 1);
  CHECK(q.limits.max_tres_per_user == Tres{{"cpu", 8}});
  CHECK(q.usage_factor == 2.5);
  CHECK(q.preempt == std::vector<std::string>{"high", "normal"});
  CHECK(q.preempt_mode == "requeue");
  CHECK_THROWS_AS(sched::apply_qos_setting(q, set("Preempt", "gold"), d), Error);
  CHECK_THROWS_AS(sched::apply_qos_setting(q, set("PreemptMode", "sometimes"), d), Error);
  // Slurm's shorter spellings: MaxJobs and MaxSubmitJobs are the per-user
  // limits, MaxCPUs and MaxNodes one TRES of MaxTRESPerJob.
  Qos t;
  CHECK(sched::apply_qos_setting(t, set("MaxJobs", "3"), d));
  CHECK(t.limits.max_jobs_per_user == 3);
  CHECK(sched::apply_qos_setting(t, set("MaxSubmitJobs", "4"), d));
  CHECK(t.limits.max_submit_jobs_per_user == 4);
  CHECK(sched::apply_qos_setting(t, set("MaxCPUs", "6"), d));
  CHECK(sched::apply_qos_setting(t, set("MaxNodes", "2"), d));
  CHECK(t.limits.max_tres_per_job == Tres{{"cpu", 6}, {"node", 2}});
  // stint has no per-account QOS limits: refused, saying what to use.
  CHECK_THROWS_WITH(
      sched::apply_qos_setting(t, set("MaxJobsPerAccount", "1"), d),
      Catch::Contains("MaxJobsPerAccount is not supported here") && Catch::Contains("GrpJobs"));

  std::vector<std::string> lines =
      sched::qos_limit_lines(q, {set("MaxJobsPerUser", "1"), set("Priority", "100")});
  CHECK(lines ==
        std::vector<std::string>{"  MaxJobsPerUser = 1", "  Priority                 = 100"});
}

TEST_CASE("setting keys match as sacctmgr abbreviates them", "[limits]") {
  // At least the key's fewest letters, any case; the first key in Slurm's
  // order wins.
  CHECK(sched::assoc_setting_name("maxjob") == "MaxJobs");
  CHECK(sched::assoc_setting_name("MAXJ") == "MaxJobs");
  CHECK(sched::assoc_setting_name("maxcpumins") == "MaxCPUMinsPerJob");
  CHECK(sched::assoc_setting_name("maxcpus") == "MaxCPUsPerJob");
  CHECK(sched::assoc_setting_name("maxnode") == "MaxNodesPerJob");
  CHECK(sched::assoc_setting_name("grpjob") == "GrpJobs");
  CHECK(sched::assoc_setting_name("grpcpus") == "GrpCPUs");
  CHECK(sched::assoc_setting_name("grpcpumins") == "GrpCPUMins");
  CHECK(sched::assoc_setting_name("grpnode") == "GrpNodes");
  CHECK(sched::assoc_setting_name("grpsubmit") == "GrpSubmitJobs");
  CHECK(sched::assoc_setting_name("maxtresmins") == "MaxTRESMinsPerJob");
  CHECK(sched::assoc_setting_name("maxtres") == "MaxTRESPerJob");
  CHECK(sched::assoc_setting_name("maxtrespernode") == "MaxTRESPerNode");
  CHECK(sched::assoc_setting_name("q") == "QOSLevel");
  CHECK(sched::assoc_setting_name("f") == "FairShare");
  CHECK(sched::assoc_setting_name("pa") == "Parent");
  CHECK(sched::assoc_setting_name("pr") == "Priority");
  // Too short, longer than the key, or no key at all.
  CHECK_FALSE(sched::assoc_setting_name("max"));
  CHECK_FALSE(sched::assoc_setting_name("grpcpu"));
  CHECK_FALSE(sched::assoc_setting_name("defqos"));
  CHECK_FALSE(sched::assoc_setting_name("maxjobsx"));
  CHECK_FALSE(sched::assoc_setting_name("p"));
  CHECK_FALSE(sched::assoc_setting_name(""));
  CHECK_FALSE(sched::assoc_setting_name("description"));

  CHECK(sched::qos_setting_name("MaxCpuMin") == "MaxCPUMinsPerJob");
  CHECK(sched::qos_setting_name("MaxJobs") == "MaxJobsPerUser");
  CHECK(sched::qos_setting_name("MaxNode") == "MaxNodesPerJob");
  CHECK(sched::qos_setting_name("MaxCpusPerUser") == "MaxCPUsPerUser");
  CHECK(sched::qos_setting_name("GrpCpuRunMin") == "GrpCPURunMins");
  CHECK(sched::qos_setting_name("GrpMem") == "GrpMemory");
  CHECK(sched::qos_setting_name("MaxSubmit") == "MaxSubmitJobsPerUser");
  CHECK(sched::qos_setting_name("MaxJobsPA") == "MaxJobsPA");
  CHECK(sched::qos_setting_name("preempt") == "Preempt");
  CHECK(sched::qos_setting_name("preemptm") == "PreemptMode");
  CHECK(sched::qos_setting_name("preemptexempt") == "PreemptExemptTime");
  CHECK(sched::qos_setting_name("d") == "Description");
  CHECK_FALSE(sched::qos_setting_name("pre"));
  CHECK_FALSE(sched::qos_setting_name("MaxTRESPJ"));

  // The whole of test21.30's reset, in one modify.
  const Accounting d = sample();
  Qos q;
  q.name = "gold";
  for (const char* key :
       {"MaxCpuMin", "GrpCpus", "GrpJob", "MaxNode", "MaxWall", "GrpMem", "MaxCpus", "GrpCpuRunMin",
        "MaxJobs", "GrpCpuMin", "GrpSubmit", "MaxCpusPerUser", "GrpWall"})
    CHECK(sched::apply_qos_setting(q, set(key, "-1"), d));
  CHECK(sched::apply_qos_setting(q, set("GrpNodes", "3"), d));
  CHECK(sched::apply_qos_setting(q, set("GrpMem", "100"), d));
  CHECK(q.limits.grp_tres == Tres{{"mem", 100}, {"node", 3}});
  CHECK(sched::apply_qos_setting(q, set("MaxCPUMins", "4"), d));
  CHECK(q.limits.max_tres_mins_per_job == Tres{{"cpu", 4}});
  CHECK(sched::qos_limit_lines(q, {set("GrpMem", "100"), set("MaxCpuMin", "4")}) ==
        std::vector<std::string>{"  GrpTRES                  = mem=100M,node=3",
                                 "  MaxTRESMins              = cpu=4"});

  Association a = assoc(9, "lab", "carol");
  CHECK(sched::apply_assoc_setting(a, set("maxjob", "2"), d, {}));
  CHECK(sched::apply_assoc_setting(a, set("maxnode", "1"), d, {}));
  CHECK(sched::apply_assoc_setting(a, set("maxcpumins", "-1"), d, {}));
  CHECK(a.limits.max_jobs == 2);
  CHECK(a.limits.max_tres_per_job == Tres{{"node", 1}});
  CHECK(sched::assoc_limit_lines(a, {set("maxjob", "2"), set("maxnode", "1")}) ==
        std::vector<std::string>{"  MaxJobs       = 2", "  MaxTRES       = node=1"});

  // Slurm's keys stint keeps nowhere are refused with what to use instead.
  CHECK_THROWS_WITH(sched::apply_assoc_setting(a, set("MinPrioThresh", "1"), d, {}),
                    Catch::Contains("MinPrioThresh is not supported here"));
  CHECK_THROWS_WITH(sched::apply_assoc_setting(a, set("MaxTRESRunMins", "cpu=1"), d, {}),
                    Catch::Contains("GrpTRESRunMins"));
  CHECK_THROWS_WITH(sched::apply_assoc_setting(a, set("RawUsage", "0"), d, {}),
                    Catch::Contains("RawUsage is not supported here"));
  CHECK_THROWS_WITH(sched::apply_qos_setting(q, set("UsageThreshold", "0.1"), d),
                    Catch::Contains("UsageThreshold is not supported here"));
  CHECK_THROWS_WITH(sched::apply_assoc_setting(a, set("Parent", "lab"), d, {}),
                    Catch::Contains("modify account"));
  // Malformed values keep Slurm's messages.
  CHECK_THROWS_WITH(sched::apply_assoc_setting(a, set("maxjob", "two"), d, {}),
                    " Bad MaxJobs value: two");
  CHECK_THROWS_AS(sched::apply_qos_setting(q, set("GrpMem", "lots"), d), Error);
}

TEST_CASE("QOS lists take a sign on each name", "[limits]") {
  const Accounting d = sample();
  Association a = assoc(9, "lab", "carol");
  CHECK(sched::apply_assoc_setting(a, set("qos", "+high"), d, {"normal"}));
  CHECK(a.qos == std::vector<std::string>{"high", "normal"});
  CHECK(sched::apply_assoc_setting(a, set("qos", "-normal"), d, {"normal"}));
  CHECK(a.qos == std::vector<std::string>{"high"});
  CHECK(sched::apply_assoc_setting(a, set("qos", "+normal,-high"), d, {}));
  CHECK(a.qos == std::vector<std::string>{"normal"});
  // A sign on a name overrides the list's operator.
  CHECK(sched::apply_assoc_setting(a, set("qos", "-normal,high", "+="), d, {}));
  CHECK(a.qos == std::vector<std::string>{"high"});
  CHECK_THROWS_WITH(sched::apply_assoc_setting(a, set("qos", "normal,+high"), d, {}),
                    Catch::Contains("You can't set qos equal to something and then add"));
  CHECK_THROWS_WITH(sched::apply_assoc_setting(a, set("qos", "+nosuch"), d, {}),
                    Catch::Contains("You gave a bad qos 'nosuch'"));
  CHECK_THROWS_AS(sched::apply_assoc_setting(a, set("qos", "+"), d, {}), Error);
  Qos q;
  q.name = "gold";
  CHECK(sched::apply_qos_setting(q, set("Preempt", "+normal"), d));
  CHECK(sched::apply_qos_setting(q, set("Preempt", "+high"), d));
  CHECK(sched::apply_qos_setting(q, set("Preempt", "-normal"), d));
  CHECK(q.preempt == std::vector<std::string>{"high"});
}

TEST_CASE("the association tree: parents, chains, QOS and order", "[limits]") {
  Accounting d = sample();
  const Association& cpu = find(d, "lab", "alice", "cpu");
  std::vector<std::int64_t> ids;
  for (const auto* a : sched::association_chain(d, cpu)) ids.push_back(a->id);
  CHECK(ids == std::vector<std::int64_t>{5, 3, 1});
  ids.clear();
  for (const auto* a : sched::association_chain(d, find(d, "physics", "alice")))
    ids.push_back(a->id);
  CHECK(ids == std::vector<std::int64_t>{8, 7, 3, 1});

  // A job in partition cpu uses lab/alice/cpu; elsewhere lab/alice.
  CHECK(sched::job_association(d, "lab", "alice", "cpu")->id == 5);
  CHECK(sched::job_association(d, "lab", "alice", "gpu")->id == 4);
  CHECK(sched::job_association(d, "physics", "bob", "cpu") == nullptr);

  CHECK(sched::effective_qos(d, cpu) == std::vector<std::string>{"normal"});
  CHECK(sched::default_qos(d, cpu) == "normal");
  find(d, "lab", "").qos = {"normal", "high"};
  CHECK(sched::effective_qos(d, find(d, "lab", "bob")) ==
        std::vector<std::string>{"high", "normal"});
  CHECK(sched::default_qos(d, find(d, "lab", "bob")) == "normal");
  find(d, "lab", "bob").qos = {"high"};
  CHECK(sched::default_qos(d, find(d, "lab", "bob")) == "high");
  find(d, "lab", "").default_qos = "normal";
  CHECK(sched::default_qos(d, find(d, "lab", "bob")) == "normal");

  std::vector<std::string> order;
  for (const auto& [a, depth] : sched::association_tree(d))
    order.push_back(std::to_string(depth) + ":" + a->account + "|" + a->user + "|" + a->partition);
  CHECK(order == std::vector<std::string>{"0:root||", "1:root|root|", "1:lab||", "2:lab|alice|",
                                          "2:lab|alice|cpu", "2:lab|bob|", "2:physics||",
                                          "3:physics|alice|"});
  CHECK(sched::descendant_accounts(d, "root") == std::vector<std::string>{"lab", "physics"});
}

TEST_CASE("MaxJobs keeps the third job pending until one ends", "[limits]") {
  Accounting d = sample();
  find(d, "lab", "alice").limits.max_jobs = 2;
  LimitTracker t(d, 4096);
  Job a = job(1, "alice", "lab", 1, JobState::running);
  Job b = job(2, "alice", "lab");
  Job c = job(3, "alice", "lab");
  t.add(a);
  t.add(b);
  t.add(c);
  CHECK_FALSE(t.run_blocker(b));
  t.started(b);
  CHECK(t.run_blocker(c) == Reason::assoc_max_jobs_limit);
  // Another user of the account is not counted against alice's MaxJobs.
  CHECK_FALSE(t.run_blocker(job(4, "bob", "lab")));

  LimitTracker after(d, 4096);
  after.add(job(2, "alice", "lab", 1, JobState::running));
  CHECK_FALSE(after.run_blocker(c));
}

TEST_CASE("MaxJobs is inherited from the nearest level that sets it", "[limits]") {
  Accounting d = sample();
  find(d, "root", "").limits.max_jobs = 5;
  find(d, "lab", "").limits.max_jobs = 1;
  LimitTracker t(d, 4096);
  t.add(job(1, "alice", "lab", 1, JobState::running));
  // lab's MaxJobs=1 applies to each user association beneath it.
  CHECK(t.run_blocker(job(2, "alice", "lab")) == Reason::assoc_max_jobs_limit);
  CHECK_FALSE(t.run_blocker(job(3, "bob", "lab")));
  // The user's own setting wins over the account's.
  find(d, "lab", "alice").limits.max_jobs = 3;
  LimitTracker u(d, 4096);
  u.add(job(1, "alice", "lab", 1, JobState::running));
  CHECK_FALSE(u.run_blocker(job(2, "alice", "lab")));
}

TEST_CASE("GrpTRES=cpu=4 on an account holds its users' excess", "[limits]") {
  Accounting d = sample();
  find(d, "lab", "").limits.grp_tres = {{"cpu", 4}};
  LimitTracker t(d, 4096);
  t.add(job(1, "alice", "lab", 2, JobState::running));
  t.add(job(2, "bob", "lab", 1, JobState::running));
  CHECK_FALSE(t.run_blocker(job(3, "bob", "lab", 1)));
  CHECK(t.run_blocker(job(4, "alice", "lab", 2)) == Reason::assoc_grp_cpu_limit);
  // Jobs of a child account count toward the parent's Grp limit.
  CHECK(t.run_blocker(job(5, "alice", "physics", 2)) == Reason::assoc_grp_cpu_limit);
  // A looser user-level GrpTRES does not lift the account's.
  find(d, "lab", "alice").limits.grp_tres = {{"cpu", 100}};
  LimitTracker u(d, 4096);
  u.add(job(1, "alice", "lab", 4, JobState::running));
  CHECK(u.run_blocker(job(2, "alice", "lab", 1)) == Reason::assoc_grp_cpu_limit);
  // GrpTRES mem and GrpJobs give their own reasons.
  find(d, "lab", "").limits.grp_tres = {{"mem", 150}};
  LimitTracker m(d, 4096);
  m.add(job(1, "bob", "lab", 1, JobState::running));
  CHECK(m.run_blocker(job(2, "bob", "lab")) == Reason::assoc_grp_mem_limit);
  find(d, "lab", "").limits.grp_tres.clear();
  find(d, "root", "").limits.grp_jobs = 1;
  LimitTracker g(d, 4096);
  g.add(job(1, "root", "root", 1, JobState::running));
  CHECK(g.run_blocker(job(2, "bob", "lab")) == Reason::assoc_grp_jobs_limit);
}

TEST_CASE("QOS limits override the association's of the same kind", "[limits]") {
  Accounting d = sample();
  find(d, "lab", "alice").limits.max_jobs = 1;
  find_qos(d, "high").limits.max_jobs_per_user = 2;
  LimitTracker t(d, 4096);
  t.add(job(1, "alice", "lab", 1, JobState::running, "high"));
  CHECK_FALSE(t.run_blocker(job(2, "alice", "lab", 1, JobState::pending, "high")));
  t.started(job(2, "alice", "lab", 1, JobState::pending, "high"));
  CHECK(t.run_blocker(job(3, "alice", "lab", 1, JobState::pending, "high")) ==
        Reason::qos_max_jobs_per_user_limit);
  // In QOS normal (no per-user limit) the association's MaxJobs holds.
  CHECK(t.run_blocker(job(4, "alice", "lab")) == Reason::assoc_max_jobs_limit);

  // A QOS GrpTRES cpu replaces the chain's GrpTRES cpu.
  find(d, "lab", "").limits.grp_tres = {{"cpu", 1}};
  find_qos(d, "high").limits.grp_tres = {{"cpu", 3}};
  find(d, "lab", "alice").limits.max_jobs.reset();
  LimitTracker g(d, 4096);
  g.add(job(1, "bob", "lab", 1, JobState::running, "high"));
  CHECK_FALSE(g.run_blocker(job(2, "alice", "lab", 2, JobState::pending, "high")));
  CHECK(g.run_blocker(job(3, "alice", "lab", 3, JobState::pending, "high")) ==
        Reason::qos_grp_cpu_limit);
  CHECK(g.run_blocker(job(4, "alice", "lab", 1)) == Reason::assoc_grp_cpu_limit);

  // MaxTRESPerUser counts the user's running jobs in the QOS.
  find_qos(d, "high").limits.grp_tres.clear();
  find(d, "lab", "").limits.grp_tres.clear();
  find_qos(d, "high").limits.max_jobs_per_user.reset();
  find_qos(d, "high").limits.max_tres_per_user = {{"cpu", 2}};
  LimitTracker p(d, 4096);
  p.add(job(1, "alice", "lab", 2, JobState::running, "high"));
  CHECK(p.run_blocker(job(2, "alice", "lab", 1, JobState::pending, "high")) ==
        Reason::qos_max_cpu_per_user_limit);
  CHECK_FALSE(p.run_blocker(job(3, "bob", "lab", 1, JobState::pending, "high")));
}

TEST_CASE("MaxWall: the QOS's, else the chain's; per-job TRES limits", "[limits]") {
  Accounting d = sample();
  find(d, "lab", "").limits.max_wall = 300;
  Job j = job(1, "alice", "lab");
  j.time_limit = 600;
  CHECK(sched::job_size_blocker(d, j, 4096) == Reason::assoc_max_wall_duration_per_job_limit);
  j.time_limit = k_infinite;
  CHECK(sched::job_size_blocker(d, j, 4096) == Reason::assoc_max_wall_duration_per_job_limit);
  j.time_limit = 300;
  CHECK_FALSE(sched::job_size_blocker(d, j, 4096));
  find_qos(d, "normal").limits.max_wall = 120;
  CHECK(sched::job_size_blocker(d, j, 4096) == Reason::qos_max_wall_duration_per_job_limit);
  find_qos(d, "normal").limits.max_wall.reset();

  find(d, "lab", "alice").limits.max_tres_per_job = {{"cpu", 2}};
  j.req.cpus_per_node = 3;
  CHECK(sched::job_size_blocker(d, j, 4096) == Reason::assoc_max_cpu_per_job_limit);
  j.req.cpus_per_node = 2;
  CHECK_FALSE(sched::job_size_blocker(d, j, 4096));
  find(d, "root", "").limits.max_tres_per_node = {{"mem", 50}};
  CHECK(sched::job_size_blocker(d, j, 4096) == Reason::assoc_max_mem_per_node);
  j.req.whole_node_mem = true;
  find(d, "root", "").limits.max_tres_per_node = {{"mem", 8192}};
  CHECK_FALSE(sched::job_size_blocker(d, j, 4096));
  CHECK(sched::job_size_blocker(d, j, 10000) == Reason::assoc_max_mem_per_node);
}

TEST_CASE("submit limits count pending and running jobs", "[limits]") {
  Accounting d = sample();
  find(d, "lab", "alice").limits.max_submit_jobs = 3;
  LimitTracker t(d, 4096);
  t.add(job(1, "alice", "lab", 1, JobState::running));
  t.add(job(2, "alice", "lab"));
  t.add(job(3, "alice", "lab", 1, JobState::completed));
  CHECK_FALSE(t.submit_blocker(job(4, "alice", "lab"), 1));
  CHECK(t.submit_blocker(job(4, "alice", "lab"), 2) == Reason::assoc_max_submit_job_limit);

  find(d, "lab", "").limits.grp_submit_jobs = 3;
  LimitTracker g(d, 4096);
  g.add(job(1, "alice", "lab"));
  g.add(job(2, "bob", "lab"));
  g.add(job(3, "alice", "physics"));
  CHECK(g.submit_blocker(job(4, "bob", "lab"), 1) == Reason::assoc_grp_submit_jobs_limit);

  find_qos(d, "high").limits.max_submit_jobs_per_user = 1;
  LimitTracker q(d, 4096);
  q.add(job(1, "bob", "lab", 1, JobState::pending, "high"));
  CHECK(q.submit_blocker(job(2, "bob", "lab", 1, JobState::pending, "high"), 1) ==
        Reason::qos_max_submit_job_per_user_limit);
}

TEST_CASE("reason names are Slurm's", "[limits]") {
  CHECK(reason_name(Reason::assoc_max_jobs_limit) == "AssocMaxJobsLimit");
  CHECK(reason_name(Reason::assoc_grp_cpu_limit) == "AssocGrpCpuLimit");
  CHECK(reason_name(Reason::qos_max_jobs_per_user_limit) == "QOSMaxJobsPerUserLimit");
  CHECK(reason_name(Reason::qos_max_wall_duration_per_job_limit) ==
        "QOSMaxWallDurationPerJobLimit");
  CHECK(reason_name(Reason::invalid_qos) == "InvalidQOS");
  CHECK(reason_from_name("AssocGrpMemLimit") == Reason::assoc_grp_mem_limit);
  CHECK(sched::admin_level_name(AdminLevel::admin) == "Administrator");
  CHECK(sched::admin_level_from_name("admin") == AdminLevel::admin);
  CHECK(sched::admin_level_from_name("Operator") == AdminLevel::operator_level);
  CHECK_FALSE(sched::admin_level_from_name("root"));
}
