# A stand-in for a training script: each rank reads its place in the run and
# the hyper-parameters from its environment, meets rank 0 on MASTER_PORT (as
# torch.distributed's env:// rendezvous does), and rank 0 writes a "score".
import os
import socket
import time

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
addr, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
lr = float(os.environ.get("LR", "0.1"))

if rank == 0:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((addr, port))
    server.listen(world)
    server.settimeout(60)
    peers = [server.accept()[0] for _ in range(world - 1)]
    print(f"rank 0 of {world}: {len(peers)} peers joined; lr={lr} score={1.0 - abs(lr - 0.03):.3f}")
else:
    deadline = time.time() + 60
    while True:
        try:
            socket.create_connection((addr, port), timeout=1).close()
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)
    print(f"rank {rank} of {world} joined rank 0 at {addr}:{port}")
