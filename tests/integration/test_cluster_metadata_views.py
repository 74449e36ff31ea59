"""Every broker of a cluster gives the same view of topics, also right after a change.

* Read-your-writes across brokers: a topic created through broker 1 is
  answered by brokers 2 and 3 straight away (Metadata without
  auto-creation, DescribeConfigs, DescribeTopicPartitions), although their
  ZooKeeper watches may not have delivered it yet when the request arrives;
  so is a config change (DescribeConfigs reads the config znode, as Kafka's
  ZooKeeper mode does).
* A topic whose partitions have no leader state yet (the controller has not
  written it: here, because its only replica's broker does not exist) is not
  listed, and named it answers LEADER_NOT_AVAILABLE, as a Kafka broker that
  learns topics only with their leaders.
* DescribeTopicPartitions shows dead replicas as offline and a dead leader
  as -1 with LEADER_NOT_AVAILABLE, as Metadata does.
"""

from __future__ import annotations

import uuid

from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)

from kazoo.client import KazooClient

from kwire.client import RESOURCE_TOPIC, KafkaClient, NewTopic

CONFIG_SOURCE_DYNAMIC_TOPIC = 1  # DescribeConfigs' source of a topic override
from kwire.cluster import zk_layout as L
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.describe_topic_partitions_request import (
    DescribeTopicPartitionsRequest,
    TopicRequest,
)

DESCRIBE_TOPIC_PARTITIONS = 75


def _describe_partitions(client: KafkaClient, name: str):
    req = DescribeTopicPartitionsRequest(topics=[TopicRequest(name=name)], response_partition_limit=100)
    return client.request(DESCRIBE_TOPIC_PARTITIONS, req).topics[0]


def test_a_topic_created_through_one_broker_is_answered_at_once_by_the_others(make_cluster):
    c = make_cluster(3)
    first, *others = c.brokers
    clients = [KafkaClient(b.bootstrap, timeout=30) for b in others]
    try:
        with KafkaClient(first.bootstrap, timeout=30) as creator:
            for i in range(8):
                name = f"ryw-{i}"
                creator.create_topics([NewTopic(name, 2, 3)])
                for cl in clients:
                    t = cl.metadata([name]).topics[name]
                    assert t.error_code == 0, (name, ErrorCode(t.error_code).name)
                    assert all(p.leader >= 0 for p in t.partitions.values())
                    assert any(e.name == "cleanup.policy" for e in cl.describe_configs(RESOURCE_TOPIC, name))
                    dtp = _describe_partitions(cl, name)
                    assert dtp.error_code == 0 and len(dtp.partitions) == 2
            # a config change through broker 1 is described at once by the others (Kafka's
            # ZooKeeper mode reads the config znode), also a DELETE back to the default
            for i in range(6):
                value = str(3_600_000 + i)
                if i % 2 == 0:
                    creator.incremental_alter_configs(RESOURCE_TOPIC, "ryw-0", {"retention.ms": value})
                else:
                    creator.incremental_alter_configs(RESOURCE_TOPIC, "ryw-0", delete_configs=["retention.ms"])
                for cl in clients:
                    [e] = cl.describe_configs(RESOURCE_TOPIC, "ryw-0", ["retention.ms"])
                    if i % 2 == 0:
                        assert e.value == value and e.source == CONFIG_SOURCE_DYNAMIC_TOPIC, e
                    else:
                        assert e.source != CONFIG_SOURCE_DYNAMIC_TOPIC, e
        # an unknown topic still answers with UNKNOWN_TOPIC_OR_PARTITION
        t = clients[0].metadata(["no-such-topic"]).topics["no-such-topic"]
        assert t.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    finally:
        for cl in clients:
            cl.close()


def test_a_topic_without_partition_state_is_hidden(make_cluster):
    c = make_cluster(3)
    # its only replica is on a broker id that never registered: the controller writes no state
    zk = KazooClient(c.connect, timeout=10)
    zk.start(timeout=30)
    try:
        zk.create(L.topic_config_path("stateless"), L.encode_config({}), makepath=True)
        zk.create(L.topic_path("stateless"), L.encode_topic(uuid.uuid4(), {0: [99]}), makepath=True)
    finally:
        zk.stop()
        zk.close()
    for b in c.brokers:
        with KafkaClient(b.bootstrap, timeout=30) as cl:
            named = cl.metadata(["stateless"]).topics["stateless"]
            assert named.error_code == ErrorCode.LEADER_NOT_AVAILABLE
            assert "stateless" not in cl.metadata(None).topics
            assert _describe_partitions(cl, "stateless").error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


def test_describe_topic_partitions_shows_a_dead_leader_as_offline(make_cluster):
    c = make_cluster(3)
    c.create_topic("two", partitions=1, replication_factor=2)
    replicas = c.describe("two").partitions[0].replicas
    for b in c.brokers:
        if b.node_id in replicas:
            b.kill()
    survivor = next(b for b in c.brokers if b.node_id not in replicas)
    with KafkaClient(survivor.bootstrap, timeout=30) as cl:
        c.wait_until(lambda md: _describe_partitions(cl, "two").partitions[0].error_code
                     == ErrorCode.LEADER_NOT_AVAILABLE, 60, "the partition to be offline",
                     bootstrap=survivor.bootstrap)
        p = _describe_partitions(cl, "two").partitions[0]
        assert p.leader_id == -1
        assert sorted(p.offline_replicas) == sorted(replicas)
