#!/usr/bin/env bash
# stint export slurm: the files of a two-pool cluster with accounts, users,
# QOS and limits (slurm.conf, gres.conf, cgroup.conf, the prolog,
# accounts.cfg, accounts.sh), the refusals that leave no file, and then a real
# Slurm 22.05 (Debian's packages, loopback) brought up from exactly those
# files: sacctmgr load takes the accounts, scontrol, sinfo and sacctmgr there
# print what stint prints for the same fields, and an example job script runs
# on both. The real-Slurm half skips where Slurm cannot be had.
tests_dir=$(cd "$(dirname "$0")" && pwd)
source "$tests_dir/lib.sh"

write_config <<YAML
cluster_name: expo
node_pools:
  - {id: small, count: 1, cpus: 1, memory: 512M, node_names: [n1]}
  - {id: big, count: 1, cpus: 1, memory: 768M, node_names: [n2], features: [fast]}
partitions:
  - {id: main, node_pool_ids: [small, big]}
  - {id: fast, node_pool_ids: [big], priority_tier: 2, max_time: "1:00:00"}
default_partition_id: main
prolog_bash_scripts: ["echo prolog of \$SLURM_JOB_ID >> $TEST_ROOT/prolog.log"]
config:
  PriorityType: priority/multifactor
  PriorityWeightFairshare: "1000"
  StintRunPorts: "31260-31279"
YAML

# The accounts: a QOS preempting another, a tree of two accounts, limits, a
# user with an association of a partition.
me=$(id -un)
sacctmgr -i add qos high Priority=100 MaxWall=2:00:00 >/dev/null
sacctmgr -i add qos low Priority=1 UsageFactor=0.5 >/dev/null
sacctmgr -i modify qos high set Preempt=low >/dev/null
sacctmgr -i add account lab Description='the lab' Organization=uni Fairshare=3 >/dev/null
sacctmgr -i add account vision Parent=lab Fairshare=2 GrpTRES=cpu=8 >/dev/null
sacctmgr -i add user nobody Account=vision Fairshare=2 MaxJobs=4 QOS=normal,high \
  DefaultQOS=normal >/dev/null
sacctmgr -i add user nobody Account=lab Partition=fast MaxWall=1:00:00 >/dev/null

# --- the files ---------------------------------------------------------------------------
out=$TEST_ROOT/export
stint export slurm -o "$out" --conf-dir "$out" >"$TEST_ROOT/said"
expect_eq "the files written" \
  "$out/slurm.conf $out/gres.conf $out/cgroup.conf $out/prolog $out/accounts.cfg $out/accounts.sh" \
  "$(grep "^$out/" "$TEST_ROOT/said" | lines)"
expect_contains "what comes next" "$(cat "$TEST_ROOT/said")" "then run $out/accounts.sh"
conf=$(cat "$out/slurm.conf")
for line in "ClusterName=expo" "SlurmctldHost=n1" "SelectType=select/cons_tres" \
  "SelectTypeParameters=CR_Core_Memory" "ProctrackType=proctrack/cgroup" \
  "AccountingStorageType=accounting_storage/slurmdbd" "PriorityType=priority/multifactor" \
  "PriorityWeightFairshare=1000" "Prolog=$out/prolog" \
  "NodeName=n1 CPUs=1 RealMemory=512 State=UNKNOWN" \
  "NodeName=n2 CPUs=1 RealMemory=768 Features=fast State=UNKNOWN" \
  "PartitionName=main Nodes=n[1-2] Default=YES MaxTime=UNLIMITED PriorityTier=1 DefMemPerCPU=512 State=UP" \
  "PartitionName=fast Nodes=n2 MaxTime=01:00:00 PriorityTier=2 DefMemPerCPU=768 State=UP"; do
  grep -qxF -- "$line" <<<"$conf" || fail "slurm.conf lacks '$line': $conf"
done
expect_contains "stint's own keys, as comments" "$conf" \
  "#   StintRunPorts=31260-31279: the run tools' port range;"
expect_eq "no Stint key as a setting" "" "$(grep '^Stint' <<<"$conf" || true)"
expect_eq "cgroup.conf" "ConstrainCores=yes ConstrainRAMSpace=yes ConstrainDevices=yes" \
  "$(grep -v '^#' "$out/cgroup.conf" | lines)"
expect_eq "gres.conf: no GPUs" "" "$(grep -v '^#' "$out/gres.conf")"
[ -x "$out/prolog" ] || fail "the prolog is not executable"
expect_contains "the prolog" "$(cat "$out/prolog")" "/bin/bash -c 'echo prolog of"
expect_eq "accounts.cfg" "Cluster - 'expo':Fairshare=1:QOS='normal'
Parent - 'root'
User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1
Account - 'lab':Description='the lab':Organization='uni':Fairshare=3
Parent - 'lab'
User - 'nobody':Partition='fast':DefaultAccount='vision':Fairshare=1:MaxWallDurationPerJob=60
Account - 'vision':Description='vision':Organization='lab':Fairshare=2:GrpTRES=cpu=8
Parent - 'vision'
User - 'nobody':DefaultAccount='vision':DefaultQOS='normal':Fairshare=2:MaxJobs=4:QOS='high,normal'" \
  "$(grep -v '^#' "$out/accounts.cfg")"
