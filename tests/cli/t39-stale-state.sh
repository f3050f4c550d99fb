#!/usr/bin/env bash
# A personal stintd killed while a job runs does not leave the world stale:
# the reading tools say on stderr that what they show may be stale (their
# standard output unchanged), the job's stepd starts stintd again when its
# task ends (no command that writes runs here), and `stint daemon start`
# starts it when it is down, as a stepd does not after `stint daemon stop`.
source "$(dirname "$0")/lib.sh"
default_config

warning() {
  echo "$1: warning: stintd is not running; the state shown may be stale (start it with 'stint daemon start')"
}
stintd_pid() { cat "$STINT_STATE_DIR/stintd.lock"; }
stintd_gone() { ! kill -0 "$1" 2>/dev/null; }
running() { [ "$(squeue -h -j "$1" -o %t)" = R ]; }
stepd_of() { pgrep -f "stint-stepd $STINT_STATE_DIR/spool/$1/"; }
no_stepd_of() { ! stepd_of "$1"; }
completed() { [ "$(job_state "$1")" = COMPLETED ]; }

# A state directory where stintd never ran is not stale, nor is an idle one.
squeue >out.txt 2>err.txt
expect_eq "squeue before any stintd: stderr" "" "$(cat err.txt)"
expect_eq "no stintd yet" 1 "$(stint daemon status >/dev/null; echo $?)"
out=$(stint daemon start)
expect_eq "daemon start" "stintd started for $STINT_STATE_DIR (pid $(stintd_pid))" "$out"
expect_eq "started" 0 "$(stint daemon status >/dev/null; echo $?)"
expect_eq "daemon start again" "stintd is already running for $STINT_STATE_DIR" \
  "$(stint daemon start)"

job=$(submit --wrap "while [ ! -e '$WORK/go' ]; do sleep 0.05; done; echo ran")
wait_for 30 running "$job"
# RUNNING is written a moment before the stepd is spawned.
wait_for 10 stepd_of "$job"
header=$(squeue | head -n 1)
expect_eq "squeue with stintd up: stderr" "" "$(squeue 2>&1 >/dev/null)"

pid=$(stintd_pid)
kill -KILL "$pid"
wait_for 10 stintd_gone "$pid"
expect_eq "status after the kill" 1 "$(stint daemon status >/dev/null; echo $?)"

# Readers say the state may be stale; their output is what it was.
squeue >out.txt 2>err.txt
expect_eq "squeue's warning" "$(warning squeue)" "$(cat err.txt)"
expect_eq "squeue's header" "$header" "$(head -n 1 out.txt)"
expect_eq "squeue's job" "$job R" "$(squeue -h -o '%i %t' 2>/dev/null)"
sacct -n -X -P -o State -j "$job" >out.txt 2>err.txt
expect_eq "sacct's warning" "$(warning sacct)" "$(cat err.txt)"
expect_eq "sacct while down" RUNNING "$(cat out.txt)"
expect_eq "sinfo's warning" "$(warning sinfo)" "$(sinfo 2>&1 >/dev/null)"
expect_eq "scontrol show job's warning" "$(warning scontrol)" \
  "$(scontrol show job "$job" 2>&1 >/dev/null)"
expect_eq "reads do not start stintd" 1 "$(stint daemon status >/dev/null; echo $?)"

# The task ends: its stepd finds the socket the killed stintd left, starts
# one, and the job is collected with nothing else asking.
touch "$WORK/go"
wait_for 60 completed "$job"
expect_eq "its output" ran "$(cat "slurm-$job.out")"
expect_eq "stintd started by the stepd" 0 "$(stint daemon status >/dev/null; echo $?)"
# The stepd says so once the stintd it started answered, which may be after
# that stintd has collected the result.
wait_for 10 grep -q "job $job node 0: stintd was not running: started it" \
  "$STINT_STATE_DIR/log/stepd.log"
expect_eq "squeue after: stderr" "" "$(squeue 2>&1 >/dev/null)"

# A stintd stopped on purpose stays stopped: the next task to end does not
# start it (its socket is gone); `stint daemon start` does, and collects it.
job2=$(submit --wrap "while [ ! -e '$WORK/go2' ]; do sleep 0.05; done; echo ran2")
wait_for 30 running "$job2"
wait_for 10 stepd_of "$job2"
expect_eq "daemon stop" "stintd stopped" "$(stint daemon stop)"
touch "$WORK/go2"
wait_for 30 test -e "$STINT_STATE_DIR/spool/$job2/task-0.result.json"
wait_for 30 no_stepd_of "$job2"
expect_eq "not started after a stop" 1 "$(stint daemon status >/dev/null; echo $?)"
expect_eq "stale after a stop" "$(warning squeue)" "$(squeue 2>&1 >/dev/null)"
out=$(stint daemon start)
expect_eq "daemon start after a stop" "stintd started for $STINT_STATE_DIR (pid $(stintd_pid))" "$out"
expect_contains "daemon status" "$(stint daemon status)" "stintd is running for $STINT_STATE_DIR"
wait_for 30 completed "$job2"

# Nothing unfinished: a stintd that is down is normal (it exits when idle).
stint daemon stop >/dev/null
expect_eq "squeue, idle and down: stderr" "" "$(squeue 2>&1 >/dev/null)"
expect_eq "sacct, idle and down: stderr" "" "$(sacct -j "$job" 2>&1 >/dev/null)"
echo "t39-stale-state: ok"
