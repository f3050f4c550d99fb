#!/usr/bin/env bash
# The read side of arrays and dependencies: squeue folds an array's pending
# tasks (28_[1-4%2]) and -r unfolds them; %A %F %K; -j takes 28 and 28_3;
# scontrol show job names the array and the dependency's state; scontrol takes
# task ids and ranges for hold, release, update and top; sacct prints 28_3 and
# 28_3.batch, with --units, --delimiter and --json.
source "$(dirname "$0")/lib.sh"
default_config

a=$(submit -H -J arr --mem=2G --array=1-4%2 --wrap 'sleep 0.2')
expect_eq "folded" "${a}_[1-4%2]" "$(squeue -h -j "$a" -o %i)"
expect_eq "folded ids" "$a $a 1-4%2" "$(squeue -h -j "$a" -o '%A %F %K')"
expect_eq "unfolded" "${a}_1|$a|1 ${a}_2|$a|2 ${a}_3|$a|3 ${a}_4|$a|4" \
  "$(squeue -h -r -j "$a" -o '%i|%F|%K' | tr '\n' ' ' | sed 's/ $//')"
expect_eq "one task" "${a}_3 3" "$(squeue -h -j "${a}_3" -o '%i %K')"
expect_eq "a task range" "${a}_2 ${a}_3" \
  "$(squeue -h -r -j "${a}_[2-3]" -o %i | tr '\n' ' ' | sed 's/ $//')"

expect_eq "scontrol first line" \
  "JobId=$a ArrayJobId=$a ArrayTaskId=1-4%2 ArrayTaskThrottle=2 JobName=arr" \
  "$(scontrol show job "$a" | head -n 1)"
# A task that has never started is still part of the array's record in
# slurmctld (not split off yet): its JobId is the array's.
expect_eq "scontrol one task" \
  "JobId=$a ArrayJobId=$a ArrayTaskId=2 ArrayTaskThrottle=2 JobName=arr" \
  "$(scontrol show job "${a}_2" | head -n 1)"

# A lone task still in its array's record prints as that record, 12_[5], in
# a listing (squeue, sacct) while it waits; named (12_5) it prints as itself.
lone=$(submit --begin=now+1hour --array=5 --wrap true)
expect_eq "squeue lone record" "${lone}_[5]" "$(squeue -h -j "$lone" -o %i)"
expect_eq "squeue named task" "${lone}_5" "$(squeue -h -j "${lone}_5" -o %i)"
expect_eq "sacct lone record" "${lone}_[5]" "$(sacct -n -X -P -o JobID -j "$lone")"
scancel "$lone"

# A task changed on its own leaves the array's record, as slurmctld splits it
# off: its own line and its own JobId (the next one); the others stay in the
# record.
split=$(submit --begin=now+1hour --array=0-3 -t 1 --wrap true)
scontrol update JobId="${split}_2" TimeLimit=2
expect_eq "split off" "${split}_2 ${split}_[0-1,3]" "$(squeue -h -j "$split" -o %i | sort | lines)"
expect_eq "its own JobId" "JobId=$((split + 1))" "$(scontrol show job "${split}_2" | head -n 1 | cut -d' ' -f1)"
expect_eq "a task by its own id" "${split}_2" "$(squeue -h -j $((split + 1)) -o %i)"
expect_eq "the record's" "JobId=$split" "$(scontrol show job "${split}_1" | head -n 1 | cut -d' ' -f1)"
scancel "$split"

# Update and hold take task ids; the throttle shows in the folded id.
scontrol update JobId="$a" ArrayTaskThrottle=3
expect_eq "new throttle" "${a}_[1-4%3]" "$(squeue -h -j "$a" -o %i)"
scontrol release "${a}_[3-4]"
for t in 3 4; do wait_for 60 job_ended "${a}_$t"; done
expect_eq "the held rest" "${a}_[1-2%3]" "$(squeue -h -j "$a" -o %i)"

# A dependency on the whole array.
d=$(submit -d "afterok:$a" -J dep --wrap true)
# The reason is stintd's to set on its next pass, not sbatch's.
dependency_reason_set() { [[ $(squeue -h -j "$d" -o %r) == Dependency ]]; }
wait_for 30 dependency_reason_set
expect_eq "squeue dependency" "Dependency afterok:${a}_*(unfulfilled)" \
  "$(squeue -h -j "$d" -o '%r %E')"
