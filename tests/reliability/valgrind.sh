#!/usr/bin/env bash
# stintd and every stint-stepd under valgrind (memcheck) through a short
# workload: batch jobs, an array, a dependency, a failure, srun steps, a job
# cancelled while it waits. Any memcheck error, or memory definitely lost, in
# any of them fails the test; the figures are printed. Valgrind does not pass
# signals to a signalfd (both daemons read theirs that way), so nothing here
# signals them: stintd is stopped with `stint daemon stop`, and no running job
# is cancelled (t08 and t63 cover that without valgrind).
source "$(dirname "$0")/../cli/lib.sh"
command -v valgrind >/dev/null || { echo "SKIP: valgrind is not installed" >&2; exit 77; }
default_config

VG_LOGS=$TEST_ROOT/valgrind
mkdir -p "$VG_LOGS" "$TEST_ROOT/libexec"
vg=(valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
  --show-leak-kinds=definite --log-file="$VG_LOGS/%q{VG_NAME}-%p.log")
# stintd finds stint-stepd in STINT_LIBEXEC_DIR first: a wrapper runs it under valgrind.
cat >"$TEST_ROOT/libexec/stint-stepd" <<SH
#!/bin/sh
VG_NAME=stepd exec ${vg[*]} "$STINT_BIN/stint-stepd" "\$@"
SH
chmod +x "$TEST_ROOT/libexec/stint-stepd"
export STINT_LIBEXEC_DIR=$TEST_ROOT/libexec

VG_NAME=stintd "${vg[@]}" "$STINT_BIN/stintd" --foreground 2>"$TEST_ROOT/stintd.err" &
daemon=$!
wait_for 60 test -S "$STINT_STATE_DIR/stintd.sock"

ids=()
ids+=("$(submit --wrap 'echo hello')")
ids+=("$(submit --array=1-4 --wrap 'echo task $SLURM_ARRAY_TASK_ID')")
first=$(submit --wrap 'exit 3')
ids+=("$first" "$(submit -d "afterany:$first" --wrap true)")
ids+=("$(submit -N2 --ntasks-per-node=2 --wrap 'srun -l hostname; srun -n1 true')")
held=$(submit -H --wrap true)
scancel "$held"
ids+=("$held")
for id in "${ids[@]}"; do wait_for 120 job_ended "$id"; done
expect_eq "the steps ran" 2 "$(sacct -n -P -j "${ids[4]}" -o JobID | grep -c '\.[0-9]')"

stint daemon stop >/dev/null
rc=0
wait "$daemon" || rc=$?
# Each stepd has written its result and exited before its job ended.
stepds=$(ls "$VG_LOGS"/stepd-*.log 2>/dev/null | wc -l)
errors=$(cat "$VG_LOGS"/*.log 2>/dev/null | grep -cE '^==[0-9]+== (Invalid|Conditional|Syscall param|Mismatched|Source and destination)|definitely lost in' || true)
echo "valgrind: stintd and $stepds stepd runs over ${#ids[@]} submissions; $errors errors"
if [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ]; then
  for f in "$VG_LOGS"/*.log; do [ -s "$f" ] && { echo "--- $f" >&2; head -n 60 "$f" >&2; }; done
  fail "valgrind found errors (stintd exit $rc)"
fi
[ "$stepds" -ge 6 ] || fail "only $stepds stepd runs were under valgrind"
echo ok
