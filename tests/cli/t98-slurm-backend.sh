#!/usr/bin/env bash
# The slurm run backend against a real Slurm 22.05 (Debian's packages) brought
# up on loopback with two nodes: a 2-node run whose ranks meet on MASTER_PORT,
# a clone, a stop and a failing run, each checked in run-show and run-list
# against what sacct and squeue say; a refused job's message passed through;
# an unreachable controller. Skips when Slurm cannot be had here.
tests_dir=$(cd "$(dirname "$0")" && pwd)
source "$tests_dir/lib.sh"
source "$tests_dir/slurm-cluster.sh"
# Slurm's daemons go first; lib.sh's cleanup reads the test's status from $?.
trap 'rc=$?; slurm_down || true; set +e; (exit $rc); cleanup' EXIT
slurm_up

write_config <<YAML
node_pools:
  - {id: c, count: 1, cpus: 1, memory: 1G}
partitions:
  - {id: local, node_pool_ids: [c]}
config:
  StintRunPorts: "31100-31119"
run_backend: slurm
slurm:
  conf: $SLURM_CONF
  bin_dir: /usr/bin
  partitions: {train: $SLURM_PARTITION}
  poll_interval: 1
YAML

# sacct's word for a job or a step, as the tests compare it.
sacct_of() { real sacct -n -P -X -j "$1" -o "$2" | head -n 1; }
job_of() { run-list --json | python3 -c "import json,sys; print([r['job_id'] for r in json.load(sys.stdin) if r['run'] == '$1'][0])"; }
state_of() { run-list --json | python3 -c "import json,sys; print([r['state'] for r in json.load(sys.stdin) if r['run'] == '$1'][0])"; }
# run-show's node line of rank $2: "rank nodeid state exit host ssh ports".
node_line() { run-show "$1" | awk -v r="$2" '$1 == r && $2 ~ /-/'; }

# --- a 2-node run: ranks, ports, a rendezvous on MASTER_PORT ------------------------
cat > rank.py <<'PY'
import os, socket, time
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
addr, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
with open(f"rank-{rank}.txt", "w") as f:
    f.write(" ".join([os.environ["RANK"], os.environ["WORLD_SIZE"], addr, os.environ["MASTER_PORT"],
                      os.environ["STINT_TCP_PORTS"], os.environ["LR"], os.environ["SLURMD_NODENAME"]]))
if rank == 0:
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port)); s.listen(world); s.settimeout(60)
    got = [s.accept()[0].recv(64).decode() for _ in range(world - 1)]
    open("rendezvous.txt", "w").write(",".join(sorted(got)))
else:
    deadline = time.time() + 60
    while True:
        try:
            c = socket.create_connection((addr, port), timeout=1); break
        except OSError:
            if time.time() > deadline: raise
            time.sleep(0.1)
    c.sendall(f"hello from {rank}".encode())
PY
run=$(run-create --project dist --server-type train --nodes 2 --env LR=0.1 -- python3 rank.py)
expect_eq "first run's name" "dist/1" "$run"
job=$(job_of dist/1)
wait_for 90 sh -c "run-list --json | grep -q '\"dist/1\".*COMPLETED'"
# A job that ended at once may have a placeholder record for a moment.
wait_for 30 sh -c "[ \"\$(/usr/bin/sacct -n -P -X -j $job -o JobName)\" = dist/1 ]"
expect_eq "sacct agrees" "COMPLETED" "$(sacct_of "$job" State)"
expect_eq "rendezvous" "hello from 1" "$(cat rendezvous.txt)"
show=$(run-show dist/1)
expect_contains "backend" "$show" "Backend:      slurm (job $job, partition $SLURM_PARTITION, via this machine)"
expect_contains "partition" "$show" "Server type:  train"
for rank in 0 1; do
  read -r r world addr mport ports lr nodename <"rank-$rank.txt" || true
  expect_eq "RANK on rank $rank" "$rank" "$r"
  expect_eq "WORLD_SIZE" 2 "$world"
  expect_eq "MASTER_ADDR is the first node's address" 127.0.0.1 "$addr"
  expect_eq "LR" 0.1 "$lr"
  line=$(node_line dist/1 "$rank")
  expect_eq "ports of rank $rank in run-show" "$ports" "$(echo "$line" | awk '{print $NF}')"
  [ "$rank" = 0 ] && master_port=${ports%%,*}
  expect_eq "MASTER_PORT is rank 0's first port" "$master_port" "$mport"
  expect_eq "rank $rank's host is its step's node" \
    "$(real sacct -n -P -j "$job" -o JobName,NodeList | awk -F'|' -v n="rank$rank" '$1 == n {print $2}')" \
    "$(echo "$line" | awk '{print $5}')"
  expect_eq "and where it ran" "$nodename" "$(echo "$line" | awk '{print $5}')"
  expect_contains "node state" "$line" "COMPLETED"
done
expect_eq "the ranks ran on both nodes" "n1 n2" "$(run-show dist/1 | awk '$1 ~ /^[0-9]+$/ && $2 ~ /-/ {print $5}' | sort | tr '\n' ' ' | sed 's/ $//')"

