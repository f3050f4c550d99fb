// Slurm's little languages on the paths every tool takes: time limits
// (sbatch -t), hostlists both ways (NODELIST columns, -w).

#include <benchmark/benchmark.h>

#include <stint/parse.hpp>

using namespace stint;

namespace {

void BM_TimeLimit(benchmark::State& st) {
  static const char* const k_texts[] = {"30",         "1:30:00",   "2-12",
                                        "2-12:30:15", "UNLIMITED", "10:00"};
  std::size_t i = 0;
  for (auto _ : st) {
    Seconds s = parse::time_limit(k_texts[i++ % std::size(k_texts)]);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_TimeLimit);

void BM_ExpandHostlist(benchmark::State& st) {
  const std::string text = "n-[1-" + std::to_string(st.range(0)) + "],login[01-04,7]";
  for (auto _ : st) {
    auto hosts = parse::expand_hostlist(text);
    benchmark::DoNotOptimize(hosts);
  }
}
BENCHMARK(BM_ExpandHostlist)->Arg(8)->Arg(512)->ArgName("nodes");

void BM_CompressHostlist(benchmark::State& st) {
  std::vector<std::string> hosts;
  for (int i = 1; i <= st.range(0); ++i)
    if (i % 7 != 0) hosts.push_back("n-" + std::to_string(i));  // gaps make several ranges
  for (auto _ : st) {
    auto text = parse::compress_hostlist(hosts);
    benchmark::DoNotOptimize(text);
  }
}
BENCHMARK(BM_CompressHostlist)->Arg(8)->Arg(512)->ArgName("nodes");

}  // namespace
