#!/usr/bin/env bash
# sattach: attaching to a running step's I/O through its srun. -l sees every
# task's lines labelled, --output-filter one task's, --layout the layout;
# input sent with --input-filter reaches the task (and comes back); SIGINT
# detaches and the step goes on; the step's end ends sattach, which reports a
# task's exit code as Slurm's does. Slurm's messages for bad command lines and
# for steps that cannot be attached to. As root: another user's connection is
# refused by srun, and a socket another user took first is not trusted.
# srun's own I/O through its pipes stays as it was (unlabelled, -l, stdin).
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 4, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
YAML

usage="Usage: sattach [options] <jobid.stepid>"

# refused WHAT STATUS EXPECTED-STDERR COMMAND...: COMMAND exits STATUS and
# prints exactly those lines on stderr.
refused() {
  local what=$1 status=$2 want=$3
  shift 3
  command_refused_with "$status" "$what" "$want" "$@"
}

# --- the command line, before any job ---------------------------------------------
refused "no step" 1 "sattach: error: too many parameters" sattach
expect_eq "no step: usage" "$usage" "$(sattach 2>/dev/null || true)"
refused "two steps" 1 "sattach: error: too many parameters" sattach 1.0 2.0
# "+": the first operand ends the options.
refused "option after the step" 1 "sattach: error: too many parameters" sattach 1.0 -l
refused "no step id" 1 "sattach: error: Failed to parse stepid from command line options" sattach 12
expect_eq "no step id: usage" "$usage" "$(sattach 12 2>/dev/null || true)"
refused "bad step" 1 "sattach: fatal: Bad step specified: 12" sattach 12.x
refused "bad array task" 1 "sattach: fatal: Bad job array element specified: 12" sattach 12_x.0
refused "batch step" 1 "sattach: error: Cannot be used with extern or batch steps" sattach 12.batch
refused "extern step" 1 "sattach: error: Cannot be used with extern or batch steps" sattach 12.extern
refused "verbose and quiet" 1 "sattach: error: don't specify both --verbose (-v) and --quiet (-Q)" \
  sattach -v -Q 12.0
refused "every complaint" 1 "sattach: error: don't specify both --verbose (-v) and --quiet (-Q)
sattach: error: Cannot be used with extern or batch steps
sattach: error: don't specify both --pty and I/O filtering" sattach -vQ --pty --error-filter=1 12.batch
refused "bad filter" 1 'sattach: error: Invalid numeric value "x" for input-filter.' \
  sattach --input-filter=x 12.0
refused "negative filter" 1 'sattach: error: Invalid numeric value "-2" for output-filter.' \
  sattach --output-filter -2 12.0
refused "huge filter" 1 'sattach: error: Numeric argument 9999999999 to big for error-filter.' \
  sattach --error-filter=9999999999 12.0
refused "unknown option" 1 "sattach: unrecognized option '--bogus'
Try \"sattach --help\" for more information" sattach --bogus 12.0
refused "ambiguous" 1 "sattach: option '--l' is ambiguous; possibilities: '--label' '--layout'
Try \"sattach --help\" for more information" sattach --l 12.0
refused "SLURM_EXIT_ERROR" 7 "sattach: error: Failed to parse stepid from command line options" \
  env SLURM_EXIT_ERROR=7 sattach 12
refused "--pty" 1 "sattach: error: --pty is not supported: a step's terminal is its srun's alone; run the step with srun --pty to have one, or attach without --pty to its output and input" \
  sattach --pty 12.0
# Abbreviations as getopt_long takes them.
refused "no such job" 1 "sattach: error: Could not get job step info: Invalid job id specified" \
  sattach --lab --out=1 --in - 99999.0
expect_eq "usage" "$usage" "$(sattach --usage)"
help=$(sattach --help)
expect_eq "help's first line" "$usage" "$(head -n 1 <<<"$help")"
expect_contains "help" "$help" "      --input-filter=taskid  send stdin to only the specified task
      --output-filter=taskid only print stdout from the specified task"
expect_contains "help" "$help" "Help options:
  -h, --help         print this help message
  -u, --usage        print a brief usage message"

