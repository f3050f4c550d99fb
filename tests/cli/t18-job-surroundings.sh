#!/usr/bin/env bash
# What acts around a job: the submitting shell's limits (SLURM_RLIMIT_*,
# PropagateResourceLimits, --propagate), the user's login environment
# (--get-user-env, --export=NONE), --no-kill when a node goes DOWN, and
# --time-min letting the backfill start a job early with a shorter limit;
# output to a FIFO that nobody reads fails the job at once instead of keeping
# its stepd (and its CPUs) in open().
source "$(dirname "$0")/lib.sh"
write_config <<YAML
cluster_name: test
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
  - {id: m, count: 1, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
  - {id: small, node_pool_ids: [m]}
config:
  KillWait: "2"
  StintRequeueDelay: "1"
YAML
out_of() { cat "$WORK/slurm-$1.out"; }
ran() { wait_for 20 job_ended "$1"; expect_eq "job $1" COMPLETED "$(job_state "$1")"; }

# --- Limits. stintd starts with this shell's limits; each job is submitted
# from a shell with lower ones. sbatch records them as Slurm's does (each
# SLURM_RLIMIT_<NAME>, "U" first for those --propagate names): set here too,
# as it records them, so that this checks stepd's side.
first=$(submit --wrap 'ulimit -n')
ran "$first"
stintd_nofile=$(out_of "$first")
low=$((stintd_nofile > 300 ? 300 : stintd_nofile - 1))
j=$( (ulimit -Sn "$low"; export SLURM_RLIMIT_NOFILE=$low; submit --wrap 'ulimit -n; env | grep -c ^SLURM_RLIMIT_ || true') )
ran "$j"
expect_eq "NOFILE propagated (ALL by default); the variables not in the job" "$low
0" "$(out_of "$j")"
stack_kb=$(ulimit -s)
if [ "$stack_kb" = unlimited ] || [ "$stack_kb" -gt 4096 ]; then
  j=$( (ulimit -Ss 4096; export SLURM_RLIMIT_STACK=U$((4096 * 1024)); submit --propagate=STACK --wrap 'ulimit -s') )
  ran "$j"
  expect_eq "--propagate=STACK" 4096 "$(out_of "$j")"
fi
# PropagateResourceLimits=NONE: only what the user asked for.
cat >>"$STINT_STATE_DIR/stint.yaml" <<YAML
  PropagateResourceLimits: NONE
YAML
scontrol reconfigure
j=$( (ulimit -Sn "$low"; export SLURM_RLIMIT_NOFILE=$low; submit --wrap 'ulimit -n') )
ran "$j"
expect_eq "NONE: stintd's own limit" "$stintd_nofile" "$(out_of "$j")"
j=$( (ulimit -Sn "$low"; export SLURM_RLIMIT_NOFILE=U$low; submit --propagate=NOFILE --wrap 'ulimit -n') )
ran "$j"
expect_eq "NONE, but --propagate=NOFILE" "$low" "$(out_of "$j")"
# Both keys at once are refused, as slurm.conf allows only one.
cp "$STINT_STATE_DIR/stint.yaml" "$WORK/good.yaml"
cat >>"$STINT_STATE_DIR/stint.yaml" <<YAML
  PropagateResourceLimitsExcept: CORE
YAML
err=$(scontrol reconfigure 2>&1) && fail "both propagate keys accepted"
expect_contains "both keys" "$err" "PropagateResourceLimits is set too"
cp "$WORK/good.yaml" "$STINT_STATE_DIR/stint.yaml"
sed -i 's/PropagateResourceLimits: NONE/PropagateResourceLimits: NOFILES/' "$STINT_STATE_DIR/stint.yaml"
err=$(scontrol reconfigure 2>&1) && fail "a bad limit name accepted"
expect_contains "bad name" "$err" '"NOFILES" is not ALL, NONE or a list of'
cp "$WORK/good.yaml" "$STINT_STATE_DIR/stint.yaml"

# --- The user's login environment: SHELL is not exported here, a login
# shell sets it; the submitted variables win.
j=$(env -u SHELL MINE=kept sbatch --parsable --get-user-env=60L --wrap 'echo "${SHELL:-none}|$MINE"')
ran "$j"
out=$(out_of "$j")
[ "${out%%|*}" != none ] || fail "--get-user-env: no login environment ($out)"
expect_eq "submitted variable kept" kept "${out#*|}"
# As in Slurm, --export=NONE asks for it too.
j=$(env -u SHELL sbatch --parsable --export=NONE --wrap 'echo "${SHELL:-none}"')
ran "$j"
[ "$(out_of "$j")" != none ] || fail "--export=NONE: no login environment"
# Without either, nothing is added.
j=$(env -u SHELL sbatch --parsable --wrap 'echo "${SHELL:-none}"')
ran "$j"
expect_eq "no login environment by default" none "$(out_of "$j")"

# --- --no-kill: a job on two nodes goes on without the one that went DOWN.
nk=$(submit -N 2 -k -J nk --wrap 'sleep 60')
wait_for 20 sh -c "[ \"\$(squeue -h -j $nk -o %T)\" = RUNNING ]"
expect_eq "nodes" "n-[1-2]" "$(squeue -h -j "$nk" -o %N)"
scontrol update NodeName=n-2 State=DOWN Reason=test
wait_for 10 sh -c "[ \"\$(squeue -h -j $nk -o %N)\" = n-1 ]"
expect_eq "still running" RUNNING "$(squeue -h -j "$nk" -o %T)"
grep -q "Removing failed node n-2 from JobId=$nk" "$STINT_STATE_DIR/log/stintd.log" ||
  fail "no log line for the removed node"
# Without it, the job is requeued (its attempt NODE_FAIL).
scontrol update NodeName=n-2 State=RESUME
kk=$(submit -N 2 -J kk --wrap 'sleep 60')
wait_for 20 sh -c "[ \"\$(squeue -h -j $kk -o %T)\" = RUNNING ]"
scontrol update NodeName=n-1 State=DOWN Reason=test
wait_for 20 sh -c "sacct -n -X -D -P -o State -j $kk | grep -q NODE_FAIL"
# The --no-kill job's batch node went too: it is lost with its script.
wait_for 20 sh -c "sacct -n -X -D -P -o State -j $nk | grep -q NODE_FAIL"
scontrol update NodeName=n-1 State=RESUME
scancel "$nk" "$kk"

# --- --time-min: `w` waits for the whole node (reserved when `a` ends,
# within three minutes); `s`, asking ten minutes, does not fit before that,
# but its minimum of one does: it starts now with the whole minutes left.
a=$(submit -p small -c 1 -t 2 --wrap 'sleep 300')
wait_for 20 sh -c "[ \"\$(squeue -h -j $a -o %T)\" = RUNNING ]"
w=$(submit -p small -c 2 -t 10 --wrap true)
s=$(submit -p small -c 1 -t 10 --time-min=1 --wrap 'sleep 300')
wait_for 20 sh -c "[ \"\$(squeue -h -j $s -o %T)\" = RUNNING ]"
limit=$(squeue -h -j "$s" -o %l)
case "$limit" in
  1:00 | 2:00) ;;
  *) fail "--time-min: time limit $limit, expected 1:00 or 2:00" ;;
esac
expect_contains "scontrol" "$(scontrol show job "$s")" "TimeLimit=00:0${limit%%:*}:00"
expect_eq "the wide job waits" PENDING "$(squeue -h -j "$w" -o %T)"
grep -q "JobId=$s time limit changed from 10 to ${limit%%:*}" "$STINT_STATE_DIR/log/stintd.log" ||
  fail "no log line for the changed limit"
scancel "$a" "$w" "$s"

# --- A FIFO as the output with nobody reading it: the launch fails at once
# (stepd does not wait in open()), the node is free for the next job.
mkfifo "$WORK/nobody.fifo"
f=$(submit -p small -c 2 -t 1 -o "$WORK/nobody.fifo" --wrap 'echo hi')
wait_for 20 job_ended "$f"
expect_eq "output to a FIFO nobody reads" FAILED "$(job_state "$f")"
after=$(submit -p small -c 2 --wrap true)
ran "$after"
echo "t18-job-surroundings: ok"
