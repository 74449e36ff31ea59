"""Hostile and broken input over raw sockets, while a well-behaved client keeps working.

Every test runs ``GoodClient`` (a kafka-python producer and consumer in
background threads, idempotent acks=all, no consumer group) on the module's
broker, waits until it is moving, throws something at the broker over a raw
socket, waits until the good client has moved on again, and then checks:

* the broker still answers a fresh connection;
* the good client never saw an error;
* its topic holds exactly what it produced, at offsets 0..n-1 (a refused raw
  produce aimed at the same partitions must leave no trace);
* the broker logged nothing at ERROR (internal failures), only warnings for
  the connections it closed.

What is thrown: random bytes, truncated frames, a size prefix larger than the
bytes sent, a 2 GB size prefix (closed: ``socket.request.max.bytes``), unknown
API keys, unsupported Produce/Fetch versions (closed), an unsupported
ApiVersions version (answered in v0 with UNSUPPORTED_VERSION and the ranges),
produces with a corrupt CRC (CORRUPT_MESSAGE) and of magic-1 messages
(INVALID_RECORD, Kafka's answer for non-v2 batches on produce v3+), frames
with a good header and a garbage body. Also the idempotent producer's
guarantees on the raw protocol (a resent batch is acknowledged at its first
offset and stored once; a sequence gap is OUT_OF_ORDER_SEQUENCE_NUMBER) and
pipelining (100 requests on one socket answered in order, with a long-poll
fetch in the middle holding back the responses behind it).
"""

from __future__ import annotations

import logging
import random
import socket
import struct
import threading
import time
import traceback
import zlib

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient

from kwire.protocol import codec
from kwire.protocol.generated.api_versions_request import ApiVersionsRequest
from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
from kwire.protocol.generated.init_producer_id_request import InitProducerIdRequest
from kwire.protocol.generated.list_offsets_request import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsTopic,
)
from kwire.protocol.generated.metadata_request import MetadataRequest, MetadataRequestTopic
from kwire.protocol.generated.produce_request import (
    PartitionProduceData,
    ProduceRequest,
    TopicProduceData,
)
from kwire.records.builder import build_batch

pytestmark = pytest.mark.timeout(120)

PRODUCE, FETCH, LIST_OFFSETS, METADATA, API_VERSIONS, INIT_PRODUCER_ID = 0, 1, 2, 3, 18, 22
NONE, CORRUPT_MESSAGE, UNSUPPORTED_VERSION = 0, 2, 35
OUT_OF_ORDER_SEQUENCE_NUMBER, INVALID_RECORD = 45, 87
GOOD_PARTITIONS = 2


# -- raw protocol -------------------------------------------------------------------------

def _addr(bootstrap: str) -> tuple[str, int]:
    host, port = bootstrap.rsplit(":", 1)
    return host, int(port)


def raw_header(api_key: int, version: int, correlation_id: int, flexible: bool,
               client_id: str = "kwire-fault") -> bytes:
    """A request header written by hand (v1, or v2 when ``flexible``), for keys/versions codec refuses."""
    cid = client_id.encode()
    out = struct.pack(">hhih", api_key, version, correlation_id, len(cid)) + cid
    return out + (b"\x00" if flexible else b"")


def frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


