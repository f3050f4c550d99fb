#!/usr/bin/env bash
# scancel's and sacct's options as Slurm 22.05's getopt reads them: unique
# prefixes and Slurm's other spellings; each option Slurm has, with its effect
# here: scancel's filters (-q -R -w --wckey), -M for this cluster's name
# (another refused with Slurm's message), --sibling outside a federation, the
# options with nothing to act on (-f -H --ctld) and the SCANCEL_* variables.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: test
node_pools:
  - id: n
    count: 2
    cpus: 4
    memory: 4G
partitions:
  - id: debug
    node_pool_ids: [n]
    max_time: "1:00:00"
config:
  KillWait: "2"
YAML

live() { squeue -h -o %i -j "$1" 2>/dev/null | grep -qx "$1"; }
gone() { ! live "$1"; }
# cancelled JOB: it left the queue, cancelled.
cancelled() {
  wait_for 30 gone "$1"
  expect_contains "$1 cancelled" "$(job_state "$1")" "CANCELLED"
}

# The reading: prefixes and Slurm's spellings.
j=$(submit -H -J pre -p debug --wrap true)
scancel --part=nosuch --jobn=pre
live "$j" || fail "--part=nosuch cancelled $j"
scancel --partition=debug --jobname=pre
cancelled "$j"
set +e
out=$(scancel --n=x 2>&1)
rc=$?
set -e
expect_eq "ambiguous: exit" 1 "$rc"
expect_contains "ambiguous" "$out" "scancel: option '--n=x' is ambiguous"
expect_contains "ambiguous" "$out" "Try \"scancel --help\" for more information"
set +e
out=$(scancel --bogus 2>&1)
rc=$?
set -e
expect_eq "unknown: exit" 1 "$rc"
expect_contains "unknown" "$out" "scancel: unrecognized option '--bogus'"
expect_eq "-V" "$(sinfo -V)" "$(scancel -V)"
expect_contains "--usage" "$(scancel --usage)" "scancel"
command_refused "nothing named" "scancel: error: No job identification provided" scancel -f -H --ctld

# -q: the job's QOS, in any case.
j=$(submit -H -J q -p debug --wrap true)
scancel -n q -q other
live "$j" || fail "-q other cancelled $j"
scancel -n q --qos=NORMAL
cancelled "$j"

# --wckey.
j=$(submit -H -J wk --wckey=alpha -p debug --wrap true)
scancel --wckey=beta
live "$j" || fail "--wckey=beta cancelled $j"
scancel --wck=alpha
cancelled "$j"

# -R: no job here has that reservation.
j=$(submit -H -J res -p debug --wrap true)
scancel -R nosuch
live "$j" || fail "-R nosuch cancelled $j"

# -w: the jobs on those nodes; a pending job is on none.
r=$(submit -J run -p debug -w n-1 --wrap 'sleep 300')
running() { [ "$(squeue -h -o %T -j "$r")" = RUNNING ]; }
wait_for 60 running
scancel -w n-2
scancel --nodelist='n-[2-3]'
running || fail "-w n-2 cancelled $r"
live "$j" || fail "-w cancelled pending $j"
scancel -w n-1
cancelled "$r"

# -M: this cluster, or all; another is refused.
command_refused "-M other" \
  "scancel: error: 'elsewhere' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." \
  scancel -M elsewhere "$j"
command_refused "SLURM_CLUSTERS other" \
  "scancel: error: 'elsewhere' can't be reached now, or it is an invalid entry for SLURM_CLUSTERS.  Use 'sacctmgr list clusters' to see available clusters." \
  env SLURM_CLUSTERS=elsewhere scancel "$j"
live "$j" || fail "-M elsewhere cancelled $j"

# --sibling: no federation, so no sibling to remove; the job stays.
command_refused "--sibling" "scancel: error: Kill job error on job id $j: Job not part of a federation" \
  scancel --sibling=other "$j"
live "$j" || fail "--sibling cancelled $j"
command_refused "--sibling -Q" "" scancel -Q --sibling=other "$j"
expect_eq "--sibling unknown" "" "$(scancel --sibling=other 999999 2>&1)"

# -f, -H, --ctld change nothing of a plain cancel here.
scancel -f -H --ctld -M test "$j"
cancelled "$j"
j=$(submit -H -J all -p debug --wrap true)
scancel --clusters=all "$j"
cancelled "$j"

