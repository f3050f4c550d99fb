#!/usr/bin/env bash
# scontrol update NodeName= State=DRAIN|DOWN|RESUME and PartitionName= State=:
# a drained node keeps its running job (drng) and takes no new one (drain
# once empty); sinfo -R and scontrol show node give the reason, who and when;
# DOWN requeues a running job (NODE_FAIL without requeue); the states survive
# a restart of stintd; bad input changes nothing.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: a, count: 1, cpus: 4, memory: 4G}
  - {id: b, count: 1, cpus: 4, memory: 4G}
partitions:
  - {id: all, node_pool_ids: [a, b]}
  - {id: small, node_pool_ids: [a]}
config:
  KillWait: "2"
  StintRequeueDelay: "1"
YAML
me=$(id -un)
gate='for i in $(seq 600); do [ -e go-$SLURM_JOB_ID ] && break; sleep 0.1; done; echo done'
running() { [ "$(squeue -h -j "$1" -o %t)" = R ]; }
node_state() { sinfo -h -N -p all -o '%N %t' | awk -v n="$1" '$1 == n {print $2}'; }

# Bad input: a clear message, a non-zero exit, nothing changed.
set +e
out=$(scontrol update NodeName=a-1 State=DRAIN 2>&1); rc=$?
set -e
[ $rc -ne 0 ] || fail "DRAIN without a reason was accepted"
expect_contains "reason required" "$out" "You must specify a reason when DOWNING or DRAINING a node"
set +e
out=$(scontrol update NodeName=zz-9 State=DRAIN Reason=x 2>&1); rc=$?
set -e
[ $rc -ne 0 ] || fail "an unknown node was accepted"
expect_contains "unknown node" "$out" "slurm_update error: Invalid node name specified"
set +e
out=$(scontrol update NodeName=a-1 State=bogus 2>&1); rc=$?
set -e
[ $rc -ne 0 ] || fail "a bogus state was accepted"
expect_contains "bogus state" "$out" "Valid states are: NoResp DRAIN FAIL FUTURE RESUME"
set +e
out=$(scontrol update NodeName=a-1 State=RESUME 2>&1); rc=$?
set -e
[ $rc -ne 0 ] || fail "RESUME of an idle node was accepted"
expect_eq "still idle" idle "$(node_state a-1)"
expect_eq "no reasons" "REASON               USER      TIMESTAMP           NODELIST" "$(sinfo -R)"

# DRAIN with a job running: it keeps running (drng), no new job starts there.
j1=$(submit -p all -c 4 --wrap "$gate")
wait_for 30 running "$j1"
expect_eq "first job on a-1" a-1 "$(squeue -h -j "$j1" -o %N)"
scontrol update NodeName=a-1 State=DRAIN Reason='maintenance test'
expect_eq "draining" drng "$(node_state a-1)"
j2=$(submit -p all -c 4 --wrap "$gate")
wait_for 30 running "$j2"
expect_eq "second job goes to b-1" b-1 "$(squeue -h -j "$j2" -o %N)"
j3=$(submit -p small -c 1 --wrap true)
wait_for 10 sh -c "squeue -h -j $j3 -o %r | grep -q 'Nodes required for job are DOWN, DRAINED'"
expect_contains "scontrol reason" "$(scontrol show job "$j3")" \
  "Reason=Nodes_required_for_job_are_DOWN,_DRAINED_or_reserved_for_jobs_in_higher_priority_partitions"
expect_eq "first job still runs" RUNNING "$(job_state "$j1")"
touch "go-$j1"
wait_for 30 job_ended "$j1"
expect_eq "drained job completed" COMPLETED "$(job_state "$j1")"
expect_eq "drained when empty" drain "$(node_state a-1)"
# -t matches the base state under the DRAIN flag, as Slurm's sinfo does.
expect_eq "a drained node is idle to -t" "a-1" "$(sinfo -h -N -t idle -n a-1 -o %N | sort -u)"
expect_eq "and drained" "a-1" "$(sinfo -h -N -t drained -n a-1 -o %N | sort -u)"
expect_eq "still pending" PD "$(squeue -h -j "$j3" -o %t)"

reasons=$(sinfo -R -h)
expect_contains "sinfo -R reason" "$reasons" "maintenance test"
expect_contains "sinfo -R user" "$reasons" " $me "
expect_contains "sinfo -R node" "$reasons" "a-1"
[[ "$reasons" =~ [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2} ]] || fail "no timestamp: $reasons"
node=$(scontrol show node a-1)
expect_contains "scontrol state" "$node" "State=IDLE+DRAIN "
expect_contains "scontrol reason" "$node" "Reason=maintenance test [$me@"
expect_contains "sinfo -N -l reason" "$(sinfo -N -l -p small)" "maintenance test"

