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

# The job due ($held, below) may start whenever the test frees a little room;
# if its stepd then finds no room for its result, it is requeued, and sacct
# leaves out a job not yet eligible again (as Slurm does): it is not counted.
jobs_seen() { sacct -n -X -P -o JobID | { grep -vx "${held:-}" || true; } | sort | tr '\n' ' '; }
# The job due gets its spool folder at its first try to start.
spools() { ls "$STINT_STATE_DIR/spool" | { grep -vx "${held:-}" || true; } | sort | tr '\n' ' '; }
# Eligible in a few seconds, when the disk will be full: it cannot start (no
# room for its launch file), so it waits, and runs once there is room.
held=$(submit --begin=now+5 --wrap 'echo held')
held_due=$(($(date +%s) + 5))
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
  nothing_left "$what"
}

# nothing_left WHAT: stintd is up, and no job and no spool folder was added.
nothing_left() {
  local what=$1
  kill -0 "$pid" || fail "$what: stintd died"
  expect_eq "$what: jobs in sacct" "$jobs_before" "$(jobs_seen)"
  # (The job due may start whenever the test frees a little room.)
  expect_eq "$what: squeue" "" "$(squeue -h -o %i | grep -vx "$held" || true)"
  expect_eq "$what: spool folders" "$spools_before" "$(spools)"
}

# Every byte taken.
dd if=/dev/zero of="$disk/filler" bs=64k status=none 2>/dev/null || true

# stintd's log may have no room for its line either: what shows is the state.
# Past its begin time (and stintd's one-second pass), the job is still pending.
past_due() { [ "$(date +%s)" -ge $((held_due + 3)) ]; }
wait_for 30 past_due
expect_eq "a job due on a full disk" PD "$(squeue -h -j "$held" -o %t)"
kill -0 "$pid" || fail "stintd died starting a job on a full disk"
expect_contains "stintd answers" "$(scontrol ping)" "is UP"
jobs_before=$(jobs_seen)
spools_before=$(spools)
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
# Three variables of 100 KB each (one may be at most 128 KiB).
big=$(head -c 100000 /dev/zero | tr '\0' x)
BIG1=$big BIG2=$big BIG3=$big expect_refused "large environment" --wrap true

# Room: the job due on the full disk runs now. It ends before the disk is
# filled again: started during the 4 KiB steps below, its start would take
# some of the room freed, and where a submission first fits would depend on
# when stintd's pass came.
rm -f "$disk/filler"
wait_for 30 job_ended "$held"
expect_eq "the job due on the full disk" COMPLETED "$(job_state "$held")"
expect_eq "its output" held "$(cat "slurm-$held.out")"
jobs_before=$(jobs_seen)

# Full again, then 4 KiB freed at a time, a submission after each: every
# point where the database runs out of room fails cleanly, until there is
# room for the job.
dd if=/dev/zero of="$disk/filler" bs=64k status=none 2>/dev/null || true
# What takes the disk, in KiB, printed at each step: if no job ever fits, this
# shows what grew instead.
disk_use() {
  local f line=""
  for f in stint.db stint.db-wal stint.db-shm scripts.db scripts.db-wal scripts.db-shm; do
    [ -e "$STINT_STATE_DIR/$f" ] && line+="$f=$(du -k "$STINT_STATE_DIR/$f" | cut -f1) "
  done
  line+="log=$(du -sk "$STINT_STATE_DIR/log" 2>/dev/null | cut -f1) "
  line+="spool=$(du -sk "$STINT_STATE_DIR/spool" | cut -f1) "
  line+="free=$(df -k --output=avail "$disk" | tail -n 1 | tr -d ' ')"
  echo "$line"
}
edge=""
for step in $(seq 1 64); do
  truncate -s -4K "$disk/filler"
  if edge=$(sbatch --parsable --wrap true 2>err.txt); then break; fi
  expect_contains "$((step * 4)) KiB free: the error" "$(cat err.txt)" "sbatch: error: "
  expect_eq "$((step * 4)) KiB free: nothing on stdout" "" "$edge"
  echo "$((step * 4)) KiB free: $(head -n 1 err.txt); $(disk_use)"
  nothing_left "$((step * 4)) KiB free"
done
[ -n "$edge" ] || fail "no room for a job after freeing 256 KiB"
echo "a job fits with $((step * 4)) KiB free"

# Space again: the same stintd takes jobs, and nothing before is lost.
rm -f "$disk/filler"
wait_for 30 job_ended "$edge"
after=$(submit --wrap 'echo after')
wait_for 30 job_ended "$after"
expect_eq "stintd through it all" "$pid" "$(cat "$STINT_STATE_DIR/stintd.lock")"
kill -0 "$pid" || fail "stintd died"
expect_eq "the job after" COMPLETED "$(job_state "$after")"
expect_eq "output after" after "$(cat "slurm-$after.out")"
expect_eq "earlier job" COMPLETED "$(job_state "$before1")"
expect_eq "earlier array" "COMPLETED COMPLETED COMPLETED" \
  "$(sacct -n -X -P -o State -j "$before2" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "integrity" ok "$(sqlite3 "file:$STINT_STATE_DIR/stint.db?mode=ro" 'PRAGMA integrity_check')"
