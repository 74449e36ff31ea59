"""Replication in a kwire cluster over ZooKeeper: acks=all, ISR changes, failover, truncation.

Real ``kwire serve`` processes (``make_cluster``), a real ZooKeeper, real
clients (confluent-kafka, kafka-python) and kwire's own wire client for the
raw error codes. Kafka 3.x ZooKeeper-mode semantics are the specification.
"""

from __future__ import annotations

import os
import signal
import time
import uuid

import pytest
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from clients import decoded_batches, read_values

from kwire.client import KafkaClient, KafkaClientError
from kwire.protocol.errors import ErrorCode
from kwire.records.builder import build_batch
from kwire.records.decode import iter_records

confluent_kafka = pytest.importorskip("confluent_kafka")
kafka = pytest.importorskip("kafka")


def _topic() -> str:
    return f"rep-{uuid.uuid4().hex[:8]}"


def _produce_confluent(bootstrap: str, topic: str, values: list[bytes], **conf) -> None:
    p = confluent_kafka.Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5,
                                  "message.timeout.ms": 30000, **conf})
    errors = []
    for v in values:
        p.produce(topic, v, partition=0, on_delivery=lambda err, _m: err and errors.append(err))
    assert p.flush(60) == 0
    assert not errors, errors


def _produce_kafka_python(bootstrap: str, topic: str, values: list[bytes]) -> None:
    p = kafka.KafkaProducer(bootstrap_servers=bootstrap.split(","), acks="all", retries=5,
                            request_timeout_ms=30000)
    try:
        for f in [p.send(topic, v, partition=0) for v in values]:
            f.get(timeout=60)
    finally:
        p.close(10)


def _raw_produce(c, topic: str, value: bytes, acks: int = -1, timeout_ms: int = 30000) -> int:
    with KafkaClient(c.broker(c.leader_of(topic, 0)).bootstrap) as client:
        return client.produce(topic, 0, build_batch([(None, value)]), acks=acks, timeout_ms=timeout_ms)


def _error_of(fn) -> int:
    with pytest.raises(KafkaClientError) as e:
        fn()
    return e.value.code


def _isr(c, topic: str) -> list[int]:
    return sorted(c.describe(topic).partitions[0].isr)


def _wait_isr(c, topic: str, want: list[int], timeout: float = 30.0):
    return c.wait_until(lambda md: topic in md.topics and sorted(md.topics[topic].partitions[0].isr) == want,
                        timeout, f"ISR of {topic}-0 to be {want}", topics=[topic])


def _followers(c, topic: str) -> list[int]:
    p = c.describe(topic).partitions[0]
    return [r for r in p.replicas if r != p.leader]


# ---------------------------------------------------------------------------------------------

def _epoch_answers(c, topic: str, node: int, epoch: int, fetch_version: int = 12) -> dict:
    """Fetch (v12 unless told), ListOffsets (v4+: the newest both sides have) and OffsetForLeaderEpoch to broker
    ``node`` for partition 0 carrying ``current_leader_epoch`` = ``epoch``: each answer's error
    code, and Fetch's ``current_leader`` (leader id, epoch)."""
    from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
    from kwire.protocol.generated.list_offsets_request import (ListOffsetsPartition, ListOffsetsRequest,
                                                               ListOffsetsTopic)
    from kwire.protocol.generated.offset_for_leader_epoch_request import (
        OffsetForLeaderEpochRequest, OffsetForLeaderPartition, OffsetForLeaderTopic)

    with KafkaClient(c.broker(node).bootstrap) as client:
        client.metadata([topic])
        f = client.request(1, FetchRequest(
            replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=1 << 20, session_id=0, session_epoch=-1,
            forgotten_topics_data=[], topics=[FetchTopic(topic=topic, partitions=[FetchPartition(
                partition=0, fetch_offset=0, partition_max_bytes=1 << 20, current_leader_epoch=epoch)])]),
            node=node, version=fetch_version).responses[0].partitions[0]
        lv = client.api_version(2, node)
        assert lv >= 4
        lo = client.request(2, ListOffsetsRequest(replica_id=-1, topics=[ListOffsetsTopic(
            name=topic, partitions=[ListOffsetsPartition(partition_index=0, current_leader_epoch=epoch,
                                                         timestamp=-1)])]),
            node=node, version=lv).topics[0].partitions[0]
        ov = client.api_version(23, node)
        oe = client.request(23, OffsetForLeaderEpochRequest(replica_id=-1, topics=[OffsetForLeaderTopic(
            topic=topic, partitions=[OffsetForLeaderPartition(partition=0, current_leader_epoch=epoch,
                                                              leader_epoch=0)])]),
            node=node, version=ov).topics[0].partitions[0]
    return {"fetch": f.error_code, "list_offsets": lo.error_code, "offset_for_leader_epoch": oe.error_code,
            "current_leader": (f.current_leader.leader_id, f.current_leader.leader_epoch),
            "fetched": f.records not in (b"", None)}


