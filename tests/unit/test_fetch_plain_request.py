"""The consumer's Fetch read without generated objects is the generated decoder's request.

``kwire.protocol.fetch_plain_request.decode`` against ``codec.decode_request``
(the reference) for Fetch v13-16: sessionless, full and incremental session
fetches, several topics and partitions, leader epochs and last fetched
epochs, forgotten topics, read_committed, a rack id; the tuples it hands the
handler are the ones the handler's generic loop makes from the generated
objects, and the generated fields it gives on demand are the generated
decoder's. Every shape it leaves to the generic decoder (other versions, a
replica id, tagged fields at each level, 127 partitions, truncated bytes)
returns None.
"""

from __future__ import annotations

import random
import uuid

import pytest

from kwire.protocol import codec, fetch_plain_request as fpr
from kwire.protocol.generated.fetch_request import (
    FetchPartition,
    FetchRequest,
    FetchTopic,
    ForgottenTopic,
    ReplicaState,
)

IDS = [uuid.UUID(int=(i + 1) * 0x1234567) for i in range(4)]


def _body(version: int, req: FetchRequest) -> bytes:
    frame = codec.encode_request(1, version, 7, "c", req)
    _header, pos = codec.decode_request_header(memoryview(frame[4:]))
    return bytes(frame[4 + pos:])


def _request(rng: random.Random, topics: int, parts: int, forgotten: int = 0, **kw) -> FetchRequest:
    return FetchRequest(
        max_wait_ms=rng.choice([0, 500, 2**31 - 1]), min_bytes=rng.choice([1, 1000]),
        max_bytes=rng.choice([52428800, 1]), isolation_level=rng.choice([0, 1]),
        session_id=rng.choice([0, 77, 2**31 - 1]), session_epoch=rng.choice([-1, 0, 5]),
        topics=[FetchTopic(topic_id=IDS[t], partitions=[
            FetchPartition(partition=p, fetch_offset=rng.choice([0, 5, 2**40]),
                           partition_max_bytes=rng.choice([1048576, 0]),
                           current_leader_epoch=rng.choice([-1, 0, 9]),
                           last_fetched_epoch=rng.choice([-1, 0, 3]),
                           log_start_offset=rng.choice([-1, 0]))
            for p in range(parts)]) for t in range(topics)],
        forgotten_topics_data=[ForgottenTopic(topic_id=IDS[t], partitions=list(range(t + 1)))
                               for t in range(forgotten)],
        **kw)


def _generic_tuples(req: FetchRequest):
    """What the handler's generic loop makes of the generated request."""
    wanted, last_epochs = [], {}
    for ft in req.topics:
        for fp in ft.partitions:
            key = (ft.topic_id, fp.partition)
            wanted.append((key, fp.fetch_offset, fp.partition_max_bytes, fp.current_leader_epoch))
            if fp.last_fetched_epoch >= 0:
                last_epochs[key] = fp.last_fetched_epoch
    forgotten = [(ft.topic_id, p) for ft in req.forgotten_topics_data for p in ft.partitions]
    return wanted, last_epochs, forgotten


@pytest.mark.parametrize("version", range(fpr.FIRST_VERSION, fpr.LAST_VERSION + 1))
def test_plain_decode_is_the_generated_decode(version):
    rng = random.Random(version)
    shapes = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 6, 0), (3, 2, 0), (1, 1, 2), (0, 0, 3), (4, 30, 4)]
    for topics, parts, forgotten in shapes:
        for rack in ("", "rack-a"):
            req = _request(rng, topics, parts, forgotten, rack_id=rack)
            body = _body(version, req)
            want = codec.decode_request(1, version, body, 0)
            for buf in (body, bytearray(b"\x00" * 3 + body), memoryview(b"\x09" * 5 + body)):
                start = len(buf) - len(body)
                got = fpr.decode(buf, start, version)
                assert got is not None, (topics, parts, forgotten)
                for f in ("max_wait_ms", "min_bytes", "max_bytes", "isolation_level", "session_id",
                          "session_epoch", "rack_id"):
                    assert getattr(got, f) == getattr(want, f), f
                assert got.replica_id == -1
                assert (got.wanted, got.last_epochs, got.forgotten) == _generic_tuples(want)
                for w in got.wanted:  # the topic ids are the interned objects the handler compares
                    assert w[0][0] in IDS
                # the generated fields, on demand, from the body's own copy
                assert got.topics == want.topics
                assert got.forgotten_topics_data == want.forgotten_topics_data
                assert got.replica_state == want.replica_state and got.cluster_id == want.cluster_id
                assert got == want


def test_shapes_left_to_the_generic_decoder():
    rng = random.Random(1)
    plain = _request(rng, 1, 2)
    for version in (4, 11, 12, 17, 18):  # by version alone, whatever the bytes
        assert fpr.decode(_body(16, plain), 0, version) is None, version
    assert fpr.decode(_body(13, _request(rng, 1, 2, replica_id=3)), 0, 13) is None  # a follower
    assert fpr.decode(_body(15, _request(rng, 1, 2, replica_state=ReplicaState(replica_id=2, replica_epoch=1))),
                      0, 15) is None
    assert fpr.decode(_body(16, _request(rng, 1, 2, cluster_id="c")), 0, 16) is None
    tagged = _request(rng, 1, 2)
    tagged.unknown_tagged_fields = {9: b"x"}
    assert fpr.decode(_body(16, tagged), 0, 16) is None
    tagged = _request(rng, 1, 2)
    tagged.topics[0].unknown_tagged_fields = {9: b"x"}
    assert fpr.decode(_body(16, tagged), 0, 16) is None
    tagged = _request(rng, 1, 2)
    tagged.topics[0].partitions[1].unknown_tagged_fields = {9: b"x"}
    assert fpr.decode(_body(16, tagged), 0, 16) is None
    tagged = _request(rng, 1, 2, 1)
    tagged.forgotten_topics_data[0].unknown_tagged_fields = {9: b"x"}
    assert fpr.decode(_body(16, tagged), 0, 16) is None
    assert fpr.decode(_body(16, _request(rng, 1, 127)), 0, 16) is None  # a two-byte count
    assert fpr.decode(_body(16, _request(rng, 1, 126)), 0, 16) is not None
    body = _body(16, plain)
    assert fpr.decode(body, 0, 16) is not None
    for cut in range(len(body)):
        assert fpr.decode(body[:cut], 0, 16) is None, cut
