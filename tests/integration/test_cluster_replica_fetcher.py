"""Followers copy their leaders' logs in a real 3-broker kwire cluster over ZooKeeper.

``kwire serve`` subprocesses (``make_cluster``) replicate through the replica
fetcher (``kwire.replication.fetcher``): after a load of 10,000 records
produced with acks=all, every replica's log of every partition is
byte-identical to its leader's (same batches, offsets and leader epochs); a
follower killed during the load and started again catches up to the same
bytes; a deposed leader's divergent tail is truncated, through Fetch's
diverging epoch by default and through OffsetForLeaderEpoch (API 23) before
fetching with ``inter.broker.protocol.version=2.6`` (Kafka's rule: truncation
on fetch from IBP 2.7-IV1), counted on the new leader's Prometheus endpoint.
"""

from __future__ import annotations

import glob
import os
import time
import urllib.request

import pytest
from cluster_fixtures import free_port, make_cluster, zookeeper  # noqa: F401 (fixtures)
from kwire.client import KafkaClient, KafkaClientError
from kwire.records.builder import build_batch

RECORDS = 10_000
PER_BATCH = 100
PARTITIONS = 3


def _log_bytes(data_dir: str, topic: str, partition: int) -> bytes:
    part = os.path.join(data_dir, f"{topic}-{partition}")
    return b"".join(open(p, "rb").read() for p in sorted(glob.glob(os.path.join(part, "*.log"))))


