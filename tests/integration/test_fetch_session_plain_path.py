"""A consumer's session Fetch on the fast path answers exactly as the generic path does.

A consumer's Fetch v13-16 of the common shape is read without generated
objects (``kwire.protocol.fetch_plain_request``) and, with or without a
KIP-227 session, answered by a plain answer written from the reads
(``kwire.handlers.fetch_plain``) after the session's bookkeeping. Two
in-process brokers, one with the fast paths (the default) and one without
them (``server.fast_paths = False``: the generic decoder; the answers there
still go through ``fetch._answer``, whose generated build is checked against
the plain one in ``tests/unit/test_fetch_answer_build.py``), get the same
sequence of raw requests over TCP; every answer must be the same bytes once
each broker's topic id is swapped for a placeholder (the session ids are made
the same). The sequence: a session opened by a full fetch, incremental
fetches with nothing new, with new records, naming a partition at a new
offset, forgetting one (whose new records must not answer), a long poll woken by a produce from another
connection, read_committed, a leader epoch ahead of the broker's, an offset
out of range, a last fetched epoch the log never had (a diverging-epoch
check), an unknown topic id, a wrong session epoch, an unknown session id,
and the session closed. The fast broker must have read the Fetches itself.
"""

from __future__ import annotations

import itertools
import uuid

import pytest

from kwire.protocol import codec, fetch_plain_request
from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic, ForgottenTopic
from kwire.records.builder import build_batch

from test_faults import Raw, versions
from test_wire_fetch import CLIENT_ID, FETCH, create_topic_raw, produce

pytestmark = pytest.mark.timeout(90)

TS = 1_700_000_000_000
UNKNOWN = uuid.UUID(int=0xDEAD)


def _batch(i: int) -> bytes:
    return build_batch([(f"k{i}".encode(), bytes(50 + i), [], TS + i)])


def _fetch(tid, parts, *, sid=0, epoch=-1, forgotten=(), wait=0, isolation=0, other=None):
    """``parts``: [(partition, offset, current leader epoch, last fetched epoch)]."""
    topics = [FetchTopic(topic_id=tid, partitions=[
        FetchPartition(partition=p, fetch_offset=o, partition_max_bytes=1 << 20, current_leader_epoch=le,
                       last_fetched_epoch=lf) for p, o, le, lf in parts])] if parts else []
    if other is not None:
        topics.append(FetchTopic(topic_id=other, partitions=[FetchPartition(partition=0, fetch_offset=0,
                                                                          partition_max_bytes=1 << 20)]))
    gone = [ForgottenTopic(topic_id=tid, partitions=list(forgotten))] if forgotten else []
    return FetchRequest(max_wait_ms=wait, min_bytes=1, max_bytes=1 << 24, isolation_level=isolation,
                        session_id=sid, session_epoch=epoch, topics=topics, forgotten_topics_data=gone,
                        rack_id="")


def _run(broker, topic: str, version: int) -> list:
    """The raw answers (topic id replaced by 16 zero... placeholder bytes) of the sequence."""
    bs = broker.bootstrap
    tid = create_topic_raw(bs, topic, partitions=3)
    for p in range(3):
        produce(bs, topic, p, _batch(p))
    answers = []
    corr = itertools.count(1)

    def ask(raw, req, label):
        raw.send(codec.encode_request(FETCH, version, next(corr), CLIENT_ID, req))
        answers.append((label, raw.read_frame().replace(tid.bytes, b"<topic id here!>")))
        return answers[-1][1]

    with Raw(bs, timeout=30) as raw:
        sid_at = 4 + 1 + 4 + 2  # correlation id, header tags, throttle, error
        frame = ask(raw, _fetch(tid, [(0, 0, -1, -1), (1, 0, -1, -1), (2, 0, -1, -1)], sid=0, epoch=0),
                    "open: full fetch")
        sid = int.from_bytes(frame[sid_at:sid_at + 4], "big")
        assert sid, "no session opened"
        ask(raw, _fetch(tid, [(0, 1, -1, -1), (1, 1, -1, -1), (2, 1, -1, -1)], sid=sid, epoch=1),
            "incremental: every offset moved")
        ask(raw, _fetch(tid, [], sid=sid, epoch=2), "incremental: nothing new")
        produce(bs, topic, 1, _batch(10))
        ask(raw, _fetch(tid, [], sid=sid, epoch=3), "incremental: new records in 1")
        ask(raw, _fetch(tid, [(1, 2, 0, -1)], sid=sid, epoch=4, forgotten=[2]), "moved on, forgot 2")
        produce(bs, topic, 2, _batch(12))  # forgotten: must not end the long poll below
        raw.send(codec.encode_request(FETCH, version, next(corr), CLIENT_ID,
                                      _fetch(tid, [], sid=sid, epoch=5, wait=20_000)))
        produce(bs, topic, 0, _batch(11))  # another connection: wakes the parked fetch
        answers.append(("long poll woken", raw.read_frame().replace(tid.bytes, b"<topic id here!>")))
        ask(raw, _fetch(tid, [(0, 2, -1, -1)], sid=sid, epoch=6, isolation=1), "read_committed")
        ask(raw, _fetch(tid, [(0, 2, 7, -1)], sid=sid, epoch=7), "leader epoch ahead")
        ask(raw, _fetch(tid, [(0, 50, -1, -1)], sid=sid, epoch=8), "offset out of range")
        ask(raw, _fetch(tid, [(0, 2, -1, 5)], sid=sid, epoch=9), "unknown last fetched epoch")
        ask(raw, _fetch(tid, [(0, 2, -1, -1)], sid=sid, epoch=10, other=UNKNOWN), "unknown topic id")
        ask(raw, _fetch(tid, [], sid=sid, epoch=99), "wrong epoch")
        ask(raw, _fetch(tid, [], sid=sid ^ 0x40000000, epoch=1), "unknown session")
        ask(raw, _fetch(tid, [(0, 2, -1, -1), (1, 2, -1, -1)], sid=sid, epoch=-1), "session closed")
        ask(raw, _fetch(tid, [(0, 0, -1, -1)], sid=0, epoch=-1), "sessionless")
    return answers


def test_fast_and_generic_session_fetch_answers_are_the_same_bytes(make_broker, monkeypatch):
    fast, slow = make_broker(), make_broker()
    slow.server.fast_paths = False
    for b in (fast, slow):  # the same session ids on both
        b.server.broker.fetch_sessions._ids = itertools.count(4242)
    read = []
    real = fetch_plain_request.decode

    def counting(buf, pos, version):
        r = real(buf, pos, version)
        read.append(r is not None)
        return r
    monkeypatch.setattr(fetch_plain_request, "decode", counting)
    lo, hi = versions(fast.bootstrap)[FETCH]
    for version in (13, 15, 16):
        assert lo <= version <= hi
        read.clear()
        got = _run(fast, f"plain-{version}", version)
        assert sum(read) >= len(got) - 1, "the fast broker did not read its Fetches itself"
        read.clear()
        want = _run(slow, f"plain-{version}", version)
        assert not read, "the generic broker took the fast path"
        assert [label for label, _ in got] == [label for label, _ in want]
        for (label, a), (_, b) in zip(got, want):
            assert a == b, (version, label)
