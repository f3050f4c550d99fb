#!/usr/bin/env bash
# A cluster's scripts on this machine: names it lacks are refused as Slurm
# refuses them; stint.yaml's aliases map them (with a warning, and the job
# shows this machine's names); StintForeignNames=map sends the rest to the
# defaults; stint init --from-slurm-conf declares the cluster itself.
source "$(dirname "$0")/lib.sh"
me=$(id -un)

config() {
  write_config <<YAML
cluster_name: test
node_pools:
  - {id: c, count: 1, cpus: 2, memory: 2G}
  - {id: g, count: 1, cpus: 2, memory: 2G, gpus: 2, gpu_type: a100}
partitions:
  - {id: batch, node_pool_ids: [c, g]}
  - {id: gpu, node_pool_ids: [g]}
$1
config:
  KillWait: "2"
$2
YAML
}


# --- (a) refused by default, with Slurm's messages ---------------------------
config "" ""
sbatch_refused "partition" "sbatch: error: invalid partition specified: gpu-long
sbatch: error: Batch job submission failed: Invalid partition name specified
sbatch: partitions: batch, gpu" \
  -p gpu-long --qos=high --gres=gpu:v100:1
sbatch_refused "QOS" "sbatch: error: Batch job submission failed: Invalid qos specification" \
  -p gpu --qos=high
# A GPU type no node has: slurmctld's refusal of the request.
sbatch_refused "GPU type" \
  "sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification
sbatch: partition gpu: 1 node of 2 CPUs, 2G, 2 GPUs (a100)" \
  -p gpu --gres=gpu:v100:1
expect_eq "nothing queued" "" "$(squeue -h -o %i)"

# Accounts and an association for the rest (accounts live in the state).
sacctmgr -i add account lab >/dev/null
sacctmgr -i add user "$me" account=lab >/dev/null
# Root has its record from the start (default account root); others get lab.
default_account=$(sacctmgr -n -P show user "$me" format=defaultaccount)