expect_contains "scontrol dependency" "$(scontrol show job "$d")" \
  "Dependency=afterok:${a}_*(unfulfilled)"

scontrol release "$a"
for t in 1 2; do wait_for 60 job_ended "${a}_$t"; done
wait_for 60 job_ended "$d"
# Each task took a job id of its own as it left the record (released alone,
# or started), the last one the record's, as in Slurm.
raw=$(sacct -n -X -P -o JobID,JobIDRaw -j "$a")
expect_eq "sacct tasks" "${a}_1 ${a}_2 ${a}_3 ${a}_4" "$(cut -d'|' -f1 <<<"$raw" | sort | lines)"
expect_eq "the last task's id is the array's" "${a}_2|$a" "$(grep "^${a}_2|" <<<"$raw")"
expect_eq "ids of their own" 4 "$(cut -d'|' -f2 <<<"$raw" | sort -u | wc -l)"
expect_eq "sacct one task and its step" "${a}_3 ${a}_3.batch" \
  "$(sacct -n -P -o JobID -j "${a}_3" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "sacct delimiter" "${a}_1;COMPLETED;" \
  "$(sacct -n -X -p --delimiter=';' -o JobID,State -j "${a}_1")"
expect_eq "sacct units" "${a}_1|2048M" "$(sacct -n -X -P --units=M -o JobID,ReqMem -j "${a}_1")"
expect_eq "dependent job ran" COMPLETED "$(job_state "$d")"
expect_eq "its dependency is met" "(null)" \
  "$(scontrol show job "$d" | grep -o 'Dependency=[^ ]*' | cut -d= -f2)"
json=$(sacct --json -j "${a}_2")
expect_contains "sacct --json task" "$json" "\"task_id\": 2"
expect_contains "sacct --json array" "$json" "\"job_id\": $a"
set +e
err=$(sacct --units=X -j "$a" 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "sacct --units=X accepted"
expect_contains "bad unit" "$err" "sacct: fatal: Invalid unit type"
set +e
err=$(sacct -j "${a}_x" 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "sacct -j ${a}_x accepted"
expect_eq "bad job id" "sacct: fatal: Bad job/step specified: ${a}_x" "$err"

# An array cancelled before any task ran is one line, cancelled by the caller.
c=$(submit -H --array=0-2 --wrap true)
scancel "$c"
wait_for 30 job_ended "${c}_0"
expect_eq "cancelled array" "${c}_[0-2]|CANCELLED by $(id -u)" \
  "$(sacct -n -X -P -o JobID,State -j "$c")"

# top puts one of the caller's pending jobs ahead of their others.
gate=$(submit -H --wrap true)
p1=$(submit -d "afterok:$gate" --wrap true)
p2=$(submit -d "afterok:$gate" --wrap true)
scontrol top "$p2"
[ "$(squeue -h -j "$p2" -o %Q)" -gt "$(squeue -h -j "$p1" -o %Q)" ] ||
  fail "top: $p2 has priority $(squeue -h -j "$p2" -o %Q), $p1 has $(squeue -h -j "$p1" -o %Q)"
# A list is ordered, the first highest.
p3=$(submit -d "afterok:$gate" --wrap true)
scontrol top "$p3,$p1"
prio() { squeue -h -j "$1" -o %Q; }
[ "$(prio "$p3")" -gt "$(prio "$p1")" ] && [ "$(prio "$p1")" -gt "$(prio "$p2")" ] ||
  fail "top $p3,$p1: priorities $(prio "$p3"), $(prio "$p1"), then $p2 $(prio "$p2")"
scancel "$gate" "$p1" "$p2" "$p3"

# Unknown jobs are refused with Slurm's words.
set +e
err=$(scontrol requeue 999999 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "requeue of an unknown job succeeded"
expect_eq "requeue unknown" "Invalid job id specified for job 999999" "$err"
set +e
err=$(scontrol top 999999 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "top of an unknown job succeeded"
expect_contains "top unknown" "$err" "slurm_top_job error: "
