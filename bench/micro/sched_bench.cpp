// Priority and the scheduling pass over synthetic queues (workload.hpp).
//
// BM_Priority: a full priority calculation as stintd does it when due
// (PriorityState::recompute: fair share from usage, then assign to every
// pending job). BM_Pass: one pass as Controller::schedule runs it after the
// priorities: build the cluster from the running jobs, then sched::schedule
// (order, fit, backfill plan, reasons). BM_PassWithPriority: both, the whole
// work of one pass after an event that makes priorities due.

#include <string>

#include <benchmark/benchmark.h>

#include "sched/priority_state.hpp"
#include "sched/sched.hpp"
#include "workload.hpp"

using namespace stint;

namespace {

void run_priority(bench::Workload& w, sched::PriorityState& state) {
  state.recompute(w.live, w.config, Accounting{}, bench::k_now);
  auto changed = state.assign(w.live, w.eligible, bench::k_now, true);
  benchmark::DoNotOptimize(changed);
}

void run_pass(bench::Workload& w) {
  sched::Cluster cluster(w.config.nodes());
  cluster.take_jobs(w.running);
  sched::Decision d = sched::schedule(w.pending, cluster, w.config, bench::k_now);
  benchmark::DoNotOptimize(d);
}

void BM_Priority(benchmark::State& st) {
  auto w = bench::make_workload(static_cast<std::uint32_t>(st.range(0)), 64);
  sched::PriorityState state;
  state.load({}, {}, k_no_time);
  for (auto _ : st) run_priority(*w, state);
  // Labels, not counters: the CSV reporter (bench/run-all) aborts when
  // benchmarks have different counters.
  st.SetLabel(std::to_string(w->pending.size()) + " pending");
}
BENCHMARK(BM_Priority)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_Pass(benchmark::State& st) {
  auto w = bench::make_workload(static_cast<std::uint32_t>(st.range(0)),
                                static_cast<std::uint32_t>(st.range(1)));
  // Priorities as the pass sees them: computed once, the queue then ordered by them.
  sched::PriorityState state;
  state.load({}, {}, k_no_time);
  run_priority(*w, state);
  for (auto _ : st) run_pass(*w);
  st.SetLabel(std::to_string(w->running.size()) + " running");
}
BENCHMARK(BM_Pass)
    ->ArgsProduct({{1000, 10000, 100000}, {8, 64, 512}})
    ->ArgNames({"pending", "nodes"})
    ->Unit(benchmark::kMillisecond);

void BM_PassWithPriority(benchmark::State& st) {
  auto w = bench::make_workload(static_cast<std::uint32_t>(st.range(0)),
                                static_cast<std::uint32_t>(st.range(1)));
  sched::PriorityState state;
  state.load({}, {}, k_no_time);
  for (auto _ : st) {
    run_priority(*w, state);
    run_pass(*w);
  }
}
BENCHMARK(BM_PassWithPriority)
    ->Args({100000, 64})
    ->ArgNames({"pending", "nodes"})
    ->Unit(benchmark::kMillisecond);

}  // namespace
