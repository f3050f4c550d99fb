#!/usr/bin/env bash
# Multifactor priority end to end: an older job outranks a newer one by the age
# factor in proportion to the weights; a partition with a higher
# PriorityJobFactor ranks its jobs first; an account that has just used the
# machine yields to one that has not (Fair Tree); sprio and sshare show why,
# and sprio's priorities are the ones the scheduler stored.
source "$(dirname "$0")/lib.sh"
# One CPU, so that jobs run one at a time. Both partitions have the same tier:
# only the Partition factor tells them apart. Age: 10000 x waited / 100 s, so
# 100 points a second; fair share 100000 for the first of two, 50000 for the
# second. Priorities are computed again every second.
write_config <<'YAML'
node_pools:
  - {id: n, count: 1, cpus: 1, memory: 1G}
partitions:
  - {id: low, node_pool_ids: [n], priority_job_factor: 1}
  - {id: high, node_pool_ids: [n], priority_job_factor: 10}
default_partition_id: low
config:
  PriorityWeightAge: "10000"
  PriorityMaxAge: "0:01:40"
  PriorityWeightPartition: "1000"
  PriorityWeightFairshare: "100000"
  PriorityCalcPeriod: "0:01"
  KillWait: "1"
YAML

gate='for i in $(seq 600); do [ -e go-$SLURM_JOB_ID ] && break; sleep 0.1; done; echo $SLURM_JOB_ID >> '"$WORK"'/order'
factors() { sprio -h -o '%i %A %P %F %Y'; }
field() {  # field JOB COLUMN [FACTORS]: a column of `factors`' output, the one given or a new one
  awk -v j="$1" -v c="$2" '$1 == j { print $c }' <<<"${3-$(factors)}"
}

# --- age and partition ---------------------------------------------------------
blocker=$(submit --wrap "$gate")
wait_for 30 sh -c "[ \"\$(squeue -h -j $blocker -o %t)\" = R ]"
old=$(submit --wrap "$gate")
sleep 2
new=$(submit --wrap "$gate")
high=$(submit -p high --wrap "$gate")
# Once a calculation has seen all three, with both low jobs aged.
wait_for 30 sh -c "[ -n \"\$(sprio -h -j $high)\" ] && [ \"\$(sprio -h -o %A -j $new)\" -ge 100 ]"

# One calculation's figures: ages read from two calls of sprio a calculation
# (one a second) apart differ by its period as well.
now_factors=$(factors)
age_old=$(field "$old" 2 "$now_factors")
age_new=$(field "$new" 2 "$now_factors")
gap=$((age_old - age_new))
# 100 points a second between their submit times (at least the two seconds of
# sleep, more when sbatch is slow), give or take the calculation's rounding.
submit_time() { date -d "$(scontrol show job "$1" | tr ' ' '\n' | sed -n 's/^SubmitTime=//p')" +%s; }
apart=$(($(submit_time "$new") - $(submit_time "$old")))
[ "$apart" -ge 2 ] || fail "submitted ${apart}s apart after sleeping 2"
[ "$gap" -ge $((apart * 100 - 100)) ] && [ "$gap" -le $((apart * 100 + 100)) ] ||
  fail "age gap $gap (old $age_old, new $age_new) for jobs submitted ${apart}s apart"
expect_eq "partition factor, low" 100 "$(field "$old" 3 "$now_factors")"
expect_eq "partition factor, high" 1000 "$(field "$high" 3 "$now_factors")"
[ "$(field "$old" 5 "$now_factors")" -gt "$(field "$new" 5 "$now_factors")" ] ||
  fail "older job does not outrank the newer: $now_factors"
[ "$(field "$high" 5 "$now_factors")" -gt "$(field "$old" 5 "$now_factors")" ] ||
  fail "high partition does not rank first: $now_factors"
expect_eq "normalised partition factor" "0.1000000" \
  "$(sprio -h -n -o '%p' -j "$old" | tr -d ' ')"
expect_contains "weights" "$(sprio -w)" "Weights"
expect_contains "sprio -l lists the user" "$(sprio -l -j "$old")" "$(id -un)"

# With stintd stopped nothing moves: sprio's PRIORITY is what the scheduler stored.
stint daemon stop >/dev/null
for id in $old $new $high; do
  expect_eq "sprio and squeue agree on $id" "$(squeue -h -j "$id" -o %Q)" "$(field "$id" 5)"
done
# --json: the same figures, each factor normalized and weighted, and the weights.
json_line() {
  sprio --json -j "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
j = d["jobs"][0]
f = j["factors"]
print(j["job_id"], j["priority"], j["partition"], d["weights"]["partition"],
      f["partition"]["normalized"], round(f["partition"]["weighted"]), round(f["age"]["weighted"]))'
}
expect_eq "sprio --json of $old" \
  "$old $(field "$old" 5) low 1000 0.1 100 $(field "$old" 2)" "$(json_line "$old")"
