"""Transactions on a 3-broker kwire cluster over ZooKeeper.

The transaction coordinator follows ``__transaction_state`` leadership; the
markers of a transaction whose partitions are led by other brokers travel as
WriteTxnMarkers to those leaders. Checked with confluent-kafka: commit and
abort across partitions led by every broker (read_committed sees the
committed records only), and the coordinator's broker killed with an open
transaction: the new coordinator (the new leader of its ``__transaction_state``
partition) aborts it after its timeout and read_committed consumers proceed.
"""

from __future__ import annotations

import time
import uuid

import pytest
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)

from kwire.coordinator.base import partition_for

ck = pytest.importorskip("confluent_kafka")

OVERRIDES = {
    "transaction.state.log.replication.factor": "3",
    "transaction.state.log.min.isr": "2",
    "transaction.state.log.num.partitions": "3",
    "offsets.topic.replication.factor": "3",
    "offsets.topic.num.partitions": "3",
    "transaction.abort.timed.out.transaction.cleanup.interval.ms": "500",
}


def _consume(bootstrap: str, topic: str, expect: int, timeout: float = 60.0) -> list[bytes]:
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                     "auto.offset.reset": "earliest", "isolation.level": "read_committed",
                     "enable.auto.commit": False})
    c.subscribe([topic])
    out: list[bytes] = []
    deadline = time.monotonic() + timeout
    quiet = None
    try:
        while time.monotonic() < deadline:
            m = c.poll(0.3)
            if m is None or m.error():
                if len(out) >= expect:
                    quiet = quiet or time.monotonic() + 2
                    if time.monotonic() > quiet:
                        break
                continue
            out.append(m.value())
    finally:
        c.close()
    return out


def test_transactions_across_brokers(make_cluster):
    c = make_cluster(3, overrides=OVERRIDES)
    topic = f"tx-{uuid.uuid4().hex[:6]}"
    c.create_topic(topic, partitions=6, replication_factor=3)
    leaders = {c.leader_of(topic, p) for p in range(6)}
    assert len(leaders) >= 2  # markers must cross brokers
    tid = f"t-{uuid.uuid4().hex[:6]}"
    p = ck.Producer({"bootstrap.servers": c.bootstrap, "transactional.id": tid,
                     "transaction.timeout.ms": 4000})
    p.init_transactions(60)
    p.begin_transaction()
    for i in range(60):
        p.produce(topic, value=b"c%d" % i, partition=i % 6)
    p.commit_transaction(60)
    p.begin_transaction()
    for i in range(30):
        p.produce(topic, value=b"a%d" % i, partition=i % 6)
    p.flush(30)
    p.abort_transaction(60)
    assert sorted(_consume(c.bootstrap, topic, 60)) == sorted(b"c%d" % i for i in range(60))
    _unverified_batch_is_refused(c, topic)
    # an open transaction, then its coordinator's broker dies: the new coordinator aborts it
    p.begin_transaction()
    for i in range(12):
        p.produce(topic, value=b"o%d" % i, partition=i % 6)
    p.flush(30)
    victim = c.leader_of("__transaction_state", partition_for(tid, 3))  # p's coordinator
    c.broker(victim).kill()
    p2 = ck.Producer({"bootstrap.servers": c.live_bootstrap, "transactional.id": f"t2-{uuid.uuid4().hex[:6]}"})
    p2.init_transactions(60)
    p2.begin_transaction()
    for i in range(6):
        p2.produce(topic, value=b"after%d" % i, partition=i % 6)
    p2.commit_transaction(60)
    got = _consume(c.live_bootstrap, topic, 66, timeout=90)
    assert sorted(got) == sorted([b"c%d" % i for i in range(60)] + [b"after%d" % i for i in range(6)])


def _unverified_batch_is_refused(c, topic: str) -> None:
    """KIP-890 part 1 across brokers: a transactional batch for a partition its transaction
    does not hold, sent to a leader that is not the coordinator, is refused after the leader
    asked the coordinator (AddPartitionsToTxn verify_only); once added, it is accepted."""
    from kwire.client import KafkaClient
    from kwire.protocol.errors import ErrorCode
    from kwire.protocol.generated.add_partitions_to_txn_request import (
        AddPartitionsToTxnRequest, AddPartitionsToTxnTopic)
    from kwire.protocol.generated.init_producer_id_request import InitProducerIdRequest
    from kwire.protocol.generated.produce_request import (
        PartitionProduceData, ProduceRequest, TopicProduceData)
    from kwire.records.builder import build_batch

    tid = f"raw-{uuid.uuid4().hex[:6]}"
    coordinator = c.leader_of("__transaction_state", partition_for(tid, 3))
    part = next(p for p in range(6) if c.leader_of(topic, p) != coordinator)
    with KafkaClient(c.bootstrap) as kc:
        r = kc.request(22, InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000),
                       node=coordinator, version=4)
        assert r.error_code == 0
        batch = build_batch([(None, b"unverified")], producer_id=r.producer_id,
                            producer_epoch=r.producer_epoch, base_sequence=0, is_transactional=True)

        def produce():
            req = ProduceRequest(transactional_id=tid, acks=-1, timeout_ms=10000, topic_data=[
                TopicProduceData(name=topic, partition_data=[
                    PartitionProduceData(index=part, records=bytearray(batch))])])
            resp = kc.request(0, req, node=c.leader_of(topic, part), version=9)
            return resp.responses[0].partition_responses[0].error_code

        assert produce() == ErrorCode.INVALID_TXN_STATE
        add = AddPartitionsToTxnRequest(v3_and_below_transactional_id=tid,
                                        v3_and_below_producer_id=r.producer_id,
                                        v3_and_below_producer_epoch=r.producer_epoch,
                                        v3_and_below_topics=[AddPartitionsToTxnTopic(name=topic, partitions=[part])])
        added = kc.request(24, add, node=coordinator, version=3)
        assert added.results_by_topic_v3_and_below[0].results_by_partition[0].partition_error_code == 0
        assert produce() == 0
        from kwire.protocol.generated.end_txn_request import EndTxnRequest

        ended = kc.request(26, EndTxnRequest(transactional_id=tid, producer_id=r.producer_id,
                                             producer_epoch=r.producer_epoch, committed=False),
                           node=coordinator, version=3)
        assert ended.error_code == 0  # aborted: the ABORT marker crosses to the other leader


def test_java_transactions_v2_across_brokers(make_cluster):
    """The Java client 4.3's whole scenario (test_transactions_java.py) on 3 brokers, in
    transactions v2: the partition leaders add their partitions to the transaction on the
    coordinator's broker (AddPartitionsToTxn v5, broker to broker), markers carry the bumped
    epoch; DescribeTransactions at the coordinator shows one epoch bump per transaction."""
    import javaclient
    from test_transactions_java import describe, run_scenario

    javaclient.require_java()
    c = make_cluster(3, overrides=OVERRIDES)
    tid = run_scenario(c.bootstrap, rf=3)
    state, _pid, epoch, _topics = describe(c.bootstrap, tid + "-a")
    assert (state, epoch) == ("CompleteCommit", 3)
