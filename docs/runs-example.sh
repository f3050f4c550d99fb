#!/usr/bin/env bash
# Renders docs/runs-example.svg, the learning curves the README shows: a
# three-run sweep over LR whose command appends JSON lines to $STINT_METRICS,
# drawn by run-plot; prints the sweep's leaderboard. A few seconds.
# tests/cli/t111-run-metrics.sh runs it with an output of its own.
#   docs/runs-example.sh BIN_DIR [OUTPUT.svg]
set -euo pipefail
bin=$(cd "${1:?usage: runs-example.sh BIN_DIR}" && pwd)
export PATH="$bin:$PATH"
out=${2:-$(cd "$(dirname "$0")" && pwd)/runs-example.svg}
export STINT_STATE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/stint-runs-example-XXXXXX")
trap 'scancel --me >/dev/null 2>&1 || true; stint daemon stop >/dev/null 2>&1 || true; rm -rf "$STINT_STATE_DIR"' EXIT
cd "$STINT_STATE_DIR"
cat >stint.yaml <<'YAML'
cluster_name: demo
node_pools:
  - {id: gpu, count: 2, cpus: 8, memory: 16G}
partitions:
  - {id: normal, node_pool_ids: [gpu]}
YAML
# A stand-in for training: loss falls faster with a larger LR, and the
# largest diverges a little at the end; val_acc every tenth step.
cat >train.sh <<'SH'
#!/bin/sh
awk -v lr="$LR" 'BEGIN {
  for (s = 10; s <= 500; s += 10) {
    # A little noise, the same from any awk (rand differs between them).
    noise = ((s / 10 * 7 + int(lr * 10) * 3) % 11) / 250;
    loss = 2.3 * exp(-lr * s / 40) + 0.15 + noise;
    if (lr > 0.5 && s > 300) loss += (s - 300) / 900;
    printf "{\"step\": %d, \"loss\": %.4f", s, loss;
    if (s % 50 == 0) printf ", \"val_acc\": %.4f", 0.97 - loss / 2.6;
    printf "}\n";
  }
}' >>"$STINT_METRICS"
SH
chmod +x train.sh
for lr in 0.1 0.3 0.9; do run-create --project sweep --env LR=$lr -- ./train.sh >/dev/null; done
deadline=$((SECONDS + 60))
while [ -n "$(squeue -h -o %i)" ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
run-list --project sweep --metric val_acc:max --metric loss:last --sort
run-plot --project sweep -o "$out" >/dev/null
rm -f "${out%.svg}.html"  # the README shows the SVG alone
echo "wrote $out"
