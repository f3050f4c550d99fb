#!/usr/bin/env bash
# squeue's and sinfo's options as Slurm 22.05's getopt reads them: unique
# prefixes and Slurm's other spellings, optional values (-j 12, -s12.0), a
# value that starts with '-'; each option Slurm has, with its effect here:
# the filters (-q -L -w -P, sinfo -n -t -d -r), the views (--array-unique,
# -s steps, --noconvert, --yaml, sinfo -O and -S), -i's repeated report, and
# -M for this cluster's name (another refused with Slurm's message).
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
cluster_name: test
node_pools:
  - id: n
    count: 2
    cpus: 4
    memory: 4G
  - id: m
    count: 1
    cpus: 2
    memory: 2G
partitions:
  - id: debug
    node_pool_ids: [n]
    max_time: "1:00:00"
  - id: other
    node_pool_ids: [n]
    max_time: "1:00:00"
  - id: shape
    node_pool_ids: [n, m]
    max_time: "1:00:00"
config:
  KillWait: "2"
  Licenses: "lic:2"
YAML


h=$(submit -H -J held --mem=2G -p debug --wrap true)
l=$(submit -H -J lic -L lic -p debug --wrap true)
m=$(submit -H -J multi -p debug,other --wrap true)
a=$(submit -H -J arr --array=1-3 -p debug --wrap true)
r=$(submit -J run -p debug -w n-1 --wrap 'srun sleep 300')
step_runs() { squeue -h -s -o %i | grep -qx "$r.0"; }
wait_for 60 step_runs

# The reading: prefixes, Slurm's spellings, optional values, '-' values.
expect_eq "--noh prefix" "$h" "$(squeue --noh --jobs="$h" -o %i)"
expect_eq "-j as an operand" "$h" "$(squeue -h -o %i -j "$h")"
expect_eq "--accounts --partitions --users" "$h" \
  "$(squeue -h -o %i --accounts="$(squeue -h -o %a -j "$h")" --partitions debug \
    --users "$(id -un)" --name held)"
expect_eq "-S -i" "$l $h" "$(squeue -h -o %i -S -i -j "$h,$l" | lines)"
expect_eq "bundled" "$h" "$(squeue -hj"$h" -o %i)"
set +e
out=$(squeue --no 2>&1)
rc=$?
set -e
expect_eq "ambiguous: exit" 1 "$rc"
expect_contains "ambiguous" "$out" "squeue: option '--no' is ambiguous; possibilities: '--noconvert'"
expect_contains "ambiguous" "$out" "Try \"squeue --help\" for more information"
command_refused "operand" "squeue: error: Unrecognized option: junk" squeue junk
command_refused "-j and -s" "squeue: error: Incompatible options --jobs and --steps" squeue -j -s
command_refused "-o and -l" \
  "squeue: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry." \
  squeue -l -o %i

# The filters.
expect_eq "-q" "$h" "$(squeue -h -o %i -q normal -j "$h")"
expect_eq "-q other" "" "$(squeue -h -o %i -q nosuch)"
expect_eq "-L" "$l" "$(squeue -h -o %i -L lic)"
expect_eq "--licenses none" "" "$(squeue -h -o %i --lic=other)"
expect_eq "-w" "$r" "$(squeue -h -o %i -w n-1)"
expect_eq "-w hostlist" "$r" "$(squeue -h -o %i --nodes='n-[1-2]')"
expect_eq "-w other node" "" "$(squeue -h -o %i -w n-2)"
command_refused "-w unknown" "squeue: error: Invalid node name nosuch" squeue -w nosuch
json_ids() { python3 -c 'import json,sys; print(" ".join(str(j["job_id"]) for j in json.load(sys.stdin)["jobs"]))'; }
expect_eq "--json -L" "$l" "$(squeue --json -L lic | json_ids)"
expect_eq "--json -w" "$r" "$(squeue --json -w n-1 | json_ids)"
expect_eq "-P" "$m debug $m other" "$(squeue -h -P -j "$m" -o '%i %P' | lines)"
expect_eq "-P -p" "$m other" "$(squeue -h -P -p other -j "$m" -o '%i %P' | lines)"
expect_eq "without -P, all its partitions (slurmctld keeps them so while it waits)" "$m debug,other" "$(squeue -h -j "$m" -o '%i %P' | lines)"

