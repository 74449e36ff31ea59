"""Compaction of the internal topics, ``__consumer_offsets`` and ``__transaction_state``.

Both are created compacted (as Kafka does) with ``offsets.topic.segment.bytes`` /
``transaction.state.log.segment.bytes`` as their segment size: 16 KiB here, and one
partition each, so a few hundred operations fill many segments. Each test runs three
in-process brokers on one data directory, one after the other:

1. ``log.cleaner.enable=false``: real clients write the history; the partition's size
   comes from DescribeLogDirs (kafka-python's admin) and the clients' view of the state
   is the reference;
2. the cleaner on: the restarted broker replays the uncompacted log (same view), then
   compacts the partition (waited on through its cleaner checkpoint): DescribeLogDirs
   reports it at most a quarter of its size before;
3. restarted again: it replays the compacted log, and the clients see the same state.

* ``__consumer_offsets``: kafka-python consumers (no membership: simple groups)
  commit offsets with metadata for three groups, 150 rounds each; a fourth group commits and
  is deleted (DeleteGroups); kafka-python's transactional producer commits offsets for a
  fifth group in transactions, half of them aborted, the last one aborted. After each
  restart every group's committed offsets and metadata are the last committed ones, the
  deleted group is neither listed nor has offsets, and no aborted TxnOffsetCommit shows.
* ``__transaction_state``: one confluent-kafka transactional producer runs 300
  transactions with one transactional id (every tenth aborted). After each restart
  DescribeTransactions (kafka-python's admin) shows the same producer id and epoch in
  CompleteCommit; a new producer with the id initialises (the epoch bumped, the id kept),
  commits again, and a read_committed consumer sees its record after the old ones.
"""

from __future__ import annotations

import uuid

import pytest

from clients import KafkaPythonClient, wait_until, wire_size

ck = pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.timeout(300)]

OFFSETS_TOPIC = "__consumer_offsets"
TXN_TOPIC = "__transaction_state"
SMALL = {"offsets.topic.num.partitions": "1", "offsets.topic.segment.bytes": "16384",
         "transaction.state.log.num.partitions": "1",
         "transaction.state.log.segment.bytes": "16384"}


def start(make_broker, d, *, cleaner: bool):
    return make_broker(data_dir=d, overrides=dict(SMALL, **{
        "log.cleaner.enable": "true" if cleaner else "false"}))


def wait_compacted(b, topic: str, partition: int = 0) -> None:
    """Until the broker's cleaner has cleaned the partition up to its active segment."""
    logs = b.server.broker.logs

    def done():
        plog = logs.get(topic, partition)
        return plog is not None and \
            logs.cleaner.checkpoints.get((topic, partition), -1) >= plog.active_segment.base_offset
    wait_until(done, timeout=120)


def settled(fn, *args):
    """``fn(*args)`` once the restarted broker answers it (its coordinators load first)."""
    out = []

    def attempt():
        try:
            out.append(fn(*args))
            return True
        except Exception:  # COORDINATOR_LOAD_IN_PROGRESS and the like, while loading
            return False
    wait_until(attempt, timeout=60)
    return out[0]


# -- __consumer_offsets -------------------------------------------------------------------------

def group_view(bootstrap: str, groups: list[str]) -> tuple[dict, set]:
    """({group: {(topic, partition): (offset, metadata)}}, listed group ids)."""
    from kafka.admin import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=20_000)
    try:
        offsets = {g: {(tp.topic, tp.partition): (o.offset, o.metadata)
                       for tp, o in admin.list_group_offsets({g: None})[g].items()}
                   for g in groups}
        listed = {g["group_id"] for g in admin.list_groups()}
    finally:
        admin.close()
    return offsets, listed


def consumer(bootstrap: str, group: str):
    """A kafka-python consumer of ``group`` that never joins it: its commits are Kafka's
    simple consumer group commits (generation -1). (confluent-kafka would do, but its
    Python binding sends offset metadata with the C string's NUL byte.)"""
    from kafka import KafkaConsumer

    return KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False,
                         request_timeout_ms=20_000)


def commit(c, offsets: dict) -> None:
    from kafka import TopicPartition
    from kafka.structs import OffsetAndMetadata

    c.commit({TopicPartition(t, p): OffsetAndMetadata(o, m, -1) for (t, p), (o, m) in offsets.items()})


