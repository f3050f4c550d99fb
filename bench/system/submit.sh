#!/usr/bin/env bash
# Submits per second, each on a fresh state directory (large virtual cluster):
#   - BENCH_SEQ sequential `sbatch -H --wrap true` (default 1000; quick 20);
#   - the same count from BENCH_CLIENTS parallel clients (default 8);
#   - one `sbatch -H --array=0-(BENCH_ARRAY-1)` (default 10000; quick 100): its latency.
# Jobs are submitted held (-H) so the figure is the submit path alone; job
# execution is what throughput.sh measures. BENCH_RUNS repetitions (default 3).
source "$(dirname "$0")/lib.sh"

SEQ=$(size BENCH_SEQ 1000 20)
CLIENTS=$(size BENCH_CLIENTS 8 2)
ARRAY=$(size BENCH_ARRAY 10000 100)

sequential() {
  local i
  for ((i = 0; i < SEQ; i++)); do sbatch -H --wrap true >/dev/null; done
}

parallel() {
  local c i per=$((SEQ / CLIENTS))
  for ((c = 0; c < CLIENTS; c++)); do
    (for ((i = 0; i < per; i++)); do sbatch -H --wrap true >/dev/null; done) &
  done
  wait
}

seq_ms=() par_ms=() arr_ms=()
for ((run = 0; run < RUNS; run++)); do
  new_state "seq$run" large
  seq_ms+=("$(time_ms sequential)")
  expect_count "held jobs after sequential submits" "$SEQ" "$(squeue -h -t PD -o %i | wc -l)"
  stop_state "$STINT_STATE_DIR"

  new_state "par$run" large
  par_ms+=("$(time_ms parallel)")
  expect_count "held jobs after parallel submits" "$(((SEQ / CLIENTS) * CLIENTS))" \
    "$(squeue -h -t PD -o %i | wc -l)"
  stop_state "$STINT_STATE_DIR"

  new_state "arr$run" large
  arr_ms+=("$(time_ms sbatch -H --array=0-$((ARRAY - 1)) --wrap true)")
  expect_count "array tasks" "$ARRAY" "$(squeue -h -r -t PD -o %i | wc -l)"
  stop_state "$STINT_STATE_DIR"
done

rate submit_seq "$SEQ" "$SEQ x sbatch -H --wrap true, one after another" "${seq_ms[@]}"
rate submit_par "$(((SEQ / CLIENTS) * CLIENTS))" \
  "$CLIENTS clients x $((SEQ / CLIENTS)) sbatch -H --wrap true in parallel" "${par_ms[@]}"
printf '%s\n' "${arr_ms[@]}" | summary submit_array ms "sbatch -H --array=0-$((ARRAY - 1)) --wrap true"
