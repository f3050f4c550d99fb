# Shared by the system benchmarks (bench/system/*.sh). Each script sources
# this, gets a fresh state directory per cluster it sets up, and stops its
# stintd (and cancels its jobs) on exit, whatever happens.
#
# Every figure is printed twice: a line for people, and a machine line
#   RESULT|<key>|<median>|<min>|<max>|<unit>|<runs>|<command>
# that bench/run-all turns into bench/RESULTS.md.
#
# Sizes come from the environment so a quick mode exists (BENCH_QUICK=1 picks
# small defaults; each BENCH_* variable below overrides one size).
#
# BENCH_TARGET=slurm runs the same workloads against a real Slurm instead
# (comparison mode, bench/run-all --slurm): Debian's slurm-wlm brought up on
# loopback by tests/cli/slurm-cluster.sh (root; packages installed if
# missing), one slurmd per virtual node, each with this machine's CPUs. The
# result keys get a "slurm:" prefix.
set -euo pipefail

BENCH_TARGET=${BENCH_TARGET:-stint}
BENCH_NAME=$(basename "$0" .sh)
BENCH_ROOT=$(mktemp -d "${TMPDIR:-/tmp}/stint-bench-$BENCH_NAME-XXXXXX")
BENCH_QUICK=${BENCH_QUICK:-0}
# Both sides' limits, the same; a script whose queues are larger sets them
# before it sources this file.
BENCH_MAX_ARRAY_SIZE=${BENCH_MAX_ARRAY_SIZE:-100001}
BENCH_MAX_JOB_COUNT=${BENCH_MAX_JOB_COUNT:-200000}
case $BENCH_TARGET in
  stint)
    : "${STINT_BIN:?STINT_BIN must name the folder with the built binaries}"
    export PATH="$STINT_BIN:$PATH"
    RESULT_PREFIX=
    ;;
  slurm)
    # The real tools: /usr/bin ahead of any stint folder.
    export PATH="/usr/bin:/usr/sbin:$PATH"
    export STINT_TEST_SLURM_PORT_BASE=${STINT_TEST_SLURM_PORT_BASE:-26900}
    TEST_ROOT=$BENCH_ROOT
    # shellcheck source=../../tests/cli/slurm-cluster.sh
    source "$(dirname "${BASH_SOURCE[0]}")/../../tests/cli/slurm-cluster.sh"
    # Room for the issue's queues, and sprio's plugin.
    export SLURM_CONF_EXTRA="MaxJobCount=$BENCH_MAX_JOB_COUNT
MaxArraySize=$BENCH_MAX_ARRAY_SIZE
PriorityType=priority/multifactor"
    SLURM_UP_NODES=
    RESULT_PREFIX=slurm:
    # A real Slurm runs trivial jobs at 1-2 per second here: the full sizes
    # would take hours, so the rates and latencies come from smaller runs
    # (each still overridable; the command text names the size used).
    if [ "$BENCH_QUICK" != 1 ]; then
      : "${BENCH_E2E_JOBS:=100}" "${BENCH_E2E_ARRAY:=200}" "${BENCH_SCALE:=5000 20000}"
      : "${BENCH_RUNS:=1}" "${BENCH_SCALE_REPS:=3}" "${BENCH_REPS:=10}" "${BENCH_SEQ:=200}"
      : "${BENCH_ARRAY:=10000}"
    fi
    ;;
  *) echo "BENCH_TARGET must be stint or slurm" >&2; exit 2 ;;
esac

# size NAME FULL QUICK: the value of $NAME if set, else FULL or QUICK.
size() {
  local name=$1 full=$2 quick=$3
  if [ -n "${!name:-}" ]; then echo "${!name}"; elif [ "$BENCH_QUICK" = 1 ]; then echo "$quick"; else echo "$full"; fi
}
REPS=$(size BENCH_REPS 30 3)  # repetitions of a latency measurement
RUNS=$(size BENCH_RUNS 3 1)   # repetitions of a throughput measurement

# --- state directories and stintd ---------------------------------------------

STATE_DIRS=()

