#!/usr/bin/env bash
# Where jobs run, as a user asks with sbatch: -w, -x, -C (features declared
# per node pool), --prefer, --mincpus, --tmp, --exclusive (whole nodes),
# -L (Licenses= in the config); Slurm's refusals; what scontrol and sinfo show.
source "$(dirname "$0")/lib.sh"

write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: a, count: 2, cpus: 4, memory: 4G, features: [fast, ib], tmp_disk: 10G, sockets: 2}
  - {id: b, count: 2, cpus: 2, memory: 2G, features: [slow]}
partitions:
  - {id: debug, node_pool_ids: [a, b]}
  - {id: whole, node_pool_ids: [b], oversubscribe: EXCLUSIVE}
config:
  KillWait: "2"
  Licenses: "matlab:1"
YAML

# nodes_of JOB: the nodes squeue shows for a running job.
nodes_of() { squeue -h -j "$1" -o %N; }
running() { [ "$(squeue -h -j "$1" -o %T)" = RUNNING ]; }

# --- refusals, with Slurm's messages, and nothing queued -----------------------
# After Slurm's words, stint's line of what the partition has.
shape="sbatch: partition debug: 2 nodes of 4 CPUs, 4G, no GPUs; 2 nodes of 2 CPUs, 2G, no GPUs"
sbatch_refused "-w unknown" "sbatch: error: Batch job submission failed: Invalid node name specified" \
  -w nosuch
sbatch_refused "-C unknown" "sbatch: error: Batch job submission failed: Invalid feature specification" \
  -C gpu
sbatch_refused "-C malformed" "sbatch: error: Batch job submission failed: Invalid feature specification" \
  -C 'fast&'
sbatch_refused "-x all" \
  "sbatch: error: Batch job submission failed: Requested node configuration is not available
$shape" \
  -x 'a-[1-2],b-[1-2]'
sbatch_refused "--tmp too much" \
  "sbatch: error: Batch job submission failed: Requested node configuration is not available
$shape" \
  --tmp=20G
sbatch_refused "--sockets-per-node too many" \
  "sbatch: error: Batch job submission failed: Requested node configuration is not available
$shape" \
  --sockets-per-node=3
sbatch_refused "-L unknown" "sbatch: error: Batch job submission failed: Invalid license specification" \
  -L ansys
sbatch_refused "-L too many" "sbatch: error: Batch job submission failed: Invalid license specification" \
  -L matlab:2
expect_eq "nothing queued" "" "$(squeue -h -o %i)"

# --- what the nodes show -------------------------------------------------------
expect_contains "scontrol features" "$(scontrol show node a-1)" "AvailableFeatures=fast,ib"
expect_contains "scontrol tmp" "$(scontrol show node a-1)" "TmpDisk=10240"
expect_contains "scontrol sockets" "$(scontrol show node a-1)" "Sockets=2"
expect_eq "sinfo %z" "1:2:1
2:2:1" "$(sinfo -h -p debug -N -o %z | sort -u)"
expect_eq "sinfo %f" "fast,ib
slow" "$(sinfo -h -p debug -N -o %f | sort -u)"
expect_contains "partition OverSubscribe" "$(scontrol show partition whole)" "OverSubscribe=EXCLUSIVE"

# --- what the job shows: --tmp and --contiguous as scontrol shows them -------------
held=$(submit -H --tmp=2 --contiguous --wrap true)
expect_contains "job MinTmpDiskNode" "$(scontrol show job "$held")" "MinTmpDiskNode=2M"
expect_contains "job Contiguous" "$(scontrol show job "$held")" "Contiguous=1"
expect_eq "squeue contiguous" "1" "$(squeue -h -j "$held" -O contiguous | tr -d ' ')"
scancel "$held"
expect_contains "no --contiguous" "$(scontrol show job "$(submit -H --wrap true)")" "Contiguous=0"
scancel --me

# --- placement -------------------------------------------------------------------
j1=$(submit -w b-2 --wrap 'sleep 60')
j2=$(submit -C slow -x b-2 --wrap 'sleep 60')
j3=$(submit --mincpus=3 -B 2:2 --wrap 'sleep 60')
wait_for 20 running "$j1"
wait_for 20 running "$j2"
wait_for 20 running "$j3"
expect_eq "-w" "b-2" "$(nodes_of "$j1")"
expect_eq "-C -x" "b-1" "$(nodes_of "$j2")"
expect_eq "--mincpus" "a-1" "$(nodes_of "$j3")"
expect_contains "--mincpus CPUs" "$(scontrol show job "$j3")" "NumCPUs=3"

# --exclusive: a-2 is empty, a-1 is not: the whole of a-2.
j4=$(submit --exclusive -C fast --wrap 'sleep 60')
wait_for 20 running "$j4"
expect_eq "--exclusive node" "a-2" "$(nodes_of "$j4")"
expect_contains "--exclusive CPUs" "$(scontrol show job "$j4")" "NumCPUs=4"
# A second whole-node job finds no empty fast node and waits.
j5=$(submit --exclusive -C fast --wrap true)
wait_for 20 bash -c "[ \"\$(squeue -h -j $j5 -o %r)\" = Resources ]"

# -L: one matlab license; the second job waits with reason Licenses.
j6=$(submit -L matlab --wrap "sleep 60")
wait_for 20 running "$j6"
j7=$(submit -L matlab --wrap true)
wait_for 20 bash -c "[ \"\$(squeue -h -j $j7 -o %r)\" = Licenses ]"
scancel "$j6"
wait_for 30 job_ended "$j7"
expect_eq "-L job ran after the license was free" COMPLETED "$(job_state "$j7")"

scancel "$j1" "$j2" "$j3" "$j4" "$j5"
echo "t66-placement: ok"
