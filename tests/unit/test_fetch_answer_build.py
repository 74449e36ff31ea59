"""The Fetch and Produce answers built slot by slot are the answers the constructors build.

``kwire.handlers.fetch._response`` and ``kwire.handlers.produce._append`` make
their generated structs with ``object.__new__`` and set every slot (the
keyword-argument constructors cost four times as much per partition). Here
each such answer is compared with the same answer built with the generated
constructors: equal as objects (``__eq__`` over every field) and byte for byte
once encoded, for every version, for plain, caught-up, record-carrying,
error, diverging, current-leader and read_committed partitions, by topic name
and by topic id. The topic-id cache of ``read_uuid`` is checked too.
"""

from __future__ import annotations

import uuid

import pytest

from kwire.handlers import fetch as F
from kwire.handlers import fetch_plain
from kwire.handlers import produce as P
from kwire.protocol import codec, primitives
from kwire.protocol.generated import fetch_response as fr
from kwire.protocol.generated import produce_response as pr

TID = uuid.UUID("6f1c2a9e-3b7d-4c55-9a10-2e8f5d4b7c31")


def _read(key, topic, partition, **kw):
    r = F._Read(key, topic, partition)
    for k, v in kw.items():
        setattr(r, k, v)
    return r


def _reads(ref, topic, version=F.MAX_VERSION):
    """One of each kind of partition answer, all of topic ``ref`` (a name or an id); a diverging
    epoch only where the version has the field (v12+)."""
    reads = [
        _read((ref, 0), topic, 0, hw=10, lso=10, log_start=0),  # caught up
        _read((ref, 1), topic, 1, hw=12, lso=11, log_start=2, records=b"\x00" * 70, size=70),
        _read((ref, 2), topic, 2, error=6, leader=(3, 7)),  # NOT_LEADER_OR_FOLLOWER
        _read((ref, 3), topic, 3, hw=5, lso=5, log_start=0, diverging=(4, 3)),
        _read((ref, 4), topic, 4, hw=9, lso=4, log_start=0, records=b"\x01" * 61, size=61,
              aborted=[fr.AbortedTransaction(producer_id=8, first_offset=4)]),
    ]
    return reads if version >= 12 else [r for r in reads if r.diverging is None]


def _reference(results, session, version, endpoints=None):
    """The answer as the constructors build it (the code ``_response`` replaced)."""
    topics = []
    last = object()
    for r in results:
        if r.key[0] != last:
            if isinstance(r.key[0], str):
                topics.append(fr.FetchableTopicResponse(topic=r.key[0], partitions=[]))
            else:
                topics.append(fr.FetchableTopicResponse(topic=r.topic or "", topic_id=r.key[0],
                                                        partitions=[]))
            last = r.key[0]
        topics[-1].partitions.append(fr.PartitionData(
            partition_index=r.partition, error_code=r.error, high_watermark=r.hw,
            last_stable_offset=r.lso, log_start_offset=r.log_start,
            aborted_transactions=r.aborted, preferred_read_replica=-1, records=r.records,
            diverging_epoch=fr.EpochEndOffset() if r.diverging is None else fr.EpochEndOffset(
                epoch=r.diverging[0], end_offset=r.diverging[1]),
            current_leader=fr.LeaderIdAndEpoch() if r.leader is None or version < 12
            else fr.LeaderIdAndEpoch(leader_id=r.leader[0], leader_epoch=r.leader[1])))
    resp = fr.FetchResponse(error_code=0, session_id=0, responses=topics)
    if endpoints:
        resp.node_endpoints = endpoints
    return resp


def _encoded(api_key, version, obj) -> bytes:
    parts = codec.encode_response(api_key, version, 99, obj)
    return b"".join(bytes(p) for p in parts)


@pytest.mark.parametrize("version", range(F.MIN_VERSION, F.MAX_VERSION + 1))
def test_fetch_answer_equals_the_constructed_one(version):
    if version >= 13:
        results = _reads(TID, "t") + _reads(uuid.UUID(int=5), "u")
    else:
        results = _reads("t", "t", version) + _reads("u", "u", version)
    got = F._response(results, None, version)
    want = _reference(results, None, version)
    assert got == want
    assert _encoded(1, version, got) == _encoded(1, version, want)


