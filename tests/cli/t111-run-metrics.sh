#!/usr/bin/env bash
# Runs you can compare: a command appends JSON lines to $STINT_METRICS, and
# run-list's --metric puts each run's best or last value beside its
# variables (--sort: best first; --json too), run-show the last value of
# every metric with its step.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
YAML

# A three-run sweep over LR; each writes three records, its accuracy ending
# higher the larger its LR, its loss lowest at its second step.
cat >train.sh <<'SH'
#!/bin/sh
for step in 100 200 300; do
  awk -v lr="$LR" -v s="$step" 'BEGIN {
    loss = (s == 200) ? 0.1 : 0.5; acc = lr * s / 300;
    printf "{\"step\": %d, \"loss\": %g, \"val_acc\": %g, \"phase\": \"train\"}\n", s, loss, acc }' \
    >>"$STINT_METRICS"
done
echo "rank $RANK wrote $(wc -l <"$STINT_METRICS") records"
SH
chmod +x train.sh
for lr in 0.2 0.9 0.5; do
  run-create --project sweep --env LR=$lr -- ./train.sh >/dev/null
done
completed() { [ "$(run-list --project sweep | awk 'NR > 1 && $2 == "COMPLETED"' | wc -l)" = "$1" ]; }
wait_for 60 completed 3
expect_eq "the file is beside the run's output" 3 \
  "$(cat run-*.0.metrics.jsonl | grep -c '"step": 300')"

expect_eq "leaderboard" "RUN      STATE      LR   val_acc
sweep/1  COMPLETED  0.2  0.2
sweep/2  COMPLETED  0.9  0.9
sweep/3  COMPLETED  0.5  0.5" \
  "$(run-list --project sweep --metric val_acc | awk '{print $1, $2, $(NF-1), $NF}' | column -t)"
expect_eq "sorted, best first" "sweep/2 sweep/3 sweep/1" \
  "$(run-list --project sweep --metric val_acc:max --sort | awk 'NR > 1 {print $1}' | lines)"
expect_eq "min and last" "loss:min val_acc:last|0.1 0.9" \
  "$(run-list --project sweep --metric loss:min --metric val_acc:last --sort |
    awk 'NR == 1 || $1 == "sweep/2" {print $(NF-1), $NF}' | paste -sd'|')"
expect_contains "json" "$(run-list --project sweep --metric val_acc --json)" \
  '"metrics":{"val_acc":{"name":"val_acc","pick":"max","step":300.0,"value":0.9}}'

# A run without records shows "-", and sorts last.
run-create --project sweep --env LR=1 -- true >/dev/null
wait_for 30 completed 4
expect_eq "no records" "sweep/4 -" \
  "$(run-list --project sweep --metric val_acc --sort | awk 'END {print $1, $NF}')"

# run-show: the last value of each metric, and its step.
expect_eq "run-show" "Metrics:
  loss     0.5 (step 300)
  val_acc  0.9 (step 300)" "$(run-show sweep/2 | sed -n '/^Metrics:/,/^$/p' | sed '/^$/d')"
expect_contains "run-show --json" "$(run-show sweep/2 --json)" \
  '"metrics":{"loss":{"last":0.5,"step":300.0},"val_acc":{"last":0.9,"step":300.0}}'

