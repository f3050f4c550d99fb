#!/usr/bin/env bash
# salloc: an allocation held while a command runs here, Slurm's messages and
# environment, steps in it, the exit status in sacct; a request that waits,
# one cancelled by a signal, -I, --no-shell; an allocation revoked under its
# command (with and without -K); a killed salloc; a shell on a terminal;
# SallocDefaultCommand and LaunchParameters=use_interactive_step.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
  - {id: other, node_pool_ids: [n]}
config:
  KillWait: "1"
YAML

# The id of the one salloc job of a name still pending or running.
live_job() { squeue -h -o %i -n "$1" | head -n 1; }
is_running() { [ "$(job_state "$1")" = RUNNING ]; }

# --- a command in the allocation, a step in it ---------------------------------------
out=$(salloc -N2 -n3 -J myalloc sh -c \
  'echo "job=$SLURM_JOB_ID nodes=$SLURM_JOB_NODELIST n=$SLURM_NNODES ntasks=$SLURM_NTASKS name=$SLURM_JOB_NAME part=$SLURM_JOB_PARTITION"
   echo "no task variables: [$SLURM_PROCID] [$SLURMD_NODENAME]"
   srun -l -J where sh -c "echo \$SLURMD_NODENAME" | sort' 2>err.txt)
j=$(sed -n 's/^salloc: Granted job allocation \([0-9]*\)$/\1/p' err.txt)
[ -n "$j" ] || fail "no grant line: $(cat err.txt)"
expect_eq "salloc's lines" "salloc: Granted job allocation $j
salloc: Relinquishing job allocation $j" "$(cat err.txt)"
expect_eq "the command's output" "job=$j nodes=n-[1-2] n=2 ntasks=3 name=myalloc part=debug
no task variables: [] []
0: n-1
1: n-1
2: n-2" "$out"
expect_eq "the allocation completed" "COMPLETED 0:0" "$(sacct -n -X -P -j "$j" -o State,ExitCode | tr '|' ' ')"
expect_eq "the step is the job's" "$j.0|where|COMPLETED" "$(sacct -n -P -j "$j" -o JobID,JobName,State | grep "^$j\.0")"
expect_eq "no batch step: the command ran here" "$j $j.0" "$(sacct -n -P -j "$j" -o JobID | lines)"
show=$(salloc -N1 sh -c 'scontrol show job $SLURM_JOB_ID' 2>/dev/null)
expect_contains "BatchFlag" "$show" "BatchFlag=0"
expect_contains "no command" "$show" "Command=(null)"
case $show in *StdOut=*) fail "salloc's job has no StdOut: $show" ;; esac

# --- the command's exit status is salloc's and the job's; default name ------------------
set +e
salloc -N1 sh -c 'exit 3' 2>/dev/null
rc=$?
set -e
expect_eq "salloc's status" 3 "$rc"
j=$(sacct -n -X -P -o JobID,JobName | awk -F'|' '$2 == "interactive" {id = $1} END {print id}')
expect_eq "a failed command fails the job" "FAILED 3:0" "$(sacct -n -X -P -j "$j" -o State,ExitCode | tr '|' ' ')"

# --- input variables: SALLOC_ ones set options, SBATCH_ ones do not ---------------------
out=$(SALLOC_PARTITION=other SBATCH_JOB_NAME=batchname salloc -N1 sh -c 'echo "$SLURM_JOB_PARTITION $SLURM_JOB_NAME"' 2>/dev/null)
expect_eq "SALLOC_PARTITION" "other interactive" "$out"