# Views.
expect_eq "--array-unique" "${a}_1 ${a}_2 ${a}_3" "$(squeue -h --array-unique -j "$a" -o %i | lines)"
expect_eq "%m" "2G" "$(squeue -h -j "$h" -o %m)"
expect_eq "--noconvert" "2048M" "$(squeue -h --noconvert -j "$h" -o %m)"
yaml=$(squeue --yaml -j "$h")
expect_eq "--yaml head" "%YAML 1.1 --- !!map" "$(head -n 2 <<<"$yaml" | lines)"
expect_contains "--yaml jobs" "$yaml" "!!str jobs: !!seq"
expect_contains "--yaml name" "$yaml" "  !!str name: !!str held"
steps=$(squeue -s)
expect_eq "-s header" "         STEPID     NAME PARTITION     USER      TIME NODELIST" \
  "$(head -n 1 <<<"$steps")"
expect_eq "-s steps" "$r.0 sleep n-1|$r.batch batch n-1" \
  "$(squeue -h --steps -o '%i %j %N' | paste -sd'|')"
expect_eq "-s -S" "$r.batch $r.0" "$(squeue -h -s -S -i -o %i | lines)"
long=$(squeue -s -l)
expect_contains "-s -l date" "$(head -n 1 <<<"$long")" "$(date +%Y)"
expect_contains "-s -l header" "$(sed -n 2p <<<"$long")" "STEPID"
expect_eq "-s list" "$r.0" "$(squeue -h -s"$r.0" -o %i)"
expect_eq "-s operand" "$r.batch" "$(squeue -h -o %i -s "$r.batch")"
expect_eq "-j with -s" "$r.0 $r.batch" "$(squeue -h -o %i -s -j "$r" | lines)"

# No federation, no hidden partition: the same jobs.
plain=$(squeue -h -o %i)
for opt in --federation --local --sibling --sib --hide -a; do
  expect_eq "$opt" "$plain" "$(squeue -h -o %i "$opt")"
done
expect_eq "-M" "CLUSTER: test JOBID $h" "$(squeue -M test -o %i -j "$h" | lines)"
expect_eq "-M first line" "CLUSTER: test" "$(squeue --cluster=test -o %i | head -n 1)"
expect_eq "-M all -h" "$h" "$(squeue -h -M all -o %i -j "$h")"
command_refused "-M other" \
  "squeue: error: 'elsewhere' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." \
  squeue -M elsewhere

# -i: the report again, under a date line, until stopped. A loaded machine may
# stretch the 1 s period, so the test waits for the second report.
iterations="$WORK/iterate.out"
squeue -i 1 -o %i -j "$h" >"$iterations" 2>&1 &
iterate_pid=$!
two_reports() { [ "$(grep -c '^JOBID$' "$iterations")" -ge 2 ]; }
wait_for 60 two_reports
kill "$iterate_pid"
wait "$iterate_pid" || true
# The first two reports: the kill may have cut a third short.
out=$(awk '/^[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] / { n++ } n <= 2' "$iterations")
expect_eq "-i reports" 2 "$(grep -c '^JOBID$' <<<"$out")"
expect_eq "-i one report" "JOBID $h" "$(sed -n 2,3p <<<"$out" | lines)"
command_refused "-i 0" "squeue: error: --iterate=0" squeue -i 0

# sinfo.
expect_eq "sinfo -n" "n-1" "$(sinfo -h -N -n n-1 -p debug -o %N)"
expect_eq "sinfo -t mix" "debug 1 n-1|other 1 n-1" "$(sinfo -h -t mix -p debug,other -o '%R %D %N' | paste -sd'|')"
expect_eq "sinfo -t IDLE,alloc" "debug 1 n-2|other 1 n-2" \
  "$(sinfo -h --states=IDLE,alloc -p debug,other -o '%R %D %N' | paste -sd'|')"
expect_eq "sinfo -t none" "" "$(sinfo -h -t drain)"
command_refused "sinfo -t bad" 'sinfo: error: Bad state string: "bogus"
sinfo: error: valid states: unknown,down,idle,allocated,error,mixed,future,drain,drained,draining,no_respond,reserved,perfctrs,cloud,completing,powering_down,powered_down,power_down,powering_up,fail,maint,reboot_requested,reboot_issued,planned' \
  sinfo -t bogus
expect_eq "sinfo -d" "" "$(sinfo -h -d)"
expect_eq "sinfo -r" "$(sinfo -h)" "$(sinfo -h -r)"
expect_eq "sinfo -O" "debug*        2|other         2" "$(sinfo -h -s -p debug,other -O Partition:10,Nodes:.5 | paste -sd'|')"
command_refused "sinfo -O unknown" "$(sinfo -O Port 2>&1 >/dev/null | head -n 1)" sinfo -O Port
expect_contains "sinfo -O unknown" "$(sinfo -O Port 2>&1)" "Invalid node format specification: Port"
expect_eq "sinfo -O of fields -o lacks" "all|(null)|UNLIMITED|22.05.8" \
  "$(sinfo -h -p debug -n n-2 -O AllocNodes:6,Comment:7,MaxCPUsPerNode:10,Version:8 | tr -s ' ' '|' | sed 's/|$//')"
