#!/usr/bin/env bash
# CUDA_VISIBLE_DEVICES inside a job names the GPUs that scontrol says it got,
# with virtual GPUs declared in the config; GPUs are not shared.
source "$(dirname "$0")/lib.sh"
default_config   # two nodes of 2 GPUs each

gate='echo "$CUDA_VISIBLE_DEVICES" > gpus-$SLURM_JOB_ID; for i in $(seq 600); do [ -e go ] && exit 0; sleep 0.1; done; exit 1'
a=$(submit --gres=gpu:1 --wrap "$gate")
b=$(submit --gpus-per-node=1 --wrap "$gate")
c=$(submit -G 2 --wrap "$gate")
for id in $a $b $c; do wait_for 30 test -s "gpus-$id"; done

expect_eq "first job's GPU" 0 "$(cat "gpus-$a")"
expect_eq "second job's GPU" 1 "$(cat "gpus-$b")"
expect_eq "third job's GPUs" "0,1" "$(cat "gpus-$c")"
for id in $a $b $c; do
  idx=$(scontrol -d show job "$id" | grep -o 'IDX:[0-9,-]*' | head -n 1)
  want=$(cat "gpus-$id" | sed 's/^0,1$/0-1/')
  expect_eq "scontrol GPU index of $id" "IDX:$want" "$idx"
done
expect_eq "a and b share node n-1" "n-1 n-1 n-2" \
  "$(squeue -h -j "$a,$b,$c" -o %N -S i | tr '\n' ' ' | sed 's/ $//')"

# A job without GPUs does not see any.
nogpu=$(CUDA_VISIBLE_DEVICES=5 submit --wrap 'echo "[${CUDA_VISIBLE_DEVICES-unset}]"')
touch go
wait_for 30 job_ended "$nogpu"
expect_eq "no GPUs" "[unset]" "$(cat "slurm-$nogpu.out")"
for id in $a $b $c; do wait_for 30 job_ended "$id"; done

# More GPUs than any node has is refused at submit.
set +e
err=$(sbatch --gres=gpu:3 --wrap true 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "gpu:3 accepted"
expect_contains "gpu:3" "$err" "Invalid generic resource (gres) specification"