# new_state NAME SHAPE: a fresh state directory for a cluster of SHAPE
# ("large": 4 nodes x 64 CPUs, the virtual cluster that is not the
# bottleneck; "small": one node of 2 CPUs, the shape of the real Slurm
# here), exported as STINT_STATE_DIR, with the work directory as cwd.
new_state() {
  if [ "$BENCH_TARGET" = slurm ]; then new_slurm_state "$@"; return; fi
  local name=$1 shape=$2
  shape_size "$shape"
  export STINT_STATE_DIR="$BENCH_ROOT/$name/state"
  mkdir -p "$STINT_STATE_DIR" "$BENCH_ROOT/$name/work"
  chmod 700 "$STINT_STATE_DIR"
  STATE_DIRS+=("$STINT_STATE_DIR")
  cd "$BENCH_ROOT/$name/work"
  local pool
  case "$shape" in
    large) pool="{id: n, count: 4, cpus: 64, memory: 256G}" ;;
    small) pool="{id: n, count: 1, cpus: 2, memory: 4G}" ;;
    *) echo "new_state: unknown shape $shape" >&2; return 1 ;;
  esac
  # MaxArraySize allows the 10,000- and 100,000-task arrays (arrays.sh: 1,000,000); the idle exit is
  # off so a pause between measurements does not stop stintd; DefMemPerCPU
  # as the real Slurm here has it, so small jobs share a node.
  cat >"$STINT_STATE_DIR/stint.yaml" <<YAML
cluster_name: bench
node_pools: [$pool]
partitions: [{id: batch, node_pool_ids: [n]}]
config: {StintIdleExit: "0", MaxArraySize: "$BENCH_MAX_ARRAY_SIZE", MaxJobCount: "$BENCH_MAX_JOB_COUNT",
         DefMemPerCPU: "64", KillWait: "2"}
YAML
  # Start stintd now (any request does) so every figure is taken warm.
  # (scancel with no jobs to act on is a request that leaves no job behind).
  scancel --me >/dev/null 2>&1 || true
  scontrol ping >/dev/null || { echo "stintd did not start" >&2; return 1; }
}

# The shape of the cluster new_state set up: BLOCK_NODES nodes of BLOCK_CPUS
# CPUs (a job that holds all of it: -N BLOCK_NODES -n BLOCK_NODES -c BLOCK_CPUS).
shape_size() {
  case "$1" in
    large) BLOCK_NODES=4 BLOCK_CPUS=64 ;;
    small) BLOCK_NODES=1 BLOCK_CPUS=2 ;;
  esac
}

# The Slurm side of new_state: the cluster of that shape (4 or 1 slurmd, each
# with this machine's CPUs), brought up once per shape and emptied of jobs
# between measurements; STINT_STATE_DIR names slurmctld's state (its size).
new_slurm_state() {
  local name=$1 shape=$2 nodes
  shape_size "$shape"
  nodes=$BLOCK_NODES
  BLOCK_CPUS=$(nproc)
  # BENCH_SLURM_FRESH=1: a new cluster each time, as stint gets a new state
  # directory: slurmctld keeps the jobs of the last measurement MinJobAge
  # (300 s) after they end, in its memory and its state files.
  if [ "$SLURM_UP_NODES" != "$nodes" ] || [ "${BENCH_SLURM_FRESH:-0}" = 1 ]; then
    if [ -n "$SLURM_UP_NODES" ]; then
      slurm_down
      rm -rf "$SLURM_DIR"
    fi
    SLURM_DIR="$BENCH_ROOT/slurm-$nodes"
    export SLURM_CONF="$SLURM_DIR/slurm.conf"
    SLURM_NODES=$nodes slurm_up
    SLURM_UP_NODES=$nodes
  fi
  drain_slurm
  # The cluster outlives a measurement: sacct counts from here on (a second
  # later than anything the last one ran).
  sleep 1
  BENCH_SINCE=$(date +%Y-%m-%dT%H:%M:%S)
  export STINT_STATE_DIR="$SLURM_DIR/ctld"
  mkdir -p "$BENCH_ROOT/$name/work"
  cd "$BENCH_ROOT/$name/work"
}

# Cancels every job of the Slurm cluster and waits until none is left unfinished.
drain_slurm() {
  scancel --me >/dev/null 2>&1 || true
  local deadline=$((SECONDS + 120))
  while [ -n "$(squeue -h -t PD,R,CG,S -o %i 2>/dev/null | head -n 1)" ]; do
    [ $SECONDS -lt $deadline ] || { echo "slurm: jobs left after scancel" >&2; return 1; }
    sleep 0.2
  done
}

stintd_pid() {
  if [ "$BENCH_TARGET" = slurm ]; then
    tr -dc '0-9' <"$SLURM_DIR/run/slurmctld.pid"
  else
    cat "$STINT_STATE_DIR/stintd.lock" 2>/dev/null || true
  fi
}

