#!/usr/bin/env bash
#SBATCH --job-name=prepare
#SBATCH --cpus-per-task=1
#SBATCH --time=5
#SBATCH --output=pipeline-%x.out
set -euo pipefail
seq 1 1000 >pipeline-data.txt
echo "prepare: wrote $(wc -l <pipeline-data.txt) samples"