# --- a request that waits, one cancelled by a signal, -I ----------------------------------
blocker=$(submit --exclusive -N2 -o /dev/null --wrap 'while [ ! -e release ]; do sleep 0.1; done')
wait_for 30 is_running "$blocker"
salloc -N1 sh -c 'echo granted-later' >later.out 2>later.err &
later=$!
salloc -N1 true 2>interrupted.err &
interrupted=$!
wait_for 30 grep -q "queued and waiting" interrupted.err
kill -INT $interrupted
set +e
wait $interrupted
rc=$?
set -e
expect_eq "a signal while pending: exit" 1 "$rc"
ij=$(sed -n 's/^salloc: Pending job allocation \([0-9]*\)$/\1/p' interrupted.err)
expect_eq "a signal while pending" "salloc: Pending job allocation $ij
salloc: job $ij queued and waiting for resources
salloc: Job allocation $ij has been revoked.
salloc: Job aborted due to signal" "$(cat interrupted.err)"
wait_for 30 job_ended "$ij"
expect_contains "the request was cancelled" "$(job_state "$ij")" CANCELLED

set +e
err=$(salloc -I -N1 true 2>&1)
rc=$?
set -e
expect_eq "-I: exit" 1 "$rc"
expect_contains "-I" "$err" "salloc: error: Unable to allocate resources: Requested nodes are busy"

# slurmctld's own line comes first, then salloc's.
command_refused "bad partition" "salloc: error: invalid partition specified: nosuch
salloc: error: Job submit/allocate failed: Invalid partition name specified
salloc: partitions: debug, other" salloc -p debug,nosuch true

wait_for 30 grep -q "queued and waiting" later.err
touch release
set +e
wait $later
rc=$?
set -e
expect_eq "granted later: exit" 0 "$rc"
lj=$(sed -n 's/^salloc: Pending job allocation \([0-9]*\)$/\1/p' later.err)
expect_eq "granted later" "salloc: Pending job allocation $lj
salloc: job $lj queued and waiting for resources
salloc: job $lj has been allocated resources
salloc: Granted job allocation $lj
salloc: Relinquishing job allocation $lj" "$(cat later.err)"
expect_eq "its output" granted-later "$(cat later.out)"

# --- --no-shell: the allocation stays until scancel ---------------------------------------
salloc --no-shell -N1 2>/dev/null
ns=$(live_job no-shell)
[ -n "$ns" ] || fail "no no-shell job left running"
expect_eq "held" RUNNING "$(job_state "$ns")"
out=$(srun --jobid "$ns" sh -c 'echo step in $SLURM_JOB_ID')
expect_eq "a step in it" "step in $ns" "$out"
scancel "$ns"
wait_for 30 job_ended "$ns"

# --- revoked under its command: it runs on; with -K it is signalled -----------------------
rm -f started go
salloc -N1 sh -c 'touch started; while [ ! -e go ]; do sleep 0.1; done; echo ran on' >revoked.out 2>revoked.err &
pid=$!
wait_for 30 test -e started
rj=$(live_job interactive)
scancel "$rj"
wait_for 30 grep -q "has been revoked" revoked.err
touch go
set +e
wait $pid
rc=$?
set -e
expect_eq "revoked: the command's status" 0 "$rc"
expect_eq "revoked: the command ran on" "ran on" "$(cat revoked.out)"
expect_eq "revoked: no relinquishing" "salloc: Granted job allocation $rj
salloc: Job allocation $rj has been revoked." "$(cat revoked.err)"

rm -f started go
salloc -K -N1 sh -c 'trap "echo got TERM; exit 7" TERM; touch started; while :; do sleep 0.1; done' >killed.out 2>/dev/null &
pid=$!
wait_for 30 test -e started
scancel "$(live_job interactive)"
set +e
wait $pid
rc=$?
set -e
expect_eq "-K: the command's status" 7 "$rc"
expect_eq "-K: SIGTERM" "got TERM" "$(cat killed.out)"

# --- a killed salloc gives its allocation back ---------------------------------------------
rm -f started
salloc -N1 sh -c 'echo $$ >command.pid; touch started; exec sleep 300' 2>/dev/null &
pid=$!
wait_for 30 test -e started
kj=$(live_job interactive)
kill -KILL $pid
wait_for 30 job_ended "$kj"
kill "$(cat command.pid)" 2>/dev/null || true  # salloc's command outlives it, as in Slurm

