// One binary for every micro-benchmark: `stint_micro_bench --benchmark_filter=...`.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
