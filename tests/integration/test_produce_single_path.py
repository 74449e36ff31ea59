"""The single-partition Produce fast path answers exactly as the generic path does.

``kwire.server.connection`` answers a Produce of one topic, one partition and
no transactional id without building the generated request and response
objects (``kwire.protocol.produce_single``, ``produce.append_single``). Two
in-process brokers, one with the fast path (the default) and one without it
(``server.fast_paths = False``, the generic path, the reference), get the same
sequence of raw requests over TCP for each Produce version; every answer must
be the same bytes (the topic id, which differs between the brokers, swapped
back), and the records must land at the same offsets:

* success with acks=-1 and acks=1, acks=0 (no answer; the next one still in
  order), an invalid acks value;
* an unknown topic (by name, or by id from v13), a partition out of range,
  a batch with a bad CRC, null records;
* an idempotent producer: a first batch, the same batch again (a duplicate,
  acknowledged with its first offsets), a sequence gap (OUT_OF_ORDER_SEQUENCE_NUMBER);
* a transactional batch without a transactional id (refused for the request);
* two partitions in one request (the generic path on both brokers);
* a failed log write (``faults.arm("log")``: KAFKA_STORAGE_ERROR, NOT_LEADER_OR_FOLLOWER
  to v3), after which the next append lands where the failed one would have.

The fast broker must actually have taken the fast path for the single-partition
requests (a counting wrapper around ``append_single``). The frame is read by the
compiled ``produce_frame`` and, in a second round, by its Python twin
(``produce_single.decode_frame``); and every case is also sent pipelined (all
frames in one write, so the broker handles several per read and answers them
together), with the same answers.
"""

from __future__ import annotations

import errno
import itertools
import re

import pytest

from kwire.handlers import produce as produce_handler
from kwire.log import faults
from kwire.server import connection as server_connection
from kwire.protocol import codec
from kwire.protocol.generated.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from kwire.records.builder import build_batch
from kwire.records import scan
from kwire.records.decode import decode_batches

from test_faults import Raw, versions
from test_wire_fetch import CLIENT_ID, FETCH, PRODUCE, create_topic_raw, fetch_request

pytestmark = pytest.mark.timeout(60)

TS = 1_700_000_000_000


def _batch(i: int, **kw) -> bytes:
    return build_batch([(f"k{i}".encode(), bytes(100 + i), [], TS + i)], **kw)


def _corrupt() -> bytes:
    b = bytearray(_batch(0))
    b[-1] ^= 0xFF  # a record byte: the CRC-32C no longer matches
    return bytes(b)


FAILED_WRITE = "failed log write"  # sent one at a time only: the fault is armed just before it


def _cases():
    """(label, acks, [(partition, records)], transactional id) in the order they are sent."""
    pid = 4242
    return [
        ("acks=all", -1, [(0, _batch(1))], None),
        ("acks=1", 1, [(1, _batch(2))], None),
        ("acks=0", 0, [(0, _batch(3))], None),
        ("after acks=0", -1, [(0, _batch(4))], None),
        ("invalid acks", 7, [(0, _batch(5))], None),
        ("partition out of range", -1, [(99, _batch(6))], None),
        ("bad crc", -1, [(0, _corrupt())], None),
        ("null records", -1, [(0, None)], None),
        ("idempotent first", -1, [(1, _batch(7, producer_id=pid, producer_epoch=0, base_sequence=0))], None),
        ("idempotent duplicate", -1, [(1, _batch(7, producer_id=pid, producer_epoch=0, base_sequence=0))],
         None),
        ("idempotent gap", -1, [(1, _batch(8, producer_id=pid, producer_epoch=0, base_sequence=5))], None),
        ("transactional without id", -1, [(0, _batch(9, producer_id=pid + 1, producer_epoch=0, base_sequence=0,
                                                      is_transactional=True))], None),
        ("two partitions", -1, [(0, _batch(10)), (1, _batch(11))], None),
        (FAILED_WRITE, -1, [(0, _batch(14))], None),
        ("last", -1, [(0, _batch(12))], None),
    ]


def _request(version, topic, topic_id, acks, parts, tid):
    return ProduceRequest(transactional_id=tid, acks=acks, timeout_ms=10_000, topic_data=[TopicProduceData(
        name="" if version >= 13 else topic, topic_id=topic_id if version >= 13 else None,
        partition_data=[PartitionProduceData(index=p, records=r) for p, r in parts])])


