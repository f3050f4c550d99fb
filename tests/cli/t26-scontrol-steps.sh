#!/usr/bin/env bash
# What Slurm's own test suite asks of scontrol before anything else, held here
# where the suite is absent: ping starts a personal stintd (as any tool that
# needs an answer does), show step lists the running jobs' steps in Slurm's
# record format (batch step first), show daemons, help in Slurm's words, and
# the interactive mode (commands on standard input, !!, quit), pidinfo and
# completing.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
YAML

host=$(hostname -s)
expect_eq "ping starts stintd" "Slurmctld(primary) at $host is UP" "$(scontrol ping)"
expect_eq "no steps" "No job steps in the system" "$(scontrol show step)"
expect_eq "daemons" "slurmctld slurmd" "$(scontrol show daemons)"

help=$(scontrol help)
expect_contains "help" "$help" "    Valid <COMMAND> values are:"
expect_contains "help lists reconfigure" "$help" "     reconfigure              re-read configuration files."
rc=0
out=$(printf 'ping\nshow daemons\n!!\nnosuch\nquit\nping\n' | scontrol 2>err.txt) || rc=$?
expect_eq "interactive" "scontrol: ping
Slurmctld(primary) at $host is UP
scontrol: show daemons
slurmctld slurmd
scontrol: !!
slurmctld slurmd
scontrol: nosuch
scontrol: quit" "$out"
expect_eq "a bad command is reported, the others run" "1 invalid keyword: nosuch" "$rc $(cat err.txt)"
expect_eq "at the end of the input" "scontrol: oneliner
scontrol: show daemons
slurmctld slurmd
scontrol: " "$(printf 'oneliner\nshow daemons\n' | scontrol)"

cat >steps.sh <<'SH'
#!/bin/sh
#SBATCH -N2 -n2 -o steps.out
srun -n2 sh -c 'touch "started.$SLURM_PROCID"; while [ ! -e release ]; do sleep 0.1; done'
SH
j=$(submit steps.sh)
both_started() { [ -e started.0 ] && [ -e started.1 ]; }
wait_for 30 both_started
out=$(scontrol show step)
expect_contains "batch step" "$out" "StepId=$j.batch UserId=$(id -u) StartTime="
expect_contains "batch step's lines" "$out" "   State=RUNNING Partition=debug NodeList=n-1
   Nodes=1 CPUs=0 Tasks=1 Name=batch Network=(null)
   TRES=(null)
   ResvPorts=(null)
   CPUFreqReq=Default
   SrunHost:Pid=(null):0"
expect_contains "srun's step" "$(scontrol show step "$j.0")" "StepId=$j.0 UserId=$(id -u) StartTime="
expect_contains "srun's step's lines" "$(scontrol show step "$j.0")" "   State=RUNNING Partition=debug NodeList=n-[1-2]
   Nodes=2 CPUs=2 Tasks=2 Name=sh Network=(null)
   TRES=cpu=2,mem=2G,node=2
   ResvPorts=(null)
   CPUFreqReq=Default Dist=Cyclic"
