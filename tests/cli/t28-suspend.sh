#!/usr/bin/env bash
# scontrol suspend and resume, as an operator uses them on a Slurm cluster: a
# suspended job stops (its processes make no progress), its CPUs go to the
# next job, resume needs them back; the refusals are Slurm's. Also update's
# "Key value" form (ArrayTaskThrottle 1, as update_job.c reads it), and
# FirstJobId, where job ids start.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 1, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
  FirstJobId: "500"
YAML

# The count is renamed into place: a job stopped between the truncation and
# the write of a plain '>' would leave the file empty while suspended.
cat >count.sh <<'SH'
#!/bin/sh
#SBATCH -n1 -o count.out
i=0
while [ ! -e stop ]; do i=$((i + 1)); echo "$i" >count.tmp; mv count.tmp count.now; sleep 0.05; done
SH
j=$(submit count.sh)
expect_eq "ids start at FirstJobId" 500 "$j"
wait_for 30 test -s count.now
state() { squeue -h -j "$1" -o %T; }
expect_eq "running" RUNNING "$(state "$j")"

command_refused "resume of a running job" "Job is not suspended for job $j" scontrol resume "$j"
scontrol suspend "$j" || fail "suspend refused"
expect_eq "suspended" SUSPENDED "$(state "$j")"
# Stopped: the counter stays where it was over a second (a negative needs a window).
before=$(cat count.now)
sleep 1
expect_eq "no progress while suspended" "$before" "$(cat count.now)"
command_refused "suspend twice" "Job is not running for job $j" scontrol suspend "$j"

# Its CPU went back: a job that needs both CPUs starts.
both=$(sbatch --parsable -n2 -o /dev/null --wrap 'sleep 300')
wait_for 30 sh -c "[ \"\$(squeue -h -j $both -o %T)\" = RUNNING ]"
command_refused "resume while its CPU is taken" "Requested nodes are busy for job $j" \
  scontrol resume "$j"
scancel "$both"
wait_for 30 job_ended "$both"
scontrol resume "$j" || fail "resume refused"
expect_eq "running again" RUNNING "$(state "$j")"
wait_for 10 sh -c "[ \"\$(cat count.now)\" -gt $before ]"

# A pending job cannot be suspended; an unknown id is Slurm's message.
held=$(sbatch --parsable -H -o /dev/null --wrap true)
command_refused "pending" "Job is pending execution for job $held" scontrol suspend "$held"
command_refused "unknown job" "Invalid job id specified for job 999999" scontrol suspend 999999

# A suspended job is cancelled as any other.
scontrol suspend "$j"
scancel "$j"
wait_for 30 job_ended "$j"
expect_eq "cancelled while suspended" CANCELLED "$(job_state "$j")"
scancel "$held"

# update's "Key value" words.
arr=$(sbatch --parsable -H -a 1-4 -o /dev/null --wrap true)
scontrol update jobid="$arr" ArrayTaskThrottle 1 || fail "Key value form refused"
expect_contains "throttle set" "$(scontrol show job "$arr")" "ArrayTaskThrottle=1"
command_refused "a key with no value" "Invalid input: Comment
Request aborted" scontrol update jobid="$arr" Comment
scancel "$arr"
