#!/usr/bin/env bash
# stint report on a small fixed workload: a completed GPU job, a failed job,
# a job requeued while it ran, a cancelled one and a held one. The SVG is
# well-formed XML with a lane per node and per GPU, a bar per attempt and
# lane, states as the attempts ended, a mark for the requeue, the job name
# escaped; the HTML page wraps it. Bad windows are refused.
source "$(dirname "$0")/lib.sh"
default_config  # two nodes n-1, n-2: 4 CPUs, 2 GPUs each
sed -i 's/^  KillWait: "2"/  KillWait: "1"\n  StintRequeueDelay: "1"/' "$STINT_STATE_DIR/stint.yaml"

err=$(stint report 2>&1) && fail "a report of no jobs succeeded"
expect_contains "no jobs" "$err" "stint: error: no job has started yet"

gate='for i in $(seq 300); do [ -e go-$SLURM_JOB_ID$SLURM_RESTART_COUNT ] && break; sleep 0.1; done'
ok=$(submit -J 'a<b&c' -c 2 --gres=gpu:1 --wrap 'sleep 1')
bad=$(submit -J bad -c 1 --wrap 'exit 3')
rq=$(submit -J again -c 1 --wrap "$gate")
cx=$(submit -J cancelled -c 1 --wrap 'sleep 60')
held=$(submit -H -J held --wrap true)
is_running() { [ "$(squeue -h -j "$1" -o %T)" = RUNNING ]; }
wait_for 30 is_running "$rq"
wait_for 30 is_running "$cx"
scontrol requeue "$rq"
scancel "$cx"
wait_for 30 is_running "$rq"
touch "go-${rq}1"
for j in "$ok" "$bad" "$rq" "$cx"; do wait_for 60 job_ended "$j"; done
expect_eq "requeued job" COMPLETED "$(job_state "$rq")"

out=$(stint report -o report.svg --title 'Fixed & small')
expect_contains "what it wrote" "$out" "Wrote report.svg and report.html"
[ -s report.svg ] && [ -s report.html ] || fail "no report.svg or report.html"
grep -q '<svg ' report.html || fail "report.html does not hold the SVG"
stint report -o - >stdout.svg
grep -q '</svg>' stdout.svg || fail "-o - wrote no SVG"

if ! command -v xmllint >/dev/null; then
  echo "SKIP structure checks: xmllint is not installed (scripts/install-deps)" >&2
  exit 0
fi
xmllint --noout report.svg || fail "report.svg is not well-formed XML"
xpath() { xmllint --xpath "$1" report.svg; }
el() { echo "//*[local-name()='$1']"; }
expect_eq "lanes (2 nodes, 4 GPUs)" 6 "$(xpath "count($(el rect)[starts-with(@class,'lane-bg')])")"
# ok: n-1 and its GPU; bad, cx: their node; rq: two attempts on n-2. held: none.
expect_eq "bars" 6 "$(xpath "count($(el rect)[@class='bar'])")"
expect_eq "bars of $ok" 2 "$(xpath "count($(el rect)[@class='bar'][@data-job='$ok'])")"
expect_eq "bars of $held" 0 "$(xpath "count($(el rect)[@data-job='$held'])")"
state() { xpath "string(($(el rect)[@class='bar'][@data-job='$1'])[$2]/@data-state)"; }
expect_eq "$ok" COMPLETED "$(state "$ok" 1)"
expect_eq "$bad" FAILED "$(state "$bad" 1)"
expect_eq "$cx" CANCELLED "$(state "$cx" 1)"
expect_eq "$rq's first attempt" REQUEUED "$(state "$rq" 1)"
expect_eq "$rq's second attempt" COMPLETED "$(state "$rq" 2)"
expect_eq "the requeue is marked" 1 "$(xpath "count($(el path)[@class='mark'][@data-job='$rq'])")"
[ "$(state "$ok" 1)" != "" ] && [ "$(xpath "string($(el rect)[@data-job='$ok']/@fill)")" != \
  "$(xpath "string($(el rect)[@data-job='$bad']/@fill)")" ] || fail "COMPLETED and FAILED share a colour"
expect_contains "escaped name" "$(xpath "string($(el g)[@data-job='$ok']/*[local-name()='title'])")" "a<b&c"
expect_contains "title" "$(xpath "string($(el text)[@class='title'])")" "Fixed & small"
expect_eq "utilisation" 1 "$(xpath "count($(el path)[@class='util-cpu'])")"

# A window after everything draws empty lanes; bad windows are refused.
stint report -o late.svg --start now+1hour --end now+2hours >/dev/null
expect_eq "nothing late" 0 "$(xmllint --xpath "count($(el rect)[@class='bar'])" late.svg)"
expect_contains "an empty window says so" "$(cat late.svg)" "; 0 job attempts (no job ran in this window),"
expect_contains "the attempts of the whole span" "$(cat report.svg)" "; 5 job attempts,"
err=$(stint report --start now --end now-1hour 2>&1) && fail "an end before the start was accepted"
expect_contains "end before start" "$err" "is not after --start"
set +e
err=$(stint report --start bogus 2>&1)
rc=$?
set -e
expect_eq "--start bogus: exit (stint(1): 1)" 1 "$rc"
expect_contains "bad time" "$err" "--start: "
expect_contains "bad time" "$err" "bogus"
err=$(stint report -o /nonexistent/dir/r.svg 2>&1) && fail "writing into a missing folder succeeded"
expect_eq "bad output names the file asked for" \
  "stint: error: Unable to write /nonexistent/dir/r.svg: No such file or directory" "$err"