expect_eq "one line each" 2 "$(scontrol -o show steps "$j" | grep -c "^StepId=$j\.")"
rc=0
out=$(scontrol show step "$j.5") || rc=$?
expect_eq "a step that is not there" "1 Job step $j.5 not found" "$rc $out"
rc=0
out=$(scontrol show step 9999.0 2>&1) || rc=$?
expect_eq "a job that never was" "1 slurm_get_job_steps error: Invalid job id specified" "$rc $out"
# listpids: the batch shell is the batch step's task 0; srun's tasks carry
# their step, local and global ids; the rest of a step shows "-".
pids=$(scontrol listpids "$j")
expect_eq "listpids header" "PID      JOBID    STEPID   LOCALID GLOBALID" "$(head -n1 <<<"$pids")"
expect_eq "batch task" 1 "$(grep -cE "^[0-9]+ +$j +batch +0 +0 *$" <<<"$pids")"
expect_eq "step tasks" "0 0
0 1" "$(awk -v j="$j" '$2 == j && $3 == "0" && $4 != "-" {print $4, $5}' <<<"$pids")"
expect_eq "srun itself in the batch step" 1 "$(awk -v j="$j" '$2 == j && $3 == "batch" && $4 == "-"' <<<"$pids" | grep -c .)"
expect_eq "one node's" "0 1" "$(scontrol listpids "$j.0" n-2 | awk 'NR > 1 && $4 != "-" {print $3, $5}')"
rc=0
out=$(scontrol listpids "$j.10" n-1 2>&1 >/dev/null) || rc=$?
expect_eq "a step that is not there" "1 StepId=$j.10 does not exist on node n-1." "$rc $out"
touch release
wait_for 30 job_ended "$j"
rc=0
out=$(scontrol show step "$j") || rc=$?
expect_eq "an ended job's" "1 Job step $j. not found" "$rc $out"
# pidinfo: the job a process belongs to (its stepd an ancestor), when it ends.
cat >pid.sh <<'SH'
#!/bin/sh
#SBATCH -t 2 -o pid.out
scontrol pidinfo $$
srun sh -c 'scontrol pidinfo $$'
scontrol pidinfo 1 || echo "init: exit $?"
SH
p=$(submit pid.sh)
wait_for 30 job_ended "$p"
expect_eq "pidinfo of the script" 2 "$(grep -c "^Slurm JobId=$p ends at " pid.out)"
expect_eq "its time left" 2 "$(grep -cE '^Job remaining time is 1[0-2][0-9] seconds$' pid.out)"
expect_contains "a process of no job" "$(cat pid.out)" "init: exit 1"
expect_eq "no job completing" "" "$(scontrol completing)"

# A step's own time limit (srun -t inside the job): scontrol shows it and
# update StepId= changes it, for one step or every running one; srun ends the
# step's tasks once it has passed, the step TIMEOUT, and the job goes on.
cat >limit.sh <<'SH'
#!/bin/sh
#SBATCH -t 5 -o limit.out
srun -t 5 sh -c 'touch limited.started; sleep 300'
echo "step exit $?"
echo STEP_FINISH
SH
l=$(submit limit.sh)
wait_for 30 test -e limited.started
expect_contains "its own limit" "$(scontrol show step "$l.0")" " TimeLimit=00:05:00"
expect_contains "the batch step's" "$(scontrol show step "$l.batch")" " TimeLimit=UNLIMITED"
scontrol update StepId="$l.0" TimeLimit=+2
expect_contains "+2 minutes" "$(scontrol show step "$l.0")" " TimeLimit=00:07:00"
command_refused "decrement past zero" \
  "TimeLimit decrement larger than current time limit (9 > 7)" \
  scontrol update StepId="$l.0" TimeLimit=-9
command_refused "a bad limit" "Invalid TimeLimit value" scontrol update StepId="$l" TimeLimit=soon
command_refused "a bad step id" "Invalid StepID parameter: StepId=$l.x
Request aborted" scontrol update StepId="$l.x" TimeLimit=1
# Limits are whole minutes, as in Slurm (0:30 is one): a minute after its
# start the step is ended.
scontrol update StepId="$l" TimeLimit=0:30
expect_contains "every step's, in minutes" "$(scontrol show step "$l.0")" " TimeLimit=00:01:00"
wait_for 120 job_ended "$l"
records=$(sacct -n -P -o JobID,State -j "$l" | lines)
expect_contains "the step timed out" "$records" "$l.0|TIMEOUT"
expect_contains "the job did not" "$records" "$l|COMPLETED"
expect_contains "srun's words" "$(cat limit.out)" "CANCELLED AT"
expect_contains "DUE TO TIME LIMIT" "$(cat limit.out)" "DUE TO TIME LIMIT"
expect_contains "the script went on" "$(cat limit.out)" "STEP_FINISH"
echo ok