# --- a job with three steps ----------------------------------------------------------
# Step 0 ticks on two tasks until told to stop (task 1 then exits 1); step 1
# is cat, its srun's stdin a FIFO the script holds open, so that only
# sattach's input reaches it; step 2 starts when the test says so.
mkfifo in.fifo
cat >steps.sh <<'SH'
#!/bin/bash
#SBATCH -N1 -n4 -o steps.out
exec 3<>in.fifo
srun --exact -n2 bash -c 'touch started.$SLURM_PROCID
  for i in $(seq 1 1200); do
    echo "tick $SLURM_PROCID $i"; echo "err $SLURM_PROCID $i" >&2
    [ -e stop.ticks ] && exit $SLURM_PROCID
    sleep 0.1
  done' &
while [ ! -e started.0 ] || [ ! -e started.1 ]; do sleep 0.05; done
srun --exact -n1 cat <in.fifo &
while [ ! -e go.2 ]; do sleep 0.05; done
srun --exact -n1 bash -c 'echo third; while [ ! -e stop.2 ]; do sleep 0.05; done'
wait
SH
j=$(submit steps.sh)
step_runs() { [ "$(sacct -n -P -j "$j.$1" -o State 2>/dev/null | head -n 1)" = RUNNING ]; }
wait_for 60 step_runs 0
wait_for 60 step_runs 1
node=$(squeue -h -j "$j" -o %N)

# Pending and unknown jobs and steps.
h=$(submit -H --wrap true)
refused "pending job" 1 "sattach: error: Could not get job step info: Job is pending execution" \
  sattach "$h.0"
scancel "$h"
refused "no such step" 1 "sattach: error: Could not get job step info: Invalid job id specified" \
  sattach "$j.7"

# --layout.
expect_eq "layout" "Job step layout:
	2 tasks, 1 nodes ($node)

	Node 0 ($node), 2 task(s): 0 1 " "$(sattach --layout "$j.0")"
refused "input filter out of range" 1 \
  "sattach: error: --input-filter=5: StepId=$j.1 has tasks 0 to 0 only" \
  sattach --input-filter=5 "$j.1"

# -l: both tasks' stdout and stderr, each line whole and labelled by its task.
sattach -l "$j.0" >labelled.out 2>labelled.err &
labelled=$!
both_tasks() { grep -q "^0: tick 0 " labelled.out && grep -q "^1: tick 1 " labelled.out &&
  grep -q "^1: err 1 " labelled.err; }
wait_for 30 both_tasks
# Detaching: SIGINT ends sattach with 0, and the step runs on.
kill -INT "$labelled"
rc=0
wait "$labelled" || rc=$?
expect_eq "detached: exit" 0 "$rc"
bad=$(grep -v -E '^(0: tick 0|1: tick 1) [0-9]+$' labelled.out || true)
[ -z "$bad" ] || fail "-l: lines not labelled by their task: $bad"
step_runs 0 || fail "the step ended when sattach detached"

# --output-filter: one task's stdout, and (no --error-filter) its stderr.
sattach --output-filter=1 "$j.0" >one.out 2>one.err &
one=$!
task_one() { grep -q "^tick 1 " one.out && grep -q "^err 1 " one.err; }
wait_for 30 task_one
kill -TERM "$one"
wait "$one" || fail "--output-filter: sattach exited $? on SIGTERM"
grep -q "tick 0\|err 0" one.out one.err && fail "--output-filter=1 printed task 0's output"

# --input-filter: a line for cat, which echoes it back to sattach and to the
# job's output; the end of sattach's stdin ends cat's, and the step's end
# ends sattach.
out=$(printf 'hello cat\n' | sattach --input-filter=0 "$j.1")
expect_eq "cat's echo, through sattach" "hello cat" "$out"
wait_for 30 grep -q "^hello cat$" steps.out
wait_for 30 sh -c "! sacct -n -P -j $j.1 -o State | grep -q RUNNING"
expect_eq "cat's step" COMPLETED "$(sacct -n -P -j "$j.1" -o State | head -n 1)"
refused "ended step" 1 "sattach: error: Could not get job step info: Invalid job id specified" \
  sattach "$j.1"

