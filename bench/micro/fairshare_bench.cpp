// Fair share over 1,000 user associations (100 accounts of 10 users) with
// usage on each: the calculation stintd repeats every PriorityCalcPeriod and
// whenever a job stops running. Both algorithms: Fair Tree (the default) and
// classic (NO_FAIR_TREE).

#include <random>
#include <string>

#include <benchmark/benchmark.h>

#include "sched/fairshare.hpp"
#include "workload.hpp"

using namespace stint;

namespace {

struct Tree {
  std::vector<sched::ShareAssoc> assocs;
  std::map<sched::AssocKey, double> usage;
};

Tree make_tree(int accounts, int users_per_account) {
  Tree t;
  std::vector<sched::AssocKey> users;
  for (int a = 0; a < accounts; ++a)
    for (int u = 0; u < users_per_account; ++u)
      users.push_back({bench::name('u', a * users_per_account + u), bench::name('a', a)});
  t.assocs = sched::implicit_tree(users);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(0, 1e6);
  for (auto& s : t.assocs) s.shares = 1 + static_cast<std::uint32_t>(rng() % 10);
  for (const auto& u : users) t.usage[u] = dist(rng);
  return t;
}

void BM_FairShare(benchmark::State& st) {
  const Tree t = make_tree(100, static_cast<int>(st.range(0)) / 100);
  const auto algorithm =
      st.range(1) == 0 ? sched::FairShareAlgorithm::fair_tree : sched::FairShareAlgorithm::classic;
  for (auto _ : st) {
    sched::FairShare fs = sched::compute_fair_share(t.assocs, t.usage, algorithm);
    benchmark::DoNotOptimize(fs);
  }
  st.SetLabel(st.range(1) == 0 ? "fair_tree" : "classic");
}
BENCHMARK(BM_FairShare)
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->ArgNames({"assocs", "classic"})
    ->Unit(benchmark::kMicrosecond);

// The usage sums from ended runs: 10 runs per association, decayed to now.
void BM_AssociationUsage(benchmark::State& st) {
  std::vector<sched::UsageRecord> records;
  std::mt19937 rng(9);
  const Seconds now = 1'800'000'000;
  for (JobId id = 1; id <= static_cast<JobId>(st.range(0)); ++id) {
    sched::UsageRecord r;
    r.job_id = id;
    r.user = bench::name('u', rng() % 1000);
    r.account = bench::name('a', rng() % 100);
    r.billing = 1 + rng() % 64;
    r.start = now - 86400 * (1 + rng() % 30);
    r.end = r.start + 60 + rng() % 86400;
    records.push_back(r);
  }
  for (auto _ : st) {
    auto usage = sched::association_usage(records, now, 7 * 86400, k_no_time);
    benchmark::DoNotOptimize(usage);
  }
}
BENCHMARK(BM_AssociationUsage)->Arg(10000)->ArgName("runs")->Unit(benchmark::kMicrosecond);

}  // namespace
