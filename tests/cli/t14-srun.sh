#!/usr/bin/env bash
# srun: job steps inside an allocation (task layout, Slurm's per-task
# variables, --label, exit codes, sacct's 12.0 lines and DerivedExitCode,
# refusals), scancel of one step, and srun outside an allocation getting one
# of its own.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 4, memory: 4G, gpus: 2}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
YAML

# --- steps in a 2-node batch job -------------------------------------------------
cat > steps.sh <<'SH'
#!/bin/bash
#SBATCH -N2 --ntasks-per-node=2 --gpus-per-node=1 -J steps
srun bash -c 'echo "$SLURM_PROCID $SLURM_LOCALID $SLURM_NODEID $SLURMD_NODENAME $SLURM_STEP_ID $SLURM_NTASKS $SLURM_STEP_NODELIST $CUDA_VISIBLE_DEVICES"' | sort > layout.txt
srun -n1 -l bash -c 'echo one; echo two'
srun -n2 -N2 bash -c 'exit $((SLURM_PROCID + 2))'
echo "srun exit $?"
srun -n 9 true
echo "too many exit $?"
echo done
SH
j=$(submit -o steps.out steps.sh)
wait_for 60 job_ended "$j"
expect_eq "batch job" COMPLETED "$(job_state "$j")"
expect_eq "task layout" "0 0 0 n-1 0 4 n-[1-2] 0
1 1 0 n-1 0 4 n-[1-2] 0
2 0 1 n-2 0 4 n-[1-2] 0
3 1 1 n-2 0 4 n-[1-2] 0" "$(cat layout.txt)"
out=$(cat steps.out)
expect_contains "labelled" "$out" "0: one
0: two"
expect_contains "failed tasks" "$out" "srun: error: n-1: task 0: Exited with exit code 2"
expect_contains "failed tasks" "$out" "srun: error: n-2: task 1: Exited with exit code 3"
expect_contains "srun's status" "$out" "srun exit 3"
expect_contains "refused step" "$out" \
  "srun: error: Unable to create step for job $j: More processors requested than permitted"
expect_contains "refused step status" "$out" "too many exit 1"
expect_contains "script went on" "$out" "done"

expect_eq "sacct steps" "$j|steps|COMPLETED|0:0|3:0|2
$j.batch|batch|COMPLETED|0:0||1
$j.0|bash|COMPLETED|0:0||2
$j.1|bash|COMPLETED|0:0||1
$j.2|bash|FAILED|3:0||2" \
  "$(sacct -n -P -j "$j" -o JobID,JobName,State,ExitCode,DerivedExitCode,NNodes)"
expect_eq "step tasks" "4|4|n-[1-2]" "$(sacct -n -P -j "$j.0" -o NTasks,AllocCPUS,NodeList)"
expect_eq "-X has no steps" "$j" "$(sacct -n -X -P -j "$j" -o JobID)"

# --- a step cancelled with its job -------------------------------------------------
k=$(submit -o cancel.out --wrap 'srun sleep 300')
step_running() { [[ $(sacct -n -P -j "$k" -o JobID,State | grep "^$k.0|") == "$k.0|RUNNING" ]]; }
wait_for 30 step_running
scancel "$k"
wait_for 30 job_ended "$k"
step_cancelled() { [[ $(sacct -n -P -j "$k" -o JobID,State | grep "^$k.0|") == "$k.0|CANCELLED" ]]; }
wait_for 30 step_cancelled

# --- srun outside an allocation ------------------------------------------------------
out=$(srun -n2 -l bash -c 'echo "hello from $SLURM_PROCID of $SLURM_NTASKS in $SLURM_JOB_ID"' | sort)
own=$(sacct -n -X -P -o JobID,JobName | tail -n 1 | cut -d'|' -f1)
expect_eq "own allocation" "0: hello from 0 of 2 in $own
1: hello from 1 of 2 in $own" "$out"
expect_eq "its job" "bash|COMPLETED" "$(sacct -n -X -P -j "$own" -o JobName,State)"
rc=0
srun bash -c 'echo to-stderr >&2; exit 7' 2>err.txt || rc=$?
expect_eq "exit status passed through" 7 "$rc"
expect_contains "stderr passed through" "$(cat err.txt)" "to-stderr"
expect_contains "failure reported" "$(cat err.txt)" "task 0: Exited with exit code 7"

# -i: srun's input to one task by its id, or a file (a pattern) each task reads.
printf 'zero\n' >in0.txt
printf 'one\n' >in1.txt
cat >input.sh <<'SH'
#!/bin/sh
#SBATCH -N1 -n2 -o input.out
echo to-one | srun -n2 -l -i 1 cat
srun -n2 -l -i 'in%t.txt' cat
srun -n1 -i nosuch.txt cat || echo "no file: exit $?"
SH
j=$(submit input.sh)
wait_for 60 job_ended "$j"
expect_eq "-i 1" "1: to-one" "$(grep to-one input.out)"
expect_eq "-i in%t.txt" "0: zero 1: one" "$(grep -E '^[01]: (zero|one)$' input.out | sort | lines)"
expect_contains "-i of a missing file" "$(cat input.out)" "srun: error: Could not open stdin file $WORK/nosuch.txt: No such file or directory
no file: exit 1"