# --- (b) aliases --------------------------------------------------------------
config "aliases:
  partitions: {gpu-long: gpu}
  gpu_types: {v100: a100}
  qos: {high: normal}
  accounts: {proj123: lab}
  reservations: {maint: \"\"}" "  AccountingStorageEnforce: associations"
scontrol reconfigure >/dev/null
cat >cluster-job.sh <<'SH'
#!/bin/bash
#SBATCH -p gpu-long
#SBATCH --qos=high
#SBATCH --account=proj123
#SBATCH --reservation=maint
#SBATCH --gres=gpu:v100:1
echo "on $SLURM_JOB_PARTITION gpus=$CUDA_VISIBLE_DEVICES"
SH
# Held, so that squeue and scontrol see it before it runs.
id=$(sbatch --parsable -H cluster-job.sh 2>err)
expect_eq "alias warnings" "sbatch: warning: partition gpu-long is not on this machine: using gpu (aliases in stint.yaml)
sbatch: warning: GPU type v100 is not on this machine: using a100 (aliases in stint.yaml)
sbatch: warning: reservation maint is not on this machine: using none (aliases in stint.yaml)
sbatch: warning: account proj123 is not on this machine: using lab (aliases in stint.yaml)
sbatch: warning: QOS high is not on this machine: using normal (aliases in stint.yaml)" "$(cat err)"
expect_eq "squeue shows this machine's names" "gpu normal lab" \
  "$(squeue -h -j "$id" -o '%P %q %a')"
show=$(scontrol show job "$id")
expect_contains "scontrol Partition" "$show" "Partition=gpu "
expect_contains "scontrol QOS" "$show" "QOS=normal"
expect_contains "scontrol Account" "$show" "Account=lab "
expect_contains "scontrol TRES" "$show" "TresPerNode=gres:gpu:a100:1"
scontrol release "$id"
wait_for 30 job_ended "$id"
expect_eq "sacct too" "gpu|normal|lab" "$(sacct -n -X -P -o Partition,QOS,Account -j "$id")"
expect_eq "the job ran" COMPLETED "$(job_state "$id")"
expect_eq "its output" "on gpu gpus=0" "$(cat "slurm-$id.out")"
# The default refusals hold for names no alias maps.
sbatch_refused "unmapped partition" "sbatch: error: invalid partition specified: nosuch
sbatch: error: Batch job submission failed: Invalid partition name specified
sbatch: partitions: batch, gpu" -p nosuch
sbatch_refused "unmapped account" \
  "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" \
  -A nosuch
# srun takes them too.
err=$(srun -p gpu-long true 2>&1) || fail "srun -p gpu-long failed: $err"
expect_eq "srun warning" \
  "srun: warning: partition gpu-long is not on this machine: using gpu (aliases in stint.yaml)" "$err"

# An alias to an account that does not exist is refused, saying so.
config "aliases:
  accounts: {proj123: nolab}" ""
scontrol reconfigure >/dev/null
sbatch_refused "alias to a missing account" "sbatch: error: aliases in stint.yaml map account proj123 to nolab, which is not an account here (sacctmgr add account nolab)
sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" \
  -A proj123

# --- (c) StintForeignNames: map ----------------------------------------------
config "" "  AccountingStorageEnforce: associations
  StintForeignNames: map"
scontrol reconfigure >/dev/null
id=$(sbatch --parsable -H -p gpu-long -A proj9 --qos=urgent --gres=gpu:h100:1 \
  --reservation=maint --wrap 'echo mapped' 2>err)
expect_eq "map warnings" "sbatch: warning: partition gpu-long is not on this machine: using the default partition batch (StintForeignNames=map)
sbatch: warning: GPU type h100 is not on this machine: using any GPU type (StintForeignNames=map)
sbatch: warning: reservation maint is not on this machine: using none (StintForeignNames=map)
sbatch: warning: account proj9 is not on this machine: using your default account $default_account (StintForeignNames=map)
sbatch: warning: QOS urgent is not on this machine: using the default QOS normal (StintForeignNames=map)" \
  "$(cat err)"
expect_eq "mapped names" "batch normal $default_account" "$(squeue -h -j "$id" -o '%P %q %a')"
scontrol release "$id"
wait_for 30 job_ended "$id"
expect_eq "the mapped job ran" COMPLETED "$(job_state "$id")"
# A cluster's nodes, another cluster, a site plugin's option: set aside too.
cat >site.sh <<'SH'
#!/bin/bash
#SBATCH --image=docker:lab/tools:1
#SBATCH -w compute[01-02] -M rivers
echo site
SH
id=$(sbatch --parsable site.sh 2>err)
expect_eq "site names warnings" "sbatch: warning: site.sh:2: '--image=docker:lab/tools:1' is not an option of Slurm 22.05's sbatch (a site's own); left out, as StintForeignNames is map
sbatch: warning: cluster 'rivers' mapped to 'test' (StintForeignNames is map)
sbatch: warning: nodes compute[01-02] are not on this machine: left out of --nodelist (StintForeignNames=map)" \
  "$(cat err)"
wait_for 30 job_ended "$id"
expect_eq "the site script ran" COMPLETED "$(job_state "$id")"
# Names this machine has are untouched: no warning.
id=$(sbatch --parsable -p gpu --gres=gpu:a100:1 --wrap true 2>err)
expect_eq "no warning for known names" "" "$(cat err)"
wait_for 30 job_ended "$id"

# --- (d) stint init --from-slurm-conf ----------------------------------------
mkdir -p cluster
cat >cluster/slurm.conf <<'CONF'
# A cluster's slurm.conf
ClusterName=rivers
SlurmctldHost=head01
AuthType=auth/munge
GresTypes=gpu
PriorityWeightAge=1000
NodeName=DEFAULT Sockets=2 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=64000 State=UNKNOWN
NodeName=cn[01-03]
Include nodes-gpu.conf
PartitionName=DEFAULT State=UP MaxTime=1-00:00:00
PartitionName=short Nodes=cn[01-03] Default=YES DefaultTime=00:30:00 MaxTime=04:00:00
PartitionName=gpu-long Nodes=gn[1-2] PriorityTier=10 \
   AllowAccounts=physics
CONF
echo 'NodeName=gn[1-2] CPUs=32 RealMemory=256000 Gres=gpu:4' >cluster/nodes-gpu.conf
echo 'NodeName=gn[1-2] Name=gpu Type=v100 File=/dev/nvidia[0-3]' >cluster/gres.conf

set +e
err=$(stint init --from-slurm-conf cluster/slurm.conf 2>&1)
rc=$?
set -e
expect_eq "init keeps an existing file: exit" 1 "$rc"
expect_contains "init keeps an existing file" "$err" "exists; use --force to replace it"
echo 'NodeName=x CPUs=lots' >bad.conf
set +e
err=$(stint init --force --from-slurm-conf bad.conf 2>&1)
rc=$?
set -e
expect_eq "a bad slurm.conf: exit" 1 "$rc"
expect_eq "a bad slurm.conf" 'stint: error: bad.conf:1: CPUs value "lots" is not a valid number' "$err"

stint daemon stop >/dev/null
out=$(stint init --force --from-slurm-conf cluster/slurm.conf)
expect_contains "init says what it wrote" "$out" "(2 node pools, 5 nodes, 2 partitions; default partition short)"
yaml=$(cat "$STINT_STATE_DIR/stint.yaml")
expect_contains "unused keys listed" "$yaml" "#   cluster/slurm.conf:3: SlurmctldHost=head01: not used here"
expect_contains "partition's access list kept" "$yaml" "allow_accounts: [physics]"
expect_eq "sinfo" "short* up 4:00:00 3 idle cn[01-03]
gpu-long up 1-00:00:00 2 idle gn[1-2]" "$(sinfo -h -o '%P %a %l %D %t %N')"
part=$(scontrol show partition gpu-long)
expect_contains "gpu-long nodes" "$part" "Nodes=gn[1-2]"
expect_contains "gpu-long tier" "$part" "PriorityTier=10"
expect_contains "GPU type from gres.conf" "$(scontrol show node gn1)" "Gres=gpu:v100:4"
expect_contains "cluster name" "$(scontrol show config)" "rivers"
# gpu-long admits the physics account alone (AllowAccounts=physics).
out=$(sbatch -p gpu-long --wrap true 2>&1) && fail "another account got into gpu-long"
expect_contains "AllowAccounts" "$out" "Invalid account or account/partition combination specified"
id=$(sbatch --parsable -A physics -p gpu-long --gres=gpu:v100:2 -c 16 --wrap 'echo imported')
wait_for 30 job_ended "$id"
expect_eq "a job on the imported cluster" COMPLETED "$(job_state "$id")"
expect_eq "its node" "gn1" "$(sacct -n -X -P -o NodeList -j "$id")"
