#!/usr/bin/env bash
# Concurrency: CONC_CLIENTS clients submit CONC_JOBS jobs each, all at
# once, while squeue, sacct and scancel run in loops alongside. Every
# submission is answered (sbatch exits 0 and prints an id; the one deliberate
# bad request per client gets a clear error), every accepted job is in sacct
# with a unique id, and no tool ever prints an SQLite error to its user.
source "$(dirname "$0")/../cli/lib.sh"

CLIENTS=${CONC_CLIENTS:-8}
JOBS=${CONC_JOBS:-250}
echo "concurrency: $CLIENTS clients x $JOBS jobs, with squeue, sacct and scancel in loops"

write_config <<'YAML'
cluster_name: conc
node_pools:
  - {id: n, count: 32, cpus: 8, memory: 8G}
partitions:
  - {id: batch, node_pool_ids: [n], max_time: "10:00"}
config:
  KillWait: "1"
YAML

mkdir -p out
# Half the jobs run (their ends are writes too), half wait held for scancel.
client() {
  local c=$1 i id
  for i in $(seq "$JOBS"); do
    if [ $((i % 2)) = 0 ]; then
      id=$(sbatch --parsable -o /dev/null --wrap true 2>>"out/client-$c.err") ||
        echo "sbatch exited $? (job $i)" >>"out/client-$c.err"
    else
      id=$(sbatch --parsable -H --wrap true 2>>"out/client-$c.err") ||
        echo "sbatch exited $? (job $i)" >>"out/client-$c.err"
    fi
    echo "$id" >>"out/client-$c.ids"
    if [ "$i" = $((JOBS / 2)) ]; then
      # The deliberate bad one: refused with Slurm's message, nothing created.
      if sbatch --mem=lots --wrap true >/dev/null 2>"out/bad-$c.err"; then
        echo "a bad --mem was accepted" >>"out/client-$c.err"
      fi
    fi
  done
}

# reader NAME COMMAND...: runs COMMAND in a loop until the clients are done,
# keeping what it printed on stderr and every non-zero exit.
reader() {
  local name=$1 n=0
  shift
  while [ ! -e out/done ]; do
    "$@" >/dev/null 2>>"out/$name.err" || echo "$name exited $?" >>"out/$name.err"
    n=$((n + 1))
  done
  echo "$n" >"out/$name.count"
}

cancel_some() {
  local n=0 ids
  while [ ! -e out/done ]; do
    # A few of the held jobs submitted so far, one scancel for them.
    mapfile -t ids < <(cat out/client-*.ids 2>/dev/null | grep -v '^$' | shuf -n 5 || true)
    if [ ${#ids[@]} -gt 0 ]; then
      scancel "${ids[@]}" 2>>out/scancel.err || echo "scancel exited $?" >>out/scancel.err
    fi
    n=$((n + 1))
  done
  echo "$n" >out/scancel.count
}

stintd
start=$SECONDS
reader squeue squeue &
reader squeue_all squeue -a -t all &
reader sacct sacct -S 2020-01-01 -X &
cancel_some &
pids=()
for c in $(seq "$CLIENTS"); do
  client "$c" &
  pids+=($!)
done
wait "${pids[@]}"
touch out/done
wait
took=$((SECONDS - start))

cat out/client-*.ids >out/all.ids
accepted=$(grep -c . out/all.ids || true)
expect_eq "every submission answered with an id" $((CLIENTS * JOBS)) "$accepted"
expect_eq "ids are unique" "$accepted" "$(sort -u out/all.ids | grep -c .)"
sacct -S 2020-01-01 -n -X -P -o JobIDRaw >out/sacct.ids
missing=$(sort out/all.ids | comm -23 - <(sort -u out/sacct.ids) | head -n 5)
expect_eq "accepted jobs missing from sacct" "" "$missing"
for c in $(seq "$CLIENTS"); do
  expect_eq "client $c: nothing on stderr" "" "$(cat "out/client-$c.err" 2>/dev/null)"
  expect_contains "client $c: the bad --mem" "$(cat "out/bad-$c.err")" "sbatch: error: "
done
for t in squeue squeue_all sacct scancel; do
  # scancel of a job that ended meanwhile is told so, as Slurm does; anything
  # else (an SQLite error above all) fails.
  bad=$(grep -v "scancel: error: Kill job error on job id [0-9]*: Job/step already completing or completed" \
    "out/$t.err" 2>/dev/null | head -n 5 || true)
  expect_eq "$t: errors printed" "" "$bad"
done
if grep -rqi "database is locked\|database error\|sqlite" out/*.err 2>/dev/null; then
  fail "an SQLite error reached a user: $(grep -rhi "database\|sqlite" out/*.err | head -n 3)"
fi
echo "concurrency: $accepted jobs from $CLIENTS clients in ${took}s;" \
  "squeue ran $(cat out/squeue.count)+$(cat out/squeue_all.count) times," \
  "sacct $(cat out/sacct.count), scancel $(cat out/scancel.count); no error reached a user"
