"""One small synchronous facade over each Python Kafka client, for client tests.

The integration tests are written once and run against kafka-python, aiokafka
and confluent-kafka; each ``*Client`` class below does the same handful of
operations with its library's own API:

* ``create_topic(topic, partitions, configs)`` — the library's admin client;
* ``produce(topic, msgs, ...)`` — one producer per call; returns what the
  producer was told (partition, offset, timestamp) as ``Rec`` in send order,
  or raises ``ProduceFailed`` wrapping the library's own error;
* ``consume(topic, partitions, count)`` — assign + seek to beginning, read
  until ``count`` records or the deadline;
* ``offsets_for_times`` / ``beginning_offsets`` / ``end_offsets`` — ListOffsets
  through the library's consumer API.

Nothing here waits on a timer where an event exists: loops poll until a
condition holds or a deadline passes. aiokafka is driven with ``asyncio.run``
per operation (each a fresh event loop, as a test would do).

kcat helpers live here too (``kcat(...)``), the golden-frame capture script
(tests/golden/capture_frames.py) drives the same facades, and ``stored_batches`` reads the batch headers a
broker wrote to its data directory (Kafka's layout: ``<dir>/<topic>-<p>/*.log``)
so a test can check which codec really reached the broker; ``decoded_batches``
decodes those files completely with kwire's own decoder and
``assert_decoded_on_disk`` compares the records in them with what was produced.

``Wire`` is one raw connection speaking kwire's own codec (requests in turn,
a closed connection raises), for tests that drive an API at a chosen version;
``read_exact`` is its socket read, for tests with framing of their own.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import socket
import struct
import subprocess
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from kwire.protocol import codec

Headers = tuple[tuple[str, bytes], ...]

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
# Every client call gets a bounded timeout; a broker that does not answer
# makes a test fail in seconds, not hang until pytest-timeout.
OP_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Msg:
    """A record to produce. ``partition=None`` lets the client's partitioner pick."""

    key: bytes | None
    value: bytes | None
    headers: Headers = ()
    timestamp: int | None = None
    partition: int | None = None


@dataclass(frozen=True)
class Rec:
    """A record as the broker stored it: what a consumer sees, or what a producer was told."""

    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: Headers
    timestamp: int

    @property
    def content(self) -> tuple:
        return (self.key, self.value, self.headers, self.timestamp)


class ProduceFailed(Exception):
    """A delivery failed; ``error`` is the library's own exception or error object."""

    def __init__(self, error, msg: Msg | None = None) -> None:
        super().__init__(f"produce failed: {error!r}")
        self.error = error
        self.msg = msg


def norm_headers(hs) -> Headers:
    return tuple((k if isinstance(k, str) else k.decode(), bytes(v) if v is not None else None)
                 for k, v in (hs or ()))


def read_exact(sock: socket.socket, n: int) -> bytes:
    """Exactly ``n`` bytes from ``sock``; ``ConnectionError`` if the broker closes it first."""
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("broker closed the connection")
        buf += chunk
    return bytes(buf)


class Wire:
    """One connection with kwire's own codec, requests in turn: ``wire(api_key, version, request)``
    returns the decoded response. A closed connection raises ``ConnectionError``, which fails the
    test; the correlation id of every response is checked."""

    def __init__(self, bootstrap: str, client_id: str = "wire-test", timeout: float = 20) -> None:
        host, port = bootstrap.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        self.client_id = client_id
        self.cid = 0

    def send(self, api_key: int, version: int, obj) -> int:
        self.cid += 1
        self.sock.sendall(codec.encode_request(api_key, version, self.cid, self.client_id, obj))
        return self.cid

    def receive(self, api_key: int, version: int, cid: int):
        (size,) = struct.unpack(">i", read_exact(self.sock, 4))
        got, resp = codec.decode_response(api_key, version, read_exact(self.sock, size))
        assert got == cid
        return resp

    def __call__(self, api_key: int, version: int, obj):
        return self.receive(api_key, version, self.send(api_key, version, obj))

    call = __call__

    def closed_by_peer(self, timeout: float = 20) -> bool:
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True

    def close(self) -> None:
        self.sock.close()


