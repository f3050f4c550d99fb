#!/usr/bin/env bash
# A submission is made exactly once. Each carries a token its client made up;
# stintd keeps the token with the jobs it made; a client whose answer was
# lost (stintd killed between its commit and its reply) sends the submission
# again, to the stintd it starts, and prints the one job id, never an error
# for a job that runs.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: once
node_pools:
  - {id: n, count: 4, cpus: 8, memory: 8G}
partitions:
  - {id: batch, node_pool_ids: [n], max_time: "10:00"}
config:
  KillWait: "1"
YAML

stint daemon start >/dev/null

# Whether process $1 has ended: gone, or a zombie its new parent (init, once
# the tool that started stintd has exited) has not reaped yet.
ended() {
  ! kill -0 "$1" 2>/dev/null || [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]
}
lock=$STINT_STATE_DIR/stintd.lock
log=$STINT_STATE_DIR/log/stintd.log

# stintd is SIGKILLed as it sends its answer to sbatch (strace injects the
# signal on its first send): the job is committed, the answer never leaves.
# sbatch sends the submission again to the stintd it starts and prints the
# job the first one made.
if command -v strace >/dev/null; then
  pid=$(cat "$lock")
  strace -p "$pid" -e trace=sendto -e inject=sendto:signal=KILL:when=1 -o /dev/null \
    2>"$WORK/strace.err" &
  tracer=$!
  # strace says "Process N attached" once it traces; it fails where ptrace
  # is not allowed (a container without it), and this part is left out.
  deadline=$((SECONDS + 10))
  while ! grep -q attached "$WORK/strace.err" && kill -0 "$tracer" 2>/dev/null &&
    [ $SECONDS -lt $deadline ]; do sleep 0.05; done
  if grep -q attached "$WORK/strace.err"; then
    id=$(sbatch --parsable --wrap 'echo ran >>injected.log')
    wait "$tracer" || true
    wait_for 10 ended "$pid" # killed as it answered
    [ "$(cat "$lock")" != "$pid" ] || fail "no new stintd answered sbatch"
    grep -q "sent again: answered with job $id\$" "$log" ||
      fail "stintd did not answer the token sent again with job $id"
    wait_for 30 job_ended "$id"
    expect_eq "the injected submission" COMPLETED "$(job_state "$id")"
    expect_eq "jobs after the injected kill" "$id" "$(sacct -n -X -P -o JobIDRaw | lines)"
    expect_eq "runs of the injected job" ran "$(cat injected.log)"
  else
    echo "note: strace could not attach to stintd; the injected kill is left out" >&2
    cat "$WORK/strace.err" >&2
    kill "$tracer" 2>/dev/null || true
  fi
else
  echo "note: strace is not installed; the injected kill is left out" >&2
fi

# The same token twice over the socket: one job, its id twice. Another
# token: another job. A malformed token is refused.
before=$(sacct -n -X -P -o JobIDRaw | wc -l)
python3 - "$STINT_STATE_DIR/stintd.sock" "$WORK" >"$WORK/raw.out" <<'PY'
import json, socket, struct, sys

def call(request):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    payload = json.dumps(request).encode()
    s.sendall(struct.pack(">I", len(payload)) + payload)
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return json.loads(data[4:])

spec = {"script": "#!/bin/sh\necho $SLURM_JOB_ID >>raw.log\n", "work_dir": sys.argv[2]}
for token in ("token-a", "token-a", "token-b"):
    print(call({"op": "submit", "token": token, "spec": spec})["job_id"])
bad = call({"op": "submit", "token": "not a token", "spec": spec})
print(bad["ok"], bad["message"])
PY
mapfile -t raw <"$WORK/raw.out"
expect_eq "the same token twice" "${raw[0]}" "${raw[1]}"
[ "${raw[2]}" != "${raw[0]}" ] || fail "another token was given the first token's job"
expect_eq "a malformed token" \
  "False Invalid submission token: 1 to 64 letters, digits, '-' or '_'" "${raw[3]}"
expect_eq "jobs the raw submissions made" $((before + 2)) "$(sacct -n -X -P -o JobIDRaw | wc -l)"
wait_for 30 job_ended "${raw[0]}"
wait_for 30 job_ended "${raw[2]}"
expect_eq "what the raw submissions ran" "${raw[0]} ${raw[2]}" "$(sort -n raw.log | lines)"

# 300 sbatch one after another while stintd is SIGKILLed ten times: every
# sbatch prints a job id, and the jobs are exactly those 300.
first_new=$(($(sacct -n -X -P -o JobIDRaw | sort -n | tail -n 1) + 1))
: >ids
: >errors
(
  for _ in $(seq 300); do
    sbatch --parsable -o /dev/null --wrap 'echo $SLURM_JOB_ID >>ran.log' >>ids 2>>errors ||
      echo failed >>errors
  done
) &
submitter=$!
kills=0
RANDOM=$$
while [ $kills -lt 10 ] && kill -0 "$submitter" 2>/dev/null; do
  # 300 sbatch take about a second here: a kill every 10 to 90 ms.
  sleep "0.0$((RANDOM % 9 + 1))"
  pid=$(cat "$lock" 2>/dev/null || true)
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || continue
  kills=$((kills + 1))
  while ! ended "$pid"; do sleep 0.01; done
done
wait "$submitter"
echo "stintd killed $kills times under 300 sbatch;" \
  "$(grep -c 'sent again: answered' "$log" || true) submissions sent again were answered"
[ ! -s errors ] && [ "$(wc -l <ids)" -eq 300 ] ||
  fail "$(wc -l <ids) of 300 sbatch printed an id; they said: $(sort errors | uniq -c | head -n 5)"
expect_eq "distinct ids printed" 300 "$(sort -u ids | wc -l)"
sbatch --wrap true >/dev/null # a stintd again, should the last kill have left none
deadline=$((SECONDS + 120 * TIME_SCALE))
while [ -n "$(squeue -h | head -n 1)" ]; do
  [ $SECONDS -lt $deadline ] || fail "jobs still in the queue after $((120 * TIME_SCALE)) s"
  sleep 0.2
done
sacct -n -X -P -o JobIDRaw | awk -v from="$first_new" '$1 >= from' | sort -n >made
# The last sbatch above made one more job, not printed to ids.
sort -n ids >printed
last=$(tail -n 1 made)
grep -vx "$last" made >made_by_300 || true
if ! cmp -s printed made_by_300; then
  fail "the jobs made are not the ids printed: $(diff printed made_by_300 | head -n 10 | lines)"
fi
not_completed=$(sacct -n -X -P -o JobIDRaw,State | awk -F'|' -v from="$first_new" \
  '$1 >= from && $2 != "COMPLETED"' | lines)
expect_eq "jobs that did not complete" "" "$not_completed"
# Each ran (an attempt cut short by a kill may have run before it was requeued).
for id in $(cat printed); do
  grep -qx "$id" ran.log || fail "job $id never ran"
done
