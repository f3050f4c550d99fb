#!/usr/bin/env bash
# Large pending arrays: the normal state of a parameter sweep's queue on one
# machine. For each shape of BENCH_ARRAYS, COUNTxTASKS (default "1x20000
# 2x10000 1x1000000 100x10000"; quick "1x200 2x100"), on a fresh large
# cluster whose every CPU a running job holds, so every task stays pending:
#   the submit of each array (sbatch --array=0-(TASKS-1)), squeue (arrays
#   folded, as users see them), sprio, scontrol show job of the first array,
#   the daemon's resident memory and the state directory's size at rest,
#   then scancel of every pending task (once).
# Keys end in the shape: arrays_squeue_1x1000000. The limits (MaxArraySize,
# MaxJobCount) are raised on both sides alike: Slurm counts an array's tasks
# against MaxJobCount at its submit, and so does stint.
# BENCH_SCALE_REPS repetitions of each latency (default 5; quick 2).
BENCH_MAX_ARRAY_SIZE=${BENCH_MAX_ARRAY_SIZE:-1000001}
BENCH_MAX_JOB_COUNT=${BENCH_MAX_JOB_COUNT:-2000000}
BENCH_SLURM_FRESH=1
source "$(dirname "$0")/lib.sh"

SHAPES=$(size BENCH_ARRAYS "1x20000 2x10000 1x1000000 100x10000" "1x200 2x100")
SREPS=$(size BENCH_SCALE_REPS 5 2)

# The state directory at rest: stintd empties its WAL files once writes have
# stopped for a few seconds, and slurmctld writes its state files a little
# after a change. Both are given the same ten seconds at most; stint's end
# sooner when its WAL files are empty.
wait_at_rest() {
  local deadline=$((SECONDS + 10)) f busy
  while [ $SECONDS -lt $deadline ]; do
    busy=0
    if [ "$BENCH_TARGET" = slurm ]; then
      busy=1
    else
      for f in "$STINT_STATE_DIR"/*.db-wal; do
        [ -s "$f" ] && busy=1
      done
    fi
    [ $busy = 0 ] && return 0
    sleep 0.2
  done
}

for shape in $SHAPES; do
  count=${shape%x*}
  tasks=${shape#*x}
  n=$((count * tasks))
  new_state "arrays$shape" large
  blocker=$(sbatch --parsable -N "$BLOCK_NODES" -n "$BLOCK_NODES" -c "$BLOCK_CPUS" --mem=1G \
    --wrap "sleep 100000")
  until [ "$(squeue -h -j "$blocker" -t R -o %i | wc -l)" -eq 1 ]; do sleep 0.05; done
  for ((i = 0; i < count; i++)); do
    time_ms sbatch -c 1 --array=0-$((tasks - 1)) --wrap true
  done | summary "arrays_submit_$shape" ms "sbatch -c 1 --array=0-$((tasks - 1)) --wrap true ($count times)"
  # The loop ran in a pipeline's subshell: the first array's id from the queue.
  first=$(squeue -h -t PD -o %F | sort -n | head -n 1)
  # Counted from the folded lines (the task ids of each), not by unfolding them.
  pending=$(squeue -h -t PD -o %i | awk -F'[][_]' '
    { if (NF < 3) { n++; next }
      m = split($3, parts, ","); for (j = 1; j <= m; j++) {
        sub(/%.*/, "", parts[j]); k = split(parts[j], r, "-"); n += (k == 2 ? r[2] - r[1] + 1 : 1) } }
    END { print n + 0 }')
  expect_count "pending tasks" "$n" "$pending"

  latency "arrays_squeue_$shape" "$SREPS" squeue
  latency "arrays_sprio_$shape" "$SREPS" sprio
  latency "arrays_scontrol_show_job_$shape" "$SREPS" scontrol show job "$first"
  wait_at_rest
  pid=$(stintd_pid)
  awk '/^VmRSS/ { printf "%.1f\n", $2 / 1024 }' "/proc/$pid/status" |
    summary "arrays_rss_$shape" MB "VmRSS of stintd (/proc/PID/status), $count x $tasks pending"
  # Slurm's StateSaveLocation holds its jobs and their scripts; its slurmd
  # spool and its logs are elsewhere, and so are they left out of stint's.
  state_kb=$(du -sk --exclude="$STINT_STATE_DIR/log" --exclude="$STINT_STATE_DIR/spool" \
    "$STINT_STATE_DIR" | cut -f1)
  awk -v kb="$state_kb" 'BEGIN { printf "%.3f\n", kb / 1024 }' |
    summary "arrays_statedir_$shape" MB "du -sk \$STINT_STATE_DIR (log/ and spool/ left out) at rest, $count x $tasks pending"
  # stint.db is slurmctld's state and slurmdbd's database in one: the second
  # figure adds the latter's tables (MariaDB's own files left out).
  accounting_kb=0
  if [ "$BENCH_TARGET" = slurm ]; then
    accounting_kb=$(du -sk "$SLURM_DIR/mysql/slurm_acct_db" | cut -f1)
  fi
  awk -v kb=$((state_kb + accounting_kb)) 'BEGIN { printf "%.3f\n", kb / 1024 }' |
    summary "arrays_state_and_accounting_$shape" MB \
      "the same (Slurm: StateSaveLocation and slurmdbd's slurm_acct_db), $count x $tasks pending"

  cancel_ms=$(time_ms scancel --me -t PENDING)
  echo "$cancel_ms" | summary "arrays_scancel_$shape" ms "scancel --me -t PENDING ($count x $tasks pending)"
  deadline=$((SECONDS + 120))
  until [ -z "$(squeue -h -t PD -o %i | head -n 1)" ]; do
    [ $SECONDS -lt $deadline ] || { echo "FAIL: tasks still pending after scancel" >&2; exit 1; }
    sleep 0.05
  done
  stop_state "$STINT_STATE_DIR"
done
