"""Record validation on produce, over TCP: poison refused, connections kept, readers safe.

* Raw Produce requests (kwire's own client, one connection) carrying batches
  whose header and CRC-32C are right but whose records are not: each answers
  the error Kafka would (INVALID_RECORD, INVALID_TIMESTAMP with record_errors
  on v8+, TRANSACTIONAL_ID_AUTHORIZATION_FAILED for transactional batches
  without a transactional id), the connection stays open and nothing is
  stored, so the next valid batch gets offset 0.
* Real clients: confluent-kafka and kafka-python produce through every codec
  and read back; confluent-kafka reads exactly what was acknowledged around a
  refused poison batch; ListOffsets by timestamp and by max timestamp (-3)
  keep working.
* Bad stored data: a batch corrupted straight in the segment file (bypassing
  produce) makes ListOffsets answer CORRUPT_MESSAGE for that partition while
  the connection and the other partitions keep working.
* A fuzz test mutates records (CRC recomputed) and sends them to a live
  broker: every answer is an error code or a success, the connection never
  closes, and whatever was accepted decodes from the segment files.
"""

from __future__ import annotations

import glob
import os
import struct
import time
import uuid

import pytest
from crc32c import crc32c
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clients import ConfluentClient, KafkaPythonClient, Msg, decoded_batches, make_msgs, wait_until
from kwire.client import KafkaClient, KafkaClientError, NewTopic
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.produce_request import (
    PartitionProduceData,
    ProduceRequest,
    TopicProduceData,
)
from kwire.records import batch
from kwire.records.builder import build_batch, encode_record
from kwire.records.compression import GZIP, LZ4, NONE, SNAPPY, ZSTD, compress
from kwire.records.decode import decode_batch, decode_batches
from mutations import mutate, mutation_ops

pytestmark = pytest.mark.timeout(240)

API_PRODUCE = 0
E = ErrorCode


def _fix(buf: bytearray, count: int | None = None) -> bytes:
    struct.pack_into(">i", buf, batch.BATCH_LENGTH, len(buf) - batch.LOG_OVERHEAD)
    if count is not None:
        struct.pack_into(">i", buf, batch.RECORDS_COUNT, count)
        struct.pack_into(">i", buf, batch.LAST_OFFSET_DELTA, count - 1)
    struct.pack_into(">I", buf, batch.CRC, crc32c(bytes(buf[batch.ATTRIBUTES:])))
    return bytes(buf)


def _with_section(section: bytes, count: int, codec: int = NONE) -> bytes:
    head = bytearray(build_batch([(b"k", b"v")])[: batch.HEADER_SIZE])
    struct.pack_into(">h", head, batch.ATTRIBUTES, codec)
    return _fix(head + section, count)


RECS = b"".join(encode_record(i, 0, b"k%d" % i, b"value") for i in range(3))


def poison_batches() -> list[tuple[str, bytes, int]]:
    """(name, batch bytes with a correct CRC, error code Kafka-like brokers answer)."""
    flipped = bytearray(build_batch([(b"k", b"v" * 20)] * 3))
    flipped[batch.HEADER_SIZE] ^= 0x7F  # the first record's length varint
    return [
        ("zstd garbage", _with_section(b"\x13\x37" * 40, 3, ZSTD), E.INVALID_RECORD),
        ("gzip garbage", _with_section(b"\x1f\x8b" + b"\x00" * 30, 3, GZIP), E.INVALID_RECORD),
        ("lz4 bit on plain records", _with_section(RECS, 3, LZ4), E.INVALID_RECORD),
        ("snappy bit on plain records", _with_section(RECS, 3, SNAPPY), E.INVALID_RECORD),
        ("count 2^31-1", _with_section(RECS, 2**31 - 1), E.INVALID_RECORD),
        ("count too low", _with_section(RECS, 2), E.INVALID_RECORD),
        ("count lies in zstd", _with_section(compress(ZSTD, RECS), 5, ZSTD), E.INVALID_RECORD),
        ("flipped length byte", _fix(flipped), E.INVALID_RECORD),
        ("truncated record", _with_section(RECS[:-2], 3), E.INVALID_RECORD),
        ("offset deltas 0,2,1", _with_section(b"".join(encode_record(d, 0, b"k", b"v")
                                                        for d in (0, 2, 1)), 3), E.INVALID_RECORD),
    ]


