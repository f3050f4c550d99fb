#!/usr/bin/env bash
# Runs, the NSML way: a 2-node run whose ranks write RANK, WORLD_SIZE,
# MASTER_ADDR, MASTER_PORT and their ports, checked against run-show's node
# table; a TCP rendezvous between the ranks on MASTER_PORT; clone with a
# changed and a new variable, and run-list's table with the empty cell;
# keep-alive until run-stop; run-stop of a running 2-node run; refusals that
# create nothing.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: g, count: 2, cpus: 2, memory: 2G, gpus: 1}
  - {id: c, count: 1, cpus: 2, memory: 1G}
partitions:
  - {id: gpu, node_pool_ids: [g]}
  - {id: cpu, node_pool_ids: [c]}
default_partition_id: gpu
config:
  KillWait: "1"
  StintRunPorts: "31000-31019"
YAML

# --- a 2-node run: ranks, ports, and a rendezvous on MASTER_PORT ------------------
cat > rank.py <<'PY'
import os, socket, sys, time
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
addr, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
with open(f"rank-{rank}.txt", "w") as f:
    f.write(" ".join([os.environ["RANK"], os.environ["WORLD_SIZE"], addr, os.environ["MASTER_PORT"],
                      os.environ["STINT_TCP_PORTS"], os.environ["SLURM_PROCID"], os.environ["LR"]]))
if rank == 0:
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port)); s.listen(world); s.settimeout(30)
    got = [s.accept()[0].recv(64).decode() for _ in range(world - 1)]
    open("rendezvous.txt", "w").write(",".join(sorted(got)))
else:
    deadline = time.time() + 30
    while True:
        try:
            c = socket.create_connection((addr, port), timeout=1); break
        except OSError:
            if time.time() > deadline: raise
            time.sleep(0.05)
    c.sendall(f"hello from {rank}".encode())
PY
run=$(run-create --project mnist --nodes 2 --gpus 1 --env LR=0.1 --env BATCH=64 -- python3 rank.py)
expect_eq "first run's name" "mnist/1" "$run"
wait_for 60 sh -c "[ \"\$(run-list --project mnist --json | grep -c COMPLETED)\" = 1 ]"
expect_eq "rendezvous" "hello from 1" "$(cat rendezvous.txt)"
show=$(run-show mnist/1)
for rank in 0 1; do
  read -r r world addr mport ports procid lr <"rank-$rank.txt" || true  # no newline at the end
  expect_eq "RANK on rank $rank" "$rank" "$r"
  expect_eq "WORLD_SIZE" 2 "$world"
  expect_eq "SLURM_PROCID" "$rank" "$procid"
  expect_eq "LR" 0.1 "$lr"
  line=$(echo "$show" | awk -v r="$rank" '$1 == r && $2 ~ /-/')
  expect_eq "ports of rank $rank in run-show" "$ports" "$(echo "$line" | awk '{print $NF}')"
  [ "$rank" = 0 ] && master_port=${ports%%,*}
  expect_eq "MASTER_PORT is rank 0's first port" "$master_port" "$mport"
  expect_contains "node state" "$line" "COMPLETED"
done
expect_eq "output per node" "" "$(run-logs mnist/1 --node 1)"

# --- clone: a changed variable, a new one; the table shows the empty cell -----------
clone=$(run-clone mnist/1 --env LR=0.01 --env WD=0.5 -- true)
expect_eq "clone's name" "mnist/2" "$clone"
wait_for 30 sh -c "run-list --project mnist --json | grep -q '\"mnist/2\".*COMPLETED'"
table=$(run-list --project mnist)
expect_contains "header" "$(echo "$table" | head -n 1)" "LR    BATCH  WD"
expect_eq "the source's row has WD empty" "0.1 64" "$(echo "$table" | awk '$1 == "mnist/1" {print $7, $8, $9}' | sed 's/ *$//')"
expect_eq "the clone's row" "0.01 64 0.5" "$(echo "$table" | awk '$1 == "mnist/2" {print $7, $8, $9}')"
expect_contains "run-show names the source" "$(run-show mnist/2)" "Cloned from:  mnist/1"
swept=$(run-clone mnist/1 --same-command --sweep LR=1,2 | tr '\n' ' ')
expect_eq "a sweep makes one run per value" "mnist/3 mnist/4 " "$swept"