def failed_with(future, timeout: float = 30):
    """The ``confluent_kafka.KafkaError`` a confluent-kafka future failed with (the test fails
    if it succeeded)."""
    import pytest
    from confluent_kafka import KafkaException

    with pytest.raises(KafkaException) as exc:
        future.result(timeout=timeout)
    return exc.value.args[0]


def wait_until(cond: Callable[[], object], timeout: float = OP_TIMEOUT_S, interval: float = 0.05,
               what: str = "condition"):
    """Call ``cond`` until it returns something truthy; return that, or fail at the deadline."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        last = cond()
        if last:
            return last
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}; last={last!r}")
        time.sleep(interval)


def by_partition(recs: Iterable[Rec]) -> dict[int, list[Rec]]:
    out: dict[int, list[Rec]] = {}
    for r in sorted(recs, key=lambda r: (r.partition, r.offset)):
        out.setdefault(r.partition, []).append(r)
    return out


def make_msgs(n: int, *, tag: str = "m", base_ts: int | None = None, value_size: int = 0,
              pad: int = 0, partitions: int | None = None) -> list[Msg]:
    """Keyed records with varied headers (repeated keys, empty and binary values, non-ASCII names).

    ``pad`` appends that many repetitive bytes to each value, so that every
    codec really shrinks the batch (librdkafka sends a batch uncompressed when
    compressing would not make it smaller). ``partitions=n`` sets explicit
    partitions round-robin instead of leaving them to the partitioner.
    """
    base_ts = int(time.time() * 1000) - 60_000 if base_ts is None else base_ts
    msgs = []
    for i in range(n):
        value = f"{tag}-value-{i}".encode() + b"-payload" * (pad // 8)
        if value_size:
            value = (value + bytes(range(256)) * (value_size // 256 + 1))[:value_size]
        headers: Headers = (("seq", str(i).encode()),)
        if i % 3 == 1:
            headers += (("dup", b"a"), ("dup", b"b"), ("empty", b""))
        if i % 5 == 2:
            headers += (("bïn", bytes([0, 255, 10, 13])),)
        msgs.append(Msg(key=f"key-{i % 17}".encode(), value=value, headers=headers,
                        timestamp=base_ts + i, partition=None if partitions is None else i % partitions))
    return msgs


def read_values(bootstrap: str, topic: str, n: int, timeout: float = 30.0, linger: float = 0.0,
                conf: dict | None = None) -> list[bytes]:
    """The first ``n`` values of partition 0 through a confluent-kafka consumer (assign, no
    group); with ``linger``, keep polling that many seconds more, so a record beyond ``n``
    that should not be there shows up in the result. ``conf``: more consumer settings
    (security)."""
    import uuid

    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                  "enable.auto.commit": False, "topic.metadata.refresh.interval.ms": 500, **(conf or {})})
    try:
        c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        out: list[bytes] = []
        deadline = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None and not m.error():
                out.append(m.value())
        end = time.monotonic() + linger
        while time.monotonic() < end:
            m = c.poll(0.2)
            if m is not None and not m.error():
                out.append(m.value())
        return out
    finally:
        c.close()


def wire_size(bootstrap: str, topic: str, partition: int = 0) -> int:
    """The partition's size as DescribeLogDirs reports it, through kafka-python's admin."""
    from kafka.admin import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=20_000)
    try:
        (per_broker,) = admin.describe_log_dirs({topic: [partition]})
    finally:
        admin.close()
    sizes = [p["partition_size"] for d in per_broker["log_dirs"] for t in d["topics"]
             if t["name"] == topic for p in t["partitions"] if p["partition_index"] == partition]
    assert len(sizes) == 1, per_broker
    return sizes[0]


CODEC_IDS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


@dataclass(frozen=True)
class StoredBatch:
    partition: int
    base_offset: int
    last_offset: int
    record_count: int
    codec: str
    base_timestamp: int
    max_timestamp: int


def stored_batches(data_dir: str, topic: str) -> list[StoredBatch]:
    """Batch headers in ``<data_dir>/<topic>-<partition>/*.log``, read straight from the files.

    v2 batch header: base_offset i64 @0, batch_length i32 @8, attributes i16 @21,
    last_offset_delta i32 @23, base_timestamp i64 @27, max_timestamp i64 @35,
    records_count i32 @57; the next batch starts 12 + batch_length further on.
    """
    names = {v: k for k, v in CODEC_IDS.items()}
    out = []
    for part, data in _segment_files(data_dir, topic):
        pos = 0
        while pos + 61 <= len(data):
            base, length = struct.unpack_from(">qi", data, pos)
            attrs, lod, bts, mts = struct.unpack_from(">hiqq", data, pos + 21)
            (count,) = struct.unpack_from(">i", data, pos + 57)
            out.append(StoredBatch(part, base, base + lod, count,
                                   names.get(attrs & 7, str(attrs & 7)), bts, mts))
            pos += 12 + length
    return sorted(out, key=lambda b: (b.partition, b.base_offset))


def _segment_files(data_dir: str, topic: str):
    """(partition, bytes) of every ``<data_dir>/<topic>-<partition>/*.log``, in segment order."""
    for d in glob.glob(os.path.join(glob.escape(data_dir), glob.escape(topic) + "-*")):
        part = d.rsplit("-", 1)[1]
        if not part.isdigit():
            continue
        for path in sorted(glob.glob(os.path.join(glob.escape(d), "*.log"))):
            with open(path, "rb") as f:
                yield int(part), f.read()


def decoded_batches(data_dir: str, topic: str) -> list[tuple[int, object]]:
    """Every batch in ``<data_dir>/<topic>-<partition>/*.log``, fully decoded by kwire's own decoder.

    Returns ``(partition, kwire.records.decode.DecodedBatch)`` sorted by
    partition and base offset. ``decode_batches`` checks magic, lengths and the
    CRC, decompresses and parses every record, and raises CorruptRecordError on
    any malformed byte or trailing garbage in a segment.
    """
    from kwire.records.decode import decode_batches

    out = [(part, b) for part, data in _segment_files(data_dir, topic) for b in decode_batches(data)]
    return sorted(out, key=lambda pb: (pb[0], pb[1].header.base_offset))


def assert_decoded_on_disk(data_dir: str, topic: str, codec: str, want: Iterable[Rec]) -> None:
    """The broker's files, decoded by ``kwire.records.decode``, hold exactly ``want`` under ``codec``.

    * every stored batch carries the codec asked for in its attributes (bits 0-2);
    * batches of a partition follow each other: base offsets from 0, each one
      past the previous batch's last offset, ``last_offset_delta`` and
      ``records_count`` agreeing with the records inside;
    * the decoded records, partition by partition in offset order, equal
      ``want``: offset, key, value, headers (order, duplicates) and timestamp.
    """
    batches = decoded_batches(data_dir, topic)
    assert batches, f"no batches stored for {topic} in {data_dir}"
    have: list[Rec] = []
    next_offset: dict[int, int] = {}
    for p, b in batches:
        h = b.header
        where = f"partition {p} batch @{h.base_offset}"
        assert h.compression == CODEC_IDS[codec], \
            f"{where}: stored with codec {h.compression}, asked for {codec} ({CODEC_IDS[codec]})"
        assert h.timestamp_type == 0, f"{where}: LogAppendTime on a CreateTime topic"
        assert h.base_offset == next_offset.get(p, 0), \
            f"{where}: expected base offset {next_offset.get(p, 0)}"
        assert len(b.records) == h.records_count and h.last_offset_delta == h.records_count - 1, \
            f"{where}: {h.records_count} records, last_offset_delta {h.last_offset_delta}"
        next_offset[p] = h.base_offset + h.records_count
        have += [Rec(p, r.offset, r.key, r.value, tuple(r.headers), r.timestamp) for r in b.records]
    want_p, have_p = by_partition(want), by_partition(have)
    assert set(have_p) == set(want_p), f"partitions on disk {set(have_p)}, expected {set(want_p)}"
    for p in want_p:
        w, h = want_p[p], have_p[p]
        assert len(h) == len(w), f"partition {p}: {len(w)} records expected, {len(h)} on disk"
        for a, b in zip(w, h):
            assert a == b, f"partition {p} offset {b.offset}: expected {a}, decoded from disk {b}"


# --------------------------------------------------------------------------
# kafka-python
# --------------------------------------------------------------------------

class KafkaPythonClient:
    name = "kafka-python"

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap

    @staticmethod
    def codecs() -> dict[str, str | None]:
        """codec -> reason it is unavailable (None when available)."""
        import kafka.codec as c

        return {"none": None, "gzip": None if c.has_gzip() else "no gzip",
                "snappy": None if c.has_snappy() else "kafka-python needs python-snappy for snappy",
                "lz4": None if c.has_lz4() else "no lz4 module",
                "zstd": None if c.has_zstd() else "no zstandard module"}

    def create_topic(self, topic: str, partitions: int = 3, configs: dict | None = None) -> None:
        from kafka import KafkaAdminClient

        admin = KafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=15000)
        try:
            admin.create_topics({topic: {"num_partitions": partitions, "replication_factor": 1,
                                         "configs": dict(configs or {})}},
                                timeout_ms=15000, wait_for_metadata=True)
        finally:
            admin.close()

    def produce(self, topic: str, msgs: list[Msg], *, compression: str = "none", acks: str = "all",
                linger_ms: int = 5, max_request_size: int = 1_000_000) -> list[Rec]:
        from kafka import KafkaProducer

        p = KafkaProducer(bootstrap_servers=self.bootstrap,
                          compression_type=None if compression == "none" else compression,
                          acks=-1 if acks == "all" else int(acks), linger_ms=linger_ms,
                          max_request_size=max_request_size, request_timeout_ms=15000,
                          delivery_timeout_ms=30000, max_block_ms=15000, batch_size=1 << 20)
        try:
            futs = [p.send(topic, key=m.key, value=m.value, headers=list(m.headers),
                           partition=m.partition, timestamp_ms=m.timestamp) for m in msgs]
            p.flush(timeout=OP_TIMEOUT_S)
            out = []
            for m, f in zip(msgs, futs):
                try:
                    md = f.get(timeout=OP_TIMEOUT_S)
                except Exception as e:  # the library's error, e.g. MessageSizeTooLargeError
                    raise ProduceFailed(e, m) from e
                out.append(Rec(md.partition, md.offset, m.key, m.value, m.headers,
                               m.timestamp if m.timestamp is not None else md.timestamp))
            return out
        finally:
            p.close(timeout=5)

    @staticmethod
    def too_large(err) -> bool:
        import kafka.errors as E

        return isinstance(err, E.MessageSizeTooLargeError)

    def _consumer(self):
        from kafka import KafkaConsumer

        return KafkaConsumer(bootstrap_servers=self.bootstrap, group_id=None,
                             enable_auto_commit=False, auto_offset_reset="earliest",
                             request_timeout_ms=15000, fetch_max_wait_ms=200)

    def consume(self, topic: str, partitions: Iterable[int], count: int,
                timeout: float = OP_TIMEOUT_S) -> list[Rec]:
        from kafka import TopicPartition

        c = self._consumer()
        try:
            tps = [TopicPartition(topic, p) for p in partitions]
            c.assign(tps)
            c.seek_to_beginning(*tps)
            out: list[Rec] = []
            deadline = time.monotonic() + timeout
            while len(out) < count and time.monotonic() < deadline:
                for recs in c.poll(timeout_ms=200).values():
                    out += [Rec(r.partition, r.offset, r.key, r.value, norm_headers(r.headers),
                                r.timestamp) for r in recs]
            return out
        finally:
            c.close()

    def offsets_for_times(self, topic: str, targets: dict[int, int]) -> dict[int, int | None]:
        from kafka import TopicPartition

        c = self._consumer()
        try:
            res = c.offsets_for_times({TopicPartition(topic, p): ts for p, ts in targets.items()},
                                      timeout_ms=15000)
            return {tp.partition: (None if v is None else v.offset) for tp, v in res.items()}
        finally:
            c.close()

    def _list(self, topic: str, partitions: Iterable[int], which: str) -> dict[int, int]:
        from kafka import TopicPartition

        c = self._consumer()
        try:
            fn = c.end_offsets if which == "end" else c.beginning_offsets
            res = fn([TopicPartition(topic, p) for p in partitions], timeout_ms=15000)
            return {tp.partition: off for tp, off in res.items()}
        finally:
            c.close()

    def end_offsets(self, topic, partitions) -> dict[int, int]:
        return self._list(topic, partitions, "end")

    def beginning_offsets(self, topic, partitions) -> dict[int, int]:
        return self._list(topic, partitions, "beginning")


# --------------------------------------------------------------------------
# aiokafka
# --------------------------------------------------------------------------

class AIOKafkaClient:
    name = "aiokafka"

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap

    @staticmethod
    def codecs() -> dict[str, str | None]:
        import aiokafka.codec as c

        return {"none": None, "gzip": None if c.has_gzip() else "no gzip",
                "snappy": None if c.has_snappy() else "no snappy (cramjam)",
                "lz4": None if c.has_lz4() else "no lz4 (cramjam)",
                "zstd": None if c.has_zstd() else "no zstd (cramjam)"}

    def create_topic(self, topic: str, partitions: int = 3, configs: dict | None = None) -> None:
        from aiokafka.admin import AIOKafkaAdminClient, NewTopic

        async def run():
            admin = AIOKafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=15000)
            await admin.start()
            try:
                resp = await admin.create_topics(
                    [NewTopic(topic, partitions, 1, topic_configs=dict(configs or {}))],
                    timeout_ms=15000)
            finally:
                await admin.close()
            for t in resp.topic_errors:
                if t[1] != 0:
                    raise AssertionError(f"aiokafka create_topics {topic}: {t}")

        asyncio.run(asyncio.wait_for(run(), OP_TIMEOUT_S))

    def produce(self, topic: str, msgs: list[Msg], *, compression: str = "none", acks: str = "all",
                linger_ms: int = 5, max_request_size: int = 1_000_000) -> list[Rec]:
        from aiokafka import AIOKafkaProducer

        async def run():
            p = AIOKafkaProducer(bootstrap_servers=self.bootstrap,
                                 compression_type=None if compression == "none" else compression,
                                 acks=acks if acks == "all" else int(acks), linger_ms=linger_ms,
                                 max_request_size=max_request_size, request_timeout_ms=15000,
                                 max_batch_size=1 << 20)
            await p.start()
            try:
                futs = [await p.send(topic, key=m.key, value=m.value, headers=list(m.headers),
                                     partition=m.partition, timestamp_ms=m.timestamp)
                        for m in msgs]
                await p.flush()
                out = []
                for m, f in zip(msgs, futs):
                    try:
                        md = await f
                    except Exception as e:
                        raise ProduceFailed(e, m) from e
                    if md is None:  # acks=0: aiokafka resolves the future with None
                        out.append(Rec(m.partition if m.partition is not None else -1, -1,
                                       m.key, m.value, m.headers, m.timestamp))
                        continue
                    out.append(Rec(md.partition, md.offset, m.key, m.value, m.headers,
                                   m.timestamp if m.timestamp is not None else md.timestamp))
                return out
            finally:
                await p.stop()

        return asyncio.run(asyncio.wait_for(run(), OP_TIMEOUT_S + 10))

    @staticmethod
    def too_large(err) -> bool:
        import aiokafka.errors as E

        return isinstance(err, E.MessageSizeTooLargeError)

    def _consumer(self):
        from aiokafka import AIOKafkaConsumer

        return AIOKafkaConsumer(bootstrap_servers=self.bootstrap, group_id=None,
                                enable_auto_commit=False, auto_offset_reset="earliest",
                                request_timeout_ms=15000, fetch_max_wait_ms=200)

    def _with_consumer(self, fn, timeout: float = OP_TIMEOUT_S):
        async def run():
            c = self._consumer()
            await c.start()
            try:
                return await fn(c)
            finally:
                await c.stop()

        return asyncio.run(asyncio.wait_for(run(), timeout + 10))

    def consume(self, topic: str, partitions: Iterable[int], count: int,
                timeout: float = OP_TIMEOUT_S) -> list[Rec]:
        from aiokafka import TopicPartition

        async def fn(c):
            tps = [TopicPartition(topic, p) for p in partitions]
            c.assign(tps)
            await c.seek_to_beginning(*tps)
            out: list[Rec] = []
            deadline = time.monotonic() + timeout
            while len(out) < count and time.monotonic() < deadline:
                for recs in (await c.getmany(timeout_ms=200)).values():
                    out += [Rec(r.partition, r.offset, r.key, r.value, norm_headers(r.headers),
                                r.timestamp) for r in recs]
            return out

        return self._with_consumer(fn, timeout)

    def offsets_for_times(self, topic: str, targets: dict[int, int]) -> dict[int, int | None]:
        from aiokafka import TopicPartition

        async def fn(c):
            res = await c.offsets_for_times({TopicPartition(topic, p): ts for p, ts in targets.items()})
            return {tp.partition: (None if v is None else v.offset) for tp, v in res.items()}

        return self._with_consumer(fn)

    def _list(self, topic, partitions, which: str) -> dict[int, int]:
        from aiokafka import TopicPartition

        async def fn(c):
            f = c.end_offsets if which == "end" else c.beginning_offsets
            res = await f([TopicPartition(topic, p) for p in partitions])
            return {tp.partition: off for tp, off in res.items()}

        return self._with_consumer(fn)

    def end_offsets(self, topic, partitions) -> dict[int, int]:
        return self._list(topic, partitions, "end")

    def beginning_offsets(self, topic, partitions) -> dict[int, int]:
        return self._list(topic, partitions, "beginning")


# --------------------------------------------------------------------------
# confluent-kafka (librdkafka)
# --------------------------------------------------------------------------

class ConfluentClient:
    name = "confluent-kafka"

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap

    @staticmethod
    def codecs() -> dict[str, str | None]:
        # The confluent-kafka wheels link librdkafka with zlib, snappy, lz4 and zstd.
        return {c: None for c in CODECS}

    def create_topic(self, topic: str, partitions: int = 3, configs: dict | None = None) -> None:
        from confluent_kafka.admin import AdminClient, NewTopic

        admin = AdminClient({"bootstrap.servers": self.bootstrap})
        futs = admin.create_topics([NewTopic(topic, num_partitions=partitions, replication_factor=1,
                                             config={k: str(v) for k, v in (configs or {}).items()})],
                                   operation_timeout=15, request_timeout=15)
        futs[topic].result(timeout=OP_TIMEOUT_S)

    def produce(self, topic: str, msgs: list[Msg], *, compression: str = "none", acks: str = "all",
                linger_ms: int = 5, max_request_size: int = 1_000_000) -> list[Rec]:
        from confluent_kafka import Producer

        p = Producer({"bootstrap.servers": self.bootstrap, "compression.type": compression,
                      "acks": acks, "linger.ms": linger_ms, "message.max.bytes": max_request_size,
                      "message.timeout.ms": 30000, "request.timeout.ms": 15000,
                      "batch.size": 1 << 20})
        reports: list = [None] * len(msgs)

        def on_delivery(i):
            def cb(err, m):
                reports[i] = (err, m)
            return cb

        for i, m in enumerate(msgs):
            kw = {} if m.partition is None else {"partition": m.partition}
            if m.timestamp is not None:
                kw["timestamp"] = m.timestamp
            p.produce(topic, key=m.key, value=m.value, headers=list(m.headers),
                      on_delivery=on_delivery(i), **kw)
        left = p.flush(OP_TIMEOUT_S)
        assert left == 0, f"confluent producer: {left} messages still queued after flush"
        out = []
        for m, (err, dm) in zip(msgs, reports):
            if err is not None:
                raise ProduceFailed(err, m)
            off = dm.offset()  # None (or a negative sentinel) when acks=0
            out.append(Rec(dm.partition(), off if off is not None and off >= 0 else -1, m.key, m.value, m.headers,
                           m.timestamp if m.timestamp is not None else dm.timestamp()[1]))
        return out

    @staticmethod
    def too_large(err) -> bool:
        from confluent_kafka import KafkaError

        return err.code() == KafkaError.MSG_SIZE_TOO_LARGE

    def _consumer(self):
        from confluent_kafka import Consumer

        # librdkafka insists on a group.id; assign() below never joins the group.
        return Consumer({"bootstrap.servers": self.bootstrap,
                         "group.id": f"kwire-test-{time.monotonic_ns()}",
                         "enable.auto.commit": False, "auto.offset.reset": "earliest",
                         "fetch.wait.max.ms": 200})

    def consume(self, topic: str, partitions: Iterable[int], count: int,
                timeout: float = OP_TIMEOUT_S) -> list[Rec]:
        from confluent_kafka import OFFSET_BEGINNING, TopicPartition

        c = self._consumer()
        try:
            c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions])
            out: list[Rec] = []
            deadline = time.monotonic() + timeout
            while len(out) < count and time.monotonic() < deadline:
                for m in c.consume(num_messages=1000, timeout=0.2):
                    if m.error():
                        raise AssertionError(f"confluent consumer error: {m.error()}")
                    out.append(Rec(m.partition(), m.offset(), m.key(), m.value(),
                                   norm_headers(m.headers()), m.timestamp()[1]))
            return out
        finally:
            c.close()

    def offsets_for_times(self, topic: str, targets: dict[int, int]) -> dict[int, int | None]:
        from confluent_kafka import TopicPartition

        c = self._consumer()
        try:
            res = c.offsets_for_times([TopicPartition(topic, p, ts) for p, ts in targets.items()],
                                      timeout=15)
            for tp in res:
                if tp.error:
                    raise AssertionError(f"offsets_for_times {tp}: {tp.error}")
            return {tp.partition: (None if tp.offset < 0 else tp.offset) for tp in res}
        finally:
            c.close()

    def _watermarks(self, topic, partitions) -> dict[int, tuple[int, int]]:
        from confluent_kafka import TopicPartition

        c = self._consumer()
        try:
            return {p: c.get_watermark_offsets(TopicPartition(topic, p), timeout=15, cached=False)
                    for p in partitions}
        finally:
            c.close()

    def end_offsets(self, topic, partitions) -> dict[int, int]:
        return {p: hi for p, (lo, hi) in self._watermarks(topic, partitions).items()}

    def beginning_offsets(self, topic, partitions) -> dict[int, int]:
        return {p: lo for p, (lo, hi) in self._watermarks(topic, partitions).items()}


CLIENTS = {c.name: c for c in (KafkaPythonClient, AIOKafkaClient, ConfluentClient)}


# --------------------------------------------------------------------------
# kcat
# --------------------------------------------------------------------------

@dataclass
class KcatResult:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    elapsed: float = field(default=0.0)

    def __str__(self) -> str:
        return (f"kcat {' '.join(self.args)} -> rc={self.returncode} in {self.elapsed:.1f}s\n"
                f"stdout:\n{self.stdout[-3000:]}\nstderr:\n{self.stderr[-3000:]}")


def kcat_path() -> str | None:
    return shutil.which("kcat") or shutil.which("kafkacat")


def kcat(*args: str, input: str | bytes | None = None, timeout: float = 30.0) -> KcatResult:
    """Run kcat with a bounded run time; ``-X`` defaults keep its own timeouts short."""
    exe = kcat_path()
    assert exe, "kcat is not installed (scripts/setup-test-env.sh installs it)"
    argv = list(args)
    t0 = time.monotonic()
    data = input.encode() if isinstance(input, str) else input
    p = subprocess.run([exe, *argv], input=data, capture_output=True, timeout=timeout)
    return KcatResult(argv, p.returncode, p.stdout.decode("utf-8", "replace"),
                      p.stderr.decode("utf-8", "replace"), time.monotonic() - t0)
