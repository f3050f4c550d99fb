#!/usr/bin/env bash
# The attacks of the second round that one user aims at everyone, run with
# two real Unix users against a system-mode stintd (root): alice holds
# stintd's socket with half-sent frames of the largest size, and stops the
# child emptying her deleted storage; bob is served meanwhile. A stopped
# stintd costs bob MessageTimeout and Slurm's words, never a hang, and his
# given-up submission does not run later.
. "$(dirname "$0")/users.sh"

tag=$$
alice="stintx$tag"
bob="stinty$tag"
for u in "$alice" "$bob"; do add_test_user "$u"; done
write_config <<YAML
cluster_name: test
node_pools:
  - {id: n, count: 1, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "2"
  MessageTimeout: "$(scaled 2)"
YAML
stintd --state-dir "$STINT_STATE_DIR"
wait_for 20 test -S "$STINT_STATE_DIR/stintd.sock"
stintd_pid=$(cat "$STINT_STATE_DIR/stintd.lock")
bob_submits() {
  local j
  j=$(as "$bob" sbatch --parsable --wrap true) || fail "bob could not submit: $1"
  wait_for 30 job_ended "$j"
  expect_eq "bob's job ($1)" COMPLETED "$(job_state "$j")"
}

# --- Half-sent frames: alice's share of what stintd holds is bounded, the
# connections past it are closed, and bob is served while she holds them.
release="$TEST_ROOT/release-frames"
as "$alice" python3 "$STINT_SOURCE_DIR/tests/cli/hostile_client.py" "$STINT_STATE_DIR/stintd.sock" \
  hold-partial 16 "$release" >"$TEST_ROOT/flood.out" 2>&1 &
flooder=$!
wait_for 60 grep -q "holding" "$TEST_ROOT/flood.out"
expect_contains "alice's frames" "$(cat "$TEST_ROOT/flood.out")" "closed by stintd"
grep -q "holding 16 partial" "$TEST_ROOT/flood.out" && fail "stintd held all of alice's frames"
bob_submits "while alice holds half-sent frames"
touch "$release"
wait "$flooder" || fail "alice's client: $(cat "$TEST_ROOT/flood.out")"

# --- A storage's emptying stopped by its owner: stintd answers bob.
path=$(as "$alice" run-storage create big)
as "$alice" sh -c "mkdir '$path/d' && cd '$path/d' && seq 1 20000 | xargs touch"
as "$alice" run-storage delete big
wait_for 20 pgrep -x -P "$stintd_pid" stintd-rmstore
child=$(pgrep -x -P "$stintd_pid" stintd-rmstore | head -n 1)
expect_eq "the emptying child's owner" "$alice" "$(ps -o user= -p "$child" | tr -d ' ')"
as "$alice" kill -STOP "$child" || fail "alice could not stop her storage's emptying"
bob_submits "while alice's storage removal is stopped"
kill -CONT "$child"
wait_for 60 sh -c "! ls -d '$STINT_STATE_DIR'/storages/.deleted-* >/dev/null 2>&1"

# --- A stopped stintd: bob's sbatch gives up after MessageTimeout in Slurm's
# words (a user goes by the socket: root's lock is not his to read).
kill -STOP "$stintd_pid"
set +e
err=$(as "$bob" timeout 60 sbatch -J lost --wrap true 2>&1)
rc=$?
set -e
kill -CONT "$stintd_pid"
[ $rc -ne 124 ] || fail "bob's sbatch hung on a stopped stintd"
expect_eq "bob's sbatch" \
  "sbatch: error: Batch job submission failed: Socket timed out on send/recv operation" "$err"
bob_submits "once stintd runs again"
expect_eq "the given-up submission" "" "$(sacct -a -n -X -P -o JobName --name lost)"
echo "t94-two-user-attacks: ok"