# --- refusals: nothing is created ---------------------------------------------------
count() { run-list --project mnist --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }
before=$(count)
err=$(run-clone mnist/1 --unset BATCH --same-command 2>&1) && fail "dropping a variable was accepted"
expect_contains "drop refused" "$err" "cannot be dropped"
err=$(run-clone mnist/1 --rename LR=RATE --same-command 2>&1) && fail "renaming was accepted"
expect_contains "rename refused" "$err" "cannot be renamed"
err=$(run-clone mnist/1 2>&1) && fail "a clone without a command was accepted"
expect_contains "command required" "$err" "command is required"
err=$(run-create --project mnist 2>&1) && fail "a run without a command was accepted"
expect_contains "create needs a command" "$err" "command is required"
err=$(run-create --project nb --server-type cpu --nodes 2 -- true 2>&1) && fail "cpu with nodes"
expect_contains "cpu takes no node count" "$err" "takes no node count"
err=$(run-create --project nb --server-type cpu --keep-alive on -- true 2>&1) && fail "cpu keep-alive"
expect_contains "cpu takes no keep-alive" "$err" "takes no keep-alive"
wait_for 30 sh -c "! run-list --json | grep -q -e PENDING -e RUNNING"
err=$(run-create --project big --nodes 2 --gpus 1 --ports 8 -- sleep 60 2>&1) || fail "a 2-node run: $err"
err=$(run-create --project big --nodes 2 --gpus 1 --ports 8 -- sleep 60 2>&1) && fail "ports beyond the range were accepted"
expect_contains "ports exhausted" "$err" "exhausted"
expect_eq "nothing created by refusals" "$before" "$(count)"
expect_eq "no third big run" 1 "$(run-list --project big --json | grep -o '"run"' | wc -l)"

# --- run-stop on a running 2-node run ------------------------------------------------
wait_for 30 sh -c "run-list --project big --json | grep -q RUNNING"
expect_eq "run-stop" "big/1 stopped" "$(run-stop big/1)"
wait_for 30 sh -c "run-list --project big --json | grep -q STOPPED"
expect_eq "both nodes stopped" 2 "$(run-show big/1 | grep -c ' STOPPED ')"
expect_eq "a stopped run is not running" 1 "$(run-stop big/1 2>&1 | grep -c 'is not running')"

# --- keep-alive: the nodes stay until run-stop ----------------------------------------
run-create --project ka --nodes 2 --cpus 2 --keep-alive on -- true >/dev/null
wait_for 30 sh -c "run-list --project ka --json | grep -q KEPT_ALIVE"
expect_eq "nodes still allocated" 4 "$(sinfo -h -N -o '%N %C' | awk '$1 ~ /^g-/ {split($2, c, "/"); s += c[1]} END {print s}')"
expect_eq "run-stop releases them" "ka/1 stopped" "$(run-stop ka/1)"
wait_for 30 sh -c "run-list --project ka --json | grep -q STOPPED"
expect_eq "nodes free" 0 "$(sinfo -h -N -o '%N %C' | awk '$1 ~ /^g-/ {split($2, c, "/"); s += c[1]} END {print s}')"

# --- values are data, not JSON or table syntax -------------------------------------
run-create --project odd --env 'NOTE=say "hi", {x}' -- true >/dev/null
wait_for 30 sh -c "run-list --project odd --json | python3 -c 'import json,sys; r=json.load(sys.stdin)[0]; sys.exit(r[\"env\"][\"NOTE\"] != \"say \\\"hi\\\", {x}\")'"

# --- a directory image, run with bubblewrap ------------------------------------------
err=$(run-create --project img --image ./no-such-image -- true 2>&1) && fail "a missing image was accepted"
expect_contains "missing image" "$err" "no such directory image"
err=$(run-create --project img --image library/python:3 -- true 2>&1) && fail "an OCI image was accepted"
expect_contains "OCI image" "$err" "OCI image"
busybox=$(command -v busybox || true)
if command -v bwrap >/dev/null && [ -n "$busybox" ]; then
  mkdir -p rootfs/bin rootfs/proc rootfs/dev rootfs/tmp
  cp "$busybox" rootfs/bin/busybox
  for applet in sh cat echo ls; do ln -s busybox "rootfs/bin/$applet"; done
  if bwrap --bind rootfs / --proc /proc --dev /dev /bin/sh -c true 2>/dev/null; then
    run=$(run-create --project img --nodes 2 --image ./rootfs -- /bin/sh -c 'echo "rank $RANK"; ls /')
    wait_for 30 sh -c "run-list --project img --json | grep -q COMPLETED"
    out=$(run-logs "$run" --node 1)
    expect_contains "rank 1 ran in the image" "$out" "rank 1"
    expect_eq "the image's root, not the host's" "bin dev proc tmp" "$(echo "$out" | tail -n +2 | sort | tr '\n' ' ' | sed 's/ $//')"
  else
    echo "SKIP image run: bubblewrap cannot make a namespace here" >&2
  fi
else
  echo "SKIP image run: needs bubblewrap and a static busybox" >&2
fi
