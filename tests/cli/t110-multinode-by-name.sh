#!/usr/bin/env bash
# The multi-node scripts of Slurm clusters, unchanged, on two declared nodes:
# PyTorch's distributed training (Debian's python3-torch, gloo on the CPU)
# finding its rendezvous host by name, on root's system stintd and on a
# user's personal one, both ranks ending with the same weights; and Open
# MPI's mpirun inside the allocation, reaching both nodes from its host list.
. "$(dirname "$0")/users.sh"

py=/usr/bin/python3
if ! "$py" -c 'import torch' 2>/dev/null; then
  DEBIAN_FRONTEND=noninteractive timeout 1200 apt-get -o DPkg::Lock::Timeout=300 install -y -qq \
    --no-install-recommends python3-torch >"$TEST_ROOT/apt.log" 2>&1 || true
  if ! "$py" -c 'import torch' 2>/dev/null; then
    tail -n 3 "$TEST_ROOT/apt.log" >&2
    echo "SKIP: python3-torch is not installed and could not be" >&2
    exit 77
  fi
fi
need_debian_package openmpi-bin mpirun.openmpi
need_debian_package libopenmpi-dev mpicc.openmpi

config='node_pools:
  - {id: g, count: 2, cpus: 2, memory: 2G}
partitions:
  - {id: debug, node_pool_ids: [g]}
config:
  KillWait: "1"'
printf '%s\n' "$config" | write_config

cat >train.py <<'PY'
import os, socket
import torch
import torch.distributed as dist

dist.init_process_group("gloo", init_method="env://",
                        rank=int(os.environ["SLURM_PROCID"]),
                        world_size=int(os.environ["SLURM_NTASKS"]))
rank = dist.get_rank()
torch.manual_seed(rank)  # each rank its own data: only the all-reduce makes them agree
model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(20):
    x = torch.randn(8, 4)
    loss = ((model(x) - x.sum(1, keepdim=True)) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
w = ",".join(f"{v:.6f}" for v in model.module.weight.detach().flatten().tolist())
print(f"rank {rank} on {socket.gethostname()} weights {w}", flush=True)
dist.destroy_process_group()
PY
# The script as the clusters' users write it, the interpreter aside (this
# machine's first python3 need not be Debian's).
port=$((30000 + $$ % 20000))
cat >train.sh <<SH
#!/bin/bash
#SBATCH -N 2
#SBATCH --ntasks-per-node=1
#SBATCH -o train.out -t 5
export MASTER_ADDR=\$(scontrol show hostnames "\$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=$port
srun $py train.py
SH

# Both ranks on their nodes, with one set of weights between them.
check_training() {
  local what=$1 out=$2
  expect_eq "$what: ranks and nodes" "rank 0 on g-1|rank 1 on g-2" \
    "$(awk '$1 == "rank" {print $1, $2, $3, $4}' "$out" | sort | paste -sd'|')"
  expect_eq "$what: the same weights" 1 "$(awk '$1 == "rank" {print $6}' "$out" | sort -u | grep -c .)"
}

# --- System mode: root's stintd.
stintd --state-dir "$STINT_STATE_DIR"
wait_for 20 test -S "$STINT_STATE_DIR/stintd.sock"
j=$(submit train.sh)
wait_for 120 job_ended "$j"
expect_eq "training job" COMPLETED "$(job_state "$j")"
check_training "system stintd" train.out

# --- Open MPI's mpirun in the allocation: its daemons start through srun on
# the nodes of the host list, and the ranks exchange data.
cat >hello.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int rank, size, sum = 0;
  char host[256];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  gethostname(host, sizeof host);
  printf("rank %d of %d on %s sum %d\n", rank, size, host, sum);
  MPI_Finalize();
  return 0;
}
C
mpicc.openmpi -o hello hello.c
cat >mpi.sh <<'SH'
#!/bin/bash
#SBATCH -N2 --ntasks-per-node=1 -o mpi.out -t 5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun.openmpi -np 2 --host "$(scontrol show hostnames "$SLURM_JOB_NODELIST" | paste -sd,)" ./hello
SH
m=$(submit mpi.sh)
wait_for 120 job_ended "$m"
expect_eq "mpirun job" COMPLETED "$(job_state "$m")"
expect_eq "both nodes reached" "rank 0 of 2 on g-1 sum 1|rank 1 of 2 on g-2 sum 1" \
  "$(grep '^rank' mpi.out | sort | paste -sd'|')"

# --- Personal mode: the same script, a user's own stintd, no privilege.
u="stintt$$"
add_test_user "$u"
home="$TEST_ROOT/home-$u"
cp train.py train.sh "$home/"
chown "$u" "$home/train.py" "$home/train.sh"
personal="$home/state"
as "$u" sh -c "mkdir -p '$personal' && chmod 700 '$personal' && cat >'$personal/stint.yaml'" \
  <<<"$config"
mine() { as "$u" env STINT_STATE_DIR="$personal" "$@"; }
pj=$(mine sbatch --parsable train.sh)
personal_state() { mine sacct -n -X -j "$pj" -o state | awk 'NR == 1 {print $1}'; }
personal_ended() { case "$(personal_state)" in COMPLETED | FAILED | CANCELLED* | TIMEOUT) return 0 ;; esac; return 1; }
wait_for 120 personal_ended
expect_eq "personal training job" COMPLETED "$(personal_state)"
check_training "personal stintd" "$home/train.out"
mine scancel --me >/dev/null 2>&1 || true
echo ok
