#!/usr/bin/env bash
# A run's variables may hold tokens (--env WANDB_API_KEY=...): another local
# user sees their names and "***" for every value, in run-list, run-show,
# sacct --env-vars and scontrol show job, and finds no value in any file of
# the state directory they may read (stint.db keeps the names only); the
# owner and operators see the values, the run's command gets them, also
# after a restart of stintd. Runs a system-mode stintd (root) and the tools
# as real users made for the test, as t93 does. sbatch --export=NAME=VALUE's
# values are kept the same way.
. "$(dirname "$0")/users.sh"

tag=$$
alice="stintva$tag"
bob="stintvb$tag"
for u in "$alice" "$bob"; do add_test_user "$u"; done
alice_home="$TEST_ROOT/home-$alice"

default_config
stintd --state-dir "$STINT_STATE_DIR"
wait_for 20 test -S "$STINT_STATE_DIR/stintd.sock"

run=$(as "$alice" run-create --project sec --env SECRET_TOKEN=hunter2 --env LR=0.1 \
  -- sh -c 'echo "token=$SECRET_TOKEN lr=$LR"')
expect_eq "run name" "sec/1" "$run"
job=$(run-show sec/1 | awk '/^Job ID:/ {print $3}')
wait_for 20 job_ended "$job"
expect_eq "the run" COMPLETED "$(job_state "$job")"
expect_eq "the command got the values" "token=hunter2 lr=0.1" "$(cat "$alice_home/run-$job.0.out")"

# no_secret WHAT TEXT: TEXT names the variable and never holds its value.
no_secret() {
  expect_contains "$1 names the variable" "$2" SECRET_TOKEN
  case "$2" in *hunter2*) fail "$1 shows the value: $2" ;; esac
}

# --- Another user: names, "***" for values.
out=$(as "$bob" run-list --project sec)
no_secret "bob's run-list" "$out"
expect_eq "bob's run-list row" "*** ***" "$(echo "$out" | awk 'NR == 2 {print $7, $8}')"
no_secret "bob's run-list --json" "$(as "$bob" run-list --json)"
out=$(as "$bob" run-show sec/1)
no_secret "bob's run-show" "$out"
expect_contains "bob's run-show" "$out" "  SECRET_TOKEN=***"
out=$(as "$bob" sacct -a --env-vars -j "$job")
no_secret "bob's sacct -a --env-vars" "$out"
expect_contains "bob's sacct -a --env-vars" "$out" "SECRET_TOKEN=***"
out=$(as "$bob" scontrol show job "$job")
case "$out" in *hunter2*) fail "bob's scontrol show job shows the value: $out" ;; esac
out=$(as "$bob" scontrol -d show job "$job")
case "$out" in *hunter2*) fail "bob's scontrol -d show job shows the value: $out" ;; esac
err=$(as "$bob" run-clone sec/1 -- true 2>&1) && fail "bob cloned alice's values"
expect_contains "bob's clone refused" "$err" "give SECRET_TOKEN, LR with --env"

# --- No file bob may read holds the value (stint.db, its WAL, logs, spool).
found=$(as "$bob" grep -rlsa hunter2 "$STINT_STATE_DIR" || true)
expect_eq "files bob reads with the value" "" "$found"
# It is there for the run: in scripts.db, root's alone.
grep -qa hunter2 "$STINT_STATE_DIR"/scripts.db* || fail "scripts.db lost the value"

# --- The owner and an operator (root) see the values.
expect_contains "alice's run-show" "$(as "$alice" run-show sec/1)" "  SECRET_TOKEN=hunter2"
expect_eq "alice's run-list row" "hunter2 0.1" \
  "$(as "$alice" run-list --project sec | awk 'NR == 2 {print $7, $8}')"
expect_contains "alice's sacct --env-vars" "$(as "$alice" sacct --env-vars -j "$job")" \
  "SECRET_TOKEN=hunter2"
expect_contains "root's run-show" "$(run-show sec/1)" "  SECRET_TOKEN=hunter2"

# --- After a restart stintd reads the runs back from stint.db, names only:
# the values still come from scripts.db, to be shown and for a run that
# starts then.
for n in n-1 n-2; do scontrol update NodeName=$n State=DRAIN Reason=secrets; done
run=$(as "$alice" run-create --project sec --env SECRET_TOKEN=hunter3 -- sh -c 'echo "token=$SECRET_TOKEN"')
job2=$(run-show "$run" | awk '/^Job ID:/ {print $3}')
stop_stintd
stintd --state-dir "$STINT_STATE_DIR"
wait_for 20 test -S "$STINT_STATE_DIR/stintd.sock"
expect_contains "alice's run-show after a restart" "$(as "$alice" run-show sec/1)" \
  "  SECRET_TOKEN=hunter2"
expect_eq "still waiting" PENDING "$(job_state "$job2")"
for n in n-1 n-2; do scontrol update NodeName=$n State=RESUME; done
wait_for 20 job_ended "$job2"
expect_eq "the value after a restart" "token=hunter3" "$(cat "$alice_home/run-$job2.0.out")"
found=$(as "$bob" grep -rlsa hunter3 "$STINT_STATE_DIR" || true)
expect_eq "files bob reads with the second value" "" "$found"

# --- sbatch --export=NAME=VALUE: the job gets the value; stint.db keeps
# NAME=*** (scripts.db, root's, has the environment).
jx=$(as "$alice" sbatch --parsable --export=ALL,API_KEY=hunter5 -o "$alice_home/export-%j.out" \
  --wrap 'echo key=$API_KEY')
wait_for 20 job_ended "$jx"
expect_eq "the job got the exported value" "key=hunter5" "$(cat "$alice_home/export-$jx.out")"
found=$(as "$bob" grep -rlsa hunter5 "$STINT_STATE_DIR" || true)
expect_eq "files bob reads with the exported value" "" "$found"
case "$(as "$bob" scontrol -d show job "$jx")" in
  *hunter5*) fail "bob's scontrol show job shows the exported value" ;;
esac
