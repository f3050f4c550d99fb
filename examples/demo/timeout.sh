#!/bin/bash
#SBATCH --job-name=too-long
#SBATCH --time=0:05
# A 5-second limit on a job that wants a minute: it ends TIMEOUT.
sleep 60
