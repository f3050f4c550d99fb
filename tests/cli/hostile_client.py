#!/usr/bin/env python3
"""A client of stintd's socket that misbehaves on purpose (t96-hostile-socket.sh).

Usage: hostile_client.py SOCKET CASE [ARGS...]. Each case prints what it saw
and exits non-zero when stintd answered in a way it must not (or not at all
where it must). A frame is a 4-byte big-endian length and that much JSON.
"""
import json
import os
import socket
import struct
import sys
import threading
import time

SOCK = sys.argv[1]
DEADLINE = 10.0


def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # A blocking connect, as the tools' own: it waits while stintd's backlog
    # is full (with a timeout set, it would fail at once with EAGAIN).
    s.connect(SOCK)
    s.settimeout(DEADLINE)
    return s


def frame(payload):
    return struct.pack(">I", len(payload)) + payload


def read_reply(s):
    """The reply frame's JSON, or None when stintd closed without one."""
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) >= 4 and len(data) >= 4 + struct.unpack(">I", data[:4])[0]:
            break
    if len(data) < 4:
        return None
    n = struct.unpack(">I", data[:4])[0]
    if len(data) < 4 + n:
        sys.exit(f"short reply: {len(data) - 4} of {n} bytes")
    return json.loads(data[4 : 4 + n])


def expect_refusal(reply, what):
    if reply is None:
        sys.exit(f"{what}: stintd closed the connection without a reply")
    if reply.get("ok") is not False or reply.get("error") != "protocol":
        sys.exit(f"{what}: expected a protocol error, got {reply}")
    print(f"{what}: {reply['message'][:100]}")


def ping():
    s = connect()
    s.sendall(frame(b'{"op":"ping"}'))
    reply = read_reply(s)
    s.close()
    if not reply or not reply.get("ok"):
        sys.exit(f"ping: {reply}")
    return reply["pid"]


def case_ping():
    print(ping())


def case_garbage():
    # Bytes that are no frame at all: read as a length, then refused. The random
    # bytes start with 0xff: a first byte 0 (1 time in 256) would make a length
    # under the 16 MiB limit, a frame stintd rightly waits to receive whole.
    for junk in (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"\xff" + os.urandom(4095), b"\x00\x00\x00\x05hello"):
        s = connect()
        s.sendall(junk)
        expect_refusal(read_reply(s), f"garbage {junk[:8]!r}")
        s.close()


def case_bad_json():
    # Frames whose payload is not a request stintd understands.
    payloads = [
        b"\xff\xfe{",  # not UTF-8: the error message quotes it
        b'{"op": "\xc3\x28"}',
        b"[]",
        b'"ping"',
        b'{"op": 5}',
        b'{"op": "no-such-op"}',
        b'{"op": "submit"}',
        b'{"op": "submit", "spec": []}',
        b'{"op": "submit", "spec": {"script": 5}}',
        b'{"op": "cancel", "job_ids": "all"}',
        b'{"op": "cancel", "job_ids": [{"x": 1}]}',
        b'{"op": "update_job", "job_id": "1_x", "fields": {}}',
        b'{"op": "acct_add", "entity": 5}',
        b"[" * 100000 + b"]" * 100000,
        b'{"op": "ping", "x": ' + b"[" * 100000 + b"]" * 100000 + b"}",
    ]
    for p in payloads:
        s = connect()
        s.sendall(frame(p))
        reply = read_reply(s)
        s.close()
        if reply is None:
            sys.exit(f"payload {p[:30]!r}: stintd closed the connection without a reply")
        # A ping with an extra field (however deep) is still a ping.
        if reply.get("ok") is not False and p is not payloads[-1]:
            sys.exit(f"payload {p[:30]!r}: expected a refusal, got {reply}")
        print(f"payload {p[:20]!r}: {reply.get('error', 'ok')}")


