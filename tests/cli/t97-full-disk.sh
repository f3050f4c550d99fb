#!/usr/bin/env bash
# A full disk under the state directory (a small tmpfs): sbatch says why it
# failed and submits nothing (no job in squeue or sacct, no spool folder), the
# same stintd stays up, and once space is freed submissions work again and
# nothing earlier is damaged. (docs/reliability.md, "Hostile input".)
# Mounting needs root (CAP_SYS_ADMIN); without it the test is skipped.
source "$(dirname "$0")/lib.sh"

disk="$TEST_ROOT/disk"
mkdir -p "$disk"
if ! mount -t tmpfs -o size=16m,mode=0700 tmpfs "$disk" 2>/dev/null; then
  echo "SKIP: cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)" >&2
  exit 77
fi
unmount_disk() {
  local rc=$?
  stop_stintd
  umount "$disk" 2>/dev/null || umount -l "$disk"
  (exit $rc)
  cleanup
}
trap unmount_disk EXIT

export STINT_STATE_DIR="$disk/state"
mkdir -p "$STINT_STATE_DIR"
chmod 700 "$STINT_STATE_DIR"
default_config

before1=$(submit --wrap 'echo one')
before2=$(submit --array=1-3 --wrap 'echo two')
pid=$(cat "$STINT_STATE_DIR/stintd.lock")
wait_for 30 job_ended "$before1"
for t in 1 2 3; do wait_for 30 job_ended "${before2}_$t"; done

jobs_seen() { sacct -n -X -P -o JobID | sort | tr '\n' ' '; }
spools() { ls "$STINT_STATE_DIR/spool" | sort | tr '\n' ' '; }
jobs_before=$(jobs_seen)
spools_before=$(spools)

# expect_refused WHAT SBATCH-ARGS...: sbatch fails with a message, and leaves nothing.
expect_refused() {
  local what=$1 out err rc=0
  shift
  out=$(sbatch "$@" 2>err.txt) || rc=$?
  err=$(cat err.txt)
  [ "$rc" -ne 0 ] || fail "$what: sbatch succeeded on a full disk: $out"
  expect_eq "$what: nothing on stdout" "" "$out"
  expect_contains "$what: the error" "$err" "sbatch: error: "
  echo "$what: $err"
  kill -0 "$pid" || fail "$what: stintd died"
  expect_eq "$what: jobs in sacct" "$jobs_before" "$(jobs_seen)"
  expect_eq "$what: squeue" "" "$(squeue -h)"
  expect_eq "$what: spool folders" "$spools_before" "$(spools)"
}

# Every byte taken.
dd if=/dev/zero of="$disk/filler" bs=64k status=none 2>/dev/null || true
expect_refused "full disk" --wrap true
expect_refused "full disk, array" --array=1-50 --wrap true

# A little room: the start of a large script fits, the rest does not.
truncate -s -128K "$disk/filler"
{
  echo '#!/bin/sh'
  head -c 1048576 /dev/zero | tr '\0' '#' | fold -w 100
  echo true
} >"$WORK/big.sh"
expect_refused "large script" "$WORK/big.sh"
expect_refused "large environment" --export=ALL,BIG="$(head -c 200000 /dev/zero | tr '\0' x)" --wrap true

# Space again: the same stintd takes jobs, and nothing before is lost.
rm -f "$disk/filler"
after=$(submit --wrap 'echo after')
wait_for 30 job_ended "$after"
expect_eq "stintd through it all" "$pid" "$(cat "$STINT_STATE_DIR/stintd.lock")"
expect_eq "the job after" COMPLETED "$(job_state "$after")"
expect_eq "output after" after "$(cat "slurm-$after.out")"
expect_eq "earlier job" COMPLETED "$(job_state "$before1")"
expect_eq "earlier array" "COMPLETED COMPLETED COMPLETED" \
  "$(sacct -n -X -P -o State -j "$before2" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "integrity" ok "$(sqlite3 "file:$STINT_STATE_DIR/stint.db?mode=ro" 'PRAGMA integrity_check')"
