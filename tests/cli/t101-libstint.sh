#!/usr/bin/env bash
# libstint as a library of its own: the tools link libstint.so.N (and Debian's
# shared libraries), the library exports its public API alone, and a program
# of someone else's builds against the installed headers and library, through
# find_package(stint) (examples/libstint) and through pkg-config, and reads
# the queue a job was submitted to.
source "$(dirname "$0")/lib.sh"
: "${STINT_SOURCE_DIR:?STINT_SOURCE_DIR must name the source tree}"
build=$(cd "$STINT_BIN/.." && pwd)
default_config

lib=$(ls "$build"/lib/libstint.so.* 2>/dev/null | head -n 1 || true)
[ -n "$lib" ] || fail "no libstint.so.N in $build/lib"
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
case "$soname" in
  libstint.so.[0-9]*) ;;
  *) fail "libstint's SONAME: $soname" ;;
esac
for tool in sbatch squeue stintd stint-stepd; do
  needed=$(objdump -p "$STINT_BIN/$tool" | awk '$1 == "NEEDED" { print $2 }' | lines)
  expect_contains "$tool's libraries" "$needed" "$soname"
  for lib_name in libyaml-cpp libsqlite3 libfmt; do
    case "$needed" in *"$lib_name"*) fail "$tool names $lib_name itself: $needed" ;; esac
  done
done
# A thin tool: the library does the work.
size=$(stat -c %s "$STINT_BIN/squeue")
[ "$size" -lt 1048576 ] || fail "squeue is $size bytes: the tool carries more than its main"

# The public API alone: query::read_jobs is exported, the daemon's insides are not.
exported=$(nm -DC --defined-only "$lib")
expect_contains "exported" "$exported" "stint::query::read_jobs("
expect_contains "exported" "$exported" "stint::tools::sbatch("
if grep -q "stint::daemon::\|stint::sched::\|stint::sql::" <<<"$exported"; then
  fail "libstint exports its internals: $(grep -m 3 'stint::daemon::\|stint::sched::\|stint::sql::' <<<"$exported")"
fi

# (ldd's output taken whole first: grep -q leaving early would fail ldd's write,
# and pipefail the test.)
libs=$(ldd "$STINT_BIN/sbatch")
if grep -q 'libasan\|libubsan' <<<"$libs"; then
  echo "SKIP: a sanitizer build's libstint needs its runtime in every program" >&2
  exit 77
fi

# Installed as the package installs it, then used by a program of its own.
prefix="$TEST_ROOT/prefix"
for component in lib dev; do
  cmake --install "$build" --prefix "$prefix" --component "$component" >/dev/null
done
[ -f "$prefix/include/stint/query.hpp" ] || fail "the headers were not installed"
job=$(submit -H -J from-sbatch --wrap true)
cmake -S "$STINT_SOURCE_DIR/examples/libstint" -B "$TEST_ROOT/example" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$TEST_ROOT/example.log" 2>&1 ||
  fail "configuring the example: $(tail -n 20 "$TEST_ROOT/example.log")"
cmake --build "$TEST_ROOT/example" >>"$TEST_ROOT/example.log" 2>&1 ||
  fail "building the example: $(tail -n 20 "$TEST_ROOT/example.log")"
out=$("$TEST_ROOT/example/queue-count")
expect_contains "the example's listing" "$out" "$job PENDING from-sbatch"
expect_contains "the example's count" "$out" "PENDING: 1"

# pkg-config, for a Makefile.
pc_dir=$(dirname "$(find "$prefix" -name stint.pc | head -n 1)")
[ -n "$pc_dir" ] && [ "$pc_dir" != . ] || fail "no stint.pc installed"
flags=$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs stint)
# shellcheck disable=SC2086
g++ -O0 -o "$TEST_ROOT/by-pkg-config" "$STINT_SOURCE_DIR/examples/libstint/queue_count.cpp" $flags \
  -Wl,-rpath,"$(PKG_CONFIG_PATH="$pc_dir" pkg-config --variable=libdir stint)" ||
  fail "building with pkg-config's flags ($flags)"
expect_contains "built with pkg-config" "$("$TEST_ROOT/by-pkg-config")" "$job PENDING from-sbatch"
echo "ok: libstint is a library of its own"
