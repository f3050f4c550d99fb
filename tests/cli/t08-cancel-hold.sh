#!/usr/bin/env bash
# scancel, hold and release, scontrol update.
source "$(dirname "$0")/lib.sh"
default_config

held=$(submit -H --wrap true)
expect_eq "held" "PD JobHeldUser" "$(squeue -h -j "$held" -o '%t %r')"
scontrol update job "$held" JobName=renamed TimeLimit=10
expect_eq "renamed" renamed "$(squeue -h -j "$held" -o %j)"
expect_eq "time limit" "10:00" "$(squeue -h -j "$held" -o %l)"
scontrol release "$held"
wait_for 30 job_ended "$held"
expect_eq "released job ran" COMPLETED "$(job_state "$held")"

long=$(submit --wrap 'sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $long -o %t)\" = R ]"
scancel "$long"
wait_for 30 job_ended "$long"
expect_contains "cancelled running" "$(job_state "$long")" CANCELLED
grep -q "CANCELLED AT" "slurm-$long.out" || fail "no cancel line in the output"

# Cancelled, and then its stepd is killed while it waits out KillWait (the
# task ignores SIGTERM): the job ends CANCELLED, never requeued as if its node
# had failed.
stubborn=$(submit --requeue --wrap 'trap "" TERM; sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $stubborn -o %t)\" = R ]"
# The oldest such process: the stepd's own child, forked and not yet the
# task, has the same command line for an instant.
stepd=$(pgrep -o -f "stint-stepd $STINT_STATE_DIR/spool/$stubborn/")
[ -n "$stepd" ] || fail "no stepd found for job $stubborn"
scancel "$stubborn"
kill -KILL "$stepd"
wait_for 30 job_ended "$stubborn"
expect_contains "cancelled, its stepd killed" "$(job_state "$stubborn")" CANCELLED
expect_eq "one attempt" 1 "$(sacct -n -X -D -j "$stubborn" -o State | grep -c .)"

pend=$(submit -H --wrap true)
scancel "$pend"
expect_contains "cancelled pending" "$(job_state "$pend")" CANCELLED

# As in Slurm: an ended job is no error, and -v says why nothing happened.
err=$(scancel -v "$pend" 2>&1)
expect_contains "ended job" "$err" "Kill job error on job id $pend: Job/step already completing or completed"

# Filters: -n and -t.
a=$(submit -H -J sweep --wrap true)
b=$(submit -H -J sweep --wrap true)
c=$(submit -H -J other --wrap true)
scancel -n sweep -t PENDING
expect_contains "a" "$(job_state "$a")" CANCELLED
expect_contains "b" "$(job_state "$b")" CANCELLED
expect_eq "c untouched" PD "$(squeue -h -j "$c" -o %t)"
scancel "$c"

# scancel -b -s delivers a signal to the batch shell without cancelling.
trap_job=$(submit --wrap 'trap "echo got USR1; exit 0" USR1; touch ready; for i in $(seq 600); do sleep 0.1; done; exit 1')
wait_for 30 test -e ready
scancel -b -s USR1 "$trap_job"
wait_for 30 job_ended "$trap_job"
expect_eq "signalled job" COMPLETED "$(job_state "$trap_job")"
expect_contains "signal output" "$(cat "slurm-$trap_job.out")" "got USR1"
