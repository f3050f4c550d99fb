#!/usr/bin/env bash
# stintd killed with SIGKILL while jobs run loses nothing: started again, it
# finds the jobs, and they finish. squeue and sacct work while it is down.
source "$(dirname "$0")/lib.sh"
default_config

gate='for i in $(seq 600); do [ -e go ] && break; sleep 0.1; done; echo done $SLURM_JOB_ID'
r1=$(submit -c 4 --wrap "$gate")
r2=$(submit -c 4 --wrap "$gate")
p1=$(submit -c 4 --wrap "$gate")   # pending: both nodes are full
wait_for 30 sh -c "[ \"\$(squeue -h -t R -o %i | wc -l)\" -eq 2 ]"
expect_eq "third waits" PD "$(squeue -h -j "$p1" -o %t)"

pid=$(cat "$STINT_STATE_DIR/stintd.lock")
kill -KILL "$pid"
wait_for 10 sh -c "! kill -0 $pid"

# Reads do not need stintd.
expect_eq "squeue while down" 3 "$(squeue -h | wc -l)"
expect_eq "still running while down" RUNNING "$(job_state "$r1")"

touch go
# Any command that needs stintd starts it again; it collects what ended meanwhile.
sbatch --wrap true >/dev/null
for id in $r1 $r2 $p1; do wait_for 60 job_ended "$id"; done
for id in $r1 $r2 $p1; do
  expect_eq "job $id after restart" COMPLETED "$(job_state "$id")"
  expect_eq "output of $id" "done $id" "$(cat "slurm-$id.out")"
done

# A job that ends while stintd is down keeps the end its stepd recorded:
# sacct's End and Elapsed are not the time stintd came back to collect it.
quick=$(submit --wrap 'sleep 1')
wait_for 30 sh -c "[ \"\$(squeue -h -j $quick -o %t)\" = R ]"
pid=$(cat "$STINT_STATE_DIR/stintd.lock")
kill -KILL "$pid"
wait_for 10 sh -c "! kill -0 $pid"
# Its stepd writes the result and exits (starting stintd again, which may
# collect the result and remove the job's spool folder at once).
wait_for 30 sh -c "! pgrep -f 'stint-step[d] $STINT_STATE_DIR/spool/$quick/' >/dev/null"
sleep 4 # the downtime itself, which the job's times must not include
sbatch --wrap true >/dev/null
wait_for 30 job_ended "$quick"
elapsed=$(sacct -n -X -P -j "$quick" -o ElapsedRaw)
[ "$elapsed" -le 3 ] || fail "a job of 1 s collected after 4 s down: Elapsed $elapsed s"

# The spool folder removed under a running job (by hand, by a clean-up): its
# stepd writes the result again where stintd looks for it, and the job that
# ran completes once, never taken for a failed node and run again.
g=$(submit --requeue --wrap 'for i in $(seq 300); do [ -e spool-go ] && break; sleep 0.1; done; echo ran')
# Its script runs (squeue says R as soon as its stepd is asked for, before
# that stepd has read its launch file from the folder).
wait_for 30 pgrep -f "$STINT_STATE_DIR/spool/$g/script"
rm -rf "$STINT_STATE_DIR/spool/$g"
touch spool-go
wait_for 30 job_ended "$g"
expect_eq "spool removed under the job" COMPLETED "$(job_state "$g")"
expect_eq "one attempt" 1 "$(sacct -n -X -D -P -j "$g" -o State | grep -c .)"

# A tool asks whether a stintd holds the lock by taking a shared lock for an
# instant: a stintd started in that instant waits the probe out instead of
# leaving the directory unserved. Here the probe lasts a second.
lock="$STINT_STATE_DIR/stintd.lock"
pid=$(cat "$lock")
kill -KILL "$pid"
wait_for 10 flock -n -x "$lock" true
flock -s "$lock" sleep 1 &
prober=$!
wait_for 10 sh -c "! flock -n -x '$lock' true"
stintd --state-dir "$STINT_STATE_DIR"
wait "$prober"
# The new stintd holds the lock a moment before its pid is in the file.
lock_holder() { ps -o comm= -p "$(cat "$lock")" 2>/dev/null || true; }
stintd_holds_lock() { ! flock -n -s "$lock" true && [ "$(lock_holder)" = stintd ]; }
wait_for 20 stintd_holds_lock
expect_eq "stintd after a probe" stintd "$(lock_holder)"

# A job's script is kept in scripts.db; the spool holds the copy a task runs,
# written without a sync and checked before each launch: a copy a power cut
# cut short is written again before the next task of the array runs.
arr=$(submit -H --array=0-1 --wrap 'echo kept script, task $SLURM_ARRAY_TASK_ID')
scontrol release "${arr}_0"
wait_for 30 job_ended "${arr}_0"
expect_eq "first task" "kept script, task 0" "$(cat "slurm-${arr}_0.out")"
: >"$STINT_STATE_DIR/spool/$arr/script"
scontrol release "${arr}_1"
wait_for 30 job_ended "${arr}_1"
expect_eq "task after the copy was cut short" "kept script, task 1" "$(cat "slurm-${arr}_1.out")"
expect_contains "as submitted" "$(scontrol write batch_script "$arr" -)" "kept script"