# PreemptMode is the partition's as scontrol shows it; StateComplete the
# node's State= (base state and flags) in lower case.
preempt=$(scontrol -o show partition debug | grep -o 'PreemptMode=[^ ]*' | cut -d= -f2)
node_state=$(scontrol -o show node n-2 | grep -o ' State=[^ ]*' | cut -d= -f2 | tr 'A-Z' 'a-z')
expect_eq "sinfo -O PreemptMode,StateComplete" "$preempt|$node_state" \
  "$(sinfo -h -p debug -n n-2 -O PreemptMode:12,StateComplete:20 | tr -s ' ' '|' | sed 's/|$//')"
expect_eq "sinfo -S -P" "other|debug*" "$(sinfo -h -s -p debug,other -S -P -o %P | paste -sd'|')"
expect_eq "sinfo shapes folded" "mix 1 4 n-1|idle 2 2+ n-2,m-1" \
  "$(sinfo -h -p shape -o '%t %D %c %N' | paste -sd'|')"
expect_eq "sinfo -e" "mix 1 4 n-1|idle 1 2 m-1|idle 1 4 n-2" \
  "$(sinfo -h -e -p shape -o '%t %D %c %N' | paste -sd'|')"
expect_eq "sinfo --summ prefix" "$(sinfo -s)" "$(sinfo --summ)"
expect_eq "sinfo -M" "CLUSTER: test" "$(sinfo -M test | head -n 1)"
command_refused "sinfo -M other" \
  "sinfo: error: 'elsewhere' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters." \
  sinfo --clusters=elsewhere
expect_eq "sinfo --yaml" "%YAML 1.1" "$(sinfo --yaml | head -n 1)"
for opt in --federation --local --hide -a --noconvert; do
  expect_eq "sinfo $opt" "$(sinfo -h)" "$(sinfo -h "$opt")"
done
command_refused "sinfo -a -p" \
  "sinfo: error: Conflicting options, -a and -p, specified. Please choose one or the other." \
  sinfo -a -p debug
expect_eq "SINFO_PARTITION" "other" "$(SINFO_PARTITION=other sinfo -h -s -o %R)"
command_refused "sinfo -i 0" "sinfo: error: Error: invalid entry for --iterate=0" sinfo -i 0
set +e
out=$(sinfo --bogus 2>&1)
rc=$?
set -e
expect_eq "sinfo unknown: exit" 1 "$rc"
expect_contains "sinfo unknown" "$out" "sinfo: unrecognized option '--bogus'"

# A user named by uid, as Slurm's uid_from_string reads it.
expect_eq "squeue -u UID" "$(squeue -h -o %i -u "$(id -un)" | sort | lines)" \
  "$(squeue -h -o %i -u "$(id -u)" | sort | lines)"
expect_eq "sacct -u UID" "$(sacct -n -X -o JobID -u "$(id -un)" | sort | lines)" \
  "$(sacct -n -X -o JobID -u "$(id -u)" | sort | lines)"

# CPULoad: this machine's load average on every virtual node, as slurmd's.
[[ "$(sinfo -h -N -n n-1 -p debug -o %O)" =~ ^[0-9]+\.[0-9][0-9]$ ]] || fail "sinfo %O: $(sinfo -h -N -n n-1 -p debug -o %O)"
[[ "$(scontrol show node n-1)" =~ CPULoad=[0-9]+\.[0-9][0-9] ]] || fail "CPULoad: $(scontrol show node n-1)"

# -v: Slurm's dump of the options first, then the listing.
out=$(sinfo -v -p debug)
expect_contains "sinfo -v dump" "$out" "partition   = debug"
expect_contains "sinfo -v level" "$out" "verbose     = 1"
expect_contains "sinfo -v listing after it" "$out" "PARTITION AVAIL"
out=$(squeue -vv -j "$h")
expect_contains "squeue -v dump" "$out" "jobs        = $h"
expect_contains "squeue -v level" "$out" "verbose     = 2"
expect_eq "sacct -v's plugin line" "sacct: accounting_storage/slurmdbd: init: Accounting storage SLURMDBD plugin loaded" \
  "$(sacct -v -X -n -j "$h" 2>&1 >/dev/null)"
# scancel -v with filters that match nothing says so, and is no failure.
expect_eq "scancel -v, nothing matched" \
  "scancel: error: No active jobs match ALL job filters, including: job_name=nosuchname qos=nosuchqos " \
  "$(scancel -v --name=nosuchname --qos=nosuchqos 2>&1)"

scancel "$h" "$l" "$m" "$a" "$r"
echo ok
