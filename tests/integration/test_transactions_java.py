"""Transactions with the Kafka Java client 4.3 (tests/java/KwireTxn.java) against one kwire broker.

One JVM run: committed, aborted and open transactions on 3 partitions; while
one is open, a read_committed consumer sees exactly the records committed
before it began (not those another producer commits after it began: its
end offsets, the LSO, are the open transaction's first offsets), a
read_uncommitted one sees everything; once the open one
commits, read_committed sees it; a second producer with the same
transactional id fences the first (ProducerFencedException);
consume-transform-produce with ``sendOffsetsToTransaction`` moves every
record exactly once and commits the group's offsets with the transaction.

kwire announces ``transaction.version`` 2, so the client runs transactions v2
(KIP-890 part 2): no AddPartitionsToTxn/AddOffsetsToTxn (the coordinator's
``stats`` count none), EndTxn v5 and an epoch bump per transaction
(DescribeTransactions shows the epoch after three transactions at 3). With
the broker config ``transaction.version=1`` the same run uses the older
protocol (epoch 0). A v2 transaction left open across a broker restart
(raw requests: Produce v12 adds the partition implicitly) is committed after
it with EndTxn v5 and the bumped epoch. ``run_scenario`` is shared with the
3-broker test (test_transactions_cluster.py).
"""

from __future__ import annotations

import time
import uuid

import javaclient


def _create(bootstrap: str, name: str, partitions: int, rf: int = 1) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})  # kept alive until the result
    admin.create_topics([NewTopic(name, partitions, rf)])[name].result(30)


def describe(bootstrap: str, tid: str, node: int | None = None):
    """DescribeTransactions of ``tid`` at its coordinator: (state, producer id, epoch, topics)."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated import describe_transactions_request as dt
    from kwire.protocol.generated import find_coordinator_request as fc

    deadline = time.monotonic() + 30
    with KafkaClient(bootstrap) as kc:
        while True:
            if node is None:
                found = kc.request(10, fc.FindCoordinatorRequest(key=tid, key_type=1), version=3)
                coordinator = found.node_id if found.error_code == 0 else None
            else:
                coordinator = node
            if coordinator is not None:
                s = kc.request(65, dt.DescribeTransactionsRequest(transactional_ids=[tid]), version=0,
                               node=coordinator).transaction_states[0]
                if s.error_code == 0:
                    return (s.transaction_state, s.producer_id, s.producer_epoch,
                            sorted((t.topic, p) for t in s.topics for p in t.partitions))
            assert time.monotonic() < deadline, f"DescribeTransactions {tid}: no answer"
            time.sleep(0.2)


def run_scenario(bootstrap: str, rf: int = 1) -> str:
    """KwireTxn's scenario with every check; returns the transactional id prefix."""
    topic, out = f"jt-{uuid.uuid4().hex[:8]}", f"jo-{uuid.uuid4().hex[:8]}"
    _create(bootstrap, topic, 3, rf)
    _create(bootstrap, out, 3, rf)
    tid = f"jtx-{uuid.uuid4().hex[:6]}"
    group = f"jg-{uuid.uuid4().hex[:6]}"
    lines = javaclient.run_class("KwireTxn", "scenario", bootstrap, topic, out, tid, group, timeout=240,
                                 check=True)
    by = {(d["type"], d.get("phase")): d for d in lines}
    committed = [f"c{i}" for i in range(30)] + [f"d{i}" for i in range(10)]
    open_phase = by[("consume", "open")]
    # read_committed stops at the open transaction ("o*", on every partition): exactly the records
    # committed before it began, none of "d*" (committed by another producer after it began)
    assert sorted(open_phase["read_committed"]) == sorted(f"c{i}" for i in range(30))
    # ...because the LSO of each partition is the offset of its first open record
    assert open_phase["lso"] == open_phase["open_start"] and len(open_phase["lso"]) == 3
    assert sorted(open_phase["read_uncommitted"]) == sorted(
        committed + [f"a{i}" for i in range(20)] + [f"o{i}" for i in range(5)])
    assert sorted(by[("consume", "committed")]["read_committed"]) == sorted(
        committed + [f"o{i}" for i in range(5)])
    assert by[("fenced", None)]["exception"] == "ProducerFencedException"
    ctp = by[("ctp", None)]
    src = committed + [f"o{i}" for i in range(5)] + ["winner"]
    assert ctp["moved"] == len(src) and ctp["committed_sum"] > 0
    assert sorted(ctp["out"]) == sorted("t-" + v for v in src)
    # the group's offsets were committed with the transactions: a new member reads nothing again
    import confluent_kafka as ck

    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                     "isolation.level": "read_committed", "enable.auto.commit": False})
    try:
        committed = c.committed([ck.TopicPartition(topic, p) for p in range(3)], 10)
        assert sum(tp.offset for tp in committed) == ctp["committed_sum"]
        for tp in committed:
            lso = c.get_watermark_offsets(ck.TopicPartition(topic, tp.partition), 10, cached=False)[1]
            assert tp.offset <= lso and lso - tp.offset <= 2  # only markers after the last record
    finally:
        c.close()
    return tid


