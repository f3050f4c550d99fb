# Shared by the end-to-end tests: each test sources this, gets its own state
# directory and working directory, and stops the stintd it started on exit.
# Tests use the real binaries from $STINT_BIN, as a user would.
set -euo pipefail

: "${STINT_BIN:?STINT_BIN must name the folder with the built binaries}"
export PATH="$STINT_BIN:$PATH"
TEST_NAME=$(basename "$0" .sh)
TEST_ROOT=$(mktemp -d "${TMPDIR:-/tmp}/stint-$TEST_NAME-XXXXXX")
export STINT_STATE_DIR="$TEST_ROOT/state"
WORK="$TEST_ROOT/work"
mkdir -p "$STINT_STATE_DIR" "$WORK"
chmod 700 "$STINT_STATE_DIR"
cd "$WORK"

stop_stintd() {
  local pid
  if [ -f "$STINT_STATE_DIR/stintd.lock" ]; then
    pid=$(cat "$STINT_STATE_DIR/stintd.lock" 2>/dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
}

cleanup() {
  local rc=$?
  # Jobs outlive stintd by design; a test's jobs must not outlive the test.
  if [ -S "$STINT_STATE_DIR/stintd.sock" ]; then scancel --me >/dev/null 2>&1 || true; fi
  stop_stintd
  # Each stepd ends its task (SIGTERM, SIGKILL after KillWait) and then exits.
  local deadline=$((SECONDS + 15))
  while pgrep -f "stint-stepd $STINT_STATE_DIR/" >/dev/null 2>&1 && [ $SECONDS -lt $deadline ]; do
    sleep 0.1
  done
  # A stepd whose task ended after its stintd was killed starts another.
  stop_stintd
  if [ $rc -ne 0 ]; then
    echo "--- $TEST_NAME failed (exit $rc); stintd log:" >&2
    tail -n 40 "$STINT_STATE_DIR/log/stintd.log" >&2 2>/dev/null || true
    tail -n 20 "$STINT_STATE_DIR/log/stepd.log" >&2 2>/dev/null || true
  fi
  rm -rf "$TEST_ROOT"
  exit $rc
}
trap cleanup EXIT

# A small fixed cluster so tests do not depend on this machine's shape.
write_config() {
  cat >"$STINT_STATE_DIR/stint.yaml"
}

default_config() {
  write_config <<'YAML'
cluster_name: test
node_pools:
  - id: n
    count: 2
    cpus: 4
    memory: 4G
    gpus: 2
partitions:
  - id: debug
    node_pool_ids: [n]
    max_time: "1:00:00"
config:
  KillWait: "2"
YAML
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Sanitizer builds run every program several times slower, and a loaded CI
# machine slower again: tests/CMakeLists.txt sets STINT_TEST_TIME_SCALE there,
# and every deadline a test waits on, and every time window it opens for
# stint to act in, is that many times longer.
TIME_SCALE=${STINT_TEST_TIME_SCALE:-1}
# scaled SECONDS: SECONDS times the scale.
scaled() { echo $(($1 * TIME_SCALE)); }

# wait_for SECONDS COMMAND...: runs COMMAND until it succeeds or the deadline
# (SECONDS, scaled) passes.
wait_for() {
  local limit=$(($1 * TIME_SCALE))
  shift
  local deadline=$((SECONDS + limit))
  while ! "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $deadline ]; then
      fail "timed out after ${limit}s waiting for: $*"
    fi
    sleep 0.05
  done
}

# The state of a job as sacct reports it (first line, no header).
job_state() {
  sacct -n -X -P -o State -j "$1" | head -n 1 | awk '{print $1}'
}

job_ended() {
  case "$(job_state "$1")" in
    COMPLETED|FAILED|CANCELLED*|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED) return 0 ;;
    *) return 1 ;;
  esac
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
  if [ "$2" != "$3" ]; then
    fail "$1: expected '$2', got '$3'"
  fi
}

expect_contains() {
  case "$2" in
    *"$3"*) ;;
    *) fail "$1: expected to contain '$3', got: $2" ;;
  esac
}

expect_not_contains() {
  case "$2" in
    *"$3"*) fail "$1: expected no '$3', got: $2" ;;
  esac
}

# sbatch_refused WHAT EXPECTED-STDERR SBATCH-ARGS...: sbatch --wrap true with
# those options exits 1 and prints exactly Slurm's lines.
sbatch_refused() {
  local what=$1 want=$2 err rc
  shift 2
  set +e
  err=$(sbatch "$@" --wrap true 2>&1)
  rc=$?
  set -e
  expect_eq "$what: exit" 1 "$rc"
  expect_eq "$what" "$want" "$err"
}

# command_refused WHAT EXPECTED-STDERR COMMAND...: COMMAND exits 1 and prints
# exactly those lines on stderr.
command_refused() {
  local what=$1 want=$2
  shift 2
  command_refused_with 1 "$what" "$want" "$@"
}

# command_refused_with STATUS WHAT EXPECTED-STDERR COMMAND...: the same, exiting STATUS.
command_refused_with() {
  local status=$1 what=$2 want=$3 err rc
  shift 3
  set +e
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  set -e
  expect_eq "$what: exit" "$status" "$rc"
  expect_eq "$what" "$want" "$err"
}

# Standard input's lines joined by single spaces.
lines() { tr '\n' ' ' | sed 's/ $//'; }

submit() {
  sbatch --parsable "$@"
}

# need_debian_package PACKAGE COMMAND: COMMAND is in PATH, or PACKAGE is
# installed from Debian's mirror (as root, where apt-get exists) to provide it;
# else the test is skipped (exit 77).
need_debian_package() {
  command -v "$2" >/dev/null && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null ||
    ! DEBIAN_FRONTEND=noninteractive timeout 900 apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
      --no-install-recommends "$1" >"$TEST_ROOT/apt.log" 2>&1 || ! command -v "$2" >/dev/null; then
    tail -n 3 "$TEST_ROOT/apt.log" >&2 2>/dev/null || true
    echo "SKIP: $1 ($2) is not installed and could not be" >&2
    exit 77
  fi
}