# The state survives a restart of stintd.
pid=$(cat "$STINT_STATE_DIR/stintd.lock")
kill -TERM "$pid"
wait_for 10 sh -c "! kill -0 $pid"
expect_eq "drained while stintd is down" drain "$(node_state a-1)"
sbatch --wrap true >/dev/null  # starts stintd again
expect_eq "drained after restart" drain "$(node_state a-1)"
expect_eq "still pending after restart" PD "$(squeue -h -j "$j3" -o %t)"

# RESUME: the pending job starts.
scontrol update NodeName=a-1 State=RESUME
wait_for 30 job_ended "$j3"
expect_eq "ran after resume" COMPLETED "$(job_state "$j3")"
expect_eq "no reasons after resume" "" "$(sinfo -R -h)"

# DOWN requeues the running job (it may be requeued); its attempt is NODE_FAIL.
scontrol update NodeName=b-1 State=DOWN Reason=broken
expect_eq "down" down "$(node_state b-1)"
# A node-fail requeue may start again at once on the node that is up: the
# restart count, not a PENDING state a poll could miss, says it was requeued.
wait_for 30 sh -c "scontrol show job $j2 | grep -q Restarts=1"
wait_for 30 running "$j2"
expect_eq "requeued job runs on the node that is up" a-1 "$(squeue -h -j "$j2" -o %N)"
expect_eq "attempts" "NODE_FAIL RUNNING" \
  "$(sacct -n -X -P -D -o State -j "$j2" | tr '\n' ' ' | sed 's/ $//')"
touch "go-$j2"
wait_for 30 job_ended "$j2"

# Without requeue, a job on a node going DOWN ends NODE_FAIL.
scontrol update NodeName=b-1 State=RESUME
j4=$(submit -p all -c 4 --no-requeue --wrap "$gate")
j5=$(submit -p all -c 4 --no-requeue --wrap "$gate")
wait_for 30 running "$j4"
wait_for 30 running "$j5"
on_b=$j5
[ "$(squeue -h -j "$j4" -o %N)" = b-1 ] && on_b=$j4
scontrol update NodeName=b-1 State=DOWN Reason=again
wait_for 30 job_ended "$on_b"
expect_eq "no requeue: NODE_FAIL" NODE_FAIL "$(job_state "$on_b")"
# Its batch step was killed: CANCELLED, as slurmdbd records it.
expect_eq "batch step of a node failure" "NODE_FAIL CANCELLED" \
  "$(sacct -n -P -o State -j "$on_b" | lines)"
scontrol update NodeName=b-1 State=RESUME
touch go-$j4 go-$j5

# Partition state: DOWN keeps jobs pending (PartitionDown), UP lets them run.
scontrol update PartitionName=small State=DOWN MaxTime=30:00
expect_eq "sinfo avail" "down" "$(sinfo -h -p small -o %a)"
expect_contains "show partition" "$(scontrol show partition small)" "MaxTime=00:30:00"
expect_contains "show partition" "$(scontrol show partition small)" "State=DOWN"
j6=$(submit -p small -t 10 --wrap true)
wait_for 10 sh -c "[ \"\$(squeue -h -j $j6 -o %r)\" = PartitionDown ]"
set +e
out=$(scontrol update PartitionName=small State=sideways 2>&1); rc=$?
set -e
[ $rc -ne 0 ] || fail "a bad partition state was accepted"
expect_contains "bad partition state" "$out" "State=sideways"
set +e
out=$(scontrol update PartitionName=nope State=UP 2>&1); rc=$?
set -e
[ $rc -ne 0 ] || fail "an unknown partition was accepted"
expect_contains "unknown partition" "$out" "Invalid partition name specified"
scontrol update PartitionName=small State=UP
wait_for 30 job_ended "$j6"
expect_eq "ran after partition up" COMPLETED "$(job_state "$j6")"
expect_contains "override kept" "$(scontrol show partition small)" "MaxTime=00:30:00"
grep -q "node a-1 set DRAIN by $me" "$STINT_STATE_DIR/log/stintd.log" || fail "no log line for the drain"

# DRAIN: the partition queues no new job but runs the ones it has.
scontrol update PartitionName=small State=DOWN
j7=$(submit -p small -t 10 --wrap true)
scontrol update PartitionName=small State=DRAIN
set +e
out=$(sbatch -p small -t 10 --wrap true 2>&1); rc=$?
set -e
[ $rc -ne 0 ] || fail "a drained partition queued a new job"
expect_contains "drained partition" "$out" \
  "Batch job submission failed: Required partition not available (inactive or drain)"
