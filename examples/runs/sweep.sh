#!/usr/bin/env bash
# A hyper-parameter sweep the NSML way: one 2-node run, then a clone per
# learning rate, then the table of the project's runs.
set -euo pipefail
cd "$(dirname "$0")"
first=$(run-create --project sweep --nodes 2 --env LR=0.1 --env BATCH=64 -- python3 train.py)
echo "created $first"
run-clone "$first" --same-command --sweep LR=0.03,0.01
run-list --project sweep
