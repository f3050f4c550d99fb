#!/usr/bin/env bash
# examples/runs/sweep.sh: a 2-node run and its clones over a learning rate,
# each rank meeting rank 0 on MASTER_PORT; every run completes and run-list
# shows the sweep's table.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 1G}
partitions:
  - {id: gpu, node_pool_ids: [n]}
config:
  StintRunPorts: "32000-32099"
YAML
cp -r "$(dirname "$0")/../../examples/runs" runs
out=$(runs/sweep.sh)
expect_contains "the first run" "$out" "created sweep/1"
expect_contains "the clones" "$out" "sweep/3"
completed_runs() {
  run-list --project sweep --json |
    python3 -c 'import json,sys; print(sum(r["state"] == "COMPLETED" for r in json.load(sys.stdin)))'
}
three_completed() { [ "$(completed_runs)" = 3 ]; }
wait_for 120 three_completed
table=$(run-list --project sweep)
expect_contains "columns" "$(echo "$table" | head -n 1)" "LR    BATCH"
expect_eq "the learning rates" "0.1 0.03 0.01" "$(echo "$table" | awk 'NR > 1 {print $7}' | tr '\n' ' ' | sed 's/ $//')"
expect_contains "rank 0 saw its peer" "$(run-logs sweep/2)" "1 peers joined; lr=0.03"
expect_contains "rank 1 joined" "$(run-logs sweep/2 --node 1)" "rank 1 of 2 joined"
