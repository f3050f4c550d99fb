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

# refused WHAT EXPECTED-STDERR TOOL ARGS...: exits 1 with exactly those lines.
refused() {
  local what=$1 want=$2 err rc
  shift 2
  set +e
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  set -e
  expect_eq "$what: exit" 1 "$rc"
  expect_eq "$what" "$want" "$err"
}
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
refused "nothing named" "scancel: error: No job identification provided" scancel -f -H --ctld

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
refused "-M other" \
  "scancel: error: 'elsewhere' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." \
  scancel -M elsewhere "$j"
refused "SLURM_CLUSTERS other" \
  "scancel: error: 'elsewhere' can't be reached now, or it is an invalid entry for SLURM_CLUSTERS.  Use 'sacctmgr list clusters' to see available clusters." \
  env SLURM_CLUSTERS=elsewhere scancel "$j"
live "$j" || fail "-M elsewhere cancelled $j"

# --sibling: no federation, so no sibling to remove; the job stays.
refused "--sibling" "scancel: error: Kill job error on job id $j: Job not part of a federation" \
  scancel --sibling=other "$j"
live "$j" || fail "--sibling cancelled $j"
refused "--sibling -Q" "" scancel -Q --sibling=other "$j"
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
refused "SCANCEL_STATE" "Unrecognized SCANCEL_STATE value: bogus
Valid job states are PENDING, RUNNING, and SUSPENDED" env SCANCEL_STATE=bogus scancel 1
j=$(submit -H -J envv -p debug --wrap true)
expect_eq "SCANCEL_VERBOSE" "scancel: Terminating job $j" "$(SCANCEL_VERBOSE=T scancel "$j" 2>&1)"
cancelled "$j"
j=$(submit -H -J envb -p debug --wrap true)
expect_eq "SCANCEL_BATCH bad" "scancel: error: Unrecognized SCANCEL_BATCH value: maybe" \
  "$(SCANCEL_BATCH=maybe scancel "$j" 2>&1)"
cancelled "$j"

echo ok
