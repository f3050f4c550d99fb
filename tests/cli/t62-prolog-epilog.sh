#!/usr/bin/env bash
# slurm.conf's Prolog= and the file's prolog_bash_scripts / epilog_bash_scripts
# run around each job with Slurm's environment, once per node; their output
# goes to stintd's log. A failing prolog drains the node ("Prolog error") and
# requeues the job held; a failing epilog drains the node; PrologEpilogTimeout
# ends a prolog that hangs.
source "$(dirname "$0")/lib.sh"
# stintd (personal here, started by the first submission) and its stepds keep
# this umask; the jobs below are submitted with others.
umask 022
me=$(id -un)
cat > "$WORK/prolog.sh" <<EOF2
#!/bin/bash
env > "$WORK/prolog-env-\$SLURM_JOB_ID-\$SLURMD_NODENAME"
if [ -e "$WORK/fail-prolog" ]; then echo "prolog says no"; exit 3; fi
if [ -e "$WORK/slow-prolog" ]; then exec sleep 60; fi
exit 0
EOF2
chmod +x "$WORK/prolog.sh"
write_config <<YAML
cluster_name: test
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "2"
  StintRequeueDelay: "1"
  PrologEpilogTimeout: "3"
  Prolog: "$WORK/prolog.sh"
prolog_bash_scripts:
  - "#!/bin/bash\necho 'First prolog script running'"
epilog_bash_scripts:
  - "#!/bin/bash\necho \"epilog for \$SLURM_JOB_ID on \$SLURMD_NODENAME\"\ntouch $WORK/epilog-made-\$SLURM_JOB_ID\n[ ! -e $WORK/fail-epilog ]"
YAML
log() { cat "$STINT_STATE_DIR/log/stintd.log"; }
reason_of() { sinfo -R -h -o '%E|%N'; }

# A two-node job: the prolog runs for each node with Slurm's environment.
j1=$(submit -J pro -N 2 -c 2 --wrap 'echo ran')
wait_for 30 job_ended "$j1"
expect_eq "job with prolog" COMPLETED "$(job_state "$j1")"
for node in n-1 n-2; do
  env_file="$WORK/prolog-env-$j1-$node"
  [ -f "$env_file" ] || fail "no prolog ran for $node"
  e=$(cat "$env_file")
  expect_contains "SLURM_JOB_ID" "$e" "SLURM_JOB_ID=$j1"
  expect_contains "SLURM_JOB_USER" "$e" "SLURM_JOB_USER=$me"
  expect_contains "SLURM_JOB_UID" "$e" "SLURM_JOB_UID=$(id -u)"
  expect_contains "SLURM_JOB_PARTITION" "$e" "SLURM_JOB_PARTITION=debug"
  expect_contains "SLURM_JOB_NAME" "$e" "SLURM_JOB_NAME=pro"
  expect_contains "SLURM_JOB_NODELIST" "$e" "SLURM_JOB_NODELIST=n-[1-2]"
  expect_contains "SLURMD_NODENAME" "$e" "SLURMD_NODENAME=$node"
  expect_contains "context" "$e" "SLURM_SCRIPT_CONTEXT=prolog_slurmd"
done
expect_eq "job output" "ran" "$(cat "slurm-$j1.out")"
wait_for 10 sh -c "grep -q 'First prolog script running' '$STINT_STATE_DIR/log/stintd.log'"
expect_contains "epilog output in the log" "$(log)" "epilog for $j1 on n-2"
expect_eq "nodes stay up" "" "$(reason_of)"

# A failing prolog: the node drains with Slurm's reason, the job is requeued
# held and never ran.
touch "$WORK/fail-prolog"
j2=$(submit -c 2 --wrap 'echo should not run > ran-$SLURM_JOB_ID')
wait_for 30 sh -c "squeue -h -j $j2 -o %r | grep -q 'launch failed requeued held'"
expect_eq "pending" PD "$(squeue -h -j "$j2" -o %t)"
expect_contains "restarted" "$(scontrol show job "$j2")" "Restarts=1"
expect_contains "scontrol reason" "$(scontrol show job "$j2")" "Reason=launch_failed_requeued_held"
expect_eq "drained by the prolog" "Prolog error|n-1" "$(reason_of)"
[ ! -e "ran-$j2" ] || fail "the job ran although its prolog failed"
expect_contains "prolog output in the log" "$(log)" "prolog says no"
expect_contains "failure in the log" "$(log)" "prolog failed on n-1"
# Fixed: the operator resumes the node and releases the job.
rm "$WORK/fail-prolog"
scontrol update NodeName=n-1 State=RESUME
scontrol release "$j2"
wait_for 30 job_ended "$j2"
expect_eq "released job" COMPLETED "$(job_state "$j2")"

# A failing epilog drains the node; the job keeps its own end.
touch "$WORK/fail-epilog"
j3=$(submit -c 2 --wrap true)
wait_for 30 job_ended "$j3"
expect_eq "job with a failing epilog" COMPLETED "$(job_state "$j3")"
wait_for 10 sh -c "sinfo -R -h -o %E | grep -q 'Epilog error'"
rm "$WORK/fail-epilog"
scontrol update NodeName=n-1 State=RESUME

# A prolog that hangs is ended after PrologEpilogTimeout (3 s).
touch "$WORK/slow-prolog"
j4=$(submit -c 2 --wrap true)
wait_for 30 sh -c "squeue -h -j $j4 -o %r | grep -q 'launch failed requeued held'"
expect_contains "timeout in the log" "$(log)" "timed out after 3 s"
rm "$WORK/slow-prolog"
scancel "$j4"

# The submitter's umask is the job's (its output, the files it makes), never
# the epilog's: that runs as stintd's user, root on a shared server, and
# must not leave files anyone may write.
j5=$(umask 000 && submit -c 2 --wrap "touch $WORK/job-made")
wait_for 30 job_ended "$j5"
wait_for 10 test -e "$WORK/epilog-made-$j5"
expect_eq "the task's umask" 666 "$(stat -c %a "$WORK/job-made")"
expect_eq "the output's umask" 666 "$(stat -c %a "slurm-$j5.out")"
expect_eq "the epilog's umask" 644 "$(stat -c %a "$WORK/epilog-made-$j5")"
