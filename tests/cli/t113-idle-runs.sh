#!/usr/bin/env bash
# Idle GPUs: each run node's stepd samples its GPUs with nvidia-smi (a fake
# one here, on PATH, reporting what the test writes), or its task's CPU time
# without GPUs; a run that used nothing for StintIdleRunAfter is IDLE in
# run-list and run-show, its owner is told once through MailProg, and a busy
# sample makes it RUNNING again. A busy run is never flagged.
source "$(dirname "$0")/lib.sh"
mkdir -p "$WORK/bin" "$WORK/mails"
cat >"$WORK/bin/nvidia-smi" <<SMI
#!/bin/bash
echo "\$*" >>"$WORK/smi-calls"
case "\$*" in
  *utilization.gpu*) cat "$WORK/gpu-util" ;;
  *) printf 'NVIDIA A100-SXM4-80GB\nNVIDIA A100-SXM4-80GB\n' ;;
esac
SMI
cat >"$WORK/fakemail" <<MAIL
#!/bin/bash
PATH=/usr/bin:/bin
f=\$(mktemp "$WORK/mails/m.XXXXXX")
{ printf 'ARG=%s\n' "\$@"; env | grep -E '^(SLURM_JOB_MAIL_TYPE|STINT_)' | sort; } >"\$f"
MAIL
chmod +x "$WORK/bin/nvidia-smi" "$WORK/fakemail"
printf '0, 0\n1, 0\n' >"$WORK/gpu-util"
# stintd (started by the first tool) and its stepds find it there.
export PATH="$WORK/bin:$PATH"
write_config <<YAML
node_pools:
  - {id: n, count: 3, cpus: 2, memory: 2G, gpus: 2}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
  StintIdleRunAfter: "0:02"
  MailProg: "$WORK/fakemail"
YAML

state_of() { run-list --project idle | awk -v r="$1" '$1 == r {print $2}'; }
state_is() { [ "$(state_of "$1")" = "$2" ]; }
job_of() { run-show "$1" | awk '/^Job ID:/ {print $3}'; }
idle_mails() { grep -l -F -- "Name=$1 Idle" "$WORK"/mails/m.* 2>/dev/null | wc -l; }
idle_mail_text() { cat "$(grep -l -F -- "Name=$1 Idle" "$WORK"/mails/m.* | head -n 1)"; }
has_idle_mail() { [ "$(idle_mails "$1")" -ge "${2:-1}" ]; }
ran_for() { [ "$(sacct -n -X -j "$1" -o ElapsedRaw | tr -d ' ')" -ge "$2" ]; }

gpu_run=$(run-create --project idle --gpus 1 -- sleep 300)
busy_run=$(run-create --project idle --gpus 0 -- sh -c 'while :; do :; done')
cpu_run=$(run-create --project idle --gpus 0 -- sleep 300)

# The GPU run: nvidia-smi says 0 %.
wait_for 30 state_is "$gpu_run" IDLE
expect_contains "nvidia-smi was asked" "$(cat "$WORK/smi-calls")" \
  "--query-gpu=index,utilization.gpu --format=csv,noheader,nounits"
show=$(run-show "$gpu_run")
expect_contains "run-show's state" "$show" "State:        IDLE"
expect_contains "run-show says why" "$show" "(its GPUs at 0%, StintIdleRunAfter)"
expect_eq "the rank's state" "IDLE" "$(echo "$show" | awk '$1 == "0" && $2 ~ /-0$/ {print $3}')"
expect_contains "JSON" "$(run-show "$gpu_run" --json)" '"on":"gpus"'
gpu_job=$(job_of "$gpu_run")
expect_eq "squeue still runs it" RUNNING "$(squeue -h -j "$gpu_job" -o %T)"

# Its owner is told.
wait_for 20 has_idle_mail "$gpu_run"
mail=$(idle_mail_text "$gpu_run")
expect_contains "the subject" "$mail" \
  "ARG=Slurm Job_id=$gpu_job Name=$gpu_run Idle, Run time 00:00:0"
expect_contains "how long and on what" "$mail" ", GPUs at 0% for 00:00:0"
expect_contains "MailProg's variables" "$mail" "SLURM_JOB_MAIL_TYPE=Idle
STINT_IDLE_ON=GPUs"
expect_contains "the run's name" "$mail" "STINT_RUN=$gpu_run"

# Without GPUs: its CPU time. A sleeping command is idle, a busy one is not.
wait_for 30 state_is "$cpu_run" IDLE
expect_contains "measured on CPU time" "$(run-show "$cpu_run")" \
  "(no CPU time used, StintIdleRunAfter)"
wait_for 20 has_idle_mail "$cpu_run"
expect_contains "the CPU run's mail" "$(idle_mail_text "$cpu_run")" ", no CPU time used for 00:00:0"
# Three times StintIdleRunAfter busy: still RUNNING, never told.
busy_job=$(job_of "$busy_run")
wait_for 30 ran_for "$busy_job" 6
expect_eq "a busy run" RUNNING "$(state_of "$busy_run")"
expect_eq "no mail for it" 0 "$(idle_mails "$busy_run")"

# The GPU busy again: RUNNING, said in stintd's log; told once meanwhile.
printf '0, 37\n1, 0\n' >"$WORK/gpu-util"
wait_for 30 state_is "$gpu_run" RUNNING
expect_contains "stintd's log" "$(cat "$STINT_STATE_DIR/log/stintd.log")" \
  "run $gpu_run node 0 (n-1): in use again"
expect_eq "one mail" 1 "$(idle_mails "$gpu_run")"
expect_not_contains "no idle line" "$(run-show "$gpu_run")" "Idle:"
# Idle again: told again.
printf '0, 0\n1, 0\n' >"$WORK/gpu-util"
wait_for 30 has_idle_mail "$gpu_run" 2
expect_eq "IDLE again" IDLE "$(state_of "$gpu_run")"

# An idle run stops as any other.
run-stop "$gpu_run" "$cpu_run" "$busy_run" >/dev/null
wait_for 30 state_is "$gpu_run" STOPPED
wait_for 30 state_is "$busy_run" STOPPED

# StintIdleRunAfter=UNLIMITED: not watched, nvidia-smi never asked.
sed -i 's/StintIdleRunAfter: "0:02"/StintIdleRunAfter: UNLIMITED/' "$STINT_STATE_DIR/stint.yaml"
scontrol reconfigure >/dev/null
: >"$WORK/smi-calls"
quiet_run=$(run-create --project idle --gpus 1 -- sleep 300)
quiet_job=$(job_of "$quiet_run")
wait_for 30 ran_for "$quiet_job" 4
expect_eq "not watched" RUNNING "$(state_of "$quiet_run")"
expect_eq "nvidia-smi not asked" "" "$(cat "$WORK/smi-calls")"
echo "$TEST_NAME: ok"
