#!/usr/bin/env bash
# --begin holds a job until its time; scontrol requeue brings a running job back
# PENDING with the same id and one more restart, and sacct --duplicates shows
# both attempts.
source "$(dirname "$0")/lib.sh"
default_config

# The begin time is an hour away, so "pending" is what squeue must say however
# slow sbatch and a first stintd are (ASan on a loaded machine took seconds);
# scontrol then brings it forward, and the job starts at the new time, not before.
later=$(submit --begin=now+1hour --wrap 'date +%s > began')
expect_eq "waits for its begin time" "PD BeginTime" "$(squeue -h -j "$later" -o '%t %r')"
set +e
err=$(scontrol update JobId="$later" StartTime=tomorrow-ish 2>&1)
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "a bad StartTime was taken"
expect_contains "bad StartTime" "$err" "Invalid StartTime specification"
expect_eq "a refused update leaves it waiting" "PD BeginTime" "$(squeue -h -j "$later" -o '%t %r')"
# Read before scontrol: the new time is scontrol's second + 2.
moved=$(date +%s)
scontrol update JobId="$later" StartTime=now+2
wait_for 30 job_ended "$later"
[ "$(cat began)" -ge $((moved + 2)) ] || fail "began at $(cat began), moved to now+2 at $moved"
expect_eq "ran once brought forward" "COMPLETED" "$(sacct -n -X -P -o State -j "$later")"

set +e
err=$(sbatch --begin=yesterday-ish --wrap true 2>&1)
set -e
expect_contains "bad --begin" "$err" "Invalid --begin specification"

long=$(submit --wrap 'touch running-$SLURM_RESTART_COUNT; sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $long -o %t)\" = R ]"
set +e
err=$(scontrol update JobId="$long" StartTime=now+60 2>&1)
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "a running job took a StartTime"
expect_contains "StartTime of a running job" "$err" "Job is no longer pending execution"
scontrol requeue "$long"
wait_for 30 sh -c "[ \"\$(squeue -h -j $long -o %t)\" = PD ]"
expect_eq "same id, pending" "$long PD" "$(squeue -h -j "$long" -o '%i %t')"
expect_contains "restart count" "$(scontrol show job "$long")" "Restarts=1"
expect_eq "attempts" "REQUEUED PENDING" \
  "$(sacct -n -X -P -D -o State -j "$long" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "without --duplicates" "PENDING" "$(sacct -n -X -P -o State -j "$long")"
scancel "$long"

# requeuehold keeps it held.
held=$(submit --wrap 'sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $held -o %t)\" = R ]"
scontrol requeuehold "$held"
wait_for 30 sh -c "[ \"\$(squeue -h -j $held -o %t)\" = PD ]"
expect_contains "requeuehold" "$(squeue -h -j "$held" -o %r)" "JobHeld"
scancel "$held"

# A job that may not be requeued is refused.
fixed=$(submit --no-requeue -H --wrap true)
set +e
scontrol requeue "$fixed" 2>/dev/null
rc=$?
set -e
[ $rc -ne 0 ] || fail "requeue of a --no-requeue job succeeded"
scancel "$fixed"
