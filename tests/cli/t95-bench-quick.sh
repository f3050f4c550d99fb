#!/usr/bin/env bash
# The system benchmarks (bench/system) at their smallest sizes: checks that
# every script still runs against the tools and prints its figures. It
# asserts no timings: CI machines are too noisy for that (bench/RESULTS.md
# has the figures, from bench/run-all).
set -euo pipefail
: "${STINT_BIN:?STINT_BIN must name the folder with the built binaries}"
: "${STINT_SOURCE_DIR:?STINT_SOURCE_DIR must name the source tree}"
export STINT_BIN BENCH_QUICK=1 BENCH_REPS=2 BENCH_RUNS=1
export BENCH_SEQ=8 BENCH_CLIENTS=2 BENCH_ARRAY=20 BENCH_E2E_JOBS=4 BENCH_E2E_ARRAY=8
export BENCH_SCALE=30 BENCH_SCALE_REPS=1 BENCH_ARRAYS="1x20 2x10"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

for script in latency submit start_latency throughput scale arrays state_size; do
  out=$(bash "$STINT_SOURCE_DIR/bench/system/$script.sh") || fail "$script.sh exited with $?"
  results=$(grep -c '^RESULT|' <<<"$out" || true)
  [ "$results" -gt 0 ] || fail "$script.sh printed no RESULT line: $out"
  # Every figure is a number: median, min and max.
  bad=$(grep '^RESULT|' <<<"$out" | awk -F'|' '$3 !~ /^-?[0-9.]+$/ || $4 !~ /^-?[0-9.]+$/ || $5 !~ /^-?[0-9.]+$/')
  [ -z "$bad" ] || fail "$script.sh printed a figure that is not a number: $bad"
done
echo "ok: every system benchmark ran"
