#!/usr/bin/env bash
# Several users: a system-mode stintd (root) on a temporary
# system state directory, and the tools run as two real Unix users made for
# the test. Jobs run as their owner (uid, gid, groups, HOME, umask), output
# files are created as the owner and nowhere the owner may not write, and one
# user cannot act on, or read the script of, another's jobs; only operators
# change nodes, partitions, the config and accounts.
. "$(dirname "$0")/users.sh"

# Names unique to this run: tests run in parallel, on machines others use.
tag=$$
alice="stinta$tag"
bob="stintb$tag"
team="stintg$tag"
victim="/etc/stint-test-owned-$tag"
remove_extras() {
  groupdel "$team" >/dev/null 2>&1
  rm -f "$victim" "$victim.target" "$victim.link"
}

groupadd "$team"
for u in "$alice" "$bob"; do add_test_user "$u" -G "$team"; done
alice_home="$TEST_ROOT/home-$alice"
bob_home="$TEST_ROOT/home-$bob"

default_config
stintd --state-dir "$STINT_STATE_DIR"
wait_for 20 test -S "$STINT_STATE_DIR/stintd.sock"

# --- The state directory as system mode lays it out.
expect_eq "state dir mode" 755 "$(stat -c %a "$STINT_STATE_DIR")"
expect_eq "socket mode" 666 "$(stat -c %a "$STINT_STATE_DIR/stintd.sock")"
expect_eq "spool mode" 711 "$(stat -c %a "$STINT_STATE_DIR/spool")"
expect_eq "log mode" 700 "$(stat -c %a "$STINT_STATE_DIR/log")"
for f in stint.db stint.db-wal stint.db-shm; do
  expect_eq "$f mode" "644 root" "$(stat -c '%a %U' "$STINT_STATE_DIR/$f")"
done

# --- A job runs as its owner: ids, groups, login variables, umask.
ja=$(as "$alice" sh -c 'umask 027; sbatch --parsable --export=NONE -o out-%j.txt \
  --wrap "id -u; id -g; id -G; echo \"\$HOME \$USER \$LOGNAME\"; umask; touch made-by-job"')
[ -n "$ja" ] || fail "alice could not submit"
wait_for 20 job_ended "$ja"
expect_eq "alice's job" COMPLETED "$(job_state "$ja")"
out="$alice_home/out-$ja.txt"
mapfile -t lines <"$out"
expect_eq "uid in the job" "$(id -u "$alice")" "${lines[0]}"
expect_eq "gid in the job" "$(id -g "$alice")" "${lines[1]}"
expect_contains "groups in the job" " ${lines[2]} " " $(getent group "$team" | cut -d: -f3) "
expect_eq "login variables" "$alice_home $alice $alice" "${lines[3]}"
expect_eq "umask in the job" 0027 "${lines[4]}"
expect_eq "output owner and mode" "$alice $alice 640" "$(stat -c '%U %G %a' "$out")"
expect_eq "job's own file" "$alice 640" "$(stat -c '%U %a' "$alice_home/made-by-job")"

# --- Every user reads the database (squeue, sacct) without writing it.
jb=$(as "$bob" sbatch --parsable --hold --wrap 'echo secret-of-bob')
expect_contains "alice sees bob's job" "$(as "$alice" squeue -h -o '%i %u')" "$jb $bob"
expect_eq "alice's sacct" COMPLETED "$(as "$alice" sacct -n -X -P -o State -j "$ja")"

# --- Scripts are their owner's: not readable by another user, by any route.
expect_contains "bob's own script" "$(as "$bob" scontrol write batch_script "$jb" -)" secret-of-bob
err=$(as "$alice" scontrol write batch_script "$jb" - 2>&1) && fail "alice read bob's script"
expect_eq "script refusal" "job script retrieval failed: Access/permission denied" "$err"
# The scripts and environments as submitted: root's alone.
for f in scripts.db scripts.db-wal scripts.db-shm; do
  expect_eq "$f" "root 600" "$(stat -c '%U %a' "$STINT_STATE_DIR/$f")"
  as "$alice" cat "$STINT_STATE_DIR/$f" >/dev/null 2>&1 && fail "alice read $f"
