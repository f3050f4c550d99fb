#!/usr/bin/env bash
# scontrol reconfigure: a broken file, or one that takes away a busy node or a
# used partition, is refused and nothing changes; a good one that adds a node
# and a partition while jobs run and wait keeps every job; an edited file shows
# in sinfo only once applied; every change is logged with who made it.
source "$(dirname "$0")/lib.sh"
config() {
  local count=$1 extra=${2:-}
  write_config <<YAML
cluster_name: test
node_pools:
  - {id: n, count: $count, cpus: 4, memory: 4G}
$extra
partitions:
  - {id: debug, node_pool_ids: [n], max_time: "1:00:00"}
config:
  KillWait: "2"
  PriorityWeightAge: "1000"
YAML
}
config 2
me=$(id -un)
gate='for i in $(seq 600); do [ -e go ] && break; sleep 0.1; done; echo done'
running() { [ "$(squeue -h -j "$1" -o %t)" = R ]; }
refused() {
  set +e
  out=$(scontrol reconfigure 2>&1)
  rc=$?
  set -e
  [ $rc -ne 0 ] || fail "reconfigure accepted: $1"
  expect_contains "$1" "$out" "$2"
  expect_contains "$1" "$out" "the running configuration stays"
}
snapshot() { squeue -h -o '%i %t %N' | sort; sinfo -h -N -o '%N %P %t'; }

j1=$(submit -c 4 -t 10 --wrap "$gate")
j2=$(submit -c 4 -t 10 --wrap "$gate")
j3=$(submit -c 4 -t 10 --wrap "$gate")
wait_for 30 running "$j1"
wait_for 30 running "$j2"
expect_eq "third waits" PD "$(squeue -h -j "$j3" -o %t)"
before=$(snapshot)

# A file that does not load.
cp "$STINT_STATE_DIR/stint.yaml" good.yaml
printf 'node_pools:\n  - {id: n, count: 2, cpus: many}\npartitions: []\n' > "$STINT_STATE_DIR/stint.yaml"
refused "broken file" "stint.yaml:2"
expect_eq "nothing changed after a broken file" "$before" "$(snapshot)"

# One that removes the node a job runs on.
config 1
refused "busy node removed" "node n-2 cannot be removed: job $j2 runs on it"
expect_eq "nothing changed after a busy node" "$before" "$(snapshot)"

# One that removes the partition the jobs are in.
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 4, memory: 4G}
partitions:
  - {id: other, node_pool_ids: [n]}
YAML
refused "used partition removed" "partition debug cannot be removed: job $j1 is running in it"
expect_eq "nothing changed after a used partition" "$before" "$(snapshot)"
grep -q "reconfigure by $me($(id -u)) refused" "$STINT_STATE_DIR/log/stintd.log" ||
  fail "refusal not logged"

# An edited file shows only once applied.
write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 3, cpus: 4, memory: 4G}
  - {id: g, count: 1, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n], max_time: "1:00:00"}
  - {id: gpu, node_pool_ids: [g]}
config:
  KillWait: "2"
  PriorityWeightAge: "2000"
YAML
expect_eq "not applied yet" "debug" "$(sinfo -h -o %R | sort -u | tr '\n' ' ' | sed 's/ $//')"
scontrol reconfigure
expect_eq "partitions after reconfigure" "debug gpu" "$(sinfo -h -o %R | sort -u | tr '\n' ' ' | sed 's/ $//')"
# The waiting job starts on the new node; the running ones go on.
wait_for 30 running "$j3"
expect_eq "on the new node" n-3 "$(squeue -h -j "$j3" -o %N)"
expect_eq "first still runs" R "$(squeue -h -j "$j1" -o %t)"
expect_eq "second still runs" R "$(squeue -h -j "$j2" -o %t)"
expect_contains "weights applied" "$(scontrol show config)" "PriorityWeightAge       = 2000"
j4=$(submit -p gpu -c 2 --wrap true)
wait_for 30 job_ended "$j4"
expect_eq "job in the new partition" COMPLETED "$(job_state "$j4")"
log=$(cat "$STINT_STATE_DIR/log/stintd.log")
expect_contains "logged with who" "$log" "reconfigure by $me($(id -u)): partition gpu added"
expect_contains "logged pool" "$log" "reconfigure by $me($(id -u)): node pool n: count=2"
expect_contains "logged key" "$log" "PriorityWeightAge: 1000 -> 2000"

# scontrol update of a partition holds until the next reconfigure.
scontrol update PartitionName=gpu State=DOWN
expect_eq "partition down" down "$(sinfo -h -p gpu -o %a)"
scontrol reconfigure
expect_eq "back to the file after reconfigure" up "$(sinfo -h -p gpu -o %a)"

touch go
for id in $j1 $j2 $j3; do
  wait_for 30 job_ended "$id"
  expect_eq "job $id" COMPLETED "$(job_state "$id")"
done

# Idle nodes may go.
config 1
scontrol reconfigure
expect_eq "nodes after removing idle ones" "n-1" "$(sinfo -h -N -o %N | sort -u | tr '\n' ' ' | sed 's/ $//')"

# SIGHUP to stintd does the same.
write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 1, cpus: 4, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [n], max_time: "1:00:00"}
  - {id: extra, node_pool_ids: [n]}
YAML
kill -HUP "$(cat "$STINT_STATE_DIR/stintd.lock")"
wait_for 10 sh -c "sinfo -h -o %R | grep -qx extra"
grep -q "reconfigure by SIGHUP from $me($(id -u))" "$STINT_STATE_DIR/log/stintd.log" ||
  fail "SIGHUP reconfigure not logged"
