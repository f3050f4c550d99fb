#!/usr/bin/env bash
# A hyper-parameter sweep as a job array: eight learning rates, at most four
# running at once; each task writes its result to sweep/lr-<rate>.txt.
#
#   sbatch array-sweep.sh
#   squeue -r                       # one line per task
#   sacct -X -o JobID,State,Elapsed # 12_0 ... 12_7
#SBATCH --job-name=sweep
#SBATCH --array=0-7%4
#SBATCH --cpus-per-task=1
#SBATCH --time=10
#SBATCH --output=%x-%A_%a.out
set -euo pipefail

rates=(0.1 0.05 0.02 0.01 0.005 0.002 0.001 0.0005)
lr=${rates[$SLURM_ARRAY_TASK_ID]}
echo "task $SLURM_ARRAY_TASK_ID of array $SLURM_ARRAY_JOB_ID: lr=$lr on $SLURMD_NODENAME"

# Stands in for training: a "loss" that depends on the rate.
loss=$(awk -v lr="$lr" 'BEGIN { d = lr - 0.01; printf "%.6f", d * d * 1000 + 0.1 }')
mkdir -p sweep
echo "lr=$lr loss=$loss" >"sweep/lr-$lr.txt"