done
# The copy a job runs (alice's, while it runs): its owner's, in a folder of
# root's; the folder goes when the job ends.
[ ! -e "$STINT_STATE_DIR/spool/$ja" ] || fail "alice's ended job kept its spool folder"
jr=$(as "$alice" sbatch --parsable --wrap 'sleep 60')
wait_for 20 sh -c "[ \"\$(squeue -h -j $jr -o %t)\" = R ]"
as "$bob" cat "$STINT_STATE_DIR/spool/$jr/script" >/dev/null 2>&1 && fail "bob read alice's script"
as "$alice" ls "$STINT_STATE_DIR/spool" >/dev/null 2>&1 && fail "alice listed the spool"
expect_eq "alice's script owner" "$alice 700" "$(stat -c '%U %a' "$STINT_STATE_DIR/spool/$jr/script")"
expect_eq "spool folder" "root 711" "$(stat -c '%U %a' "$STINT_STATE_DIR/spool/$jr")"
as "$alice" scancel "$jr"

# --- Alice cannot act on bob's job; it stays as it was.
set +e
err=$(as "$alice" scancel "$jb" 2>&1)
rc=$?
set -e
# ESLURM_ACCESS_DENIED (2002) modulo 256, as Slurm's scancel exits.
expect_eq "scancel refusal's exit" 210 "$rc"
expect_eq "scancel refusal" "scancel: error: Kill job error on job id $jb: Access/permission denied" \
  "$err"
err=$(as "$alice" scancel -u "$bob" 2>&1) && fail "alice cancelled bob's jobs by user"
expect_eq "scancel -u refusal" \
  "scancel: error: Kill job error on job id $jb: Access/permission denied" "$err"
as "$alice" scancel -s USR1 "$jb" >/dev/null 2>&1 && fail "alice signalled bob's job"
as "$alice" scontrol release "$jb" >/dev/null 2>&1 && fail "alice released bob's job"
as "$alice" scontrol hold "$jb" >/dev/null 2>&1 && fail "alice held bob's job"
as "$alice" scontrol requeue "$jb" >/dev/null 2>&1 && fail "alice requeued bob's job"
err=$(as "$alice" scontrol update JobId="$jb" JobName=taken 2>&1) && fail "alice renamed bob's job"
expect_contains "update refusal" "$err" "Access/permission denied"
expect_eq "bob's job untouched" "PENDING JobHeldUser wrap" \
  "$(squeue -h -j "$jb" -o '%T %r %j')"

# --- Only operators change nodes, partitions, the config and accounts.
err=$(as "$alice" scontrol update NodeName=n-1 State=DRAIN Reason=mine 2>&1) && fail "alice drained"
expect_contains "node refusal" "$err" "Access/permission denied"
as "$alice" scontrol update PartitionName=debug MaxTime=5 >/dev/null 2>&1 &&
  fail "alice changed a partition"
as "$alice" scontrol reconfigure >/dev/null 2>&1 && fail "alice reconfigured"
# Reservations: slurmctld answers a user who is no operator "Invalid user id".
err=$(as "$alice" scontrol create reservation StartTime=now Duration=5 Users="$alice" \
  Nodes=n-1 2>&1) && fail "alice made a reservation"
expect_eq "reservation refusal" "Error creating the reservation: Invalid user id" "$err"
expect_eq "no reservation" "No reservations in the system" "$(as "$alice" scontrol show res)"
err=$(as "$alice" sacctmgr -i add account evil 2>&1) && fail "alice added an account"
expect_contains "sacctmgr refusal" "$err" "Access/permission denied"
as "$alice" sacctmgr -i add user "$alice" Account=root AdminLevel=Admin >/dev/null 2>&1 &&
  fail "alice made herself an administrator"
expect_eq "node still up" "n-1 idle" "$(sinfo -h -N -o '%N %T' | grep '^n-1 ')"
expect_eq "partition unchanged" 1:00:00 "$(sinfo -h -p debug -o %l)"
expect_eq "no account evil" "" "$(sacctmgr -n list account evil)"

# Root may; so may a user sacctmgr makes an Operator.
sacctmgr -i add user "$alice" Account=root AdminLevel=Operator >/dev/null
as "$alice" scontrol update JobId="$jb" JobName=renamed || fail "an operator could not update"
as "$alice" scontrol update NodeName=n-1 State=DRAIN Reason=op || fail "an operator could not drain"
scontrol update NodeName=n-1 State=RESUME
expect_eq "an operator's reservation" "Reservation created: ${bob}_1" \
  "$(as "$alice" scontrol create res StartTime=now+1day Duration=5 Users="$bob" Nodes=n-1)"
