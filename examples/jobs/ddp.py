# One rank of a data-parallel job (started by srun, see distributed.sh): it
# sums its rank over every rank, with torch.distributed when torch is
# installed, else with a small TCP all-reduce through rank 0 at
# MASTER_ADDR:MASTER_PORT that needs nothing but Python.
import os
import socket
import time

rank = int(os.environ["SLURM_PROCID"])
world = int(os.environ["SLURM_NTASKS"])
local = int(os.environ["SLURM_LOCALID"])
node = os.environ["SLURMD_NODENAME"]
gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")
gpu = gpus[local % len(gpus)] if gpus != [""] else "none"
addr, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])


def all_reduce_sum(value):
    try:
        import torch
        import torch.distributed as dist
    except ImportError:
        return tcp_all_reduce_sum(value)
    os.environ.setdefault("RANK", str(rank))
    os.environ.setdefault("WORLD_SIZE", str(world))
    dist.init_process_group("gloo", init_method="env://")
    t = torch.tensor([value])
    dist.all_reduce(t)
    dist.destroy_process_group()
    return int(t.item())


def tcp_all_reduce_sum(value):
    if rank == 0:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((addr, port))
        server.listen(world)
        server.settimeout(60)
        peers = [server.accept()[0] for _ in range(world - 1)]
        total = value + sum(int(p.recv(32).decode()) for p in peers)
        for p in peers:
            p.sendall(str(total).encode())
        return total
    deadline = time.time() + 60
    while True:
        try:
            conn = socket.create_connection((addr, port), timeout=1)
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)
    conn.sendall(str(value).encode())
    conn.settimeout(60)
    return int(conn.recv(32).decode())


total = all_reduce_sum(rank)
# One write per line: the ranks share the job's output file, and print() with
# PYTHONUNBUFFERED=1 (common in ML images) writes the text and its newline
# separately, so another rank's line could land between them.
line = f"rank {rank} of {world} (local {local}) on {node} gpu {gpu}: sum of ranks {total}\n"
os.write(1, line.encode())