expect_eq "sprio --json of $high" "$high $(field "$high" 5) high 1000 1.0 1000 $(field "$high" 2)" \
  "$(json_line "$high")"

# Released, the jobs run in priority order: high, old, new.
touch "go-$blocker" "go-$old" "go-$new" "go-$high"
sbatch --wrap true >/dev/null  # starts stintd again
for id in $old $new $high; do wait_for 30 job_ended "$id"; done
expect_eq "start order" "$blocker $high $old $new" "$(tr '\n' ' ' <order | sed 's/ $//')"

# --- fair share -----------------------------------------------------------------
# Two accounts with one share each; "busy" uses the machine, "idle" has not.
# Submitted after busy's next job, idle's job still goes first.
sacctmgr -i add account busy,idle Fairshare=1 >/dev/null
sacctmgr -i add user "$(id -un)" Account=busy,idle >/dev/null
used=$(submit -A busy --wrap 'sleep 2')
wait_for 30 job_ended "$used"
: >order
blocker=$(submit -A busy --wrap "$gate")
wait_for 30 sh -c "[ \"\$(squeue -h -j $blocker -o %t)\" = R ]"
busy=$(submit -A busy --wrap "$gate")
idle=$(submit -A idle --wrap "$gate")
wait_for 30 sh -c "[ -n \"\$(sprio -h -j $idle)\" ]"
[ "$(field "$idle" 4)" -gt "$(field "$busy" 4)" ] ||
  fail "fair share: idle $(field "$idle" 4) is not above busy $(field "$busy" 4)"

shares=$(sshare -a -P -n -o Account,User,RawShares,RawUsage,FairShare)
busy_usage=$(echo "$shares" | awk -F'|' '$1 == " busy" { print $4 }')
idle_usage=$(echo "$shares" | awk -F'|' '$1 == " idle" { print $4 }')
[ "$busy_usage" -ge 1 ] || fail "busy's usage: $shares"
expect_eq "idle's usage" 0 "$idle_usage"
expect_eq "idle's shares" 1 "$(echo "$shares" | awk -F'|' '$1 == " idle" { print $3 }')"
expect_eq "idle's fair share" 1.000000 "$(echo "$shares" | awk -F'|' '$1 == "  idle" { print $5 }')"
touch "go-$blocker" "go-$busy" "go-$idle"
for id in $busy $idle; do wait_for 30 job_ended "$id"; done
expect_eq "fair share order" "$blocker $idle $busy" "$(tr '\n' ' ' <order | sed 's/ $//')"

# --- priorities an operator fixes, and the site factor ----------------------------
# Both are part of the job: they survive a restart of stintd and every later
# calculation (one a second here).
blocker=$(submit --wrap "$gate")
wait_for 30 sh -c "[ \"\$(squeue -h -j $blocker -o %t)\" = R ]"
fixed=$(submit --priority=5 --wrap true)
sited=$(submit --wrap true)
scontrol update JobId="$sited" SiteFactor=777 || fail "scontrol update SiteFactor"
# Out of range, as scontrol's update_job.c checks before sending: refused,
# nothing changed.
for v in 2147483646 -2147483646; do
  err=$(scontrol update JobId="$sited" SiteFactor=$v 2>&1) && fail "SiteFactor=$v accepted"
  expect_eq "SiteFactor=$v refused" \
    "scontrol: error: SiteFactor value out of range (+/- 2147483645). Value ignored" "$err"
done
wait_for 30 sh -c "[ \"\$(sprio -h -o '%i %S' -j $sited | awk '{print \$2}')\" = 777 ]"
stint daemon stop >/dev/null
age_before=$(field "$sited" 2)
sbatch --hold --wrap true >/dev/null  # starts stintd again
# A calculation after the restart: the age has grown.
wait_for 30 sh -c "[ \$(sprio -h -o '%i %A' | awk -v j=$sited '\$1 == j { print \$2 }') -gt $age_before ]"
expect_eq "fixed priority after restart" 5 "$(squeue -h -j "$fixed" -o %Q)"
expect_eq "site factor after restart" 777 "$(sprio -h -o '%S' -j "$sited" | tr -d ' ')"
if sbatch --priority=bogus --wrap true 2>/dev/null; then fail "--priority=bogus accepted"; fi
scontrol update JobId="$fixed" Priority=0
expect_eq "priority 0 holds" "JobHeldAdmin" "$(squeue -h -j "$fixed" -o %r)"
scancel "$fixed" "$sited"
touch "go-$blocker"
wait_for 30 job_ended "$blocker"

# --- the tools' manners ----------------------------------------------------------
expect_eq "sprio -j unknown" "Unable to find jobs matching user/id(s) specified" "$(sprio -j 999999)"
expect_contains "sshare header" "$(sshare)" "Account                    User  RawShares"
if sprio -l -o %i 2>/dev/null; then fail "sprio -l -o should fail"; fi
if sshare -o Bogus 2>/dev/null; then fail "sshare -o Bogus should fail"; fi
