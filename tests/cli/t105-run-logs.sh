#!/usr/bin/env bash
# run-logs: every rank's output labelled by rank (--all), the last lines
# (--tail), and -f that ends when the command ends, kept alive or not, and
# says why it waits while the run is pending.
source "$(dirname "$0")/lib.sh"
default_config # two nodes of 4 CPUs

run_state() { run-show "$1" | sed -n 's/^State: *//p'; }
in_state() { [ "$(run_state "$1")" = "$2" ]; }
ended() { case "$(run_state "$1")" in COMPLETED | FAILED | STOPPED | KEPT_ALIVE) return 0 ;; *) return 1 ;; esac; }

two=$(run-create --project logs --nodes 2 -- sh -c 'for i in 1 2 3; do echo "line $i of rank $RANK"; done; printf "no newline $RANK"')
wait_for 30 ended "$two"
expect_eq "rank 0" "line 1 of rank 0
line 2 of rank 0
line 3 of rank 0
no newline 0" "$(run-logs "$two")"
expect_eq "--all" "0: line 1 of rank 0
0: line 2 of rank 0
0: line 3 of rank 0
0: no newline 0
1: line 1 of rank 1
1: line 2 of rank 1
1: line 3 of rank 1
1: no newline 1" "$(run-logs --all "$two")"
expect_eq "--tail 2" "line 3 of rank 1
no newline 1" "$(run-logs --node 1 --tail 2 "$two")"
expect_eq "--all --tail 1" "0: no newline 0
1: no newline 1" "$(run-logs --all --tail 1 "$two")"
set +e
err=$(run-logs --all --node 1 "$two" 2>&1)
rc=$?
set -e
expect_eq "--all with --node: exit" 255 "$rc"
expect_contains "--all with --node" "$err" "--node excludes --all"

# A run kept alive: -f ends with its command, the nodes stay the run's.
kept=$(run-create --project logs --keep-alive on -- sh -c 'echo kept output')
out=$(timeout 30 run-logs -f "$kept") || fail "run-logs -f of a kept-alive run did not end: $out"
expect_eq "-f of a kept-alive run" "kept output" "$out"
expect_eq "still kept alive" KEPT_ALIVE "$(run_state "$kept")"
run-stop "$kept" >/dev/null

# A pending run: -f says why it waits, then prints and ends with it.
blocker=$(sbatch --parsable -N 2 --exclusive --wrap 'while [ ! -e go ]; do sleep 0.1; done')
blocker_running() { [ "$(squeue -h -j "$blocker" -o %T)" = RUNNING ]; }
wait_for 30 blocker_running
later=$(run-create --project logs -- sh -c 'echo after the wait')
timeout 60 run-logs -f "$later" >follow.out 2>follow.err &
follower=$!
wait_for 30 grep -q "run-logs: $later is pending (Resources): waiting for it to start" follow.err
# run-show of the pending run: its reason, its times so far.
shown=$(run-show "$later")
expect_contains "run-show's reason" "$shown" "Reason:       Resources"
expect_contains "run-show's end" "$shown" "Ended:        -"
json=$(run-show --json "$later")
field() { python3 -c "import json,sys; r=json.load(sys.stdin); print($1)" <<<"$json"; }
expect_eq "--json reason" Resources "$(field 'r["reason"]')"
expect_eq "--json state" PENDING "$(field 'r["state"]')"
expect_eq "--json not started" None "$(field 'r["times"]["started"]')"
touch go
wait "$follower" || fail "run-logs -f of a pending run failed: $(cat follow.err)"
expect_eq "-f after the wait" "after the wait" "$(cat follow.out)"
expect_eq "said once" 1 "$(grep -c 'is pending' follow.err)"
wait_for 30 in_state "$later" COMPLETED
json=$(run-show --json "$later")
expect_eq "--json exit code" "0:0" "$(field 'r["exit_code"]')"
expect_eq "--json rank's exit code" "0:0" "$(field 'r["ranks"][0]["exit_code"]')"
expect_eq "--json started and ended" True \
  "$(field 'r["times"]["started"] is not None and r["times"]["ended"] >= r["times"]["started"] and r["times"]["duration_s"] >= 0')"
expect_contains "run-show's duration" "$(run-show "$later")" "Duration:     "
listed=$(run-list --project logs --json)
expect_eq "run-list --json has times" True \
  "$(python3 -c 'import json,sys; print(all(r["times"]["created"] for r in json.load(sys.stdin)))' <<<"$listed")"

# run-stop: STOPPING until the nodes' commands have ended, then STOPPED.
slow=$(run-create --project logs -- sh -c 'trap "while [ ! -e stop-now ]; do sleep 0.1; done; exit 0" TERM; touch slow-started; while :; do sleep 0.1; done')
wait_for 30 test -e slow-started
run-stop "$slow" >/dev/null
wait_for 30 in_state "$slow" STOPPING
expect_contains "run-list says STOPPING" "$(run-list --project logs)" "$slow  STOPPING"
touch stop-now
wait_for 30 in_state "$slow" STOPPED
# scancel of a run's job leaves it as run-stop does: the run and its rank STOPPED.
sleeper=$(run-create --project logs -- sh -c 'touch sleeper-started; exec sleep 300')
wait_for 30 test -e sleeper-started
scancel "$(run-show "$sleeper" | sed -n 's/^Job ID: *//p')"
wait_for 30 in_state "$sleeper" STOPPED
expect_eq "scancel'ed rank" STOPPED "$(run-show "$sleeper" | awk '$1 == 0 { print $3 }')"
echo "t105-run-logs: ok"