def _produce(c: KafkaClient, topic: str, records: bytes, version: int,
             transactional_id: str | None = None):
    """One raw Produce (acks=-1) for partition 0 at ``version``; the partition's response."""
    req = ProduceRequest(transactional_id=transactional_id, acks=-1, timeout_ms=10000,
                         topic_data=[TopicProduceData(name=topic, partition_data=[
                             PartitionProduceData(index=0, records=records)])])
    resp = c.request(API_PRODUCE, req, version=version)
    return resp.responses[0].partition_responses[0]


def _conn(c: KafkaClient):
    conns = [x for x in c._conns.values() if x.is_open]
    assert len(conns) == 1
    return conns[0]


@pytest.fixture
def client(broker):
    with KafkaClient(broker.bootstrap, timeout=20) as c:
        yield c


def _topic(c: KafkaClient, partitions: int = 1, **configs) -> str:
    name = f"valid-{uuid.uuid4().hex[:8]}"
    c.create_topics([NewTopic(name, num_partitions=partitions, replication_factor=1,
                              configs={k.replace("_", "."): str(v) for k, v in configs.items()})])
    return name


@pytest.mark.parametrize("version", [7, 9, 12])
def test_poison_batches_are_refused_on_one_connection(broker, client, version):
    topic = _topic(client)
    conn = _conn(client)
    for name, buf, code in poison_batches():
        r = _produce(client, topic, buf, version)
        assert r.error_code == code, (name, r)
        assert r.base_offset == -1, name
        if version >= 8:
            assert r.error_message, name
    assert _conn(client) is conn and conn.is_open  # never disconnected
    r = _produce(client, topic, build_batch([(b"k", b"ok")]), version)
    assert (r.error_code, r.base_offset) == (0, 0)  # nothing of the poison was stored
    stored = [b for _, b in decoded_batches(broker.data_dir, topic)]
    assert [[rec.value for rec in b.records] for b in stored] == [[b"ok"]]


def test_record_errors_name_the_records(client):
    topic = _topic(client, cleanup_policy="compact")
    buf = build_batch([(b"a", b"1"), (None, b"2"), (b"c", b"3"), (None, b"4")])
    r = _produce(client, topic, buf, 12)
    assert r.error_code == E.INVALID_RECORD
    assert [(e.batch_index, e.batch_index_error_message) for e in r.record_errors] == [
        (1, "Compacted topic cannot accept message without key"),
        (3, "Compacted topic cannot accept message without key")]
    assert r.error_message.startswith("One or more records have been rejected due to 2 record")
    r7 = _produce(client, topic, buf, 7)  # v7 has neither field; the code is the same
    assert r7.error_code == E.INVALID_RECORD

    topic = _topic(client, message_timestamp_before_max_ms=60_000)
    now = int(time.time() * 1000)
    buf = build_batch([(b"a", b"1", [], now), (b"b", b"2", [], now - 3_600_000), (b"c", b"3", [], now)])
    r = _produce(client, topic, buf, 12)
    assert r.error_code == E.INVALID_TIMESTAMP
    assert [e.batch_index for e in r.record_errors] == [1]
    assert r.record_errors[0].batch_index_error_message.startswith(
        f"Timestamp {now - 3_600_000} of message with offset 1 is out of range")
    assert r.error_message == "One or more records have been rejected due to invalid timestamp"


def test_transactional_batches_are_refused(broker, client):
    topic = _topic(client)
    txn = build_batch([(b"k", b"in a transaction")], producer_id=1, producer_epoch=0,
                      base_sequence=0, is_transactional=True)
    for version in (9, 12):
        r = _produce(client, topic, txn, version)
        assert r.error_code == E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, version
        # with a transactional id but not added to a transaction: refused. v9 (old protocol):
        # INVALID_TXN_STATE. v12 (transactions v2) adds the partition implicitly, which the
        # coordinator refuses for a transactional id never initialized: INVALID_PRODUCER_ID_MAPPING
        r = _produce(client, topic, txn, version, transactional_id="t1")
        assert r.error_code == (E.INVALID_TXN_STATE if version <= 10 else E.INVALID_PRODUCER_ID_MAPPING), version
    assert decoded_batches(broker.data_dir, topic) == []


