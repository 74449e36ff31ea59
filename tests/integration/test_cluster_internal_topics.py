"""The internal topics' durability on a ZooKeeper cluster, from the settings Kafka takes it from.

* ``__transaction_state``: ``transaction.state.log.replication.factor``
  replicas and the topic config ``min.insync.replicas`` =
  ``transaction.state.log.min.isr`` (Kafka's TransactionStateManager);
* ``__consumer_offsets``: ``offsets.topic.replication.factor`` replicas; it has
  no min ISR setting of its own, so its ``min.insync.replicas`` is the
  broker's (Kafka's GroupCoordinator sets no such topic config);
* both are created on first use (FindCoordinator), and only once as many
  brokers as the replication factor are alive: before that FindCoordinator
  answers COORDINATOR_NOT_AVAILABLE and nothing is created (Kafka's
  ``KafkaApis.createInternalTopic``), which is what one broker with the
  Kafka default of 3 gets; with the factor 1 one broker works (groups commit,
  transactions commit);
* ``transaction.state.log.min.isr`` is enforced: below it the transaction
  coordinator refuses to write (InitProducerId: COORDINATOR_NOT_AVAILABLE,
  Kafka's mapping of NOT_ENOUGH_REPLICAS), and writes again once the ISR is
  back.

The start-up log no longer names the settings among those "accepted but not
acted on". Checked with confluent-kafka (a group consumer that commits, a transactional
producer) and raw FindCoordinator / Metadata / DescribeConfigs.
"""

from __future__ import annotations

import uuid

import pytest
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from test_groups_support import wait_until

from kwire.client import KafkaClient
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.find_coordinator_request import FindCoordinatorRequest
from kwire.protocol.generated.init_producer_id_request import InitProducerIdRequest

ck = pytest.importorskip("confluent_kafka")
from confluent_kafka.admin import AdminClient, ConfigResource, ConfigSource, ResourceType  # noqa: E402

TXN, OFFSETS = "__transaction_state", "__consumer_offsets"


def _find(bootstrap: str, key_type: int, key: str) -> tuple[int, str | None]:
    with KafkaClient(bootstrap) as c:
        r = c.request(10, FindCoordinatorRequest(key_type=key_type, coordinator_keys=[key]), version=4)
    return r.coordinators[0].error_code, r.coordinators[0].error_message


def _use_both(bootstrap: str, topic: str) -> None:
    """A transaction that commits and a group that commits its offset: both internal topics in use."""
    p = ck.Producer({"bootstrap.servers": bootstrap, "transactional.id": f"tx-{uuid.uuid4().hex[:6]}"})
    p.init_transactions(60)
    p.begin_transaction()
    p.produce(topic, b"v")
    p.commit_transaction(60)
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                     "auto.offset.reset": "earliest", "enable.auto.commit": False})
    try:
        c.subscribe([topic])
        m = None
        for _ in range(120):
            m = c.poll(0.5)
            if m is not None and not m.error():
                break
        assert m is not None and not m.error() and m.value() == b"v", m
        assert c.commit(message=m, asynchronous=False)[0].error is None
    finally:
        c.close()


def _min_isr(bootstrap: str, topic: str):
    admin = AdminClient({"bootstrap.servers": bootstrap})
    res = ConfigResource(ResourceType.TOPIC, topic)
    return admin.describe_configs([res])[res].result(30)["min.insync.replicas"]


def test_internal_topics_take_their_replication_and_min_isr_on_three_brokers(make_cluster):
    c = make_cluster(3, overrides={
        "transaction.state.log.replication.factor": "3", "transaction.state.log.min.isr": "3",
        "transaction.state.log.num.partitions": "2",
        "offsets.topic.replication.factor": "3", "offsets.topic.num.partitions": "2",
        "min.insync.replicas": "2"})
    c.create_topic("it-data", partitions=1, replication_factor=3)
    _use_both(c.bootstrap, "it-data")
    md = c.wait_until(lambda md: all(t in md.topics and len(md.topics[t].partitions) == 2 and all(
        len(p.isr) == 3 for p in md.topics[t].partitions.values()) for t in (TXN, OFFSETS)),
        what="both internal topics with 3 in-sync replicas per partition")
    for t in (TXN, OFFSETS):
        assert [sorted(p.replicas) for p in md.topics[t].partitions.values()] == [[1, 2, 3]] * 2, t
    txn_isr = _min_isr(c.bootstrap, TXN)
    assert (txn_isr.value, txn_isr.source) == ("3", ConfigSource.DYNAMIC_TOPIC_CONFIG.value)
    offsets_isr = _min_isr(c.bootstrap, OFFSETS)  # the broker's, as Kafka
    assert offsets_isr.value == "2" and offsets_isr.source != ConfigSource.DYNAMIC_TOPIC_CONFIG.value
    # and the start-up log no longer calls the settings "accepted but not acted on"
    inert = [ln for ln in c.broker(1).log_text().splitlines() if "does not act on them" in ln]
    assert not any("transaction.state.log" in ln or "offsets.topic" in ln for ln in inert), inert


