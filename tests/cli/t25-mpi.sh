#!/usr/bin/env bash
# MPI across two virtual nodes with Debian's MPICH: ranks wired up through
# srun --mpi=pmi2 (srun's PMI server; slurm.conf's MpiDefault), and through MPICH's own launcher
# (mpiexec.hydra) inside the allocation, which starts its proxies with srun.
# MPI_Abort ends the step instead of leaving the other ranks waiting.
source "$(dirname "$0")/lib.sh"
# mpicc.mpich comes with mpich, mpi.h with libmpich-dev.
need_debian_package mpich mpicc.mpich
if ! echo '#include <mpi.h>' | mpicc.mpich -E -x c - >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive timeout 900 apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
      --no-install-recommends libmpich-dev >"$TEST_ROOT/apt.log" 2>&1 || true
  fi
  if ! echo '#include <mpi.h>' | mpicc.mpich -E -x c - >/dev/null 2>&1; then
    echo "SKIP: libmpich-dev (mpi.h) is not installed and could not be" >&2
    exit 77
  fi
fi
write_config <<'YAML'
node_pools:
  - {id: n, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [n]}
config:
  KillWait: "1"
  MpiDefault: pmi2
YAML

cat >hello.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int rank, size, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && rank == 1) MPI_Abort(MPI_COMM_WORLD, 7);
  if (argc > 1) sleep(60);
  /* Each rank's number, summed by all: the ranks really exchanged data. */
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const char *node = getenv("SLURMD_NODENAME");
  printf("rank %d of %d on %s sum %d\n", rank, size, node ? node : "?", sum);
  MPI_Finalize();
  return 0;
}
C
mpicc.mpich -o hello hello.c

cat >pmi2.sh <<'SH'
#!/bin/sh
#SBATCH -N2 -n4 -o pmi2.out
srun --mpi=pmi2 ./hello
srun -n2 ./hello
srun -m cyclic ./hello | sed 's/^/cyclic /'
SH
j=$(submit pmi2.sh)
wait_for 120 job_ended "$j"
expect_eq "pmi2 job" COMPLETED "$(job_state "$j")"
expect_eq "four ranks over both nodes, one world" \
  "rank 0 of 4 on n-1 sum 6 rank 1 of 4 on n-1 sum 6 rank 2 of 4 on n-2 sum 6 rank 3 of 4 on n-2 sum 6" \
  "$(grep '^rank.*of 4' pmi2.out | sort | lines)"
expect_eq "MpiDefault" "rank 0 of 2 on n-1 sum 1 rank 1 of 2 on n-2 sum 1" \
  "$(grep 'of 2' pmi2.out | sort | lines)"
expect_eq "-m cyclic: the ranks go round the nodes, PMI_process_mapping says so" \
  "cyclic rank 0 of 4 on n-1 sum 6 cyclic rank 1 of 4 on n-2 sum 6 cyclic rank 2 of 4 on n-1 sum 6 cyclic rank 3 of 4 on n-2 sum 6" \
  "$(grep '^cyclic' pmi2.out | sort | lines)"
expect_eq "steps in sacct" "$j.0|4|COMPLETED|0:0 $j.1|2|COMPLETED|0:0 $j.2|4|COMPLETED|0:0" \
  "$(sacct -n -P -j "$j" -o JobID,NTasks,State,ExitCode | grep "^$j\.[0-9]" | lines)"

expect_eq "shown" "MpiDefault              = pmi2" "$(scontrol show config | grep '^MpiDefault')"

# Without a PMI server each rank is a world of its own, as on a cluster.
# SLURM_MPI_TYPE, like --mpi, overrides MpiDefault.
cat >none.sh <<'SH'
#!/bin/sh
#SBATCH -N2 -n2 -o none.out
SLURM_MPI_TYPE=none srun ./hello
SH
j=$(submit none.sh)
wait_for 120 job_ended "$j"
expect_eq "singletons" "rank 0 of 1 on n-1 sum 0 rank 0 of 1 on n-2 sum 0" \
  "$(grep rank none.out | sort | lines)"

# MPICH's own launcher inside the allocation starts one proxy per node with srun.
cat >hydra.sh <<'SH'
#!/bin/sh
#SBATCH -N2 -n4 -o hydra.out
mpiexec.hydra -n 4 ./hello
SH
j=$(submit hydra.sh)
wait_for 120 job_ended "$j"
expect_eq "hydra job" COMPLETED "$(job_state "$j")"
expect_eq "hydra's ranks" 4 "$(grep -c 'of 4 .* sum 6$' hydra.out)"
expect_eq "its proxies were a step on both nodes" "$j.0|2|n-[1-2]|COMPLETED" \
  "$(sacct -n -P -j "$j" -o JobID,NNodes,NodeList,State | grep "^$j\.0")"

# MPI_Abort in rank 1: the step ends at once (the job would otherwise wait
# out its sixty-second sleep), srun reports the ranks, the job goes on.
cat >abort.sh <<'SH'
#!/bin/sh
#SBATCH -N2 -n2 -o abort.out
srun --mpi=pmi2 ./hello abort
echo "srun exit $?"
SH
j=$(submit abort.sh)
wait_for 30 job_ended "$j"
out=$(cat abort.out)
expect_contains "MPICH's message" "$out" "MPI_Abort(MPI_COMM_WORLD, 7)"
expect_contains "srun's exit" "$out" "srun exit 143"
expect_eq "the step" "$j.0|CANCELLED" \
  "$(sacct -n -P -j "$j" -o JobID,State | grep "^$j\.0")"

echo "t25-mpi: ok"
