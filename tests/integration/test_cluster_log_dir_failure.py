"""A log dir failing under a partition's leader in a kwire cluster (Kafka's ZooKeeper mode).

The leader's log dir goes offline (an append fails and so does its undo: the
``log`` and ``truncate`` fault sites, armed through ``KWIRE_FAULTS_FILE`` in that
broker's process only). As in Kafka, the broker reports it
(``/log_dir_event_notification`` plus kwire's ``/kwire/offline_replicas/<id>``),
the controller elects another ISR member (leader epoch bumped) and drops the
broker from the ISR, an idempotent acks=all producer carries on after retries,
every acknowledged record is read back exactly once from the new leader, and
every broker's Metadata lists the failed replica in ``offline_replicas``. With a
second log dir the broker keeps serving the partitions there; with its only dir
gone it halts ("Shutdown broker because all log dirs ... have failed").

Real ``kwire serve`` processes, a real ZooKeeper, confluent-kafka.
"""

from __future__ import annotations

import time
import uuid

import pytest
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from clients import read_values

from kwire.log import faults

confluent_kafka = pytest.importorskip("confluent_kafka")


def _producer(bootstrap: str):
    return confluent_kafka.Producer({
        "bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True, "linger.ms": 5,
        "message.timeout.ms": 120000, "retry.backoff.ms": 100, "topic.metadata.refresh.interval.ms": 1000})


def _produce(p, topic: str, partition: int, values: list[bytes], acked: list, errors: list) -> None:
    def done(err, msg) -> None:
        if err is not None:
            errors.append(err)
        else:
            acked.append(msg.value())
    for v in values:
        p.produce(topic, v, partition=partition, on_delivery=done)
        p.poll(0)


@pytest.mark.parametrize("two_dirs", [True, False], ids=["two-log-dirs", "one-log-dir"])
def test_leader_log_dir_failure_moves_leadership_and_loses_nothing(make_cluster, faults_file, tmp_path, two_dirs):
    faults_file("")
    # the fault file is armed in broker 1's process only (the leader, first in the assignment)
    off = {faults.ENV_FILE: ""}
    per_broker = {}
    if two_dirs:
        per_broker[1] = {"log.dirs": f"{tmp_path / 'b1-a'},{tmp_path / 'b1-b'}"}
    c = make_cluster(3, per_broker=per_broker, env={2: off, 3: off})
    topic = f"ldf-{uuid.uuid4().hex[:8]}"
    # two partitions led by broker 1: with two log dirs they land in different dirs
    c.create_topic(topic, assignment={0: [1, 2, 3], 1: [1, 2, 3]}, configs={"min.insync.replicas": "2"})
    before = c.describe(topic).partitions[0]
    assert before.leader == 1 and sorted(before.isr) == [1, 2, 3]

    p = _producer(c.bootstrap)
    acked: list[bytes] = []
    errors: list = []
    _produce(p, topic, 0, [f"a-{i}".encode() for i in range(200)], acked, errors)
    assert p.flush(60) == 0 and not errors, errors
    assert len(acked) == 200

    faults_file("log=EIO:1 truncate=EIO:1")  # the next append fails, its undo too: dir offline
    armed = time.monotonic()
    _produce(p, topic, 0, [f"b-{i}".encode() for i in range(200)], acked, errors)

    def moved(md) -> bool:
        q = md.topics[topic].partitions[0]
        return q.leader in (2, 3) and 1 not in q.isr and q.leader_epoch > before.leader_epoch

    md = c.wait_until(moved, 60, "the controller to move partition 0 away from broker 1", topics=[topic],
                      bootstrap=c.broker(2).bootstrap)
    failover_s = time.monotonic() - armed
    new = md.topics[topic].partitions[0]
    assert "LOG DIR OFFLINE" in c.broker(1).log_text()
    if two_dirs:  # still registered: the move came from the reported offline replica
        assert 1 in md.brokers and c.broker(1).alive
    print(f"leadership moved to broker {new.leader} (epoch {before.leader_epoch} -> {new.leader_epoch}, "
          f"ISR {new.isr}) {failover_s:.2f} s after the fault was armed")
    assert failover_s < 30, failover_s

    _produce(p, topic, 0, [f"c-{i}".encode() for i in range(200)], acked, errors)
    assert p.flush(120) == 0, "records left undelivered"
    assert not errors, errors
    assert len(acked) == 600

    # every acknowledged record exactly once, read from the new leader
    got = read_values(c.broker(new.leader).bootstrap, topic, 600, timeout=60, linger=2.0)
    assert sorted(got) == sorted(acked) and len(got) == len(set(got)) == 600
    assert got[:200] == [f"a-{i}".encode() for i in range(200)]  # in order, for one producer
    assert got == [f"a-{i}".encode() for i in range(200)] + [f"b-{i}".encode() for i in range(200)] + \
        [f"c-{i}".encode() for i in range(200)]

    serving = [b for b in c.brokers if b.serving] if two_dirs else [c.broker(2), c.broker(3)]
    for b in serving:  # every broker's Metadata shows broker 1's replica offline
        c.wait_until(lambda m: 1 in m.topics[topic].partitions[0].offline_replicas, 30,
                     f"broker {b.node_id} to list broker 1 in offline_replicas", topics=[topic],
                     bootstrap=b.bootstrap)

    if two_dirs:
        # the broker stays up and keeps leading the partition in its other (online) dir
        assert c.broker(1).alive
        md = c.metadata([topic], bootstrap=c.broker(1).bootstrap)
        p1 = md.topics[topic].partitions[1]
        assert p1.leader == 1 and 1 not in p1.offline_replicas and p1.error_code == 0
        p1_acked: list[bytes] = []
        _produce(p, topic, 1, [f"d-{i}".encode() for i in range(50)], p1_acked, errors)
        assert p.flush(60) == 0 and not errors, errors
        assert len(p1_acked) == 50
        assert c.metadata([topic], bootstrap=c.broker(2).bootstrap).topics[topic].partitions[1].leader == 1
    else:
        # its only log dir is gone: the broker halts, as Kafka does
        rc = c.broker(1).proc.wait(60)
        assert rc == 1
        c.broker(1)._pump.join(10)  # the thread reading its output reaches the end of it
        assert "Shutdown broker because all log dirs" in c.broker(1).log_text()
        c.wait_until(lambda m: 1 not in m.brokers, 30, "broker 1 to leave the cluster",
                     bootstrap=c.broker(2).bootstrap)


