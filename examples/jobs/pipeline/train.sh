#!/usr/bin/env bash
#SBATCH --job-name=train
#SBATCH --cpus-per-task=2
#SBATCH --time=10
#SBATCH --output=pipeline-%x.out
set -euo pipefail
# Fails (and so cancels evaluate) if the data is missing.
[ -s pipeline-data.txt ]
awk '{ s += $1 } END { print "model: mean=" s / NR }' pipeline-data.txt >pipeline-model.txt
echo "train: $(cat pipeline-model.txt)"
