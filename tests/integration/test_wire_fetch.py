"""Fetch, Produce and ListOffsets on the wire, request by request, against the in-process broker.

Raw sockets (``Raw`` from test_faults) and kwire's generated codec, so each
test controls every field and sees every byte the broker sends:

* long poll: a fetch at the log end waits and is woken by an append well
  before ``max_wait_ms``; with ``min_bytes`` above one small batch it keeps
  waiting until further appends bring the available bytes over it;
* incremental fetch sessions (KIP-227): a full fetch opens a session, an
  incremental one answers only partitions with something new, forgotten
  partitions stay out, a wrong epoch is INVALID_FETCH_SESSION_EPOCH (and leaves
  the session usable), an unknown or closed session FETCH_SESSION_ID_NOT_FOUND;
* every Fetch version v4-18 returns the produced records, the high watermark,
  last stable offset and log start offset (after DeleteRecords), whole batches
  for an offset inside one, OFFSET_OUT_OF_RANGE below the log start, and
  UNKNOWN_TOPIC_ID (v13+) / UNKNOWN_TOPIC_OR_PARTITION for unknown topics;
* size limits over several partitions: whole batches up to ``partition_max_bytes``
  each, the request's ``max_bytes`` over all, only the first batch above a limit;
* large fetches go through ``os.sendfile`` (checked by wrapping it, which works
  because the broker runs in this process), and when the socket stops taking
  bytes the rest is copied onto the transport without corrupting or
  reordering the stream; a response mixing sendfile regions and small inline
  parts over many partitions arrives whole;
* ListOffsets special timestamps after DeleteRecords (-1, -2, -3, -4, -5, -6)
  and read_committed latest = last stable offset;
* Produce v0-2 (advertised, refused: the connection is closed, nothing stored)
  while v3 works;
* LogAppendTime topics: the produce response carries the append time, the
  stored batch is marked LogAppendTime and a real consumer sees the broker's
  time, not the producer's.

Waiting for something *not* to happen (a long poll still parked) is checked
with a bounded ``select`` on the client socket; everything else waits on the
response itself or on an event.
"""

from __future__ import annotations

import os
import random
import select
import socket
import struct
import threading
import time
import uuid

import pytest

from kwire.protocol import codec
from kwire.protocol.generated.create_topics_request import (
    CreatableTopic,
    CreatableTopicConfig,
    CreateTopicsRequest,
)
from kwire.protocol.generated.delete_records_request import (
    DeleteRecordsPartition,
    DeleteRecordsRequest,
    DeleteRecordsTopic,
)
from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic, ForgottenTopic
from kwire.protocol.generated.list_offsets_request import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsTopic,
)
from kwire.protocol.generated.produce_request import (
    PartitionProduceData,
    ProduceRequest,
    TopicProduceData,
)
from kwire.records.builder import build_batch
from kwire.records.decode import decode_batches

from test_cli import waiting_fetches
from test_faults import Raw, _addr, frame, pick, produce_raw, raw_header, versions

pytestmark = pytest.mark.timeout(60)

PRODUCE, FETCH, LIST_OFFSETS, CREATE_TOPICS, DELETE_RECORDS = 0, 1, 2, 19, 21
NONE, OFFSET_OUT_OF_RANGE, UNKNOWN_TOPIC_OR_PARTITION = 0, 1, 3
FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH, UNKNOWN_TOPIC_ID = 70, 71, 100
CLIENT_ID = "wire-fetch"


def now_ms() -> int:
    return time.time_ns() // 1_000_000


# -- requests -------------------------------------------------------------------------------

def create_topic_raw(bootstrap: str, name: str, partitions: int = 1, configs: dict | None = None) -> uuid.UUID:
    """CreateTopics over the wire; returns the topic id."""
    v = pick(bootstrap, CREATE_TOPICS, 7)
    assert v >= 7, "CreateTopics v7 returns the topic id"
    req = CreateTopicsRequest(timeout_ms=10_000, topics=[CreatableTopic(
        name=name, num_partitions=partitions, replication_factor=1, assignments=[],
        configs=[CreatableTopicConfig(name=k, value=val) for k, val in (configs or {}).items()])])
    with Raw(bootstrap) as r:
        resp = r.request(CREATE_TOPICS, v, req)
    (t,) = resp.topics
    assert t.error_code == NONE, t
    assert t.topic_id.int != 0
    return t.topic_id


def delete_records(bootstrap: str, topic: str, partition: int, offset: int) -> int:
    """DeleteRecords up to ``offset``; returns the new low watermark."""
    v = pick(bootstrap, DELETE_RECORDS, 2)
    with Raw(bootstrap) as r:
        resp = r.request(DELETE_RECORDS, v, DeleteRecordsRequest(timeout_ms=10_000, topics=[DeleteRecordsTopic(
            name=topic, partitions=[DeleteRecordsPartition(partition_index=partition, offset=offset)])]))
    (p,) = resp.topics[0].partitions
    assert p.error_code == NONE, p
    return p.low_watermark


