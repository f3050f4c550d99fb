#!/usr/bin/env bash
# Steps share an allocation as Slurm 22.05's do: a step holds all its nodes'
# CPUs (the next one waits, "step creation temporarily disabled"), --exact
# steps run side by side, --overlap runs beside a step; sacct shows each with
# its CPUs. --multi-prog gives each task its program; --cpu-bind and -r act.
source "$(dirname "$0")/lib.sh"
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
YAML

# Each step waits for a file only the other side creates, so the order is
# forced without a sleep: the second --exact step must run while the first
# waits for it.
cat >exact.sh <<'SH'
#!/bin/sh
#SBATCH -N1 -n2 -o exact.out
srun --exact -n1 -J first sh -c 'while [ ! -e second.ran ]; do sleep 0.05; done; echo first' &
srun --exact -n1 -J second sh -c 'touch second.ran; echo second' &
wait
SH
j=$(submit exact.sh)
wait_for 60 job_ended "$j"
expect_eq "side by side" COMPLETED "$(job_state "$j")"
expect_eq "both ran" "first second" "$(sort exact.out | grep -v '^srun' | lines)"
expect_eq "each held one CPU" "$j.0|1|COMPLETED $j.1|1|COMPLETED" \
  "$(sacct -n -P -j "$j" -o JobID,AllocCPUS,State | grep "^$j\.[0-9]" | sort | lines)"

# Without --exact the second step waits for the first's CPUs.
cat >whole.sh <<'SH'
#!/bin/sh
#SBATCH -N1 -n2 -o whole.out
srun -n1 -J first sh -c 'touch first.started; while [ ! -e release ]; do sleep 0.05; done' &
while [ ! -e first.started ]; do sleep 0.05; done
srun -n1 -J second echo second-ran &
while ! grep -q "temporarily disabled" whole.out; do sleep 0.05; done
touch release
wait
SH
j=$(submit whole.sh)
wait_for 60 job_ended "$j"
expect_eq "waited, then ran" COMPLETED "$(job_state "$j")"
out=$(cat whole.out)
expect_contains "the wait" "$out" "srun: Job $j step creation temporarily disabled, retrying (Requested nodes are busy)"
expect_contains "then the step" "$out" "srun: Step created for job $j"
expect_contains "it ran" "$out" "second-ran"
expect_eq "the first held the node's CPUs" "2" "$(sacct -n -P -j "$j.0" -o AllocCPUS | head -n 1)"

# --overlap runs beside a step that holds everything.
cat >overlap.sh <<'SH'
#!/bin/sh
#SBATCH -N1 -n2 -o overlap.out
srun -n2 -J holder sh -c 'while [ ! -e overlap.ran ]; do sleep 0.05; done' &
srun -n1 --overlap -J beside sh -c 'touch overlap.ran; echo beside'
wait
SH
j=$(submit overlap.sh)
wait_for 60 job_ended "$j"
expect_eq "overlap" COMPLETED "$(job_state "$j")"
expect_contains "it ran beside" "$(cat overlap.out)" "beside"

# --multi-prog, -r, --cpu-bind=none, --export.
cat >mp.conf <<'CONF'
# task programs
0     echo master %t
1-3   echo worker %t offset %o
CONF
cat >mp.sh <<'SH'
#!/bin/sh
#SBATCH -N2 -n4 -o mp.out
srun -l --multi-prog mp.conf | sort
srun -r 1 -N1 -n1 sh -c 'echo relative on $SLURMD_NODENAME'
srun -n1 --cpu-bind=none sh -c 'echo unbound $(taskset -pc $$ | sed "s/.*: //")'
FOO=bar srun -n1 --export=NONE sh -c 'echo "export none: [$FOO]"'
SH
j=$(submit mp.sh)
wait_for 60 job_ended "$j"
out=$(cat mp.out)
expect_eq "multi-prog" COMPLETED "$(job_state "$j")"
expect_contains "task 0's program" "$out" "0: master 0"
expect_contains "task 2's program" "$out" "2: worker 2 offset 1"
expect_contains "-r 1" "$out" "relative on n-2"
expect_contains "--export=NONE" "$out" "export none: []"
expect_eq "unbound: every CPU" "unbound $(taskset -pc $$ | sed 's/.*: //')" "$(grep '^unbound' mp.out)"

# -m: cyclic and plane=N lay task ids round the nodes; arbitrary is refused.
# -O puts more tasks on a node than it has CPUs.
cat >dist.sh <<'SH'
#!/bin/sh
#SBATCH -N2 -n4 -o dist.out
srun -m cyclic sh -c 'echo "cyclic $SLURM_PROCID $SLURMD_NODENAME $SLURM_GTIDS $SLURM_DISTRIBUTION"'
srun -m plane=1 sh -c 'echo "plane $SLURM_PROCID $SLURMD_NODENAME $SLURM_GTIDS"'
srun -m arbitrary true || echo "arbitrary exit $?"
srun -N1 -n5 -O sh -c 'echo "over $SLURM_PROCID $SLURMD_NODENAME"'
srun -N1 -n5 true || echo "without -O exit $?"
SH
j=$(submit dist.sh)
wait_for 60 job_ended "$j"
expect_eq "cyclic" "cyclic 0 n-1 0,2 cyclic cyclic 1 n-2 1,3 cyclic cyclic 2 n-1 0,2 cyclic cyclic 3 n-2 1,3 cyclic" \
  "$(grep '^cyclic' dist.out | sort | lines)"
expect_eq "plane" "plane 0 n-1 0,2 plane 1 n-2 1,3 plane 2 n-1 0,2 plane 3 n-2 1,3" \
  "$(grep '^plane' dist.out | sort | lines)"
expect_contains "arbitrary" "$(cat dist.out)" "srun: error: --distribution=arbitrary is not available here"
expect_contains "its exit" "$(cat dist.out)" "arbitrary exit 1"
expect_eq "-O: five tasks on a node of two CPUs" "over 0 n-1 over 1 n-1 over 2 n-1 over 3 n-1 over 4 n-1" \
  "$(grep '^over' dist.out | sort | lines)"
expect_contains "without -O" "$(cat dist.out)" "More processors requested than permitted
without -O exit 1"

# Refusals: a bad --multi-prog file, a bad --cpu-bind; --mpi=pmi2 runs a
# program that never speaks PMI as --mpi=none would.
cat >bad.conf <<'CONF'
0-1 true
1 false
CONF
cat >bad.sh <<'SH'
#!/bin/sh
#SBATCH -N1 -n2 -o bad.out
srun --multi-prog bad.conf
echo "multi-prog exit $?"
srun --mpi=pmi2 true
echo "pmi2 exit $?"
SH
j=$(submit bad.sh)
wait_for 60 job_ended "$j"
out=$(cat bad.out)
expect_contains "duplicate task" "$out" "srun: error: Duplicate record for task 1
srun: error: Line 2 of configuration file bad.conf invalid"
expect_contains "its exit" "$out" "multi-prog exit 1"
expect_contains "pmi2 without MPI" "$out" "pmi2 exit 0"
