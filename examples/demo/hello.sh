#!/bin/bash
#SBATCH --job-name=hello
#SBATCH --cpus-per-task=1
#SBATCH --time=00:01:00
echo "hello from job $SLURM_JOB_ID on $SLURMD_NODENAME ($SLURM_CPUS_ON_NODE CPUs)"
