#!/usr/bin/env bash
# Jobs that each need every CPU of a node run one after the other; small ones
# run side by side; a 2-node job gets two nodes.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 1, cpus: 4, memory: 4G}
  - {id: m, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: one, node_pool_ids: [n]}
  - {id: two, node_pool_ids: [m]}
YAML

# Each job marks that it started, then waits (bounded) for the test's go file.
gate='touch started-$SLURM_JOB_ID; for i in $(seq 600); do [ -e go-$SLURM_JOB_ID ] && exit 0; sleep 0.1; done; exit 1'

big1=$(submit -p one -c 4 --wrap "$gate")
big2=$(submit -p one -c 4 --wrap "$gate")
wait_for 30 test -e "started-$big1"
# big2 may have come in after the pass that started big1: the next pass gives
# it its reason.
big2_waits() { [ "$(squeue -h -j "$big2" -o '%t %r')" = "PD Resources" ]; }
wait_for 10 big2_waits
expect_eq "first big job runs" "R" "$(squeue -h -j "$big1" -o '%t')"
touch "go-$big1"
wait_for 30 job_ended "$big1"
wait_for 30 test -e "started-$big2"
touch "go-$big2"
wait_for 30 job_ended "$big2"
expect_eq "big1" COMPLETED "$(job_state "$big1")"
expect_eq "big2" COMPLETED "$(job_state "$big2")"

# Four 1-CPU jobs on the 4-CPU node all start before any may finish.
small=()
for _ in 1 2 3 4; do small+=("$(submit -p one -c 1 --wrap "$gate")"); done
for id in "${small[@]}"; do wait_for 30 test -e "started-$id"; done
expect_eq "node state with four small jobs" "alloc" "$(sinfo -h -N -p one -o %t)"
for id in "${small[@]}"; do touch "go-$id"; done
for id in "${small[@]}"; do wait_for 30 job_ended "$id"; expect_eq "small $id" COMPLETED "$(job_state "$id")"; done

# A 2-node job gets both nodes of partition two.
multi=$(submit -p two -N 2 --wrap 'echo "$SLURM_JOB_NODELIST $SLURM_NNODES"')
wait_for 30 job_ended "$multi"
expect_eq "2-node job" COMPLETED "$(job_state "$multi")"
expect_eq "2-node nodelist" "m-[1-2] 2" "$(cat "slurm-$multi.out")"
expect_eq "sacct nodelist" "m-[1-2]" "$(sacct -n -X -P -o NodeList -j "$multi")"
