#!/usr/bin/env bash
# End-to-end throughput, from the first submit until every job has finished
# (squeue empty, then sacct must show them all COMPLETED):
#   - BENCH_E2E_JOBS trivial jobs submitted one by one (default 1000; quick 10);
#   - one array of BENCH_E2E_ARRAY trivial tasks (default 10000; quick 20);
# once on one node of 2 CPUs (the shape of the real Slurm here) and once on the
# large virtual cluster (4 x 64 CPUs). BENCH_RUNS repetitions (default 3).
# BENCH_SHAPES picks the clusters (default "small large").
source "$(dirname "$0")/lib.sh"

JOBS=$(size BENCH_E2E_JOBS 1000 10)
ARRAY=$(size BENCH_E2E_ARRAY 10000 20)
SHAPES=${BENCH_SHAPES:-small large}
LIMIT=${BENCH_E2E_LIMIT:-1800}  # seconds before a run counts as stuck

one_by_one() {
  local i
  for ((i = 0; i < JOBS; i++)); do sbatch -c 1 --wrap true >/dev/null; done
  wait_done "$LIMIT"
}

array() {
  sbatch -c 1 --array=0-$((ARRAY - 1)) --wrap true >/dev/null
  wait_done "$LIMIT"
}

for shape in $SHAPES; do
  jobs_ms=() array_ms=()
  for ((run = 0; run < RUNS; run++)); do
    new_state "jobs-$shape-$run" "$shape"
    jobs_ms+=("$(time_ms one_by_one)")
    expect_count "COMPLETED jobs ($shape)" "$JOBS" "$(count_settled COMPLETED "$JOBS")"
    stop_state "$STINT_STATE_DIR"

    new_state "array-$shape-$run" "$shape"
    array_ms+=("$(time_ms array)")
    expect_count "COMPLETED array tasks ($shape)" "$ARRAY" "$(count_settled COMPLETED "$ARRAY")"
    stop_state "$STINT_STATE_DIR"
  done
  rate "e2e_jobs_$shape" "$JOBS" \
    "$JOBS x sbatch -c 1 --wrap true, then until squeue is empty ($shape cluster)" "${jobs_ms[@]}"
  rate "e2e_array_$shape" "$ARRAY" \
    "sbatch -c 1 --array=0-$((ARRAY - 1)) --wrap true, until squeue is empty ($shape cluster)" \
    "${array_ms[@]}"
done