def test_fetch_answer_with_endpoints_and_every_slot_set():
    results = _reads(TID, "t")
    ends = [fr.NodeEndpoint(node_id=3, host="h", port=9, rack=None)]
    got = F._response(results, None, 16, ends)
    assert got == _reference(results, None, 16, ends)
    assert _encoded(1, 16, got) == _encoded(1, 16, _reference(results, None, 16, ends))
    for obj in [got.responses[0], *got.responses[0].partitions]:
        for slot in type(obj).__slots__:
            getattr(obj, slot)  # AttributeError if a slot was left unset


def _plain_reads(ref, topic, n=3):
    """Reads a plain answer is made of: caught up, with records (bytes and a region), empty."""
    return [
        _read((ref, 0), topic, 0, hw=10, lso=10, log_start=0),
        _read((ref, 1), topic, 1, hw=12, lso=11, log_start=2, records=b"\x00" * 70, size=70),
        _read((ref, 2), topic, 2, hw=300, lso=300, log_start=200, records=b"\x07" * 200, size=200),
        _read((ref, 7), topic, 7, hw=0, lso=0, log_start=0),
    ][:n + 1]


@pytest.mark.parametrize("version", range(F.MIN_VERSION, F.MAX_VERSION + 1))
def test_plain_fetch_answer_is_the_generated_encoding(version):
    if version >= 13:
        shapes = [_plain_reads(TID, "t"), _plain_reads(TID, "t") + _plain_reads(uuid.UUID(int=5), "u", 1),
                  _plain_reads(TID, "t", 0), []]
    else:
        shapes = [_plain_reads("t", "t"), _plain_reads("t", "t") + _plain_reads("u" * 200, "u" * 200, 2),
                  []]
    for results in shapes:
        got = F._answer(results, None, version)
        want = _reference(results, None, version)
        assert isinstance(got, fetch_plain.PlainFetchResponse) == (version >= 12)
        assert _encoded(1, version, got) == _encoded(1, version, want)
        assert got == want and want == got  # the responses, built when asked for
        assert _encoded(1, version, got) == _encoded(1, version, want)  # and after that


def test_answers_that_are_not_plain_are_built_as_before():
    for r in _reads(TID, "t")[2:]:  # not leader, diverging, aborted transactions
        results = _plain_reads(TID, "t") + [r]
        got = F._answer(results, None, 16)
        assert type(got) is fr.FetchResponse
        assert _encoded(1, 16, got) == _encoded(1, 16, _reference(results, None, 16))
    ends = [fr.NodeEndpoint(node_id=3, host="h", port=9, rack=None)]
    assert type(F._answer(_plain_reads(TID, "t"), None, 16, ends)) is fr.FetchResponse


def test_plain_answer_throttled_or_reassigned_is_encoded_from_what_it_holds():
    results = _plain_reads(TID, "t")
    got = F._answer(results, None, 16)
    got.throttle_time_ms = 250  # a client quota's throttle (KIP-219), as the connection sets it
    want = _reference(results, None, 16)
    want.throttle_time_ms = 250
    assert _encoded(1, 16, got) == _encoded(1, 16, want)
    other = _reference(_plain_reads(uuid.UUID(int=9), "v", 1), None, 16)
    got.responses = other.responses  # no longer the reads: the generated encoder writes it
    want.responses = other.responses
    assert _encoded(1, 16, got) == _encoded(1, 16, want)


def _append_result(base):
    class R:  # what Broker.append returns, as far as _append reads it
        base_offset = base
        last_offset = base
        log_append_time = -1
        log_start_offset = 0
    return R()


class _Broker:
    def __init__(self, base):
        self.base = base

    def append(self, topic, index, records, now, **kw):
        return _append_result(self.base)

    def topic_min_insync_replicas(self, t):
        return 1


class _Topic:
    name = "t"
    configs = {}
    partitions = [type("PS", (), {"isr": [0]})()]