# --- another user ----------------------------------------------------------------------
# The system's Python: one under root's home (pyenv) is not another user's to run.
py=$(PATH=/usr/local/bin:/usr/bin:/bin command -v python3 || true)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ -n "$py" ]; then
  as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  name=$(sattach -v --layout "$j.0" 2>&1 >/dev/null | sed -n 's/.* at @\(.*\)$/\1/p')
  [ -n "$name" ] || fail "sattach -v did not say where it attached"
  # srun closes another user's connection at once, before the layout.
  got=$(as_nobody "$py" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect("\0" + sys.argv[1])
s.settimeout(10)
print("closed" if s.recv(1) == b"" else "served")' "$name")
  expect_eq "another user's connection" closed "$got"
  # Another user takes step 2's name before its srun: srun runs the step
  # without it, and sattach does not trust what it finds there.
  # (setpriv execs Python: $! is the squatter's own pid.)
  setpriv --reuid=65534 --regid=65534 --clear-groups "$py" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0" + sys.argv[1])
s.listen(4)
print("ready", flush=True)
s.settimeout(60)
s.accept()' "${name%.0}.2" >squatter.out 2>&1 &
  squatter=$!
  wait_for 30 grep -q ready squatter.out
  touch go.2
  wait_for 30 grep -q "srun: warning: sattach cannot attach to step $j.2: Address already in use" steps.out
  wait_for 30 step_runs 2
  refused "a squatter" 1 \
    "sattach: error: the process serving StepId=$j.2 at @${name%.0}.2 runs as uid 65534, not as the job's owner: not attaching" \
    sattach "$j.2"
  kill "$squatter" 2>/dev/null || true
  wait "$squatter" || true
else
  echo "t24-sattach: not root (or no setpriv, system python3): another user's attach not tested" >&2
  touch go.2
fi
touch stop.2

# The step's end ends an attached sattach: task 1 exits 1, reported as Slurm's.
sattach "$j.0" >last.out 2>last.err &
last=$!
wait_for 30 grep -q "^tick" last.out
touch stop.ticks
rc=0
wait "$last" || rc=$?
expect_eq "step ended: exit" 1 "$rc"
expect_contains "task 1's exit" "$(cat last.err)" "sattach: error: task 1 exited with exit code 1"
wait_for 60 job_ended "$j"
refused "ended job" 1 \
  "sattach: error: Could not get job step info: Job/step already completing or completed" \
  sattach "$j.0"
expect_contains "the job's output" "$(cat steps.out)" "tick 1 1"

# --- srun's own I/O, now through its pipes ----------------------------------------------
printf 'line1\nline2\n' >input.txt
cat >io.sh <<'SH'
#!/bin/bash
#SBATCH -N1 -n2 -o io.out -e io.err
srun -n2 echo hi
echo ---
srun -n1 cat <input.txt
echo ---
echo x | srun -n2 -i all cat
echo ---
srun -n2 -l bash -c 'echo "to stdout $SLURM_PROCID"; echo "to stderr $SLURM_PROCID" >&2'
echo ---
printf 'no newline' | srun -n1 -l cat
echo ---
srun -n1 bash -c 'printf "%s" "$(head -c 200000 /dev/zero | tr "\0" a)"' | wc -c
echo ---
seq 1 100000 | srun -n1 cat | tail -n 1
echo ---
srun -n1 yes | head -n 2
echo "yes ended: ${PIPESTATUS[0]}"
SH
k=$(submit io.sh)
wait_for 60 job_ended "$k"
expect_eq "io job" COMPLETED "$(job_state "$k")"
# Each section's lines sorted (the tasks' lines come in any order), joined by '|'.
sections=$(awk '/^---$/ { n++; next } { print n + 0 "\t" $0 }' io.out | sort -t "$(printf '\t')" -k1,1n -k2 |
  awk -F '\t' '{ a[$1] = a[$1] (a[$1] == "" ? "" : "|") $2; n = $1 } END { for (i = 0; i <= n; i++) print a[i] }')
expect_eq "srun's stdout" "hi|hi
line1|line2
x|x
0: to stdout 0|1: to stdout 1
0: no newline
200000
100000
y|y|yes ended: 141" "$sections"
expect_eq "srun's stderr, labelled" "0: to stderr 0|1: to stderr 1" \
  "$(grep '^[01]: ' io.err | sort | paste -sd '|')"
echo "t24-sattach: ok"
