#!/usr/bin/env bash
# SSH into a run's nodes: with StintRunSsh=YES each node of
# a run gets an sshd for the run's owner on a port of its own, shown in
# run-show's SSH Port column. A session finds the node's variables; another
# user is not let in; the nodes stay reachable while a run is kept alive,
# across a restart of stintd; run-stop ends the sshd with every session and
# what a session left running. Runs a system-mode stintd (root) and the
# tools as real users made for the test, as t93 does.
. "$(dirname "$0")/users.sh"
# openssh-server is what the feature serves with; installed here from
# Debian's packages when missing, as t98 installs Slurm (not by
# scripts/install-deps: node SSH is off by default, and the package starts a
# system sshd where systemd runs).
if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
  if ! command -v apt-get >/dev/null ||
    ! DEBIAN_FRONTEND=noninteractive timeout 600 apt-get -o DPkg::Lock::Timeout=300 install -y \
      --no-install-recommends openssh-server openssh-client >/dev/null 2>&1; then
    echo "SKIP: openssh-server is not installed and could not be" >&2
    exit 77
  fi
fi

tag=$$
alice="stintsa$tag"
bob="stintsb$tag"
# sshd's own log says why a login was refused.
remove_extras() { [ "${rc:-0}" = 0 ] || tail -n 20 "$STINT_STATE_DIR/log/sshd.log" >&2 2>/dev/null; }
for u in "$alice" "$bob"; do add_test_user "$u"; done

# Each user has a key of their own, authorized in their own home.
for u in "$alice" "$bob"; do
  as "$u" ssh-keygen -q -t ed25519 -N "" -f "$TEST_ROOT/home-$u/.ssh/id_ed25519" </dev/null
  as "$u" cp "$TEST_ROOT/home-$u/.ssh/id_ed25519.pub" "$TEST_ROOT/home-$u/.ssh/authorized_keys"
done

# node_ssh USER PORT COMMAND: runs COMMAND over SSH on the node at PORT as USER.
node_ssh() {
  local u=$1 port=$2
  shift 2
  as "$u" timeout 30 ssh -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o ConnectTimeout=10 \
    -p "$port" "$u@127.0.0.1" "$@" </dev/null
}

write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: g, count: 2, cpus: 4, memory: 4G}
partitions:
  - {id: gpu, node_pool_ids: [g]}
default_partition_id: gpu
config:
  KillWait: "1"
  StintRunPorts: "31400-31439"
  StintRunSsh: "YES"
YAML
stintd --state-dir "$STINT_STATE_DIR"
wait_for 20 test -S "$STINT_STATE_DIR/stintd.sock"
expect_eq "the key in the config" "YES" "$(stint config show | awk '$1 == "StintRunSsh" {print $3}')"

# --- A 2-node run kept alive: each node has its SSH port.
run=$(as "$alice" run-create --project p --nodes 2 --ports 2 --keep-alive on --env LR=0.5 \
  -- sh -c 'echo done')
expect_eq "run name" "p/1" "$run"
wait_for 30 sh -c "run-show p/1 | grep -c ' KEPT_ALIVE ' | grep -qx 2"
job=$(run-show p/1 | awk '/^Job ID:/ {print $3}')
show=$(run-show p/1)
ssh0=$(echo "$show" | awk '$1 == "0" {print $6}')
ssh1=$(echo "$show" | awk '$1 == "1" {print $6}')
tcp0=$(echo "$show" | awk '$1 == "0" {print $7}')
tcp1=$(echo "$show" | awk '$1 == "1" {print $7}')
for p in "$ssh0" "$ssh1"; do
  [[ $p =~ ^[0-9]+$ ]] && [ "$p" -ge 31400 ] && [ "$p" -le 31439 ] ||
    fail "SSH port '$p' is not a port of StintRunPorts: $show"
done
[ "$ssh0" != "$ssh1" ] || fail "both nodes have SSH port $ssh0"
for p in "$ssh0" "$ssh1"; do
  case ",$tcp0,$tcp1," in *",$p,"*) fail "SSH port $p is also a TCP port: $show" ;; esac
done
expect_eq "TCP ports stay the lowest" "31400,31401" "$tcp0"

# --- A session is the owner's, on the node, with the node's variables.
out=$(node_ssh "$alice" "$ssh1" 'echo "$(id -un) $RANK $WORLD_SIZE $STINT_RUN $MASTER_PORT $LR $SLURM_JOB_ID"')
expect_eq "session on rank 1" "$alice 1 2 p/1 ${tcp0%%,*} 0.5 $job" "$out"
out=$(node_ssh "$alice" "$ssh0" 'echo "$RANK $STINT_TCP_PORTS"')
expect_eq "session on rank 0" "0 $tcp0" "$out"

