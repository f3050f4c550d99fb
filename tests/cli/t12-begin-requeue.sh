#!/usr/bin/env bash
# --begin holds a job until its time; scontrol requeue brings a running job back
# PENDING with the same id and one more restart, and sacct --duplicates shows
# both attempts.
source "$(dirname "$0")/lib.sh"
default_config

# Read before sbatch: the begin time is sbatch's second + 3, and a slow squeue
# (ASan) could otherwise carry "submitted" into the next second.
submitted=$(date +%s)
later=$(submit --begin=now+3 --wrap 'date +%s > began')
expect_eq "waits for its begin time" "PD BeginTime" "$(squeue -h -j "$later" -o '%t %r')"
wait_for 30 job_ended "$later"
[ "$(cat began)" -ge $((submitted + 2)) ] || fail "began at $(cat began), submitted at $submitted"

set +e
err=$(sbatch --begin=yesterday-ish --wrap true 2>&1)
set -e
expect_contains "bad --begin" "$err" "Invalid --begin specification"

long=$(submit --wrap 'touch running-$SLURM_RESTART_COUNT; sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $long -o %t)\" = R ]"
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
