#!/usr/bin/env bash
# --dependency=aftercorr between two arrays: each task waits for its own
# counterpart alone, whatever the other tasks' counterparts do. A task whose
# counterpart failed never starts; a task whose counterpart is still running
# does not hold back the ones after it.
source "$(dirname "$0")/lib.sh"
default_config

# A: task 0 waits for a file and then fails, task 1 fails at once, the others
# complete at once.
cat >a.sh <<'EOF'
#!/bin/bash
if [ "$SLURM_ARRAY_TASK_ID" = 0 ]; then
  while [ ! -e release ]; do sleep 0.05; done
  exit 1
fi
[ "$SLURM_ARRAY_TASK_ID" = 1 ] && exit 1
exit 0
EOF
a=$(submit -c 1 --array=0-5 -o /dev/null a.sh)
b=$(submit -c 1 --array=0-5 --dependency="aftercorr:$a" -o "b_%a.out" --wrap 'echo ran')

# B_2..B_5 run while A_0 still runs, and B_1 (its A_1 failed) never does.
for t in 2 3 4 5; do wait_for 30 test -s "b_$t.out"; done
wait_for 30 sh -c "[ \"\$(squeue -h -j ${b}_1 -o %r)\" = DependencyNeverSatisfied ]"
expect_eq "B_0 waits on the A_0 still running" "Dependency" "$(squeue -h -j "${b}_0" -o %r)"
expect_eq "A_0 still runs" "RUNNING" "$(job_state "${a}_0")"
[ ! -e b_0.out ] && [ ! -e b_1.out ] || fail "a task whose counterpart has not completed ran"
for t in 2 3 4 5; do wait_for 30 sh -c "[ \"\$(sacct -n -X -P -o State -j ${b}_$t)\" = COMPLETED ]"; done

# A_0 fails: B_0 can never start either.
touch release
wait_for 30 sh -c "[ \"\$(squeue -h -j ${b}_0 -o %r)\" = DependencyNeverSatisfied ]"
expect_eq "B's tasks left" "${b}_0 ${b}_1" "$(squeue -h -r -j "$b" -o %i | sort | lines)"

echo "ok: aftercorr pairs each task with its own"
