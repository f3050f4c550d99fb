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

# A job waiting for its --begin time is expected to start then (scontrol's
# StartTime, EndTime its time limit later), as slurmctld reports it.
noon=$(submit --begin=noon-tomorrow -t 5 --wrap true)
out=$(scontrol show job "$noon")
expect_contains "StartTime at its begin time" "$out" "T12:00:00 EndTime="
expect_contains "EndTime a time limit later" "$out" "T12:05:00 Deadline=N/A"
scancel "$noon"

# --deadline, as slurmctld takes it: a deadline past, or a --time-min past it
# or past -t, is refused with Slurm's words.
sbatch_refused "deadline past" \
  "sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or exceeds some limit)" \
  --deadline 2015-03-27T04:30:00 -t1
sbatch_refused "--time-min past the deadline" \
  "sbatch: error: Batch job submission failed: Invalid time-min specification (exceeds job's time or other limits)" \
  --deadline now+1hour --time-min 120
sbatch_refused "--time-min over -t" \
  "sbatch: error: Batch job submission failed: Invalid time-min specification (exceeds job's time or other limits)" \
  -t 10 --time-min 20
# Without a time limit a deadline implies a minute's --time-min, and the job
# starts with the whole minutes left before its deadline as its limit.
cut=$(submit --deadline now+600 --wrap 'sleep 30')
expect_contains "implied --time-min" "$(scontrol show job "$cut")" "TimeMin=00:01:00"
wait_for 30 sh -c "[ \"\$(squeue -h -j $cut -o %t)\" = R ]"
case "$(squeue -h -j "$cut" -o %l)" in
  9:00 | 10:00) ;;
  *) fail "time limit cut to the deadline: $(squeue -h -j "$cut" -o %l)" ;;
esac
scancel "$cut"
# A job that can no longer end before its deadline ends DEADLINE, reason
# DeadLine, exit code 0:1, once it may start (not while held).
late=$(submit -H -t 2 --deadline now+90 --wrap true)
expect_eq "held, it waits" "PD" "$(squeue -h -j "$late" -o %t)"
scontrol release "$late"
wait_for 30 sh -c "[ \"\$(sacct -n -X -P -o State -j $late)\" = DEADLINE ]"
expect_eq "reason and exit code" "DEADLINE DeadLine 0:1" \
  "$(scontrol show job "$late" | tr ' ' '\n' | grep -E '^(JobState|Reason|ExitCode)=' | cut -d= -f2 | lines)"
expect_eq "squeue" "DL DeadLine (DeadLine)" "$(squeue -h -t all -j "$late" -o '%t %r %R')"
