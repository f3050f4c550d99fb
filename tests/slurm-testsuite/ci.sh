#!/usr/bin/env bash
# A guard for ctest: the tests of Slurm's suite that pass against stint must
# keep passing. Runs when Slurm's source (its testsuite/expect) is found in
# $STINT_SLURM_SOURCE or beside the checkout (../slurm, ../slurm-22.05), and
# expect is installed; skips with a line saying so otherwise (exit 77). The
# whole suite is run by hand: tests/slurm-testsuite/run SOURCE.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
source_dir=${STINT_SLURM_SOURCE:-}
if [ -z "$source_dir" ]; then
  for candidate in "$repo/../slurm" "$repo/../slurm-22.05"; do
    [ -f "$candidate/testsuite/expect/globals" ] && source_dir=$candidate && break
  done
fi
if [ -z "$source_dir" ] || [ ! -f "$source_dir/testsuite/expect/globals" ]; then
  echo "SKIP: Slurm's source (testsuite/expect) is not beside the checkout; set STINT_SLURM_SOURCE"
  exit 77
fi
if ! command -v expect >/dev/null; then
  echo "SKIP: expect is not installed (apt-get install expect)"
  exit 77
fi
# Quick ones of those RESULTS.md lists as passing, one or more per family.
guard=(test2.1 test2.2 test2.4 test2.6 test2.8 test2.9 test4.1 test4.2 test4.14 test5.1 test5.2
  test5.10 test6.2 test6.3 test6.17 test12.1 test17.1 test17.2 test21.1 test21.2 test24.2 test28.10)
results=$(mktemp -d "${TMPDIR:-/tmp}/stint-suite-guard-XXXXXX")
trap 'rm -rf "$results"' EXIT
out=$(RESULTS_DIR=$results "$here/run" "$source_dir" "${guard[@]}")
echo "$out"
! grep -qE '^test[0-9.]+ +(FAIL|SKIP)' <<<"$out"