def test_acks_all_with_two_clients_then_read_from_the_new_leader(make_cluster):
    c = make_cluster(3, overrides={"min.insync.replicas": "2"})
    topic = _topic()
    c.create_topic(topic, partitions=1, replication_factor=3)
    _produce_confluent(c.bootstrap, topic, [b"ck-%d" % i for i in range(50)])
    _produce_kafka_python(c.bootstrap, topic, [b"kp-%d" % i for i in range(50)])
    before = c.describe(topic).partitions[0]
    old, old_epoch = before.leader, before.leader_epoch
    assert _isr(c, topic) == [1, 2, 3]
    c.broker(old).kill()
    md = c.wait_until(lambda md: md.topics.get(topic) and md.topics[topic].partitions[0].leader not in (-1, old),
                      30, "a new leader", topics=[topic])
    new, new_epoch = md.topics[topic].partitions[0].leader, md.topics[topic].partitions[0].leader_epoch
    assert new != old and new_epoch > old_epoch
    got = read_values(c.bootstrap, topic, 100)
    assert got == [b"ck-%d" % i for i in range(50)] + [b"kp-%d" % i for i in range(50)]
    # the survivors still take acks=all writes (ISR of two = min.insync.replicas)
    _produce_confluent(c.bootstrap, topic, [b"after"])
    assert read_values(c.bootstrap, topic, 101)[-1] == b"after"

    # the new leader fences a client that still carries the old leader's epoch, and does not know an
    # epoch newer than its own (KIP-320); with its own epoch, everything is answered
    stale = _epoch_answers(c, topic, new, old_epoch)
    assert [stale[k] for k in ("fetch", "list_offsets", "offset_for_leader_epoch")] == \
        [ErrorCode.FENCED_LEADER_EPOCH] * 3, stale
    assert stale["current_leader"] == (new, new_epoch) and not stale["fetched"]
    ahead = _epoch_answers(c, topic, new, new_epoch + 1)
    assert [ahead[k] for k in ("fetch", "list_offsets", "offset_for_leader_epoch")] == \
        [ErrorCode.UNKNOWN_LEADER_EPOCH] * 3, ahead
    current = _epoch_answers(c, topic, new, new_epoch)
    assert [current[k] for k in ("fetch", "list_offsets", "offset_for_leader_epoch")] == [0] * 3, current
    assert current["fetched"]
    # the old leader, back as a follower: with the current epoch it answers NOT_LEADER_OR_FOLLOWER naming
    # the new leader (Fetch v12+ current_leader); with the old epoch it fences like the leader
    c.broker(old).start()
    c.wait_until(lambda md: md.topics.get(topic) and md.topics[topic].partitions[0].leader == new
                 and md.topics[topic].partitions[0].leader_epoch == new_epoch, 30,
                 "the old leader's view of the new leadership", topics=[topic], bootstrap=c.broker(old).bootstrap)
    follower = _epoch_answers(c, topic, old, new_epoch)
    assert [follower[k] for k in ("fetch", "list_offsets", "offset_for_leader_epoch")] == \
        [ErrorCode.NOT_LEADER_OR_FOLLOWER] * 3, follower
    assert follower["current_leader"] == (new, new_epoch)
    # below v12 the answer has no current_leader field: the same error, no leader named (a v11
    # answer that named one failed to encode and the follower was never told)
    v11 = _epoch_answers(c, topic, old, new_epoch, fetch_version=11)
    assert v11["fetch"] == ErrorCode.NOT_LEADER_OR_FOLLOWER and v11["current_leader"] == (-1, -1), v11
    assert _epoch_answers(c, topic, old, old_epoch)["fetch"] == ErrorCode.FENCED_LEADER_EPOCH
    _wait_isr(c, topic, [1, 2, 3], timeout=60)  # and it catches up: its log is the leader's again
    values = [r.value for _, b in decoded_batches(c.broker(old).data_dir, topic) for r in b.records]
    assert values == got + [b"after"]


