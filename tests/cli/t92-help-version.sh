#!/usr/bin/env bash
# Every tool answers --help, --usage, --version and -V as Slurm's do: help
# and usage on stdout with exit 0, the version as "slurm 22.05.8 (stint X.Y.Z)"
# (Slurm prints "slurm 22.05.8"; scripts parse the first two words), none of
# them starting stintd or writing state.
source "$(dirname "$0")/lib.sh"

tools=()
for f in "$STINT_BIN"/*; do
  name=${f##*/}
  [ -f "$f" ] && [ -x "$f" ] || continue
  case $name in unit_* | bench* | *.so*) continue ;; esac
  tools+=("$name")
done
[ ${#tools[@]} -ge 10 ] || fail "found only ${tools[*]} in $STINT_BIN"

version=""
for tool in "${tools[@]}"; do
  for opt in --version -V; do
    out=$("$tool" "$opt" 2>&1) || fail "$tool $opt exited $?: $out"
    [[ $out =~ ^slurm\ 22\.05\.[0-9]+\ \(stint\ [0-9]+\.[0-9]+\.[0-9]+[^[:space:]]*\)$ ]] || fail "$tool $opt printed '$out'"
    [ -z "$version" ] || expect_eq "$tool $opt, as the others" "$version" "$out"
    version=$out
  done
  out=$("$tool" --help 2>/dev/null) || fail "$tool --help exited $?"
  # Slurm's sacct and sacctmgr begin with "sacct [<OPTION>]", sshare with
  # "Usage:  sshare".
  grep -q -E -e "^Usage: +$tool" -e "^$tool \\[" <<<"$out" ||
    fail "$tool --help has no 'Usage: $tool' line: $(head -n 3 <<<"$out")"
  help=$out
  out=$("$tool" --usage 2>/dev/null) || fail "$tool --usage exited $?"
  # Slurm's sacctmgr, sshare and scontrol answer --usage with their whole help.
  if [ "$tool" = sacctmgr ] || [ "$tool" = sshare ] || [ "$tool" = scontrol ]; then
    expect_eq "$tool --usage, as --help" "$help" "$out"
  else
    first=$(head -n 1 <<<"$out")
    [[ $first == "Usage: $tool"* ]] || fail "$tool --usage starts with '$first'"
    # Short: Slurm's usage is a few lines, not the whole help.
    [ "$(wc -l <<<"$out")" -le 30 ] || fail "$tool --usage is $(wc -l <<<"$out") lines long"
  fi
  err=$("$tool" --no-such-option 2>&1 >/dev/null) && fail "$tool took --no-such-option"
  [ -n "$err" ] || fail "$tool said nothing about --no-such-option"
done
# The fork server is stintd's to start, with its socket on descriptor 3: run
# by hand it says so and exits as on a usage error.
err=$(stint-stepd --fork-server 3</dev/null 2>&1) && fail "stint-stepd --fork-server ran by hand"
rc=$?
expect_eq "stint-stepd --fork-server by hand exits" 255 "$rc"
expect_contains "stint-stepd --fork-server by hand" "$err" "stint-stepd: error: --fork-server is started by stintd"
[ ! -e "$STINT_STATE_DIR/stint.db" ] || fail "asking for help started stintd"
[ ! -S "$STINT_STATE_DIR/stintd.sock" ] || fail "asking for help started stintd"

# The short usage names the options, in Slurm's words where the tool is
# one of Slurm's.
out=$(squeue --usage)
expect_contains "squeue --usage" "$out" "[-A account]"
out=$(stint --usage)
expect_contains "stint --usage" "$out" "{init|config|daemon|db|report|export|version}"
expect_eq "stint version" "$version" "$(stint version)"
expect_eq "scontrol version" "$version" "$(scontrol version)"
# A subcommand answers --usage with its own options.
out=$(stint report --usage)
expect_contains "stint report --usage" "$out" "Usage: stint report"
expect_contains "stint report --usage" "$out" "[-o output]"
expect_contains "stint config show --usage" "$(stint config show --usage)" "Usage: stint config show"

# No library is looked for in the current directory (an empty RUNPATH entry
# means it): one planted there would run as whoever ran a tool in it, root
# included. Garbage under the libraries' names makes the loader fail if it looks.
mkdir planted
for lib in libc.so.6 libstdc++.so.6 libfmt.so.9 libstint.so.0 libsqlite3.so.0 libyaml-cpp.so.0.7; do
  echo "not a library" >"planted/$lib"
done
for tool in sbatch squeue stintd stint-stepd; do
  out=$(cd planted && "$tool" --version 2>&1) || fail "$tool in a folder of planted libraries: $out"
  expect_eq "$tool --version among planted libraries" "$version" "$out"
done

# A tool either loads libstint.so or carries libstint and the C++ runtime inside
# it (STINT_STATIC_TOOLS): a static tool that still loaded a shared C++ library
# would run two C++ runtimes side by side, each with its own heap bookkeeping,
# locale and exception tables.
for tool in "${tools[@]}"; do
  libs=$(ldd "$STINT_BIN/$tool") || fail "ldd $tool failed: $libs"
  if ! grep -q "libstint\.so" <<<"$libs"; then
    for cxx in libstdc++ libfmt libyaml-cpp libgcc_s; do
      grep -q "$cxx" <<<"$libs" && fail "static $tool loads $cxx: $libs"
    done
    # SQLite comes inside too: the shared one binds its own symbols at each start.
    grep -q libsqlite3 <<<"$libs" && fail "static $tool loads libsqlite3: $libs"
  fi
done
true
