#!/bin/bash
# Multi-node data-parallel training, launched the way a Slurm cluster does it:
# sbatch gives two nodes with two GPUs each, srun starts one task per GPU, and
# each task finds its place in SLURM_PROCID / SLURM_LOCALID / SLURM_NTASKS and
# meets the others at MASTER_ADDR:MASTER_PORT (torch.distributed's env://).
#
#   cd examples/jobs && sbatch distributed.sh    # on any cluster of 2 nodes with
#                                                # 2 GPUs, e.g. ../clusters/rehearsal.yaml
#
#SBATCH -J ddp
#SBATCH -N 2
#SBATCH --ntasks-per-node=2
#SBATCH --gpus-per-node=2
#SBATCH -c 2
#SBATCH -t 30
#SBATCH -o ddp-%j.out

# Rank 0 runs on the first node of the allocation.
MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
# stint's nodes are virtual nodes of one machine: their names need not resolve.
getent hosts "$MASTER_ADDR" >/dev/null || MASTER_ADDR=127.0.0.1
export MASTER_ADDR
export MASTER_PORT=$((20000 + SLURM_JOB_ID % 10000))

echo "ddp: $SLURM_NNODES nodes ($SLURM_JOB_NODELIST), $SLURM_NTASKS tasks, master $MASTER_ADDR:$MASTER_PORT"
# The job ends as its step does: srun's status is the highest of its tasks'.
srun python3 ddp.py