def test_paused_follower_leaves_the_isr_and_rejoins(make_cluster):
    c = make_cluster(3, overrides={"replica.lag.time.max.ms": "1500"}, session_timeout_ms=10000)
    topic = _topic()
    c.create_topic(topic, partitions=1, replication_factor=3)
    _raw_produce(c, topic, b"one")
    controller = c.controller_id()
    victim = next(f for f in _followers(c, topic) if f != controller)
    c.broker(victim).pause()
    try:
        _raw_produce(c, topic, b"two", acks=1)
        md = _wait_isr(c, topic, sorted(r for r in (1, 2, 3) if r != victim))
        assert victim in md.topics[topic].partitions[0].replicas
        # acks=all completes with the shrunk ISR
        _raw_produce(c, topic, b"three")
    finally:
        c.broker(victim).resume()
    _wait_isr(c, topic, [1, 2, 3])
    # kill -USR2: each broker logs its replication state (what diagnosed the verifier's stall)
    leader = c.leader_of(topic, 0)
    for b in (c.broker(leader), c.broker(victim)):
        os.kill(b.pid, signal.SIGUSR2)
    lead = f"leading {topic}-0: epoch "
    follow = f"  {topic}-0: fetching epoch "
    c.wait_until(lambda _md: lead in c.broker(leader).log_text()
                 and f"fetcher for leader {leader}: task running" in c.broker(victim).log_text()
                 and follow in c.broker(victim).log_text(), 10, "the diagnostics")
    dumped = next(line for line in c.broker(leader).lines if lead in line)
    assert "ISR [" in dumped and f"{victim}: LEO " in dumped, dumped


def test_not_enough_replicas_and_request_timed_out(make_cluster):
    c = make_cluster(3, overrides={"min.insync.replicas": "2", "replica.lag.time.max.ms": "20000"},
                     session_timeout_ms=5000)
    topic = _topic()
    c.create_topic(topic, partitions=1, replication_factor=3)
    _raw_produce(c, topic, b"x")
    leader = c.leader_of(topic, 0)
    f1, f2 = sorted(_followers(c, topic), key=lambda b: b == c.controller_id())
    # a paused follower (not the controller) stays in the ISR (lag time 20 s): acks=all cannot complete
    c.broker(f1).pause()
    try:
        started = time.monotonic()
        assert _error_of(lambda: _raw_produce(c, topic, b"slow", timeout_ms=1000)) == ErrorCode.REQUEST_TIMED_OUT
        assert time.monotonic() - started < 10
    finally:
        c.broker(f1).resume()
    # two brokers down: the controller drops them from the ISR, below min.insync.replicas=2
    c.broker(f1).kill()
    c.broker(f2).kill()
    _wait_isr(c, topic, [leader], timeout=40)
    assert _error_of(lambda: _raw_produce(c, topic, b"no")) == ErrorCode.NOT_ENOUGH_REPLICAS
    off = _raw_produce(c, topic, b"acks1", acks=1)  # acks=1 still works, and (Kafka 3.x: no
    with KafkaClient(c.broker(leader).bootstrap) as client:  # KIP-966) the HW follows the ISR
        assert client.list_offsets(topic, 0, -1)[0] == off + 1


