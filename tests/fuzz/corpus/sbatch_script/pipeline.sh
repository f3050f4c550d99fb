#!/usr/bin/env bash
# A dependency pipeline: prepare the data, train once it is ready, evaluate
# the model only if training succeeded, and write a summary whatever happened.
#
#   ./pipeline.sh                   # submits the four jobs, prints their ids
#   squeue                          # train waits with reason Dependency
set -euo pipefail
here=$(cd "$(dirname "$0")/pipeline" && pwd)

prep=$(sbatch --parsable "$here/prepare.sh")
train=$(sbatch --parsable --dependency=afterok:"$prep" "$here/train.sh")
eval=$(sbatch --parsable --dependency=afterok:"$train" --kill-on-invalid-dep=yes "$here/evaluate.sh")
# afterany: runs when the others have ended, however they ended.
summary=$(sbatch --parsable --dependency=afterany:"$prep":"$train":"$eval" \
  --job-name=summary --wrap "sacct -X -n -P -j $prep,$train,$eval -o JobName,State >pipeline-summary.txt")
echo "$prep $train $eval $summary"