wait_for 30 job_ended "$j7"
expect_eq "queued job of a drained partition" COMPLETED "$(job_state "$j7")"
scontrol update PartitionName=small State=UP

# Reason= alone rewords the reason of a drained node; of an up node it is refused.
scontrol update NodeName=a-1 State=DRAIN Reason=first
scontrol update NodeName=a-1 Reason=second
expect_eq "reworded" "second drained" "$(sinfo -R -h -o '%E %T' | head -n 1 | awk '{print $1, $2}')"
set +e
out=$(scontrol update NodeName=b-1 Reason=nothing 2>&1); rc=$?
set -e
[ $rc -ne 0 ] || fail "a reason for an up node was accepted"
expect_contains "reason of an up node" "$out" "Invalid node state specified"
scontrol update NodeName=a-1 State=UNDRAIN
expect_eq "undrained" idle "$(node_state a-1)"
# State=IDLE of a node that is up leaves it so (Slurm clears DOWN and DRAIN
# with it and has nothing to clear here); RESUME of one is refused.
scontrol update NodeName=a-1 State=IDLE || fail "State=IDLE of an idle node refused"
expect_eq "still idle" idle "$(node_state a-1)"

# DRAIN is a flag a DOWN node keeps (and DOWN keeps a drain): both at once
# read as drained, match -t down and -t drain but not -t idle, scontrol says
# DOWN+DRAIN; UNDRAIN leaves it DOWN, RESUME clears both.
scontrol update NodeName=a-1 State=DOWN Reason=dead
scontrol update NodeName=a-1 State=DRAIN Reason=dead
expect_eq "down and drained" drain "$(node_state a-1)"
expect_contains "scontrol DOWN+DRAIN" "$(scontrol show node a-1)" "State=DOWN+DRAIN "
expect_eq "-t down" a-1 "$(sinfo -h -N -t down -n a-1 -o %N | sort -u)"
expect_eq "-t drain" a-1 "$(sinfo -h -N -t drain -n a-1 -o %N | sort -u)"
expect_eq "-t down&drain" a-1 "$(sinfo -h -N -t 'down&drain' -n a-1 -o %N | sort -u)"
expect_eq "not -t idle" "" "$(sinfo -h -N -t idle -n a-1 -o %N | sort -u)"
expect_eq "sinfo long state" drained "$(sinfo -h -N -n a-1 -o %T | sort -u)"
scontrol update NodeName=a-1 State=UNDRAIN
expect_eq "undrained, still down" down "$(node_state a-1)"
scontrol update NodeName=a-1 State=DRAIN Reason=dead
stop_stintd
sbatch --wrap true >/dev/null  # starts stintd again, from the store
expect_contains "kept after a restart" "$(scontrol show node a-1)" "State=DOWN+DRAIN "
scontrol update NodeName=a-1 State=RESUME
expect_eq "resumed" idle "$(node_state a-1)"

# Features: scontrol update NodeName= AvailableFeatures= (ActiveFeatures the
# same list, as without a node features plugin) sets a node's; a job asking
# for them (-C) runs there; they last across a restart of stintd and a
# reconfigure reads every node's from the file again, as slurmctld does.
sbatch_refused "no node has it yet" \
  "sbatch: error: Batch job submission failed: Invalid feature specification" -p all -C fast
scontrol update node=b-1 AvailableFeatures=fast,ib ActiveFeatures=fast,ib
expect_eq "sinfo features" "fast,ib" "$(sinfo -h -N -n b-1 -o %f | sort -u)"
expect_contains "scontrol features" "$(scontrol show node b-1)" "AvailableFeatures=fast,ib"
f=$(submit -p all -C fast --wrap 'echo $SLURMD_NODENAME')
wait_for 30 job_ended "$f"
expect_eq "ran on the node with it" b-1 "$(sacct -n -X -P -o NodeList -j "$f")"
command_refused "active not the available" \
  "slurm_update error: Active features not subset of available features (here they are the same list: give ActiveFeatures=x or leave it out)" \
  scontrol update NodeName=b-1 AvailableFeatures=x ActiveFeatures=y
expect_eq "refused changes nothing" "fast,ib" "$(sinfo -h -N -n b-1 -o %f | sort -u)"
stop_stintd
sbatch --wrap true >/dev/null  # starts stintd again, from the store
expect_eq "kept after a restart" "fast,ib" "$(sinfo -h -N -n b-1 -o %f | sort -u)"
scontrol reconfigure
expect_eq "dropped by a reconfigure" "(null)" "$(sinfo -h -N -n b-1 -o %f | sort -u)"
