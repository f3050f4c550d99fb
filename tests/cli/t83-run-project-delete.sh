#!/usr/bin/env bash
# Projects and run-delete: run-project create/list, a project made by its
# first run, run numbers that survive a deletion, a deleted run gone from the
# run tools but kept by sacct, and the refusals (a live run, an unknown run,
# a bad name, a second project; another user's run is t93's).
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: c, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: main, node_pool_ids: [c]}
config:
  StintRunPorts: "31200-31219"
YAML

# --- run-project ---------------------------------------------------------------------
expect_eq "create" "vision" "$(run-project create vision -d 'image models')"
err=$(run-project create vision 2>&1) && fail "a second project 'vision' was made"
expect_contains "existing project" "$err" "run-project: error: Project vision already exists"
err=$(run-project create 'bad/name' 2>&1) && fail "a bad project name was taken"
expect_contains "bad name" "$err" "Invalid project name"
err=$(run-project 2>&1) && fail "run-project without a subcommand succeeded"

# A run makes its project on first use.
expect_eq "first run" "nlp/1" "$(run-create --project nlp -- true)"
expect_eq "second run" "nlp/2" "$(run-create --project nlp -- sh -c 'echo rank $RANK')"
ended() {
  [ "$(run-list --project nlp --json |
    python3 -c 'import json,sys; print(sum(r["state"] == "COMPLETED" for r in json.load(sys.stdin)))')" = 2 ]
}
wait_for 30 ended
me=$(id -un)
listing=$(run-project list -n)
expect_eq "projects" "nlp $me 2 0
vision $me 0 0" "$(awk '{print $1, $2, $3, $4}' <<<"$listing")"
expect_contains "description" "$(run-project list | grep '^vision')" "image models"
expect_contains "header" "$(run-project list | head -1)" "PROJECT"
expect_contains "json" "$(run-project list --json)" '"project":"vision"'

# --- run-delete ----------------------------------------------------------------------
job_of() { sacct -n -X -P -o JobID,JobName | awk -F'|' -v run="$1" '$2 == run {print $1}'; }
job2=$(job_of nlp/2)
[ -f "run-$job2.0.out" ] || fail "run nlp/2 wrote no output file"
long=$(run-create --project nlp -- sleep 300)
expect_eq "third run" "nlp/3" "$long"
running() { run-list --project nlp --json | grep -q '"run":"nlp/3"[^}]*"RUNNING"'; }
wait_for 30 running
err=$(run-delete nlp/3 2>&1) && fail "a running run was deleted"
expect_contains "live run" "$err" "run-delete: error: Run nlp/3 has not ended: stop it first (run-stop)"
err=$(run-delete nlp/9 2>&1) && fail "a run that never was got deleted"
expect_contains "no run" "$err" "No run nlp/9"

expect_eq "delete" "nlp/2 deleted" "$(run-delete nlp/2)"
[ ! -e "run-$job2.0.out" ] || fail "run-delete left the run's output file"
expect_eq "run-list without it" "nlp/1 nlp/3" "$(run-list --project nlp | awk 'NR > 1 {print $1}' | xargs)"
err=$(run-show nlp/2 2>&1) && fail "run-show showed a deleted run"
expect_contains "run-show" "$err" "No run nlp/2"
err=$(run-delete nlp/2 2>&1) && fail "a run was deleted twice"
expect_contains "twice" "$err" "No run nlp/2"
expect_eq "sacct keeps it" "nlp/2|COMPLETED" "$(sacct -n -X -P -j "$job2" -o JobName,State)"
# Numbers are never reused.
expect_eq "next number" "nlp/4" "$(run-create --project nlp -- true)"
expect_eq "project counts" "nlp 3" "$(run-project list -n | awk '$1 == "nlp" {print $1, $3}')"

# --keep-logs leaves the files; several runs at once, one refused: status 1.
job1=$(job_of nlp/1)
rc=0
out=$(run-delete --keep-logs nlp/1 nlp/3 2>"$TEST_ROOT/err") || rc=$?
expect_eq "partial status" 1 "$rc"
expect_eq "partial out" "nlp/1 deleted" "$out"
expect_contains "partial err" "$(cat "$TEST_ROOT/err")" "Run nlp/3 has not ended"
[ -e "run-$job1.0.out" ] || fail "--keep-logs removed the output file"
run-stop nlp/3 >/dev/null
stopped() { run-list --project nlp --json | grep -q '"run":"nlp/3"[^}]*"STOPPED"'; }
wait_for 30 stopped
expect_eq "delete stopped" "nlp/3 deleted" "$(run-delete nlp/3)"

# --- run-project delete: refused while a run is live, then the project and its
# ended runs leave the run tools; accounting keeps the jobs; numbers go on. ----------
expect_eq "cv/1" "cv/1" "$(run-create --project cv -- true)"
live=$(run-create --project cv -- sleep 300)
cv_running() { run-list --project cv --json | grep -q '"run":"cv/2"[^}]*"RUNNING"'; }
wait_for 30 cv_running
command_refused_with 1 "a project with a live run" \
  "run-project: error: Project cv has runs that have not ended (cv/2): stop them first (run-stop)" \
  run-project delete cv
expect_eq "nothing deleted" "cv/1 cv/2" "$(run-list --project cv | awk 'NR > 1 {print $1}' | xargs)"
run-stop "$live" >/dev/null
cv_stopped() { run-list --project cv --json | grep -q '"run":"cv/2"[^}]*"STOPPED"'; }
wait_for 30 cv_stopped
cv1=$(job_of cv/1)
[ -f "run-$cv1.0.out" ] || fail "run cv/1 wrote no output file"
expect_eq "project deleted" "cv/1 deleted cv/2 deleted cv deleted" "$(run-project delete cv | xargs)"
[ ! -e "run-$cv1.0.out" ] || fail "run-project delete left a run's output file"
expect_eq "no runs left" "" "$(run-list --project cv | tail -n +2)"
expect_eq "not listed" "" "$(run-project list -n | awk '$1 == "cv"')"
expect_eq "sacct keeps its jobs" "cv/1|COMPLETED" "$(sacct -n -X -P -j "$cv1" -o JobName,State)"
command_refused_with 1 "an unknown project" \
  "run-project: error: No project cv (run-project list shows them)" run-project delete cv
expect_eq "numbers go on" "cv/3" "$(run-create --project cv -- true)"
# A project made by run-project create, with no run, goes as well.
expect_eq "vision deleted" "vision deleted" "$(run-project delete vision)"
expect_eq "vision gone" "" "$(run-project list -n | awk '$1 == "vision"')"
echo "ok"
