"""Metadata answers spliced from cached per-topic blocks (kwire.handlers.metadata_blocks) follow
every change, as real clients see it.

The cache has no invalidation hooks: a topic's block is reused only while what the
answer says of each of its partitions is unchanged. These tests warm the cache with
real clients' Metadata requests, change something, and wait (polling, a loaded
machine's clients lag) until the clients see the change:

* one broker: partitions added (CreatePartitions), a topic deleted, a topic re-created
  under the same name with another partition count (a new topic id), and the answers
  for all topics, for some topics by name, and across request versions (librdkafka,
  kafka-python) agreeing with each other;
* a 3-broker cluster: the leader of a partition killed (a new leader and leader epoch,
  the ISR shrinks, the dead replica offline), the broker restarted on another port (its
  endpoint changes, it returns to the ISR), all seen through another broker's cached
  blocks.

The byte-for-byte equality of a spliced response with the generated encoder's, every
version, is tested too (the codec's contract with ``SelfEncoding``).
"""

from __future__ import annotations

import time
import uuid

from cluster_fixtures import free_port, make_cluster, zookeeper  # noqa: F401 (fixtures)
from confluent_kafka.admin import AdminClient, NewPartitions, NewTopic

from kwire.handlers.metadata_blocks import CachedTopic, SplicedMetadataResponse
from kwire.protocol import codec
from kwire.protocol.generated.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)


