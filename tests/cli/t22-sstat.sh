#!/usr/bin/env bash
# sstat: the live figures of a running job's steps, read from /proc (Slurm's
# default header byte for byte, -o with -p/-P, -a with the batch step, -i's
# pids, --noconvert), and Slurm's messages for jobs and steps not running.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 4, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
YAML

# --- before any job -------------------------------------------------------------
command_refused "no job" "sstat: error: You didn't give me any jobs to stat." sstat
command_refused "bad job id" "sstat: fatal: Bad job/step specified: abc" sstat -j abc
command_refused "bad step id" "sstat: fatal: Bad step specified: 12" sstat -j 12.x
command_refused "bad field" 'sstat: error: Invalid field requested: "bogus"' sstat -j 1 -o jobid,bogus
expect_eq "usage" "Usage: sstat [options] -j <job(.stepid)>
	Use --help for help" "$(sstat --usage)"
expect_contains "helpformat" "$(sstat -e)" "AveCPU              AveCPUFreq          AveDiskRead"

# --- a step of two tasks that hold 20 MB each and burn a little CPU ----------------
cat > stat.sh <<'SH'
#!/bin/bash
#SBATCH -N1 -n2 -J stat
srun -n2 bash -c 'x=$(head -c 20000000 /dev/zero | tr "\0" a)
i=0; while [ $i -lt 50000 ]; do i=$((i + 1)); done
touch ready.$SLURM_PROCID
while [ ! -e release ]; do sleep 0.1; done
echo ${#x} > /dev/null'
SH
j=$(submit -o stat.out stat.sh)
tasks_ready() { [ -e ready.0 ] && [ -e ready.1 ]; }
wait_for 60 tasks_ready
node=$(squeue -h -j "$j" -o %N)

# Slurm 22.05's default header (transcripts/14-misc.txt), byte for byte.
expect_eq "default header" "JobID         MaxVMSize  MaxVMSizeNode  MaxVMSizeTask  AveVMSize     MaxRSS MaxRSSNode MaxRSSTask     AveRSS MaxPages MaxPagesNode   MaxPagesTask   AvePages     MinCPU MinCPUNode MinCPUTask     AveCPU   NTasks AveCPUFreq ReqCPUFreqMin ReqCPUFreqMax ReqCPUFreqGov ConsumedEnergy  MaxDiskRead MaxDiskReadNode MaxDiskReadTask  AveDiskRead MaxDiskWrite MaxDiskWriteNode MaxDiskWriteTask AveDiskWrite TRESUsageInAve TRESUsageInMax TRESUsageInMaxNode TRESUsageInMaxTask TRESUsageInMin TRESUsageInMinNode TRESUsageInMinTask TRESUsageInTot TRESUsageOutAve TRESUsageOutMax TRESUsageOutMaxNode TRESUsageOutMaxTask TRESUsageOutMin TRESUsageOutMinNode TRESUsageOutMinTask TRESUsageOutTot 
------------ ---------- -------------- -------------- ---------- ---------- ---------- ---------- ---------- -------- ------------ -------------- ---------- ---------- ---------- ---------- ---------- -------- ---------- ------------- ------------- ------------- -------------- ------------ --------------- --------------- ------------ ------------ ---------------- ---------------- ------------ -------------- -------------- ------------------ ------------------ -------------- ------------------ ------------------ -------------- --------------- --------------- ------------------- ------------------- --------------- ------------------- ------------------- --------------- " \
  "$(sstat -j "$j" | head -n 2)"
expect_eq "default line count" 3 "$(sstat -j "$j" | wc -l)"
expect_contains "default line" "$(sstat -j "$j" | tail -n 1)" "$j.0  "

# -o with -p: the lowest numbered step; NTasks exact, memory above what each task holds.
out=$(sstat -j "$j" -o JobID,MaxRSS,AveCPU,NTasks -p)
expect_eq "-p header" "JobID|MaxRSS|AveCPU|NTasks|" "$(head -n 1 <<<"$out")"
IFS='|' read -r id rss cpu ntasks rest <<<"$(tail -n 1 <<<"$out")"
expect_eq "-p job id" "$j.0" "$id"
expect_eq "-p ntasks" 2 "$ntasks"
expect_eq "-p trailing" "" "$rest"
[[ $cpu =~ ^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$ ]] || fail "AveCPU: $cpu"
[[ $rss =~ ^[0-9.]+[KMG]$ ]] || fail "MaxRSS: $rss"
IFS='|' read -r raw_rss ave_rss rss_node rss_task <<<"$(sstat -n -P --noconvert -j "$j.0" \
  -o MaxRSS,AveRSS,MaxRSSNode,MaxRSSTask)"
[ "$raw_rss" -gt 20000000 ] || fail "MaxRSS $raw_rss is not above the 20 MB a task holds"
[ "$ave_rss" -gt 20000000 ] && [ "$ave_rss" -le "$raw_rss" ] || fail "AveRSS $ave_rss"
expect_eq "MaxRSSNode" "$node" "$rss_node"
[[ $rss_task =~ ^[01]$ ]] || fail "MaxRSSTask: $rss_task"
expect_eq "-P, widths ignored" "$j.0|2|$node" \
  "$(sstat -n -P -j "$j" -o jobid%5,ntasks,nodelist)"
expect_eq "fixed widths" "$(printf '%-20s %6s ' "$j.0" 2)" \
  "$(sstat -n -j "$j" -o jobid%-20,ntasks%6)"
tres=$(sstat -n -P -j "$j" -o TRESUsageInMaxNode,TRESUsageOutTot)
expect_contains "TRES nodes" "$tres" "cpu=$node,energy=$node,fs/disk=$node,mem=$node,pages=$node,vmem=$node|energy=0,fs/disk="

# -a: the batch step too, first; a step named alone.
expect_eq "-a" "$j.batch|1
$j.0|2" "$(sstat -a -n -P -j "$j" -o JobID,NTasks)"
expect_eq "batch step" "$j.batch|1" "$(sstat -n -P -j "$j.batch" -o JobID,NTasks)"

# -i: the step's node and its processes, which are the tasks'.
IFS='|' read -r id pid_node pids <<<"$(sstat -i -n -P -j "$j")"
expect_eq "-i step" "$j.0" "$id"
expect_eq "-i node" "$node" "$pid_node"
[ -n "$pids" ] || fail "-i: no pids"
for pid in ${pids//,/ }; do
  # A task's "sleep 0.1" may have ended since.
  env=$(tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ") || continue
  [ -z "$env" ] || grep -qx "SLURM_STEP_ID=0" <<<"$env" || fail "pid $pid is not of the step"
done
expect_eq "-i header" "JobID                    Nodelist                 Pids " \
  "$(sstat -i -j "$j" | head -n 1)"

# Jobs and steps not running: the header, Slurm's line, exit 0.
set +e
err=$(sstat -n -j "$j.7,99999" 2>&1 >/dev/null)
rc=$?
set -e
expect_eq "not running: exit" 0 "$rc"
expect_eq "not running" "sstat: error: StepId=$j.7 not found running.
sstat: error: couldn't get steps for job 99999" "$err"

touch release
wait_for 60 job_ended "$j"
expect_eq "job" COMPLETED "$(job_state "$j")"
expect_eq "ended job" "sstat: error: No steps running for job $j" "$(sstat -n -j "$j" 2>&1)"
expect_eq "ended step" "sstat: error: StepId=$j.0 not found running." "$(sstat -n -j "$j.0" 2>&1)"
echo "t22-sstat: ok"