# --- Nobody else gets in, with a key of their own.
node_ssh "$bob" "$ssh0" true 2>/dev/null && fail "bob logged in to alice's node"
expect_contains "sshd refused bob" "$(cat "$STINT_STATE_DIR/log/sshd.log")" "$bob"

# --- The files: root's folder, the user's files, nobody else's to read.
expect_eq "ssh folder" "root 711" "$(stat -c '%U %a' "$STINT_STATE_DIR/ssh/$job")"
expect_eq "host key" "$alice 600" "$(stat -c '%U %a' "$STINT_STATE_DIR/ssh/$job/host_key")"
as "$bob" cat "$STINT_STATE_DIR/ssh/$job/host_key" >/dev/null 2>&1 && fail "bob read the host key"

# --- What a session leaves running stays under the node's sshd, and a
# stintd killed and restarted still knows the sshd to stop.
node_ssh "$alice" "$ssh1" 'setsid nohup sleep 4321 >/dev/null 2>&1 </dev/null & echo left'
wait_for 10 pgrep -u "$alice" -f "sleep 4321"
pid=$(cat "$STINT_STATE_DIR/stintd.lock")
kill -KILL "$pid"
# Its lock goes when it is gone, a moment after the signal: a stintd started
# before that finds it held and leaves ("another stintd serves").
wait_for 10 flock -n -s "$STINT_STATE_DIR/stintd.lock" true
# A tool run while no stintd answers waits for one to come back (system
# mode: it may not start one itself, nor read root's lock; the killed one's
# socket says one may come): started before the new stintd, it is answered
# by it. The new stintd starts once the tool has found none and sleeps
# between its tries (a kernel that hides where a process waits shows "0");
# one that gave up at once is reported below.
as "$alice" sbatch --test-only --wrap true >"$TEST_ROOT/restart.out" 2>&1 &
waiting=$!
between_tries() {
  local p
  kill -0 "$waiting" 2>/dev/null || return 0
  p=$(pgrep -u "$alice" -x sbatch) || return 1
  case $(cat "/proc/$p/wchan" 2>/dev/null) in *nanosleep | 0) return 0 ;; esac
  return 1
}
wait_for 10 between_tries
stintd --state-dir "$STINT_STATE_DIR"
wait "$waiting" || fail "a request during stintd's restart was refused: $(cat "$TEST_ROOT/restart.out")"
wait_for 20 sh -c "run-list --project p --json | grep -q KEPT_ALIVE"
expect_eq "sshd kept across the restart" "0" "$(node_ssh "$alice" "$ssh0" 'echo $RANK')"

# --- run-stop lets the nodes go: sshd, sessions and leftovers with them.
as "$alice" run-stop p/1 >/dev/null
wait_for 30 sh -c "run-show p/1 | grep -q '^State: *STOPPED'"
port_closed() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for 10 port_closed "$ssh0"
wait_for 10 port_closed "$ssh1"
no_leftover() { ! pgrep -u "$alice" -f "sleep 4321" >/dev/null; }
wait_for 10 no_leftover
[ ! -e "$STINT_STATE_DIR/ssh/$job" ] || fail "the ssh folder of job $job is left"
expect_eq "SSH port of an ended run" "- -" \
  "$(run-show p/1 | awk '$1 == "0" || $1 == "1" {print $6}' | paste -sd' ')"

# --- A run that ends by itself (keep-alive off) takes its sshd along.
# The command waits for a file the test makes once its session is done.
gate="$TEST_ROOT/go-p2"
as "$alice" run-create --project p -- sh -c "while [ ! -e '$gate' ]; do sleep 0.1; done" >/dev/null
wait_for 20 sh -c "run-show p/2 | grep -q ' RUNNING '"
ssh2=$(run-show p/2 | awk '$1 == "0" {print $6}')
# stintd starts the node's sshd as the run starts; it listens a moment later.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for 10 port_open "$ssh2"
expect_eq "session while the command runs" "0" "$(node_ssh "$alice" "$ssh2" 'echo $RANK')"
touch "$gate"
wait_for 30 sh -c "run-show p/2 | grep -q '^State: *COMPLETED'"
wait_for 10 port_closed "$ssh2"
echo "PASS $TEST_NAME"