def test_not_leader_answers(make_cluster):
    from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
    from kwire.protocol.generated.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData

    c = make_cluster(3)
    topic = _topic()
    t = c.create_topic(topic, partitions=1, replication_factor=2, assignment={0: [1, 2]})
    leader = t.partitions[0].leader
    follower = 3 - leader
    with KafkaClient(c.bootstrap) as client:
        client.metadata([topic])
        # a replica fetch from broker 3, which is not a replica: NOT_LEADER_OR_FOLLOWER
        req = FetchRequest(replica_id=3, max_wait_ms=0, min_bytes=0, max_bytes=1 << 20, session_id=0,
                           session_epoch=-1, forgotten_topics_data=[],
                           topics=[FetchTopic(topic=topic, partitions=[FetchPartition(
                               partition=0, fetch_offset=0, partition_max_bytes=1 << 20)])])
        v = min(client.api_version(1, leader), 12)  # by name (replica_id in the body up to v14)
        resp = client.request(1, req, node=leader, version=v)
        assert resp.responses[0].partitions[0].error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
        # the same fetch carrying the leader's current epoch, as real followers send it: Kafka's
        # Partition.followerReplicaOrThrow answers UNKNOWN_LEADER_EPOCH (the pair is not known yet:
        # the fetcher retries); a consumer's fetch with that epoch still reads (nothing else affected)
        req.topics[0].partitions[0].current_leader_epoch = t.partitions[0].leader_epoch
        resp = client.request(1, req, node=leader, version=v)
        p = resp.responses[0].partitions[0]
        assert p.error_code == ErrorCode.UNKNOWN_LEADER_EPOCH and p.records in (b"", None)
        req.replica_id = -1
        assert client.request(1, req, node=leader, version=v).responses[0].partitions[0].error_code == 0
        # a produce to the follower: NOT_LEADER_OR_FOLLOWER naming the leader (v10+)
        preq = ProduceRequest(acks=-1, timeout_ms=5000, topic_data=[TopicProduceData(
            name=topic, partition_data=[PartitionProduceData(index=0, records=build_batch([(None, b"v")]))])])
        pv = min(client.api_version(0, follower), 12)
        presp = client.request(0, preq, node=follower, version=pv)
        pr = presp.responses[0].partition_responses[0]
        assert pr.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
        assert pv < 10 or (pr.current_leader.leader_id == leader
                           and [e.node_id for e in presp.node_endpoints] == [leader])
        # a consumer fetch from the follower too, with current_leader (v12+)
        creq = FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=1 << 20, session_id=0,
                            session_epoch=-1, forgotten_topics_data=[],
                            topics=[FetchTopic(topic=topic, partitions=[FetchPartition(
                                partition=0, fetch_offset=0, partition_max_bytes=1 << 20)])])
        cresp = client.request(1, creq, node=follower, version=12)
        cp = cresp.responses[0].partitions[0]
        assert cp.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER and cp.current_leader.leader_id == leader


def test_consumer_long_poll_wakes_on_the_hw_not_on_the_append(make_cluster):
    import threading

    c = make_cluster(3, overrides={"replica.lag.time.max.ms": "30000"}, session_timeout_ms=10000)
    topic = _topic()
    c.create_topic(topic, partitions=1, replication_factor=3)
    _raw_produce(c, topic, b"first")
    leader = c.leader_of(topic, 0)
    followers = _followers(c, topic)
    got: dict = {}

    def poll() -> None:
        with KafkaClient(c.broker(leader).bootstrap) as client:
            started = time.monotonic()
            got["fetched"] = client.fetch_many(topic, {0: 1}, max_wait_ms=15000)[0]
            got["after"] = time.monotonic() - started

    for f in followers:
        c.broker(f).pause()
    try:
        t = threading.Thread(target=poll, daemon=True)
        t.start()
        time.sleep(0.5)  # the long-poll is waiting (nothing above offset 1 yet)
        _raw_produce(c, topic, b"second", acks=1)  # above the HW: must not wake the consumer
        t.join(1.5)
        assert t.is_alive(), f"the consumer was answered before the HW moved: {got}"
    finally:
        for f in followers:
            c.broker(f).resume()
    t.join(10)  # the followers fetch, the HW rises, the consumer's long-poll wakes
    assert not t.is_alive() and got["after"] < 12
    records = list(iter_records(got["fetched"].records))
    assert [r.value for r in records] == [b"second"] and got["fetched"].high_watermark == 2


def test_restarted_follower_catches_up_and_rejoins(make_cluster):
    c = make_cluster(3, overrides={"replica.lag.time.max.ms": "3000"}, session_timeout_ms=4000)
    topic = _topic()
    c.create_topic(topic, partitions=1, replication_factor=3)
    controller = c.controller_id()
    victim = next(f for f in _followers(c, topic) if f != controller)
    c.broker(victim).kill()
    _wait_isr(c, topic, sorted(r for r in (1, 2, 3) if r != victim), timeout=40)
    _produce_confluent(c.bootstrap, topic, [b"r-%d" % i for i in range(200)])
    c.broker(victim).start()
    _wait_isr(c, topic, [1, 2, 3], timeout=40)
    leader = c.leader_of(topic, 0)
    values = [r.value for _, b in decoded_batches(c.broker(victim).data_dir, topic) for r in b.records]
    assert values == [r.value for _, b in decoded_batches(c.broker(leader).data_dir, topic) for r in b.records]
    assert values == [b"r-%d" % i for i in range(200)]


