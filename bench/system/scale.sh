#!/usr/bin/env bash
# Scale: with N jobs in the system, for each N of BENCH_SCALE (default
# "5000 20000 100000"; quick "50 200"), on a fresh large cluster whose
# every CPU a running job holds, so the N jobs stay pending (reason
# Resources/Priority) and stintd's passes see them all:
#   squeue -r (one line per pending task), squeue (an array's pending tasks
#   folded into one line, as users see it), sprio, one more sbatch, scontrol
#   show job; stintd's resident memory (VmRSS) and the state directory's size;
#   scancel of the N pending jobs (once); then sacct -j and a listing of the
#   N finished (cancelled) jobs (sacct prints each array's cancelled
#   pending tasks as one line, as Slurm does, so it reads N rows but prints few).
# The N jobs are submitted as arrays of at most 10,000 tasks (a person with
# 100k jobs uses arrays; 100k single sbatch calls would take minutes).
# BENCH_SCALE_REPS repetitions of each latency (default 5; quick 2).
source "$(dirname "$0")/lib.sh"

SIZES=$(size BENCH_SCALE "5000 20000 100000" "50 200")
SREPS=$(size BENCH_SCALE_REPS 5 2)
CHUNK=10000

for n in $SIZES; do
  new_state "scale$n" large
  # Every CPU of the cluster, for longer than the benchmark.
  blocker=$(sbatch --parsable -N "$BLOCK_NODES" -n "$BLOCK_NODES" -c "$BLOCK_CPUS" --mem=1G \
    --wrap "sleep 100000")
  for ((left = n; left > 0; left -= CHUNK)); do
    k=$((left < CHUNK ? left : CHUNK))
    sbatch -c 1 --array=0-$((k - 1)) --wrap true >/dev/null
  done
  until [ "$(squeue -h -j "$blocker" -t R -o %i | wc -l)" -eq 1 ]; do sleep 0.05; done
  expect_count "pending jobs" "$n" "$(squeue -h -r -t PD -o %i | wc -l)"
  last=$(sbatch --parsable -c 1 --wrap true)

  latency "squeue_$n" "$SREPS" squeue -r
  latency "squeue_folded_$n" "$SREPS" squeue
  latency "sprio_$n" "$SREPS" sprio
  latency "sbatch_$n" "$SREPS" sbatch -c 1 --wrap true
  latency "scontrol_show_job_$n" "$SREPS" scontrol show job "$last"
  pid=$(stintd_pid)
  rss=$(awk '/^VmRSS/ { printf "%.1f\n", $2 / 1024 }' "/proc/$pid/status")
  echo "$rss" | summary "rss_$n" MB "VmRSS of stintd (/proc/PID/status) with $n pending"
  du -sk "$STINT_STATE_DIR" | awk '{ printf "%.1f\n", $1 / 1024 }' |
    summary "statedir_$n" MB "du -sk \$STINT_STATE_DIR with $n pending"

  total=$((n + SREPS + 2))  # the N, `last`, the sbatch latency runs and their warm-up
  cancel_ms=$(time_ms scancel --me -t PENDING)
  echo "$cancel_ms" | summary "scancel_$n" ms "scancel --me -t PENDING ($total pending jobs)"
  until [ "$(squeue -h -r -t PD -o %i | wc -l)" -eq 0 ]; do sleep 0.05; done
  # sacct shows an array's tasks cancelled before they started as one line
  # (12_[0-9999]), as Slurm does: it reads every row but prints few.
  expect_count "jobs left pending" 0 "$(squeue -h -r -t PD -o %i | wc -l)"
  latency "sacct_j_$n" "$SREPS" sacct -j "$last"
  latency "sacct_all_$n" "$SREPS" sacct -a -X -S 2000-01-01
  stop_state "$STINT_STATE_DIR"
done
