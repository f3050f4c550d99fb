#!/usr/bin/env bash
# Limits over time with AccountingStorageEnforce=safe: GrpTRESMins=cpu=10 on
# an account lets a job start only if its CPUs x time limit fit in what is
# left; one that does not stays pending with AssocGrpCPUMinutesLimit while
# shorter ones run. sacctmgr sets, shows and clears the limit.
source "$(dirname "$0")/lib.sh"

write_config <<'YAML'
cluster_name: test
node_pools:
  - {id: n, count: 1, cpus: 8, memory: 4G}
partitions:
  - {id: debug, node_pool_ids: [n], max_time: "1:00:00"}
config:
  KillWait: "2"
  AccountingStorageEnforce: "associations,limits,safe"
YAML
me=$(id -un)

pending_as() {
  [ "$(squeue -h -j "$1" -o '%t %r')" = "PD $2" ]
}
running() {
  [ "$(squeue -h -j "$1" -o %t)" = R ]
}

out=$(sacctmgr -i add account lab GrpWall=2:00:00 GrpTRESMins=cpu=10)
expect_contains "confirmation" "$out" " Settings
  GrpTRESMins   = cpu=10
  GrpWall       = 02:00:00
  Parent        = root"
sacctmgr -i add user "$me" Account=lab >/dev/null

# Bad input changes nothing and says why.
err=$(sacctmgr -i modify account lab set GrpTRESMins=cpu=x 2>&1) && fail "GrpTRESMins=cpu=x was accepted"
expect_contains "bad value" "$err" "Invalid GrpTRESMins"
err=$(sacctmgr -i modify account lab set GrpWall=soon 2>&1) && fail "GrpWall=soon was accepted"
expect_contains "bad wall" "$err" " Bad GrpWall time format: soon"
expect_eq "shown" "lab|cpu=10|02:00:00" \
  "$(sacctmgr -n -P show assoc where account=lab user= format=account,grptresmins,grpwall | head -n 1)"

# A job without --time gets what the limit allows: 10 CPU-minutes for 2 CPUs.
held=$(submit -A lab -c 2 -H --wrap true)
expect_eq "time from GrpTRESMins" "5:00" "$(squeue -h -j "$held" -o %l)"
scancel "$held"

# 1 CPU x 20 minutes can never fit in 10 CPU-minutes: it waits; 5 minutes fit.
long=$(submit -A lab -c 1 -t 20 --wrap 'sleep 300')
short=$(submit -A lab -c 1 -t 5 --wrap 'sleep 300')
wait_for 30 pending_as "$long" AssocGrpCPUMinutesLimit
wait_for 30 running "$short"
# The running job's 5 minutes are spoken for: 6 more do not fit, 4 do.
six=$(submit -A lab -c 1 -t 6 --wrap 'sleep 300')
four=$(submit -A lab -c 1 -t 4 --wrap 'sleep 300')
wait_for 30 running "$four"
wait_for 30 pending_as "$six" AssocGrpCPUMinutesLimit
expect_eq "still pending" "PD AssocGrpCPUMinutesLimit" "$(squeue -h -j "$long" -o '%t %r')"

# Clearing the limit lets them start.
sacctmgr -i modify account lab set GrpTRESMins=cpu=-1 >/dev/null
expect_eq "cleared" "lab||02:00:00" \
  "$(sacctmgr -n -P show assoc where account=lab user= format=account,grptresmins,grpwall | head -n 1)"
wait_for 30 running "$long"
wait_for 30 running "$six"
scancel "$long" "$short" "$six" "$four"

# MaxTRESMins of a QOS: a job over it waits, or, with DenyOnLimit, is refused.
sacctmgr -i add qos budget MaxTRESMins=cpu=30 >/dev/null
big=$(submit -A lab --qos=budget -c 4 -t 10 --wrap true)
wait_for 30 pending_as "$big" QOSMaxCpuMinutesPerJobLimit
scancel "$big"
sacctmgr -i modify qos budget set Flags=DenyOnLimit >/dev/null
err=$(sbatch -A lab --qos=budget -c 4 -t 10 --wrap true 2>&1) && fail "DenyOnLimit let a job over MaxTRESMins in"
expect_eq "deny on limit" "sbatch: error: QOSMaxCpuMinutesPerJobLimit
sbatch: error: Batch job submission failed: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)" "$err"
ok=$(submit -A lab --qos=budget -c 3 -t 10 --wrap true)
wait_for 30 job_ended "$ok"
