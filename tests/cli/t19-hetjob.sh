#!/usr/bin/env bash
# Heterogeneous jobs: components from "#SBATCH hetjob" lines or sbatch's ':'
# start together or not at all, the script runs on component 0 with Slurm's
# _HET_GROUP_<n> variables, squeue/sacct/scontrol show "12+1" and the
# HetJob fields, a pending component is cancelled only with its leader, a
# running one alone, and the components end with their leader; srun
# --het-group runs a step in one component.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 3, cpus: 4, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [n], max_time: "1:00:00"}
config:
  KillWait: "1"
  StintRequeueDelay: "1"
YAML

gate="$TEST_ROOT/go"
cat >het.sh <<EOF
#!/bin/sh
#SBATCH -J het -n1 -c1 --mem=100M -t 20
#SBATCH hetjob
#SBATCH -N2 -c2 --mem-per-cpu=50M
echo "size=\$SLURM_HET_SIZE id=\$SLURM_JOB_ID"
echo "g0=\$SLURM_JOB_ID_HET_GROUP_0 g1=\$SLURM_JOB_ID_HET_GROUP_1"
echo "nodes1=\$SLURM_JOB_NUM_NODES_HET_GROUP_1 name1=\$SLURM_JOB_NAME_HET_GROUP_1"
echo "cpus1=\$SLURM_JOB_CPUS_PER_NODE_HET_GROUP_1 mem1=\$SLURM_MEM_PER_CPU_HET_GROUP_1"
echo "mem0=\$SLURM_MEM_PER_NODE_HET_GROUP_0 pack=\$SLURM_PACK_SIZE"
echo "c0=\$SLURM_CPUS_PER_TASK_HET_GROUP_0 c1=\$SLURM_CPUS_PER_TASK_HET_GROUP_1 c=\${SLURM_CPUS_PER_TASK-unset}"
echo "n0=\$SLURM_NTASKS_HET_GROUP_0 n1=\${SLURM_NTASKS_HET_GROUP_1-unset} n=\$SLURM_NTASKS"
echo "aliases=\${SLURM_NODE_ALIASES_HET_GROUP_0-unset}"
while [ ! -e '$gate' ]; do sleep 0.1; done
EOF

