#!/usr/bin/env bash
# MaxJobCount: the jobs stintd holds (a pending array's unsplit tasks are one
# record, as slurmctld counts them) stay below it. A submission past it is
# refused with slurmctld's EAGAIN, which sbatch waits out as Slurm's does
# ("Slurm temporarily unable to accept job, sleeping and retrying."), so one
# user cannot queue without bound; refused, it leaves no job behind.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 1, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "2"
  MaxJobCount: "10"
YAML
# An array counts all its tasks when submitted (8 of 10: taken), and then is
# one record while they wait; with two held jobs, three records.
arr=$(submit -H --array=1-8 --wrap true)
held=$(submit -H --wrap true)
held2=$(submit -H --wrap true)
# Seven tasks more would reach the limit: sbatch says so once and tries
# again; once a held job is cancelled there is room, and it gets its array.
sbatch --parsable -H --array=1-7 --wrap true >more.out 2>more.err &
waiter=$!
wait_for 20 grep -q "temporarily unable" more.err
expect_eq "sbatch's words" \
  "sbatch: error: Slurm temporarily unable to accept job, sleeping and retrying." "$(cat more.err)"
grep -q "MaxJobCount limit from slurm.conf reached (10)" "$STINT_STATE_DIR/log/stintd.log" ||
  fail "no log line for the limit"
expect_eq "nothing queued past the limit" 10 "$(squeue -h -r -o %i | grep -c .)"
scancel "$held"
wait "$waiter" || fail "sbatch gave up after the queue had room: $(cat more.err)"
more=$(cat more.out)
expect_eq "the retried array" 7 "$(squeue -h -r -j "$more" -o %i | grep -c .)"
# Refused at once by a real error, it is not retried.
set +e
err=$(sbatch -p nosuch --wrap true 2>&1)
set -e
expect_eq "another refusal" "sbatch: error: invalid partition specified: nosuch
sbatch: error: Batch job submission failed: Invalid partition name specified
sbatch: partitions: debug" "$err"
scancel "$arr" "$held2" "$more"
echo "t36-max-job-count: ok"
