#!/usr/bin/env bash
# Where a job's signals go, as on a Slurm cluster: scancel -s (and sbatch
# --signal without B:) reaches the job's steps, not its batch shell nor what
# the shell started outside srun; --batch (B:) the shell alone; --full every
# process. -s STOP --batch stops the shell without stopping the time
# limit's clock (the job still ends at it). scancel -v says which it did.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 5, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
YAML

# Each process that gets USR1 writes its name into $1.log; the job ends when
# $1.done exists.
cat >three.sh <<'SH'
#!/bin/bash
#SBATCH -n1
log=$1.log
trap "echo script >>$log" USR1
srun -n1 bash -c "trap 'echo step >>$log' USR1; touch $1.step; while [ ! -e $1.done ]; do sleep 0.1; done" &
bash -c "trap 'echo command >>$log' USR1; touch $1.command; while [ ! -e $1.done ]; do sleep 0.1; done" &
touch "$1.script"
while [ ! -e "$1.done" ]; do sleep 0.1; done
wait
SH
started() { [ -e "$1.step" ] && [ -e "$1.command" ] && [ -e "$1.script" ]; }
got() { [ -s "$1.log" ] && grep -qx "$2" "$1.log"; }
# run_case NAME EXPECTED SUBMIT-OPTIONS -- SCANCEL-OPTIONS: the processes in
# NAME.log once the job ended, sorted, are EXPECTED.
declare -A jobs
start_case() {
  local name=$1
  shift
  jobs[$name]=$(sbatch --parsable -o "$name.out" "$@" three.sh "$name")
}
finish_case() {
  local name=$1 want=$2 first=$3
  wait_for 30 got "$name" "$first"
  touch "$name.done"
  wait_for 30 job_ended "${jobs[$name]}"
  expect_eq "$name: who got USR1" "$want" "$(sort "$name.log" | lines)"
}

# A batch shell stopped by the user (not suspended) still ends at its time
# limit: started first, its minute runs while the other cases do.
stopped=$(sbatch --parsable -t 1 -o stopped.out --wrap 'touch stopped.ready; sleep 300')
wait_for 30 test -e stopped.ready
scancel --batch -s STOP "$stopped"

start_case steps
start_case batch
start_case full
start_case timed -t 1 --signal=USR1@58
start_case timed_b -t 1 --signal=B:USR1@58
for c in steps batch full; do wait_for 30 started "$c"; done

expect_eq "verbose, steps" "scancel: Signal 10 to job ${jobs[steps]}" \
  "$(scancel -v -s USR1 "${jobs[steps]}" 2>&1)"
expect_eq "verbose, batch" "scancel: Signal 10 to batch job ${jobs[batch]}" \
  "$(scancel -v --batch -s USR1 "${jobs[batch]}" 2>&1)"
expect_eq "verbose, full" "scancel: Signal 10 to full job ${jobs[full]}" \
  "$(scancel -v --full -s USR1 "${jobs[full]}" 2>&1)"
finish_case steps "step" step
finish_case batch "script" script
finish_case full "command script step" step
finish_case timed "step" step
finish_case timed_b "script" script

# The stopped shell's minute runs meanwhile: it still times out.
wait_for 90 job_ended "$stopped"
expect_eq "stopped job timed out" TIMEOUT "$(job_state "$stopped")"
