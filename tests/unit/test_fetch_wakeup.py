"""A waiting fetch is woken by an append made in the same event-loop turn it arrived in.

The fetch handler reads, finds less than ``min_bytes`` and returns an awaitable
(a ``kwire.delayed.Later``) whose answer the connection builds only on a later
turn of the loop. Another connection's produce handled in between must still wake the
fetch: the handler has to start watching before it returns. Before that was
so, such a fetch slept for its whole ``max_wait_ms`` (librdkafka's 500 ms),
which showed as rare 500 ms end-to-end latency spikes. Real Broker, no sockets.
"""

from __future__ import annotations

import asyncio
import inspect
import time

from kwire.broker.broker import Broker, now_ms
from kwire.config import BrokerConfig
from kwire.handlers import REGISTRY, RequestContext
from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
from kwire.records.builder import build_batch
from kwire.records.decode import decode_batches

FETCH = 1
MAX_WAIT_MS = 5000


def test_append_between_fetch_and_its_task_wakes_it(tmp_path):
    cfg = BrokerConfig.load(None, {"log.dirs": str(tmp_path), "listeners": "PLAINTEXT://127.0.0.1:0"})

    async def main():
        b = Broker(cfg)
        b.start()
        try:
            b.create_topic("t", 1)
            req = FetchRequest(replica_id=-1, max_wait_ms=MAX_WAIT_MS, min_bytes=1, max_bytes=1 << 20,
                               isolation_level=0, session_id=0, session_epoch=-1,
                               topics=[FetchTopic(topic="t", partitions=[FetchPartition(
                                   partition=0, fetch_offset=0, partition_max_bytes=1 << 20)])],
                               forgotten_topics_data=[], rack_id="")
            ctx = RequestContext(b, FETCH, 12, 1, "test", "127.0.0.1", 1)
            pending = REGISTRY[FETCH].handle(ctx, req)
            assert inspect.isawaitable(pending), "nothing to read: it must wait"
            # Same turn of the loop, before the fetch's task has run a single step:
            b.append("t", 0, bytearray(build_batch([(b"k", b"v")])), now_ms())
            t0 = time.monotonic()
            resp = await asyncio.wait_for(asyncio.ensure_future(pending), MAX_WAIT_MS / 1000 / 2)
            assert time.monotonic() - t0 < 1.0
            part = resp.responses[0].partitions[0]
            assert part.error_code == 0 and part.high_watermark == 1
            data = part.records.read() if hasattr(part.records, "read") else bytes(part.records)
            [batch] = decode_batches(bytes(data))
            assert [(r.key, r.value) for r in batch.records] == [(b"k", b"v")]
        finally:
            b.close()

    asyncio.run(main())


def test_woken_fetch_rereads_only_what_moved_and_still_answers_current_offsets(tmp_path):
    """A long-poll over several partitions woken by an append to one of them: the appended
    partition answers its records; a caught-up partition whose log start moved meanwhile
    (DeleteRecords, which wakes nobody) answers its new log start, as a full reread would;
    an untouched one answers its unchanged offsets."""
    cfg = BrokerConfig.load(None, {"log.dirs": str(tmp_path), "listeners": "PLAINTEXT://127.0.0.1:0"})

    async def main():
        b = Broker(cfg)
        b.start()
        try:
            b.create_topic("t", 3)
            for p in range(3):
                for i in range(2):
                    b.append("t", p, bytearray(build_batch([(b"k", b"old%d" % i)])), now_ms())
            req = FetchRequest(replica_id=-1, max_wait_ms=MAX_WAIT_MS, min_bytes=1, max_bytes=1 << 20,
                               isolation_level=0, session_id=0, session_epoch=-1,
                               topics=[FetchTopic(topic="t", partitions=[FetchPartition(
                                   partition=p, fetch_offset=2, partition_max_bytes=1 << 20)
                                   for p in range(3)])],
                               forgotten_topics_data=[], rack_id="")
            ctx = RequestContext(b, FETCH, 12, 1, "test", "127.0.0.1", 1)
            task = asyncio.ensure_future(REGISTRY[FETCH].handle(ctx, req))
            await asyncio.sleep(0)  # parked: every partition is caught up
            assert not task.done()
            assert b.get_log("t", 2).delete_records_before(1) == 1
            b.append("t", 0, bytearray(build_batch([(b"k", b"new")])), now_ms())
            resp = await asyncio.wait_for(task, MAX_WAIT_MS / 1000 / 2)
            parts = {p.partition_index: p for p in resp.responses[0].partitions}
            assert [(p.error_code, p.high_watermark, p.log_start_offset) for p in
                    (parts[0], parts[1], parts[2])] == [(0, 3, 0), (0, 2, 0), (0, 2, 1)]
            data = parts[0].records.read() if hasattr(parts[0].records, "read") else bytes(parts[0].records)
            [batch] = decode_batches(bytes(data))
            assert [r.value for r in batch.records] == [b"new"]
            assert not parts[1].records and not parts[2].records
        finally:
            b.close()

    asyncio.run(main())
