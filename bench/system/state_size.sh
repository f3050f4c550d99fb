#!/usr/bin/env bash
# The state directory's size per BENCH_STATE_JOBS finished jobs (default
# 100000; quick 200), run as arrays of at most 10,000 trivial tasks on the
# large cluster: the whole directory, stint.db, scripts.db, spool/ and log/.
# Then the same jobs made 40 days old (their times moved back with stintd
# stopped) and purged by PurgeJobAfter=30days as stintd starts: how long
# the purge takes, and `stint db compact` with what it leaves.
source "$(dirname "$0")/lib.sh"

if [ "$BENCH_TARGET" = slurm ]; then
  echo "state_size: stint's own state directory; nothing to compare on Slurm" >&2
  exit 0
fi

N=$(size BENCH_STATE_JOBS 100000 200)
CHUNK=10000

mb() { du -sk "$@" 2>/dev/null | awk '{ s += $1 } END { printf "%.1f\n", s / 1024 }'; }

new_state "statesize" large
for ((left = N; left > 0; left -= CHUNK)); do
  k=$((left < CHUNK ? left : CHUNK))
  sbatch -c 1 --array=0-$((k - 1)) --wrap true >/dev/null
done
wait_done 3600
expect_count "COMPLETED tasks" "$N" "$(count_settled COMPLETED "$N")"
dir=$STINT_STATE_DIR
mb "$dir" | summary "statedir_${N}_finished" MB "du -sk \$STINT_STATE_DIR after $N finished jobs"
mb "$dir"/stint.db "$dir"/stint.db-wal | summary "stint_db_${N}_finished" MB "du -sk stint.db stint.db-wal"
mb "$dir"/scripts.db "$dir"/scripts.db-wal | summary "scripts_db_${N}_finished" MB "du -sk scripts.db scripts.db-wal"
mb "$dir/spool" | summary "spool_${N}_finished" MB "du -sk spool/ (the arrays' first tasks keep their script)"
mb "$dir/log" | summary "log_${N}_finished" MB "du -sk log/"

# Purge: every job 40 days old, PurgeJobAfter=30days, stintd started anew.
pid=$(stintd_pid)
kill -TERM "$pid"
while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
month=$((40 * 86400))
sqlite3 "$dir/stint.db" "UPDATE jobs SET submit_time = submit_time - $month,
  eligible_time = eligible_time - $month, start_time = start_time - $month,
  end_time = end_time - $month"
sed -i 's/^config: {/config: {PurgeJobAfter: 30days, /' "$dir/stint.yaml"
t0=$(now_us)
scancel --me >/dev/null 2>&1 || true # starts stintd, which purges as it starts
until [ "$(sqlite3 "$dir/stint.db" 'SELECT COUNT(*) FROM jobs')" = 0 ]; do sleep 0.05; done
t1=$(now_us)
awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f\n", d / 1000 }' |
  summary "purge_$N" ms "PurgeJobAfter=30days: $N finished jobs purged as stintd starts"
mb "$dir" | summary "statedir_${N}_purged" MB "du -sk \$STINT_STATE_DIR after the purge"
time_ms stint db compact | summary "compact_${N}_purged" ms "stint db compact after the purge"
mb "$dir" | summary "statedir_${N}_compacted" MB "du -sk \$STINT_STATE_DIR after stint db compact"
