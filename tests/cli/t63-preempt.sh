#!/usr/bin/env bash
# Preemption end to end, the seed's example: a low-tier job holds the whole
# machine, a higher-tier job arrives. REQUEUE: the low job goes PREEMPTED then
# PENDING with the same id and Restarts=1, the high job runs, the low job runs
# again after it. Then PreemptExemptTime, GraceTime (the low job gets SIGTERM
# and writes a checkpoint), CANCEL and SUSPEND.
source "$(dirname "$0")/lib.sh"

config() {  # config PREEMPT_MODE EXTRA_CONF_LINES...
  local mode=$1
  shift
  {
    cat <<YAML
node_pools:
  - {id: n, count: 1, cpus: 2, memory: 1G}
partitions:
  - {id: low, node_pool_ids: [n], priority_tier: 1${LOW_EXTRA:-}}
  - {id: high, node_pool_ids: [n], priority_tier: 2}
default_partition_id: low
config:
  PreemptType: preempt/partition_prio
  PreemptMode: $mode
  StintRequeueDelay: "1"
  KillWait: "1"
YAML
    for line in "$@"; do echo "  $line"; done
  } | write_config
}
restart() {  # a new configuration takes a new stintd
  scancel --me >/dev/null 2>&1 || true
  stint daemon stop >/dev/null
}
gate='for i in $(seq 600); do [ -e go-$SLURM_JOB_ID ] && break; sleep 0.1; done'
is_state() { [ "$(squeue -h -j "$1" -o %T)" = "$2" ]; }
field() {  # field JOB KEY: a value of scontrol show job
  scontrol show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# --- REQUEUE ---------------------------------------------------------------------
config REQUEUE
low=$(submit -p low -c 2 --wrap "echo run >> low-runs; $gate")
wait_for 30 is_state "$low" RUNNING
wait_for 30 test -s low-runs  # it ran, not just started: "it ran twice" counts the lines
high=$(submit -p high -c 2 --wrap "$gate")
wait_for 30 is_state "$high" RUNNING
expect_eq "low job back in the queue" PENDING "$(squeue -h -j "$low" -o %T)"
expect_eq "restarts" 1 "$(field "$low" Restarts)"
attempts=$(sacct -n -P -X -D -j "$low" -o State | tr '\n' ' ')
expect_contains "sacct shows the preempted attempt" "$attempts" "PREEMPTED"
# The low job waits for the high one: it cannot preempt it back.
touch "go-$high"
wait_for 30 job_ended "$high"
wait_for 30 is_state "$low" RUNNING
touch "go-$low"
wait_for 30 job_ended "$low"
expect_eq "low job's final state" COMPLETED "$(job_state "$low")"
expect_eq "it ran twice" 2 "$(wc -l <low-runs)"
expect_eq "high job" COMPLETED "$(job_state "$high")"
# A job that could start without preempting does so without preempting.
low=$(submit -p low -c 1 --wrap "$gate")
wait_for 30 is_state "$low" RUNNING
high=$(submit -p high -c 1 --wrap "$gate")
wait_for 30 is_state "$high" RUNNING
expect_eq "no needless preemption" RUNNING "$(squeue -h -j "$low" -o %T)"
touch "go-$low" "go-$high"
wait_for 30 job_ended "$low"
wait_for 30 job_ended "$high"
restart

# --- PreemptExemptTime ------------------------------------------------------------
config REQUEUE 'PreemptExemptTime: "00:00:05"'
# The exempt time counts from stintd's launch of the low job, which comes after
# this clock reading; sacct's Start is when stepd started the task, seconds
# later on a loaded machine (ASan), so it cannot serve as the lower bound.
before_low=$(date +%s)
low=$(submit -p low -c 2 --wrap "$gate")
wait_for 30 is_state "$low" RUNNING
high=$(submit -p high -c 2 --wrap "$gate")
wait_for 30 is_state "$high" RUNNING
high_start=$(sacct -n -P -X -j "$high" -o Start)
waited=$(($(date -d "$high_start" +%s) - before_low))
[ "$waited" -ge 5 ] || fail "the high job started ${waited}s after the low one was submitted, within its exempt time"
touch "go-$high" "go-$low"
wait_for 30 job_ended "$high"
restart

# --- GraceTime: SIGTERM first, time to checkpoint -------------------------------------
LOW_EXTRA=", grace_time: 10" config REQUEUE
low=$(submit -p low -c 2 --wrap "trap 'echo saved > checkpoint-\${SLURM_RESTART_COUNT:-0}; exit 0' TERM
[ -e checkpoint-0 ] && exit 0
touch trapped
sleep 300 & wait")
wait_for 30 is_state "$low" RUNNING
# Preempted before its shell has set the trap (a slow machine), it would die of
# the SIGTERM without a checkpoint.
wait_for 30 test -e trapped
high=$(submit -p high -c 2 --wrap "$gate")
wait_for 30 is_state "$high" RUNNING
expect_eq "checkpoint written on SIGTERM" saved "$(cat checkpoint-0)"
expect_contains "the attempt was preempted" "$(sacct -n -P -X -D -j "$low" -o State | tr '\n' ' ')" PREEMPTED
touch "go-$high"
wait_for 30 job_ended "$low"
expect_eq "resumed from its checkpoint" COMPLETED "$(job_state "$low")"
restart

# --- CANCEL -------------------------------------------------------------------------
config CANCEL
low=$(submit -p low -c 2 --wrap "sleep 300")
wait_for 30 is_state "$low" RUNNING
high=$(submit -p high -c 2 --wrap "$gate")
wait_for 30 is_state "$high" RUNNING
wait_for 30 job_ended "$low"
expect_eq "cancelled by preemption" PREEMPTED "$(job_state "$low")"
expect_eq "not requeued" 0 "$(field "$low" Restarts)"
touch "go-$high"
wait_for 30 job_ended "$high"
restart

# --- SUSPEND -------------------------------------------------------------------------
config SUSPEND
low=$(submit -p low -c 2 --wrap "echo \$\$ > low-pid; $gate")
wait_for 30 is_state "$low" RUNNING
wait_for 10 test -s low-pid
high=$(submit -p high -c 2 --wrap "$gate")
wait_for 30 is_state "$high" RUNNING
expect_eq "low job suspended" SUSPENDED "$(squeue -h -j "$low" -o %T)"
# stepd stops the job's processes when it gets stintd's signal: wait for that.
wait_for 10 sh -c "[ \"\$(ps -o stat= -p $(cat low-pid) | cut -c1)\" = T ]"
touch "go-$high" "go-$low"
wait_for 30 job_ended "$high"
wait_for 30 job_ended "$low"
expect_eq "resumed and finished" COMPLETED "$(job_state "$low")"
