#!/usr/bin/env bash
# MessageTimeout: a stintd that is stopped (SIGSTOP) or stuck costs a tool
# that long and an error in Slurm's words, never a hang; a request its sender
# gave up on is not acted on when stintd runs again (a submission reported
# failed does not run all the same); then everything works again.
source "$(dirname "$0")/lib.sh"
# Scaled: under the sanitizers a loaded stintd may take longer than 2 s to
# answer a request it does run.
write_config <<YAML
cluster_name: test
node_pools:
  - {id: n, count: 1, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "2"
  MessageTimeout: "$(scaled 2)"
YAML
first=$(submit --wrap true)
wait_for 30 job_ended "$first"
stintd_pid=$(cat "$STINT_STATE_DIR/stintd.lock")
[ -n "$stintd_pid" ] || fail "no stintd pid in the lock file"
# Whatever fails below, stintd runs again for the cleanup.
resume() { kill -CONT "$stintd_pid" 2>/dev/null || true; }

kill -STOP "$stintd_pid"
began=$SECONDS
set +e
err=$(timeout 60 sbatch -J lost --wrap true 2>&1)
rc=$?
cancel_err=$(timeout 60 scancel "$first" 2>&1)
cancel_rc=$?
set -e
took=$((SECONDS - began))
resume
[ $rc -ne 124 ] || fail "sbatch hung on a stopped stintd"
expect_eq "sbatch's exit" 1 "$rc"
expect_eq "sbatch's words" \
  "sbatch: error: Batch job submission failed: Socket timed out on send/recv operation" "$err"
[ $cancel_rc -ne 124 ] || fail "scancel hung on a stopped stintd"
# Slurm's scancel exits with the error's number modulo 256: 5004, 140.
expect_eq "scancel's exit" 140 "$cancel_rc"
expect_eq "scancel's words" \
  "scancel: error: Kill job error on job id $first: Socket timed out on send/recv operation" \
  "$cancel_err"
# Two timeouts of MessageTimeout each, with room for a slow machine.
[ "$took" -le "$(scaled 20)" ] || fail "the two timeouts took ${took} s"

# Running again: the submission sbatch reported failed never became a job.
after=$(submit -J after --wrap true)
wait_for 30 job_ended "$after"
expect_eq "the given-up submission" "" "$(sacct -n -X -P -o JobName --name lost)"
expect_eq "no job between" $((first + 1)) "$after"
grep -q "dropped a request from .*its sender closed the connection" \
  "$STINT_STATE_DIR/log/stintd.log" || fail "no log line for the dropped request"
echo "t35-message-timeout: ok"