# The SCANCEL_* variables; the command line wins.
j=$(submit -H -J envname -p debug --wrap true)
SCANCEL_NAME=other scancel -n nomatch
SCANCEL_PARTITION=nosuch scancel -n envname
live "$j" || fail "SCANCEL_PARTITION=nosuch cancelled $j"
SCANCEL_QOS=other scancel -n envname
live "$j" || fail "SCANCEL_QOS=other cancelled $j"
SCANCEL_WCKEY=w scancel -n envname
live "$j" || fail "SCANCEL_WCKEY=w cancelled $j"
SCANCEL_ACCOUNT=nosuch scancel -A "$(sacct -n -X -P -o Account -j "$j")" -n envname
cancelled "$j"
j=$(submit -H -J envname -p debug --wrap true)
SCANCEL_NAME=envname scancel
cancelled "$j"
command_refused "SCANCEL_STATE" "Unrecognized SCANCEL_STATE value: bogus
Valid job states are PENDING, RUNNING, and SUSPENDED" env SCANCEL_STATE=bogus scancel 1
j=$(submit -H -J envv -p debug --wrap true)
expect_eq "SCANCEL_VERBOSE" "scancel: Terminating job $j" "$(SCANCEL_VERBOSE=T scancel "$j" 2>&1)"
cancelled "$j"
j=$(submit -H -J envb -p debug --wrap true)
expect_eq "SCANCEL_BATCH bad" "scancel: error: Unrecognized SCANCEL_BATCH value: maybe" \
  "$(SCANCEL_BATCH=maybe scancel "$j" 2>&1)"
cancelled "$j"

# sacct: the filters Slurm's has (--name -q -W -g -N -k -K), -M, the stored
# script and environment (-B, --env-vars), and the options with nothing to act
# on here.
s=$(submit -J sa --wckey=wk1 -t 5 -p debug -w n-1 --wrap 'echo hi')
wait_for 60 job_ended "$s"
ids() { sacct -n -X -P -o JobID -S now-1hour "$@" | lines; }
expect_eq "--name" "$s" "$(ids --name=sa)"
expect_eq "--name other" "" "$(ids --name=nosuch)"
expect_eq "-q" "$s" "$(ids -q NORMAL --name sa)"
expect_eq "-q other" "" "$(ids -q other --name sa)"
expect_eq "-W" "$s" "$(ids -W wk1)"
expect_eq "--wckeys other" "" "$(ids --wckeys=other --name sa)"
expect_eq "-g" "$s" "$(ids -g "$(id -gn)" --name sa)"
expect_eq "--gid other" "" "$(ids --gid=2147483000 --name sa)"
expect_eq "-N" "$s" "$(ids -N n-1 --name sa)"
expect_eq "--nodelist other" "" "$(ids --nodelist=n-2 --name sa)"
expect_eq "-k" "$s" "$(ids -k 5 --name sa)"
expect_eq "-k other" "" "$(ids -k 6 --name sa)"
expect_eq "-k -K" "$s" "$(ids -k 1 -K 10 --name sa)"
expect_eq "-K below" "" "$(ids -K 4 --name sa)"
command_refused "-k 0" "sacct: fatal: Invalid time limit specification" sacct -k 0
command_refused "-S after -E" \
  "sacct: error: Start time (2026-01-02T00:00:00) requested is after end time (2026-01-01T00:00:00)." \
  sacct -S 2026-01-02T00:00:00 -E 2026-01-01T00:00:00
expect_eq "--allo --fields --uid prefixes" "$s" \
  "$(sacct -n -P --allo --fields=JobID -S now-1hour --uid="$(id -un)" --name sa)"
plain=$(ids --name sa)
for opt in -L --federation --local --use-local-uid --whole-hetjob --whole-hetjob=no -Mtest \
  --clusters=all; do
  expect_eq "sacct $opt" "$plain" "$(ids --name sa "$opt")"
done
expect_eq "-M other" "" "$(ids --name sa -M elsewhere)"
expect_eq "-i" "$s" "$(ids -i 1 --name sa)"
expect_eq "--nnodes other" "" "$(ids --nnodes=2-3 --name sa)"
expect_eq "-I" "$s" "$(ids -I 1-4 --name sa)"
expect_eq "--ncpus other" "" "$(ids --ncpus=2 --name sa)"
command_refused "-i bad" "sacct: error: invalid node range -i 'x'" sacct -i x
expect_eq "-R" "$s" "$(ids -R None --name sa)"
expect_eq "--reason other" "" "$(ids --reason=Priority --name sa)"
expect_eq "-C other" "" "$(ids -C gpu --name sa)"
expect_contains "-U" "$(sacct -U)" "Usage: sacct"
expect_eq "-o twice" "$s|COMPLETED" "$(sacct -n -X -P -o JobID --format=State -j "$s")"
command_refused "operands" "sacct: error: Unknown arguments:
sacct: error:  junk
sacct: error:  more" sacct -X junk more
# --noconvert: memory in the unit it is kept in (M for ReqMem).
reqmem=$(sacct -n -X -P --noconvert -o ReqMem -j "$s")
[[ $reqmem =~ ^[0-9]+M$ ]] || fail "sacct --noconvert ReqMem: '$reqmem'"
for opt in -x1 -Fx; do
  set +e
  out=$(sacct "$opt" 2>&1)
  rc=$?
  set -e
  expect_eq "sacct $opt: exit" 1 "$rc"
  expect_contains "sacct $opt" "$out" "is not available"
done
command_refused "--whole-hetjob bad" 'sacct: error: Invalid --whole-hetjob value "maybe". Valid values: [yes|no].' \
  sacct --whole-hetjob=maybe
command_refused "-c" "Slurm job completion is disabled" sacct -c
command_refused "-f" "/nonexistent is not a valid file" sacct -f /nonexistent
expect_eq "--yaml" "%YAML 1.1" "$(sacct --yaml -j "$s" | head -n 1)"
command_refused "-B alone" \
  "sacct: fatal: When requesting job scripts you must also request specific jobs with the '-j' option." \
  sacct -B
