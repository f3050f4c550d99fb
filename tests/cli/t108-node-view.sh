#!/usr/bin/env bash
# Declared nodes look like real ones to their tasks: each has an address of
# its own (NodeAddr), its name as the task's host name, and every node name
# resolves inside a job, so that a script finding its rendezvous host by name
# (MASTER_ADDR=$(scontrol show hostnames ... | head -n 1)) reaches it. A
# cluster of one node named after the machine is the machine as it is.
source "$(dirname "$0")/lib.sh"
if ! command -v getent >/dev/null; then
  echo "SKIP: getent (libc-bin) is missing" >&2
  exit 77
fi
machine=$(hostname -s)
write_config <<'YAML'
node_pools:
  - {id: g, count: 2, cpus: 2, memory: 1G}
partitions:
  - {id: debug, node_pool_ids: [g]}
config:
  KillWait: "1"
YAML

# --- Addresses, as the tools show them; stintd writes the hosts file.
scontrol ping >/dev/null
expect_contains "NodeAddr" "$(scontrol show node g-2)" "NodeAddr=127.0.1.2 NodeHostName=g-2 "
expect_eq "sinfo %o" "127.0.1.[1-2]" "$(sinfo -h -o %o)"
expect_eq "the hosts file stintd keeps" "127.0.1.1 g-1|127.0.1.2 g-2" \
  "$(awk '$2 ~ /^g-/ {print $1, $2}' "$STINT_STATE_DIR/hosts" | paste -sd'|')"

# A view that could not be entered leaves the machine's name: say why once.
if [ "$(srun -N1 -w g-2 hostname)" != g-2 ]; then
  echo "SKIP: this kernel gives tasks no namespaces: $(grep -m1 'node names and hosts' \
    "$STINT_STATE_DIR/log/stintd.log")" >&2
  exit 77
fi

# --- What a task sees: its node's name, and every node's address by name.
expect_eq "srun -N2 hostname" "g-1 g-2" "$(srun -N2 hostname | sort | lines)"
expect_eq "uname -n and the kernel's" "0: g-1 g-1|1: g-2 g-2" \
  "$(srun -N2 -l sh -c 'echo "$(uname -n) $(cat /proc/sys/kernel/hostname)"' | sort |
    paste -sd'|')"
expect_eq "getent hosts g-2 on each node" "127.0.1.2 g-2|127.0.1.2 g-2" \
  "$(srun -N2 getent hosts g-2 | awk '{print $1, $2}' | paste -sd'|')"
expect_eq "localhost still" "127.0.0.1" "$(srun -N1 -w g-2 getent ahostsv4 localhost | awk 'NR==1 {print $1}')"
expect_eq "and the machine's own name" 1 \
  "$(srun -N1 -w g-2 getent hosts "$machine" | grep -c .)"
# This shell, outside any task, keeps the machine's.
expect_eq "outside tasks" "$machine" "$(hostname -s)"

# A batch script on the first node; its srun's tasks on both; one task
# listens on its node's address and the other reaches it by the node's name.
cat >where.sh <<'SH'
#!/bin/sh
#SBATCH -N2 --ntasks-per-node=1 -o where.out
echo "batch $(hostname)"
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
echo "master $MASTER_ADDR $(getent hosts "$MASTER_ADDR" | awk '{print $1}')"
srun sh -c 'echo "task $SLURM_PROCID $(hostname) launch $SLURM_LAUNCH_NODE_IPADDR"'
SH
j=$(submit where.sh)
wait_for 30 job_ended "$j"
expect_eq "batch job" COMPLETED "$(job_state "$j")"
expect_eq "where it ran" "batch g-1|master g-1 127.0.1.1|task 0 g-1 launch 127.0.1.1|task 1 g-2 launch 127.0.1.1" \
  "$(sort where.out | paste -sd'|')"

if command -v python3 >/dev/null; then
  cat >reach.py <<'PY'
import os, socket, time
rank = int(os.environ["SLURM_PROCID"])
port = int(os.environ["PORT"])
if rank == 1:
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((socket.gethostname(), port))
    s.listen(1)
    c, peer = s.accept()
    c.sendall(f"{socket.gethostname()} at {s.getsockname()[0]}".encode())
    c.close()
else:
    deadline = time.time() + 20
    while True:
        try:
            c = socket.create_connection(("g-2", port), timeout=5)
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)
    print(c.recv(200).decode())
PY
  port=$((20000 + RANDOM % 20000))
  expect_eq "a task reaches another node by its name" "g-2 at 127.0.1.2" \
    "$(PORT=$port srun -N2 -n2 python3 reach.py)"
fi

# --- A run's MASTER_ADDR is its first node's address; run-show's Host too.
run-create --project p --nodes 2 -- sh -c 'echo "$(hostname) $MASTER_ADDR"' >/dev/null
wait_for 30 sh -c 'run-show p/1 | grep -q "^State: *COMPLETED"'
expect_eq "rank 0's log" "g-1 127.0.1.1" "$(run-logs p/1)"
expect_eq "Host column" "127.0.1.1 127.0.1.2" \
  "$(run-show p/1 | awk '$1 == "0" || $1 == "1" {print $5}' | lines)"

# --- The machine itself as its one node: nothing changes.
scancel --me >/dev/null 2>&1 || true
stop_stintd
write_config <<YAML
node_pools:
  - {id: m, cpus: 2, memory: 1G, node_names: [$machine]}
partitions:
  - {id: debug, node_pool_ids: [m]}
YAML
expect_eq "its name" "$machine" "$(srun hostname)"
expect_contains "NodeAddr is the name" "$(scontrol show node "$machine")" \
  "NodeAddr=$machine NodeHostName=$machine "
expect_eq "no hosts file" no "$(test -e "$STINT_STATE_DIR/hosts" && echo yes || echo no)"
expect_eq "the machine's /etc/hosts" "$(stat -L -c %i /etc/hosts)" "$(srun stat -L -c %i /etc/hosts)"
echo ok
