#!/usr/bin/env bash
# What keeps the state directory bounded, and the slurm.conf keys that bound
# a job: an ended job's spool folder goes; PurgeJobAfter and PurgeStepAfter
# (slurmdbd.conf's) purge old records with their scripts and folders; job
# ids wrap at MaxJobId to FirstJobId, skipping ids still on record; stint db
# compact; the log rotates past StintLogMaxSize and reopens on SIGUSR2;
# MaxTasksPerNode refuses a step; a task whose processes outlived SIGKILL
# (UnkillableStepTimeout) drains its node.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 1, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "2"
  FirstJobId: "100"
  MaxJobId: "106"
  MaxTasksPerNode: "2"
  PurgeJobAfter: 30days
  PurgeStepAfter: 30days
  StintLogMaxSize: "1"
YAML
spool="$STINT_STATE_DIR/spool"
log="$STINT_STATE_DIR/log/stintd.log"
scripts() { sqlite3 "$STINT_STATE_DIR/scripts.db" 'SELECT COUNT(*) FROM scripts'; }

# --- An ended job keeps no spool folder; an array's first task keeps the
# script its other tasks run.
a=$(submit --wrap true)
b=$(submit --wrap 'srun -n 3 --overcommit true; srun -n 2 --overcommit true')
arr=$(submit --array=0-1 --wrap true)
expect_eq "first id" 100 "$a"
expect_eq "array ids" 102 "$arr"
for j in "$a" "$b" "$arr" "${arr}_1"; do wait_for 30 job_ended "$j"; done
for j in "$a" "$b" 103; do
  [ ! -e "$spool/$j" ] || fail "job $j's spool folder is still there: $(ls "$spool/$j")"
done
expect_eq "the array's folder" script "$(ls "$spool/$arr")"

# --- MaxTasksPerNode=2: a step of three tasks on one node is refused as
# slurmctld refuses it; one of two runs.
expect_contains "MaxTasksPerNode" "$(cat "slurm-$b.out")" \
  "srun: error: Unable to create step for job $b: Task count specification invalid"
expect_eq "the two-task step" "$b.0|COMPLETED" "$(sacct -n -P -j "$b" -o JobID,State | grep "^$b\.0|")"