def test_one_broker_rf_1_works_and_rf_3_is_refused_as_kafka_does(make_cluster):
    # replication factor 1: a one-broker cluster runs groups and transactions
    ok = make_cluster(1, overrides={"transaction.state.log.replication.factor": "1",
                                    "transaction.state.log.min.isr": "1",
                                    "offsets.topic.replication.factor": "1",
                                    "transaction.state.log.num.partitions": "1",
                                    "offsets.topic.num.partitions": "1"})
    ok.create_topic("it-one", partitions=1, replication_factor=1)
    _use_both(ok.bootstrap, "it-one")
    md = ok.wait_until(lambda md: TXN in md.topics and OFFSETS in md.topics, what="the internal topics")
    for t in (TXN, OFFSETS):
        assert [p.replicas for p in md.topics[t].partitions.values()] == [[1]], t
    assert _min_isr(ok.bootstrap, TXN).value == "1"
    ok.close()
    # Kafka's defaults (3 replicas) on one broker: refused, and no topic created
    short = make_cluster(1, overrides={"transaction.state.log.replication.factor": "3",
                                       "offsets.topic.replication.factor": "3"})
    for key_type, topic, setting in ((0, "offsets", "offsets.topic.replication.factor"),
                                     (1, "transactions state", "transaction.state.log.replication.factor")):
        code, message = _find(short.bootstrap, key_type, "k")
        assert code == ErrorCode.COORDINATOR_NOT_AVAILABLE, (code, message)
        assert (f"Number of alive brokers '1' does not meet the required replication factor '3' for the "
                f"{topic} topic (configured via '{setting}')") in message, message
    md = short.metadata()
    assert TXN not in md.topics and OFFSETS not in md.topics, sorted(md.topics)


def test_transaction_state_refuses_writes_below_its_min_isr(make_cluster):
    """``transaction.state.log.min.isr`` is enforced: with 2 of 3 replicas in sync and a min ISR of 3,
    InitProducerId answers COORDINATOR_NOT_AVAILABLE (Kafka's mapping of NOT_ENOUGH_REPLICAS for
    the transaction log), and succeeds once the third replica is back in sync."""
    c = make_cluster(3, overrides={
        "transaction.state.log.replication.factor": "3", "transaction.state.log.min.isr": "3",
        "transaction.state.log.num.partitions": "1", "replica.lag.time.max.ms": "3000"})
    _find(c.bootstrap, 1, "tx-a")  # the first use creates the topic
    md = c.wait_until(lambda md: TXN in md.topics and len(md.topics[TXN].partitions[0].isr) == 3,
                      what="__transaction_state with 3 in-sync replicas")
    leader = md.topics[TXN].partitions[0].leader
    lb = c.broker(leader).bootstrap

    def init(tid: str) -> int:
        with KafkaClient(lb) as client:
            return client.request(22, InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000),
                                  node=leader, version=5).error_code

    wait_until(lambda: init("tx-a") == 0, 30, "InitProducerId once the coordinator has loaded")
    victim = next(b for b in c.brokers if b.node_id != leader)
    victim.kill()
    c.wait_until(lambda md: len(md.topics[TXN].partitions[0].isr) == 2, timeout=60, bootstrap=lb,
                 what="the ISR without the killed broker")
    assert init("tx-b") == ErrorCode.COORDINATOR_NOT_AVAILABLE
    victim.start()
    c.wait_until(lambda md: len(md.topics[TXN].partitions[0].isr) == 3, timeout=60, bootstrap=lb,
                 what="the ISR with the restarted broker")
    wait_until(lambda: init("tx-b") == 0, 30, "InitProducerId with the ISR back to 3")