def fetch_request(version: int, topic: str, topic_id: uuid.UUID | None, offsets: dict[int, int], *,
                  max_wait_ms: int = 0, min_bytes: int = 1, max_bytes: int = 16 << 20,
                  partition_max_bytes: int = 16 << 20, session_id: int = 0, session_epoch: int = -1,
                  forgotten: list[int] | None = None, isolation_level: int = 0) -> FetchRequest:
    """One topic, ``offsets`` = {partition: fetch offset}; by name before v13, by id from v13."""
    by_id = version >= 13
    ident = {"topic_id": topic_id} if by_id else {"topic": topic}
    topics = [FetchTopic(**ident, partitions=[
        FetchPartition(partition=p, fetch_offset=o, partition_max_bytes=partition_max_bytes)
        for p, o in offsets.items()])] if offsets else []
    gone = [ForgottenTopic(**ident, partitions=list(forgotten))] if forgotten else []
    return FetchRequest(replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=min_bytes, max_bytes=max_bytes,
                        isolation_level=isolation_level, session_id=session_id, session_epoch=session_epoch,
                        topics=topics, forgotten_topics_data=gone, rack_id="")


def partitions_of(resp, version: int, topic: str, topic_id: uuid.UUID | None) -> dict:
    """{partition index: PartitionData} of the one topic in a fetch response (empty if absent)."""
    out = {}
    for t in resp.responses:
        if version >= 13:
            assert t.topic_id == topic_id, t
        else:
            assert t.topic == topic, t
        for p in t.partitions:
            assert p.partition_index not in out, f"partition {p.partition_index} twice"
            out[p.partition_index] = p
    return out


def records_of(p) -> list[tuple]:
    """(offset, timestamp, key, value, headers) of every record in a PartitionData."""
    if not p.records:
        return []
    return [(r.offset, r.timestamp, r.key, r.value, r.headers)
            for b in decode_batches(bytes(p.records)) for r in b.records]


def produce(bootstrap: str, topic: str, partition: int, batch: bytes):
    with Raw(bootstrap) as r:
        resp = produce_raw(r, bootstrap, topic, partition, batch)
    assert resp.error_code == NONE, resp
    return resp


def list_offsets(bootstrap: str, topic: str, partition: int, timestamp: int, *, isolation_level: int = 0,
                 version: int | None = None):
    v = version if version is not None else pick(bootstrap, LIST_OFFSETS, 11)
    with Raw(bootstrap) as r:
        resp = r.request(LIST_OFFSETS, v, ListOffsetsRequest(
            replica_id=-1, isolation_level=isolation_level, topics=[ListOffsetsTopic(
                name=topic, partitions=[ListOffsetsPartition(partition_index=partition, timestamp=timestamp)])]))
    (p,) = resp.topics[0].partitions
    assert p.error_code == NONE, p
    return p


def answered_within(sock: socket.socket, seconds: float) -> bool:
    """True if the broker sent something (or closed) within ``seconds``."""
    readable, _, _ = select.select([sock], [], [], seconds)
    return bool(readable)


# -- 1. long poll ---------------------------------------------------------------------------------

def test_long_poll_fetch_is_woken_by_an_append(broker, topic_name):
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    v = pick(bs, FETCH, 12)
    with Raw(bs, timeout=20) as fetcher, Raw(bs) as producer:
        corr = fetcher.next_corr()
        t0 = time.monotonic()
        fetcher.send(codec.encode_request(FETCH, v, corr, CLIENT_ID, fetch_request(
            v, topic_name, None, {0: 0}, max_wait_ms=10_000, min_bytes=1)))
        assert not answered_within(fetcher.sock, 0.5), "a fetch at the end of an empty log answered at once"
        t_append = time.monotonic()
        ack = produce_raw(producer, bs, topic_name, 0, build_batch([(b"k", b"wake-up", [], 1_700_000_000_000)]))
        assert (ack.error_code, ack.base_offset) == (NONE, 0), ack
        data = fetcher.read_frame()
        after_append, total = time.monotonic() - t_append, time.monotonic() - t0
    got_corr, resp = codec.decode_response(FETCH, v, data)
    assert got_corr == corr
    assert after_append < 5 and total < 8, \
        f"long poll answered {after_append:.2f}s after the append ({total:.2f}s in all): woken by the timer?"
    assert resp.error_code == NONE
    p = partitions_of(resp, v, topic_name, None)[0]
    assert (p.error_code, p.high_watermark) == (NONE, 1), p
    assert records_of(p) == [(0, 1_700_000_000_000, b"k", b"wake-up", [])]