# --- A task whose processes outlived SIGKILL: stepd gives up on them after
# UnkillableStepTimeout and says so in its result (written here as stepd
# writes it, for a stepd killed with stintd down); stintd drains the node.
g=$(submit --wrap 'sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $g -o %t)\" = R ]"
stepd=$(pgrep -o -f "stint-stepd $spool/$g/")
kill -KILL "$(cat "$STINT_STATE_DIR/stintd.lock")"
kill -KILL "$stepd"
now=$(date +%s)
printf '{"job_id": %s, "node_index": 0, "exit_signal": 9, "cancelled": true, "kill_failed": true, "start_time": %s, "end_time": %s}' \
  "$g" "$now" "$now" >"$spool/$g/task-0.result.json"
node=$(sinfo -h -N -o %N 2>/dev/null | head -n 1)
h=$(submit --wrap true) # starts stintd, which collects the result
wait_for 20 sh -c "sinfo -h -R -o '%E' | grep -qx 'Kill task failed'"
wait_for 20 job_ended "$g"

# --- The stepds' log past StintLogMaxSize: stintd renames it at its next
# pass, and lets its stepd fork server go so the next one opens a new file.
stepd_log="$STINT_STATE_DIR/log/stepd.log"
head -c 1100000 /dev/zero | tr '\0' '#' >>"$stepd_log"
wait_for 10 test -e "$stepd_log.1"

# --- PurgeJobAfter and PurgeStepAfter: jobs submitted 40 days ago (their
# times moved back while stintd is down) go, with their steps, scripts and
# folders; a step of that age goes from a job that stays.
stop_stintd
month=$((40 * 86400))
sqlite3 "$STINT_STATE_DIR/stint.db" \
  "UPDATE jobs SET submit_time = submit_time - $month, eligible_time = eligible_time - $month,
     start_time = start_time - $month, end_time = end_time - $month WHERE id IN ($a, $arr, 103);
   UPDATE steps SET start_time = start_time - $month, end_time = end_time - $month
     WHERE job_id = $b AND step_id = 0;"
scripts_before=$(scripts)
steps_before=$(sacct -n -P -j "$b" -o JobID 2>/dev/null | grep -v "^$b\.0$" | lines)
scontrol update NodeName="$node" State=RESUME # starts stintd, which purges as it starts
wait_for 20 grep -q "purge: 3 jobs (PurgeJobAfter 30 days), 1 steps (PurgeStepAfter 30 days)" "$log"
expect_eq "sacct after the purge" "$b" "$(sacct -n -X -P -S 2000-01-01 -j "$a,$b,$arr,103" -o JobID)"
expect_eq "the old step went, its job stayed" "$steps_before" "$(sacct -n -P -j "$b" -o JobID | lines)"
[ ! -e "$spool/$arr" ] || fail "the purged array's folder is still there"
expect_eq "scripts after the purge" $((scripts_before - 2)) "$(scripts)"
expect_contains "sacctmgr show config" "$(sacctmgr show config)" "PurgeJobAfter          = 30 days"

# --- Ids: 105 was the last below MaxJobId (106); the sequence wraps to
# FirstJobId and takes the lowest ids no job on record has.
expect_eq "the last id before the wrap" 105 "$h"
d=$(submit --wrap true)
expect_eq "wrapped to a purged id" 100 "$d"
e=$(submit --array=0-1 --wrap true)
expect_eq "an array in the purged gap" 102 "$e"
# Its first task to start takes the next free id (103), the last the array's.
for t in 0 1; do wait_for 30 job_ended "${e}_$t"; done
expect_eq "its tasks' ids" "102 103" "$(sacct -n -X -P -j "$e" -o JobIDRaw | sort -n | lines)"
# Every id below MaxJobId is on record: slurmctld's EAGAIN, which sbatch waits out.
sbatch --wrap true >full.out 2>full.err &
waiter=$!
wait_for 20 grep -q "temporarily unable" full.err
kill "$waiter"
wait "$waiter" 2>/dev/null || true
grep -q "We have exhausted our supply of valid job id values. FirstJobId=100 MaxJobId=106" "$log" ||
  fail "no log line for the exhausted ids"

# --- stint db compact, while stintd serves.
expect_contains "compact" "$(stint db compact)" "stint.db and scripts.db:"
expect_eq "a job after compact" "$b" "$(sacct -n -X -P -j "$b" -o JobID)"

# --- The log: past StintLogMaxSize (1 MiB) it becomes stintd.log.1; moved
# away as logrotate does, SIGUSR2 opens it anew.
head -c 1100000 /dev/zero | tr '\0' '#' >>"$log"
scontrol update NodeName="$node" State=DRAIN Reason=rotate # the line that passes the size
wait_for 10 test -e "$log.1"
expect_contains "the old log" "$(tail -n 1 "$log.1")" "node $node set DRAIN"
scontrol update NodeName="$node" State=RESUME
expect_contains "the new log" "$(cat "$log")" "node $node set"
[ "$(stat -c %s "$log")" -lt 100000 ] || fail "the new log is $(stat -c %s "$log") bytes"
mv "$log" "$log.moved"
kill -USR2 "$(cat "$STINT_STATE_DIR/stintd.lock")"
wait_for 10 grep -q "SIGUSR2: log file reopened" "$log"
# The stepds' log (rotated above): a later job's stepd, forked by a new fork
# server, wrote to the new file.
expect_contains "the new stepd.log" "$(cat "$STINT_STATE_DIR/log/stepd.log")" "job $d node 0"

# At rest the state directory holds the databases alone: a write goes to the
# WAL file, and stintd empties both databases' once it has written nothing for
# a while (the files stay, empty: readers of another user need them). The
# submissions above wrote scripts.db's.
scontrol update NodeName="$node" State=DRAIN Reason=at-rest
[ -s "$STINT_STATE_DIR/stint.db-wal" ] || fail "the node's update is not in the WAL"
wal_empty() { [ -e "$1" ] && [ ! -s "$1" ]; }
wait_for 15 wal_empty "$STINT_STATE_DIR/stint.db-wal"
wait_for 15 wal_empty "$STINT_STATE_DIR/scripts.db-wal"
expect_contains "the update, read once the WAL is emptied" "$(scontrol show node "$node")" "Reason=at-rest"
echo "t09-state-bounds: ok"