def _exchange(bootstrap, version, topic, topic_id, unknown_id, pipelined=False):
    """Send every case (and one to an unknown topic) on one connection; the raw answers.
    ``pipelined``: every frame in one write, the answers read after (no failed-write case)."""
    answers = []
    corr = itertools.count(1)
    cases = [c for c in _cases() if not (pipelined and c[0] == FAILED_WRITE)]
    with Raw(bootstrap, timeout=30) as raw:
        frames = []
        for label, acks, parts, tid in cases:
            frames.append(codec.encode_request(PRODUCE, version, next(corr), CLIENT_ID,
                                               _request(version, topic, topic_id, acks, parts, tid)))
            if not pipelined:
                if label == FAILED_WRITE:
                    faults.arm("log", errno.EIO, count=1)
                try:
                    raw.send(frames.pop())
                    if acks != 0:
                        answers.append((label, raw.read_frame()))
                finally:
                    faults.disarm("log")
        frames.append(codec.encode_request(PRODUCE, version, next(corr), CLIENT_ID, _request(
            version, topic + "-missing", unknown_id, -1, [(0, _batch(13))], None)))
        if pipelined:
            raw.send(b"".join(frames))
            answers = [(label, raw.read_frame()) for label, acks, _, _ in cases if acks != 0]
        else:
            raw.send(frames.pop())
        answers.append(("unknown topic", raw.read_frame()))
        fv = 12 if version < 13 else 13
        raw.send(codec.encode_request(FETCH, fv, 999, CLIENT_ID, fetch_request(fv, topic, topic_id, {0: 0, 1: 0})))
        _, fetched = codec.decode_response(FETCH, fv, raw.read_frame())
    offsets = {p.partition_index: [(r.offset, r.key) for b in decode_batches(bytes(p.records)) for r in b.records]
               for t in fetched.responses for p in t.partitions}
    return answers, offsets


@pytest.mark.parametrize("reader", ["compiled", "python"])
def test_fast_and_generic_produce_answers_are_the_same_bytes(make_broker, monkeypatch, reader):
    if reader == "compiled":  # the test environment builds the C helper: its absence fails
        assert scan.c_produce_frame is not None
        monkeypatch.setattr(server_connection, "_c_produce_frame", scan.c_produce_frame)
    else:  # the twin the connection uses without the C helper (or with KWIRE_NO_EXTENSIONS=1)
        monkeypatch.setattr(server_connection, "_c_produce_frame", None)
    fast, slow = make_broker(), make_broker()
    slow.server.fast_paths = False
    calls = []
    real = produce_handler.append_single

    def counting(*a, **kw):
        calls.append(a[1])
        return real(*a, **kw)
    monkeypatch.setattr(produce_handler, "append_single", counting)
    lo, hi = versions(fast.bootstrap)[PRODUCE]
    checked = []
    for version in sorted({max(lo, 3), 5, 7, 8, 9, 10, 11, 12, hi}):
        if not lo <= version <= hi:
            continue
        for pipelined in (False, True):
            topic = f"single-path-v{version}{'-pipelined' if pipelined else ''}"
            _check_version(fast, slow, calls, version, topic, pipelined)
        checked.append(version)
    assert len(checked) >= 5, checked