def _produce(client: KafkaClient, topic: str, start: int, count: int) -> None:
    for i in range(start, start + count, PER_BATCH):
        p = (i // PER_BATCH) % PARTITIONS
        batch = build_batch([(f"k{j}".encode(), f"value-{j}".encode() * 8, [])
                             for j in range(i, min(i + PER_BATCH, start + count))])
        client.produce(topic, p, batch, acks=-1)


def _wait_identical(c, topic: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        diffs = []
        for p in range(PARTITIONS):
            leader = c.broker(c.leader_of(topic, p))
            want = _log_bytes(leader.data_dir, topic, p)
            for b in c.brokers:
                if _log_bytes(b.data_dir, topic, p) != want:
                    diffs.append((p, b.node_id))
        if not diffs:
            return
        assert time.monotonic() < deadline, f"replicas still differ from their leaders: {diffs}"
        time.sleep(0.2)


def _ends(client: KafkaClient, topic: str) -> dict[int, int]:
    return {p: client.list_offsets(topic, p, -1)[0] for p in range(PARTITIONS)}


def test_followers_logs_equal_the_leaders_after_a_load(make_cluster):
    c = make_cluster(3, overrides={"min.insync.replicas": "2", "replica.fetch.backoff.ms": "200"})
    c.create_topic("load", partitions=PARTITIONS, replication_factor=3)
    with KafkaClient(c.bootstrap) as client:
        _produce(client, "load", 0, RECORDS)
        ends = _ends(client, "load")
    assert sum(ends.values()) == RECORDS
    _wait_identical(c, "load")
    # and the bytes are the records: every replica holds all of them
    for b in c.brokers:
        assert sum(len(_log_bytes(b.data_dir, "load", p)) > 0 for p in range(PARTITIONS)) == PARTITIONS


def test_a_restarted_follower_catches_up(make_cluster):
    c = make_cluster(3, overrides={"replica.fetch.backoff.ms": "200"}, session_timeout_ms=4000)
    c.create_topic("catchup", partitions=PARTITIONS, replication_factor=3)
    with KafkaClient(c.bootstrap) as client:
        _produce(client, "catchup", 0, 3000)
        # every replica in sync first: on a loaded machine a follower may have dropped out of
        # the ISR, and a partition whose whole ISR is the killed broker rightly has no leader
        c.wait_until(lambda md: all(len(md.topics["catchup"].partitions[p].isr) == 3
                                    for p in range(PARTITIONS)), timeout=60,
                     what="all replicas in sync", topics=["catchup"])
        # one broker goes down (SIGKILL) while the load goes on; its partitions fail over
        victim = c.brokers[-1]
        victim.kill()
        live = [b for b in c.brokers if b is not victim]

        def failed_over(md) -> bool:
            return all(md.topics["catchup"].partitions[p].leader not in (victim.node_id, -1)
                       for p in range(PARTITIONS))

        for b in live:  # every live broker's metadata, since the client may ask any of them
            c.wait_until(failed_over, timeout=60, what=f"leaders away from the killed broker "
                         f"in broker {b.node_id}'s metadata", topics=["catchup"], bootstrap=b.bootstrap)
        client.close()
    with KafkaClient(",".join(b.bootstrap for b in live)) as client:
        _produce(client, "catchup", 3000, 3000)
        victim.start()
        ends = _ends(client, "catchup")
    assert sum(ends.values()) == 6000
    _wait_identical(c, "catchup")


def _count(data_dir: str, topic: str, partition: int) -> int:
    """Records in a replica's log (from the batch headers: base offset .. last offset delta)."""
    data = _log_bytes(data_dir, topic, partition)
    pos = n = 0
    while pos + 61 <= len(data):
        length = int.from_bytes(data[pos + 8:pos + 12], "big")
        n += int.from_bytes(data[pos + 23:pos + 27], "big") + 1
        pos += 12 + length
    return n


def _offset_for_leader_epoch_requests(metrics_port: int) -> float:
    """OffsetForLeaderEpoch requests a broker answered (its Prometheus endpoint)."""
    from prometheus_client.parser import text_string_to_metric_families

    body = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=30).read().decode()
    for fam in text_string_to_metric_families(body):
        for sample in fam.samples:
            if sample.name == "kafka_network_requestmetrics_requests_total" and \
                    sample.labels.get("request") == "OffsetForLeaderEpoch":
                return sample.value
    return 0.0


@pytest.mark.parametrize("ibp", ["3.9-IV0", "2.6"])
def test_a_deposed_leader_truncates_its_unreplicated_tail(make_cluster, ibp):
    """The issue's scenario over TCP: the leader appends records no follower has (acks=1
    while both followers are stopped), dies; a follower leads a new epoch and takes new
    records; the old leader comes back as a follower, learns that its tail is not the
    leader's, truncates it and copies the new leader's log. With the default IBP it learns
    it from the Fetch's diverging epoch (KIP-595/KIP-320); with IBP 2.6 from an
    OffsetForLeaderEpoch answer before its first fetch (KIP-101/KIP-279), as Kafka does
    below 2.7-IV1: the new leader counts those requests, and answers no other way.

    A stopped (SIGSTOP) follower has at most one Fetch parked at the leader, which the
    first acks=1 batch may answer: that batch may survive; the second cannot reach anyone.
    """
    metrics = {i: free_port() for i in (1, 2, 3)}
    c = make_cluster(3, overrides={"replica.fetch.backoff.ms": "200", "inter.broker.protocol.version": ibp},
                     session_timeout_ms=4000, per_broker={i: {"metrics.port": m} for i, m in metrics.items()})
    c.create_topic("div", partitions=1, replication_factor=3)
    old = c.broker(c.leader_of("div", 0))
    followers = [b for b in c.brokers if b is not old]
    with KafkaClient(c.bootstrap) as client:
        client.produce("div", 0, build_batch([(b"k", b"replicated", [])] * 50), acks=-1)
    with KafkaClient(old.bootstrap) as client:
        for b in followers:
            b.pause()
        try:
            client.produce("div", 0, build_batch([(b"k", b"perhaps", [])] * 10), acks=1)
            client.produce("div", 0, build_batch([(b"k", b"never-replicated", [])] * 30), acks=1)
            old.kill()
        finally:
            for b in followers:
                b.resume()
    assert _count(old.data_dir, "div", 0) == 90
    assert b"never-replicated" in _log_bytes(old.data_dir, "div", 0)
    c.wait_until(lambda md: md.topics["div"].partitions[0].leader in
                 {b.node_id for b in followers}, timeout=60, what="a new leader")
    # every broker learns the new leader a moment apart: a Produce through one that has not yet
    # is answered NOT_LEADER_OR_FOLLOWER (a Kafka client refreshes its metadata and retries)
    deadline = time.monotonic() + 30
    while True:
        try:
            with KafkaClient(c.bootstrap) as client:
                client.produce("div", 0, build_batch([(b"k", b"new", [])] * 20), acks=-1)
            break
        except KafkaClientError as e:
            assert e.code == 6 and time.monotonic() < deadline, e
            time.sleep(0.2)
    mark = len(old.lines)
    old.start()
    deadline = time.monotonic() + 60
    while True:
        leader = c.broker(c.leader_of("div", 0))
        want = _log_bytes(leader.data_dir, "div", 0)
        if all(_log_bytes(b.data_dir, "div", 0) == want for b in c.brokers):
            break
        assert time.monotonic() < deadline, "the old leader's log did not converge"
        time.sleep(0.2)
    ours = _log_bytes(old.data_dir, "div", 0)
    assert b"never-replicated" not in ours and b"new" in ours
    assert _count(old.data_dir, "div", 0) in (70, 80)  # 50 + 20 new (+ 10 if they made it)
    # how the old leader found its divergence: by Kafka's rule for the IBP, and only that way
    since = "\n".join(old.lines[mark:])
    asked = _offset_for_leader_epoch_requests(metrics[leader.node_id])
    if ibp == "2.6":
        assert "OffsetForLeaderEpoch: leader %d ends epoch" % leader.node_id in since, since[-3000:]
        assert "diverges at epoch" not in since
        assert asked >= 1
    else:
        assert "leader %d says our log diverges at epoch" % leader.node_id in since, since[-3000:]
        assert "OffsetForLeaderEpoch:" not in since
        assert asked == 0
