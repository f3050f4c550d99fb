#!/usr/bin/env bash
# Storages and run-exec: a storage made with run-storage is found by a run's
# nodes (STINT_STORAGE_<NAME>, bound into an image), kept after the run, and
# refused when unknown or in use; run-exec runs a command inside a kept-alive
# node with its environment, as a job step.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: g, count: 2, cpus: 2, memory: 2G, gpus: 1}
partitions:
  - {id: gpu, node_pool_ids: [g]}
config:
  KillWait: "1"
  StintRunPorts: "31100-31119"
YAML

# --- run-storage ---------------------------------------------------------------------
path=$(run-storage create data)
expect_eq "storage path" "$STINT_STATE_DIR/storages/data" "$path"
echo "hello storage" >"$path/in.txt"
err=$(run-storage create data 2>&1) && fail "a second storage 'data' was made"
expect_contains "existing storage" "$err" "run-storage: error: Storage data already exists"
err=$(run-storage create 'bad/name' 2>&1) && fail "a bad storage name was taken"
expect_contains "bad name" "$err" "Invalid storage name"
listing=$(run-storage list -n)
expect_eq "list" "data $(id -un) $path" "$(awk '{print $1, $2, $NF}' <<<"$listing")"
# CREATED is the folder's birth, not its ctime (which writing into it moves),
# where the file system keeps one.
born=$(stat -c %W "$path")
if [ "$born" != 0 ]; then
  expect_eq "created" "$(date -d "@$born" +%Y-%m-%dT%H:%M:%S)" "$(awk '{print $4}' <<<"$listing")"
fi

err=$(run-create --project st --storage nosuch -- true 2>&1) && fail "an unknown storage was taken"
expect_contains "unknown storage" "$err" "No storage nosuch"
[ -z "$(run-list --project st 2>/dev/null | tail -n +2)" ] || fail "a refused run was created"

# --- a kept-alive 2-node run that reads and writes its storage ----------------------------
run=$(run-create --project st --nodes 2 --keep-alive on --storage data -- \
  sh -c 'cat "$STINT_STORAGE_DATA/in.txt" > "read-$RANK.txt"; echo "$RANK" > "$STINT_STORAGE_DATA/rank-$RANK"')
expect_eq "run name" "st/1" "$run"
kept() { run-list --project st --json | grep -q KEPT_ALIVE; }
wait_for 30 kept
expect_eq "rank 1 read the storage" "hello storage" "$(cat read-1.txt)"
expect_eq "rank 0 wrote into it" "0" "$(cat "$path/rank-0")"

# run-exec: inside node 1, with its environment, as a step of the run's job.
out=$(run-exec st/1 --node 1 -- sh -c 'echo "$RANK $WORLD_SIZE $SLURMD_NODENAME $STINT_STORAGE_DATA"')
expect_eq "run-exec in node 1" "1 2 g-2 $path" "$out"
rc=0
run-exec st/1 -- sh -c 'exit 5' 2>/dev/null || rc=$?
expect_eq "run-exec's status" 5 "$rc"
err=$(run-exec st/1 --node 7 -- true 2>&1) && fail "run-exec took a rank the run lacks"
expect_contains "no such rank" "$err" "has no node of rank 7"
job=$(sacct -n -X -P -o JobID,JobName | awk -F'|' '$2 == "st/1" {print $1}')
expect_eq "run-exec steps" "run-exec|COMPLETED|0:0
run-exec|FAILED|5:0" "$(sacct -n -P -j "$job" -o JobID,JobName,State,ExitCode | grep "^$job\.[0-9]" | cut -d'|' -f2-)"

err=$(run-storage delete data 2>&1) && fail "a storage in use was deleted"
expect_contains "in use" "$err" "Storage data is in use by run st/1"
run-stop st/1
stopped() { run-list --project st --json | grep -q STOPPED; }
wait_for 30 stopped
err=$(run-exec st/1 -- true 2>&1) && fail "run-exec ran in a stopped run"
expect_contains "stopped run" "$err" "Run st/1 is STOPPED"

# The storage outlives the run.
expect_eq "kept after the run" "hello storage" "$(cat "$path/in.txt")"

# --- in a directory image: bound at its mount -------------------------------------------
busybox=$(command -v busybox || true)
if command -v bwrap >/dev/null && [ -n "$busybox" ] &&
  bwrap --bind / / --proc /proc --dev /dev true 2>/dev/null; then
  mkdir -p rootfs/bin rootfs/proc rootfs/dev rootfs/tmp rootfs/data
  cp "$busybox" rootfs/bin/busybox
  for applet in sh cat; do ln -s busybox "rootfs/bin/$applet"; done
  run=$(run-create --project img --image ./rootfs --storage data:/data -- \
    /bin/sh -c 'echo "$STINT_STORAGE_DATA: $(cat /data/in.txt)"')
  wait_for 30 sh -c "run-list --project img --json | grep -q COMPLETED"
  expect_eq "storage in the image" "/data: hello storage" "$(run-logs "$run")"
else
  echo "SKIP image with a storage: needs bubblewrap and a static busybox" >&2
fi

run-storage delete data
[ ! -e "$path" ] || fail "the deleted storage's folder is still there"
expect_eq "nothing left" "" "$(run-storage list -n)"
echo ok