def test_divergent_tail_is_truncated_and_hw_bounds_consumers(make_cluster):
    c = make_cluster(3, overrides={"replica.lag.time.max.ms": "30000", "unclean.leader.election.enable": "false"},
                     session_timeout_ms=4000)
    topic = _topic()
    c.create_topic(topic, partitions=1, replication_factor=3)
    _produce_confluent(c.bootstrap, topic, [b"committed-%d" % i for i in range(10)])
    old = c.leader_of(topic, 0)
    f1, f2 = _followers(c, topic)
    c.broker(f1).pause()
    c.broker(f2).pause()
    try:
        with KafkaClient(c.broker(old).bootstrap) as client:
            hw_before = client.list_offsets(topic, 0, -1)[0]
            assert hw_before == 10
            for i in range(5):  # acks=1: on the leader only (its followers are paused), above the HW
                client.produce(topic, 0, build_batch([(None, b"divergent-%d" % i)]), acks=1)
            got = client.fetch_many(topic, {0: 0}, max_wait_ms=200)[0]
            # consumers never see records above the HW
            assert got.high_watermark == 10
            seen = list(iter_records(got.records))
            assert seen and all(r.offset < 10 for r in seen)
            assert not any(r.value.startswith(b"divergent") for r in seen)
            assert client.list_offsets(topic, 0, -1)[0] == 10
        c.broker(old).kill()
    finally:
        c.broker(f1).resume()
        c.broker(f2).resume()
    md = c.wait_until(lambda md: md.topics.get(topic) and md.topics[topic].partitions[0].leader in (f1, f2),
                      40, "a follower elected leader", topics=[topic])
    new = md.topics[topic].partitions[0].leader
    _produce_confluent(c.bootstrap, topic, [b"new-%d" % i for i in range(3)])
    c.broker(old).start()
    _wait_isr(c, topic, [1, 2, 3], timeout=40)
    want = [b"committed-%d" % i for i in range(10)] + [b"new-%d" % i for i in range(3)]

    def values(b):
        return [r.value for _, batch in decoded_batches(c.broker(b).data_dir, topic) for r in batch.records]

    # a follower may have got the first divergent record in the fetch answered just before
    # it was paused (as in Kafka); the rest of the old leader's tail is gone
    kept = values(new)
    assert kept[:10] == want[:10] and kept[-3:] == want[10:]
    tail = kept[10:-3]
    assert tail == [b"divergent-%d" % i for i in range(len(tail))] and len(tail) < 5
    deadline = time.monotonic() + 20
    while values(old) != kept:
        assert time.monotonic() < deadline, f"old leader's log: {values(old)}"
        time.sleep(0.1)
    assert read_values(c.bootstrap, topic, len(kept)) == kept


def _joining_dumps(c) -> dict[int, str]:
    """Each broker's ``joining`` line of a fresh ``kill -USR2`` diagnostics dump."""
    out = {}
    for b in c.brokers:
        before = len(b.lines)
        os.kill(b.pid, signal.SIGUSR2)
        deadline = time.monotonic() + 30
        while b.node_id not in out:
            assert time.monotonic() < deadline, f"broker {b.node_id} logged no diagnostics"
            for line in b.lines[before:]:
                if line.startswith("joining (led here, not fetched yet): "):
                    out[b.node_id] = line.split(": ", 1)[1]
            time.sleep(0.05)
    return out


def test_new_partitions_do_not_wait_out_parked_follower_fetches(make_cluster):
    """With replica.fetch.wait.max.ms at 60 s every follower's Fetch parks on its leader for a
    minute once it is caught up, and a partition the follower starts following meanwhile joins
    its next Fetch only. The leader answers those parked Fetches when it starts leading a
    partition (``kwire.replication.joining``), so the first acks=all produce to every partition
    of a topic created after the fetches parked completes well inside the producer's 20 s
    (without it: 60 s, the message times out); afterwards no leader waits for a follower."""
    c = make_cluster(3, overrides={"replica.fetch.wait.max.ms": "60000"})
    first, second = _topic(), _topic()
    c.create_topic(first, partitions=3, replication_factor=3)
    _produce_confluent(c.bootstrap, first, [b"parks the fetchers"], **{"message.timeout.ms": 20000})
    c.create_topic(second, partitions=3, replication_factor=3)
    p = confluent_kafka.Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "linger.ms": 0,
                                  "message.timeout.ms": 20000})
    errors = []
    for partition in range(3):
        p.produce(second, b"v", partition=partition, on_delivery=lambda err, _m: err and errors.append(err))
    assert p.flush(40) == 0 and not errors, errors
    deadline = time.monotonic() + 30  # every follower has fetched every partition: nobody waited for
    dumps = _joining_dumps(c)
    while any(line != "none" for line in dumps.values()):
        assert time.monotonic() < deadline, dumps
        dumps = _joining_dumps(c)