@pytest.mark.parametrize("version", range(P.MIN_VERSION, P.MAX_VERSION + 1))
def test_produce_answer_equals_the_constructed_one(version):
    got = P._append(_Broker(41), _Topic(), 0, b"x", -1, 0, version)
    want = pr.PartitionProduceResponse(index=0, error_code=0, base_offset=41, log_append_time_ms=-1,
                                       log_start_offset=0)
    assert got == want
    name = "" if version >= 13 else "t"
    tid = TID if version >= 13 else uuid.UUID(int=0)
    resp_got = pr.ProduceResponse(responses=[pr.TopicProduceResponse(
        name=name, topic_id=tid, partition_responses=[got])])
    resp_want = pr.ProduceResponse(responses=[pr.TopicProduceResponse(
        name=name, topic_id=tid, partition_responses=[want])])
    assert _encoded(0, version, resp_got) == _encoded(0, version, resp_want)
    for slot in type(got).__slots__:
        getattr(got, slot)


def test_read_uuid_hands_out_one_object_per_id_and_stays_bounded():
    raw = TID.bytes
    buf = b"\xff" + raw + b"\x00" * 16
    a, end = primitives.read_uuid(buf, 1)
    b, _ = primitives.read_uuid(bytearray(buf), 1)
    assert a == TID and a is b and end == 17
    z, _ = primitives.read_uuid(buf, 17)
    assert z is primitives.ZERO_UUID
    for i in range(primitives._UUIDS_MAX + 10):
        u, _ = primitives.read_uuid(uuid.UUID(int=i + 1).bytes, 0)
        assert u == uuid.UUID(int=i + 1)
    assert len(primitives._UUIDS) <= primitives._UUIDS_MAX
    with pytest.raises(primitives.ProtocolDecodeError if hasattr(primitives, "ProtocolDecodeError")
                       else Exception):
        primitives.read_uuid(raw[:10], 0)


# -- the caught-up shortcut of the first read ------------------------------------------------

def _slots(r):
    return {k: getattr(r, k) for k in F._Read.__slots__}


def test_caught_up_read_is_the_full_read_or_defers_to_it(tmp_path):
    """``_caught_up`` gives exactly ``_read_partition``'s _Read for a caught-up partition and
    None (the full read decides) for everything else: data to read, a fenced or unknown leader
    epoch, a partition out of range, an offline log, read_committed below an open transaction."""
    import asyncio

    from kwire.broker.broker import Broker, now_ms
    from kwire.config import BrokerConfig
    from kwire.records.builder import build_batch

    cfg = BrokerConfig.load(None, {"log.dirs": str(tmp_path), "listeners": "PLAINTEXT://127.0.0.1:0"})

    async def main():
        b = Broker(cfg)
        b.start()
        try:
            b.create_topic("t", 2)
            for _ in range(3):
                b.append("t", 0, bytearray(build_batch([(b"k", b"v")])), now_ms())
            b.append("t", 1, bytearray(build_batch([(b"k", b"v")], producer_id=7, producer_epoch=0,
                                                   base_sequence=0, is_transactional=True)),
                     now_ms(), txn_verified=lambda pid, epoch: True)
            t = b.metadata.topic("t")
            epoch = t.partitions[0].leader_epoch
            logs_get = b.logs.get
            cases = [  # (partition, offset, leader epoch, isolation, shortcut expected)
                (0, 3, -1, 0, True), (0, 3, epoch, 0, True), (0, 3, epoch, 1, True),
                (0, 2, -1, 0, False), (0, 0, epoch, 0, False),
                (0, 3, epoch + 1, 0, False), (0, 3, epoch + 5, 0, False),
                (1, 1, -1, 0, True), (1, 0, -1, 1, True), (1, 1, -1, 1, False),
                (5, 0, -1, 0, False), (-1, 0, -1, 0, False),
            ]
            for p, offset, ep, iso, expected in cases:
                key = (t.topic_id, p)
                want = F._read_partition(b, t, True, key, offset, 1 << 20, True, iso, ep, 16)
                got = F._caught_up(logs_get, t, key, offset, ep, iso)
                assert (got is not None) == expected, (p, offset, ep, iso)
                if got is not None:
                    assert _slots(got) == _slots(want)
            b.logs.get("t", 0).offline = True  # a failed log dir: the full read answers it
            try:
                assert F._caught_up(logs_get, t, (t.topic_id, 0), 3, -1, 0) is None
            finally:
                b.logs.get("t", 0).offline = False
        finally:
            b.close()

    asyncio.run(main())


