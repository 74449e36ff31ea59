"""Restarts: nothing acknowledged is lost, whatever way the broker stopped.

* kill -9 right after an acks=1 produce completes, with ``flush.messages=1``
  set either on the topic or broker-wide (``log.flush.interval.messages``):
  after a restart on the same data directory every acknowledged record is
  there at its acknowledged offset, and producing continues at the next one.
* SIGTERM: exit code 0 and a clean shutdown; after a restart the records,
  topic ids and topic configs are all there.
* A torn tail: half of a valid batch plus garbage appended to the active
  segment of a killed broker. The restart truncates the segment back to its
  last complete batch and says so in its log; everything before is served
  and the next produce gets the next offset.

Each broker is a ``python -m kwire serve`` subprocess (``spawn_broker``); the
client is kafka-python.
"""

from __future__ import annotations

import os
import time
import uuid

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, KafkaAdminClient

from kwire.records.builder import build_batch

pytestmark = pytest.mark.timeout(180)


# -- kafka-python helpers ---------------------------------------------------------------

def create_topic(bootstrap: str, name: str, partitions: int, configs: dict | None = None) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
    try:
        admin.create_topics({name: {"num_partitions": partitions, "replication_factor": 1,
                                    "configs": configs or {}}})
    finally:
        admin.close()


def describe(bootstrap: str, topic: str):
    """(Metadata topic dict, {config name: entry}) with every config of the topic."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
    try:
        (t,) = admin.describe_topics([topic])
        configs = admin.describe_configs([ConfigResource("TOPIC", topic)], config_filter="all")
        return t, configs["topic"][topic]
    finally:
        admin.close()


def produce(bootstrap: str, topic: str, records, **config) -> list[tuple[int, int, int]]:
    """Send ``(partition, key, value, headers)`` records; return (partition, offset, ts) per record.

    Every send is awaited, so when this returns every record was acknowledged.
    """
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=0, request_timeout_ms=10_000,
                             max_block_ms=10_000, **config)
    try:
        futures = [producer.send(topic, key=k, value=v, headers=h, partition=p) for p, k, v, h in records]
        producer.flush(timeout=30)
        out = []
        for f in futures:
            md = f.get(timeout=30)
            out.append((md.partition, md.offset, md.timestamp))
        return out
    finally:
        producer.close(timeout=10)


def consume_all(bootstrap: str, topic: str, ends: dict[int, int], timeout: float = 30) -> dict[int, list]:
    """Read partitions from the beginning to ``ends``: {p: [(offset, key, value, headers)]}."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False,
                             request_timeout_ms=15_000, fetch_max_wait_ms=200)
    try:
        tps = [TopicPartition(topic, p) for p in ends]
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        got: dict[int, list] = {p: [] for p in ends}
        deadline = time.monotonic() + timeout
        while any(consumer.position(tp) < ends[tp.partition] for tp in tps):
            assert time.monotonic() < deadline, (
                f"consumer stuck at {[consumer.position(tp) for tp in tps]}, want {ends}")
            for tp, msgs in consumer.poll(timeout_ms=500).items():
                got[tp.partition] += [(m.offset, m.key, m.value, list(m.headers)) for m in msgs]
        latest = consumer.end_offsets(tps)
        assert {tp.partition: off for tp, off in latest.items()} == ends, "ListOffsets latest"
        return got
    finally:
        consumer.close()


def expected_log(records, acks) -> dict[int, list]:
    out: dict[int, list] = {}
    for (p, k, v, h), (ap, off, _) in zip(records, acks):
        assert ap == p
        out.setdefault(p, []).append((off, k, v, h))
    for p in out:
        out[p].sort(key=lambda x: x[0])
    return out


def make_records(tag: str, partitions: int, n: int):
    return [(i % partitions, f"{tag}-k{i}".encode(), os.urandom(1 + (i * 37) % 700),
             [("i", str(i).encode())]) for i in range(n)]


def assert_contiguous(log: dict[int, list]) -> None:
    for p, recs in log.items():
        assert [r[0] for r in recs] == list(range(len(recs))), f"partition {p} offsets"


# -- kill -9 --------------------------------------------------------------------------

@pytest.mark.parametrize("flush_via", ["topic", "broker"])
def test_kill9_after_acks1_produce_loses_nothing(spawn_broker, tmp_path, topic_name, flush_via):
    data = tmp_path / "data"
    overrides = {"log.flush.interval.messages": "1"} if flush_via == "broker" else {}
    b1 = spawn_broker(data_dir=data, overrides=overrides)
    create_topic(b1.bootstrap, topic_name, 3, {"flush.messages": "1"} if flush_via == "topic" else None)
    _, configs = describe(b1.bootstrap, topic_name)
    assert configs["flush.messages"]["value"] == "1", configs.get("flush.messages")

    records = make_records("a", 3, 150)
    acks = []
    for chunk in range(0, len(records), 50):  # several produce requests per partition
        acks += produce(b1.bootstrap, topic_name, records[chunk:chunk + 50], acks=1,
                        enable_idempotence=False)
    want = expected_log(records, acks)
    assert_contiguous(want)
    b1.kill()
    assert b1.proc.returncode == -9

    b2 = spawn_broker(data_dir=data, overrides=overrides)
    assert "unclean" in b2.log_text.lower(), f"kill -9 not noticed as an unclean shutdown:\n{b2.log_text}"
    ends = {p: len(want[p]) for p in range(3)}
    assert consume_all(b2.bootstrap, topic_name, ends) == want, "acknowledged records after kill -9"

    more = make_records("b", 3, 30)
    acks2 = produce(b2.bootstrap, topic_name, more, acks=1, enable_idempotence=False)
    for (p, *_), (_, off, _) in zip(more, acks2):
        assert off >= ends[p]
    want2 = expected_log(records + more, acks + acks2)
    assert_contiguous(want2)
    assert consume_all(b2.bootstrap, topic_name, {p: len(want2[p]) for p in range(3)}) == want2


