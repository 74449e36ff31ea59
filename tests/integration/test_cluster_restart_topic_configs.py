"""A restarted cluster broker's logs take their topic's config, not the broker defaults.

Regression test (found by the clock-skew tests, docs/partitions-zookeeper-and-clocks.md):
a broker loads its partition logs from disk at start-up with the broker's
default log settings, and the replica manager handed an already-loaded log
back without its topic's config. A topic with ``message.timestamp.type=
LogAppendTime`` then had CreateTime records appended by a restarted broker
once it led the partition (and likewise retention, segment and cleanup
settings were the defaults) until the topic's config next changed. Kafka's
LogManager loads every log with its topic's config.

A 3-broker cluster, one partition on [2, 1, 3] with LogAppendTime: broker 2 is
killed and restarted, broker 1 (the leader meanwhile) is killed, broker 2
leads again and must stamp the append time (librdkafka's delivery report
gives the timestamp type the broker answered; a consumer reads the stored one).
"""

from __future__ import annotations

import uuid

import pytest

ck = pytest.importorskip("confluent_kafka")

from cluster_fixtures import make_cluster, zookeeper  # noqa: E402,F401  (fixtures)

pytestmark = pytest.mark.timeout(240)


def _produce(bootstrap: str, topic: str, value: bytes):
    p = ck.Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "acks": "all",
                     "message.timeout.ms": 60000})
    out = []
    p.produce(topic, value, partition=0, on_delivery=lambda err, msg: out.append((err, msg)))
    p.flush(90)
    assert len(out) == 1 and out[0][0] is None, out
    return out[0][1].timestamp()


def _stored_types(bootstrap: str, topic: str, n: int) -> list[int]:
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                     "enable.auto.commit": False})
    types: list[int] = []
    try:
        c.assign([ck.TopicPartition(topic, 0, ck.OFFSET_BEGINNING)])
        for _ in range(120):
            for m in c.consume(10, 0.5):
                if m.error() is None:
                    types.append(m.timestamp()[0])
            if len(types) >= n:
                break
    finally:
        c.close()
    return types


def test_restarted_broker_leads_with_its_topics_config(make_cluster):  # noqa: F811
    c = make_cluster(3, session_timeout_ms=6000)
    topic = "restart-lat"
    c.create_topic(topic, assignment={0: [2, 1, 3]}, configs={"message.timestamp.type": "LogAppendTime"})
    assert _produce(c.bootstrap, topic, b"before")[0] == ck.TIMESTAMP_LOG_APPEND_TIME
    c.broker(2).kill()
    c.broker(2).start()
    c.wait_until(lambda md: len(md.topics[topic].partitions[0].isr) == 3, 60, "broker 2 back in the ISR",
                 topics=[topic])
    c.broker(1).kill()
    c.wait_until(lambda md: md.topics[topic].partitions[0].leader == 2, 60, "broker 2 leading", topics=[topic])
    assert _produce(c.live_bootstrap, topic, b"after")[0] == ck.TIMESTAMP_LOG_APPEND_TIME
    assert _stored_types(c.live_bootstrap, topic, 2) == [ck.TIMESTAMP_LOG_APPEND_TIME] * 2
