#!/usr/bin/env bash
# Every example in examples/ runs as its comments say, each cluster file in a
# fresh state directory: the workstation (a GPU job), the seed's JSON spec as
# it is, and the lab server with its accounts, where the array sweep, the
# dependency pipeline and the checkpointing job (preempted, requeued, resumed)
# run. Delays the examples set for real use are shortened here.
source "$(dirname "$0")/lib.sh"

EX=$STINT_SOURCE_DIR/examples
me=$(id -un)

# fresh_state NAME: stop the current stintd and its jobs, use a new state dir.
fresh_state() {
  scancel --me >/dev/null 2>&1 || true
  stint daemon stop >/dev/null 2>&1 || true
  export STINT_STATE_DIR=$TEST_ROOT/$1
  mkdir -p "$STINT_STATE_DIR"
  chmod 700 "$STINT_STATE_DIR"
}
queue_empty() { [ -z "$(squeue -h -o %i)" ]; }
states_of() { sacct -n -X -P -j "$1" -o State | sort -u | tr '\n' ' '; }

for f in clusters/workstation.yaml clusters/lab-server.yaml clusters/seed-spec.json \
  clusters/rehearsal.yaml; do
  out=$(stint config check "$EX/$f") || fail "stint config check $f: $out"
  expect_contains "$f" "$out" ": OK"
done

# --- the workstation: a job gets one of its two GPUs ------------------------------
fresh_state workstation
stint init --from "$EX/clusters/workstation.yaml" >/dev/null
expect_eq "workstation partitions" "short long" "$(sinfo -h -o %R | tr '\n' ' ' | sed 's/ $//')"
id=$(submit --gres=gpu:1 -t 5 --wrap 'echo "gpus=$CUDA_VISIBLE_DEVICES"')
wait_for 30 job_ended "$id"
expect_eq "workstation job" COMPLETED "$(job_state "$id")"
expect_eq "one GPU" "gpus=0" "$(cat "slurm-$id.out")"

# --- the rehearsal cluster: a 2-node, 4-GPU job launched with srun ------------------
fresh_state rehearsal
stint init --from "$EX/clusters/rehearsal.yaml" >/dev/null
cp "$EX/jobs/ddp.py" .
id=$(submit "$EX/jobs/distributed.sh")
wait_for 60 job_ended "$id"
expect_eq "distributed job" COMPLETED "$(job_state "$id")"
expect_eq "every rank summed" "rank 0 of 4 (local 0) on node-1 gpu 0: sum of ranks 6
rank 1 of 4 (local 1) on node-1 gpu 1: sum of ranks 6
rank 2 of 4 (local 0) on node-2 gpu 0: sum of ranks 6
rank 3 of 4 (local 1) on node-2 gpu 1: sum of ranks 6" "$(grep '^rank' "ddp-$id.out" | sort)"
expect_contains "its launch line" "$(cat "ddp-$id.out")" "ddp: 2 nodes (node-[1-2]), 4 tasks"
expect_eq "its step" "$id.0|python3|COMPLETED|4|2" \
  "$(sacct -n -P -j "$id.0" -o JobID,JobName,State,NTasks,NNodes)"

# --- the seed's JSON spec, as it is ------------------------------------------------
fresh_state seed
stint init --from "$EX/clusters/seed-spec.json" >/dev/null
expect_eq "seed partition" "a4" "$(sinfo -h -o %R)"
id=$(submit -t 5 --wrap 'echo seed job ran')
wait_for 30 job_ended "$id"
expect_eq "seed job" COMPLETED "$(job_state "$id")"
expect_eq "seed job output" "seed job ran" "$(cat "slurm-$id.out")"

# --- the lab server ---------------------------------------------------------------
fresh_state lab
stint init --from "$EX/clusters/lab-server.yaml" >/dev/null
sed -i -e 's/^  KillWait: 30/  KillWait: 2/' -e '/^  PreemptExemptTime:/d' \
  -e 's/grace_time: 60 /grace_time: 10 /' "$STINT_STATE_DIR/stint.yaml"
echo '  StintRequeueDelay: "1"' >>"$STINT_STATE_DIR/stint.yaml"
stint config check >/dev/null || fail "the shortened lab config does not load"
out=$("$EX/accounts/lab-accounts.sh" "$me" otheruser 2>&1) || fail "lab-accounts.sh: $out"
expect_eq "accounts" "lab nlp root vision" \
  "$(sacctmgr -n -P list account format=account | sort | tr '\n' ' ' | sed 's/ $//')"
expect_contains "$me's association" "$(sacctmgr -n -P show assoc where user="$me" format=account)" vision
expect_contains "debug QOS" "$(sacctmgr -n -P show qos format=name,priority)" "debug|100"

# The array sweep: eight tasks, each writes its result.
sweep=$(submit "$EX/jobs/array-sweep.sh")
wait_for 60 queue_empty
expect_eq "sweep tasks" "COMPLETED " "$(states_of "$sweep")"
expect_eq "sweep results" 8 "$(ls sweep/lr-*.txt | wc -l)"
expect_eq "task 3's result" "lr=0.01 loss=0.100000" "$(cat sweep/lr-0.01.txt)"

# The pipeline: four jobs in dependency order.
read -r prep train eval summary <<<"$("$EX/jobs/pipeline.sh")"
wait_for 60 queue_empty
expect_eq "pipeline" "COMPLETED " "$(states_of "$prep,$train,$eval,$summary")"
expect_eq "pipeline summary" "prepare|COMPLETED train|COMPLETED evaluate|COMPLETED" \
  "$(tr '\n' ' ' <pipeline-summary.txt | sed 's/ $//')"
expect_eq "evaluate output" "evaluate: the model is right" "$(cat pipeline-evaluate.out)"

# The checkpointing job: preempted by an urgent job, requeued, resumed.
ck=$(submit -p normal -c 64 "$EX/jobs/checkpoint.sh" 6)
wait_for 30 test -s "ckpt-$ck"
urgent=$(submit -p urgent -c 64 -t 5 --wrap 'sleep 1')
wait_for 60 job_ended "$urgent"
wait_for 60 job_ended "$ck"
expect_eq "checkpointing job" COMPLETED "$(job_state "$ck")"
expect_contains "its attempts" "$(sacct -n -X -P -D -j "$ck" -o State | tr '\n' ' ')" "PREEMPTED"
out=$(cat "ckpt-$ck.out")
expect_contains "first run" "$out" "restart 0: starting from step 0"
expect_contains "checkpoint on SIGTERM" "$out" "checkpoint written"
expect_contains "resumed" "$out" "restart 1: resuming from step"
expect_contains "finished" "$out" "done: 6 steps after 1 restarts"
[ ! -e "ckpt-$ck" ] || fail "the finished job left its checkpoint"