# A job whose kept script is gone fails at its start, with the reason logged,
# rather than run whatever its spool may hold.
lost=$(submit -H --wrap 'echo should not run')
python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("DELETE FROM scripts WHERE job_id = ?", (int(sys.argv[2]),))
db.commit()' "$STINT_STATE_DIR/scripts.db" "$lost"
scontrol release "$lost"
wait_for 30 job_ended "$lost"
expect_eq "a job without its script" FAILED "$(job_state "$lost")"
expect_contains "why it failed" "$(cat "$STINT_STATE_DIR/log/stintd.log")" \
  "job $lost: no script or environment is kept for it"

# A start that cannot write its files (here a file stands where its spool
# folder goes) writes nothing to the database: the job stays PENDING and the
# database's log does not grow at each pass. (It wrote RUNNING and PENDING
# again at each: on a full disk, the room freed a little at a time.)
blocked=$(submit -H --wrap 'echo blocked start')
: >"$STINT_STATE_DIR/spool/$blocked"
scontrol release "$blocked"
log="$STINT_STATE_DIR/log/stintd.log"
not_started() { grep -c "job $blocked not started: .*; it stays pending" "$log" || true; }
passes_after() { [ "$(not_started)" -ge "$1" ]; }
wait_for 30 passes_after 1
# (stintd empties the WAL once nothing has been written for two seconds, so
# it may shrink meanwhile: passes a second apart that wrote would grow it.)
wal=$(stat -c %s "$STINT_STATE_DIR/stint.db-wal")
wait_for 30 passes_after $(($(not_started) + 3))
wal_after=$(stat -c %s "$STINT_STATE_DIR/stint.db-wal")
[ "$wal_after" -le "$wal" ] ||
  fail "the database's log grew over three starts that failed: $wal to $wal_after bytes"
expect_eq "a start that failed" PD "$(squeue -h -j "$blocked" -o %t)"
rm "$STINT_STATE_DIR/spool/$blocked"
wait_for 30 job_ended "$blocked"
expect_eq "once it can start" COMPLETED "$(job_state "$blocked")"
expect_eq "its output" "blocked start" "$(cat "slurm-$blocked.out")"

# A stepd that dies without a result: the attempt ends NODE_FAIL and the job,
# which may be requeued (JobRequeue=1), goes back to the queue with its id.
lost=$(submit --wrap 'sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $lost -o %t)\" = R ]"
# RUNNING is written a moment before the stepd is spawned.
wait_for 10 pgrep -f "stint-stepd $STINT_STATE_DIR/spool/$lost/"
stepd=$(pgrep -o -f "stint-stepd $STINT_STATE_DIR/spool/$lost/")
wait_for 10 pgrep -P "$stepd"
task=$(pgrep -P "$stepd")
kill -KILL "$stepd"
# The task dies with its stepd: the requeued attempt must not run beside it.
wait_for 10 sh -c "! kill -0 $task"
wait_for 30 sh -c "[ \"\$(squeue -h -j $lost -o %t)\" = PD ]"
expect_contains "requeued after the lost stepd" "$(scontrol show job "$lost")" "Restarts=1"
expect_eq "attempts" "NODE_FAIL PENDING" \
  "$(sacct -n -X -P -D -o State -j "$lost" | tr '\n' ' ' | sed 's/ $//')"
scancel "$lost"

# With --no-requeue the job ends NODE_FAIL.
fixed=$(submit --no-requeue --wrap 'sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $fixed -o %t)\" = R ]"
# RUNNING is written a moment before the stepd is spawned.
wait_for 10 pgrep -f "stint-stepd $STINT_STATE_DIR/spool/$fixed/"
stepd2=$(pgrep -o -f "stint-stepd $STINT_STATE_DIR/spool/$fixed/")
wait_for 10 pgrep -P "$stepd2"
task2=$(pgrep -P "$stepd2")
kill -KILL "$stepd2"
wait_for 30 job_ended "$fixed"
expect_eq "lost stepd, no requeue" NODE_FAIL "$(job_state "$fixed")"
kill -KILL -- "-$task2" 2>/dev/null || true
# Its task lost its supervisor; end it here (its process group).
kill -KILL -- "-$task" 2>/dev/null || true

# scontrol shutdown stops stintd; a running job goes on under its stepd and
# the next stintd collects it. With no stintd, it is an error (it does not
# start one to stop it).
gate="$WORK/shutdown.gate"
through=$(submit --wrap "while [ ! -e '$gate' ]; do sleep 0.1; done; echo through")
wait_for 30 sh -c "[ \"\$(squeue -h -j $through -o %t)\" = R ]"
expect_eq "shutdown, a bad word" 1 "$(scontrol shutdown nodes 2>err.txt; echo $?)"
expect_eq "its error" "invalid shutdown specification: nodes" "$(cat err.txt)"
pid=$(cat "$STINT_STATE_DIR/stintd.lock")
expect_eq "scontrol shutdown" "" "$(scontrol shutdown slurmctld)"
wait_for 20 sh -c "! kill -0 $pid"
expect_eq "no stintd after it" 1 "$(stint daemon status >/dev/null; echo $?)"
expect_eq "shutdown with none" 1 "$(scontrol shutdown 2>err.txt; echo $?)"
expect_contains "its error" "$(cat err.txt)" "scontrol: error: "
expect_eq "not started by it" 1 "$(stint daemon status >/dev/null; echo $?)"
touch "$gate"
stintd --state-dir "$STINT_STATE_DIR"
wait_for 30 job_ended "$through"
expect_eq "the job through the shutdown" COMPLETED "$(job_state "$through")"
expect_eq "its output" through "$(cat "slurm-$through.out")"