command_refused "-B --env-vars" "sacct: fatal: Options --batch-script and --env-vars are mutually exclusive" \
  sacct -B --env-vars -j "$s"
script=$(sacct -B -j "$s")
expect_eq "-B title" "Batch Script for $s" "$(head -n 1 <<<"$script")"
expect_eq "-B rule" "$(printf '%.0s-' {1..80})" "$(sed -n 2p <<<"$script")"
expect_contains "-B script" "$script" "echo hi"
envs=$(sacct --env-vars -j "$s")
expect_eq "--env-vars title" "Environment used for $s (must be batch to display)" \
  "$(head -n 1 <<<"$envs")"
expect_contains "--env-vars PATH" "$envs" "PATH=$PATH"

# -T: a running job's times cut to the window: Start is -S when it started
# before, End is -E (without -T, Unknown while it runs).
t=$(submit -J trunc --wrap 'sleep 300')
started() { [ "$(sacct -n -X -P -o Start -j "$t")" != Unknown ]; }
wait_for 30 started
start=$(date -d "$(sacct -n -X -P -o Start -j "$t")" +%s)
after_start() { [ "$(date +%s)" -gt "$start" ]; }
wait_for 5 after_start
cut=$(date -d "@$(date +%s)" +%Y-%m-%dT%H:%M:%S)
expect_eq "-T" "$cut|$cut" "$(sacct -T -n -X -P -o Start,End -j "$t" -S "$cut" -E "$cut")"
expect_eq "without -T" "$(sacct -n -X -P -o Start -j "$t")|Unknown" \
  "$(sacct -n -X -P -o Start,End -j "$t" -S "$cut" -E "$cut")"
expect_contains "--truncate, Elapsed" "$(sacct --truncate -n -X -P -o Elapsed -j "$t" -S "$cut" -E "$cut")" "00:00:00"
scancel "$t"

# -l: Slurm's long field list, its header exactly; the job line and its batch
# step with Slurm's values where nothing is measured; -o's fields come first.
long_header="JobID|JobIDRaw|JobName|Partition|MaxVMSize|MaxVMSizeNode|MaxVMSizeTask|AveVMSize|MaxRSS|MaxRSSNode|MaxRSSTask|AveRSS|MaxPages|MaxPagesNode|MaxPagesTask|AvePages|MinCPU|MinCPUNode|MinCPUTask|AveCPU|NTasks|AllocCPUS|Elapsed|State|ExitCode|AveCPUFreq|ReqCPUFreqMin|ReqCPUFreqMax|ReqCPUFreqGov|ReqMem|ConsumedEnergy|MaxDiskRead|MaxDiskReadNode|MaxDiskReadTask|AveDiskRead|MaxDiskWrite|MaxDiskWriteNode|MaxDiskWriteTask|AveDiskWrite|ReqTRES|AllocTRES|TRESUsageInAve|TRESUsageInMax|TRESUsageInMaxNode|TRESUsageInMaxTask|TRESUsageInMin|TRESUsageInMinNode|TRESUsageInMinTask|TRESUsageInTot|TRESUsageOutMax|TRESUsageOutMaxNode|TRESUsageOutMaxTask|TRESUsageOutAve|TRESUsageOutTot"
long=$(sacct -l -P -j "$s")
expect_eq "-l header" "$long_header" "$(head -n 1 <<<"$long")"
job_line=$(sed -n 2p <<<"$long")
[[ "$job_line" =~ ^$s\|$s\|sa\|debug(\|){18}1\|00:00:[0-9]{2}\|COMPLETED\|0:0\|\|Unknown\|Unknown\|Unknown\|[0-9]+[KMG]\|0\|{9}billing= ]] ||
  fail "-l job line: $job_line"
batch_line=$(sed -n 3p <<<"$long")
# Sampled (MaxRSS set) or not, as the job's length allowed.
[[ "$batch_line" =~ ^$s\.batch\|$s\.batch\|batch\|\|\|\|\|\|(\|\|\|\|\|\|\|\|\|\|\|\||[0-9]+K\|n-1\|0\|[0-9]+K\|\|\|\|\|[0-9:]{8}\|n-1\|0\|[0-9:]{8}\|)1\|1\|[0-9:]{8}\|COMPLETED\|0:0\|0\|0\|0\|0\|\|0\| ]] ||
  fail "-l batch line: $batch_line"
usage=$(sacct -P -n -o MaxRSS,MaxRSSNode,MaxRSSTask,MinCPUNode,TRESUsageInMaxNode -j "$s.batch")
if [ -n "${usage%%|*}" ]; then
  expect_eq "a sampled step's node and task" "n-1|0|n-1|cpu=n-1,energy=n-1,mem=n-1" "${usage#*|}"
fi
expect_eq "-l with -o and -b" "JobName|JobID|State|ExitCode|JobID|JobIDRaw" \
  "$(sacct -P -o JobName -b -l -j "$s" | head -n 1 | cut -d'|' -f1-6)"

echo ok
