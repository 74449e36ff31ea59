#!/usr/bin/env python3
"""Broker CPU per produce -> long-poll fetch round trip, in process, by phase; and loop turns.

Runs one ``KafkaServer`` (uvloop when installed) in this process and feeds two
of its ``KafkaConnection`` objects request frames directly (their transport
only counts the bytes written): per round trip a long-poll Fetch v16 over the
6 partitions of a topic (sessionless, topic ids, ``max_wait_ms`` 500), then a
Produce v10 acks=-1 of one 1 KiB record, then the loop runs until the Fetch
answer is written. It prints this thread's CPU per phase (the Fetch as it
arrives, the Produce, the wake-up and answer) and the loop turns from the
append to the Fetch answer. No sockets and no client library, so the figures
are the broker's own and move little with the machine's load; run it with
PYTHONPATH at two source trees, alternating, to compare revisions:

    PYTHONPATH=. python scripts/measure-request-cpu.py 3000
    PYTHONPATH=/tmp/old python scripts/measure-request-cpu.py 3000

``python scripts/measure-request-cpu.py 3000 session`` sends the Fetches as
librdkafka does (KIP-227): a full fetch opening a session, then incremental
fetches naming only the partition whose fetch offset moved.

``python scripts/measure-request-cpu.py 3000 produce`` sends only the Produce
requests (v13, by topic id: what the Java client and the ``roundtrip_1KiB``
bench send) and prints the thread CPU per Produce, loop turns included; ``... produce calls``
also counts the Python and C function calls the broker makes per Produce (``sys.setprofile``
around each frame's handling: a figure that does not move with the machine's load).

``KWIRE_MEASURE_CALLS=1`` counts, instead of timing, the Python bytecodes
executed and the C functions called in each phase (``sys.settrace`` with
opcode events, ``sys.setprofile``): "ops" per round trip, a figure the
machine's load does not move, to compare trees on a busy machine (what a C
function does inside is not weighed; the work of the kernel neither).

A measuring tool, not a test: the fake transport is the point (nothing but
the broker is timed).
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import sys
import tempfile
import time

from kwire.config import BrokerConfig
from kwire.server.app import KafkaServer, _new_loop
from kwire.server.connection import KafkaConnection
from kwire.protocol import codec
from kwire.records.builder import build_batch
from kwire.protocol.generated.fetch_request import FetchRequest, FetchTopic, FetchPartition
from kwire.protocol.generated.produce_request import ProduceRequest, TopicProduceData, PartitionProduceData

PARTS = 6


class CountingTransport:
    """Stands in for the socket: counts what the connection writes."""

    def __init__(self):
        self.n = 0
        self.chunks = 0
        self.first = bytearray()  # the first bytes written (the first answer's header)

    def write(self, d):
        self.n += len(d)
        self.chunks += 1
        if len(self.first) < 64:
            self.first += bytes(d)[:64]

    def writelines(self, ds):
        for d in ds:
            self.write(d)

    def get_extra_info(self, k, default=None):
        return {"peername": ("127.0.0.1", 1)}.get(k, default)

    def get_write_buffer_size(self):
        return 0

    def pause_reading(self): pass
    def resume_reading(self): pass
    def close(self): pass
    def abort(self): pass
    def is_closing(self): return False


async def main(n, produce_only=False, sessions=False, count_calls=False):
    d = tempfile.mkdtemp(prefix="kwire-request-cpu-")
    cfg = BrokerConfig.load(None, ["listeners=PLAINTEXT://127.0.0.1:0", f"log.dirs={d}"])
    srv = KafkaServer(cfg)
    await srv.start()
    b = srv.broker
    r = b.create_topic("t", PARTS)
    if asyncio.iscoroutine(r) or isinstance(r, asyncio.Future):
        await r
    for _ in range(50):
        if b.metadata.topic("t") is not None:
            break
        await asyncio.sleep(0.01)
    tid = b.metadata.topic("t").topic_id
    fc, pc = KafkaConnection(srv), KafkaConnection(srv)
    ft, pt = CountingTransport(), CountingTransport()
    fc.connection_made(ft); pc.connection_made(pt)
    batch = build_batch([(None, os.urandom(1024))])
    offsets = [0] * PARTS
    corr = [0]

    def frame(key, ver, obj):
        corr[0] += 1
        return codec.encode_request(key, ver, corr[0], "rt", obj)

    session = [0, -1, None]  # id, epoch, the partition whose offset moved since the last fetch

    def fetch_frame():
        if not sessions:
            sid, epoch, named = 0, -1, range(PARTS)
        elif session[1] < 0:  # open the session: a full fetch
            sid, epoch, named = 0, 0, range(PARTS)
        else:  # incremental: only the partition whose fetch offset moved
            sid, epoch, named = session[0], session[1], [] if session[2] is None else [session[2]]
        return frame(1, 16, FetchRequest(max_wait_ms=500, min_bytes=1, max_bytes=52428800,
                     session_id=sid, session_epoch=epoch, topics=[FetchTopic(topic="t", topic_id=tid, partitions=[
                         FetchPartition(partition=q, fetch_offset=offsets[q], partition_max_bytes=1048576)
                         for q in named])] if named else []))

    def produce_frame(p, version=10):
        return frame(0, version, ProduceRequest(acks=-1, timeout_ms=30000, topic_data=[
            TopicProduceData(name="t", topic_id=tid, partition_data=[PartitionProduceData(index=p, records=batch)])]))

    if produce_only:
        frames = [produce_frame(i % PARTS, 13) for i in range(n + 300)]
        for f in frames[:300]:
            pc.data_received(f)
            await asyncio.sleep(0)
        gc.collect()
        calls = [0, 0]  # Python and C function calls while the broker handles the frames

        def count(_frame, event, _arg):
            if event == "call":
                calls[0] += 1
            elif event == "c_call":
                calls[1] += 1
        t0 = time.thread_time()
        for f in frames[300:]:
            if count_calls:
                sys.setprofile(count)
            pc.data_received(f)
            if count_calls:
                sys.setprofile(None)
            await asyncio.sleep(0)
        cpu = (time.thread_time() - t0) / n * 1e6
        counted = (f" python_calls={calls[0] / n:.1f} c_calls={calls[1] / n:.1f} (per Produce; "
                   f"CPU figure includes the counting)" if count_calls else "")
        print(f"{os.path.dirname(os.path.dirname(__import__('kwire').__file__))} n={n} produce_v13={cpu:.1f}us "
              f"out_bytes={pt.n} load={os.getloadavg()[0]:.1f}{counted}", flush=True)
        await asyncio.sleep(0.05)
        b.close()
        shutil.rmtree(d, ignore_errors=True)
        return

    tt = time.thread_time
    calls = [0]
    if os.environ.get("KWIRE_MEASURE_CALLS") == "1":
        def local(frame, event, _arg):
            if event == "opcode":
                calls[0] += 1
            return local

        def trace(frame, event, _arg):  # every Python frame: count its bytecodes
            frame.f_trace_opcodes = True
            return local

        def count(_frame, event, _arg):  # and every call of a C function
            if event == "c_call":
                calls[0] += 1

        def tt():  # the "clock": bytecodes executed and C functions called so far
            sys.setprofile(None)
            sys.settrace(None)
            n = calls[0]
            sys.settrace(trace)
            sys.setprofile(count)
            return n

        def stop():
            sys.setprofile(None)
            sys.settrace(None)
    else:
        def stop():
            pass
    acc = [0.0, 0.0, 0.0]
    turns = [0]

    async def one(i):
        p = i % PARTS
        ff, pf = fetch_frame(), produce_frame(p)  # encoding is the client's cost
        w0 = ft.chunks
        t0 = tt()
        fc.data_received(ff)
        t1 = tt()
        pc.data_received(pf)
        t2 = tt()
        k = 0
        while ft.chunks == w0:
            await asyncio.sleep(0)  # (counted: a few calls of the harness's, the same for any tree)
            k += 1
        t3 = tt()
        stop()
        acc[0] += t1 - t0; acc[1] += t2 - t1; acc[2] += t3 - t2
        turns[0] += k
        offsets[p] += 1
        if sessions:
            if session[1] < 0:  # the answer's session id: after size, correlation id, tags
                session[0] = int.from_bytes(ft.first[4 + 4 + 1 + 4 + 2:4 + 4 + 1 + 4 + 2 + 4], "big")
                assert session[0], "no session opened"
                session[1] = 0
            session[1] += 1
            session[2] = p

    for i in range(300):
        await one(i)
    acc[:] = [0.0, 0.0, 0.0]; turns[0] = 0
    gc.collect()
    for i in range(n):
        await one(i)
    f, p, w = (x / n * (1 if calls[0] else 1e6) for x in acc)
    u = "ops" if calls[0] else "us"
    print(f"{os.path.dirname(os.path.dirname(__import__('kwire').__file__))} n={n} fetch_in={f:.1f}{u} produce={p:.1f}{u} "
          f"wake+answer={w:.1f}{u} total={f + p + w:.1f}{u} loop_turns_to_answer={turns[0] / n:.2f} "
          f"out_bytes={ft.n + pt.n} sessions={sessions} load={os.getloadavg()[0]:.1f}", flush=True)
    srv.request_stop() if hasattr(srv, "request_stop") else None
    b.close()
    shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    loop = _new_loop()
    asyncio.set_event_loop(loop)
    loop.run_until_complete(main(int(sys.argv[1]), sys.argv[2:3] == ["produce"],
                                 sys.argv[2:] == ["session"], sys.argv[3:] == ["calls"]))