def wait_for(condition, seconds: float, why: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, why
        time.sleep(0.01)


def test_a_parked_fetch_ends_with_its_connection(broker, topic_name):
    """A long-poll whose client goes away stops waiting at once (its purgatory future is
    cancelled with the connection), not at ``max_wait_ms``; the partition's next append
    still succeeds."""
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    v = pick(bs, FETCH, 12)
    baseline = waiting_fetches(broker)
    fetcher = Raw(bs, timeout=20)
    try:
        fetcher.send(codec.encode_request(FETCH, v, fetcher.next_corr(), CLIENT_ID, fetch_request(
            v, topic_name, None, {0: 0}, max_wait_ms=120_000, min_bytes=1)))
        wait_for(lambda: waiting_fetches(broker) > baseline, 30, "the fetch at the log end never parked")
    finally:
        fetcher.close()
    wait_for(lambda: waiting_fetches(broker) <= baseline, 30,
             "the parked fetch outlived its connection (waiting for its 120 s max_wait_ms?)")
    ack = produce(bs, topic_name, 0, build_batch([(b"k", b"after-close")]))
    assert ack.base_offset == 0, ack


def test_long_poll_waits_for_min_bytes_across_appends(broker, topic_name):
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    v = pick(bs, FETCH, 12)
    batches = [build_batch([(f"k{i}".encode(), bytes([65 + i]) * 250, [], 1_700_000_000_000 + i)])
               for i in range(4)]
    size = len(batches[0])
    assert all(len(b) == size for b in batches)
    min_bytes = 3 * size + size // 2  # three batches are not enough, four are
    with Raw(bs, timeout=20) as fetcher, Raw(bs) as producer:
        corr = fetcher.next_corr()
        fetcher.send(codec.encode_request(FETCH, v, corr, CLIENT_ID, fetch_request(
            v, topic_name, None, {0: 0}, max_wait_ms=10_000, min_bytes=min_bytes)))
        assert not answered_within(fetcher.sock, 0.3), "answered with nothing available"
        for i, b in enumerate(batches[:3]):
            assert produce_raw(producer, bs, topic_name, 0, b).error_code == NONE
            assert not answered_within(fetcher.sock, 0.3), \
                f"answered after {i + 1} batches ({(i + 1) * size} bytes) with min_bytes={min_bytes}"
        t_last = time.monotonic()
        assert produce_raw(producer, bs, topic_name, 0, batches[3]).error_code == NONE
        data = fetcher.read_frame()
        after_last = time.monotonic() - t_last
    got_corr, resp = codec.decode_response(FETCH, v, data)
    assert got_corr == corr
    assert after_last < 5, f"answered {after_last:.2f}s after min_bytes was reached"
    p = partitions_of(resp, v, topic_name, None)[0]
    assert (p.error_code, p.high_watermark) == (NONE, 4), p
    assert len(p.records) >= min_bytes
    assert [(o, k, val) for o, _, k, val, _ in records_of(p)] == \
        [(i, f"k{i}".encode(), bytes([65 + i]) * 250) for i in range(4)]


# -- 2. incremental fetch sessions ----------------------------------------------------------------

@pytest.mark.parametrize("version", [7, 12, 13, 18])
def test_incremental_fetch_session(broker, topic_name, version):
    bs = broker.bootstrap
    lo, hi = versions(bs)[FETCH]
    assert lo <= version <= hi, f"Fetch v{version} is not advertised (v{lo}-{hi})"
    tid = create_topic_raw(bs, topic_name, partitions=3)
    for p in range(3):
        produce(bs, topic_name, p, build_batch([(b"a", b"0"), (b"b", b"1")]))

    with Raw(bs) as r:
        def fetch(offsets, **kw):
            resp = r.request(FETCH, version, fetch_request(version, topic_name, tid, offsets, **kw))
            return resp, partitions_of(resp, version, topic_name, tid)

        # a full fetch at the log end opens a session and lists every partition
        resp, parts = fetch({0: 2, 1: 2, 2: 2}, session_id=0, session_epoch=0)
        assert resp.error_code == NONE
        sid = resp.session_id
        assert sid != 0, "no session created for session_id=0, epoch=0"
        assert sorted(parts) == [0, 1, 2]
        assert all(p.high_watermark == 2 and not p.records for p in parts.values()), parts

        # nothing changed: an incremental fetch answers no partition at all
        resp, parts = fetch({}, session_id=sid, session_epoch=1)
        assert (resp.error_code, resp.session_id) == (NONE, sid)
        assert parts == {}, f"unchanged partitions sent: {sorted(parts)}"

        # new data in partition 1 only: the session's cached offsets are read, only p1 answers
        produce(bs, topic_name, 1, build_batch([(b"c", b"2")]))
        resp, parts = fetch({}, session_id=sid, session_epoch=2)
        assert (resp.error_code, resp.session_id) == (NONE, sid)
        assert sorted(parts) == [1], f"expected only partition 1, got {sorted(parts)}"
        assert parts[1].high_watermark == 3
        assert [(o, k, val) for o, _, k, val, _ in records_of(parts[1])] == [(2, b"c", b"2")]

        # the client moves p1 on and forgets p2; data then arrives in p0 and p2
        resp, parts = fetch({1: 3}, session_id=sid, session_epoch=3, forgotten=[2])
        assert resp.error_code == NONE and parts == {}, sorted(parts)
        produce(bs, topic_name, 0, build_batch([(b"d", b"3")]))
        produce(bs, topic_name, 2, build_batch([(b"e", b"4")]))
        resp, parts = fetch({}, session_id=sid, session_epoch=4)
        assert resp.error_code == NONE
        assert sorted(parts) == [0], f"forgotten partition 2 or unchanged 1 sent: {sorted(parts)}"
        assert [(o, k) for o, _, k, _, _ in records_of(parts[0])] == [(2, b"d")]

        # a wrong epoch is refused and does not disturb the session
        resp, parts = fetch({}, session_id=sid, session_epoch=99)
        assert resp.error_code == INVALID_FETCH_SESSION_EPOCH, resp
        assert parts == {}
        resp, parts = fetch({0: 3}, session_id=sid, session_epoch=5)
        assert (resp.error_code, resp.session_id) == (NONE, sid)
        assert parts == {}, sorted(parts)

        # an id the broker never gave out
        resp, parts = fetch({}, session_id=sid ^ 0x40000000, session_epoch=1)
        assert resp.error_code == FETCH_SESSION_ID_NOT_FOUND, resp
        assert parts == {}

        # epoch -1 closes the session (a sessionless full fetch); the id is then unknown
        resp, parts = fetch({0: 3, 1: 3, 2: 3}, session_id=sid, session_epoch=-1)
        assert (resp.error_code, resp.session_id) == (NONE, 0)
        assert sorted(parts) == [0, 1, 2]
        resp, _ = fetch({}, session_id=sid, session_epoch=6)
        assert resp.error_code == FETCH_SESSION_ID_NOT_FOUND, resp


def test_incremental_long_poll_over_idle_partitions(broker, topic_name):
    """An incremental fetch naming no partition skips the session's idle ones without reading
    them, yet still waits on them: an append to one wakes it; a moved log start (a change the
    client has not seen) puts its partition in the answer."""
    bs = broker.bootstrap
    v = pick(bs, FETCH, 12)
    create_topic_raw(bs, topic_name, partitions=4)
    for p in range(4):
        produce(bs, topic_name, p, build_batch([(b"a", b"0"), (b"b", b"1")]))
    with Raw(bs, timeout=20) as fetcher, Raw(bs) as producer:
        def fetch(offsets, epoch, **kw):
            resp = fetcher.request(FETCH, v, fetch_request(v, topic_name, None, offsets,
                                                           session_id=sid, session_epoch=epoch, **kw))
            return resp, partitions_of(resp, v, topic_name, None)

        sid = 0
        resp, parts = fetch({p: 2 for p in range(4)}, 0)
        sid = resp.session_id
        assert sid != 0 and sorted(parts) == [0, 1, 2, 3]
        corr = fetcher.next_corr()
        fetcher.send(codec.encode_request(FETCH, v, corr, CLIENT_ID, fetch_request(
            v, topic_name, None, {}, max_wait_ms=10_000, session_id=sid, session_epoch=1)))
        assert not answered_within(fetcher.sock, 0.5), "an idle incremental fetch answered at once"
        t_append = time.monotonic()
        ack = produce_raw(producer, bs, topic_name, 3, build_batch([(b"c", b"2", [], now_ms())]))
        assert (ack.error_code, ack.base_offset) == (NONE, 2), ack
        data = fetcher.read_frame()
        assert time.monotonic() - t_append < 5, "the append did not wake the fetch (the timer did)"
        got_corr, resp = codec.decode_response(FETCH, v, data)
        assert got_corr == corr and resp.error_code == NONE
        parts = partitions_of(resp, v, topic_name, None)
        assert sorted(parts) == [3], f"idle partitions answered: {sorted(parts)}"
        assert [(o, k) for o, _, k, _, _ in records_of(parts[3])] == [(2, b"c")]

        # p3 caught up again (named, nothing new to say); then p1's log start moves, a change
        # the client has not seen: p1 (only) is in the answer though it has no records
        resp, parts = fetch({3: 3}, 2)
        assert resp.error_code == NONE and parts == {}, sorted(parts)
        assert delete_records(bs, topic_name, 1, 1) == 1
        resp, parts = fetch({}, 3)
        assert sorted(parts) == [1] and parts[1].log_start_offset == 1, parts


# -- 3. every Fetch version -------------------------------------------------------------------------

SWEEP_TS = 1_700_000_000_000
SWEEP_BATCHES = [
    [(b"k0", b"v0", [("h", b"x")], SWEEP_TS), (b"k1", None, [], SWEEP_TS + 1), (None, b"v2", [], SWEEP_TS + 2)],
    [(b"k3", b"v3" * 50, [], SWEEP_TS + 3), (b"k4", b"v4", [("a", None), ("b", b"")], SWEEP_TS + 4),
     (b"k5", b"", [], SWEEP_TS + 5)],
    [(f"k{i}".encode(), f"v{i}".encode(), [], SWEEP_TS + i) for i in range(6, 10)],
]
SWEEP_LOG_START = 3  # DeleteRecords before the second batch


@pytest.fixture(scope="module")
def sweep_topic(broker):
    name = f"t-sweep-{uuid.uuid4().hex[:8]}"
    tid = create_topic_raw(broker.bootstrap, name)
    for b in SWEEP_BATCHES:
        produce(broker.bootstrap, name, 0, build_batch(b))
    assert delete_records(broker.bootstrap, name, 0, SWEEP_LOG_START) == SWEEP_LOG_START
    return name, tid


def _expected(from_offset: int) -> list[tuple]:
    flat = [item for b in SWEEP_BATCHES for item in b]
    return [(i, ts, k, val, [(h, hv) for h, hv in hdrs]) for i, (k, val, hdrs, ts) in enumerate(flat)
            if i >= from_offset]


@pytest.mark.parametrize("version", range(4, 19))
def test_fetch_version_sweep(broker, sweep_topic, version):
    bs = broker.bootstrap
    lo, hi = versions(bs)[FETCH]
    assert (lo, hi) == (4, 18), f"Fetch advertised as v{lo}-{hi}"
    topic, tid = sweep_topic
    with Raw(bs) as r:
        def fetch(offset, name=topic, topic_id=tid):
            resp = r.request(FETCH, version, fetch_request(version, name, topic_id, {0: offset}))
            assert resp.error_code == NONE
            ((_, p),) = partitions_of(resp, version, name, topic_id).items()
            return p

        p = fetch(SWEEP_LOG_START)
        assert p.error_code == NONE, p
        assert p.high_watermark == 10 and p.last_stable_offset == 10, p
        assert p.log_start_offset == (SWEEP_LOG_START if version >= 5 else -1), p  # the field is v5+
        assert records_of(p) == _expected(SWEEP_LOG_START)

        p = fetch(SWEEP_LOG_START + 1)  # inside the second batch: the whole batch comes back
        assert p.error_code == NONE
        batches = decode_batches(bytes(p.records))
        assert [b.header.base_offset for b in batches] == [3, 6]
        assert records_of(p) == _expected(SWEEP_LOG_START)

        p = fetch(10)  # caught up
        assert (p.error_code, p.high_watermark) == (NONE, 10) and not p.records, p

        p = fetch(1)  # below the log start offset
        assert p.error_code == OFFSET_OUT_OF_RANGE, p
        assert not p.records

        if version >= 13:
            unknown = uuid.uuid4()
            p = fetch(0, name="", topic_id=unknown)
            assert p.error_code == UNKNOWN_TOPIC_ID, p
        else:
            p = fetch(0, name=f"no-such-topic-{uuid.uuid4().hex[:8]}", topic_id=None)
            assert p.error_code == UNKNOWN_TOPIC_OR_PARTITION, p
        assert not p.records


def test_partition_max_bytes_is_filled_with_whole_batches(broker, topic_name):
    """Kafka's size rules over several partitions in one Fetch (issue 24: the consume of 100 B
    records against Tansu): each partition is packed with whole batches up to its
    ``partition_max_bytes`` -- no fewer than fit, never a batch that does not -- and every
    partition is answered in the same response; the request's ``max_bytes`` caps the total, and
    only the response's first batch may exceed a limit."""
    bs = broker.bootstrap
    v = pick(bs, FETCH, 12)
    create_topic_raw(bs, topic_name, partitions=3)
    batches = {p: [build_batch([(b"k", bytes([p]) * 900)] * 10) for _ in range(8)] for p in range(3)}
    size = len(batches[0][0])
    assert all(len(b) == size for bs_ in batches.values() for b in bs_)
    for p, bl in batches.items():
        for b in bl:
            produce(bs, topic_name, p, b)

    def fetch(offsets, **kw):
        with Raw(bs) as r:
            resp = r.request(FETCH, v, fetch_request(v, topic_name, None, offsets, **kw))
        assert resp.error_code == NONE, resp
        return partitions_of(resp, v, topic_name, None)

    def counts(parts):
        return {p: len(decode_batches(bytes(d.records))) if d.records else 0 for p, d in parts.items()}

    # room for 3.5 batches per partition: exactly 3 whole ones each, all in one answer
    parts = fetch({p: 0 for p in range(3)}, partition_max_bytes=size * 7 // 2)
    assert counts(parts) == {0: 3, 1: 3, 2: 3}
    assert all(len(d.records) == 3 * size and d.high_watermark == 80 for d in parts.values())
    # from inside the second batch: it comes back whole, then the next two
    parts = fetch({0: 15}, partition_max_bytes=size * 3)
    assert [b.header.base_offset for b in decode_batches(bytes(parts[0].records))] == [10, 20, 30]
    # the request's max_bytes across partitions: 4 batches in all, the last partition gets none
    parts = fetch({p: 0 for p in range(3)}, partition_max_bytes=size * 3, max_bytes=size * 4 + size // 2)
    assert counts(parts) == {0: 3, 1: 1, 2: 0}
    # a limit below one batch: the response's first batch only (Kafka's min-one-message rule)
    parts = fetch({p: 0 for p in range(3)}, partition_max_bytes=size // 2)
    assert counts(parts) == {0: 1, 1: 0, 2: 0}
    assert all(d.error_code == NONE for d in parts.values())


# -- 4. sendfile --------------------------------------------------------------------------------------

class SendfileSpy:
    """Wraps ``os.sendfile``: records (count asked, bytes sent or 'EAGAIN') per call."""

    def __init__(self, real) -> None:
        self.real = real
        self.calls: list[tuple[int, int | str]] = []
        self.blocked = threading.Event()
        self._lock = threading.Lock()

    def __call__(self, out_fd, in_fd, offset, count, *args, **kw):
        try:
            n = self.real(out_fd, in_fd, offset, count, *args, **kw)
        except BlockingIOError:
            with self._lock:
                self.calls.append((count, "EAGAIN"))
            self.blocked.set()
            raise
        with self._lock:
            self.calls.append((count, n))
        if n < count:
            self.blocked.set()
        return n

    def sent(self) -> int:
        return sum(n for _, n in self.calls if n != "EAGAIN")


@pytest.fixture
def sendfile_spy(monkeypatch):
    from kwire.server import connection

    assert connection.os is os, "kwire.server.connection must call os.sendfile through the os module"
    spy = SendfileSpy(os.sendfile)
    monkeypatch.setattr(os, "sendfile", spy)
    return spy


def _big_batches(rng: random.Random, n: int, value_size: int, tag: bytes) -> tuple[list[bytes], list[bytes]]:
    values = [tag + rng.randbytes(value_size) for _ in range(n)]
    return [build_batch([(tag + b"-%d" % i, v)]) for i, v in enumerate(values)], values


def test_large_fetch_is_sent_with_sendfile(broker, topic_name, sendfile_spy):
    from kwire.server.connection import SENDFILE_MIN_BYTES

    bs = broker.bootstrap
    tid = create_topic_raw(bs, topic_name)
    batches, values = _big_batches(random.Random(1), 5, 240_000, b"p0")
    for b in batches:
        produce(bs, topic_name, 0, b)
    total = sum(len(b) for b in batches)
    assert total >= (1 << 20) and total >= 4 * SENDFILE_MIN_BYTES
    v = pick(bs, FETCH, 18)
    sendfile_spy.calls.clear()
    with Raw(bs, timeout=20) as r:
        resp = r.request(FETCH, v, fetch_request(v, topic_name, tid, {0: 0}))
    p = partitions_of(resp, v, topic_name, tid)[0]
    assert p.error_code == NONE
    assert len(p.records) == total
    assert sendfile_spy.calls, "a fetch of >= 1 MiB did not use os.sendfile"
    assert sendfile_spy.calls[0][0] == total, f"first sendfile call asked {sendfile_spy.calls[0][0]} of {total}"
    got = records_of(p)
    assert [r[3] for r in got] == values
    assert [r[0] for r in got] == list(range(5))


def test_a_fetch_over_many_partitions_mixing_sendfile_and_inline_regions(broker, topic_name, sendfile_spy):
    """One answer mixing sendfile regions and small inline ones arrives whole and in order.

    Twelve partitions alternate between >= SENDFILE_MIN_BYTES of records (sent
    with sendfile) and a few small batches (read and written inline), so the
    response interleaves the header, per-partition fields, small records and
    zero-copy regions. Every partition's bytes come back complete, in their
    partition, with every record in order; the next, small answer on the same
    connection follows it intact.
    """
    from kwire.server.connection import SENDFILE_MIN_BYTES

    bs = broker.bootstrap
    tid = create_topic_raw(bs, topic_name, partitions=12)
    rng = random.Random(3)
    expect = {}
    for p in range(12):
        if p % 2 == 0:
            batches, values = _big_batches(rng, 2, SENDFILE_MIN_BYTES // 2 + 1000 * p, b"big%d" % p)
        else:
            batches, values = _big_batches(rng, 1 + p % 3, 50 + 300 * p, b"small%d" % p)
        for b in batches:
            produce(bs, topic_name, p, b)
        expect[p] = (sum(map(len, batches)), values)
    v = pick(bs, FETCH, 18)
    sendfile_spy.calls.clear()
    with Raw(bs, timeout=20) as r:
        resp = r.request(FETCH, v, fetch_request(v, topic_name, tid, {p: 0 for p in range(12)},
                                                 max_bytes=64 << 20))
        parts = partitions_of(resp, v, topic_name, tid)
        assert sorted(parts) == list(range(12))
        for p, (length, values) in expect.items():
            assert parts[p].error_code == NONE, (p, parts[p])
            assert len(parts[p].records) == length, f"partition {p}: {len(parts[p].records)} of {length} bytes"
            got = records_of(parts[p])
            assert [x[3] for x in got] == values, f"partition {p}: records corrupted or reordered"
            assert [x[0] for x in got] == list(range(len(values)))
        assert len(sendfile_spy.calls) >= 6, f"the large partitions did not go out with sendfile: {sendfile_spy.calls}"
        # the same connection answers a small fetch afterwards: partition 1 from its second record
        small = partitions_of(r.request(FETCH, v, fetch_request(v, topic_name, tid, {1: 1})), v, topic_name, tid)[1]
        assert small.error_code == NONE
        assert [x[3] for x in records_of(small)] == expect[1][1][1:]


class SlowReader(Raw):
    """A raw connection with a tiny receive buffer that reads only when told."""

    def __init__(self, bootstrap: str, rcvbuf: int = 4096, timeout: float = 30) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)  # before connect: sets the window
        self.sock.settimeout(timeout)
        self.sock.connect(_addr(bootstrap))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._corr = 0


def test_sendfile_falls_back_when_the_socket_is_full(broker, topic_name, sendfile_spy):
    """A client that does not read: sendfile fills the socket, the rest is copied onto the transport.

    Eight large fetches (~9 MB, more than the kernel's largest send buffer,
    net.ipv4.tcp_wmem's 4 MiB by default) are pipelined on a connection with a
    tiny receive window; the client reads nothing until sendfile has hit a full
    socket. Regions after that are queued behind the copied tail. Every
    response must arrive whole and in order.
    """
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name, partitions=2)
    rng = random.Random(2)
    b0, v0 = _big_batches(rng, 5, 250_000, b"p0")
    b1, v1 = _big_batches(rng, 4, 230_000, b"p1")
    for b in b0:
        produce(bs, topic_name, 0, b)
    for b in b1:
        produce(bs, topic_name, 1, b)
    expect = {0: (sum(map(len, b0)), v0), 1: (sum(map(len, b1)), v1)}
    v = pick(bs, FETCH, 12)
    sendfile_spy.calls.clear()
    sendfile_spy.blocked.clear()
    with SlowReader(bs) as r:
        plan = [(r.next_corr(), i % 2) for i in range(8)]
        total = sum(expect[p][0] for _, p in plan)
        r.send(b"".join(codec.encode_request(FETCH, v, corr, CLIENT_ID, fetch_request(v, topic_name, None, {p: 0}))
                        for corr, p in plan))
        assert sendfile_spy.blocked.wait(20), f"sendfile never hit a full socket: {sendfile_spy.calls}"
        frames = [r.read_frame() for _ in plan]
    assert sendfile_spy.calls[0][0] == expect[0][0], sendfile_spy.calls
    assert sendfile_spy.sent() < total, "everything went through sendfile: the fallback was not exercised"
    for (corr, p), data in zip(plan, frames):
        got_corr, resp = codec.decode_response(FETCH, v, data)
        assert got_corr == corr, "responses out of order"
        part = partitions_of(resp, v, topic_name, None)[p]
        length, values = expect[p]
        assert part.error_code == NONE and len(part.records) == length
        assert [x[3] for x in records_of(part)] == values, f"response {corr} (partition {p}): records corrupted"


# -- 5. ListOffsets ---------------------------------------------------------------------------------

def test_list_offsets_special_timestamps_after_delete_records(broker, topic_name):
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    v = pick(bs, LIST_OFFSETS, 11)
    assert v == 11
    # the second batch will straddle the log start (3): its largest timestamp (9000) is at the
    # deleted offset 2, so after DeleteRecords the largest timestamp left is 7000 at offset 4
    produce(bs, topic_name, 0, build_batch([(b"a", b"0", [], 5000), (b"b", b"1", [], 6000)]))
    produce(bs, topic_name, 0, build_batch([(b"c", b"2", [], 9000), (b"d", b"3", [], 1000)]))
    produce(bs, topic_name, 0, build_batch([(b"e", b"4", [], 7000), (b"f", b"5", [], 2000)]))

    assert list_offsets(bs, topic_name, 0, -4).offset == 0
    p = list_offsets(bs, topic_name, 0, -3)
    assert (p.offset, p.timestamp) == (2, 9000), p
    assert delete_records(bs, topic_name, 0, 3) == 3

    for special in (-2, -4):  # earliest, earliest local (no tiered storage: the log start offset)
        p = list_offsets(bs, topic_name, 0, special)
        assert (p.offset, p.timestamp) == (3, -1), (special, p)
        assert p.leader_epoch >= 0
    p = list_offsets(bs, topic_name, 0, -1)
    assert (p.offset, p.timestamp) == (6, -1), p
    # max timestamp: kwire (search.py) counts only records at or above the log start offset
    p = list_offsets(bs, topic_name, 0, -3)
    assert (p.offset, p.timestamp) == (4, 7000), p
    for special in (-5, -6):  # latest tiered, earliest pending upload: nothing is tiered
        p = list_offsets(bs, topic_name, 0, special)
        assert (p.offset, p.timestamp) == (-1, -1), (special, p)
    for target, want in ((500, (3, 1000)), (6500, (4, 7000)), (8000, (-1, -1))):
        p = list_offsets(bs, topic_name, 0, target)  # first record at or after target, above the log start
        assert (p.offset, p.timestamp) == want, (target, p)

    # read_committed: latest is the last stable offset, which (no transactions) is the HW
    with Raw(bs) as r:
        resp = r.request(FETCH, 12, fetch_request(12, topic_name, None, {0: 6}, isolation_level=1))
    part = partitions_of(resp, 12, topic_name, None)[0]
    for lv in (2, 6, v):
        committed = list_offsets(bs, topic_name, 0, -1, isolation_level=1, version=lv)
        assert committed.offset == part.last_stable_offset == part.high_watermark == 6, (lv, committed, part)
    produce(bs, topic_name, 0, build_batch([(b"g", b"6")]))
    assert list_offsets(bs, topic_name, 0, -1, isolation_level=1).offset == 7
    assert list_offsets(bs, topic_name, 0, -4).offset == 3


# -- 6. Produce v0-2 ------------------------------------------------------------------------------------

def _produce_v0_2_body(topic: str, partition: int, records: bytes) -> bytes:
    """acks int16 | timeout int32 | [name string | [partition int32 | records bytes]] (no transactional id)."""
    name = topic.encode()
    return (struct.pack(">hii", -1, 5000, 1) + struct.pack(">h", len(name)) + name
            + struct.pack(">iii", 1, partition, len(records)) + records)


def test_produce_v0_to_v2_are_closed_and_v3_works(broker, topic_name):
    bs = broker.bootstrap
    lo, hi = versions(bs)[PRODUCE]
    assert lo == 0, "Produce is advertised from v0 (KAFKA-18659: old librdkafka compresses only then)"
    create_topic_raw(bs, topic_name)
    batch = build_batch([(b"old", b"client")])  # a valid v2 batch: if accepted it would be stored
    for version in (0, 1, 2):
        with Raw(bs) as r:
            r.send(frame(raw_header(PRODUCE, version, 40 + version, flexible=False)
                         + _produce_v0_2_body(topic_name, 0, batch)))
            assert r.closed_by_broker() == b"", f"Produce v{version} answered instead of closed"
    assert list_offsets(bs, topic_name, 0, -1).offset == 0, "a refused old produce left records behind"

    with Raw(bs) as r:
        resp = r.request(PRODUCE, 3, ProduceRequest(transactional_id=None, acks=-1, timeout_ms=5000, topic_data=[
            TopicProduceData(name=topic_name, partition_data=[
                PartitionProduceData(index=0, records=build_batch([(b"new", b"client")]))])]))
    (p,) = resp.responses[0].partition_responses
    assert (p.error_code, p.base_offset) == (NONE, 0), p
    assert list_offsets(bs, topic_name, 0, -1).offset == 1


# -- 7. LogAppendTime --------------------------------------------------------------------------------

def test_log_append_time_topic(broker, topic_name):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name, configs={"message.timestamp.type": "LogAppendTime"})
    old = now_ms() - 3 * 24 * 3600 * 1000

    # raw produce: the response carries the broker's append time
    before = now_ms()
    ack = produce(bs, topic_name, 0, build_batch([(b"raw", b"r", [], old), (b"raw2", b"r2", [], old + 1)]))
    after = now_ms()
    assert ack.log_append_time_ms != -1, ack
    assert before <= ack.log_append_time_ms <= after, (before, ack.log_append_time_ms, after)

    # a real producer with an old CreateTime timestamp
    delivered = []
    producer = confluent_kafka.Producer({"bootstrap.servers": bs, "linger.ms": 0, "acks": "all"})
    producer.produce(topic_name, key=b"ck", value=b"cv", partition=0, timestamp=old,
                     on_delivery=lambda err, msg: delivered.append((err, msg.timestamp(), msg.offset())))
    t_sent = now_ms()
    assert producer.flush(15) == 0
    (err, (dr_type, dr_ts), dr_offset) = delivered[0]
    assert err is None and dr_offset == 2

    consumer = confluent_kafka.Consumer({"bootstrap.servers": bs, "group.id": f"g-{topic_name}",
                                         "enable.auto.commit": False, "auto.offset.reset": "earliest"})
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic_name, 0, 0)])
        got = []
        deadline = time.monotonic() + 20
        while len(got) < 3 and time.monotonic() < deadline:
            m = consumer.poll(1.0)
            if m is not None:
                assert m.error() is None, m.error()
                got.append(m)
    finally:
        consumer.close()
    assert [m.key() for m in got] == [b"raw", b"raw2", b"ck"]
    for m in got[:2]:
        assert m.timestamp() == (confluent_kafka.TIMESTAMP_LOG_APPEND_TIME, ack.log_append_time_ms)
    ts_type, ts = got[2].timestamp()
    assert ts_type == confluent_kafka.TIMESTAMP_LOG_APPEND_TIME
    assert ts != old and abs(ts - t_sent) < 60_000, (ts, old, t_sent)
    assert dr_type == confluent_kafka.TIMESTAMP_LOG_APPEND_TIME and dr_ts == ts, (dr_type, dr_ts, ts)

    # on the wire: the stored batch is marked LogAppendTime with the append time as max timestamp
    with Raw(bs) as r:
        resp = r.request(FETCH, 12, fetch_request(12, topic_name, None, {0: 0}))
    part = partitions_of(resp, 12, topic_name, None)[0]
    batches = decode_batches(bytes(part.records))
    assert [b.header.timestamp_type for b in batches] == [1, 1]
    assert batches[0].header.max_timestamp == ack.log_append_time_ms
    assert [r.timestamp for r in batches[0].records] == [ack.log_append_time_ms] * 2
