// The multifactor priority: each factor, each normalisation, the sum.

#include "sched/priority.hpp"

#include <catch2/catch.hpp>

#include "sched/sched.hpp"

using namespace stint;

namespace {

constexpr Seconds k_day = 24 * 3600;

// Two nodes of 2 CPUs and 4 GiB; partition "cpu" (tier 1) and "high" (job
// factor 10), both on every node.
Config cluster() {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.count = 2;
  pool.cpus = 2;
  pool.memory_mb = 4096;
  pool.gpus = 1;
  c.node_pools.push_back(pool);
  PartitionConfig cpu;
  cpu.id = "cpu";
  cpu.node_pool_ids = {"n"};
  cpu.max_time = 3600;
  c.partitions.push_back(cpu);
  PartitionConfig high = cpu;
  high.id = "high";
  high.priority_job_factor = 10;
  c.partitions.push_back(high);
  return c;
}

Job job(JobId id, std::string partition = "cpu", std::uint32_t cpus = 1, std::uint32_t nodes = 1) {
  Job j;
  j.id = id;
  j.user_name = "alice";
  j.account = "lab";
  j.partition = std::move(partition);
  j.time_limit = 3600;
  j.submit_time = 1000;
  j.eligible_time = 1000;
  j.req.nodes = nodes;
  j.req.tasks = nodes;
  j.req.cpus_per_task = cpus;
  j.req.cpus_per_node = cpus;
  j.req.mem_per_node_mb = 1024;
  return j;
}

sched::FairShare fair_share_of(const std::string& user, const std::string& account, double f) {
  sched::FairShare fs;
  fs.factor[{user, account}] = f;
  return fs;
}

}  // namespace

TEST_CASE("the sum of 06-sprio-sshare: fair share, job size, partition, nice", "[priority]") {
  // One node of 2 CPUs, as the transcript's machine; partitions cpu (1), high (10).
  Config c = cluster();
  c.node_pools[0].count = 1;
  for (auto [k, v] : {std::pair{"PriorityWeightAge", "1000"},
                      {"PriorityWeightFairshare", "10000"},
                      {"PriorityWeightJobSize", "1000"},
                      {"PriorityWeightPartition", "1000"},
                      {"PriorityWeightQOS", "1000"}})
    c.set_conf(k, v);
  auto ctx = sched::make_priority_context(c, fair_share_of("root", "root", 1.0));
  Job j = job(22);
  j.user_name = "root";
  j.account = "root";
  auto f = sched::priority_factors(j, ctx, 1000);
  CHECK(f.age == 0);
  CHECK(f.fairshare == 1.0);
  CHECK(f.job_size == Approx(0.75));  // (1/1 node + 1/2 CPUs) / 2
  CHECK(f.partition == Approx(0.1));  // 1 / 10
  CHECK(f.qos == 0);
  CHECK(f.priority == 10850);
  j.spec.nice = 100;
  CHECK(sched::priority_factors(j, ctx, 1000).priority == 10750);
}

TEST_CASE("age grows with the wait up to PriorityMaxAge, not while not accruing", "[priority]") {
  Config c = cluster();
  c.set_conf("PriorityWeightAge", "1000");
  c.set_conf("PriorityMaxAge", "2-0");
  auto ctx = sched::make_priority_context(c, {});
  Job j = job(1);
  CHECK(sched::priority_factors(j, ctx, 1000).age == 0);
  CHECK(sched::priority_factors(j, ctx, 1000 + k_day).age == Approx(0.5));
  CHECK(sched::priority_factors(j, ctx, 1000 + k_day).priority == 500);
  CHECK(sched::priority_factors(j, ctx, 1000 + 5 * k_day).age == 1.0);
  // Held or waiting on a dependency: no age; the wait counts from eligible_time.
  CHECK(sched::priority_factors(j, ctx, 1000 + k_day, sched::Accruing::no).age == 0);
  j.eligible_time = 1000 + k_day / 2;
  CHECK(sched::priority_factors(j, ctx, 1000 + k_day).age == Approx(0.25));
  // A begin time in the future: nothing yet.
  j.eligible_time = 1000 + 3 * k_day;
  CHECK(sched::priority_factors(j, ctx, 1000 + k_day).age == 0);
  // ACCRUE_ALWAYS counts from submission whatever happened since.
  c.set_conf("PriorityFlags", "ACCRUE_ALWAYS");
  ctx = sched::make_priority_context(c, {});
  CHECK(sched::priority_factors(j, ctx, 1000 + k_day, sched::Accruing::no).age == Approx(0.5));
}

