#!/bin/bash
#SBATCH --job-name=too-long
#SBATCH --time=1
# A one-minute limit (Slurm's time limits count in whole minutes) on a job that
# wants five: it is stopped at the limit and ends TIMEOUT.
sleep 300
