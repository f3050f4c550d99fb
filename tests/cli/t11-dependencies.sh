#!/usr/bin/env bash
# afterok chains run in order; afterok on a failed job is never satisfied;
# singleton serialises jobs of one name and user; after, afterany, afternotok.
source "$(dirname "$0")/lib.sh"
default_config

stamp='date +%s%N > stamp-$SLURM_JOB_ID; sleep 0.3'
a=$(submit --wrap "$stamp")
b=$(submit -d "afterok:$a" --wrap "$stamp")
c=$(submit --dependency="afterok:$b" --wrap "$stamp")
for id in $a $b $c; do wait_for 60 job_ended "$id"; done
for id in $a $b $c; do expect_eq "chain $id" COMPLETED "$(job_state "$id")"; done
[ "$(cat stamp-$a)" -lt "$(cat stamp-$b)" ] || fail "b started before a"
[ "$(cat stamp-$b)" -lt "$(cat stamp-$c)" ] || fail "c started before b"
# b could not start before a ended.
a_end=$(sacct -n -X -P -o End -j "$a"); b_start=$(sacct -n -X -P -o Start -j "$b")
[[ "$b_start" > "$a_end" || "$b_start" == "$a_end" ]] || fail "b started ($b_start) before a ended ($a_end)"

bad=$(submit --wrap 'exit 2')
never=$(submit -d "afterok:$bad" --wrap true)
notok=$(submit -d "afternotok:$bad" --wrap true)
wait_for 30 job_ended "$bad"
wait_for 30 job_ended "$notok"
expect_eq "afternotok ran" COMPLETED "$(job_state "$notok")"
wait_for 30 sh -c "[ \"\$(squeue -h -j $never -o %r)\" = DependencyNeverSatisfied ]"
expect_eq "never satisfied stays pending" PD "$(squeue -h -j "$never" -o %t)"
expect_contains "scontrol dependency" "$(scontrol show job "$never")" "Dependency=afterok:$bad(failed)"
scancel "$never"

# --kill-on-invalid-dep cancels instead.
killed=$(submit --kill-on-invalid-dep=yes -d "afterok:$bad" --wrap true)
wait_for 30 job_ended "$killed"
expect_contains "killed on invalid dependency" "$(job_state "$killed")" CANCELLED

# singleton: jobs of one name and user never overlap.
single='date +%s%N > s-$SLURM_JOB_ID.start; sleep 0.5; date +%s%N > s-$SLURM_JOB_ID.end'
s1=$(submit -J one -d singleton --wrap "$single")
s2=$(submit -J one -d singleton --wrap "$single")
s3=$(submit -J one -d singleton --wrap "$single")
for id in $s1 $s2 $s3; do wait_for 60 job_ended "$id"; done
[ "$(cat s-$s1.end)" -le "$(cat s-$s2.start)" ] || fail "singleton s2 overlapped s1"
[ "$(cat s-$s2.end)" -le "$(cat s-$s3.start)" ] || fail "singleton s3 overlapped s2"

# Malformed dependencies are refused and change nothing.
count() { sqlite3 "$STINT_STATE_DIR/stint.db" 'select count(*) from jobs'; }
before=$(count)
for dep in 'afterok:abc' 'bogus:1' 'afterok:' 'afterok:1,afterany:2?after:3'; do
  set +e
  err=$(sbatch --dependency="$dep" --wrap true 2>&1)
  rc=$?
  set -e
  [ $rc -ne 0 ] || fail "--dependency='$dep' accepted"
  expect_contains "--dependency='$dep'" "$err" "Job dependency problem"
done
expect_eq "jobs after bad dependencies" "$before" "$(count)"