def _check_version(fast, slow, calls, version, topic, pipelined):
    ids = [create_topic_raw(b.bootstrap, topic, partitions=2) for b in (fast, slow)]
    unknown = __import__("uuid").UUID(int=version + 1)
    before = len(calls)
    got_fast, offsets_fast = _exchange(fast.bootstrap, version, topic, ids[0], unknown, pipelined)
    got_slow, offsets_slow = _exchange(slow.bootstrap, version, topic, ids[1], unknown, pipelined)
    assert len(calls) - before >= 9, "the fast broker did not take the single-partition path"
    assert [label for label, _ in got_fast] == [label for label, _ in got_slow]
    for (label, a), (_, b) in zip(got_fast, got_slow):
        b = b.replace(ids[1].bytes, ids[0].bytes)
        if label == FAILED_WRITE:  # the message names the broker's own log file (same length)
            a, b = (re.sub(rb"/data-\d+/", b"/data-N/", x) for x in (a, b))
        assert a == b, f"v{version} {label}: fast {a.hex()} != generic {b.hex()}"
    assert offsets_fast == offsets_slow and offsets_fast[0] and offsets_fast[1]
    # the answers say what they should, not merely the same on both
    by_label = {label: codec.decode_response(PRODUCE, version, a)[1] for label, a in got_fast}
    codes = {label: [p.error_code for t in r.responses for p in t.partition_responses]
             for label, r in by_label.items()}
    assert codes["acks=all"] == codes["acks=1"] == codes["after acks=0"] == codes["last"] == [0]
    assert codes["invalid acks"] == [21]  # INVALID_REQUIRED_ACKS
    assert codes["partition out of range"] == [3]
    assert codes["bad crc"] == [2]  # CORRUPT_MESSAGE
    assert codes["null records"] == [87]  # INVALID_RECORD
    assert codes["idempotent first"] == codes["idempotent duplicate"] == [0]
    assert codes["idempotent gap"] == [45]  # OUT_OF_ORDER_SEQUENCE_NUMBER
    assert codes["transactional without id"] == [53]  # TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    assert codes["two partitions"] == [0, 0]
    assert codes["unknown topic"] == [100 if version >= 13 else 3]
    first = by_label["idempotent first"].responses[0].partition_responses[0].base_offset
    dup = by_label["idempotent duplicate"].responses[0].partition_responses[0].base_offset
    assert first == dup
    if not pipelined:  # KAFKA_STORAGE_ERROR (NOT_LEADER_OR_FOLLOWER to v3), and all or nothing:
        assert codes[FAILED_WRITE] == [6 if version <= 3 else 56]
        before_fail = by_label["two partitions"].responses[0].partition_responses[0].base_offset
        last = by_label["last"].responses[0].partition_responses[0].base_offset
        assert last == before_fail + 1  # the failed append left no offset behind
        assert [k for _, k in offsets_fast[0]].count(b"k14") == 0


def test_topic_configs_on_the_single_partition_path(make_broker):
    """min.insync.replicas above the ISR (one node): acks=all answers NOT_ENOUGH_REPLICAS and
    acks=1 appends, the same bytes on both paths; LogAppendTime: the answer carries the
    broker's append time, which the stored batch carries too."""
    fast, slow = make_broker(), make_broker()
    slow.server.fast_paths = False
    version = min(versions(fast.bootstrap)[PRODUCE][1], 12)
    got = []
    for b in (fast, slow):
        create_topic_raw(b.bootstrap, "min-isr", partitions=1, configs={"min.insync.replicas": "2"})
        with Raw(b.bootstrap, timeout=30) as raw:
            answers = []
            for corr, acks in ((1, -1), (2, 1), (3, -1)):
                raw.send(codec.encode_request(PRODUCE, version, corr, CLIENT_ID,
                                              _request(version, "min-isr", None, acks, [(0, _batch(corr))], None)))
                answers.append(raw.read_frame())
        got.append(answers)
    assert got[0] == got[1]
    codes = [codec.decode_response(PRODUCE, version, a)[1].responses[0].partition_responses[0].error_code
             for a in got[0]]
    assert codes == [19, 0, 19]  # NOT_ENOUGH_REPLICAS, the acks=1 append, again

    create_topic_raw(fast.bootstrap, "append-time", partitions=1,
                     configs={"message.timestamp.type": "LogAppendTime"})
    with Raw(fast.bootstrap, timeout=30) as raw:
        raw.send(codec.encode_request(PRODUCE, version, 1, CLIENT_ID,
                                      _request(version, "append-time", None, -1, [(0, _batch(1))], None)))
        answer = codec.decode_response(PRODUCE, version, raw.read_frame())[1]
        part = answer.responses[0].partition_responses[0]
        fv = 12
        raw.send(codec.encode_request(FETCH, fv, 2, CLIENT_ID, fetch_request(fv, "append-time", None, {0: 0})))
        _, fetched = codec.decode_response(FETCH, fv, raw.read_frame())
    (batch,) = decode_batches(bytes(fetched.responses[0].partitions[0].records))
    assert part.error_code == 0 and part.log_append_time_ms > TS + 1000
    assert batch.header.max_timestamp == part.log_append_time_ms
