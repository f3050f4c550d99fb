#!/bin/bash
#SBATCH --job-name=fails
#SBATCH --time=1
echo "this job exits with status 3"
exit 3