TEST_CASE("an older job outranks a newer one in proportion to the age weight", "[priority]") {
  Config c = cluster();
  c.set_conf("PriorityWeightAge", "604800");  // one point a second with the 7-day max age
  auto ctx = sched::make_priority_context(c, {});
  Job older = job(1);
  Job newer = job(2);
  newer.submit_time = newer.eligible_time = 1100;
  Seconds now = 1500;
  CHECK(sched::priority_factors(older, ctx, now).priority == 500);
  CHECK(sched::priority_factors(newer, ctx, now).priority == 400);
}

TEST_CASE("job size: favour large, favour small, relative to time", "[priority]") {
  Config c = cluster();  // 2 nodes, 4 CPUs
  c.set_conf("PriorityWeightJobSize", "1000");
  auto ctx = sched::make_priority_context(c, {});
  CHECK(sched::priority_factors(job(1), ctx, 0).job_size == Approx(0.375));  // (1/2 + 1/4) / 2
  CHECK(sched::priority_factors(job(1, "cpu", 2, 2), ctx, 0).job_size == Approx(1.0));

  c.set_conf("PriorityFavorSmall", "YES");
  ctx = sched::make_priority_context(c, {});
  CHECK(sched::priority_factors(job(1), ctx, 0).job_size == Approx(0.625));  // (1/2 + 3/4) / 2
  CHECK(sched::priority_factors(job(1, "cpu", 2, 2), ctx, 0).job_size == Approx(0.0));

  c.set_conf("PriorityFavorSmall", "NO");
  c.set_conf("PriorityFlags", "SMALL_RELATIVE_TO_TIME");
  ctx = sched::make_priority_context(c, {});
  // max(1 node x 4/2 CPUs, 1 CPU) = 2, per 60 minutes, over 4 CPUs.
  CHECK(sched::priority_factors(job(1), ctx, 0).job_size == Approx(2.0 / 60 / 4));
  Job unlimited = job(2);
  unlimited.time_limit = k_infinite;  // the partition's MaxTime (60 minutes) then
  CHECK(sched::priority_factors(unlimited, ctx, 0).job_size == Approx(2.0 / 60 / 4));
  c.set_conf("PriorityFavorSmall", "YES");
  ctx = sched::make_priority_context(c, {});
  CHECK(sched::priority_factors(job(1), ctx, 0).job_size == Approx(1 - 2.0 / 60 / 4));
}

TEST_CASE("partition factor: PriorityJobFactor over the highest, or raw", "[priority]") {
  Config c = cluster();
  c.set_conf("PriorityWeightPartition", "1000");
  auto ctx = sched::make_priority_context(c, {});
  CHECK(sched::priority_factors(job(1, "cpu"), ctx, 0).partition == Approx(0.1));
  CHECK(sched::priority_factors(job(1, "high"), ctx, 0).priority == 1000);
  c.set_conf("PriorityFlags", "NO_NORMAL_PART");
  ctx = sched::make_priority_context(c, {});
  CHECK(sched::priority_factors(job(1, "high"), ctx, 0).partition == 10);
  CHECK(sched::priority_factors(job(1, "high"), ctx, 0).priority == 10000);
  // Without priority_job_factor, the tier is the job factor.
  PartitionConfig p;
  p.priority_tier = 7;
  CHECK(sched::partition_job_factor(p) == 7);
}

