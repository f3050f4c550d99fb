# Real Unix users for a test (t85, t93), sourced instead of lib.sh: skips
# (77) unless root with the tools to make users, then sources lib.sh.
#   add_test_user NAME [useradd options]: a user with a home in the test's folder
#   as NAME COMMAND...: runs a tool as NAME in their home, with only what the
#     tools need from this environment
# On exit every job of the test's users is cancelled, stintd stopped, their
# processes killed and the users removed; a test that made more (a group, a
# file) defines remove_extras, which runs then.
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: needs root (it creates Unix users and runs stintd in system mode)" >&2
  exit 77
fi
for tool in useradd userdel groupadd groupdel runuser; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: needs $tool to create the test's users" >&2
    exit 77
  fi
done
. "$(dirname "$0")/lib.sh"

made_users=()

remove_users() {
  local rc=$?
  set +e
  for u in "${made_users[@]}"; do scancel -u "$u" >/dev/null 2>&1; done
  stop_stintd
  local deadline=$((SECONDS + 15))
  while pgrep -f "stint-stepd $STINT_STATE_DIR/" >/dev/null 2>&1 && [ $SECONDS -lt $deadline ]; do
    sleep 0.1
  done
  for u in "${made_users[@]}"; do
    pkill -KILL -u "$u" >/dev/null 2>&1
    userdel -f -r "$u" >/dev/null 2>&1
  done
  if declare -F remove_extras >/dev/null; then remove_extras; fi
  (exit $rc)
  cleanup
}
trap remove_users EXIT

# The users' homes are in it: they must be able to pass through.
chmod 711 "$TEST_ROOT"

add_test_user() {
  local u=$1
  shift
  useradd -m -d "$TEST_ROOT/home-$u" -s /bin/sh "$@" "$u"
  made_users+=("$u")
}

as() {
  local u=$1
  shift
  runuser -u "$u" -- env -C "$TEST_ROOT/home-$u" PATH="$PATH" STINT_STATE_DIR="$STINT_STATE_DIR" \
    ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
    "$@"
}
