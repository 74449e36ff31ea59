"""Share groups on the 3-broker ZooKeeper cluster with the Java KafkaShareConsumer.

Membership lives with the group's coordinator (a ``__consumer_offsets`` leader,
writes answered once replicated); the share partitions live with each
partition's leader, so one consumer fetches from three brokers. This test
checks delivery and acknowledgement across brokers; durability through leader
and share-coordinator failures is test_share_groups_durable.py's.
"""

from __future__ import annotations

import uuid

import javaclient
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)  # pyflakes: ignore
from test_groups_support import wait_until
from test_share_groups import FAST, JavaConsumer, java, records

OVERRIDES = {"min.insync.replicas": "2", "offsets.topic.num.partitions": "3",
             "group.initial.rebalance.delay.ms": "0", "offsets.topic.replication.factor": "3", **FAST,
             "group.share.record.lock.duration.ms": "15000"}


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
    # the group keeps the default share.auto.offset.reset=latest, so it starts at the end of each
    # partition when its member first fetches there: warm-up records go to every partition until
    # the member has read from all three, then the 60 counted
    group = f"share-{uuid.uuid4().hex[:8]}"
    member = JavaConsumer(c.bootstrap, topic, group, "accept", "100000", "120000", "commit=sync",
                          "idle-exit-ms=5000")
    p = KafkaProducer(bootstrap_servers=c.bootstrap, acks="all", retries=20, retry_backoff_ms=200)
    try:
        def warmed() -> bool:
            for i in range(3):
                p.send(topic, value=b"warm-up", partition=i)
            p.flush(timeout=60)
            return {l["partition"] for l in member.lines if l["type"] == "record"} == {0, 1, 2}

        wait_until(warmed, 90, "the member reading every partition")
        for i in range(60):
            p.send(topic, value=f"v-{i}".encode(), partition=i % 3)
        p.flush(timeout=60)
        lines = member.finish(120)
    finally:
        p.close()
        member.kill()
    counted = sorted(l["value"] for l in lines if l["type"] == "record" and l["value"].startswith("v-"))
    assert counted == sorted(f"v-{i}" for i in range(60))  # each exactly once, across three leaders
    assert records(java(c.bootstrap, topic, group, "accept", 1, 5000)) == []