TEST_CASE("priority_job_factor is read from stint.yaml", "[priority]") {
  Config c = parse_config(R"(
node_pools: [{id: n, cpus: 2, memory: 1024}]
partitions:
  - {id: low, node_pool_ids: [n]}
  - {id: high, node_pool_ids: [n], priority_tier: 1, priority_job_factor: 10}
)",
                          "stint.yaml", Machine{});
  CHECK(c.partitions[0].priority_job_factor == std::nullopt);
  CHECK(sched::partition_job_factor(c.partitions[0]) == 1);
  CHECK(c.partitions[1].priority_job_factor == 10);
  CHECK(parse_config(config_to_yaml(c), "again.yaml", Machine{}).partitions == c.partitions);
}

TEST_CASE("QOS and association factors over the highest priority", "[priority]") {
  Config c = cluster();
  c.set_conf("PriorityWeightQOS", "1000");
  c.set_conf("PriorityWeightAssoc", "500");
  sched::FairShare fs;
  fs.assoc_priority[{"alice", "lab"}] = 5;
  fs.max_assoc_priority = 20;
  auto ctx = sched::make_priority_context(c, fs, {{"normal", 0}, {"high", 100}, {"mid", 50}});
  Job j = job(1);
  j.qos = "mid";
  auto f = sched::priority_factors(j, ctx, 0);
  CHECK(f.qos == Approx(0.5));
  CHECK(f.assoc == Approx(0.25));
  CHECK(f.priority == 625);
  c.set_conf("PriorityFlags", "NO_NORMAL_ALL");
  ctx = sched::make_priority_context(c, fs, {{"mid", 50}});
  f = sched::priority_factors(j, ctx, 0);
  CHECK(f.qos == 50);
  CHECK(f.assoc == 5);
}

TEST_CASE("TRES factors: each TRES over the partition's total, weighted", "[priority]") {
  Config c = cluster();  // partition: 4 CPUs, 8192 MiB, 2 nodes, 2 GPUs
  c.set_conf("PriorityWeightTRES", "CPU=1000,Mem=2000,GRES/gpu=3000");
  auto ctx = sched::make_priority_context(c, {});
  Job j = job(1);  // 1 CPU, 1024 MiB, no GPU
  auto f = sched::priority_factors(j, ctx, 0);
  REQUIRE(f.tres.size() == 3);
  CHECK(f.tres[0].first == "cpu");
  CHECK(f.tres[0].second == Approx(0.25));
  CHECK(f.tres[1].first == "mem");
  CHECK(f.tres[1].second == Approx(0.125));
  CHECK(f.tres[2].second == 0);
  CHECK(f.priority == 500);
  c.set_conf("PriorityFlags", "NO_NORMAL_TRES");
  ctx = sched::make_priority_context(c, {});
  CHECK(sched::priority_factors(j, ctx, 0).tres[0].second == 1);
}

TEST_CASE("the total: site factor added, nice subtracted, at least 1", "[priority]") {
  Config c = cluster();
  c.set_conf("PriorityWeightPartition", "1000");
  auto ctx = sched::make_priority_context(c, {});
  Job j = job(1, "high");
  j.spec.site_factor = 42;
  CHECK(sched::priority_factors(j, ctx, 0).priority == 1042);
  j.spec.nice = 5000;
  auto f = sched::priority_factors(j, ctx, 0);
  CHECK(f.total == 1);
  CHECK(f.priority == 1);
  j.spec.nice = -100;
  CHECK(sched::priority_factors(j, ctx, 0).priority == 1142);
  // No weights: every job ties at 1, and the queue is first come, first served.
  auto none = sched::make_priority_context(cluster(), {});
  CHECK(sched::priority_factors(job(2), none, 0).priority == 1);
  // priority/basic keeps the old rule.
  Config basic = cluster();
  basic.set_conf("PriorityType", "priority/basic");
  CHECK(sched::priority_factors(job(3), sched::make_priority_context(basic, {}), 0).priority ==
        10000);
}