# --- a shell on a terminal -----------------------------------------------------------------
cat >pty_shell.py <<'PY'
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.environ["SHELL"] = "/bin/sh"
    os.environ["PS1"] = "prompt$ "
    os.execvp("salloc", ["salloc", "-N1"])
out = b""
def read_until(token, deadline):
    global out
    while token not in out:
        if time.time() > deadline:
            sys.exit("timed out waiting for %r in %r" % (token, out))
        try:
            out += os.read(fd, 4096)
        except OSError:
            break
read_until(b"prompt$ ", time.time() + 30)
os.write(fd, b"sleep 100\n")
time.sleep(0.5)
os.write(fd, b"\x03")  # Ctrl-C reaches the shell's foreground command, not salloc
read_until(b"prompt$ ", time.time() + 30)
os.write(fd, b"echo in-job-$SLURM_JOB_ID; exit 4\n")
read_until(b"Relinquishing", time.time() + 30)
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace").replace("\r", ""))
sys.stdout.write("status=%d\n" % os.waitstatus_to_exitcode(status))
PY
out=$(python3 pty_shell.py)
tj=$(echo "$out" | sed -n 's/^salloc: Granted job allocation \([0-9]*\)$/\1/p')
[ -n "$tj" ] || fail "no grant on the terminal: $out"
expect_contains "the shell's prompt" "$out" "prompt$ "
expect_contains "a command in the shell" "$out" "in-job-$tj"
expect_contains "the shell's status" "$out" "status=4"
expect_eq "the job" "FAILED 4:0" "$(sacct -n -X -P -j "$tj" -o State,ExitCode | tr '|' ' ')"

# --- refusals --------------------------------------------------------------------------------
set +e
err=$(salloc --bogus 2>&1)
rc=$?
set -e
expect_eq "unknown option: exit" 255 "$rc"
expect_contains "unknown option" "$err" "salloc: unrecognized option '--bogus'"
set +e
err=$(salloc --no true 2>&1)
set -e
expect_contains "ambiguous" "$err" \
  "salloc: option '--no' is ambiguous; possibilities: '--no-bell' '--no-kill' '--no-shell' '--nodefile' '--nodelist' '--nodes'"
set +e
err=$(salloc --output=x true 2>&1)
rc=$?
set -e
expect_eq "a batch-only option: exit" 255 "$rc"
set +e
err=$(salloc -N1 : -N1 true 2>&1)
rc=$?
set -e
expect_eq "a heterogeneous allocation: exit" 1 "$rc"
expect_contains "a heterogeneous allocation" "$err" "salloc: error: heterogeneous allocations"
set +e
err=$(salloc -t bogus true 2>&1)
rc=$?
set -e
expect_eq "bad time: exit" 255 "$rc"
expect_contains "bad time" "$err" "salloc: error: Invalid --time specification"
expect_eq "no job left" "" "$(squeue -h -o %i)"

# --- without a command: slurm.conf's SallocDefaultCommand, else an interactive step ----------
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
  SallocDefaultCommand: echo default-command-in-$SLURM_JOB_ID
YAML
scontrol reconfigure
out=$(salloc -N1 2>/dev/null </dev/null)
expect_eq "SallocDefaultCommand" "default-command-in-$(sacct -n -X -o JobID | tail -n 1 | tr -d ' ')" "$out"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
  LaunchParameters: use_interactive_step
  InteractiveStepOptions: --interactive printenv SLURMD_NODENAME
YAML
scontrol reconfigure
expect_eq "an interactive step" "n-1" "$(salloc -w n-1 2>/dev/null </dev/null)"
expect_eq "shown" "LaunchParameters        = use_interactive_step" \
  "$(scontrol show config | grep '^LaunchParameters')"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  LaunchParameters: use_interactive_step,enable_nss_slurm
YAML
set +e
err=$(scontrol reconfigure 2>&1)
set -e
expect_contains "a launch parameter stint lacks" "$err" "enable_nss_slurm"