# scancel JOB.STEP ends that step alone; its srun says so as Slurm's does and
# the job goes on. -i asks first; a signal other than KILL is refused.
cat >cancel.sh <<'SH'
#!/bin/sh
#SBATCH -N1 -n2 -o cancel.out
srun -n1 --overlap sh -c 'touch a.started; exec sleep 60' &
while [ ! -e a.started ]; do sleep 0.05; done
srun -n1 --overlap sh -c 'touch b.started; exec sleep 60'
echo "b: exit $?"
wait
echo "job goes on"
SH
j=$(submit cancel.sh)
started() { [ -e a.started ] && [ -e b.started ]; }
wait_for 30 started
expect_contains "a signal" "$(scancel -s USR1 "$j.1" 2>&1 || true)" \
  "scancel: error: --signal to job step $j.1 is not available"
expect_eq "-i, answered no" "Cancel step_id=$j.1 name=cancel.sh partition=debug [y/n]? " \
  "$(echo n | scancel -i "$j.1")"
scancel "$j.1"
wait_for 30 grep -q "^b: exit" cancel.out
expect_contains "srun's words" "$(cat cancel.out)" "slurmstepd-n-1: error: *** STEP $j.1 ON n-1 CANCELLED AT"
expect_eq "the step" "CANCELLED 0:9" "$(sacct -n -P -j "$j.1" -o State,ExitCode | tr '|' ' ')"
expect_eq "the other still runs" RUNNING "$(sacct -n -P -j "$j.0" -o State)"
rc=0
out=$(scancel "$j.1" 2>&1) || rc=$?
expect_eq "an ended step" "1 scancel: error: Kill job error on job step id $j: Job/step already completing or completed" "$rc $out"
scancel "$j.0"
wait_for 30 job_ended "$j"
expect_eq "the job" COMPLETED "$(job_state "$j")"
expect_contains "after its steps" "$(cat cancel.out)" "job goes on"

# Refusals: nothing submitted.
before=$(sacct -n -X -P -o JobID | wc -l)
rc=0
msg=$(srun -p nosuch true 2>&1) || rc=$?
expect_eq "bad partition status" 1 "$rc"
expect_eq "bad partition" "srun: error: invalid partition specified: nosuch
srun: error: Unable to allocate resources: Invalid partition name specified
srun: partitions: debug" "$msg"
rc=0
msg=$(srun --time=bogus true 2>&1) || rc=$?
expect_contains "bad time" "$msg" "srun: error: Invalid --time specification"
rc=0
msg=$(srun 2>&1) || rc=$?
expect_contains "no command" "$msg" "srun: error: No command given to execute."
expect_eq "nothing submitted" "$before" "$(sacct -n -X -P -o JobID | wc -l)"
# -I: an allocation that is not there at once is given up (the job is
# cancelled, not left waiting); one that is runs.
rc=0
msg=$(srun --immediate --hold -t1 true 2>&1) || rc=$?
expect_eq "-I on a held job: exit" 1 "$rc"
expect_eq "-I on a held job" "srun: error: Unable to allocate resources: Requested nodes are busy" "$msg"
expect_eq "-I: its job cancelled" "" "$(squeue -h -t PD -o %i)"
expect_eq "-I with room" "here" "$(srun -I -t1 echo here 2>&1)"
rc=0
msg=$(SLURM_JOB_ID=999 srun true 2>&1) || rc=$?
expect_contains "no such allocation" "$msg" \
  "srun: error: Unable to confirm allocation for job 999: Invalid job id specified"
# --hint gives way to -B, --ntasks-per-core, --threads-per-core and a
# --cpu-bind type given with it (said with -v).
hint_notice="srun: Following options are mutually exclusive with --hint: --ntasks-per-core, --threads-per-core, -B and --cpu-bind (other then --cpu-bind=verbose). Ignoring --hint."
for option in --threads-per-core=1 --ntasks-per-core=1 -B1 --cpu-bind=threads --cpu-bind=threads,verbose; do
  expect_contains "--hint with $option" "$(srun -v --hint=nomultithread "$option" -t1 true 2>&1)" \
    "$hint_notice"
done
case "$(srun -v --hint=nomultithread --cpu-bind=verbose -t1 true 2>&1)" in
  *"mutually exclusive"*) fail "--cpu-bind=verbose alone does not override --hint" ;;
esac
case "$(srun --hint=nomultithread -B1 -t1 true 2>&1)" in
  *"mutually exclusive"*) fail "said without -v" ;;
esac

# -O: the batch script sees SLURM_OVERCOMMIT=1, and its srun runs more tasks
# than the CPUs it has.
j=$(submit -N1 -n10 -O -t1 -o over.out --wrap 'echo "over=$SLURM_OVERCOMMIT"; srun hostname | wc -l')
wait_for 60 job_ended "$j"
expect_eq "-O in the batch script" "over=1 10" "$(lines < over.out)"
echo ok