as "$alice" scontrol delete ReservationName="${bob}_1" || fail "an operator could not delete"
scancel "$jb" || fail "root could not cancel bob's job"
wait_for 10 job_ended "$jb"

# --- Output paths: nothing is created where the job's user may not write.
# A path in /etc, a job name that climbs there through %x, a symlink the user
# owns that points there, and a root-owned file reached through one.
echo keep >"$victim.target"
ln -s "$victim" "$alice_home/link-new.out"
ln -s "$victim.target" "$alice_home/link-old.out"
# root's home, a folder a plain user may not write, wherever this system keeps it.
root_home=$(getent passwd 0 | cut -d: -f6)
for spec in "-o $victim" "-J ../../../../../../..$victim -o %x" "-o link-new.out" \
  "-o link-old.out" "--chdir=$root_home -o in-root.out"; do
  # shellcheck disable=SC2086 # the spec is several options
  j=$(as "$alice" sbatch --parsable $spec --wrap 'echo written') || fail "submit $spec"
  wait_for 20 job_ended "$j"
  [ "$(job_state "$j")" = COMPLETED ] && fail "job with $spec completed"
done
[ -e "$victim" ] && fail "a job created $victim"
expect_eq "root's file" "keep" "$(cat "$victim.target")"
[ -e "$root_home/in-root.out" ] && fail "a job created $root_home/in-root.out"

# --- Runs: another user's run cannot be stopped, read or deleted (alice is an operator
# by now, bob is not).
as "$alice" run-create --project p -- sleep 30 >/dev/null || fail "alice's run-create"
wait_for 20 sh -c "squeue -h -n p/1 -o %T | grep -q RUNNING"
err=$(as "$bob" run-stop p/1 2>&1) && fail "bob stopped alice's run"
expect_eq "run-stop refusal" "run-stop: error: Access/permission denied" "$err"
err=$(as "$bob" run-logs p/1 2>&1) && fail "bob read alice's run logs"
expect_eq "run-logs refusal" "run-logs: error: Access/permission denied" "$err"
as "$alice" run-logs p/1 >/dev/null || fail "alice could not read her run's logs"
as "$alice" run-stop p/1 >/dev/null || fail "alice could not stop her run"
wait_for 20 sh -c "squeue -h -n p/1 | grep -q . && exit 1 || exit 0"
expect_eq "project owner" "p $alice" "$(as "$bob" run-project list -n | awk '{print $1, $2}')"
err=$(as "$bob" run-delete p/1 2>&1) && fail "bob deleted alice's run"
expect_eq "run-delete refusal" "run-delete: error: Access/permission denied" "$err"
err=$(as "$bob" run-project delete p 2>&1) && fail "bob deleted alice's project"
expect_eq "run-project delete refusal" "run-project: error: Project p is not yours alone (it or some of its runs belong to other users): only an operator may delete it" "$err"
expect_eq "alice deletes her run" "p/1 deleted" "$(as "$alice" run-delete --keep-logs p/1)"

# --- Only root (and the state directory's owner) stops the system stintd.
err=$(as "$bob" stint daemon stop 2>&1) && fail "bob stopped stintd"
expect_contains "stop refusal" "$err" "Access/permission denied"
test -S "$STINT_STATE_DIR/stintd.sock" || fail "stintd is gone after bob's stop"

# --- With stintd down, users still read; no user starts a stintd of their own.
stop_stintd
expect_eq "read while down" COMPLETED "$(as "$alice" sacct -n -X -P -o State -j "$ja")"
as "$alice" squeue -h >/dev/null || fail "squeue as alice with stintd down"
err=$(as "$alice" sbatch --wrap true 2>&1) && fail "alice submitted with no system stintd"
expect_contains "no system stintd" "$err" "the system stintd is not running"
[ -S "$STINT_STATE_DIR/stintd.sock" ] && fail "alice's sbatch started a stintd"

echo "t93: 2 users, system-mode stintd: jobs as their owners, refusals as Slurm's"
