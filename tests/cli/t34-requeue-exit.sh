#!/usr/bin/env bash
# SPECIAL_EXIT and the exit codes that requeue a job, as slurmctld has them:
# scontrol requeuehold State=SpecialExit holds a job in SPECIAL_EXIT (a user
# hold its owner releases); RequeueExit puts a batch job whose script exits
# with one of its codes back in the queue, RequeueExitHold the same held in
# SPECIAL_EXIT; `requeue incomplete` leaves the jobs that have ended alone.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: test
node_pools:
  - id: n
    count: 2
    cpus: 4
    memory: 4G
partitions:
  - id: debug
    node_pool_ids: [n]
    max_time: "1:00:00"
config:
  KillWait: "2"
  MinJobAge: "600"
  StintRequeueDelay: "1"
  RequeueExit: "3,10-12"
  RequeueExitHold: "7"
YAML

# An ended job requeued held in SPECIAL_EXIT.
done_job=$(submit --wrap true)
wait_for 30 job_ended "$done_job"
scontrol requeuehold State=SpecialExit "$done_job"
expect_eq "squeue" "SE job requeued in special exit state" "$(squeue -h -j "$done_job" -o '%t %r')"
show=$(scontrol show job "$done_job")
expect_contains "JobState" "$show" "JobState=SPECIAL_EXIT Reason=job_requeued_in_special_exit_state"
expect_contains "held" "$show" "Priority=0 "
expect_eq "sacct, the job" "PENDING" "$(sacct -n -X -P -o State -j "$done_job")"
scontrol release "$done_job"
wait_for 30 sh -c "[ \"\$(scontrol show job $done_job | grep -o 'Priority=[0-9]*')\" != Priority=0 ]"
expect_contains "released" "$(scontrol show job "$done_job")" "JobState="
[ "$(squeue -h -j "$done_job" -o %t)" != SE ] || fail "still SPECIAL_EXIT after release"
scancel "$done_job"

# The flag word is checked: State= takes SpecialExit (or SE) only.
set +e
err=$(scontrol requeuehold State=Bogus 1 2>&1)
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "requeuehold State=Bogus succeeded"

# requeue incomplete: an ended job is left as it is, without an error.
scontrol requeue incomplete "$done_job" 2>/dev/null || true
ended=$(submit --wrap true)
wait_for 30 job_ended "$ended"
scontrol requeue incomplete "$ended"
expect_eq "incomplete leaves an ended job" "COMPLETED" "$(sacct -n -X -P -o State -j "$ended")"

# RequeueExit: exit 3 goes back to the queue (one more restart, the attempt
# REQUEUED); the second run exits 0 and the job completes.
again=$(submit -o /dev/null --wrap 'if [ "${SLURM_RESTART_COUNT:-0}" = 0 ]; then exit 3; fi; exit 0')
wait_for 60 sh -c "[ \"\$(sacct -n -X -P -o State -j $again)\" = COMPLETED ]"
expect_eq "attempts" "REQUEUED COMPLETED" "$(sacct -n -X -P -D -o State -j "$again" | lines)"
expect_contains "restarted once" "$(scontrol show job "$again")" "Restarts=1"

# A code not listed ends the job as usual.
plain=$(submit -o /dev/null --wrap 'exit 4')
wait_for 30 job_ended "$plain"
expect_eq "exit 4 fails" "FAILED 4:0" "$(sacct -n -X -P -o State,ExitCode -j "$plain" | tr '|' ' ')"

# RequeueExitHold: exit 7 is held in SPECIAL_EXIT.
held=$(submit -o /dev/null --wrap 'exit 7')
wait_for 30 sh -c "[ \"\$(squeue -h -j $held -o %t)\" = SE ]"
expect_eq "held in SPECIAL_EXIT" "SE 0" "$(squeue -h -j "$held" -o '%t %Q')"
scancel "$held"

# A list that is not exit codes is refused when the configuration is read.
set +e
err=$(sed -i 's/RequeueExit: "3,10-12"/RequeueExit: "3,x"/' "$STINT_STATE_DIR/stint.yaml" && scontrol reconfigure 2>&1)
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "RequeueExit=3,x was taken"
expect_contains "bad RequeueExit" "$err" "RequeueExit"
