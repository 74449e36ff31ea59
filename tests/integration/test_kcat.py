"""kcat (librdkafka's command-line client) against a real kwire broker.

* ``-P -K: -H k=v -z <codec>``: keyed lines with headers under every codec,
  read back with ``-C -e -f '%k|%s|%h|%p|%o|%T'``: keys, values, headers,
  partitions (a key always lands in the same one), offsets contiguous from 0,
  CreateTime timestamps taken at produce time; every batch on disk carries
  the codec asked for (librdkafka 2.0.2 compresses because kwire lists
  Produce v0), and kwire's own decoder reads the same records from the files;
* ``-L -J``: the topic, its partitions, leader and replicas;
* ``-o s@<ts>``: start from the first offset whose timestamp >= ts;
* a line over the topic's ``max.message.bytes`` fails with MESSAGE_TOO_LARGE;
* auto-creation via Metadata when ``auto.create.topics.enable=true``.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from clients import (CODECS, ConfluentClient, Msg, Rec, assert_decoded_on_disk, kcat, kcat_path,
                     stored_batches)

pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(kcat_path() is None, reason="kcat not installed")]

FMT = "%k|%s|%h|%p|%o|%T\\n"
# Keep librdkafka's own waits short so a broken broker fails fast and clearly.
QUICK = ["-X", "message.timeout.ms=15000", "-X", "socket.timeout.ms=10000"]


def kcat_librdkafka_version() -> tuple[int, ...]:
    m = re.search(r"librdkafka (\d+)\.(\d+)\.(\d+)", kcat("-V").stdout)
    return tuple(int(x) for x in m.groups()) if m else (0, 0, 0)


def consume(bootstrap: str, topic: str, *extra: str, fmt: str = FMT) -> list[list[str]]:
    r = kcat("-b", bootstrap, "-C", "-t", topic, "-e", "-q", "-f", fmt, *QUICK[2:], *extra)
    assert r.returncode == 0, str(r)
    return [line.split("|") for line in r.stdout.splitlines() if line]


def metadata(bootstrap: str, topic: str | None = None) -> dict:
    args = ["-b", bootstrap, "-L", "-J"] + (["-t", topic] if topic else [])
    r = kcat(*args)
    assert r.returncode == 0, str(r)
    return json.loads(r.stdout)


def topic_meta(md: dict, topic: str) -> dict:
    found = [t for t in md["topics"] if t["topic"] == topic]
    assert found, f"topic {topic} not in metadata: {md}"
    return found[0]


@pytest.mark.parametrize("codec", CODECS)
def test_produce_consume_codec(broker, topic_name, codec):
    ConfluentClient(broker.bootstrap).create_topic(topic_name, partitions=3)
    # Repetitive values, so that librdkafka keeps every batch compressed.
    lines = [f"key-{i % 11}:{codec}-value-{i} \u00e9 " + "payload " * 20 for i in range(60)]
    t0 = int(time.time() * 1000)
    r = kcat("-b", broker.bootstrap, "-P", "-t", topic_name, "-K:", "-H", "k=v", "-H", "trace=abc-1",
             "-z", codec, *QUICK, input="\n".join(lines) + "\n")
    t1 = int(time.time() * 1000)
    assert r.returncode == 0 and "fail" not in r.stderr.lower(), str(r)

    rows = consume(broker.bootstrap, topic_name)
    assert len(rows) == len(lines), f"produced {len(lines)} lines, consumed {len(rows)}:\n{rows}"
    sent = sorted(tuple(line.split(":", 1)) for line in lines)
    assert sorted((k, v) for k, v, *_ in rows) == sent
    key_partition: dict[str, str] = {}
    offsets: dict[str, list[int]] = {}
    for k, v, h, p, o, ts in rows:
        assert h == "k=v,trace=abc-1", f"headers of {k}:{v}: {h!r}"
        assert key_partition.setdefault(k, p) == p, f"key {k} in partitions {key_partition[k]} and {p}"
        offsets.setdefault(p, []).append(int(o))
        assert t0 - 1000 <= int(ts) <= t1 + 1000, f"timestamp {ts} not within produce window {t0}..{t1}"
    assert len(offsets) > 1, "11 keys should spread over more than one partition"
    # Every stored batch carries the codec asked for. librdkafka before 2.10
    # (Debian 12's kcat links 2.0.2) sends gzip/snappy/lz4 uncompressed unless
    # the broker lists Produce v0 in ApiVersions (librdkafka#4956); kwire does
    # list it (handlers/produce.py ADVERTISED_MIN_VERSION), so "none" on disk
    # here means a broker regression, not an old kcat.
    codecs = [b.codec for b in stored_batches(broker.data_dir, topic_name)]
    assert set(codecs) == {codec}, \
        f"codecs on disk: {codecs} (kcat {'.'.join(map(str, kcat_librdkafka_version()))})"
    # kwire's own decoder reads back from disk exactly what kcat sent: keys,
    # values, both headers, and the offsets and timestamps the consumer saw.
    headers = (("k", b"v"), ("trace", b"abc-1"))
    want = [Rec(int(p), int(o), k.encode(), v.encode(), headers, int(ts)) for k, v, h, p, o, ts in rows]
    assert_decoded_on_disk(broker.data_dir, topic_name, codec, want)
    for p, offs in offsets.items():
        assert sorted(offs) == list(range(len(offs))), f"partition {p}: offsets {offs}"
    # Per partition, records come back in produce order.
    for p in offsets:
        vals = [v for k, v, h, pp, o, ts in sorted(rows, key=lambda r: int(r[4])) if pp == p]
        assert vals == [line.split(":", 1)[1] for line in lines
                        if key_partition[line.split(":", 1)[0]] == p]


def test_metadata_listing(broker, topic_name):
    ConfluentClient(broker.bootstrap).create_topic(topic_name, partitions=3)
    md = metadata(broker.bootstrap, topic_name)
    host, port = broker.bootstrap.rsplit(":", 1)
    brokers = {b["id"]: b["name"] for b in md["brokers"]}
    assert list(brokers.values()) == [f"{host}:{port}"], md["brokers"]
    t = topic_meta(md, topic_name)
    assert "error" not in t or not t["error"], t
    parts = sorted(t["partitions"], key=lambda p: p["partition"])
    assert [p["partition"] for p in parts] == [0, 1, 2]
    for p in parts:
        assert p["leader"] in brokers, p
        assert [r["id"] for r in p["replicas"]] == [p["leader"]], p
        assert [r["id"] for r in p["isrs"]] == [p["leader"]], p
    # The full listing (no -t) contains it too.
    assert topic_meta(metadata(broker.bootstrap), topic_name)["partitions"]


def test_offset_by_timestamp(broker, topic_name):
    c = ConfluentClient(broker.bootstrap)
    c.create_topic(topic_name, partitions=1)
    base = int(time.time() * 1000) // 1000 * 1000 - 3_600_000  # an hour ago: inside retention
    # One batch of 10 records 10 ms apart, then a second batch of 5.
    c.produce(topic_name, [Msg(b"k", f"v{i}".encode(), (), base + 10 * i, 0) for i in range(10)],
              linger_ms=1000)
    c.produce(topic_name, [Msg(b"k", f"v{i}".encode(), (), base + 10 * i, 0) for i in range(10, 15)],
              linger_ms=1000)
    layout = [(b.base_offset, b.record_count) for b in stored_batches(broker.data_dir, topic_name)]
    assert layout == [(0, 10), (10, 5)], f"batches: {layout}"
    for target, first in [(base - 5, 0), (base + 1, 1), (base + 40, 4), (base + 95, 10),
                          (base + 121, 13), (base + 140, 14)]:
        rows = consume(broker.bootstrap, topic_name, "-p", "0", "-o", f"s@{target}", fmt="%o|%T\\n")
        assert [int(o) for o, _ in rows] == list(range(first, 15)), f"-o s@base{target - base:+d}"
        assert int(rows[0][1]) >= target
    # Past the last timestamp: nothing to read.
    rows = consume(broker.bootstrap, topic_name, "-p", "0", "-o", f"s@{base + 1000}", fmt="%o\\n")
    assert rows == []


def test_message_too_large(broker, topic_name):
    ConfluentClient(broker.bootstrap).create_topic(topic_name, partitions=1,
                                                   configs={"max.message.bytes": 10_000})
    r = kcat("-b", broker.bootstrap, "-P", "-t", topic_name, *QUICK, input="x" * 20_000 + "\n")
    assert r.returncode != 0 and "Broker: Message size too large" in r.stderr, str(r)
    # The broker keeps serving: a small message still goes through, at offset 0.
    r = kcat("-b", broker.bootstrap, "-P", "-t", topic_name, *QUICK, input="small\n")
    assert r.returncode == 0 and not r.stderr.strip(), str(r)
    assert consume(broker.bootstrap, topic_name, fmt="%o|%s\\n") == [["0", "small"]]


def test_auto_create_topic(make_broker, topic_name):
    b = make_broker(overrides={"auto.create.topics.enable": "true", "num.partitions": "2"})
    r = kcat("-b", b.bootstrap, "-P", "-t", topic_name, "-K:", *QUICK, input="a:1\nb:2\nc:3\n")
    assert r.returncode == 0 and "fail" not in r.stderr.lower(), str(r)
    t = topic_meta(metadata(b.bootstrap, topic_name), topic_name)
    assert sorted(p["partition"] for p in t["partitions"]) == [0, 1]
    rows = consume(b.bootstrap, topic_name, fmt="%k|%s\\n")
    assert sorted(rows) == [["a", "1"], ["b", "2"], ["c", "3"]]


def test_no_auto_create_when_disabled(make_broker, topic_name):
    b = make_broker(overrides={"auto.create.topics.enable": "false"})
    r = kcat("-b", b.bootstrap, "-P", "-t", topic_name, "-X", "message.timeout.ms=3000",
             "-X", "topic.metadata.propagation.max.ms=1000", input="a\n")
    assert "Unknown topic or partition" in r.stderr or "Local: Message timed out" in r.stderr, str(r)
    md = metadata(b.bootstrap)
    assert topic_name not in [t["topic"] for t in md["topics"]]
