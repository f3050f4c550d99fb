#!/usr/bin/env bash
# A job that survives preemption with REQUEUE (and scontrol requeue): it saves
# its progress when told to stop and carries on from there when it runs again.
#
# On preemption the job gets SIGTERM, then the partition's grace_time (or
# KillWait) before SIGKILL; it goes back to the queue with the same job id,
# and SLURM_RESTART_COUNT says how many times it was restarted.
#
#   sbatch -p normal checkpoint.sh 60     # 60 steps of one second
#SBATCH --job-name=ckpt
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=ckpt-%j.out
#SBATCH --time=30
set -uo pipefail

steps=${1:-60}
ckpt=${CHECKPOINT_DIR:-$SLURM_SUBMIT_DIR}/ckpt-$SLURM_JOB_ID
restarts=${SLURM_RESTART_COUNT:-0}

step=0
if [ -s "$ckpt" ]; then
  step=$(cat "$ckpt")
  echo "restart $restarts: resuming from step $step"
else
  echo "restart $restarts: starting from step 0"
fi

save() {
  # Write, then rename: a kill during the write leaves the old checkpoint.
  echo "$step" >"$ckpt.tmp" && mv "$ckpt.tmp" "$ckpt"
}
on_term() {
  save
  echo "SIGTERM at step $step: checkpoint written"
  exit 143
}
trap on_term TERM

while [ "$step" -lt "$steps" ]; do
  # The work of one step. `sleep & wait` lets the trap run at once: bash runs
  # traps only between commands, and `wait` is interrupted by the signal.
  sleep 1 &
  wait $!
  step=$((step + 1))
  save
done
echo "done: $steps steps after $restarts restarts"
rm -f "$ckpt"
