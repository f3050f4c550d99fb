#!/usr/bin/env bash
# Places where stint once differed from a real Slurm 22.05 on the same
# scenario (slurm-reference/transcripts, Slurm's source): each asserts what
# Slurm prints. The default memory stays per CPU; a batch job's environment;
# a requeued job's output; requeue of a pending job; scancel of an unknown job
# and --interactive from a pipe; who cancelled; the reason of a job whose
# nodes a higher tier waits for; a script killed by a signal; scontrol's
# messages; sacct's ReqMem. (sacctmgr's commit question read from a pipe is
# in t40.)
source "$(dirname "$0")/lib.sh"

write_config <<'YAML'
cluster_name: parity
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: cpu, node_pool_ids: [n], priority_tier: 1}
  - {id: high, node_pool_ids: [n], priority_tier: 10}
default_partition_id: cpu
config:
  DefMemPerCPU: "256"
  KillWait: "1"
  StintRequeueDelay: "1"
YAML
me=$(id -u)
state() { squeue -h -j "$1" -o %t; }
running() { [ "$(state "$1")" = R ]; }
# stdout and stderr of a command that must fail with exit status $1.
fails_with() {
  local want=$1
  shift
  set +e
  out=$("$@" 2>&1)
  local rc=$?
  set -e
  expect_eq "exit status of $*" "$want" "$rc"
}

# --- 1, 2: the default memory per CPU, and the batch environment ------------
plain=$(submit -J envdump -o 'env-%j.out' --wrap 'echo "pid=$$"; env | sort')
tasks=$(submit -n 2 -o 'env-%j.out' --wrap 'env | sort')
wait_for 30 job_ended "$plain"
wait_for 30 job_ended "$tasks"
env_of() { grep "^$2=" "env-$1.out" | head -n 1 | cut -d= -f2-; }
expect_eq "SLURM_MEM_PER_CPU" 256 "$(env_of "$plain" SLURM_MEM_PER_CPU)"
expect_eq "no SLURM_MEM_PER_NODE" "" "$(env_of "$plain" SLURM_MEM_PER_NODE)"
expect_contains "MinMemoryCPU" "$(scontrol show job "$plain")" "MinMemoryCPU=256M "
expect_eq "sacct ReqMem of the default" 256M "$(sacct -n -X -P -o ReqMem -j "$plain")"
expect_eq "SLURM_NODE_ALIASES" "(null)" "$(env_of "$plain" SLURM_NODE_ALIASES)"
expect_eq "SLURM_TASK_PID is the script's pid" "$(env_of "$plain" pid)" \
  "$(env_of "$plain" SLURM_TASK_PID)"
expect_eq "SLURM_WORKING_CLUSTER" "parity:127.0.0.1:6817:9728:109" \
  "$(env_of "$plain" SLURM_WORKING_CLUSTER)"
conf=$(env_of "$plain" SLURM_CONF)
expect_eq "SLURM_CONF" "$STINT_STATE_DIR/slurm.conf" "$conf"
expect_contains "slurm.conf names the cluster" "$(cat "$conf")" "ClusterName=parity"
expect_contains "slurm.conf has the default memory" "$(cat "$conf")" "DefMemPerCPU=256"
expect_contains "slurm.conf has the nodes" "$(cat "$conf")" "NodeName=n-[1-2] CPUs=2 RealMemory=2048"
expect_contains "slurm.conf has the partitions" "$(cat "$conf")" \
  "PartitionName=high Nodes=n-[1-2] MaxTime=UNLIMITED PriorityTier=10 State=UP"
expect_eq "no SLURM_NTASKS without -n" "" "$(env_of "$plain" SLURM_NTASKS)"
expect_eq "no SLURM_NPROCS without -n" "" "$(env_of "$plain" SLURM_NPROCS)"
expect_eq "SLURM_NTASKS with -n 2" 2 "$(env_of "$tasks" SLURM_NTASKS)"
expect_eq "SLURM_NPROCS with -n 2" 2 "$(env_of "$tasks" SLURM_NPROCS)"