def test_consumer_offsets_compacted_and_replayed(make_broker, tmp_path, topic_name):
    from kafka import KafkaProducer, TopicPartition
    from kafka.admin import KafkaAdminClient
    from kafka.structs import OffsetAndMetadata

    d = tmp_path / "data"
    b = start(make_broker, d, cleaner=False)
    KafkaPythonClient(b.bootstrap).create_topic(topic_name, 4)
    u = uuid.uuid4().hex[:6]
    groups = [f"g{i}-{u}" for i in range(3)]
    gone, txn_group = f"gone-{u}", f"txn-{u}"
    want: dict[str, dict] = {}

    # one consumer per group, committing round after round (synchronous commits)
    consumers = {g: consumer(b.bootstrap, g) for g in groups + [gone]}
    try:
        for rnd in range(150):
            for i, g in enumerate(groups + ([gone] if rnd < 20 else [])):
                offs = {(topic_name, p): (rnd * 10 + p + i, f"{g}-r{rnd}-p{p}") for p in range(4)}
                commit(consumers[g], offs)
                want[g] = offs
    finally:
        for c in consumers.values():
            c.close()
    del want[gone]
    admin = KafkaAdminClient(bootstrap_servers=b.bootstrap, request_timeout_ms=20_000)
    try:
        admin.delete_groups([gone])
    finally:
        admin.close()

    # transactional offset commits, alternately committed and aborted (the last aborted)
    p = KafkaProducer(bootstrap_servers=b.bootstrap, transactional_id=f"tx-{u}")
    try:
        p.init_transactions()
        for rnd in range(40):
            offs = {(topic_name, q): (1000 + rnd * 10 + q, f"txn-r{rnd}") for q in range(4)}
            p.begin_transaction()
            p.send_offsets_to_transaction(
                {TopicPartition(t, q): OffsetAndMetadata(o, m, -1) for (t, q), (o, m) in offs.items()},
                txn_group)
            if rnd % 2 == 0:
                p.commit_transaction()
                want[txn_group] = offs
            else:
                p.abort_transaction()
    finally:
        p.close()
    assert want[txn_group][(topic_name, 0)][1] == "txn-r38"

    every = groups + [gone, txn_group]
    expect = dict(want, **{gone: {}})
    offsets, listed = group_view(b.bootstrap, every)
    assert offsets == expect and gone not in listed and set(groups) <= listed
    plog = b.server.broker.logs.get(OFFSETS_TOPIC, 0)
    assert len(plog.segments) > 10  # 16 KiB segments: the history spans many
    size_before = wire_size(b.bootstrap, OFFSETS_TOPIC)
    assert size_before == plog.size_bytes
    b.stop()

    b = start(make_broker, d, cleaner=True)
    offsets, listed = settled(group_view, b.bootstrap, every)  # replayed, uncompacted
    assert offsets == expect and gone not in listed
    wait_compacted(b, OFFSETS_TOPIC)
    size_after = wire_size(b.bootstrap, OFFSETS_TOPIC)
    assert size_after * 4 < size_before, (size_after, size_before)
    b.stop()

    b = start(make_broker, d, cleaner=True)
    offsets, listed = settled(group_view, b.bootstrap, every)  # replayed, compacted
    assert offsets == expect and gone not in listed and set(groups) <= listed
    # and the groups carry on: a new commit is stored and read back
    c = consumer(b.bootstrap, groups[0])
    try:
        commit(c, {(topic_name, 0): (99999, "after")})
    finally:
        c.close()
    offsets, _ = group_view(b.bootstrap, [groups[0]])
    assert offsets[groups[0]][(topic_name, 0)] == (99999, "after")


# -- __transaction_state ------------------------------------------------------------------------

def describe_txn(bootstrap: str, tid: str):
    from kafka.admin import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=20_000)
    try:
        return admin.describe_transactions([tid])[tid]
    finally:
        admin.close()


def read_committed(bootstrap: str, topic: str, count: int) -> list[tuple[bytes, bytes]]:
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"rc-{uuid.uuid4().hex[:6]}",
                     "isolation.level": "read_committed", "auto.offset.reset": "earliest",
                     "enable.auto.commit": False})
    out = []
    try:
        c.assign([ck.TopicPartition(topic, 0, 0)])

        def more():
            m = c.poll(0.5)
            if m is not None and m.error() is None:
                out.append((m.key(), m.value()))
            return len(out) >= count
        wait_until(more, timeout=60, interval=0)
    finally:
        c.close()
    return out


def test_transaction_state_compacted_and_replayed(make_broker, tmp_path, topic_name):
    from kafka.admin import TransactionState

    d = tmp_path / "data"
    b = start(make_broker, d, cleaner=False)
    KafkaPythonClient(b.bootstrap).create_topic(topic_name, 1)
    tid = f"tx-{uuid.uuid4().hex[:6]}"
    p = ck.Producer({"bootstrap.servers": b.bootstrap, "transactional.id": tid, "linger.ms": 0})
    p.init_transactions(60)
    committed = []
    for n in range(300):
        p.begin_transaction()
        p.produce(topic_name, key=b"k%d" % (n % 10), value=b"v%d" % n, partition=0)
        if n % 10 == 3:
            p.abort_transaction(60)
        else:
            p.commit_transaction(60)
            committed.append((b"k%d" % (n % 10), b"v%d" % n))
    p.flush(30)
    del p
    before = describe_txn(b.bootstrap, tid)
    assert before.state == TransactionState.COMPLETE_COMMIT, before
    assert not before.topic_partitions
    plog = b.server.broker.logs.get(TXN_TOPIC, 0)
    assert len(plog.segments) > 5
    size_before = wire_size(b.bootstrap, TXN_TOPIC)
    assert size_before == plog.size_bytes
    b.stop()

    b = start(make_broker, d, cleaner=True)
    assert settled(describe_txn, b.bootstrap, tid) == before  # replayed, uncompacted
    wait_compacted(b, TXN_TOPIC)
    size_after = wire_size(b.bootstrap, TXN_TOPIC)
    assert size_after * 4 < size_before, (size_after, size_before)
    b.stop()

    b = start(make_broker, d, cleaner=True)
    assert settled(describe_txn, b.bootstrap, tid) == before  # replayed, compacted
    p = ck.Producer({"bootstrap.servers": b.bootstrap, "transactional.id": tid, "linger.ms": 0})
    p.init_transactions(60)
    p.begin_transaction()
    p.produce(topic_name, key=b"k-after", value=b"after", partition=0)
    p.commit_transaction(60)
    after = describe_txn(b.bootstrap, tid)
    assert (after.producer_id, after.state) == (before.producer_id, before.state)
    assert after.producer_epoch == before.producer_epoch + 1  # InitProducerId fenced the old one
    got = read_committed(b.bootstrap, topic_name, len(committed) + 1)
    assert got == committed + [(b"k-after", b"after")]