def test_empty_records_are_written_as_any_empty_record_set():
    """The shortcut for ``b""`` (a caught-up partition) writes what the general path writes for
    an empty buffer of another type, in both the compact and the int32-length form."""
    for write in (primitives.write_records, primitives.write_compact_records):
        short, general = bytearray(b"h"), bytearray(b"h")
        parts_short, parts_general = [], []
        write(short, parts_short, b"")
        write(general, parts_general, bytearray())
        assert short == general and parts_short == parts_general == []
    out = bytearray()
    primitives.write_compact_records(out, [], b"")
    assert primitives.read_compact_records(bytes(out), 0)[0] == b""
    out = bytearray()
    primitives.write_records(out, [], b"")
    assert bytes(primitives.read_records(bytes(out), 0)[0]) == b""


# -- answers with a fetch session (KIP-227) --------------------------------------------------

def _session_pair(keys):
    """Two identical session caches holding one session over ``keys``; (cache, session id) each."""
    import copy

    from kwire.broker.fetch_sessions import FetchSessionCache

    cache = FetchSessionCache(10)
    sid = cache.new_context(0, 0, [(k, 0, 1 << 20) for k in keys], []).session_id
    return (cache, copy.deepcopy(cache)), sid


def _session_state(cache, sid):
    s = cache._sessions[sid]
    return (s.epoch, sorted(s.dirty, key=repr), [(k, vars(c)) for k, c in s.partitions.items()])


@pytest.mark.parametrize("version", [7, 11, 12, 13, 16, 18])
def test_session_answers_are_the_generated_ones_and_record_the_same(version):
    """Full and incremental session answers, plain or not: the plain answer (``_answer``) is the
    generated one (``_response``) byte for byte, and both leave the session in the same state."""
    ref = TID if version >= 13 else "t"
    plain = _plain_reads(ref, "t")
    mixed = _reads(ref, "t", version)
    keys = [r.key for r in plain] + [r.key for r in mixed if r.key not in {p.key for p in plain}]
    (a, b), sid = _session_pair(keys)
    for results in (plain, plain, plain[:2], mixed, [], plain[1:3] + mixed[2:3]):
        for incremental in (False, True):
            epoch = a._sessions[sid].epoch
            req_epoch = epoch if incremental else 0
            ctx_a = a.new_context(sid if incremental else 0, req_epoch, [], [])
            ctx_b = b.new_context(sid if incremental else 0, req_epoch, [], [])
            got = F._answer(results, ctx_a, version)
            want = F._response(results, ctx_b, version)
            assert _encoded(1, version, got) == _encoded(1, version, want), (incremental, len(results))
            assert got.session_id == want.session_id == ctx_a.session_id
            if not incremental:  # a new full fetch opened another session: follow it
                sid = ctx_a.session_id
                assert ctx_b.session_id == sid
                for c in (a, b):
                    for k in keys:
                        c._sessions[sid].add(k, 0, 1 << 20)
            assert _session_state(a, sid) == _session_state(b, sid)


def test_incremental_answer_lists_only_what_changed():
    """An incremental answer leaves out a caught-up partition whose offsets were sent already,
    and keeps one with records, an error, or moved offsets (KIP-227), plain or not."""
    plain = _plain_reads(TID, "t")
    (a, _), sid = _session_pair([r.key for r in plain] + [(TID, 9)])
    F._answer(plain, a.new_context(sid, 1, [], []), 16)  # the client now knows these offsets
    again = F._answer(plain, a.new_context(sid, 2, [], []), 16)
    listed = [p.partition_index for t in again.responses for p in t.partitions]
    assert listed == [1, 2]  # the two with records; the caught-up 0 and 7 are left out
    moved = [_read((TID, 0), "t", 0, hw=11, lso=11, log_start=0)] + plain[1:]
    third = F._answer(moved, a.new_context(sid, 3, [], []), 16)
    assert isinstance(third, fetch_plain.PlainFetchResponse) and third.session_id == sid
    assert [p.partition_index for t in third.responses for p in t.partitions] == [0, 1, 2]
    err = [_read((TID, 9), "t", 9, error=6, leader=(3, 7))]
    fourth = F._answer(err, a.new_context(sid, 4, [], []), 16)
    assert type(fourth) is fr.FetchResponse and fourth.session_id == sid
    assert [p.error_code for t in fourth.responses for p in t.partitions] == [6]
