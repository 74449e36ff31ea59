"""A group coordinator whose ``__consumer_offsets`` partition drops below its min ISR during a commit.

Issue 23: the coordinator replayed each ``__consumer_offsets`` write into
memory as soon as it was appended. When its replication then failed
(NOT_ENOUGH_REPLICAS_AFTER_APPEND: the leader cut off from its follower, the
ISR shrunk to the leader alone), the client was answered
COORDINATOR_NOT_AVAILABLE, but OffsetFetch served the failed commit: a
consumer restarting there resumes from an offset the group never committed.
Kafka holds a commit aside until it is written (its pending offset commits;
the new coordinator reads at the last committed offset) and drops it when
the write fails; so does kwire now.

One 3-broker nemesis cluster (links cut with iptables), ``__consumer_offsets``
at RF 2 with ``min.insync.replicas`` 2; the group is chosen so that its
partition is led by broker 1 with broker B as the other replica. The
client (confluent-kafka, on an address no cut touches) commits 5; 1-B is cut
and it commits 9 at once: appended while the ISR is still [1, B], it fails
once the ISR shrinks, and OffsetFetch must still say 5. After the heal the
group commits 12 and reads 12 back.
"""

from __future__ import annotations

import time
import uuid

import pytest
from nemesis_workload import nemesis_cluster  # noqa: F401 (fixture)
from test_nemesis_txn_coordinator import _wait_isr

from kwire.coordinator.base import partition_for

ck = pytest.importorskip("confluent_kafka")

pytestmark = pytest.mark.timeout(150)

OFFSETS = "__consumer_offsets"
OVERRIDES = {"offsets.topic.replication.factor": "2", "offsets.topic.num.partitions": "6",
             "min.insync.replicas": "2", "replica.lag.time.max.ms": "2000",
             # longer than the ISR shrink: the wait ends on NOT_ENOUGH_REPLICAS_AFTER_APPEND
             "offsets.commit.timeout.ms": "20000", "unclean.leader.election.enable": "false"}


def _consumer(c, group: str):
    return ck.Consumer({"bootstrap.servers": c.bootstrap, "group.id": group, "enable.auto.commit": False,
                        "retry.backoff.ms": 100, "retry.backoff.max.ms": 500})


def _commit(consumer, topic: str, offset: int):
    """The commit's error (a ``KafkaError``), or None when every partition was committed."""
    try:
        out = consumer.commit(offsets=[ck.TopicPartition(topic, 0, offset)], asynchronous=False)
    except ck.KafkaException as e:
        return e.args[0]
    return next((tp.error for tp in out if tp.error is not None), None)


def _committed(consumer, topic: str) -> int:
    (tp,) = consumer.committed([ck.TopicPartition(topic, 0)], timeout=30)
    assert tp.error is None, tp.error
    return tp.offset


def _commit_until_ok(consumer, topic: str, offset: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while (err := _commit(consumer, topic, offset)) is not None:
        assert err.retriable() or err.code() in (ck.KafkaError.COORDINATOR_NOT_AVAILABLE,
                                                  ck.KafkaError.NOT_COORDINATOR), err
        assert time.monotonic() < deadline, f"commit of {offset} still failing: {err}"
        time.sleep(0.2)


def test_a_commit_that_fails_to_replicate_is_not_served(nemesis_cluster):  # noqa: F811
    c, fw, topo = nemesis_cluster(OVERRIDES)
    topic = f"t-{uuid.uuid4().hex[:6]}"
    c.create_topic(topic, 1, 1)
    warm = _consumer(c, f"warm-{uuid.uuid4().hex[:6]}")
    _commit_until_ok(warm, topic, 1)  # creates __consumer_offsets
    warm.close()
    offsets = c.describe(OFFSETS)
    x = next(p for p, info in sorted(offsets.partitions.items()) if info.leader == 1)
    b = next(r for r in offsets.partitions[x].replicas if r != 1)
    group = next(g for g in (f"g-{uuid.uuid4().hex[:8]}" for _ in range(10000))
                 if partition_for(g, len(offsets.partitions)) == x)
    _wait_isr(c, OFFSETS, x, sorted([1, b]))

    consumer = _consumer(c, group)
    _commit_until_ok(consumer, topic, 5)
    assert _committed(consumer, topic) == 5
    since = len(c.broker(1).log_text())
    fw.cut(topo.split(["1"], [str(b)]))
    err = _commit(consumer, topic, 9)  # appended at once; its replication fails as the ISR shrinks
    assert err is not None and err.code() == ck.KafkaError.COORDINATOR_NOT_AVAILABLE, err
    assert "not replicated: NOT_ENOUGH_REPLICAS_AFTER_APPEND" in c.broker(1).log_text()[since:]
    assert _committed(consumer, topic) == 5  # the old code answered 9 here
    err = _commit(consumer, topic, 10)  # ISR [1] < 2: refused at the append
    assert err is not None and err.code() == ck.KafkaError.COORDINATOR_NOT_AVAILABLE, err
    assert _committed(consumer, topic) == 5

    fw.heal()
    healed = time.monotonic()
    _commit_until_ok(consumer, topic, 12)
    print(f"\ncommits accepted again {time.monotonic() - healed:.1f} s after the heal")
    assert _committed(consumer, topic) == 12
    consumer.close()
    again = _consumer(c, group)  # a new member of the group reads what was committed
    assert _committed(again, topic) == 12
    again.close()
