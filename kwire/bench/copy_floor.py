"""The kernel's floor under a replicated produce: ``python -m kwire.bench.copy_floor``.

What three copies of ``--mb`` MB cost when nothing but the kernel works: four
processes on loopback TCP, with no Kafka protocol, no record checks and no
Python per record. A client sends the bytes to a "leader" in 1 MiB writes; the
leader reads each chunk into one buffer, appends it to a file and sends that
file region to two "followers" with ``sendfile`` (the copies a kwire leader
makes for its followers' Fetches); each follower reads its chunks into one
buffer and appends them to its own file. So the data takes the path of an
RF 3 acks=all produce: one loopback send and receive into the leader, one
page-cache write on each of three brokers, two ``sendfile`` sends and two
receives, with about ten system calls per MiB in each process.

It prints, per run, the wall time from the client's first send until both
followers have every byte, and the CPU seconds (user + system, ``getrusage``)
of the three "brokers" together and of the client. The brokers' figure is a
floor for any broker on this machine: a real one does all of this and more.
Compare it with ``kwire bench --cluster 3 --workloads produce_1KiB_acksall``
(docs/performance-latency.md, "The cluster path"). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import resource
import shutil
import socket
import statistics
import tempfile
import time

CHUNK = 1 << 20


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _listen() -> socket.socket:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    return s


def _recv_to_file(conn: socket.socket, path: str, total: int, on_chunk=None) -> None:
    """Read ``total`` bytes into one reused buffer and append each read to ``path``."""
    buf = bytearray(CHUNK)
    view = memoryview(buf)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        got = 0
        while got < total:
            n = conn.recv_into(view, min(CHUNK, total - got))
            if not n:
                raise ConnectionError(f"peer closed after {got} of {total} bytes")
            os.write(fd, view[:n])
            if on_chunk is not None:
                on_chunk(fd, got, n)
            got += n
    finally:
        os.close(fd)


def _follower(lsock: socket.socket, path: str, total: int, out) -> None:
    conn, _ = lsock.accept()
    c0 = _cpu()
    _recv_to_file(conn, path, total)
    out.put(("follower", _cpu() - c0, time.perf_counter()))  # every byte is in its file


def _leader(lsock: socket.socket, f_addrs: list, path: str, total: int, out) -> None:
    followers = [socket.create_connection(a) for a in f_addrs]
    conn, _ = lsock.accept()
    c0 = _cpu()
    rfd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)

    def replicate(_wfd: int, offset: int, n: int) -> None:
        for f in followers:
            sent = 0
            while sent < n:
                sent += os.sendfile(f.fileno(), rfd, offset + sent, n - sent)

    _recv_to_file(conn, path, total, replicate)
    os.close(rfd)
    out.put(("leader", _cpu() - c0, time.perf_counter()))
    for f in followers:
        f.close()


def _client(addr, total: int, out) -> None:
    data = os.urandom(CHUNK)
    s = socket.create_connection(addr)
    c0, t0 = _cpu(), time.perf_counter()
    sent = 0
    while sent < total:
        n = min(CHUNK, total - sent)
        s.sendall(memoryview(data)[:n])
        sent += n
    out.put(("client", _cpu() - c0, t0))  # CLOCK_MONOTONIC: one clock for every process
    s.close()


def run_once(total: int, workdir: str) -> dict:
    """One run of ``total`` bytes; files go under ``workdir`` (removed by the caller)."""
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    fsocks = [_listen(), _listen()]
    lsock = _listen()
    procs = [ctx.Process(target=_follower, args=(fs, os.path.join(workdir, f"f{i}"), total, out))
             for i, fs in enumerate(fsocks)]
    procs.append(ctx.Process(target=_leader, args=(lsock, [fs.getsockname() for fs in fsocks],
                                                    os.path.join(workdir, "leader"), total, out)))
    for p in procs:
        p.start()
    client = ctx.Process(target=_client, args=(lsock.getsockname(), total, out))
    client.start()
    procs.append(client)
    figures: dict[str, float] = {"leader": 0.0, "follower": 0.0, "client": 0.0}
    done, t0 = [], None
    for _ in procs:
        role, cpu, t = out.get(timeout=120)
        figures[role] += cpu
        if role == "client":
            t0 = t
        elif role == "follower":
            done.append(t)
    wall = max(done) - t0
    for p in procs:
        p.join(30)
    bad = [p.exitcode for p in procs if p.exitcode != 0]
    if bad:
        raise RuntimeError(f"a copy process failed (exit codes {bad})")
    sizes = [os.path.getsize(os.path.join(workdir, n)) for n in ("leader", "f0", "f1")]
    if sizes != [total] * 3:
        raise RuntimeError(f"copies of {total} bytes came out as {sizes}")
    for s in [*fsocks, lsock]:
        s.close()
    return {"wall_s": wall, "brokers_cpu_s": figures["leader"] + figures["follower"],
            "leader_cpu_s": figures["leader"], "client_cpu_s": figures["client"]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kwire.bench.copy_floor", description=__doc__.split("\n")[0])
    p.add_argument("--mb", type=int, default=205, help="MB per run (default 205: 200,000 x 1 KiB)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--dir", default=None, help="where the files go (default: a temporary directory)")
    args = p.parse_args(argv)
    total = args.mb * 1_000_000
    rows = []
    for i in range(args.runs):
        work = tempfile.mkdtemp(prefix="kwire-copy-floor-", dir=args.dir)
        try:
            r = run_once(total, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        rows.append(r)
        print(f"run {i + 1}: wall {r['wall_s']:.3f} s, brokers {r['brokers_cpu_s']:.3f} CPU-s "
              f"(leader {r['leader_cpu_s']:.3f}), client {r['client_cpu_s']:.3f} CPU-s", flush=True)
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    print(f"median of {args.runs}: wall {med['wall_s']:.3f} s, brokers {med['brokers_cpu_s']:.3f} CPU-s "
          f"(leader {med['leader_cpu_s']:.3f}), client {med['client_cpu_s']:.3f} CPU-s; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
