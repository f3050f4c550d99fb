#pragma once
// Synthetic clusters and queues for the micro-benchmarks: deterministic (fixed
// seed) so two runs time the same work. The shapes follow a lab's mix: mostly
// small CPU jobs, some multi-node or large ones, time limits from minutes to a
// day, 50 users in 10 accounts, so priority, fair share and the backfill plan
// all have something to do.

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <stint/config.hpp>
#include <stint/model.hpp>

#include "sched/sched.hpp"

namespace stint::bench {

/// "u12": built by appending, since GCC 12 warns wrongly (-Wrestrict) about
/// `"u" + std::to_string(n)` and about assigning a literal to a string here.
inline std::string name(char prefix, long n) {
  std::string s(1, prefix);
  s += std::to_string(n);
  return s;
}

/// `nodes` nodes of 64 CPUs and 256 GiB in one partition, with multifactor
/// weights set so every factor is computed.
inline Config make_config(std::uint32_t nodes) {
  Config c;
  NodePool pool;
  pool.id = "n";
  pool.count = nodes;
  pool.cpus = 64;
  pool.memory_mb = 256 * 1024;
  c.node_pools.push_back(pool);
  PartitionConfig p;
  p.id = "batch";
  p.node_pool_ids = {"n"};
  c.partitions.push_back(p);
  c.slurm_conf["PriorityType"] = "priority/multifactor";
  c.slurm_conf["PriorityWeightAge"] = "1000";
  c.slurm_conf["PriorityWeightFairshare"] = "10000";
  c.slurm_conf["PriorityWeightJobSize"] = "1000";
  c.slurm_conf["PriorityWeightPartition"] = "1000";
  return c;
}

inline constexpr Seconds k_now = 1'800'000'000;  // a fixed clock (2027)

/// The live jobs stintd would hold: `pending` pending jobs and enough running
/// jobs to fill about three quarters of the cluster, so that most pending jobs
/// do not fit now and the backfill plan must place them in the future.
struct Workload {
  Config config;
  std::map<JobId, Job> live;
  std::vector<const Job*> pending;
  std::vector<const Job*> running;
  std::set<JobId> eligible;
};

inline std::unique_ptr<Workload> make_workload(std::uint32_t pending, std::uint32_t nodes) {
  auto w = std::make_unique<Workload>();
  w->config = make_config(nodes);
  const auto defs = w->config.partition_nodes(w->config.partitions[0]);
  std::mt19937 rng(42);
  auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
    return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
  };
  static const std::uint32_t k_cpus[] = {1, 1, 2, 4, 4, 8, 16, 32, 64};
  static const Seconds k_limits[] = {600, 1800, 3600, 3600, 4 * 3600, 12 * 3600, 86400};
  JobId id = 1;
  auto make = [&](bool run) {
    Job j;
    j.id = id++;
    const std::uint32_t user = pick(0, 49);
    j.user_name = name('u', user);
    j.account = name('a', user % 10);
    j.partition = "batch";
    j.spec.ntasks = 1;
    j.spec.nodes = pick(0, 19) == 0 ? 2 : 1;  // 5% ask for two whole-ish nodes
    j.spec.ntasks = *j.spec.nodes;
    j.spec.cpus_per_task = k_cpus[pick(0, 8)];
    j.spec.mem_per_node_mb = 1024ULL * pick(1, 64);
    j.time_limit = k_limits[pick(0, 6)];
    j.submit_time = k_now - pick(0, 7 * 86400);
    j.eligible_time = j.submit_time;
    j.priority = 1;
    j.req = sched::make_request(j.spec, defs, w->config);
    if (run) {
      j.state = JobState::running;
      j.start_time = k_now - pick(0, static_cast<std::uint32_t>(j.time_limit) - 1);
    }
    return j;
  };
  // Running jobs, placed by the scheduler's own fit until 3/4 of the CPUs are used.
  sched::Cluster scratch(w->config.nodes());
  std::vector<std::string> names;
  for (const auto& d : defs) names.push_back(d.name);
  const std::uint64_t target = 48ULL * nodes;
  std::uint64_t used = 0;
  for (int misses = 0; used < target && misses < 100;) {
    Job j = make(true);
    auto alloc = sched::fit(j.req, scratch, names);
    if (!alloc) {
      ++misses;
      --id;
      continue;
    }
    j.alloc = *alloc;
    for (const auto& a : j.alloc) {
      scratch.find(a.node)->take(a);
      used += a.cpus;
    }
    const JobId jid = j.id;
    w->live.emplace(jid, std::move(j));
  }
  for (std::uint32_t i = 0; i < pending; ++i) {
    Job j = make(false);
    const JobId jid = j.id;
    w->live.emplace(jid, std::move(j));
  }
  for (const auto& [jid, j] : w->live) {
    if (j.state == JobState::pending) {
      w->pending.push_back(&j);
      w->eligible.insert(jid);
    } else {
      w->running.push_back(&j);
    }
  }
  return w;
}

}  // namespace stint::bench
