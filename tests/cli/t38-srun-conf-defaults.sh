#!/usr/bin/env bash
# slurm.conf's KillOnBadExit and WaitTime are srun's defaults, as in Slurm:
# with KillOnBadExit=1 a task that fails ends the step's other tasks at once;
# -K0 overrides it, and WaitTime then ends the others that many seconds after
# the first task exited.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 1, cpus: 4, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
  KillOnBadExit: "1"
  WaitTime: "2"
YAML
cat >steps.sh <<'SH'
#!/bin/bash
#SBATCH -n2 -o steps.out
start=$SECONDS
srun -n2 bash -c 'if [ "$SLURM_PROCID" = 1 ]; then exit 3; fi; sleep 60'
rc=$?
echo "bad exit: srun $rc after $((SECONDS - start)) s"
start=$SECONDS
srun -K0 -n2 bash -c 'if [ "$SLURM_PROCID" = 1 ]; then exit 0; fi; sleep 60'
rc=$?
echo "wait time: srun $rc after $((SECONDS - start)) s"
SH
j=$(submit steps.sh)
wait_for 120 job_ended "$j"
out=$(cat steps.out)
bad=$(sed -n 's/^bad exit: srun \([0-9]*\) after \([0-9]*\) s$/\1 \2/p' <<<"$out")
[ -n "$bad" ] || fail "no line for KillOnBadExit: $out"
read -r bad_rc bad_s <<<"$bad"
[ "$bad_rc" -ne 0 ] || fail "srun with a failed task exited 0"
[ "$bad_s" -lt "$(scaled 20)" ] || fail "KillOnBadExit: the step took $bad_s s"
waited=$(sed -n 's/^wait time: srun \([0-9]*\) after \([0-9]*\) s$/\2/p' <<<"$out")
[ -n "$waited" ] || fail "no line for WaitTime: $out"
[ "$waited" -lt "$(scaled 20)" ] || fail "WaitTime: the step took $waited s"
expect_contains "WaitTime's words" "$out" "srun: First task exited 2s ago"
echo "t38-srun-conf-defaults: ok"