# --- Both components start; the script sees both.
out=$(sbatch het.sh)
id=${out##* }
expect_eq "sbatch says the leader" "Submitted batch job $id" "$out"
next=$((id + 1))
both_running() { [ "$(squeue -h -j "$id" -o '%i %t' | sort | lines)" = "$id+0 R $id+1 R" ]; }
wait_for 30 both_running
expect_eq "one component by its id" "$id+1 2" "$(squeue -h -j "$id+1" -o '%i %D')"
expect_eq "%A is the component's own id" "$id $next" "$(squeue -h -j "$id" -o %A | sort -n | lines)"
show=$(scontrol show job "$id+1")
expect_contains "scontrol: ids" "$show" "JobId=$next HetJobId=$id HetJobOffset=1 JobName=het"
expect_contains "scontrol: set" "$show" "HetJobIdSet=$id-$next"
expect_contains "scontrol: started by backfill, as Slurm's" "$show" " Scheduler=Backfill"
expect_eq "scontrol show job of the leader shows both, the leader first" "JobId=$id JobId=$next" \
  "$(scontrol show job "$id" | grep -o '^JobId=[0-9]*' | lines)"
expect_eq "the name propagates, the shape does not" "het 1 2" \
  "$(squeue -h -j "$id+1" -o '%j' | tr -d ' ') $(squeue -h -j "$id+0" -o %D) $(squeue -h -j "$id+1" -o %D)"
wait_for 10 grep -q '^aliases=' "slurm-$id.out"
expect_eq "environment" \
  "size=2 id=$id g0=$id g1=$next nodes1=2 name1=het cpus1=2(x2) mem1=50 mem0=100 pack=2 c0=1 c1=2 c=unset n0=1 n1=unset n=1 aliases=unset" \
  "$(lines <"slurm-$id.out")"
# The components hold different nodes.
n0=$(squeue -h -j "$id+0" -o %N)
n1=$(squeue -h -j "$id+1" -o %N)
[ "$n0" != "$n1" ] || fail "both components on $n0"

# A stintd killed meanwhile finds the components as they were; the leader's
# end, collected by the next one, ends them both.
pid=$(cat "$STINT_STATE_DIR/stintd.lock")
kill -KILL "$pid"
wait_for 10 sh -c "! kill -0 $pid"
touch "$gate"
# (The bracket keeps pgrep from finding the sh -c that runs it.)
wait_for 10 sh -c "! pgrep -f '$STINT_STATE_DIR/spool/$id/scrip[t]' >/dev/null"
stintd --state-dir "$STINT_STATE_DIR"
wait_for 30 job_ended "$id"
wait_for 10 job_ended "$next"
expect_eq "sacct: both end with the leader" "$id+0|COMPLETED $id+1|COMPLETED" \
  "$(sacct -n -X -P -o JobID,State -j "$id" | sort | lines)"
expect_eq "sacct: the leader's batch step only" "$id+0 $id+0.batch $id+1" \
  "$(sacct -n -P -o JobID -j "$id" | sort | lines)"
rm -f "$gate"

# --- All or nothing: component 0 would fit beside the blocker, component 1
# (two whole nodes) not: neither starts until it goes.
blocker=$(submit -N2 --exclusive --wrap 'sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $blocker -o %t)\" = R ]"
cat >small.sh <<EOF
#!/bin/sh
while [ ! -e '$gate' ]; do sleep 0.1; done
EOF
id=$(sbatch --parsable -n1 : -N2 -c1 small.sh)
next=$((id + 1))
pending_pair() { [ "$(squeue -h -j "$id" -o '%i %t %r' | sort | lines)" = "$id+0 PD Resources $id+1 PD Resources" ]; }
# The pass that gave them their reasons would have started component 0.
wait_for 20 pending_pair
# A pending component goes only with its leader.
set +e
err=$(scancel "$id+1" 2>&1)
rc=$?
set -e
expect_eq "scancel of a pending component: exit" 1 "$rc"
expect_eq "scancel of a pending component" \
  "scancel: error: Kill job error on job id $id+1: Operation not permitted on individual component of heterogeneous job" \
  "$err"
expect_eq "still pending" PD "$(squeue -h -j "$id+1" -o %t)"
scancel "$blocker"
wait_for 30 both_running

# --- Requeue goes by the leader: the whole job waits again, then starts whole.
set +e
err=$(scontrol requeue "$id+1" 2>&1)
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "a component was requeued alone"
expect_contains "requeue of a component" "$err" "Job not heterogeneous job leader"
scontrol requeue "$id"
restarted() { scontrol show job "$id+0" | grep -q " Restarts=1 "; }
wait_for 30 restarted
wait_for 30 both_running

# --- A node of a component other than the leader goes DOWN: the whole job
# is requeued (JobRequeue), and starts whole once the node is back.
down=$(scontrol show hostnames "$(squeue -h -j "$id+1" -o %N)" | head -n 1)
scontrol update NodeName="$down" State=DOWN Reason=hetjob-test
requeued_twice() { scontrol show job "$id+0" | grep -q " Restarts=2 "; }
wait_for 30 requeued_twice
expect_eq "the component waits again" PD "$(squeue -h -j "$id+1" -o %t)"
scontrol update NodeName="$down" State=RESUME
wait_for 30 both_running

# --- A running component other than the leader may go alone; the leader
# takes what is left along.
scancel "$id+1"
wait_for 20 job_ended "$next"
expect_contains "component cancelled" "$(job_state "$next")" CANCELLED
expect_eq "leader runs on" R "$(squeue -h -j "$id+0" -o %t)"
scancel "$id"
wait_for 30 job_ended "$id"
expect_contains "leader cancelled" "$(job_state "$id")" CANCELLED

# --- Cancelling the leader's id while pending ends every component.
id=$(sbatch --parsable -H -n1 : -n1 small.sh)
scancel "$id"
expect_eq "pending het job cancelled whole" "CANCELLED CANCELLED" \
  "$(sacct -n -X -P -o State -j "$id" | awk '{print $1}' | lines)"

# --- srun --het-group=N runs a step in component N, with N's task count and
# nodes; sacct records it under "12+1.0". Several groups at once are refused.
cat >steps.sh <<'SH'
#!/bin/sh
#SBATCH -n1 -o steps.out
#SBATCH hetjob
#SBATCH -N2 -n2
srun sh -c 'echo "g0 $SLURM_PROCID/$SLURM_NTASKS $SLURMD_NODENAME"'
srun --het-group=1 sh -c 'echo "g1 $SLURM_PROCID/$SLURM_NTASKS $SLURMD_NODENAME"'
srun --het-group=2 true || echo "group 2: exit $?"
srun --het-group=0-1 true || echo "groups 0-1: exit $?"
srun --het-group=x true || echo "group x: exit $?"
SH
id=$(sbatch --parsable steps.sh)
wait_for 60 job_ended "$id"
out=$(cat steps.out)
expect_eq "component 0's step" "g0 0/1" "$(grep '^g0' steps.out | cut -d' ' -f1-2)"
expect_eq "component 1's step: its two tasks on its two nodes" "g1 0/2 g1 1/2" \
  "$(grep '^g1' steps.out | cut -d' ' -f1-2 | sort | lines)"
expect_eq "on two nodes" 2 "$(grep '^g1' steps.out | cut -d' ' -f3 | sort -u | wc -l)"
expect_contains "no such component" "$out" \
  "srun: error: No directives to start application on any available hetjob components
group 2: exit 1"
expect_contains "several at once" "$out" "srun: error: --het-group=0-1 is not available here"
expect_contains "invalid" "$out" "srun: error: Invalid --het-group value: x
group x: exit 1"
expect_eq "sacct" "$id+0.0|1 $id+1.0|2" \
  "$(sacct -n -P -j "$id" -o JobID,NTasks | grep '\.0|' | lines)"

# --- Refused: an array cannot be heterogeneous.
set +e
err=$(sbatch --array=1-2 -n1 : -n1 small.sh 2>&1)
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "an array het job was accepted"
expect_contains "array refused" "$err" "heterogeneous"
echo "PASS $TEST_NAME"