# stop_state DIR: cancels its jobs, stops its stintd, waits for its stepds.
stop_state() {
  if [ "$BENCH_TARGET" = slurm ]; then drain_slurm; return; fi
  local dir=$1 pid d kept=()
  for d in "${STATE_DIRS[@]+"${STATE_DIRS[@]}"}"; do [ "$d" = "$dir" ] || kept+=("$d"); done
  STATE_DIRS=("${kept[@]+"${kept[@]}"}")
  STINT_STATE_DIR=$dir scancel --me >/dev/null 2>&1 || true
  pid=$(cat "$dir/stintd.lock" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  local deadline=$((SECONDS + 15))
  while pgrep -f "stint-stepd $dir/" >/dev/null 2>&1 && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
}

bench_cleanup() {
  local rc=$? dir
  if [ $rc -ne 0 ] && [ -n "${STINT_STATE_DIR:-}" ]; then
    echo "--- $BENCH_NAME failed (exit $rc); last stintd log:" >&2
    tail -n 20 "$STINT_STATE_DIR/log/stintd.log" >&2 2>/dev/null || true
  fi
  # stop_state shortens the list, so walk a copy.
  for dir in "${STATE_DIRS[@]+"${STATE_DIRS[@]}"}"; do stop_state "$dir"; done
  if [ "$BENCH_TARGET" = slurm ] && [ -n "$SLURM_UP_NODES" ]; then slurm_down || true; fi
  cd /
  rm -rf "$BENCH_ROOT"
  exit $rc
}
trap bench_cleanup EXIT

# --- timing -------------------------------------------------------------------

# Microseconds since the epoch, from bash itself (no process: `date` would
# cost about 1 ms, as much as what is measured).
now_us() { local t=${EPOCHREALTIME/./}; echo "$t"; }

# time_ms COMMAND...: runs it (output discarded) and prints its wall time in ms.
time_ms() {
  local t0=${EPOCHREALTIME/./} t1
  "$@" >/dev/null
  t1=${EPOCHREALTIME/./}
  awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f\n", d / 1000 }'
}

# summary KEY UNIT COMMAND-TEXT < values: prints median (min-max) of the values.
summary() {
  local key=$1 unit=$2 cmd="$BENCH_NAME.sh: $3"
  sort -g | awk -v key="$key" -v unit="$unit" -v cmd="$cmd" -v prefix="$RESULT_PREFIX" '
    { v[NR] = $1 }
    END {
      if (NR == 0) { print "no values for " key > "/dev/stderr"; exit 1 }
      med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%-40s %10.3f %s  (%.3f-%.3f, n=%d)\n", key, med, unit, v[1], v[NR], NR
      printf "RESULT|%s%s|%.3f|%.3f|%.3f|%s|%d|%s\n", prefix, key, med, v[1], v[NR], unit, NR, cmd
    }'
}

# latency KEY REPS COMMAND...: median (min-max) wall time of COMMAND in ms.
latency() {
  local key=$1 reps=$2 i
  shift 2
  "$@" >/dev/null  # one warm-up: page cache, stintd's first answer
  for ((i = 0; i < reps; i++)); do time_ms "$@"; done | summary "$key" ms "$*"
}

# --- waiting ------------------------------------------------------------------

# Jobs not yet finished (pending, running, completing), counted from squeue.
unfinished() { squeue -h -t PD,R,CG,S -o %i | wc -l; }

# wait_done LIMIT_S: until no job is unfinished; fails after LIMIT_S seconds.
wait_done() {
  local deadline=$((SECONDS + $1))
  while [ "$(unfinished)" -gt 0 ]; do
    if [ $SECONDS -ge $deadline ]; then echo "timed out waiting for jobs to finish" >&2; return 1; fi
    sleep 0.02
  done
}

# count_state STATE: jobs (allocations, array tasks included) in that state, per sacct.
BENCH_SINCE=2000-01-01
count_state() { sacct -a -X -n -P -o State -s "$1" -S "$BENCH_SINCE" -E now | grep -c "^$1" || true; }

# count_settled STATE EXPECTED: count_state, waiting up to a minute for it to
# reach EXPECTED (a real Slurm's accounting lags behind its queue).
count_settled() {
  local n deadline=$((SECONDS + 60))
  while n=$(count_state "$1"); [ "$n" != "$2" ] && [ $SECONDS -lt $deadline ]; do sleep 0.5; done
  echo "$n"
}

# expect_count WHAT EXPECTED ACTUAL: a benchmark that did not do its work fails.
expect_count() {
  if [ "$2" != "$3" ]; then echo "FAIL: $1: expected $2, got $3" >&2; exit 1; fi
}

# rate KEY COUNT MILLISECONDS...: per-second rates from counts and durations.
rate() {
  local key=$1 count=$2 cmd=$3
  shift 3
  for ms in "$@"; do awk -v c="$count" -v ms="$ms" 'BEGIN { printf "%.1f\n", c * 1000 / ms }'; done |
    summary "$key" "/s" "$cmd"
}