# sacctmgr dump writes the same file, as Slurm's does.
sacctmgr dump expo file="$TEST_ROOT/dump.cfg" || fail "sacctmgr dump failed"
cmp -s "$TEST_ROOT/dump.cfg" "$out/accounts.cfg" || fail "sacctmgr dump differs from accounts.cfg"
command_refused_with 1 "dump of another cluster" " Cluster other doesn't exist." sacctmgr dump other
expect_eq "accounts.sh makes the QOS, then loads" "sacctmgr -i add qos high
sacctmgr -i add qos low
sacctmgr -i modify qos where name=high set Description='high' Priority=100 Preempt=low MaxWall=120
sacctmgr -i modify qos where name=low set Description='low' Priority=1 UsageFactor=0.5
sacctmgr -i load accounts.cfg" "$(grep '^sacctmgr' "$out/accounts.sh")"

# --nodes names the new machines, one per declared node.
renamed=$(stint export slurm -o "$TEST_ROOT/renamed" --nodes 'gpu[01-02]' --controller head |
  head -n 1)
expect_eq "renamed" "$TEST_ROOT/renamed/slurm.conf" "$renamed"
conf=$(cat "$TEST_ROOT/renamed/slurm.conf")
for line in "SlurmctldHost=head" "NodeName=gpu01 CPUs=1 RealMemory=512 State=UNKNOWN" \
  "PartitionName=fast Nodes=gpu02 MaxTime=01:00:00 PriorityTier=2 DefMemPerCPU=768 State=UP"; do
  grep -qxF -- "$line" <<<"$conf" || fail "the renamed slurm.conf lacks '$line': $conf"
done

# --- refusals: nothing written ------------------------------------------------------------
command_refused_with 1 "--nodes of the wrong count" \
  "stint: error: --nodes names 3 machines, and the cluster declares 2 nodes (n[1-2]): give one name per node, in that order" \
  stint export slurm -o "$TEST_ROOT/none" --nodes 'x[1-3]'
[ ! -e "$TEST_ROOT/none" ] || fail "a refused export made its folder"
command_refused_with 1 "a folder with the files" \
  "stint: error: $out/slurm.conf exists: export into an empty folder, or give -f to replace its files" \
  stint export slurm -o "$out"
stint export slurm -f -o "$out" --conf-dir "$out" >/dev/null || fail "-f did not replace the files"

# --- a real Slurm from exactly those files --------------------------------------------------
# What stint says of the same fields, before the real tools come first in PATH.
stint_assoc=$(sacctmgr -n -P show assoc format=Account,User,Partition,Share,GrpTRES,MaxJobs,MaxWall,QOS,DefaultQOS)
stint_qos=$(sacctmgr -n -P show qos format=Name,Priority,Preempt,MaxWall,UsageFactor)
stint_sinfo=$(sinfo -h -o '%P %a %l %D %N %c %m %f')
stint_partition=$(scontrol -o show partition fast | tr ' ' '\n' |
  grep -E '^(PartitionName|Nodes|MaxTime|PriorityTier|Default|State)=')
sbatch_example() {  # sbatch_example DIR SBATCH...: the example job, submitted from DIR
  local dir=$1
  shift
  mkdir -p "$dir"
  (cd "$dir" && "$@" --parsable "$STINT_SOURCE_DIR/examples/jobs/array-sweep.sh")
}
stint_job=$(sbatch_example "$TEST_ROOT/on-stint" sbatch)
wait_for 60 sh -c "[ \$(ls '$TEST_ROOT/on-stint/sweep' 2>/dev/null | wc -l) = 8 ]"
expect_contains "stint ran the prolog" "$(cat "$TEST_ROOT/prolog.log")" "prolog of "
: >"$TEST_ROOT/prolog.log"

source "$tests_dir/slurm-cluster.sh"
trap 'rc=$?; slurm_down || true; set +e; (exit $rc); cleanup' EXIT
export SLURM_CLUSTER=expo SLURM_NODES=2 SLURM_CONF_FROM="$out/slurm.conf"
slurm_up
# accounts.sh as the admin runs it, with the cluster's own sacctmgr.
PATH=/usr/bin:$PATH sh "$out/accounts.sh" >"$TEST_ROOT/load.log" 2>&1 ||
  fail "accounts.sh failed on the real Slurm: $(tail -n 5 "$TEST_ROOT/load.log")"
expect_eq "sacctmgr show assoc" "$stint_assoc" \
  "$(real sacctmgr -n -P show assoc cluster=expo format=Account,User,Partition,Share,GrpTRES,MaxJobs,MaxWall,QOS,DefaultQOS)"
expect_eq "sacctmgr show qos" "$stint_qos" \
  "$(real sacctmgr -n -P show qos format=Name,Priority,Preempt,MaxWall,UsageFactor)"
expect_eq "sinfo" "$stint_sinfo" "$(real sinfo -h -o '%P %a %l %D %N %c %m %f')"
expect_eq "scontrol show partition" "$stint_partition" \
  "$(real scontrol -o show partition fast | tr ' ' '\n' |
    grep -E '^(PartitionName|Nodes|MaxTime|PriorityTier|Default|State)=')"
# stint's default memory (a share of the node by CPUs) is the partition's DefMemPerCPU there.
expect_contains "DefMemPerCPU" "$(real scontrol -o show partition fast)" "DefMemPerCPU=768"
slurm_job=$(sbatch_example "$TEST_ROOT/on-slurm" real sbatch)
wait_for 120 sh -c "[ \$(ls '$TEST_ROOT/on-slurm/sweep' 2>/dev/null | wc -l) = 8 ]"
expect_contains "Slurm ran the exported prolog" "$(cat "$TEST_ROOT/prolog.log")" "prolog of "
expect_eq "the same results on both" "$(cat "$TEST_ROOT"/on-stint/sweep/* | sort)" \
  "$(cat "$TEST_ROOT"/on-slurm/sweep/* | sort)"
echo "ok (stint job $stint_job, Slurm job $slurm_job)"
