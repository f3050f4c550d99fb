#!/usr/bin/env bash
# An array of 6 with %2 never runs more than 2 tasks at once; each task sees its
# own SLURM_ARRAY_TASK_ID and writes its own %A_%a file.
source "$(dirname "$0")/lib.sh"
default_config

cat > task.sh <<'SH'
#!/bin/bash
#SBATCH -J sweep
#SBATCH -o sweep-%A_%a.out
date +%s%N > "t-$SLURM_ARRAY_TASK_ID.start"
echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_JOB_ID count=$SLURM_ARRAY_TASK_COUNT min=$SLURM_ARRAY_TASK_MIN max=$SLURM_ARRAY_TASK_MAX step=$SLURM_ARRAY_TASK_STEP"
sleep 1
date +%s%N > "t-$SLURM_ARRAY_TASK_ID.end"
SH
array=$(submit --array=0-5%2 task.sh)
folded=$(squeue -h -o %i | grep "^${array}_\[" || true)
for t in 0 1 2 3 4 5; do wait_for 60 test -s "t-$t.end"; done
wait_for 30 sh -c "[ -z \"\$(squeue -h -o %i)\" ]"

for t in 0 1 2 3 4 5; do
  expect_eq "task $t output" "task $t of $array count=6 min=0 max=5 step=1" "$(cat "sweep-${array}_$t.out")"
done
# The most tasks that ran at one time, from their own start and end stamps.
most=$(for t in 0 1 2 3 4 5; do echo "$(cat t-$t.start) 1"; echo "$(cat t-$t.end) -1"; done |
       sort -n -k1,1 -k2,2n | awk '{ n += $2; if (n > m) m = n } END { print m }')
[ "$most" -le 2 ] || fail "$most tasks ran at once with %2"
[ "$most" -eq 2 ] || fail "the throttle let only $most task run at a time"
expect_eq "sacct task ids" "${array}_0 ${array}_1 ${array}_2 ${array}_3 ${array}_4 ${array}_5" \
  "$(sacct -n -X -P -o JobID -j "$array" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "all completed" "COMPLETED" "$(sacct -n -X -P -o State -j "$array" | sort -u)"

# Pending tasks fold into one squeue line; -r unfolds them; scancel takes tasks.
held=$(submit -H --array=1-4 --wrap true)
expect_eq "folded" "${held}_[1-4]" "$(squeue -h -j "$held" -o %i)"
expect_eq "unfolded" 4 "$(squeue -h -r -j "$held" -o %i | wc -l)"
scancel "${held}_2"
expect_eq "after cancelling one task" "${held}_[1,3-4]" "$(squeue -h -j "$held" -o %i)"
scancel "${held}_[3-4]"
# The one task left is still the array's record, as Slurm 22.05 prints it.
expect_eq "after cancelling two more" "${held}_[1]" "$(squeue -h -j "$held" -o %i)"
scancel "$held"
expect_eq "whole array cancelled" "" "$(squeue -h -j "$held" -o %i 2>/dev/null || true)"

# Malformed array specs are refused and change nothing.
count() { sqlite3 "$STINT_STATE_DIR/stint.db" 'select count(*) from jobs'; }
before=$(count)
for bad in '' 'x' '5-1' '1-10:0' '1-%2' '0-2000'; do
  set +e
  err=$(sbatch --array="$bad" --wrap true 2>&1)
  rc=$?
  set -e
  [ $rc -ne 0 ] || fail "--array='$bad' accepted"
  expect_contains "--array='$bad'" "$err" "sbatch: error:"
done
expect_eq "jobs after bad arrays" "$before" "$(count)"

# The tasks share the request and spec they were submitted with (kept once
# per array); one task changed alone keeps its change, the others do not
# follow it, and both read the same after a restart of stintd.
shared=$(submit -H --array=0-2 --comment=orig -c 1 --wrap true)
scontrol update JobId="${shared}_1" Comment=changed NumCPUs=2
check_shared() {
  expect_eq "$1: task 1" "changed 2" "$(squeue -h -j "${shared}_1" -o '%k %C')"
  expect_eq "$1: tasks 0 and 2" "orig 1
orig 1" "$(squeue -h -r -j "${shared}_0,${shared}_2" -o '%k %C')"
  expect_contains "$1: scontrol show job, task 1" "$(scontrol show job "${shared}_1")" "NumCPUs=2"
  expect_contains "$1: scontrol show job, task 2" "$(scontrol show job "${shared}_2")" "NumCPUs=1"
}
check_shared "before a restart"
stop_stintd
check_shared "after a restart"
scancel "$shared"

# scontrol reads job id 0 as every job (Slurm's scontrol_print_job): "0_1"
# shows the task 1 of each array.
a=$(submit -H --array=1-2 --wrap true)
b=$(submit -H --array=0-1 --wrap true)
out=$(scontrol -o show job 0_1)
expect_contains "scontrol show job 0_1: first array" "$out" "ArrayJobId=$a ArrayTaskId=1 "
expect_contains "scontrol show job 0_1: second array" "$out" "ArrayJobId=$b ArrayTaskId=1 "
case "$out" in
  *"ArrayJobId=$a ArrayTaskId=2 "* | *"ArrayJobId=$b ArrayTaskId=0 "*) fail "other tasks in: $out" ;;
esac
set +e
out=$(scontrol show job 0_7 2>&1)
rc=$?
set -e
expect_eq "no task 7: exit" 1 "$rc"
expect_eq "no task 7" "Job 0_7 not found" "$out"
scancel "$a" "$b"
