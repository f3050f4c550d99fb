#!/usr/bin/env bash
# scontrol create, update and delete of partitions, as an operator does on a
# Slurm cluster: a created partition takes jobs, keeps across a restart of
# stintd and goes at the next reconfigure (ReconfigFlags without
# KeepPartInfo); AllowAccounts/DenyAccounts and AllowQos/DenyQos refuse jobs
# as slurmctld does; DefaultTime gives a job its limit; a partition with a job
# in it is not deleted.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 3, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
YAML

part_line() { scontrol -o show partition="$1" 2>&1; }
# refused_saying WHAT TEXT COMMAND...: COMMAND exits 1, its stderr containing TEXT.
refused_saying() {
  local what=$1 want=$2 err rc
  shift 2
  set +e
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  set -e
  expect_eq "$what: exit" 1 "$rc"
  expect_contains "$what" "$err" "$want"
}

scontrol create PartitionName=extra Nodes=n-[1-2] MaxTime=30 Priority=5 ||
  fail "create refused"
out=$(part_line extra)
for want in "PartitionName=extra" "Nodes=n-[1-2]" "MaxTime=00:30:00" "PriorityJobFactor=5" \
  "PriorityTier=5" "State=UP" "TotalNodes=2" "AllowAccounts=ALL" "AllowQos=ALL" "Default=NO"; do
  expect_contains "created: $want" "$out" "$want"
done
expect_eq "sinfo sees it" "2" "$(sinfo -h -p extra -o %D)"
expect_contains "show partitionname=" "$(scontrol show partitionname=extra)" "PartitionName=extra"

command_refused "a second create" "Error creating the partition: Invalid partition name specified" \
  scontrol create partition=extra
command_refused "DEFAULT" 'scontrol: error: PartitionName cannot be "DEFAULT".' \
  scontrol create PartitionName=default Nodes=n-1
command_refused "no entity" "scontrol: error: Invalid creation entity: Nodes=n-1" scontrol create Nodes=n-1
refused_saying "a key stint does not take" "scontrol: error: MaxNodes is not supported here" \
  scontrol create PartitionName=other MaxNodes=2
command_refused "unknown node" "Error creating the partition: Invalid node name specified: zz-1" \
  scontrol create PartitionName=other Nodes=zz-1
expect_contains "nothing made by refusals" "$(scontrol show partition 2>&1)" "PartitionName=extra"
[[ "$(scontrol show partition 2>&1)" != *PartitionName=other* ]] || fail "a refused create made a partition"

# TRESBillingWeights= clears weights this partition does not have (it bills
# by CPUs, without the cluster's TRESBillingWeights): nothing to change.
scontrol update partitionname=extra TRESBillingWeights= || fail "TRESBillingWeights= refused"
refused_saying "billing weights of one partition" \
  "scontrol: error: TRESBillingWeights is not supported here for one partition" \
  scontrol update partitionname=extra TRESBillingWeights=cpu=2

# A job in it runs on its nodes; with none asked for, DefaultTime is its limit.
scontrol update partitionname=extra DefaultTime=10 || fail "DefaultTime refused"
expect_contains "DefaultTime shown" "$(part_line extra)" "DefaultTime=00:10:00"
j=$(sbatch --parsable -p extra -o /dev/null --wrap 'sleep 300')
wait_for 30 sh -c "squeue -h -j $j -o %T | grep -qx RUNNING"
expect_contains "job's limit from DefaultTime" "$(scontrol show job "$j")" "TimeLimit=00:10:00"
case "$(squeue -h -j "$j" -o %N)" in n-1 | n-2) ;; *) fail "job not on the partition's nodes" ;; esac
command_refused "delete while in use" "delete_partition PartitionName=extra: Partition is in use" \
  scontrol delete PartitionName=extra
account=$(squeue -h -j "$j" -o %a)
scancel "$j"
wait_for 30 job_ended "$j"

# Accounts and QOS: an allow list decides alone; a deny list without one.
scontrol update PartitionName=extra allowaccount=someone_else || fail "allowaccount refused"
expect_contains "AllowAccounts shown" "$(part_line extra)" "AllowAccounts=someone_else"
refused_saying "account not allowed" "Invalid account or account/partition combination specified" \
  sbatch -p extra --wrap true
scontrol update PartitionName=extra AllowAccounts=ALL
expect_contains "AllowAccounts back to ALL" "$(part_line extra)" "AllowAccounts=ALL"
scontrol update PartitionName=extra DenyAccounts="$account"
expect_contains "DenyAccounts shown" "$(part_line extra)" "DenyAccounts=$account"
refused_saying "account denied" "Invalid account or account/partition combination specified" \
  sbatch -p extra --wrap true
scontrol update PartitionName=extra denyacc=none
expect_contains "DenyAccounts none" "$(part_line extra)" "DenyAccounts=none"
scontrol update PartitionName=extra AllowQos=high
expect_contains "AllowQos shown" "$(part_line extra)" "AllowQos=high"
refused_saying "QOS not allowed" "Invalid qos specification" sbatch -p extra --wrap true
scontrol update PartitionName=extra AllowQos=ALL DenyQos=normal
expect_contains "DenyQos shown" "$(part_line extra)" "DenyQos=normal"
refused_saying "QOS denied" "Invalid qos specification" sbatch -p extra,debug --wrap true
scontrol update PartitionName=extra DenyQos=
j2=$(sbatch --parsable -p extra -o /dev/null --wrap true) || fail "job refused once lists are lifted"
wait_for 30 job_ended "$j2"

scontrol update PartitionName=extra MaxTime=-1 DefaultTime=-1
expect_contains "MaxTime unlimited" "$(part_line extra)" "MaxTime=UNLIMITED"
expect_contains "DefaultTime unlimited" "$(part_line extra)" "DefaultTime=UNLIMITED"
command_refused "bad time" "scontrol: error: Invalid input MaxTime=soon
slurm_update error: No error" \
  scontrol update PartitionName=extra MaxTime=soon

# It outlives stintd, then goes when the file is read again.
stop_stintd
expect_contains "kept across a restart" "$(part_line extra)" "Nodes=n-[1-2]"
scontrol create PartitionName=gone Nodes=n-3
scontrol delete PartitionName=gone || fail "delete refused"
command_refused "deleted" "Partition gone not found" scontrol show partition gone
command_refused "delete twice" "delete_partition PartitionName=gone: Invalid partition name specified" \
  scontrol delete PartitionName=gone
scontrol delete partition debug || fail "deleting the file's partition refused"
[[ "$(sinfo -h -o %R | sort -u | lines)" == extra ]] || fail "sinfo after delete: $(sinfo -h -o %R)"
scontrol reconfigure
expect_eq "after reconfigure, the file's partitions" "debug" "$(sinfo -h -o %R | sort -u | lines)"
