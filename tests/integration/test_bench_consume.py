"""The bench's consume workload leaves out partitions without records (issue 24).

librdkafka sends its first Fetch as soon as one partition's ListOffsets is
answered; with one Fetch in flight per broker, a first Fetch naming only empty
partitions waits out ``fetch.wait.max.ms`` at any Kafka broker and holds back
the partitions with records: ~0.55 s consume runs instead of ~0.07 s. The
workload now assigns only the partitions that hold records, so every Fetch it
can send has something to answer at once. These tests drive a broker over TCP
with confluent-kafka, as the bench does.
"""

from __future__ import annotations

import pytest

ck = pytest.importorskip("confluent_kafka")

from kwire.bench import workloads  # noqa: E402

pytestmark = pytest.mark.timeout(120)
PARTITIONS = 6
WITH_RECORDS = {1: 30, 4: 20}  # partition -> records; the other four stay empty


@pytest.fixture(scope="module")
def sparse_topic(broker):
    """A 6-partition topic whose records are all in partitions 1 and 4."""
    topic = "bench-consume-sparse"
    workloads.create_topic(ck, broker.bootstrap, topic, PARTITIONS)
    p = ck.Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 0})
    for partition, n in WITH_RECORDS.items():
        for i in range(n):
            p.produce(topic, b"%d-%d" % (partition, i) + b"x" * 1000, partition=partition)
    assert p.flush(30) == 0
    return topic


def test_readable_partitions_are_those_holding_records(broker, sparse_topic):
    c = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "bench-consume-test",
                     "enable.auto.commit": False})
    try:
        parts = workloads.readable_partitions(ck, c, sparse_topic, PARTITIONS)
    finally:
        c.close()
    assert [(tp.topic, tp.partition) for tp in parts] == [(sparse_topic, p) for p in sorted(WITH_RECORDS)]
    assert all(tp.offset == ck.OFFSET_BEGINNING for tp in parts)


def test_consume_reads_every_record_of_a_topic_with_empty_partitions(broker, sparse_topic):
    total = sum(WITH_RECORDS.values())
    r = workloads.consume(ck, broker.bootstrap, sparse_topic, PARTITIONS, 1024, total)
    assert r["messages"] == total
    assert r["seconds"] > 0 and r["mb_per_s"] > 0
