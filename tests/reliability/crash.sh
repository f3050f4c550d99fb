#!/usr/bin/env bash
# Crash consistency: a workload of short jobs (plain, arrays, afterok
# chains, 2-node runs) while stintd is killed with SIGKILL at random moments,
# then a workload of requeueable jobs while their stint-stepd is killed. Every
# job appends "<id> <attempt> <rank>" to a log with O_APPEND (>>); at the end the
# log, sacct -D and the ids the tools printed must agree exactly (check.py).
#
# Two arrays of 1,000 tasks wait in their records while the tasks split off
# as they start: a kill between a split and its start, or in a split's
# commit, must neither lose a task nor start one twice.
#
# Knobs (environment): CRASH_SEED (replay a run), CRASH_STINTD_KILLS,
# CRASH_STEPD_KILLS, CRASH_PERCENT (of the workload: 100 = 4,210 jobs in phase 1).
source "$(dirname "$0")/../cli/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

SEED=${CRASH_SEED:-$(( $(date +%s) % 100000 ))}
STINTD_KILLS=${CRASH_STINTD_KILLS:-25}
STEPD_KILLS=${CRASH_STEPD_KILLS:-25}
PCT=${CRASH_PERCENT:-100}
echo "crash harness: seed $SEED (replay with CRASH_SEED=$SEED)"
RANDOM=$SEED

write_config <<'YAML'
cluster_name: crash
node_pools:
  - {id: n, count: 32, cpus: 8, memory: 8G}
partitions:
  - {id: batch, node_pool_ids: [n], max_time: "10:00"}
config:
  KillWait: "1"
  StintRequeueDelay: "0"
  StintRunPorts: "32000-32999"
YAML

LOG=$WORK/jobs.log
IDS=$WORK/ids # one line per answered submission: kind and id (or run name)
FAILS=$WORK/fails # one line per submission the tool refused or could not answer
: >"$LOG" >"$IDS" >"$FAILS"
line="\"\$SLURM_JOB_ID \${SLURM_RESTART_COUNT:-0} \${RANK:-0}\" >> $LOG"

# submit KIND sbatch-args...: records the id sbatch printed, or the failure.
submit_one() {
  local kind=$1 out
  shift
  if out=$("$@" 2>>"$WORK/submit.err"); then
    echo "$kind $out" >>"$IDS"
    echo "$out"
  else
    echo "$kind $*" >>"$FAILS"
    return 1
  fi
}

plain_jobs() {
  for _ in $(seq $((600 * PCT / 100))); do
    submit_one plain sbatch --parsable -o /dev/null --wrap "echo $line" >/dev/null || true
  done
}

array_jobs() {
  for _ in $(seq $((48 * PCT / 100))); do
    submit_one array sbatch --parsable -o /dev/null --array=0-24 --wrap "echo $line" >/dev/null ||
      true
  done
}

# afterok chains of four: each link waits for the one before it.
chain_jobs() {
  local prev id
  for _ in $(seq $((100 * PCT / 100))); do
    prev=""
    for _ in 1 2 3 4; do
      if [ -z "$prev" ]; then
        id=$(submit_one chain sbatch --parsable -o /dev/null --wrap "echo $line") || break
      else
        id=$(submit_one chain sbatch --parsable -o /dev/null -d "afterok:$prev" \
          --wrap "echo $line") || break
      fi
      prev=$id
    done
  done
}

big_arrays() {
  for _ in $(seq $((2 * PCT / 100))); do
    submit_one bigarray sbatch --parsable -o /dev/null --array=0-999 --wrap "echo $line" \
      >/dev/null || true
  done
}

run_jobs() {
  for _ in $(seq $((10 * PCT / 100))); do
    submit_one run run-create --project crash --nodes 2 --cpus 1 -- \
      bash -c "echo $line" >/dev/null || true
  done
}

stintd_pid() { cat "$STINT_STATE_DIR/stintd.lock" 2>/dev/null || true; }

# Kills stintd COUNT times at random moments (0.2-1.2 s apart), each time a
# live one: the submitters' next call starts it again (or `stintd` here, once
# they are done).
kill_stintd() {
  local count=$1 done_flag=$2 kills=0 pid
  while [ $kills -lt "$count" ]; do
    sleep "0.$((RANDOM % 10 + 2))"
    pid=$(stintd_pid)
    if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
      [ -e "$done_flag" ] && stintd
      continue
    fi
    kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
    while kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
    [ -e "$done_flag" ] && stintd
  done
  echo "$kills" >"$WORK/stintd-kills"
}