def status_kb(pid, field):
    """A size from /proc/PID/status: VmRSS now, VmHWM its peak."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def vm_rss_kb(pid):
    return status_kb(pid, "VmRSS")


def case_oversized(pid):
    pid = int(pid)
    before = vm_rss_kb(pid)
    # 4 GiB announced: refused from the header alone.
    s = connect()
    s.sendall(b"\xff\xff\xff\xff")
    expect_refusal(read_reply(s), "4 GiB frame")
    s.close()
    # Just past the 16 MiB limit.
    s = connect()
    s.sendall(struct.pack(">I", 16 * 1024 * 1024 + 1) + b"{")
    expect_refusal(read_reply(s), "16 MiB + 1 frame")
    s.close()
    # Twenty clients each announce the most allowed and send 10 bytes: what
    # is not sent is not allocated.
    held = []
    for _ in range(20):
        s = connect()
        s.sendall(struct.pack(">I", 16 * 1024 * 1024) + b'{"op":"pin')
        held.append(s)
    ping()
    grown = vm_rss_kb(pid) - before
    for s in held:
        s.close()
    print(f"stintd grew by {grown} KiB")
    if grown > 64 * 1024:
        sys.exit(f"stintd's memory grew by {grown} KiB for frames that never came")


def open_partial_frames(count):
    """count connections, each announcing the largest frame and sending all
    but its last MiB: those stintd kept open, and how many it closed."""
    body = b"x" * (15 * 1024 * 1024)
    held, dropped = [], 0
    for _ in range(int(count)):
        s = connect()
        try:
            s.sendall(struct.pack(">I", 16 * 1024 * 1024) + body)
            held.append(s)
        except (BrokenPipeError, ConnectionResetError):
            dropped += 1
            s.close()
    return held, dropped


def case_partial_flood(pid, count, limit_mib):
    # Each connection announces the largest frame and sends all but the last
    # MiB, and never finishes: what stintd holds of them all is bounded (one
    # user's share), not count x 15 MiB; connections past it are closed.
    pid = int(pid)
    before = status_kb(pid, "VmHWM")
    held, dropped = open_partial_frames(count)
    ping()
    peak = status_kb(pid, "VmHWM") - before
    for s in held:
        s.close()
    print(f"partial flood: {dropped} of {count} closed by stintd; its peak grew by {peak} KiB")
    if dropped == 0:
        sys.exit("stintd held every partial frame")
    if peak > int(limit_mib) * 1024:
        sys.exit(f"stintd's peak memory grew by {peak} KiB for frames that never end")


def case_hold_partial(count, release_file):
    # As partial-flood, but the frames are held, half-sent, until
    # release_file exists: another user's requests are served meanwhile.
    held, dropped = open_partial_frames(count)
    print(f"holding {len(held)} partial frames; {dropped} closed by stintd", flush=True)
    deadline = time.monotonic() + 120
    while not os.path.exists(release_file) and time.monotonic() < deadline:
        time.sleep(0.05)
    for s in held:
        s.close()


def case_truncated():
    # Half a frame, then the client closes its side: no reply can come.
    s = connect()
    s.sendall(struct.pack(">I", 100) + b'{"op": "pi')
    s.shutdown(socket.SHUT_WR)
    rest = s.recv(100)
    s.close()
    if rest:
        reply = json.loads(rest[4:])
        sys.exit(f"truncated frame: unexpected reply {reply}")
    # Half a header.
    s = connect()
    s.sendall(b"\x00\x00")
    s.shutdown(socket.SHUT_WR)
    s.recv(100)
    s.close()
    print("truncated: closed without reply")


def case_silent(count, seconds):
    # Connections that send nothing (or half a request) and stay open, while
    # the test runs real commands; closed at the end or when stintd drops them.
    socks = []
    for i in range(int(count)):
        s = connect()
        if i % 2:
            s.sendall(struct.pack(">I", 50) + b'{"op":')
        socks.append(s)
    print(f"holding {len(socks)} connections", flush=True)
    end = time.time() + float(seconds)
    closed_by_stintd = 0
    for s in socks:
        s.settimeout(max(0.01, end - time.time()))
        try:
            if s.recv(1) == b"":
                closed_by_stintd += 1
        except (socket.timeout, ConnectionResetError):
            pass
    print(f"stintd closed {closed_by_stintd} of {len(socks)}")


def case_many(count):
    # Many clients at once, each a well-formed ping: every one is answered.
    count = int(count)
    answered = []
    errors = []

    def one():
        try:
            answered.append(ping())
        except BaseException as e:  # noqa: BLE001 - report whatever failed
            errors.append(repr(e))

    threads = [threading.Thread(target=one) for _ in range(count)]
    start = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"{len(answered)} of {count} answered in {time.time() - start:.1f} s")
    if errors or len(answered) != count:
        sys.exit(f"unanswered: {errors[:3]}")


def case_unread_reply(count):
    # Clients that send a request and never read the reply nor close.
    socks = []
    for _ in range(int(count)):
        s = connect()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.sendall(frame(b'{"op":"ping"}'))
        socks.append(s)
    ping()
    for s in socks:
        s.close()
    print(f"{count} unread replies")


def main():
    case = sys.argv[2]
    args = sys.argv[3:]
    globals()["case_" + case.replace("-", "_")](*args)


if __name__ == "__main__":
    main()
