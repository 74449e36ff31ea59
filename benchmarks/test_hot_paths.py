"""Micro-benchmarks of kwire's hot paths (see benchmarks/README.md); pytest-benchmark."""

from __future__ import annotations

import asyncio
import os

import pytest

from kwire.protocol import codec
from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
from kwire.protocol.generated.fetch_response import (FetchableTopicResponse, FetchResponse,
                                                     PartitionData)
from kwire.protocol.generated.produce_request import (PartitionProduceData, ProduceRequest,
                                                      TopicProduceData)
from kwire.protocol.generated.produce_response import (PartitionProduceResponse, ProduceResponse,
                                                       TopicProduceResponse)
from kwire.records.builder import build_batch
from kwire.records.scan import IMPLEMENTATION

PRODUCE, FETCH = 0, 1
PRODUCE_V, FETCH_V = 9, 12
NOW = 1_700_000_000_000

pytest.importorskip("pytest_benchmark")

BATCH_1K = bytes(build_batch([(None, os.urandom(1024))], now_ms=NOW))
BATCH_100x100 = bytes(build_batch([(b"k%d" % i, os.urandom(100)) for i in range(100)], now_ms=NOW))


def _frame(api_key: int, version: int, req) -> bytearray:
    """A request as the connection hands it to the codec: the frame after its size prefix."""
    return bytearray(codec.encode_request(api_key, version, 7, "bench", req)[4:])


def _decode(frame: bytearray, api_key: int, version: int):
    header, pos = codec.decode_request_header(frame)
    return codec.decode_request(api_key, version, frame, pos)


def test_produce_request_decode(benchmark):
    frame = _frame(PRODUCE, PRODUCE_V, ProduceRequest(
        transactional_id=None, acks=-1, timeout_ms=30000, topic_data=[TopicProduceData(
            name="bench", partition_data=[PartitionProduceData(index=0, records=BATCH_1K)])]))
    req = benchmark(_decode, frame, PRODUCE, PRODUCE_V)
    assert bytes(req.topic_data[0].partition_data[0].records) == BATCH_1K


def test_produce_response_encode(benchmark):
    resp = ProduceResponse(throttle_time_ms=0, responses=[TopicProduceResponse(
        name="bench", partition_responses=[PartitionProduceResponse(
            index=0, error_code=0, base_offset=42, log_append_time_ms=-1, log_start_offset=0)])])
    parts = benchmark(codec.encode_response, PRODUCE, PRODUCE_V, 7, resp)
    assert sum(len(p) for p in parts) > 20


def test_fetch_request_decode(benchmark):
    frame = _frame(FETCH, FETCH_V, FetchRequest(
        replica_id=-1, max_wait_ms=500, min_bytes=1, max_bytes=52428800, isolation_level=0,
        session_id=0, session_epoch=-1, forgotten_topics_data=[], rack_id="",
        topics=[FetchTopic(topic="bench", partitions=[
            FetchPartition(partition=p, fetch_offset=1000 + p, partition_max_bytes=1048576)
            for p in range(100)])]))
    req = benchmark(_decode, frame, FETCH, FETCH_V)
    assert len(req.topics[0].partitions) == 100


def test_fetch_response_encode(benchmark):
    resp = FetchResponse(error_code=0, session_id=0, responses=[FetchableTopicResponse(
        topic="bench", partitions=[PartitionData(
            partition_index=0, error_code=0, high_watermark=10, last_stable_offset=10,
            log_start_offset=0, preferred_read_replica=-1, records=BATCH_1K)])])
    parts = benchmark(codec.encode_response, FETCH, FETCH_V, 7, resp)
    assert sum(len(p) for p in parts) > len(BATCH_1K)


@pytest.mark.parametrize("batch", [BATCH_1K, BATCH_100x100], ids=["1KiB", "100B_x100"])
def test_validate(benchmark, batch):
    from kwire.log import LogConfig
    from kwire.log.validate import validate_records

    benchmark.extra_info["record_walker"] = IMPLEMENTATION
    cfg = LogConfig()
    buf = memoryview(bytearray(batch))
    spans = benchmark(validate_records, buf, cfg, NOW)
    assert len(spans) == 1


def test_offset_index_lookup(benchmark, tmp_path):
    from kwire.log.index import OffsetIndex

    idx = OffsetIndex(str(tmp_path / "0.index"), 0, 1 << 20)
    for i in range(200_000):  # in memory only (no file write per entry): the lookup is timed
        idx.rel.append(i * 10)
        idx.pos.append(i * 4096)
    pos = benchmark(idx.lookup, 1_234_567)
    assert pos == 123_456 * 4096