wait_drained() {
  local limit=$1
  local deadline=$((SECONDS + limit))
  while [ "$(squeue -h | wc -l)" -ne 0 ]; do
    if [ $SECONDS -ge $deadline ]; then
      squeue | head -n 20 >&2
      fail "jobs still in the queue after ${limit}s"
    fi
    sleep 0.2
  done
}

# --- phase 1: stintd killed while jobs are submitted, scheduled and end ---------
start=$SECONDS
stintd
plain_jobs & p1=$!
array_jobs & p2=$!
big_arrays & p5=$!
chain_jobs & p3=$!
run_jobs & p4=$!
kill_stintd "$STINTD_KILLS" "$WORK/submitted" & killer=$!
wait $p1 $p2 $p3 $p4 $p5
touch "$WORK/submitted"
wait $killer
stintd # the last kill may have left none running
wait_drained 120
phase1=$((SECONDS - start))
sacct -S 2020-01-01 -n -X -P -D -o JobIDRaw,State,Restarts >"$WORK/sacct1"
run-list --project crash --json >"$WORK/runs1"
# What recovery did, from stintd's log: stepds spawned but not yet recorded
# when stintd was killed (adopted), starts cut short before any stepd existed
# (the job waits again), and stepds lost (the attempt ends NODE_FAIL).
slog=$STINT_STATE_DIR/log/stintd.log
echo "phase1: recovery adopted $(grep -c 'found its stepd' "$slog" || true) unrecorded stepds," \
  "put $(grep -c 'cut short by a restart' "$slog" || true) cut-short starts back in the queue," \
  "lost $(grep -c 'vanished without a result' "$slog" || true) stepds"
grep 'vanished without a result' "$slog" | head -n 3 || true
if [ -s "$WORK/submit.err" ]; then
  echo "phase1: what the unanswered submissions printed:"
  sed 's/[0-9][0-9]*/N/g' "$WORK/submit.err" | sort | uniq -c | sort -rn | head -n 5
fi
python3 "$HERE/check.py" phase1 "$WORK/ids" "$WORK/fails" "$WORK/sacct1" "$LOG" "$WORK/runs1" \
  "$(cat "$WORK/stintd-kills")" "$phase1" || fail "phase 1 (stintd killed) is inconsistent"

# --- phase 2: stint-stepd killed while requeueable jobs run ----------------------
LOG=$WORK/jobs2.log
IDS=$WORK/ids2
FAILS=$WORK/fails2
: >"$LOG" >"$IDS" >"$FAILS"
line="\"\$SLURM_JOB_ID \${SLURM_RESTART_COUNT:-0} \${RANK:-0}\" >> $LOG"
start=$SECONDS
for _ in $(seq $((300 * PCT / 100))); do
  submit_one requeue sbatch --parsable -o /dev/null --requeue --wrap "sleep 2; echo $line" \
    >/dev/null || true
done &
submitter=$!
kills=0
while [ $kills -lt "$STEPD_KILLS" ]; do
  sleep "0.$((RANDOM % 5 + 1))"
  # Nothing left to kill once every job is in and none waits or runs (on a
  # fast machine the 300 jobs can all end before STEPD_KILLS kills).
  if ! kill -0 "$submitter" 2>/dev/null && [ -z "$(squeue -h | head -n 1)" ]; then break; fi
  # Children of stintd's fork server (or of stintd, which spawns them when
  # the server is not there) only: a stepd's own child, forked but not yet
  # the task, has the same command line.
  parents=$(stintd_pid)
  server=$(pgrep -P "$parents" -f -- "stint-stepd --fork-server" | head -n 1 || true)
  mapfile -t stepds < <(pgrep -P "$parents${server:+,$server}" -f "stint-stepd $STINT_STATE_DIR/" || true)
  [ ${#stepds[@]} -gt 0 ] || continue
  victim=${stepds[$((RANDOM % ${#stepds[@]}))]}
  kill -KILL "$victim" 2>/dev/null && kills=$((kills + 1))
done
wait $submitter
[ $kills -gt 0 ] || fail "phase 2 killed no stepd: every job ended before one could be"
wait_drained 120
phase2=$((SECONDS - start))
sacct -S 2020-01-01 -n -X -P -D -o JobIDRaw,State,Restarts >"$WORK/sacct2"
python3 "$HERE/check.py" phase2 "$WORK/ids2" "$WORK/fails2" "$WORK/sacct2" "$LOG" "" \
  "$kills" "$phase2" "$(cut -d'|' -f1 "$WORK/sacct1" | grep -v '\.' | sort -n | tail -n 1)" || fail "phase 2 (stepd killed) is inconsistent"