class Raw:
    """One raw connection: send frames, read frames, notice being closed."""

    def __init__(self, bootstrap: str, timeout: float = 10) -> None:
        self.sock = socket.create_connection(_addr(bootstrap), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._corr = 0

    def __enter__(self) -> "Raw":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def next_corr(self) -> int:
        self._corr += 1
        return self._corr

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _exact(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError(f"closed by the broker after {len(buf)} of {n} bytes")
            buf += chunk
        return bytes(buf)

    def read_frame(self) -> bytes:
        (size,) = struct.unpack(">i", self._exact(4))
        return self._exact(size)

    def request(self, api_key: int, version: int, obj):
        corr = self.next_corr()
        self.send(codec.encode_request(api_key, version, corr, "kwire-fault", obj))
        got_corr, resp = codec.decode_response(api_key, version, self.read_frame())
        assert got_corr == corr, f"correlation id {got_corr}, sent {corr}"
        return resp

    def closed_by_broker(self, timeout: float = 5) -> bytes:
        """Wait for the broker to close; return whatever it sent first (b"" if nothing)."""
        self.sock.settimeout(timeout)
        received = bytearray()
        deadline = time.monotonic() + timeout
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return bytes(received)
                received += chunk
                if time.monotonic() > deadline:
                    break
        except (ConnectionResetError, BrokenPipeError):
            return bytes(received)
        except socket.timeout:
            pass
        raise AssertionError(f"broker did not close the connection within {timeout}s "
                             f"(received {len(received)} bytes)")

    def answer_or_close(self, timeout: float = 5) -> bytes | None:
        """The next response frame, or None when the broker closes the connection instead."""
        self.sock.settimeout(timeout)
        try:
            return self.read_frame()
        except (ConnectionError, ConnectionResetError, BrokenPipeError):
            return None
        except socket.timeout:
            raise AssertionError(f"broker neither answered nor closed within {timeout}s") from None


_versions_cache: dict[str, dict[int, tuple[int, int]]] = {}


def versions(bootstrap: str) -> dict[int, tuple[int, int]]:
    if bootstrap not in _versions_cache:
        with Raw(bootstrap) as r:
            resp = r.request(API_VERSIONS, 3, ApiVersionsRequest(client_software_name="kwire-fault",
                                                                 client_software_version="1"))
        assert resp.error_code == NONE
        _versions_cache[bootstrap] = {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys}
    return _versions_cache[bootstrap]


def pick(bootstrap: str, api_key: int, at_most: int) -> int:
    lo, hi = versions(bootstrap)[api_key]
    v = min(hi, at_most)
    assert v >= lo, f"api {api_key}: need a version <= {at_most}, broker has {lo}-{hi}"
    return v


def assert_serving(bootstrap: str) -> None:
    with Raw(bootstrap, timeout=10) as r:
        resp = r.request(API_VERSIONS, 3, ApiVersionsRequest(client_software_name="kwire-fault",
                                                             client_software_version="1"))
        assert resp.error_code == NONE


def produce_raw(r: Raw, bootstrap: str, topic: str, partition: int, records: bytes, acks: int = -1):
    """One produce of ``records`` (raw bytes) to one partition -> its PartitionProduceResponse."""
    v = pick(bootstrap, PRODUCE, 12)  # v13 addresses topics by id
    req = ProduceRequest(transactional_id=None, acks=acks, timeout_ms=10_000, topic_data=[
        TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=records)])])
    resp = r.request(PRODUCE, v, req)
    (t,) = resp.responses
    (p,) = t.partition_responses
    assert p.index == partition
    return p


def idempotent_producer(r: Raw, bootstrap: str):
    """InitProducerId (no transactional id) -> ``batch(seq, keys)``, a builder of that
    producer's batches: one record per key, value ``b"v-" + key``, first sequence ``seq``."""
    ipid = r.request(INIT_PRODUCER_ID, pick(bootstrap, INIT_PRODUCER_ID, 4),
                     InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=60_000))
    assert ipid.error_code == NONE and ipid.producer_id >= 0, ipid
    pid, epoch = ipid.producer_id, ipid.producer_epoch

    def batch(seq: int, keys: list[bytes]) -> bytes:
        return build_batch([(k, b"v-" + k, [], None) for k in keys], producer_id=pid,
                           producer_epoch=epoch, base_sequence=seq)

    return batch


def legacy_message_v1(key: bytes | None, value: bytes | None, timestamp: int, offset: int = 0) -> bytes:
    """A magic-1 message (Kafka's LegacyRecord) in a v1 message set::

        offset int64 | size int32 | crc int32 (CRC-32 of the rest) | magic int8 = 1 |
        attributes int8 | timestamp int64 | key bytes | value bytes
    """
    def b(x):
        return struct.pack(">i", -1) if x is None else struct.pack(">i", len(x)) + x

    body = struct.pack(">bbq", 1, 0, timestamp) + b(key) + b(value)
    msg = struct.pack(">I", zlib.crc32(body)) + body
    return struct.pack(">qi", offset, len(msg)) + msg


