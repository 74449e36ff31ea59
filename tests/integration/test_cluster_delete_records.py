"""DeleteRecords in a cluster: only the leader moves the log start, and followers follow it.

A follower answers NOT_LEADER_OR_FOLLOWER; the leader moves its log start and
answers its low watermark; the followers take the new log start from the
leader's fetch answers, so after the leader is killed the new leader's
earliest offset is the deleted-to offset.
"""

from __future__ import annotations

from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from confluent_kafka import Producer

from kwire.client import EARLIEST_TIMESTAMP, KafkaClient
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.delete_records_request import (
    DeleteRecordsPartition,
    DeleteRecordsRequest,
    DeleteRecordsTopic,
)

DELETE_RECORDS = 21


def _delete(client: KafkaClient, node: int, topic: str, offset: int):
    req = DeleteRecordsRequest(topics=[DeleteRecordsTopic(name=topic, partitions=[
        DeleteRecordsPartition(partition_index=0, offset=offset)])], timeout_ms=10000)
    return client.request(DELETE_RECORDS, req, node=node).topics[0].partitions[0]


def test_delete_records_moves_the_log_start_on_the_leader_and_its_followers(make_cluster):
    c = make_cluster(3)
    c.create_topic("dr", partitions=1, replication_factor=3)
    p = Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "linger.ms": 5})
    for i in range(50):
        p.produce("dr", value=b"v%d" % i, partition=0)
    assert p.flush(30) == 0
    info = c.describe("dr").partitions[0]
    leader = info.leader
    follower = next(r for r in info.replicas if r != leader)
    with KafkaClient(c.bootstrap, timeout=30) as cl:
        cl.metadata(["dr"])
        refused = _delete(cl, follower, "dr", 20)
        assert refused.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
        done = _delete(cl, leader, "dr", 20)
        assert done.error_code == 0 and done.low_watermark == 20
    # the followers learn the new log start from the leader's next fetch answers;
    # produce once more so that a fetch answer certainly carried it
    p.produce("dr", value=b"after", partition=0)
    assert p.flush(30) == 0
    next(b for b in c.brokers if b.node_id == leader).kill()
    c.wait_until(lambda md: md.topics["dr"].partitions[0].leader not in (-1, leader), 60,
                 "a new leader", topics=["dr"], bootstrap=c.live_bootstrap)
    with KafkaClient(c.live_bootstrap, timeout=30) as cl:
        assert cl.list_offsets("dr", 0, EARLIEST_TIMESTAMP)[0] == 20


def test_a_log_of_an_earlier_topic_of_the_same_name_is_not_served(make_cluster):
    """Broker 3, the only replica of ``re``, is down while ``re`` is deleted and created again
    (a new topic id). When it comes back it must not lead the new topic with the old
    records: the log's ``partition.metadata`` names the old topic id, so it is removed."""
    import uuid

    from kazoo.client import KazooClient

    from kwire.client import LATEST_TIMESTAMP
    from kwire.cluster import zk_layout as L

    c = make_cluster(3)
    c.create_topic_zk("re", assignment={0: [3]})
    p = Producer({"bootstrap.servers": c.bootstrap, "acks": "all"})
    for i in range(5):
        p.produce("re", value=b"old-%d" % i, partition=0)
    assert p.flush(30) == 0
    third = next(b for b in c.brokers if b.node_id == 3)
    assert third.stop() == 0
    zk = KazooClient(c.connect, timeout=10)
    zk.start(timeout=30)
    try:
        zk.create(L.delete_topic_path("re"), b"", makepath=True)
        c.wait_until(lambda md: "re" not in md.topics, 60, "the deletion", bootstrap=c.live_bootstrap)
        zk.create(L.topic_config_path("re"), L.encode_config({}), makepath=True)
        zk.create(L.topic_path("re"), L.encode_topic(uuid.uuid4(), {0: [3]}), makepath=True)
    finally:
        zk.stop()
        zk.close()
    third.start()
    c.wait_until(lambda md: "re" in md.topics and md.topics["re"].partitions[0].leader == 3, 60,
                 "broker 3 to lead the new topic", topics=["re"])
    with KafkaClient(c.bootstrap, timeout=30) as cl:
        cl.metadata(["re"])
        assert cl.list_offsets("re", 0, LATEST_TIMESTAMP)[0] == 0
