"""Share groups on the 3-broker ZooKeeper cluster with the Java KafkaShareConsumer.

Membership lives with the group's coordinator (a ``__consumer_offsets`` leader,
writes answered once replicated); the share partitions live with each
partition's leader, so one consumer fetches from three brokers. In cluster mode
the share-partition state is kept in memory only (see docs/share-groups.md):
this test checks delivery and acknowledgement across brokers, not durability.
"""

from __future__ import annotations

import uuid

import javaclient
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from test_share_groups import FAST, done, java, records, set_group_configs

OVERRIDES = {"min.insync.replicas": "2", "offsets.topic.num.partitions": "3",
             "group.initial.rebalance.delay.ms": "0", "offsets.topic.replication.factor": "3", **FAST}


def test_share_group_across_three_brokers(make_cluster):
    from kafka import KafkaAdminClient, KafkaProducer
    from kafka.admin import NewTopic

    javaclient.require_java()
    c = make_cluster(3, OVERRIDES)
    topic = f"share-c-{uuid.uuid4().hex[:8]}"
    admin = KafkaAdminClient(bootstrap_servers=c.bootstrap)
    try:
        admin.create_topics([NewTopic(topic, 3, 3)])
    finally:
        admin.close()
    c.wait_until(lambda md: topic in md.topics and len(md.topics[topic].partitions) == 3 and all(
        pi.leader >= 0 for pi in md.topics[topic].partitions.values()), 60, "the topic's leaders", topics=[topic])
    p = KafkaProducer(bootstrap_servers=c.bootstrap, acks="all", retries=20, retry_backoff_ms=200)
    try:
        for i in range(60):
            p.send(topic, value=f"v-{i}".encode(), partition=i % 3)
        p.flush(timeout=60)
    finally:
        p.close()
    group = f"share-{uuid.uuid4().hex[:8]}"
    set_group_configs(c.bootstrap, group, {"share.auto.offset.reset": "earliest",
                                           "share.record.lock.duration.ms": "15000"})
    lines = java(c.bootstrap, topic, group, "accept", 60, 60000, "commit=sync")
    assert done(lines) == 60
    got = sorted((part, o) for part, o, _ in records(lines))
    assert got == sorted((i % 3, i // 3) for i in range(60))
    assert records(java(c.bootstrap, topic, group, "accept", 1, 5000)) == []