# -- the well-behaved client ------------------------------------------------------------------

def create_topic(bootstrap: str, name: str, partitions: int) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
    try:
        admin.create_topics({name: {"num_partitions": partitions, "replication_factor": 1}})
    finally:
        admin.close()


class GoodClient:
    """kafka-python producing and consuming ``topic`` in two threads until ``finish()``."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self.bootstrap, self.topic = bootstrap, topic
        create_topic(bootstrap, topic, GOOD_PARTITIONS)
        self.produced: list[tuple[int, int, bytes, bytes]] = []
        self.consumed: list[tuple[int, int, bytes, bytes]] = []
        self.errors: list[str] = []
        self.end_offsets: dict[int, int] | None = None
        self._cond = threading.Condition()
        self._stop_producing = threading.Event()
        self._stop_consuming = threading.Event()
        self._producer = threading.Thread(target=self._produce, name="good-producer", daemon=True)
        self._consumer = threading.Thread(target=self._consume, name="good-consumer", daemon=True)
        self._producer.start()
        self._consumer.start()

    def _fail(self, what: str) -> None:
        with self._cond:
            self.errors.append(f"{what}:\n{traceback.format_exc()}")
            self._cond.notify_all()

    def _produce(self) -> None:
        try:
            producer = KafkaProducer(bootstrap_servers=self.bootstrap, linger_ms=2, request_timeout_ms=10_000,
                                     delivery_timeout_ms=30_000, max_block_ms=10_000)
        except Exception:
            self._fail("producer start")
            return
        i = 0
        try:
            while not self._stop_producing.is_set():
                pending = []
                for _ in range(5):
                    key = f"good-{i}".encode()
                    value = (f"value-{i}-" * (1 + i % 40)).encode()
                    pending.append((key, value, producer.send(self.topic, key=key, value=value,
                                                              partition=i % GOOD_PARTITIONS)))
                    i += 1
                for key, value, fut in pending:
                    md = fut.get(timeout=30)
                    with self._cond:
                        self.produced.append((md.partition, md.offset, key, value))
                        self._cond.notify_all()
        except Exception:
            self._fail("producer")
        finally:
            producer.close(timeout=10)

    def _consume(self) -> None:
        try:
            consumer = KafkaConsumer(bootstrap_servers=self.bootstrap, group_id=None, enable_auto_commit=False,
                                     request_timeout_ms=15_000, fetch_max_wait_ms=100)
            tps = [TopicPartition(self.topic, p) for p in range(GOOD_PARTITIONS)]
            consumer.assign(tps)
            consumer.seek_to_beginning(*tps)
        except Exception:
            self._fail("consumer start")
            return
        try:
            while not self._stop_consuming.is_set():
                for tp, msgs in consumer.poll(timeout_ms=200).items():
                    with self._cond:
                        self.consumed += [(tp.partition, m.offset, m.key, m.value) for m in msgs]
                        self._cond.notify_all()
            ends = consumer.end_offsets(tps)
            self.end_offsets = {tp.partition: off for tp, off in ends.items()}
        except Exception:
            self._fail("consumer")
        finally:
            consumer.close()

    def _wait(self, predicate, timeout: float, what: str) -> None:
        with self._cond:
            ok = self._cond.wait_for(lambda: self.errors or predicate(), timeout)
        assert not self.errors, "the good client failed:\n" + "\n".join(self.errors)
        assert ok, f"the good client made no progress in {timeout}s ({what}): " \
                   f"{len(self.produced)} produced, {len(self.consumed)} consumed"

    def wait_for_progress(self, n: int = 10, timeout: float = 30) -> None:
        """Block until the client has produced and consumed ``n`` more records."""
        with self._cond:
            p0, c0 = len(self.produced), len(self.consumed)
        self._wait(lambda: len(self.produced) >= p0 + n and len(self.consumed) >= c0 + n, timeout,
                   f"waiting for {n} more")

    def stop(self) -> None:
        self._stop_producing.set()
        self._producer.join(40)
        self._stop_consuming.set()
        self._consumer.join(40)

    def finish(self, caplog=None) -> None:
        """Stop, let the consumer catch up, and check the topic holds exactly what was produced."""
        self._stop_producing.set()
        self._producer.join(40)
        assert not self._producer.is_alive(), "good producer did not stop"
        self._wait(lambda: len(self.consumed) >= len(self.produced), 30, "consumer catching up")
        self._stop_consuming.set()
        self._consumer.join(40)
        assert not self.errors, "the good client failed:\n" + "\n".join(self.errors)
        for p in range(GOOD_PARTITIONS):
            produced = sorted((o, k, v) for q, o, k, v in self.produced if q == p)
            consumed = [(o, k, v) for q, o, k, v in self.consumed if q == p]
            assert [o for o, _, _ in produced] == list(range(len(produced))), f"partition {p}: produced offsets"
            assert consumed == produced, f"partition {p}: log differs from what the good client produced"
        assert self.end_offsets == {p: sum(1 for q, *_ in self.produced if q == p)
                                    for p in range(GOOD_PARTITIONS)}, "ListOffsets latest"
        assert_serving(self.bootstrap)
        if caplog is not None:
            bad = [f"{r.name}: {r.getMessage()}\n{r.exc_text or ''}" for r in caplog.get_records("call")
                   if r.name.startswith("kwire") and r.levelno >= logging.ERROR]
            assert not bad, "broker logged errors:\n" + "\n".join(bad)


@pytest.fixture
def good(broker, topic_name):
    g = GoodClient(broker.bootstrap, topic_name)
    try:
        g.wait_for_progress(20)
        yield g
    finally:
        g.stop()


# -- malformed frames -------------------------------------------------------------------------

def test_random_bytes(broker, good, caplog):
    rng = random.Random(20240611)
    for i in range(40):
        with Raw(broker.bootstrap) as r:
            if i % 2:  # garbage after a good exchange on the same connection
                r.request(API_VERSIONS, 3, ApiVersionsRequest())
            r.send(rng.randbytes(rng.randrange(1, 4096)))
    good.wait_for_progress()
    good.finish(caplog)


def test_truncated_frames_then_close(broker, good, caplog):
    md = codec.encode_request(METADATA, pick(broker.bootstrap, METADATA, 12), 1, "kwire-fault",
                              MetadataRequest(topics=[MetadataRequestTopic(name=good.topic)]))
    batch = build_batch([(b"k", b"v" * 500, [], None)] * 10)
    prod = codec.encode_request(PRODUCE, pick(broker.bootstrap, PRODUCE, 12), 2, "kwire-fault",
                                ProduceRequest(acks=-1, timeout_ms=5000, topic_data=[TopicProduceData(
                                    name=good.topic, partition_data=[PartitionProduceData(index=0, records=batch)])]))
    for wire in (md, prod):
        cuts = {1, 2, 3, 4, 5, 6, 8, 12, len(wire) // 2, len(wire) - 100, len(wire) - 1}
        for cut in sorted(c for c in cuts if 0 < c < len(wire)):
            with Raw(broker.bootstrap) as r:
                r.send(wire[:cut])
    good.wait_for_progress()
    good.finish(caplog)


def test_size_prefix_larger_than_sent_then_close(broker, good, caplog):
    body = codec.encode_request(API_VERSIONS, 3, 1, "kwire-fault", ApiVersionsRequest())[4:]
    for extra in (1, 100, 65536, 10_000_000):
        with Raw(broker.bootstrap) as r:
            r.send(struct.pack(">i", len(body) + extra) + body)
    good.wait_for_progress()
    good.finish(caplog)


@pytest.mark.parametrize("size", [2**31 - 1, 104857600 + 1, -1, -(2**31)])
def test_oversized_or_negative_size_prefix_is_closed(broker, good, caplog, size):
    """2 GB (and anything above socket.request.max.bytes, or negative) closes the connection."""
    with Raw(broker.bootstrap) as r:
        r.send(struct.pack(">i", size) + b"\x00" * 64)
        assert r.closed_by_broker() == b""
    good.wait_for_progress()
    good.finish(caplog)


@pytest.mark.parametrize("api_key", [999, 32767, -1])
def test_unknown_api_key_is_closed(broker, good, caplog, api_key):
    with Raw(broker.bootstrap) as r:
        r.send(frame(raw_header(api_key, 0, 7, flexible=False) + b"\x00" * 16))
        assert r.closed_by_broker() == b"", "unknown API key answered instead of closed"
    good.wait_for_progress()
    good.finish(caplog)


@pytest.mark.parametrize("api_key", [PRODUCE, FETCH])
def test_unsupported_produce_and_fetch_versions_are_closed(broker, good, caplog, api_key):
    lo, hi = versions(broker.bootstrap)[api_key]
    spec = codec.APIS[api_key]
    for bad in (hi + 1, 99, lo - 1):
        if bad < 0:
            continue
        flexible = spec.flexible_min_version is not None and bad >= spec.flexible_min_version
        body_version = hi if flexible else lo
        body = codec.encode_request_body(api_key, body_version, spec.request_class())
        with Raw(broker.bootstrap) as r:
            r.send(frame(raw_header(api_key, bad, 11, flexible) + body))
            assert r.closed_by_broker() == b"", f"{spec.name} v{bad} answered instead of closed"
    good.wait_for_progress()
    good.finish(caplog)


def test_unsupported_api_versions_version_is_answered_in_v0(broker, good, caplog):
    body = codec.encode_request_body(API_VERSIONS, 3, ApiVersionsRequest(client_software_name="future-client",
                                                                         client_software_version="99"))
    with Raw(broker.bootstrap) as r:
        r.send(frame(raw_header(API_VERSIONS, 99, 4242, flexible=True) + body))
        corr, resp = codec.decode_response(API_VERSIONS, 0, r.read_frame())
        assert corr == 4242
        assert resp.error_code == UNSUPPORTED_VERSION
        ranges = {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys}
        assert ranges == versions(broker.bootstrap)
        assert ranges[API_VERSIONS][1] >= 3
        # the connection stays usable: the client retries with a version we share
        again = r.request(API_VERSIONS, 3, ApiVersionsRequest(client_software_name="future-client",
                                                              client_software_version="99"))
        assert again.error_code == NONE
    good.wait_for_progress()
    good.finish(caplog)


def test_good_header_garbage_body_is_closed(broker, good, caplog):
    """0xff runs make every flexible decoder read an over-long varint: undecodable, so closed."""
    for api_key, at_most in ((METADATA, 12), (PRODUCE, 12), (FETCH, 12), (LIST_OFFSETS, 9)):
        v = pick(broker.bootstrap, api_key, at_most)
        assert codec.APIS[api_key].is_flexible(v)
        with Raw(broker.bootstrap) as r:
            r.send(frame(raw_header(api_key, v, 99, flexible=True) + b"\xff" * 64))
            assert r.closed_by_broker() == b"", f"garbage {codec.APIS[api_key].name} v{v} body answered"
    good.wait_for_progress()
    good.finish(caplog)


def test_good_header_random_body(broker, good, caplog):
    """Random bodies for read-only APIs: the broker answers (in order) or closes; it never breaks."""
    rng = random.Random(7)
    apis = [k for k in (METADATA, LIST_OFFSETS, API_VERSIONS, 60, 32) if k in versions(broker.bootstrap)]
    for i in range(60):
        api_key = rng.choice(apis)
        lo, hi = versions(broker.bootstrap)[api_key]
        v = rng.randint(lo, hi)
        flexible = codec.APIS[api_key].is_flexible(v)
        with Raw(broker.bootstrap) as r:
            r.send(frame(raw_header(api_key, v, 1000 + i, flexible) + rng.randbytes(rng.randrange(0, 300))))
            answer = r.answer_or_close()
            if answer is not None:  # the body happened to decode: answered, for this request
                assert struct.unpack_from(">i", answer, 0)[0] == 1000 + i
    good.wait_for_progress()
    good.finish(caplog)


# -- refused produces --------------------------------------------------------------------------

def test_corrupt_crc_produce_is_refused_and_not_stored(broker, good, caplog):
    batch = bytearray(build_batch([(b"bad", b"crc" * 100, [("h", b"v")], None)] * 4))
    flipped_record = bytearray(batch)
    flipped_record[80] ^= 0xFF  # a byte inside the records: CRC over 21..end no longer matches
    flipped_crc = bytearray(batch)
    flipped_crc[17] ^= 0x01  # the stored CRC itself
    with Raw(broker.bootstrap) as r:
        for bad in (flipped_record, flipped_crc):
            for p in range(GOOD_PARTITIONS):
                resp = produce_raw(r, broker.bootstrap, good.topic, p, bytes(bad))
                assert resp.error_code == CORRUPT_MESSAGE, resp
        # a per-partition error never drops the connection
        assert r.request(API_VERSIONS, 3, ApiVersionsRequest()).error_code == NONE
    good.wait_for_progress()
    good.finish(caplog)


def test_magic1_produce_is_refused_and_not_stored(broker, good, caplog):
    now = int(time.time() * 1000)
    short = legacy_message_v1(b"k", b"v", now)            # shorter than a v2 batch header
    long_ = legacy_message_v1(b"key", b"x" * 200, now)     # as long as a real batch
    with Raw(broker.bootstrap) as r:
        for msg in (short, long_, long_ + long_):
            resp = produce_raw(r, broker.bootstrap, good.topic, 0, msg)
            assert resp.error_code == INVALID_RECORD, resp
        assert r.request(API_VERSIONS, 3, ApiVersionsRequest()).error_code == NONE
    good.wait_for_progress()
    good.finish(caplog)


# -- idempotence ------------------------------------------------------------------------------

def read_partition(bootstrap: str, topic: str, end: int, timeout: float = 20) -> tuple[list, int]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False,
                             request_timeout_ms=15_000, fetch_max_wait_ms=100)
    try:
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        got = []
        deadline = time.monotonic() + timeout
        while consumer.position(tp) < end:
            assert time.monotonic() < deadline, f"stuck at {consumer.position(tp)} of {end}"
            for msgs in consumer.poll(timeout_ms=300).values():
                got += [(m.offset, m.key, m.value) for m in msgs]
        return got, consumer.end_offsets([tp])[tp]
    finally:
        consumer.close()


def test_idempotent_duplicate_and_sequence_gap(broker, good, caplog, topic_name):
    topic = topic_name + "-idem"
    create_topic(broker.bootstrap, topic, 1)
    with Raw(broker.bootstrap) as r:
        batch = idempotent_producer(r, broker.bootstrap)
        first = batch(0, [b"a0", b"a1", b"a2"])
        r1 = produce_raw(r, broker.bootstrap, topic, 0, first)
        r2 = produce_raw(r, broker.bootstrap, topic, 0, first)  # the retry of a lost response
        assert (r1.error_code, r2.error_code) == (NONE, NONE), (r1, r2)
        assert r1.base_offset == r2.base_offset == 0, (r1, r2)

        r3 = produce_raw(r, broker.bootstrap, topic, 0, batch(3, [b"b3", b"b4"]))
        assert (r3.error_code, r3.base_offset) == (NONE, 3), r3
        r4 = produce_raw(r, broker.bootstrap, topic, 0, first)  # an older duplicate, still remembered
        assert (r4.error_code, r4.base_offset) == (NONE, 0), r4

        gap = produce_raw(r, broker.bootstrap, topic, 0, batch(9, [b"gap"]))  # expected sequence is 5
        assert gap.error_code == OUT_OF_ORDER_SEQUENCE_NUMBER, gap

        r5 = produce_raw(r, broker.bootstrap, topic, 0, batch(5, [b"c5"]))  # the gap did not move it
        assert (r5.error_code, r5.base_offset) == (NONE, 5), r5

    got, latest = read_partition(broker.bootstrap, topic, 6)
    assert got == [(i, k, b"v-" + k) for i, k in enumerate([b"a0", b"a1", b"a2", b"b3", b"b4", b"c5"])]
    assert latest == 6
    good.wait_for_progress()
    good.finish(caplog)


# -- pipelining ---------------------------------------------------------------------------------

def test_pipelined_requests_answered_in_order_behind_a_long_poll(broker, good, caplog, topic_name):
    idle = topic_name + "-idle"  # nobody produces here: a fetch at offset 0 waits max_wait_ms
    create_topic(broker.bootstrap, idle, 1)
    max_wait_ms = 4000  # the 50 requests before it get 2.6 s: room for a loaded machine
    bs = broker.bootstrap
    av_v, md_v = pick(bs, API_VERSIONS, 3), pick(bs, METADATA, 12)
    lo_v, fe_v = pick(bs, LIST_OFFSETS, 9), pick(bs, FETCH, 12)
    kinds = [
        (API_VERSIONS, av_v, ApiVersionsRequest(client_software_name="pipeline", client_software_version="1")),
        (METADATA, md_v, MetadataRequest(topics=[MetadataRequestTopic(name=good.topic)],
                                         allow_auto_topic_creation=False)),
        (LIST_OFFSETS, lo_v, ListOffsetsRequest(replica_id=-1, topics=[ListOffsetsTopic(
            name=good.topic, partitions=[ListOffsetsPartition(partition_index=0, timestamp=-1)])])),
    ]
    fetch = (FETCH, fe_v, FetchRequest(replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=1, max_bytes=1 << 20,
                                       session_id=0, session_epoch=-1, topics=[FetchTopic(
                                           topic=idle, partitions=[FetchPartition(
                                               partition=0, fetch_offset=0, partition_max_bytes=1 << 20)])],
                                       forgotten_topics_data=[], rack_id=""))
    plan = []
    for i in range(100):
        api_key, v, obj = fetch if i == 50 else kinds[i % 3]
        plan.append((api_key, v, obj, 5000 + 7 * i))
    wire = b"".join(codec.encode_request(k, v, corr, "pipeline", obj) for k, v, obj, corr in plan)

    with Raw(bs, timeout=15) as r:
        t0 = time.monotonic()
        r.send(wire)
        arrivals = []
        for api_key, v, _, corr in plan:
            data = r.read_frame()
            arrivals.append(time.monotonic() - t0)
            (got_corr,) = struct.unpack_from(">i", data, 0)
            assert got_corr == corr, f"response {len(arrivals) - 1}: correlation id {got_corr}, expected {corr}"
            _, resp = codec.decode_response(api_key, v, data)
            if api_key == FETCH:
                assert resp.error_code == NONE
                (t,) = resp.responses
                (p,) = t.partitions
                assert p.error_code == NONE and p.high_watermark == 0 and not p.records, p
            elif api_key == LIST_OFFSETS:
                assert resp.topics[0].partitions[0].error_code == NONE
            else:
                assert getattr(resp, "error_code", NONE) == NONE

    fetch_at = arrivals[50]
    assert fetch_at >= 0.8 * max_wait_ms / 1000, f"long poll answered after {fetch_at:.3f}s"
    assert arrivals[49] < fetch_at, "responses before the fetch were held back"
    assert arrivals[49] < 0.66 * max_wait_ms / 1000, f"50 small requests took {arrivals[49]:.3f}s"
    good.wait_for_progress()
    good.finish(caplog)
