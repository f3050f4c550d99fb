#!/usr/bin/env bash
# srun --pty through a pseudo-terminal, as a person types: a shell as task 0
# on a terminal of its own (its prompt, its tty, the window size and a resize,
# Ctrl-C interrupting a command, the exit status), alone (srun gets its own
# allocation) and from salloc; a step run from salloc's command is ended with
# its children when the allocation is revoked.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
YAML

cat >pty_session.py <<'PY'
# Runs argv on a terminal, types into a shell there, prints what it showed.
import fcntl, os, pty, struct, sys, termios, time
pid, fd = pty.fork()
if pid == 0:
    os.environ["PS1"] = "prompt$ "
    os.environ["SHELL"] = "/bin/sh"
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
def read_until(token, seconds=30):
    global out
    deadline = time.time() + seconds
    while token not in out:
        if time.time() > deadline:
            sys.exit("timed out waiting for %r in %r" % (token, out))
        try:
            out += os.read(fd, 4096)
        except OSError:
            sys.exit("the terminal closed before %r: %r" % (token, out))
def resize(rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.kill(pid, 28)  # SIGWINCH, as the terminal emulator sends it
resize(30, 100)
read_until(b"prompt$ ")
# Markers are upper-cased by the shell: the echo of the typed line never matches.
os.write(fd, b"echo task=$SLURM_PROCID job=$SLURM_JOB_ID | tr a-z A-Z; tty | tr a-z A-Z\n")
read_until(b"/DEV/PTS/")
resize(40, 120)
os.write(fd, b"stty size | tr ' ' x\n")
read_until(b"40x120")
os.write(fd, b"sleep 100\n")
time.sleep(0.5)
os.write(fd, b"\x03")  # Ctrl-C: the terminal makes it SIGINT for sleep
# Typed ahead: it runs only once sleep has ended, well before its 100 s.
os.write(fd, b"echo after | tr a-z A-Z\n")
read_until(b"AFTER")
os.write(fd, b"exit 5\n")
try:
    while True:
        data = os.read(fd, 4096)
        if not data:
            break
        out += data
except OSError:
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace").replace("\r", ""))
sys.stdout.write("status=%d\n" % os.waitstatus_to_exitcode(status))
PY

# --- alone: srun gets its own allocation and keeps the terminal ----------------------
out=$(python3 pty_session.py srun -N1 -J shell --pty /bin/sh)
expect_contains "task 0 on a terminal" "$out" "TASK=0 JOB="
expect_contains "its own terminal" "$out" "/DEV/PTS/"
expect_contains "the window's new size" "$out" "40x120"
expect_contains "Ctrl-C ended sleep, not the shell" "$out" "AFTER"
expect_contains "the shell's status" "$out" "status=5"
j=$(echo "$out" | sed -n 's/^TASK=0 JOB=\([0-9]*\)$/\1/p')
[ -n "$j" ] || fail "no job id in: $out"
expect_eq "the allocation" "FAILED 5:0" "$(sacct -n -X -P -j "$j" -o State,ExitCode | tr '|' ' ')"
expect_eq "the step" "$j.0|shell|FAILED|5:0" "$(sacct -n -P -j "$j" -o JobID,JobName,State,ExitCode | grep "^$j\.0")"

# --- from salloc ---------------------------------------------------------------------------
out=$(python3 pty_session.py salloc -N2 srun -N1 --pty /bin/sh)
expect_contains "in salloc: task 0" "$out" "TASK=0 JOB="
expect_contains "in salloc: resized" "$out" "40x120"
expect_contains "in salloc: Ctrl-C" "$out" "AFTER"
expect_contains "salloc gives it back" "$out" "salloc: Relinquishing job allocation"
expect_contains "salloc's status is the step's" "$out" "status=5"

# --- a step from salloc's command, revoked: its tasks and their children go ----------------
salloc -N1 srun -n1 sh -c 'sleep 300 & echo $! >child.pid; touch started; wait' 2>revoked.err &
pid=$!
wait_for 30 test -e started
j=$(squeue -h -o %i -n interactive)
scancel "$j"
set +e
wait $pid
set -e
expect_contains "srun's notice" "$(cat revoked.err)" "srun: Job step aborted: Waiting up to 3 seconds for job step to finish."
expect_contains "slurmstepd's line" "$(cat revoked.err)" "slurmstepd-n-1: error: *** STEP $j.0 ON n-1 CANCELLED AT "
child=$(cat child.pid)
wait_for 30 sh -c "! kill -0 $child"
