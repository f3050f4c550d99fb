#!/usr/bin/env bash
# Latency of one invocation of each tool, stintd warm, on a small queue (the
# large virtual cluster, a few held jobs and a few finished ones):
# sbatch --wrap true, squeue, sinfo, sprio, sacct -j N, scontrol show job N.
# BENCH_REPS repetitions each (default 30; quick 3).
source "$(dirname "$0")/lib.sh"

new_state latency large
# A small queue: 20 pending (held) jobs and 20 finished ones.
for _ in $(seq 20); do sbatch --parsable --wrap true >/dev/null; done
for _ in $(seq 20); do held=$(sbatch --parsable -H --wrap true); done
wait_for_running() { [ "$(squeue -h -t R,CG -o %i | wc -l)" -eq 0 ]; }
until wait_for_running; do sleep 0.05; done
deadline=$((SECONDS + 60))  # a real Slurm's accounting lags behind its queue
until job=$(sacct -n -X -P -o JobID -s COMPLETED -S "$BENCH_SINCE" | head -n 1); [ -n "$job" ]; do
  [ $SECONDS -lt $deadline ] || break
  sleep 0.5
done
expect_count "a finished job" 1 "$(echo "$job" | grep -c .)"

# Each submitted job runs (a trivial script), as a user's would.
latency sbatch_wrap "$REPS" sbatch --wrap true
latency squeue "$REPS" squeue
latency sinfo "$REPS" sinfo
latency sprio "$REPS" sprio
latency sacct_j "$REPS" sacct -j "$job"
latency scontrol_show_job "$REPS" scontrol show job "$held"