# --- 12: sacct's ReqMem is the job's whole request --------------------------
per_cpu=$(submit -H --mem-per-cpu 200 -c 2 --wrap true)
per_node=$(submit -H -N 2 --mem=100M --wrap true)
default_two=$(submit -H -c 2 --wrap true)
expect_eq "ReqMem per CPU" 400M "$(sacct -n -X -P -o ReqMem -j "$per_cpu")"
expect_eq "ReqMem per node, two nodes" 200M "$(sacct -n -X -P -o ReqMem -j "$per_node")"
expect_eq "ReqMem of the default, two CPUs" 512M "$(sacct -n -X -P -o ReqMem -j "$default_two")"
expect_eq "squeue %m of the default" 256M "$(squeue -h -j "$default_two" -o %m)"

# --- 4: scontrol requeue of a pending job -----------------------------------
fails_with 1 scontrol requeue "$per_cpu"
expect_eq "requeue of a pending job" "Job is pending execution for job $per_cpu" "$out"

# --- 5: scancel of an unknown job -------------------------------------------
set +e
out=$(scancel 999999 2>&1)
rc=$?
set -e
expect_eq "scancel unknown: exit" 0 "$rc"
expect_eq "scancel unknown: silent" "" "$out"
set +e
out=$(scancel -v 999999 2>&1)
rc=$?
set -e
expect_eq "scancel -v unknown: exit" 0 "$rc"
expect_eq "scancel -v unknown" "scancel: Terminating job 999999
scancel: error: Kill job error on job id 999999: Invalid job id specified" "$out"

# --- 6, 8: scancel --interactive answered from a pipe, and who cancelled -----
a=$(submit -H -J first --wrap true)
b=$(submit -H -J second --wrap true)
out=$(printf 'n\ny\n' | scancel --interactive "$a" "$b")
expect_eq "the questions" \
  "Cancel job_id=$a name=first partition=cpu [y/n]? Cancel job_id=$b name=second partition=cpu [y/n]? " \
  "$out"
expect_eq "n keeps it" PD "$(state "$a")"
expect_eq "y cancels it" "CANCELLED by $me" "$(sacct -n -X -P -o State -j "$b")"
# A job that has ended cannot be asked about: said so, as Slurm's -i does.
out=$(scancel --interactive "$b" 2>&1 </dev/null)
expect_eq "an ended job" "scancel: error: Kill job error on job id $b: Job/step already completing or completed" "$out"
out=$(scancel --interactive "$a" </dev/null)
expect_eq "asked at the end of input" "Cancel job_id=$a name=first partition=cpu [y/n]? " "$out"
expect_eq "the end of input is no" PD "$(state "$a")"
# The pending tasks of an array are one question, as Slurm's array record.
arr=$(submit -H --array=1-3 -J arr --wrap true)
out=$(echo y | scancel --interactive "$arr")
expect_eq "an array's question" "Cancel job_id=${arr}_[1-3] name=arr partition=cpu [y/n]? " "$out"
expect_eq "y cancels its tasks" "" "$(squeue -h -j "$arr")"
scancel "$a" "$per_cpu" "$per_node" "$default_two"
expect_eq "a pending job cancelled" "CANCELLED by $me" "$(sacct -n -X -P -o State -j "$a")"

# --- 10, 11: a script killed by a signal; scontrol's messages ---------------
killed=$(submit --wrap 'kill -9 $$')
wait_for 30 job_ended "$killed"
expect_contains "killed by a signal" "$(scontrol show job "$killed")" \
  "JobState=FAILED Reason=JobLaunchFailure Dependency=(null)"