def test_delayed_fetch_completion(benchmark, loop):
    from kwire.delayed import FETCH as KIND, Purgatory

    purg = Purgatory()
    keys = [("bench", p) for p in range(10)]

    def check(_key, nbytes: int) -> bool:
        return nbytes > 0

    async def one() -> None:
        fut = purg.watch(keys, check, 30.0, KIND)
        purg.notify(("bench", 3), 1024)
        assert fut.done() and fut.result() is True

    def run() -> None:
        loop.run_until_complete(one())

    benchmark(run)
    assert purg.waiting == 0


def test_produce_append_1KiB(benchmark, broker):
    from kwire.broker.broker import now_ms

    def append():
        return broker.append("bench", 0, bytearray(BATCH_1K), now_ms())

    r = benchmark(append)
    assert r.base_offset >= 0 and not r.duplicate


def _consumer_fetch(partitions: int, offsets) -> FetchRequest:
    """A sessionless consumer long-poll over ``partitions`` partitions of "bench" (librdkafka's
    shape: session id 0, epoch -1)."""
    return FetchRequest(
        replica_id=-1, max_wait_ms=30000, min_bytes=1, max_bytes=52428800, isolation_level=0,
        session_id=0, session_epoch=-1, forgotten_topics_data=[], rack_id="",
        topics=[FetchTopic(topic="bench", partitions=[
            FetchPartition(partition=p, fetch_offset=offsets[p], partition_max_bytes=1048576)
            for p in range(partitions)])])


def test_fetch_long_poll_woken_6p(benchmark, broker, loop):
    """The latency path's Fetch side: a consumer's long-poll over 6 caught-up partitions parks,
    a 1 KiB append to one of them wakes it, and its answer is encoded (only the appended
    partition is read again; the five others' first reads stand)."""
    from kwire.broker.broker import now_ms
    from kwire.handlers import REGISTRY, RequestContext

    handle = REGISTRY[FETCH].handle
    ctx = RequestContext(broker, FETCH, FETCH_V, 7, "bench", "127.0.0.1", 1)
    turn = [0]

    async def one() -> int:
        p = turn[0] % 6
        turn[0] += 1
        ends = [broker.get_log("bench", q).log_end_offset for q in range(6)]
        parked = handle(ctx, _consumer_fetch(6, ends))  # a kwire.delayed.Later: nothing to read yet
        broker.append("bench", p, bytearray(BATCH_1K), now_ms())
        resp = await parked
        codec.encode_response(FETCH, FETCH_V, 7, resp)
        return sum(1 for t in resp.responses for q in t.partitions if q.records)

    got = benchmark(lambda: loop.run_until_complete(one()))
    assert got == 1 and broker.purgatory.waiting == 0


def test_fetch_response_encode_6p_one_batch(benchmark):
    """A woken long-poll's answer: 6 partitions, one 1 KiB batch, five caught up (the struct
    fields at the generated module's shared defaults, as the handler sends them)."""
    from kwire.handlers import fetch as fetch_handler

    resp = FetchResponse(error_code=0, session_id=0, responses=[FetchableTopicResponse(
        topic="bench", partitions=[PartitionData(
            partition_index=p, error_code=0, high_watermark=10, last_stable_offset=10,
            log_start_offset=0, preferred_read_replica=-1, records=BATCH_1K if p == 0 else b"",
            diverging_epoch=fetch_handler._NO_DIVERGING, current_leader=fetch_handler._NO_LEADER,
            snapshot_id=fetch_handler._NO_SNAPSHOT) for p in range(6)])])
    parts = benchmark(codec.encode_response, FETCH, FETCH_V, 7, resp)
    assert sum(len(p) for p in parts) > len(BATCH_1K)


def test_find_batch_newest_in_tail(benchmark, broker):
    """``LogSegment.find_batch`` for the newest batch (a caught-up consumer's fetch offset)
    with the segment's cache of recent batch headers full."""
    from kwire.broker.broker import now_ms
    from kwire.log.segment import TAIL_BATCHES

    for _ in range(TAIL_BATCHES + 4):
        broker.append("bench", 1, bytearray(BATCH_1K), now_ms())
    seg = broker.get_log("bench", 1).active_segment
    newest = seg.next_offset - 1
    found = benchmark(seg.find_batch, newest)
    assert found is not None and found[1].base_offset == newest