# --- a clone: a changed variable, a new one; its logs -----------------------------------
echo 'echo "rank=$RANK lr=$LR wd=$WD"' >show.sh
clone=$(run-clone dist/1 --env LR=0.01 --env WD=0.5 -- sh show.sh)
expect_eq "clone's name" "dist/2" "$clone"
wait_for 60 sh -c "run-list --json | grep -q '\"dist/2\".*COMPLETED'"
expect_eq "sacct agrees on the clone" "COMPLETED" "$(sacct_of "$(job_of dist/2)" State)"
expect_eq "rank 1's output" "rank=1 lr=0.01 wd=0.5" "$(run-logs dist/2 --node 1)"
table=$(run-list --project dist)
expect_eq "the source's row has WD empty" "0.1" "$(echo "$table" | awk '$1 == "dist/1" {print $7, $8}' | sed 's/ *$//')"
expect_eq "the clone's row" "0.01 0.5" "$(echo "$table" | awk '$1 == "dist/2" {print $7, $8}')"
expect_contains "run-show names the source" "$(run-show dist/2)" "Cloned from:  dist/1"

# --- run-stop of a running 2-node run: scancel -------------------------------------------
run-create --project dist --server-type train --nodes 2 -- sleep 300 >/dev/null
job=$(job_of dist/3)
wait_for 60 sh -c "[ \"\$(/usr/bin/squeue -h -j $job -o %T)\" = RUNNING ]"
wait_for 30 sh -c "run-list --json | grep -q '\"dist/3\".*RUNNING'"
# Each node's line comes from its own step in Slurm, which may start a moment
# after the job (seen under ASan with four tests at once on two CPUs).
wait_for 30 sh -c "[ \"\$(run-show dist/3 | grep -c ' RUNNING ')\" = 2 ]"
expect_eq "both nodes of the running run" 2 "$(run-show dist/3 | grep -c ' RUNNING ')"
expect_eq "run-stop" "dist/3 stopped" "$(run-stop dist/3)"
wait_for 60 sh -c "run-list --json | grep -q '\"dist/3\".*STOPPED'"
expect_contains "sacct: cancelled" "$(sacct_of "$job" State)" "CANCELLED"
expect_eq "no such job in squeue" "" "$(real squeue -h -j "$job" -o %T 2>/dev/null || true)"
expect_eq "a stopped run is not running" 1 "$(run-stop dist/3 2>&1 | grep -c 'is not running')"

# --- a failing run: rank 1 exits 3 -------------------------------------------------------
echo 'exit $((RANK * 3))' >fail.sh
run-create --project dist --server-type train --nodes 2 -- sh fail.sh >/dev/null
job=$(job_of dist/4)
wait_for 60 sh -c "run-list --json | grep -q '\"dist/4\".*FAILED'"
expect_eq "sacct: failed with rank 1's status" "FAILED 3:0" "$(sacct_of "$job" State,ExitCode | tr '|' ' ')"
# slurmdbd may record the job's end a moment before its ranks' steps: the run
# is followed until they are there.
wait_for 30 sh -c "run-show dist/4 | awk '\$1 == 0 && \$2 ~ /-/ {print \$3}' | grep -qx COMPLETED"
expect_eq "rank 0" "COMPLETED 0:0" "$(node_line dist/4 0 | awk '{print $3, $4}')"
expect_eq "rank 1" "FAILED 3:0" "$(node_line dist/4 1 | awk '{print $3, $4}')"
expect_eq "rank 1's step in sacct" "FAILED|3:0" \
  "$(real sacct -n -P -j "$job" -o JobName,State,ExitCode | awk -F'|' '$1 == "rank1" {print $2 "|" $3}')"

# --- run-list against the cluster: every run, its job and state ---------------------------
for r in dist/1 dist/2 dist/3 dist/4; do
  state=$(sacct_of "$(job_of $r)" State)
  case $state in CANCELLED*) want=STOPPED ;; *) want=$state ;; esac
  expect_eq "run-list's state of $r is sacct's" "$want" "$(state_of $r)"
done

# --- the cluster refuses a job: its message, no run --------------------------------------
err=$(run-create --project dist --server-type nope -- true 2>&1) && fail "an unknown partition was accepted"
expect_contains "sbatch's message passed through" "$err" "run-create: error: slurm: sbatch: error:"
expect_contains "the reason" "$err" "nope"
expect_eq "no run created" 4 "$(run-list --project dist --json | grep -o '"run"' | wc -l)"

# --- the cluster unreachable ---------------------------------------------------------------
kill -TERM "$(cat "$SLURM_DIR/run/slurmctld.pid")"
wait_for 30 sh -c "! kill -0 $(cat "$SLURM_DIR/run/slurmctld.pid") 2>/dev/null"
err=$(run-create --project dist --server-type train -- true 2>&1) && fail "a run was created without a controller"
expect_contains "unreachable" "$err" "run-create: error: slurm:"
expect_eq "still no run created" 4 "$(run-list --project dist --json 2>/dev/null | grep -o '"run"' | wc -l)"