TEST_CASE("TRES weights and billing", "[priority]") {
  auto w = sched::parse_tres_weights("CPU=1.0, Mem=0.25G,GRES/gpu=2,bad,x=y");
  REQUIRE(w.size() == 3);
  CHECK(w[0] == sched::TresWeight{"cpu", 1.0});
  CHECK(w[1].name == "mem");
  CHECK(w[1].weight == Approx(0.25 / 1024));  // per MiB
  CHECK(w[2] == sched::TresWeight{"gres/gpu", 2.0});

  sched::PriorityParams p;
  sched::TresCounts counts{2, 4096, 1, 1};
  CHECK(sched::billing(counts, p) == 2);  // CPUs without weights
  p.billing_weights = w;
  CHECK(sched::billing(counts, p) == Approx(2 + 1 + 2));
  p.flags.max_tres = true;
  CHECK(sched::billing(counts, p) == Approx(2));
}

TEST_CASE("priority flags and periods from the configuration", "[priority]") {
  Config c = cluster();
  c.set_conf("PriorityFlags", "NO_FAIR_TREE,CALCULATE_RUNNING,MAX_TRES");
  c.set_conf("PriorityCalcPeriod", "0:10");
  c.set_conf("PriorityDecayHalfLife", "1:00:00");
  auto p = sched::priority_params(c);
  CHECK(p.flags.no_fair_tree);
  CHECK(p.flags.calculate_running);
  CHECK(p.flags.max_tres);
  CHECK_FALSE(p.flags.small_relative_to_time);
  CHECK(p.calc_period == 10);
  CHECK(p.decay_half_life == 3600);
  auto d = sched::priority_params(cluster());
  CHECK(d.calc_period == 300);
  CHECK(d.max_age == 7 * k_day);
  CHECK(d.decay_half_life == 7 * k_day);
  CHECK(d.usage_reset_period == "NONE");
}

TEST_CASE("a snapshot: usage by QOS UsageFactor, fair share, QOS priority", "[priority]") {
  Config c = cluster();
  c.set_conf("PriorityWeightFairshare", "1000");
  c.set_conf("PriorityWeightQOS", "100");
  c.set_conf("PriorityDecayHalfLife", "0");
  Accounting acc;
  Qos normal;
  normal.name = "normal";
  Qos high;
  high.name = "high";
  high.priority = 100;
  high.usage_factor = 2;
  acc.qos = {normal, high};
  acc.accounts = {Account{"lab", "", "", "root"}};
  auto run = [](JobId id, std::string user, std::string qos) {
    sched::UsageRecord r;
    r.job_id = id;
    r.user = std::move(user);
    r.account = "lab";
    r.qos = std::move(qos);
    r.tres = {1, 100, 1, 0};
    r.start = 1000;
    r.end = 1100;
    return r;
  };
  // alice used 100 CPU-seconds at twice the charge, bob 100 at the normal one.
  auto ctx = sched::priority_snapshot(c, acc, {{"alice", "lab"}, {"bob", "lab"}},
                                      {run(1, "alice", "high"), run(2, "bob", "normal")}, 2000, 0);
  const auto& rows = ctx.fair_share.rows;
  auto usage = [&](const std::string& user) {
    for (const auto& r : rows) {
      if (r.assoc.key.user == user) return r.raw_usage;
    }
    return -1.0;
  };
  CHECK(usage("alice") == 200);
  CHECK(usage("bob") == 100);
  CHECK(ctx.fair_share.factor.at({"bob", "lab"}) == 1.0);
  CHECK(ctx.fair_share.factor.at({"alice", "lab"}) == 0.5);
  Job j = job(5);
  j.qos = "high";
  CHECK(sched::priority_factors(j, ctx, 2000).priority == 500 + 100);
  // A usage reset at 1050 leaves half of each run.
  ctx = sched::priority_snapshot(c, acc, {{"alice", "lab"}, {"bob", "lab"}},
                                 {run(1, "alice", "high"), run(2, "bob", "normal")}, 2000, 1050);
  CHECK(ctx.fair_share.rows.front().raw_usage == 150);
}