def _stats(b) -> dict:
    return dict(b.server.broker.txn_coordinator.stats)


def test_java_transactions_v2(broker):
    before = _stats(broker)
    tid = run_scenario(broker.bootstrap)
    after = _stats(broker)
    assert after["client_adds"] == before["client_adds"]  # no AddPartitionsToTxn/AddOffsetsToTxn
    assert after["implicit_adds"] > before["implicit_adds"]
    assert after["end_txn_v2"] >= before["end_txn_v2"] + 3
    # "-a" ran commit, abort, commit: three epoch bumps
    assert describe(broker.bootstrap, tid + "-a")[::2] == ("CompleteCommit", 3)


def test_java_transactions_forced_v1(make_broker):
    b = make_broker(transaction_version=1)
    tid = run_scenario(b.bootstrap)
    stats = _stats(b)
    assert stats["end_txn_v2"] == 0 and stats["implicit_adds"] == 0 and stats["client_adds"] > 0
    assert describe(b.bootstrap, tid + "-a")[::2] == ("CompleteCommit", 0)


def test_v2_transaction_open_across_a_restart(make_broker, tmp_path):
    import confluent_kafka as ck

    from kwire.client import KafkaClient
    from kwire.protocol.errors import ErrorCode as E
    from kwire.protocol.generated import end_txn_request as et
    from kwire.protocol.generated import init_producer_id_request as ip
    from kwire.protocol.generated import produce_request as pr
    from kwire.records.builder import build_batch

    data = tmp_path / "restart"
    b = make_broker(data_dir=data)
    topic, tid = f"jr-{uuid.uuid4().hex[:6]}", f"r-{uuid.uuid4().hex[:6]}"
    _create(b.bootstrap, topic, 1)

    def produce(kc, value: bytes, epoch: int, seq: int) -> int:
        batch = build_batch([(None, value)], producer_id=pid, producer_epoch=epoch, base_sequence=seq,
                            is_transactional=True)
        req = pr.ProduceRequest(transactional_id=tid, acks=-1, timeout_ms=10000, topic_data=[
            pr.TopicProduceData(name=topic, partition_data=[
                pr.PartitionProduceData(index=0, records=bytearray(batch))])])
        return kc.request(0, req, version=12).responses[0].partition_responses[0].error_code

    with KafkaClient(b.bootstrap) as kc:
        r = kc.request(22, ip.InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000),
                       version=5)
        assert r.error_code == 0
        pid = r.producer_id
        assert produce(kc, b"open", r.producer_epoch, 0) == E.NONE  # added implicitly
    assert describe(b.bootstrap, tid) == ("Ongoing", pid, 0, [(topic, 0)])
    b.stop()
    b = make_broker(data_dir=data)
    assert describe(b.bootstrap, tid) == ("Ongoing", pid, 0, [(topic, 0)])
    with KafkaClient(b.bootstrap) as kc:
        deadline = time.monotonic() + 30
        while True:
            ended = kc.request(26, et.EndTxnRequest(transactional_id=tid, producer_id=pid, producer_epoch=0,
                                                    committed=True), version=5)
            if ended.error_code not in (E.COORDINATOR_LOAD_IN_PROGRESS, E.CONCURRENT_TRANSACTIONS):
                break
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert (ended.error_code, ended.producer_id, ended.producer_epoch) == (0, pid, 1)
        deadline = time.monotonic() + 30
        while (code := produce(kc, b"next", 1, 0)) == E.NOT_ENOUGH_REPLICAS:  # markers being written
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert code == E.NONE  # the bumped epoch starts at sequence 0
        assert produce(kc, b"zombie", 0, 1) == E.INVALID_PRODUCER_EPOCH
    assert describe(b.bootstrap, tid) == ("Ongoing", pid, 1, [(topic, 0)])
    c = ck.Consumer({"bootstrap.servers": b.bootstrap, "group.id": f"g-{tid}", "auto.offset.reset": "earliest",
                     "isolation.level": "read_committed", "enable.auto.commit": False})
    try:
        c.assign([ck.TopicPartition(topic, 0)])
        got, deadline = [], time.monotonic() + 30
        while not got and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None and not m.error():
                got.append(m.value())
        assert got == [b"open"]  # committed after the restart; "next" is still open
    finally:
        c.close()
