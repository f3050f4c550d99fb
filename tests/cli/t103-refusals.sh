#!/usr/bin/env bash
# A refused submission says what failed in Slurm's words, then what exists in
# a line of stint's (the partition's nodes, the partitions, MaxArraySize), and
# changes nothing. --gpus without --nodes spreads over the nodes it needs.
source "$(dirname "$0")/lib.sh"
default_config # partition debug: two nodes of 4 CPUs, 4G, 2 GPUs
shape="partition debug: 2 nodes of 4 CPUs, 4G, 2 GPUs"

sbatch_refused "-N 3" "sbatch: error: Batch job submission failed: Requested node configuration is not available
sbatch: $shape" -N 3
sbatch_refused "-n 9 -N 2" "sbatch: error: Batch job submission failed: Requested node configuration is not available
sbatch: $shape" -n 9 -N 2
sbatch_refused "--mem" "sbatch: error: Memory specification can not be satisfied
sbatch: error: Batch job submission failed: Requested node configuration is not available
sbatch: $shape" --mem=5G
sbatch_refused "--gres" "sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification
sbatch: $shape" --gres=gpu:3
sbatch_refused "-p" "sbatch: error: invalid partition specified: nosuch
sbatch: error: Batch job submission failed: Invalid partition name specified
sbatch: partitions: debug" -p nosuch
sbatch_refused "--array past MaxArraySize" "sbatch: error: Batch job submission failed: Invalid job array specification
sbatch: MaxArraySize is 1001: task ids go from 0 to 1000 (stint.yaml's config: MaxArraySize)" \
  --array=0-1001
# A malformed array is not the limit's doing: Slurm's words alone.
sbatch_refused "--array malformed" \
  "sbatch: error: Batch job submission failed: Invalid job array specification" --array=5-1
mkdir scripts.d
command_refused "a directory as the script" "sbatch: error: Unable to open file scripts.d: Is a directory" \
  sbatch scripts.d
command_refused "srun -N 3" "srun: error: Unable to allocate resources: Requested node configuration is not available
srun: $shape" srun -N 3 true
command_refused "salloc -N 3" "salloc: error: Job submit/allocate failed: Requested node configuration is not available
salloc: $shape" salloc -N 3 true
command_refused "run-create --nodes 3" "run-create: error: Requested node configuration is not available
run-create: server type debug: 2 nodes of 4 CPUs, 4G, 2 GPUs" run-create --project p --nodes 3 -- true
command_refused "an unknown server type" "run-create: error: invalid partition specified: nosuch
run-create: server types: debug" run-create --project p --server-type nosuch -- true
command_refused "a name stint sets" "run-create: error: MASTER_PORT is set by stint on every node: choose another name (stint sets RANK, NODE_RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, SLURM_* and STINT_*)" \
  run-create --project p --env MASTER_PORT=1 -- true
command_refused "two nodes without ports" "run-create: error: A run of 2 nodes needs --ports 1 or more: its ranks meet on MASTER_PORT, rank 0's first port" \
  run-create --project p --nodes 2 --ports 0 -- true
command_refused "a bad project name" "run-create: error: Invalid project name: -p (a name is letters, digits, '_', '-' and '.', 1 to 64 characters, not starting with '.' or '-')" \
  run-create --project=-p -- true
expect_eq "nothing queued" "" "$(squeue -h -o %i)"
expect_eq "no run" "" "$(run-list --project p 2>/dev/null | tail -n +2)"

# --gpus=3 with no --nodes: two nodes, each with its GPUs bound.
job=$(sbatch --parsable -G 3 --wrap 'srun sh -c "echo \$SLURMD_NODENAME \$CUDA_VISIBLE_DEVICES" | sort')
wait_for 30 job_ended "$job"
expect_eq "-G 3" COMPLETED "$(job_state "$job")"
expect_eq "-G 3 nodes" 2 "$(sacct -n -X -P -o NNodes -j "$job")"
expect_eq "-G 3 on each node" "n-1 0,1
n-2 0,1" "$(cat "slurm-$job.out")"
# --nodes given stands: three GPUs on one node of two cannot be.
sbatch_refused "-G 3 -N 1" "sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification
sbatch: $shape" -G 3 -N 1

# A run on a server type with GPUs gets one a node unless --gpus says otherwise.
gpu_run=$(run-create --project g -- sh -c 'echo "[${CUDA_VISIBLE_DEVICES-unset}]"')
none_run=$(run-create --project g --gpus 0 -- sh -c 'echo "[${CUDA_VISIBLE_DEVICES-unset}]"')
run_output() {
  local job
  job=$(run-show "$1" | sed -n "s/^Job ID: *//p")
  cat "run-$job.0.out" 2>/dev/null
}
run_has_output() { test -n "$(run_output "$1")"; }
wait_for 30 run_has_output "$gpu_run"
wait_for 30 run_has_output "$none_run"
expect_eq "a run's default GPU" "[0]" "$(run_output "$gpu_run")"
expect_eq "a run with --gpus 0" "[unset]" "$(run_output "$none_run")"
expect_contains "run-show's GPUs" "$(run-show "$gpu_run")" "gpus=1"
expect_contains "run-create --help states the default" "$(run-create --help)" \
  "default 1 on a server type with GPUs"

# A mistyped account runs without enforcement, and is said to be unknown.
err=$(sbatch -H -A nope --wrap true 2>&1 >/dev/null)
expect_eq "an unknown account" "sbatch: warning: account nope does not exist; the job runs without an association: no fair share, not in sshare (AccountingStorageEnforce does not check associations; sacctmgr add account nope makes it one)" "$err"
expect_not_contains "sshare leaves the unknown account out" "$(sshare -a -n -P)" "nope"
sacctmgr -i add account known >/dev/null
sacctmgr -i add user "$(id -un)" account=known >/dev/null
expect_eq "a known account" "" "$(sbatch -H -A known --wrap true 2>&1 >/dev/null)"
scancel --me

# --test-only names the id slurmctld's will-run takes (and does not give again).
before=$(sbatch --parsable -H --wrap true)
out=$(sbatch --test-only --wrap true 2>&1)
expect_contains "--test-only's job id" "$out" "sbatch: Job $((before + 1)) to start at "
expect_eq "the id after it" "$((before + 2))" "$(sbatch --parsable -H --wrap true)"

# Node SSH asked for without an sshd: said by stint config check and reconfigure.
cat >>"$STINT_STATE_DIR/stint.yaml" <<'YAML'
  StintRunSsh: "YES"
  StintRunSshd: /nonexistent/sshd
YAML
want="StintRunSsh is YES but StintRunSshd (/nonexistent/sshd) is not an executable: runs get no node SSH (install openssh-server, or set StintRunSshd to an sshd's absolute path)"
expect_contains "stint config check" "$(stint config check 2>&1)" "stint: warning: $want"
expect_eq "scontrol reconfigure" "scontrol: warning: $want" "$(scontrol reconfigure 2>&1)"
echo "t103-refusals: ok"
