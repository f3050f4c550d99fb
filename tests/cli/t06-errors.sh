#!/usr/bin/env bash
# Bad input gets Slurm's message on stderr, a non-zero exit, and changes nothing.
source "$(dirname "$0")/lib.sh"
default_config
sbatch --wrap true >/dev/null   # start stintd and have one job
count() { sqlite3 "$STINT_STATE_DIR/stint.db" 'select count(*) from jobs'; }
before=$(count)

# expect_error EXIT MESSAGE -- COMMAND...
expect_error() {
  local want_rc=$1 want_msg=$2
  shift 3
  set +e
  local err
  err=$("$@" 2>&1 >/dev/null)
  local rc=$?
  set -e
  [ "$rc" -ne 0 ] || fail "$* succeeded"
  [ "$want_rc" = any ] || expect_eq "exit status of $*" "$want_rc" "$rc"
  expect_contains "message of $*" "$err" "$want_msg"
}

expect_error 255 "sbatch: unrecognized option '--bogus-option'" -- sbatch --bogus-option --wrap true
expect_error 255 "sbatch: error: Invalid --time specification" -- sbatch -t 1:2:3:4 --wrap true
expect_error 255 "sbatch: error: Invalid --time specification" -- sbatch -t abc --wrap true
expect_error 1 "sbatch: error: invalid partition specified: nosuch" -- sbatch -p nosuch --wrap true
expect_error 1 "Batch job submission failed: Invalid partition name specified" -- sbatch -p nosuch --wrap true
expect_error 1 "Requested node configuration is not available" -- sbatch -c 64 --wrap true
expect_error 1 "Memory specification can not be satisfied" -- sbatch --mem=1000G --wrap true
expect_error 1 "sbatch: error: Unable to open file nosuchscript.sh" -- sbatch nosuchscript.sh
printf 'echo no interpreter\n' > nohashbang.sh
expect_error 1 "This does not look like a batch script" -- sbatch nohashbang.sh
expect_error 1 "Batch script is empty" -- sbatch /dev/null
expect_error any "Invalid job id specified" -- scancel -s USR1 99999
expect_error any "Invalid job id specified" -- scontrol show job 99999

expect_eq "jobs after bad input" "$before" "$(count)"
expect_eq "next id is not burned" "2" "$(submit --hold --wrap true)"
scancel 2