def test_follower_log_dir_failure_leaves_the_isr_and_keeps_its_other_dir(make_cluster, faults_file, tmp_path):
    """A follower's replicated append fails (and its undo): that replica leaves the ISR (the
    leader stays, its epoch bumped), the follower stops fetching it, and still follows the
    partition in its other log dir."""
    faults_file("")
    off = {faults.ENV_FILE: ""}
    c = make_cluster(3, per_broker={3: {"log.dirs": f"{tmp_path / 'b3-a'},{tmp_path / 'b3-b'}"}},
                     env={1: off, 2: off})
    topic = f"ldf-{uuid.uuid4().hex[:8]}"
    c.create_topic(topic, assignment={0: [1, 2, 3], 1: [1, 2, 3]}, configs={"min.insync.replicas": "2"})
    before = c.describe(topic).partitions[0]
    p = _producer(c.bootstrap)
    acked: list[bytes] = []
    errors: list = []
    _produce(p, topic, 0, [f"a-{i}".encode() for i in range(100)], acked, errors)
    assert p.flush(60) == 0 and not errors, errors

    faults_file("log=EIO:1 truncate=EIO:1")  # broker 3's next replicated append fails, its undo too
    armed = time.monotonic()
    _produce(p, topic, 0, [f"b-{i}".encode() for i in range(100)], acked, errors)
    md = c.wait_until(lambda m: 3 not in m.topics[topic].partitions[0].isr, 60,
                      "broker 3 to leave the ISR of partition 0", topics=[topic], bootstrap=c.broker(1).bootstrap)
    print(f"broker 3 left the ISR {time.monotonic() - armed:.2f} s after the fault was armed")
    q = md.topics[topic].partitions[0]
    assert q.leader == 1 and q.leader_epoch > before.leader_epoch and sorted(q.isr) == [1, 2]
    assert "LOG DIR OFFLINE" in c.broker(3).log_text()
    _produce(p, topic, 0, [f"c-{i}".encode() for i in range(100)], acked, errors)
    assert p.flush(120) == 0 and not errors, errors
    assert len(acked) == 300
    got = read_values(c.broker(1).bootstrap, topic, 300, timeout=60, linger=2.0)
    assert got == [f"{x}-{i}".encode() for x in "abc" for i in range(100)]

    for b in c.brokers:
        c.wait_until(lambda m: 3 in m.topics[topic].partitions[0].offline_replicas, 30,
                     f"broker {b.node_id} to list broker 3 in offline_replicas", topics=[topic],
                     bootstrap=b.bootstrap)
    # the replica stays out of the ISR (it no longer fetches), the other dir's replica stays in
    assert c.broker(3).alive
    _produce(p, topic, 1, [f"d-{i}".encode() for i in range(50)], acked, errors)
    assert p.flush(60) == 0 and not errors, errors
    md = c.metadata([topic], bootstrap=c.broker(2).bootstrap)
    assert 3 in md.topics[topic].partitions[1].isr and 3 not in md.topics[topic].partitions[0].isr
    assert "following 1" in c.broker(3).log_text()
