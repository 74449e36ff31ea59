"""The Kafka Java client (kafka-clients 4.3.0) against kwire, the way Spark uses it.

``tests/java/KwireClient.java`` is compiled once per session (see
``javaclient.py``); its steps run in one JVM per module (``KwireClient
session``), each step with its own Admin, producer or consumer. For each compression type the test
creates a 3-partition topic with ``Admin.createTopics``, produces keyed
records with headers and chosen CreateTime timestamps through a producer with
default settings (idempotent, acks=all), reads everything back with
``assign``/``seek``/``poll`` and no group under both isolation levels, and
asks the Admin for offsets by every OffsetSpec Spark uses. Everything is
compared exactly with what Python generated: bytes, headers (order, duplicates,
null values), timestamps, offsets, partitions (murmur2 of the key, as the Java
partitioner computes it).

Skipped only when kafka-clients-4.3.0.jar is nowhere to be found.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from pathlib import Path

import pytest
from kafka.partitioner.default import murmur2

from kwire.records import batch

try:
    from . import javaclient
except ImportError:  # tests/integration is not a package: pytest put it on sys.path
    import javaclient

pytestmark = [pytest.mark.java, pytest.mark.slow, pytest.mark.timeout(600)]

SESSIONS: dict = {}  # the module's ``KwireClient session`` JVM


@pytest.fixture(scope="module", autouse=True)
def java_session_closed():
    yield
    javaclient.close_sessions(SESSIONS)


def jrun(*args: str) -> list[dict]:
    """One KwireClient command (``javaclient.run``'s lines and errors), in the module's JVM."""
    return javaclient.run_in_session(SESSIONS, "KwireClient", ("session",), *args)

PARTITIONS = 3
COUNT = 240
ZERO_UUID = "AAAAAAAAAAAAAAAAAAAAAA"  # Uuid.ZERO_UUID.toString()
CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}  # batch attribute bits 0-2


def make_records(seed: int):
    """Records (key, value, headers, timestamp), with the edge cases a client sends.

    Timestamps rise by 100 ms per record from ten minutes ago, except record
    COUNT // 3, which carries the largest timestamp of all (so maxTimestamp is
    not simply the last offset and a timestamp search must scan records, not
    only trust batch order).
    """
    rng = random.Random(seed)
    base = int(time.time() * 1000) - 600_000
    records = []
    for i in range(COUNT):
        key = f"key-{i:04d}".encode()
        kind = i % 6
        if kind == 0:
            value = rng.randbytes(rng.randrange(0, 2048))  # incompressible
        elif kind == 1:
            value = (f"value {i} " * rng.randrange(1, 200)).encode()  # compressible
        elif kind == 2:
            value = b""
        elif kind == 3:
            value = None  # a tombstone
        else:
            value = bytes(range(256)) * (1 + i % 3)
        headers = [("seq", str(i).encode()), ("bin", bytes([i % 256, 0, 255]))]
        if i % 5 == 0:
            headers.append(("nullable", None))
        if i % 7 == 0:
            headers.append(("seq", b"duplicate-name"))
        if i % 11 == 0:
            headers = []
        ts = base + 100 * i
        records.append([key, value, headers, ts])
    records[COUNT // 3][3] = base + 100 * COUNT + 5_000
    return [tuple(r) for r in records]


def stored_batches(data_dir, topic: str) -> dict:
    """partition -> headers of the batches in its segment files (Kafka's on-disk layout)."""
    out = {}
    for p in range(PARTITIONS):
        hs = []
        for seg in sorted((Path(data_dir) / f"{topic}-{p}").glob("*.log")):
            buf = seg.read_bytes()
            hs += [span.header for span in batch.iter_batches(buf)]
        out[p] = hs
    return out


def expected_partition(key: bytes) -> int:
    return (murmur2(key) & 0x7FFFFFFF) % PARTITIONS


def by_partition(records, sent):
    """partition -> [(offset, record)] in offset order, from the producer's metadata."""
    out = defaultdict(list)
    for rec, md in zip(records, sent):
        out[md["partition"]].append((md["offset"], rec))
    for p in out:
        out[p].sort(key=lambda x: x[0])
    return out


def decode_consumed(lines):
    got = defaultdict(list)
    for r in (x for x in lines if x["type"] == "record"):
        headers = [(name, javaclient.unb64(v)) for name, v in r["headers"]]
        got[r["partition"]].append((r["offset"], (javaclient.unb64(r["key"]), javaclient.unb64(r["value"]),
                                                  headers, r["timestamp"]), r["timestamp_type"]))
    return got


def first_at_or_after(part, target):
    """Kafka's answer to ListOffsets(timestamp): first offset whose record ts >= target."""
    for offset, rec in part:
        if rec[3] >= target:
            return offset, rec[3]
    return -1, -1


def check_consumed(lines, part_records, start):
    got = decode_consumed(lines)
    for p in range(PARTITIONS):
        want = [(off, rec) for off, rec in part_records[p] if off >= start[p]]
        have = got.get(p, [])
        assert [o for o, _, _ in have] == [o for o, _ in want], f"partition {p}: offsets differ"
        for (off, rec, tstype), (_, wrec) in zip(have, want):
            assert rec == wrec, f"partition {p} offset {off}: read {rec!r}, produced {wrec!r}"
            assert tstype == "CreateTime"
    positions = {x["partition"]: x["position"] for x in lines if x["type"] == "position"}
    assert positions == {p: len(part_records[p]) for p in range(PARTITIONS)}


@pytest.mark.parametrize("compression", ["none", "gzip", "snappy", "lz4", "zstd"])
def test_java_produce_consume_admin(broker, topic_name, tmp_path, compression):
    records = make_records(seed=sum(compression.encode()))

    # -- Admin.createTopics -----------------------------------------------------------
    created = jrun("create-topic", broker.bootstrap, topic_name, str(PARTITIONS))
    (c,) = [x for x in created if x["type"] == "created"]
    assert c["partitions"] == PARTITIONS
    assert c["topic_id"] != ZERO_UUID

    # -- default producer (idempotent, acks=all) ---------------------------------------
    inp = javaclient.write_produce_input(tmp_path / "records.tsv", records)
    sent = [x for x in jrun("produce", broker.bootstrap, topic_name, compression, str(inp))
            if x["type"] == "sent"]
    assert [x["index"] for x in sent] == list(range(COUNT))
    per_partition_offsets = defaultdict(list)
    for rec, md in zip(records, sent):
        assert md["partition"] == expected_partition(rec[0]), md
        assert md["timestamp"] == rec[3], f"CreateTime not kept: {md}"
        per_partition_offsets[md["partition"]].append(md["offset"])
    for p, offsets in per_partition_offsets.items():
        # one producer, in order: offsets are 0..n-1 in send order on every partition
        assert offsets == list(range(len(offsets))), f"partition {p}: {offsets}"
    assert set(per_partition_offsets) == set(range(PARTITIONS))
    part_records = by_partition(records, sent)
    ends = {p: len(part_records[p]) for p in range(PARTITIONS)}
    batches = stored_batches(broker.data_dir, topic_name)
    for p, hs in batches.items():
        assert {h.compression for h in hs} == {CODECS[compression]}, f"partition {p}: stored codecs"
        assert sum(h.records_count for h in hs) == ends[p]

    # -- consumer: assign + seekToBeginning, read_uncommitted --------------------------
    spec = ",".join(f"{p}=b:{ends[p]}" for p in range(PARTITIONS))
    lines = jrun("consume", broker.bootstrap, topic_name, "read_uncommitted", spec)
    check_consumed(lines, part_records, {p: 0 for p in range(PARTITIONS)})

    # -- consumer: assign + seek(0), read_committed (no transactions: LSO == HW) -------
    spec = ",".join(f"{p}=0:{ends[p]}" for p in range(PARTITIONS))
    lines = jrun("consume", broker.bootstrap, topic_name, "read_committed", spec)
    check_consumed(lines, part_records, {p: 0 for p in range(PARTITIONS)})

    # -- consumer: seek into the middle of a batch (the producer batched these
    #    records, so an offset one past the middle is almost surely inside one) --
    start = {p: ends[p] // 2 + 1 for p in range(PARTITIONS)}
    inside = [p for p in range(PARTITIONS)
              if any(h.base_offset < start[p] <= h.last_offset for h in batches[p])]
    assert inside, f"no seek offset {start} falls inside a stored batch; the step tests nothing"
    spec = ",".join(f"{p}={start[p]}:{ends[p]}" for p in range(PARTITIONS))
    lines = jrun("consume", broker.bootstrap, topic_name, "read_committed", spec)
    check_consumed(lines, part_records, start)

    # -- Admin: describeCluster, describeTopics, listOffsets ---------------------------
    base = min(r[3] for r in records)
    max_ts = max(r[3] for r in records)
    targets = [
        base - 1,              # before everything: offset 0 everywhere
        records[COUNT // 2][3],  # exactly a record's timestamp
        records[COUNT // 2][3] + 50,  # between two records
        records[COUNT - 1][3],  # the newest of the in-order records
        max_ts,                # only the out-of-order record matches
        max_ts + 1,            # nothing: -1
    ]
    out = jrun("offsets", broker.bootstrap, topic_name, ",".join(map(str, targets)))

    (cluster,) = [x for x in out if x["type"] == "cluster"]
    host, port = broker.bootstrap.rsplit(":", 1)
    assert len(cluster["nodes"]) == 1
    node = cluster["nodes"][0]
    assert (node["host"], node["port"]) == (host, int(port))
    assert cluster["controller"] == node["id"]
    assert cluster["cluster_id"]

    (topic,) = [x for x in out if x["type"] == "topic"]
    assert topic["name"] == topic_name and topic["internal"] is False
    assert topic["topic_id"] == c["topic_id"]
    assert sorted(topic["partitions"], key=lambda x: x["partition"]) == [
        {"partition": p, "leader": node["id"], "replicas": [node["id"]], "isr": [node["id"]]}
        for p in range(PARTITIONS)
    ]

    offsets = {(x["spec"], x["partition"]): x for x in out if x["type"] == "offset"}
    problems = []
    for p in range(PARTITIONS):
        part = part_records[p]

        def check(spec, want_offset, want_ts=None):
            got = offsets[(spec, p)]
            if got["offset"] != want_offset or (want_ts is not None and got["timestamp"] != want_ts):
                problems.append(f"partition {p} {spec}: got offset {got['offset']} ts {got['timestamp']}, "
                                f"want offset {want_offset}" + (f" ts {want_ts}" if want_ts is not None else ""))

        check("earliest", 0)
        check("latest", ends[p])  # last offset + 1, not the last batch's base offset + 1
        best = max(part, key=lambda x: x[1][3])
        check("max_timestamp", best[0], best[1][3])
        for t in targets:
            want_off, want_ts = first_at_or_after(part, t)
            check(f"timestamp:{t}", want_off, want_ts)
    assert not problems, "\n".join(problems)
