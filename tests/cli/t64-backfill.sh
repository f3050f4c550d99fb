#!/usr/bin/env bash
# Backfill end to end: a wide job waits for the whole machine behind running
# jobs and has its start reserved; a short narrow job that ends before that
# start runs now, a long narrow one that would delay it waits (squeue --start
# shows the plan); sbatch --test-only answers from the same plan. With
# SchedulerType=sched/builtin nothing passes the wide job.
source "$(dirname "$0")/lib.sh"

config() {
  write_config <<YAML
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 1G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  SchedulerType: $1
  SchedulerParameters: bf_resolution=1
  KillWait: "1"
YAML
}
gate='for i in $(seq 6000); do [ -e go-$SLURM_JOB_ID ] && break; sleep 0.1; done'
is_state() { [ "$(squeue -h -j "$1" -o %T)" = "$2" ]; }

config sched/backfill
# n-1 busy for up to 10 minutes, one CPU of n-2 for up to 5.
long_run=$(submit -N1 -c 2 -t 10 --wrap "$gate")
short_run=$(submit -N1 -c 1 -t 5 --wrap "$gate")
wait_for 30 is_state "$long_run" RUNNING
wait_for 30 is_state "$short_run" RUNNING
wide=$(submit -N2 -c 2 -t 10 --wrap "$gate")
wait_for 10 sh -c "[ \"\$(squeue -h -j $wide -o %r)\" = Resources ]"
# Reserved: when the 10-minute job's limit ends.
planned=$(squeue -h --start -j "$wide" -o %S)
[ "$planned" != N/A ] || fail "the wide job has no expected start: $(squeue --start)"
long_start=$(squeue -h -j "$long_run" -o %S)
gap=$(($(date -d "$planned" +%s) - $(date -d "$long_start" +%s)))
[ "$gap" -ge 599 ] && [ "$gap" -le 601 ] || fail "wide job planned ${gap}s after the long job started"
# A 4-minute job on n-2's free CPU ends before then: it starts now.
fits=$(submit -N1 -c 1 -t 4 --wrap "$gate")
wait_for 30 is_state "$fits" RUNNING
# A 20-minute one would hold n-2 past the reservation: it waits.
delays=$(submit -N1 -c 1 -t 20 --wrap "$gate")
wait_for 10 sh -c "[ \"\$(squeue -h -j $delays -o %r)\" = Priority ]"
expect_eq "the long narrow job waits" PENDING "$(squeue -h -j "$delays" -o %T)"
later=$(squeue -h --start -j "$delays" -o %S)
[ "$(date -d "$later" +%s)" -ge "$(date -d "$planned" +%s)" ] ||
  fail "the long narrow job is planned before the wide one: $(squeue --start)"
expect_contains "squeue --start header" "$(squeue --start)" "START_TIME  NODES SCHEDNODES"
# --test-only: a 1-minute job would start now; a 30-minute one after the wide job.
expect_contains "test-only now" "$(sbatch --test-only -c 1 -t 1 --wrap true 2>&1)" "using 1 processors on nodes n-2"
out=$(sbatch --test-only -N2 -c 2 -t 30 --wrap true 2>&1)
expect_contains "test-only later" "$out" "using 4 processors on nodes n-[1-2]"
when=$(echo "$out" | sed -n 's/.* to start at \([^ ]*\) using.*/\1/p')
[ "$(date -d "$when" +%s)" -gt "$(date -d "$planned" +%s)" ] || fail "test-only start $when is not after $planned"
# The wide job starts once the machine is free, before the long narrow one.
touch "go-$long_run" "go-$short_run" "go-$fits"
wait_for 30 is_state "$wide" RUNNING
expect_eq "long narrow still waits" PENDING "$(squeue -h -j "$delays" -o %T)"
touch "go-$wide" "go-$delays"
wait_for 30 job_ended "$delays"
scancel --me
stint daemon stop >/dev/null

# --- sched/builtin: strict order ---------------------------------------------------
config sched/builtin
long_run=$(submit -N1 -c 2 -t 10 --wrap "$gate")
wait_for 30 is_state "$long_run" RUNNING
wide=$(submit -N2 -c 2 -t 10 --wrap "$gate")
small=$(submit -N1 -c 1 -t 1 --wrap "$gate")
wait_for 10 sh -c "[ \"\$(squeue -h -j $small -o %r)\" = Priority ]"
expect_eq "nothing passes the wide job" PENDING "$(squeue -h -j "$small" -o %T)"
expect_eq "no plan under sched/builtin" N/A "$(squeue -h --start -j "$wide" -o %S)"
