#!/usr/bin/env bash
# The Debian packages (scripts/package: cpack from this build): stint,
# libstint0 and libstint-dev, with their dependencies from dpkg-shlibdeps.
# Installed by dpkg into a root of their own, the installed tools run a job, the
# man pages read and the completion loads; purged, they leave no file behind;
# lintian, where installed, finds no error.
source "$(dirname "$0")/lib.sh"
build=$(cd "$STINT_BIN/.." && pwd)
[ -f "$build/CPackConfig.cmake" ] || fail "no CPackConfig.cmake in $build"
# (ldd's output taken whole first: grep -q leaving early would fail ldd's write,
# and pipefail the test.)
libs=$(ldd "$STINT_BIN/sbatch")
if grep -q 'libasan\|libubsan' <<<"$libs"; then
  echo "SKIP: a sanitizer build is not packaged" >&2
  exit 77
fi
command -v dpkg-shlibdeps >/dev/null || need_debian_package dpkg-dev dpkg-shlibdeps
default_config

packages="$TEST_ROOT/packages"
cpack --config "$build/CPackConfig.cmake" -B "$packages" >"$TEST_ROOT/cpack.log" 2>&1 ||
  fail "cpack: $(tail -n 30 "$TEST_ROOT/cpack.log")"
deb() {
  local f
  for f in "$packages"/"$1"_*.deb; do [ -e "$f" ] && echo "$f"; done
}
for name in stint libstint0 libstint-dev; do
  [ -n "$(deb $name)" ] || fail "no $name package: $(ls "$packages")"
done
# The debug information, apart, found by build id.
dbgsym="$packages/libstint0-dbgsym_$(dpkg-deb -f "$(deb libstint0)" Version)_$(dpkg-deb -f "$(deb libstint0)" Architecture).ddeb"
[ -f "$dbgsym" ] || fail "no libstint0-dbgsym package: $(ls "$packages")"
expect_contains "the debug files" "$(dpkg-deb -c "$dbgsym")" "./usr/lib/debug/.build-id/"
depends=$(dpkg-deb -f "$(deb stint)" Depends)
expect_contains "stint's dependencies" "$depends" "libstint0 (= "
expect_contains "stint's dependencies (dpkg-shlibdeps)" "$depends" "libc6"
expect_contains "libstint0's dependencies" "$(dpkg-deb -f "$(deb libstint0)" Depends)" "libsqlite3-0"
expect_contains "libstint0's shlibs" "$(dpkg-deb -I "$(deb libstint0)" shlibs)" "libstint 0 libstint0"

# dpkg installs them into a root of their own, with its own database: what
# they need from the system (libc6, libsqlite3-0, ...) is this machine's, so
# their dependencies are forced there, and their maintainer scripts run
# outside the root (there is no shell in it to chroot into).
root="$TEST_ROOT/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
dpkg_root() {
  dpkg --root="$root" --log=/dev/null --force-depends --force-not-root --force-bad-path \
    --force-script-chrootless "$@"
}
dpkg_root -i "$(deb libstint0)" "$(deb stint)" "$(deb libstint-dev)" >"$TEST_ROOT/dpkg.log" 2>&1 ||
  fail "dpkg -i: $(tail -n 20 "$TEST_ROOT/dpkg.log")"
for name in stint libstint0 libstint-dev; do
  expect_eq "$name's state in dpkg's database" "install ok installed" \
    "$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Status}' "$name")"
done
usr="$root/usr"
libdir=$(dirname "$(find "$usr/lib" -name 'libstint.so.0' | head -n 1)")
[ -d "$libdir" ] || fail "libstint.so.0 is not in the package"
for tool in sbatch squeue scancel sacct stintd stint-stepd; do
  path="$usr/bin/$tool"
  [ -e "$path" ] || path="$usr/sbin/$tool"
  [ -e "$path" ] || fail "$tool is not in the package"
  headers=$(objdump -p "$path")
  grep -q 'RUNPATH\|RPATH' <<<"$headers" && fail "installed $tool has a RUNPATH"
  kind=$(file -b "$path")
  grep -q 'not stripped' <<<"$kind" && fail "installed $tool is not stripped: $kind"
done
[ -f "$usr/include/stint/query.hpp" ] || fail "libstint-dev has no headers"

# The installed tools, with the library where the system would find it.
export LD_LIBRARY_PATH="$libdir"
export PATH="$usr/bin:$usr/sbin:$PATH"
job=$(sbatch --parsable --wrap 'echo ran from the package')
wait_for 30 job_ended "$job"
expect_eq "the packaged job" COMPLETED "$(job_state "$job")"
expect_eq "its output" "ran from the package" "$(cat "slurm-$job.out")"
expect_contains "stintd ran from the package" "$(cat "$STINT_STATE_DIR/log/stintd.log")" "stintd"
scancel --me
stop_stintd

page="$usr/share/man/man1/sbatch.1.gz"
[ -f "$page" ] || fail "no compressed man page sbatch.1.gz"
expect_contains "man sbatch" "$(MANWIDTH=80 man -l "$page" 2>/dev/null | head -n 20)" "sbatch"
# Every placeholder is italic, none left as scdoc's literal "_NAME_".
literal=$(for f in "$usr"/share/man/man*/*.gz; do zcat "$f" | grep -H --label="$f" '\\fR_[A-Za-z][A-Za-z0-9]*_' || true; done)
expect_eq "man pages with a literal _placeholder_" "" "$literal"
completion="$usr/share/bash-completion/completions/sbatch"
[ -e "$completion" ] || fail "no completion where bash-completion loads it"
expect_contains "the completion" "$(bash -c "source '$completion' && complete -p sbatch")" "sbatch"
for unit in "$usr/lib/systemd/system/stintd.service" "$usr/lib/systemd/user/stintd.service"; do
  [ -f "$unit" ] || fail "no $unit"
done
expect_contains "the unit's stintd" "$(cat "$usr/lib/systemd/system/stintd.service")" "/usr/sbin/stintd"

if command -v lintian >/dev/null; then
  lintian --fail-on error --tag-display-limit 0 "$(deb stint)" "$(deb libstint0)" "$(deb libstint-dev)" \
    >"$TEST_ROOT/lintian.log" 2>&1 || fail "lintian: $(grep '^E:' "$TEST_ROOT/lintian.log" | head -n 20)"
else
  echo "lintian is not installed: the packages were not linted" >&2
fi
# Removed, they leave nothing behind: dpkg took every file it installed.
dpkg_root --purge stint libstint-dev libstint0 >"$TEST_ROOT/dpkg-purge.log" 2>&1 ||
  fail "dpkg --purge: $(tail -n 20 "$TEST_ROOT/dpkg-purge.log")"
left=$(find "$root" -path "$root/var/lib/dpkg" -prune -o ! -type d -print)
expect_eq "files left after dpkg --purge" "" "$left"
expect_eq "packages left in dpkg's database" "" \
  "$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f '${Package} ${Status}\n' 2>/dev/null | grep -v 'not-installed' || true)"
echo "ok: the Debian packages install, run and uninstall"