def test_confluent_consumer_reads_exactly_what_was_acknowledged(broker, client):
    """Valid, poison, valid: a read_committed and a read_uncommitted consumer see only the valid."""
    cc = ConfluentClient(broker.bootstrap)
    topic = _topic(client)
    first = cc.produce(topic, [Msg(b"k%d" % i, b"first-%d" % i, partition=0) for i in range(10)],
                       compression="zstd")
    for _, buf, _code in poison_batches():
        assert _produce(client, topic, buf, 9).error_code != 0
    txn = build_batch([(b"k", b"txn")], producer_id=1, producer_epoch=0, base_sequence=0,
                      is_transactional=True)
    assert _produce(client, topic, txn, 9).error_code != 0
    second = cc.produce(topic, [Msg(b"k%d" % i, b"second-%d" % i, partition=0) for i in range(10)],
                        compression="lz4")
    acked = [(r.offset, r.value) for r in first + second]
    assert [o for o, _ in acked] == list(range(20))
    assert cc.end_offsets(topic, [0]) == {0: 20}
    got = cc.consume(topic, [0], 20)
    assert [(r.offset, r.value) for r in got] == acked
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "v-" + topic,
                  "isolation.level": "read_committed", "enable.auto.commit": False})
    try:
        c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        seen = []
        deadline = time.monotonic() + 20
        while len(seen) < 20 and time.monotonic() < deadline:
            for m in c.consume(num_messages=100, timeout=0.2):
                assert m.error() is None, m.error()
                seen.append((m.offset(), m.value()))
        assert seen == acked
    finally:
        c.close()
    # ListOffsets keep working around the refused batches
    ts = [r.timestamp for r in first + second]
    found = cc.offsets_for_times(topic, {0: ts[12]})
    assert found[0] is not None and ts[found[0]] >= ts[12] and all(t < ts[12] for t in ts[:found[0]])
    off, mts = client.list_offsets(topic, 0, -3)
    assert mts == max(ts) and ts[off] == mts


@pytest.mark.parametrize("codec", ["none", "gzip", "snappy", "lz4", "zstd"])
def test_valid_path_every_codec_both_clients(broker, client, codec):
    topic = _topic(client, partitions=2)
    cc, kp = ConfluentClient(broker.bootstrap), KafkaPythonClient(broker.bootstrap)
    sent = []
    for cl in (cc, kp):
        if cl.codecs().get(codec):
            continue
        msgs = make_msgs(40, tag=cl.name, pad=64, partitions=2)
        sent += [(r.partition, r.offset, r.value) for r in cl.produce(topic, msgs, compression=codec)]
    got = cc.consume(topic, [0, 1], len(sent))
    assert sorted((r.partition, r.offset, r.value) for r in got) == sorted(sent)
    codec_id = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}[codec]
    assert any(b.header.compression == codec_id for _, b in decoded_batches(broker.data_dir, topic))


def _segment(data_dir: str, topic: str, partition: int) -> str:
    return sorted(glob.glob(os.path.join(data_dir, f"{topic}-{partition}", "*.log")))[0]


@pytest.mark.parametrize("damage", ["lying count, CRC fixed", "flipped bytes, stale CRC"])
def test_list_offsets_survives_a_corrupt_stored_batch(make_broker, caplog, damage):
    b = make_broker()
    with KafkaClient(b.bootstrap, timeout=20) as c:
        topic = _topic(c, partitions=2)
        now = int(time.time() * 1000)
        # per partition: offsets 0-3 (ts now+0..3), 4-7 zstd (now+10..13), 8-11 (now+20..23)
        for p in (0, 1):
            for i in range(3):
                c.produce(topic, p, build_batch([(b"k", b"v%d" % j, [], now + 10 * i + j)
                                                 for j in range(4)],
                                                compression=ZSTD if i == 1 else NONE))
        conn = _conn(c)
        # rewrite partition 0's middle batch in its segment file, behind the broker's back
        path = _segment(b.data_dir, topic, 0)
        with open(path, "r+b") as f:
            data = f.read()
            pos = batch.LOG_OVERHEAD + struct.unpack_from(">i", data, batch.BATCH_LENGTH)[0]
            size = batch.LOG_OVERHEAD + struct.unpack_from(">i", data, pos + batch.BATCH_LENGTH)[0]
            one = bytearray(data[pos:pos + size])
            if damage.startswith("lying"):
                struct.pack_into(">i", one, batch.RECORDS_COUNT, 2**31 - 1)
                struct.pack_into(">I", one, batch.CRC, crc32c(bytes(one[batch.ATTRIBUTES:])))
            else:
                for k in range(batch.HEADER_SIZE, size, 3):
                    one[k] ^= 0x55
            f.seek(pos)
            f.write(one)
        with pytest.raises(KafkaClientError) as ei:
            c.list_offsets(topic, 0, now + 12)  # the answer lies in the damaged batch
        assert ei.value.code == E.CORRUPT_MESSAGE
        assert f"corrupt record batch in {path} at position {pos}" in caplog.text
        assert _conn(c) is conn and conn.is_open  # the connection is kept
        assert c.list_offsets(topic, 1, now + 12) == (6, now + 12)  # the healthy partition
        assert c.list_offsets(topic, 0, now + 1) == (1, now + 1)  # before the damage
        assert c.list_offsets(topic, 0, now + 21) == (9, now + 21)  # after it: header skips it
        assert c.list_offsets(topic, 0, -3) == (11, now + 23)
        assert c.list_offsets(topic, 0, -1)[0] == 12
        assert _conn(c) is conn and conn.is_open


