#!/usr/bin/env bash
# Start latency on an idle cluster: from `sbatch` returning to the job's first
# command, which prints bash's own clock ($EPOCHREALTIME, no process spawned).
# BENCH_REPS jobs one at a time (default 30; quick 3), each waited for.
source "$(dirname "$0")/lib.sh"

new_state start large
cat >stamp.sh <<'JOB'
#!/bin/bash
echo "${EPOCHREALTIME/./}"
JOB

for ((i = 0; i < REPS; i++)); do
  id=$(sbatch --parsable -o "stamp-%j.out" stamp.sh)
  t0=$(now_us)
  deadline=$((SECONDS + 30))
  until [ -s "stamp-$id.out" ] && grep -q '^[0-9]' "stamp-$id.out"; do
    [ $SECONDS -lt $deadline ] || { echo "job $id never started" >&2; exit 1; }
    sleep 0.01
  done
  t1=$(head -n 1 "stamp-$id.out")
  awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f\n", d / 1000 }'
  wait_done 30
done | summary start_latency ms "sbatch --parsable stamp.sh (job: echo \$EPOCHREALTIME); t0 when sbatch returns"
