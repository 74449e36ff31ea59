#!/usr/bin/env python3
"""Broker CPU per single-record Produce over TCP, one request at a time and pipelined.

Starts ``python -m kwire serve`` (this tree, and with ``--peer-root DIR`` also
another source tree, e.g. a ``git archive`` of an older commit with its C
helper built, alternating run by run), creates a one-partition topic and
sends ``N`` Produce v10 requests (acks=all, one 1 KiB record each, by topic
name: what librdkafka sends with ``linger.ms=0``) over one raw socket, ``k`` frames per
``send`` with their ``k`` answers read before the next group: ``k=1`` is one
request per socket read, ``k=8`` a pipelining producer whose requests
arrive several per read. It prints the broker process's CPU per Produce for
each ``k``, user and system apart (``/proc/<pid>/stat``, 10 ms ticks, so
``N`` should give well over a second of CPU; system time is mostly the
socket and log-file syscalls, user time the broker's own Python), with the
load average:

    PYTHONPATH=. python scripts/measure-produce-socket.py 20000 --peer-root /tmp/old --runs 3

What it is not: a client library (frames are encoded once, up front, so the
sender costs little) or a latency figure (wall-clock on a shared machine is
noise). The broker's CPU is its own, but a loaded machine still moves it
(cache misses, frequency): compare alternating runs, not single figures.
"""

from __future__ import annotations

import argparse
import os
import socket
import struct
import sys
import tempfile

from kwire.bench.brokers import start_kwire
from kwire.protocol import codec
from kwire.protocol.generated.create_topics_request import CreatableTopic, CreateTopicsRequest
from kwire.protocol.generated.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from kwire.records.builder import build_batch

TOPIC = "produce-cpu"


def _cpu_ticks(pid: int) -> tuple[int, int]:
    """utime and stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])


def _read_frame(reader) -> bytes:
    """One answer frame from the socket's buffered reader (``sock.makefile("rb")``)."""
    head = reader.read(4)
    n = struct.unpack(">i", head)[0] if len(head) == 4 else -1
    body = reader.read(n) if n >= 0 else b""
    if n < 0 or len(body) < n:
        raise ConnectionError("broker closed the connection")
    return body


def _frames(n: int, first_corr: int) -> list[bytes]:
    batch = build_batch([(None, os.urandom(1024))])
    return [codec.encode_request(0, 10, first_corr + i, "produce-cpu", ProduceRequest(
        acks=-1, timeout_ms=30000, topic_data=[TopicProduceData(name=TOPIC, partition_data=[
            PartitionProduceData(index=0, records=batch)])])) for i in range(n)]


def _send(sock, reader, frames: list[bytes], k: int) -> None:
    for i in range(0, len(frames), k):
        group = frames[i:i + k]
        sock.sendall(b"".join(group))
        for _ in group:
            _read_frame(reader)


def one_run(root: str | None, n: int, groups: list[int], workdir: str) -> dict:
    b = start_kwire(workdir, root=root, name="kwire" if root is None else "peer")
    try:
        host, port = b.bootstrap.split(":")
        with socket.create_connection((host, int(port)), timeout=60) as sock, \
                sock.makefile("rb") as reader:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.sendall(codec.encode_request(19, 7, 1, "produce-cpu", CreateTopicsRequest(
                timeout_ms=10000, topics=[CreatableTopic(name=TOPIC, num_partitions=1,
                                                         replication_factor=1, assignments=[],
                                                         configs=[])])))
            _read_frame(reader)
            _send(sock, reader, _frames(500, 10), 1)  # warm-up: imports, the first segment
            out = {}
            for k in groups:
                frames = _frames(n, 1000)
                u0, s0 = _cpu_ticks(b.pid)
                _send(sock, reader, frames, k)
                u1, s1 = _cpu_ticks(b.pid)
                tick_us = 1e6 / os.sysconf("SC_CLK_TCK")
                out[k] = ((u1 - u0) * tick_us / n, (s1 - s0) * tick_us / n)
        return out
    finally:
        b.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=20000, help="Produce requests per figure")
    ap.add_argument("--peer-root", help="another kwire source tree, run alternately")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--groups", default="1,8", help="frames per send, comma-separated")
    args = ap.parse_args()
    groups = [int(g) for g in args.groups.split(",")]
    roots = [None] + ([args.peer_root] if args.peer_root else [])
    with tempfile.TemporaryDirectory(prefix="kwire-produce-cpu-") as workdir:
        for run in range(args.runs):
            for root in roots:
                load = os.getloadavg()[0]
                figures = one_run(root, args.n, groups, workdir)
                shown = " ".join(f"k={k}: user {u:.1f} sys {s:.1f} total {u + s:.1f} us"
                                 for k, (u, s) in figures.items())
                print(f"run {run + 1} {root or os.getcwd()} n={args.n} broker CPU per Produce {shown} "
                      f"load={load:.1f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