# -- fuzz: record-level mutations, CRC recomputed, against a live broker -------------------


FUZZ = {"topic": None, "client": None, "sent": 0, "accepted": 0}


@pytest.fixture(scope="module")
def fuzz_client(broker):
    c = KafkaClient(broker.bootstrap, timeout=20)
    FUZZ["topic"] = _topic(c, cleanup_policy="compact,delete")
    FUZZ["client"] = c
    yield c
    c.close()


@pytest.mark.parametrize("codec", [NONE, GZIP, SNAPPY, LZ4, ZSTD])
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(ops=mutation_ops(400, max_size=3),
       count_shift=st.sampled_from([0, 0, 0, 1, -1]))
def test_fuzz_live_broker_never_disconnects_or_stores_poison(broker, fuzz_client, codec, ops,
                                                             count_shift):
    c, topic = fuzz_client, FUZZ["topic"]
    now = int(time.time() * 1000)
    good = build_batch([(b"key", b"value", [("h", b"x")], now), (b"k2", b"v" * 30, [], now + 1),
                        (b"k3", None, [], now - 1)], compression=codec)
    section = mutate(good[batch.HEADER_SIZE:], ops)
    buf = _fix(bytearray(good[: batch.HEADER_SIZE]) + section, 3 + count_shift)
    conn = _conn(c)
    r = _produce(c, topic, buf, 12)
    FUZZ["sent"] += 1
    assert _conn(c) is conn and conn.is_open
    if r.error_code == 0:
        FUZZ["accepted"] += 1
        decode_batch(c.fetch(topic, 0, r.base_offset, max_wait_ms=0))  # what was stored decodes
    else:
        assert r.error_code in (E.INVALID_RECORD, E.INVALID_TIMESTAMP, E.CORRUPT_MESSAGE), r


def test_fuzz_left_only_decodable_batches(broker, fuzz_client):
    """Runs after the fuzz (same module): every stored batch of the fuzz topic decodes."""
    batches = decoded_batches(broker.data_dir, FUZZ["topic"])
    assert len(batches) == FUZZ["accepted"]
    print(f"fuzz: {FUZZ['sent']} mutated batches sent, {FUZZ['accepted']} accepted")


def test_confluent_keyless_records_to_a_compacted_topic_fail(broker, client):
    """librdkafka reports INVALID_RECORD per message (PITFALLS: its tests count these)."""
    from confluent_kafka import KafkaError, Producer

    topic = _topic(client, cleanup_policy="compact")
    p = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5, "retries": 0,
                  "message.timeout.ms": 20000})
    reports = []
    for i in range(6):
        p.produce(topic, key=None if i % 2 else b"k%d" % i, value=b"v%d" % i, partition=0,
                  on_delivery=lambda err, m: reports.append((m.value(), err)))
        p.flush(20)  # one batch per message: a keyless record fails only its own batch
    assert p.flush(20) == 0
    errors = {v: (e.code() if e else None) for v, e in reports}
    assert errors == {b"v0": None, b"v1": KafkaError.INVALID_RECORD, b"v2": None,
                      b"v3": KafkaError.INVALID_RECORD, b"v4": None, b"v5": KafkaError.INVALID_RECORD}
    stored = [r.value for _, b in decoded_batches(broker.data_dir, topic) for r in b.records]
    assert stored == [b"v0", b"v2", b"v4"]