def _wait(fn, what: str, timeout: float = 60.0):
    """Poll ``fn()`` until it returns a true value; returns it."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = fn()
            if last:
                return last
        except Exception as e:  # a client whose connection or metadata lags: ask again
            last = e
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}; last: {last!r}")
        time.sleep(0.1)


def _admin(bootstrap: str) -> AdminClient:
    return AdminClient({"bootstrap.servers": bootstrap, "log_level": 0})


def _view(md, names) -> dict:
    """{topic: {partition: (leader, replicas, isr)}} of a confluent-kafka ClusterMetadata."""
    return {n: {p.id: (p.leader, list(p.replicas), list(p.isrs)) for p in md.topics[n].partitions.values()}
            for n in names if n in md.topics and md.topics[n].error is None}


def test_spliced_response_is_the_generated_encoding_at_every_version():
    for v in range(14):
        ops = -2147483648 if v < 8 else 248
        topics = [MetadataResponseTopic(
            name=f"t{k}", topic_id=uuid.uuid4(), is_internal=k == 1, topic_authorized_operations=ops,
            partitions=[MetadataResponsePartition(partition_index=i, leader_id=1, leader_epoch=3,
                                                  replica_nodes=[1, 2], isr_nodes=[1], offline_replicas=[2])
                        for i in range(k * 3)]) for k in range(4)]
        topics.append(MetadataResponseTopic(error_code=3, name="unknown"))
        common = dict(brokers=[MetadataResponseBroker(node_id=1, host="h", port=9, rack="r")], cluster_id="c",
                      controller_id=1, throttle_time_ms=7,
                      cluster_authorized_operations=5 if 8 <= v <= 10 else -2147483648)
        plain = b"".join(codec.encode_response(3, v, 11, MetadataResponse(topics=topics, **common)))
        cached = [CachedTopic((t.name, t.is_internal, t.topic_authorized_operations),
                              [(p.error_code, p.partition_index, p.leader_id, p.leader_epoch,
                                tuple(p.replica_nodes), tuple(p.isr_nodes), tuple(p.offline_replicas))
                               for p in t.partitions], t.topic_id) for t in topics[:4]]
        spliced = SplicedMetadataResponse(topics=cached + topics[4:], **common)
        for _ in range(2):  # the second time from the blocks cached the first
            assert b"".join(codec.encode_response(3, v, 11, spliced)) == plain, v
        assert codec.decode_response(3, v, plain[4:])[1] == codec.decode_response(
            3, v, b"".join(codec.encode_response(3, v, 11, spliced.materialize()))[4:])[1], v


def test_one_broker_partitions_added_topic_deleted_and_recreated(make_broker, topic_name):
    from kafka import KafkaAdminClient

    b = make_broker()
    admin = _admin(b.bootstrap)
    a, keep = f"{topic_name}-a", f"{topic_name}-keep"
    for n, count in ((a, 2), (keep, 3)):
        admin.create_topics([NewTopic(n, count, 1)])[n].result(60)
    kp = KafkaAdminClient(bootstrap_servers=b.bootstrap, request_timeout_ms=30_000)
    try:
        def counts(names=None):
            md = admin.list_topics(timeout=10) if names is None else admin.list_topics(names[0], timeout=10)
            return {n: len(t.partitions) for n, t in md.topics.items() if t.error is None and n in (a, keep)}

        def kp_counts():
            return {t.get("name", t.get("topic")): len(t["partitions"]) for t in kp.describe_topics([a, keep])
                    if t["error_code"] == 0}

        assert _wait(lambda: counts() == {a: 2, keep: 3}, "both topics listed")
        for _ in range(3):  # warm: the same answer from the cached blocks, all topics and by name
            assert counts() == {a: 2, keep: 3} and counts([a]) == {a: 2} and kp_counts() == {a: 2, keep: 3}

        admin.create_partitions([NewPartitions(a, 5)])[a].result(60)
        _wait(lambda: counts() == {a: 5, keep: 3}, "5 partitions in the answer for all topics")
        _wait(lambda: counts([a]) == {a: 5}, "5 partitions in the answer by name")
        _wait(lambda: kp_counts() == {a: 5, keep: 3}, "5 partitions seen by kafka-python")
        md = admin.list_topics(timeout=10)
        assert all(p.leader == md.orig_broker_id for p in md.topics[a].partitions.values())

        admin.delete_topics([a])[a].result(60)
        _wait(lambda: counts() == {keep: 3}, "the deleted topic gone from the answer for all topics")
        _wait(lambda: kp_counts() == {keep: 3}, "the deleted topic gone for kafka-python")

        def recreated():
            try:
                admin.create_topics([NewTopic(a, 1, 1)])[a].result(60)
                return True
            except Exception as e:  # the deletion not finished yet: TOPIC_ALREADY_EXISTS / marked for deletion
                if "exists" in str(e).lower() or "deletion" in str(e).lower():
                    return False
                raise
        _wait(recreated, "the topic re-created")
        _wait(lambda: counts() == {a: 1, keep: 3}, "the re-created topic with 1 partition")
        _wait(lambda: kp_counts() == {a: 1, keep: 3}, "the re-created topic for kafka-python")
    finally:
        kp.close()


def test_cluster_leader_isr_and_endpoint_changes_reach_clients_through_the_cache(make_cluster, topic_name):
    c = make_cluster(3)
    name = topic_name
    c.create_topic(name, partitions=2, replication_factor=3)
    leader = c.leader_of(name, 0)
    watcher = next(b for b in c.brokers if b.node_id != leader)  # answers from its cached blocks
    admin = _admin(watcher.bootstrap)  # bootstrapped to the watcher alone: its answers are read

    def view():
        return _view(admin.list_topics(timeout=10), [name]).get(name)

    before = _wait(view, "the topic listed by the watcher")
    for _ in range(3):
        assert view() == before
    assert before[0][0] == leader and sorted(before[0][2]) == [1, 2, 3]
    dead = c.broker(leader)
    dead.kill()

    def moved():
        v = view()
        return v if v and v[0][0] not in (leader, -1) and leader not in v[0][2] else None
    after = _wait(moved, "a new leader and an ISR without the killed broker", timeout=90)
    assert sorted(after[0][1]) == [1, 2, 3]  # replicas unchanged

    def brokers():
        return {b.id: b.port for b in admin.list_topics(timeout=10).brokers.values()}
    _wait(lambda: leader not in brokers(), "the killed broker gone from the brokers", timeout=90)
    old_port = dead.port
    dead.port = free_port(dead.host)  # the same broker id back on another port: a new endpoint
    assert dead.port != old_port
    dead.start()
    _wait(lambda: brokers().get(leader) == dead.port, "the restarted broker's new port", timeout=90)
    _wait(lambda: (v := view()) and sorted(v[0][2]) == [1, 2, 3], "the restarted broker back in the ISR",
          timeout=120)
