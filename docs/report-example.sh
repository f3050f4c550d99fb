#!/usr/bin/env bash
# Renders docs/report-example.svg, the picture the README shows: a small GPU
# cluster running an array, a dependency chain, a failing and a cancelled job,
# and an urgent job that preempts (and requeues) whatever it needs. About half a minute.
#   docs/report-example.sh BIN_DIR
set -euo pipefail
bin=$(cd "${1:?usage: report-example.sh BIN_DIR}" && pwd)
export PATH="$bin:$PATH"
out=$(cd "$(dirname "$0")" && pwd)/report-example.svg
export STINT_STATE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/stint-report-example-XXXXXX")
trap 'scancel --me >/dev/null 2>&1 || true; stint daemon stop >/dev/null 2>&1 || true; rm -rf "$STINT_STATE_DIR"' EXIT
cd "$STINT_STATE_DIR"
cat >stint.yaml <<'YAML'
cluster_name: demo
node_pools:
  - {id: gpu, count: 2, cpus: 8, memory: 16G, gpus: 2}
partitions:
  - {id: normal, node_pool_ids: [gpu], priority_tier: 1, preempt_mode: REQUEUE, grace_time: 1}
  - {id: urgent, node_pool_ids: [gpu], priority_tier: 2}
config:
  PreemptType: preempt/partition_prio
  PreemptMode: REQUEUE
  StintRequeueDelay: "2"
  KillWait: "1"
YAML
sb() { sbatch --parsable "$@"; }
sb -J long-train -c 6 --gres=gpu:1 --requeue --wrap 'sleep 14' >/dev/null
sb -J sweep -a 0-5%3 -c 2 --gres=gpu:1 --wrap 'sleep $((4 + SLURM_ARRAY_TASK_ID))' >/dev/null
prep=$(sb -J prepare -c 2 --wrap 'sleep 3')
sb -J train -c 2 -d afterok:"$prep" --wrap 'sleep 6' >/dev/null
sb -J broken -c 1 --wrap 'sleep 2; exit 1' >/dev/null
gone=$(sb -J stopped -c 1 --wrap 'sleep 30')
sleep 4
scancel "$gone"
sb -J urgent -p urgent -c 8 --gres=gpu:2 --wrap 'sleep 5' >/dev/null
deadline=$((SECONDS + 120))
while [ -n "$(squeue -h -o %i)" ] && [ $SECONDS -lt $deadline ]; do sleep 0.5; done
stint report -o "$out" --title "stint report: a small GPU cluster" >/dev/null
rm -f "${out%.svg}.html"  # the README shows the SVG alone
echo "wrote $out"