# -- SIGTERM --------------------------------------------------------------------------

TOPIC_CONFIGS = {"retention.ms": "987654321", "max.message.bytes": "300000",
                 "cleanup.policy": "delete", "segment.bytes": "1048576"}


def test_sigterm_clean_shutdown_and_restart(spawn_broker, tmp_path, topic_name):
    data = tmp_path / "data"
    b1 = spawn_broker(data_dir=data)
    create_topic(b1.bootstrap, topic_name, 2, TOPIC_CONFIGS)
    t1, configs1 = describe(b1.bootstrap, topic_name)
    topic_id = uuid.UUID(str(t1["topic_id"]))  # kafka-python gives it as a string
    assert topic_id.int != 0
    for k, v in TOPIC_CONFIGS.items():
        assert configs1[k]["value"] == v, f"{k} before restart: {configs1.get(k)}"

    records = make_records("s", 2, 80)
    acks = produce(b1.bootstrap, topic_name, records)  # default: idempotent, acks=all
    want = expected_log(records, acks)
    assert_contiguous(want)

    rc = b1.terminate(timeout=30)
    assert rc == 0, f"exit code {rc} after SIGTERM; log:\n{b1.log_text}"
    assert "Traceback" not in b1.log_text, b1.log_text
    assert "shutdown complete" in b1.log_text.lower(), f"no clean-shutdown line:\n{b1.log_text}"

    b2 = spawn_broker(data_dir=data)
    assert "unclean" not in b2.log_text.lower(), f"restart after SIGTERM treated as unclean:\n{b2.log_text}"
    ends = {p: len(want[p]) for p in range(2)}
    assert consume_all(b2.bootstrap, topic_name, ends) == want
    t2, configs2 = describe(b2.bootstrap, topic_name)
    assert uuid.UUID(str(t2["topic_id"])) == topic_id, "topic id changed across a restart"
    assert len(t2["partitions"]) == 2
    for k, v in TOPIC_CONFIGS.items():
        assert configs2[k]["value"] == v, f"{k} after restart: {configs2.get(k)}"
        assert configs2[k]["config_source"] == "DYNAMIC_TOPIC_CONFIG", (k, configs2[k])

    more = make_records("t", 2, 10)
    acks2 = produce(b2.bootstrap, topic_name, more)
    want2 = expected_log(records + more, acks + acks2)
    assert_contiguous(want2)
    assert consume_all(b2.bootstrap, topic_name, {p: len(want2[p]) for p in range(2)}) == want2
    assert b2.terminate(timeout=30) == 0


# -- torn tail --------------------------------------------------------------------------

def test_torn_tail_is_truncated_on_restart(spawn_broker, tmp_path, topic_name):
    data = tmp_path / "data"
    b1 = spawn_broker(data_dir=data)
    create_topic(b1.bootstrap, topic_name, 1)
    records = make_records("x", 1, 60)
    acks = []
    for chunk in range(0, len(records), 20):
        acks += produce(b1.bootstrap, topic_name, records[chunk:chunk + 20], acks=1, enable_idempotence=False)
    want = expected_log(records, acks)
    assert_contiguous(want)
    b1.kill()

    segment = data / f"{topic_name}-0" / "00000000000000000000.log"
    assert segment.is_file(), sorted(os.listdir(data))
    good_size = segment.stat().st_size
    torn = build_batch([(b"torn-key", b"torn-value" * 50, [], None)] * 5, base_offset=len(records))
    with open(segment, "ab") as f:
        f.write(torn[: len(torn) // 2])
        f.write(b"\xde\xad\xbe\xef" * 8 + bytes(range(64)))
        f.flush()
        os.fsync(f.fileno())

    b2 = spawn_broker(data_dir=data)
    truncation_lines = [line for line in b2.log_lines
                        if "truncat" in line.lower() and f"{topic_name}-0" in line]
    assert truncation_lines, f"no log line says {topic_name}-0 was truncated:\n{b2.log_text}"
    assert segment.stat().st_size == good_size, "segment not truncated back to its last complete batch"

    assert consume_all(b2.bootstrap, topic_name, {0: len(records)}) == want
    (ack,) = produce(b2.bootstrap, topic_name, [(0, b"after", b"restart", [])], acks=1,
                     enable_idempotence=False)
    assert ack[1] == len(records), f"next produce got offset {ack[1]}, want {len(records)}"
    want[0].append((len(records), b"after", b"restart", []))
    assert consume_all(b2.bootstrap, topic_name, {0: len(records) + 1}) == want
