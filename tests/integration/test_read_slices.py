"""A burst of pipelined requests on one connection does not hold a parked Fetch's answer back.

The broker handles a connection's frames in slices of at most
``kwire.server.connection.SLICE_S`` of the event loop's time; when a slice is
used up the connection stops reading and goes on in a callback of its own, so
the Fetch answer its appends woke goes out between slices, not after the
whole burst. Raw sockets and kwire's generated codec (``Raw`` from
test_faults), against the in-process broker:

* a consumer's long-poll Fetch is parked; a producer then writes hundreds of
  acks=1 Produce requests (one 1 KiB record each) in one ``sendall``; the
  Fetch answer carries the first records of the burst, not all of them (before
  slicing it waited for every frame the loop had read in that turn);
* every Produce is answered, in request order, with consecutive offsets, and
  a second Fetch returns every record of the burst in order: slicing loses,
  reorders or duplicates nothing.
"""

from __future__ import annotations

import pytest

from kwire.protocol import codec
from kwire.server import connection as connection_module
from kwire.protocol.generated.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from kwire.records.builder import build_batch
from kwire.records.decode import decode_batches

from test_faults import Raw, pick
from test_wire_fetch import CLIENT_ID, FETCH, NONE, PRODUCE, answered_within, create_topic_raw, fetch_request

pytestmark = pytest.mark.timeout(60)

BURST = 400


def test_parked_fetch_is_answered_between_slices_of_a_produce_burst(broker, topic_name, monkeypatch):
    # A slice is loop time, not a count of frames: at the default 1 ms a fast machine handles
    # ~160 of these Produce requests in one (161 seen in a rehearsal), a loaded one a few. At
    # 0.1 ms no machine gets near BURST // 4 in a slice, while a broker that did not slice
    # would still answer only after all the frames of its first read (a quarter MB or more).
    # The broker runs in this process, and each slice reads the module's figure afresh.
    monkeypatch.setattr(connection_module, "SLICE_S", 0.0001)
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    fv, pv = pick(bs, FETCH, 12), pick(bs, PRODUCE, 12)
    value = bytes(1024)
    frames = []
    for i in range(BURST):
        req = ProduceRequest(transactional_id=None, acks=1, timeout_ms=10_000, topic_data=[TopicProduceData(
            name=topic_name, partition_data=[PartitionProduceData(index=0, records=build_batch(
                [(str(i).encode(), value, [], 1_700_000_000_000 + i)]))])])
        frames.append(codec.encode_request(PRODUCE, pv, i + 1, CLIENT_ID, req))
    with Raw(bs, timeout=30) as fetcher, Raw(bs, timeout=30) as producer:
        fetcher.send(codec.encode_request(FETCH, fv, 1, CLIENT_ID, fetch_request(
            fv, topic_name, None, {0: 0}, max_wait_ms=20_000, min_bytes=1)))
        assert not answered_within(fetcher.sock, 0.3), "a fetch at the end of an empty log answered at once"
        producer.send(b"".join(frames))
        corr, resp = codec.decode_response(FETCH, fv, fetcher.read_frame())
        assert corr == 1
        (p,) = resp.responses[0].partitions
        assert p.error_code == NONE, p
        first = [r.offset for b in decode_batches(bytes(p.records)) for r in b.records]
        for i in range(BURST):
            corr, ack = codec.decode_response(PRODUCE, pv, producer.read_frame())
            (pa,) = ack.responses[0].partition_responses
            assert (corr, pa.error_code, pa.base_offset) == (i + 1, NONE, i), (corr, pa)
    assert first and first == list(range(len(first))), first[:10]
    # woken by the first slice's appends, answered before the burst's later slices ran
    assert len(first) < BURST // 4, f"the parked fetch waited for {len(first)} of {BURST} produce requests"
    with Raw(bs, timeout=30) as r:
        resp = r.request(FETCH, fv, fetch_request(fv, topic_name, None, {0: 0}, max_wait_ms=0))
    (p,) = resp.responses[0].partitions
    got = [(r.offset, r.key) for b in decode_batches(bytes(p.records)) for r in b.records]
    assert got == [(i, str(i).encode()) for i in range(BURST)]
