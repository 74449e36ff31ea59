"""Share groups on the 3-broker ZooKeeper cluster with the Java KafkaShareConsumer.

Membership lives with the group's coordinator (a ``__consumer_offsets`` leader,
writes answered once replicated); the share partitions live with each
partition's leader, so one consumer fetches from three brokers. The first test
checks delivery and acknowledgement across brokers; durability through leader
and share-coordinator failures is test_share_groups_durable.py's. The second
runs the Java Admin's share-group offset APIs against the group coordinator
while every share partition's state is kept by share coordinators on other
brokers: described, altered, deleted, and the group deleted with its state.
"""

from __future__ import annotations

import uuid

import javaclient
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)  # pyflakes: ignore
from test_groups_support import produce, wait_until
from test_share_groups import (FAST, JavaConsumer, admin, consume_sessions_closed,  # noqa: F401
                               java, records, set_group_configs)
from test_share_groups_durable import OVERRIDES as DURABLE, share_coordinator

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


def test_share_group_admin_through_the_share_coordinators(make_cluster):
    """listShareGroupOffsets, alterShareGroupOffsets, deleteShareGroupOffsets and
    deleteShareGroups (Java Admin, answered by the group coordinator), for a group whose three
    share partitions keep their state with three share coordinators and are led by three
    brokers: each acts on every share partition's state, not only on what the group
    coordinator's broker holds."""
    javaclient.require_java()
    c = make_cluster(3, DURABLE)
    topic = f"share-adm-{uuid.uuid4().hex[:8]}"
    ids = [b.node_id for b in c.brokers]
    info = c.create_topic(topic, 3, 3, assignment={p: ids[p:] + ids[:p] for p in range(3)})
    group = f"share-{uuid.uuid4().hex[:8]}"
    # the three keys "group:topic id:p" hash to three consecutive state partitions: once those
    # have their leaders, each broker is the share coordinator of one share partition, so the
    # group coordinator keeps the state of one and two are elsewhere
    wait_until(lambda: {share_coordinator(c.bootstrap, group, info.topic_id, p) for p in range(3)} == set(ids),
               60, "the share partitions' state kept by three share coordinators")
    set_group_configs(c.bootstrap, group, {"share.auto.offset.reset": "earliest"})
    produce(c.bootstrap, topic, 30, 3)  # offsets 0-9 in each partition

    def offsets():
        return sorted((o["partition"], o["start"], o["lag"]) for o in admin(c.bootstrap, "offsets", group)
                      if o["type"] == "offset" and o["topic"] == topic)

    def consume(n: int):
        got = records(java(c.bootstrap, topic, group, "accept", n, 60000, "commit=sync"))
        return sorted((p, o) for p, o, _ in got)

    everything = sorted((p, o) for p in range(3) for o in range(10))
    assert consume(30) == everything
    wait_until(lambda: offsets() == [(0, 10, 0), (1, 10, 0), (2, 10, 0)], 30, "every share partition described")

    wait_until(lambda: admin(c.bootstrap, "alter", group, topic, "0:2,1:5,2:9") == [{"type": "ok"}], 60,
               "the offsets altered (the group empty)")
    assert offsets() == [(0, 2, 8), (1, 5, 5), (2, 9, 1)]
    assert consume(14) == [(0, o) for o in range(2, 10)] + [(1, o) for o in range(5, 10)] + [(2, 9)]

    assert admin(c.bootstrap, "delete-offsets", group, topic) == [{"type": "ok"}]
    assert offsets() == []  # no share partition has state
    assert consume(30) == everything  # started again at share.auto.offset.reset=earliest

    assert sorted(state_summary(c, group, info.topic_id)) == [(p, 0) for p in range(3)]  # state again
    wait_until(lambda: admin(c.bootstrap, "delete", group) == [{"type": "ok"}], 60, "the group deleted")
    assert group not in {l["id"] for l in admin(c.bootstrap, "list") if l["type"] == "group"}
    assert state_summary(c, group, info.topic_id) == []  # the state went with the group


def state_summary(c, group: str, topic_id) -> list[tuple[int, int]]:
    """[(partition, error code)] of ReadShareGroupStateSummary asked of each share partition's
    coordinator, for the partitions that have state (error 0)."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated import read_share_group_state_summary_request as req

    out = []
    for p in range(3):
        node = share_coordinator(c.bootstrap, group, topic_id, p)
        with KafkaClient(c.broker(node).bootstrap) as kc:
            r = kc.request(87, req.ReadShareGroupStateSummaryRequest(group_id=group, topics=[req.ReadStateSummaryData(
                topic_id=topic_id, partitions=[req.PartitionData(partition=p, leader_epoch=-1)])]))
        code = r.results[0].partitions[0].error_code
        assert code in (0, 3), code  # UNKNOWN_TOPIC_OR_PARTITION: no state
        if code == 0:
            out.append((p, code))
    return out