expect_contains "its exit code" "$(scontrol show job "$killed")" "ExitCode=0:9"
fails_with 1 scontrol hold "$killed"
expect_eq "hold of an ended job" "Job has already finished for job $killed
slurm_suspend error: Job has already finished" "$out"
fails_with 1 scontrol release "$killed"
expect_eq "release of an ended job" "Job has already finished for job $killed
slurm_suspend error: Job has already finished" "$out"
fails_with 1 scontrol update JobId="$killed" TimeLimit=5
expect_eq "update of an ended job" "Job has already finished for job $killed" "$out"
held=$(submit -H --wrap true)
fails_with 1 scontrol update JobId="$held" Bogus=1
expect_eq "unknown update key" "Update of this parameter is not supported: Bogus=1
Request aborted" "$out"
fails_with 1 scontrol update JobId="$held" TimeLimit=abc
expect_eq "bad TimeLimit" "scontrol: error: Invalid TimeLimit value" "$out"
fails_with 1 scontrol update NodeName=n-1 Bogus=1
expect_eq "unknown node key" "Update of this parameter is not supported: Bogus=1
Request aborted" "$out"
fails_with 1 scontrol update PartitionName=cpu Bogus=1
expect_eq "unknown partition key" "scontrol: error: Update of this parameter is not supported: Bogus=1

scontrol: error: Request aborted
slurm_update error: No error" "$out"
scancel "$held"

# --gres=gpu on a cluster without GPUs: stintd refuses with Slurm's words.
# (Slurm's sbatch checks GRES itself and prints that line alone; sbatch here
# still adds "Batch job submission failed: " before it.)
fails_with 1 sbatch --gres=gpu:1 --wrap true
expect_contains "no GPUs here" "$out" "Invalid generic resource (gres) specification"

# --- 3: a requeued job's output starts again, unless --open-mode=append -----
gate='echo "attempt ${SLURM_RESTART_COUNT:-0}"; while [ ! -e go-$SLURM_JOB_ID-${SLURM_RESTART_COUNT:-0} ]; do sleep 0.05; done'
trunc=$(submit -o 'out-%j.txt' --wrap "$gate")
app=$(submit -o 'out-%j.txt' --open-mode=append --wrap "$gate")
wait_for 30 grep -q "attempt 0" "out-$trunc.txt"
wait_for 30 grep -q "attempt 0" "out-$app.txt"
scontrol requeue "$trunc" "$app"
wait_for 30 grep -q "attempt 1" "out-$trunc.txt"
wait_for 30 grep -q "attempt 1" "out-$app.txt"
touch "go-$trunc-1" "go-$app-1"
wait_for 30 job_ended "$trunc"
wait_for 30 job_ended "$app"
expect_eq "truncated by default" "attempt 1" "$(cat "out-$trunc.txt")"
expect_contains "appended with --open-mode=append" "$(cat "out-$app.txt")" "attempt 0"
expect_contains "appended with --open-mode=append" "$(cat "out-$app.txt")" "attempt 1"

# --- 9: the reason of a job whose nodes a higher tier waits for --------------
# A high job holds both nodes and another waits for them: slurmctld's main
# scheduler then leaves the cpu partition's nodes out (job_scheduler.c).
hold_all='while [ ! -e go-$SLURM_JOB_ID ]; do sleep 0.05; done'
h1=$(submit -p high -N 2 -c 2 --wrap "$hold_all")
wait_for 30 running "$h1"
c1=$(submit -p cpu -c 1 --wrap true)
# With no high job waiting, the node is only busy: Resources.
wait_for 30 sh -c "[ \"\$(squeue -h -j $c1 -o %r)\" = Resources ]"
h2=$(submit -p high -N 2 -c 2 --wrap true)
wait_for 30 sh -c "[ \"\$(squeue -h -j $h2 -o %r)\" = Resources ]"
nodes_reason="Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions"
wait_for 30 sh -c "[ \"\$(squeue -h -j $c1 -o %r)\" = '$nodes_reason' ]"
expect_contains "scontrol's reason" "$(scontrol show job "$c1")" \
  "Reason=Nodes_required_for_job_are_DOWN,_DRAINED_or_reserved_for_jobs_in_higher_priority_partitions"
# Once the high job waiting is gone, it is Resources again.
scancel "$h2"
wait_for 30 sh -c "[ \"\$(squeue -h -j $c1 -o %r)\" = Resources ]"
touch "go-$h1"
wait_for 30 job_ended "$c1"
expect_eq "it ran" COMPLETED "$(job_state "$c1")"