# --- What training libraries already write, in the run's working directory.
# PyTorch Lightning's CSVLogger: a version folder per run; the one made
# before this run started is another run's.
mkdir -p lit/lightning_logs/version_0 hf
printf 'epoch,step,train_loss\n0,1,9\n' >lit/lightning_logs/version_0/metrics.csv
touch -d '-1 hour' lit/lightning_logs/version_0/metrics.csv
(cd lit && run-create --project libs -- sh -c '
  mkdir -p lightning_logs/version_1
  printf "epoch,step,train_loss,val_loss,val_acc\n0,49,0.9,,\n0,49,,0.8,0.6\n1,99,0.5,,\n1,99,,0.4,0.75\n" \
    >lightning_logs/version_1/metrics.csv' >/dev/null)
# Hugging Face Trainer's trainer_state.json in its output folder.
(cd hf && run-create --project libs -- sh -c '
  mkdir -p out/checkpoint-10
  echo "{\"log_history\": [{\"loss\": 1.5, \"step\": 10}]}" >out/checkpoint-10/trainer_state.json
  echo "{\"global_step\": 20, \"log_history\": [{\"loss\": 1.5, \"step\": 10},
    {\"eval_accuracy\": 0.61, \"eval_loss\": 0.9, \"step\": 20}]}" >out/trainer_state.json' >/dev/null)
# Files the run names, and every rank's records.
run-create --project libs --nodes 2 --metrics-rank all --metrics-file 'logs/*.csv' -- sh -c '
  echo "{\"step\": $RANK, \"rank_loss\": $RANK}" >>"$STINT_METRICS"
  if [ "$RANK" = 0 ]; then mkdir -p logs; printf "step,custom\n5,42\n" >logs/a.csv; fi' >/dev/null
libs_done() { [ "$(run-list --project libs | awk 'NR > 1 && $2 == "COMPLETED"' | wc -l)" = 3 ]; }
wait_for 60 libs_done
expect_eq "Lightning's metrics.csv" "libs/1 0.75 0.4 0.5" \
  "$(run-list --project libs --metric val_acc --metric val_loss:min --metric train_loss:last |
    awk '$1 == "libs/1" {print $1, $(NF-2), $(NF-1), $NF}')"
expect_eq "Trainer's log history" "libs/2 0.61 1.5" \
  "$(run-list --project libs --metric eval_accuracy --metric loss |
    awk '$1 == "libs/2" {print $1, $(NF-1), $NF}')"
expect_eq "--metrics-file and --metrics-rank all" "libs/3 42 1" \
  "$(run-list --project libs --metric custom --metric rank_loss:max |
    awk '$1 == "libs/3" {print $1, $(NF-1), $NF}')"

# --- Checkpoints: the files the run wrote that StintCheckpointGlob names.
mkdir -p ck/sub
(cd ck && touch -d '-1 hour' old.pt && run-create --project ckpt -- sh -c '
  head -c 1000 /dev/zero >sub/epoch1.ckpt; head -c 5 /dev/zero >model.safetensors
  echo notes >notes.txt; mkdir -p .hidden; touch .hidden/skip.pt' >/dev/null)
wait_for 30 sh -c 'run-show ckpt/1 | grep -q "^State: *COMPLETED"'
expect_eq "run-show --files" "SIZE MODIFIED FILE|5 $WORK/ck/model.safetensors|1000 $WORK/ck/sub/epoch1.ckpt" \
  "$(run-show ckpt/1 --files | awk 'NR == 1 {print $1, $2, $3; next} {print $1, $NF | "sort -k2"}' | paste -sd'|' | tr -s ' ')"
expect_contains "--files --json" "$(run-show ckpt/1 --files --json)" \
  "{\"bytes\":5,\"modified\":"

# Refusals say what exists.
command_refused "an unknown pick" "run-list: error: --metric loss:best: \"best\" is not max, min or last" \
  run-list --project sweep --metric loss:best
command_refused "--sort needs a metric" \
  "run-list: error: --sort orders by a metric: give one with --metric NAME[:max|min|last]" \
  run-list --project sweep --sort

# The README's sweep (docs/runs-example.sh), in a state directory of its own:
# its leaderboard as the README shows it, and its picture.
board=$(STINT_STATE_DIR= bash "$STINT_SOURCE_DIR/docs/runs-example.sh" "$STINT_BIN" \
  "$WORK/readme.svg" | awk 'NR == 1 || /^sweep/ {print $1, $(NF-2), $(NF-1), $NF}')
expect_eq "the README's leaderboard" "RUN LR val_acc:max loss:last
sweep/3 0.9 0.903 0.3843
sweep/2 0.3 0.8807 0.2321
sweep/1 0.1 0.6573 0.813" "$board"
expect_eq "the README's curves" 6 "$(grep -c '<path class="curve"' "$WORK/readme.svg")"
echo ok
