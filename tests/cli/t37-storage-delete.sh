#!/usr/bin/env bash
# run-storage delete answers at once and leaves the emptying to a child of
# its own ("stintd-rmstore"; the folder's owner under a root stintd): the owner
# may stop that child (SIGSTOP) or give it many files, and stintd goes on
# answering everyone meanwhile. The folder goes once the child is done, and
# the name is free again at once.
source "$(dirname "$0")/lib.sh"
default_config
path=$(run-storage create big)
mkdir "$path/d"
(cd "$path/d" && seq 1 60000 | xargs touch)
stintd_pid=$(cat "$STINT_STATE_DIR/stintd.lock")
run-storage delete big >delete.out 2>&1 &
deleter=$!
wait_for 20 pgrep -x -P "$stintd_pid" stintd-rmstore
child=$(pgrep -x -P "$stintd_pid" stintd-rmstore | head -n 1)
# Stopped by its owner: the request was answered all the same, and stintd
# serves the next ones.
kill -STOP "$child"
resume() { kill -CONT "$child" 2>/dev/null || true; }
wait "$deleter" || { resume; fail "run-storage delete failed: $(cat delete.out)"; }
expect_eq "gone from the list" "" "$(run-storage list -n)"
j=$(submit --wrap true)
wait_for 30 job_ended "$j"
expect_eq "a job meanwhile" COMPLETED "$(job_state "$j")"
again=$(run-storage create big)
expect_eq "the name is free again" "$path" "$again"
resume
wait_for 60 sh -c "! ls -d '$STINT_STATE_DIR'/storages/.deleted-* >/dev/null 2>&1"
[ -d "$again" ] || fail "the new storage went with the old one"
run-storage delete big
wait_for 30 sh -c "! ls -d '$STINT_STATE_DIR'/storages/.deleted-* >/dev/null 2>&1"
expect_eq "nothing left" "" "$(run-storage list -n)"
echo "t37-storage-delete: ok"
