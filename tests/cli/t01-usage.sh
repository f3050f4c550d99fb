#!/usr/bin/env bash
# Every tool answers an unknown option with usage on stderr and a non-zero exit,
# and --help on stdout with exit 0. Nothing here needs stintd.
source "$(dirname "$0")/lib.sh"

for tool in sbatch squeue scancel sinfo scontrol sacct stint stintd; do
  set +e
  out=$("$tool" --bogus-option 2>&1 >/dev/null)
  rc=$?
  set -e
  [ $rc -ne 0 ] || fail "$tool --bogus-option exited 0"
  expect_contains "$tool --bogus-option" "$out" "--bogus-option"
  expect_contains "$tool --bogus-option" "$out" "Try \"$tool --help\""
  help=$("$tool" --help)
  # Slurm's sacct begins "sacct [<OPTION>]" rather than "Usage:".
  [[ $help == *Usage* || $help == "$tool ["* ]] || fail "$tool --help: no usage in: ${help:0:200}"
done

set +e
out=$(sbatch -Z --wrap true 2>&1)
rc=$?
set -e
expect_eq "sbatch -Z exit" 255 "$rc"
expect_contains "sbatch -Z" "$out" "sbatch: invalid option -- 'Z'"
[ ! -e "$STINT_STATE_DIR/stint.db" ] || fail "a usage error started stintd"
