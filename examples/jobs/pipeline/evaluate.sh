#!/usr/bin/env bash
#SBATCH --job-name=evaluate
#SBATCH --cpus-per-task=1
#SBATCH --time=5
#SBATCH --output=pipeline-%x.out
set -euo pipefail
grep -q '^model: mean=500.5$' pipeline-model.txt
echo "evaluate: the model is right"
