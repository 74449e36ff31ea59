"""The control plane of a kwire cluster over ZooKeeper, through real admin clients.

Real ``kwire serve`` processes (``make_cluster``), a real ZooKeeper, and
kafka-python's ``KafkaAdminClient`` / confluent-kafka's ``AdminClient`` (the
raw error codes through kwire's own wire client where a client hides them).
Kafka 3.x ZooKeeper-mode semantics are the specification: CreateTopics with
replication factors and assignments, DeleteTopics removing every replica's
log, CreatePartitions, preferred and unclean elections, reassignments that
move data, controlled shutdown, and a ZooKeeper restart. Every wait is for an
event with a deadline.
"""

from __future__ import annotations

import os
import time
import uuid

import pytest
from cluster_fixtures import Cluster, make_cluster, make_zookeeper, zookeeper  # noqa: F401 (fixtures)

from kwire.client import KafkaClient, KafkaClientError
from kwire.client import NewTopic as KwNewTopic
from kwire.protocol.errors import ErrorCode
from kwire.records.builder import build_batch

confluent_kafka = pytest.importorskip("confluent_kafka")
kafka = pytest.importorskip("kafka")
from confluent_kafka.admin import AdminClient, NewPartitions, NewTopic  # noqa: E402
from kafka.admin import KafkaAdminClient  # noqa: E402
from kafka.admin import NewTopic as KNewTopic  # noqa: E402


def _name(prefix: str = "adm") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _wait(pred, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def _replica_dirs(c, topic: str) -> dict[int, list[str]]:
    return {b.node_id: sorted(d for d in os.listdir(b.data_dir) if d.startswith(f"{topic}-")
                              and not d.endswith("-delete"))
            for b in c.brokers}


def _confluent_error(fut):
    try:
        fut.result(60)
    except confluent_kafka.KafkaException as e:
        return e.args[0]
    return None


def _produce(bootstrap: str, topic: str, values: list[bytes]) -> None:
    p = confluent_kafka.Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5,
                                  "message.timeout.ms": 60000})
    errors = []
    for v in values:
        p.produce(topic, v, partition=0, on_delivery=lambda err, _m: err and errors.append(err))
    assert p.flush(60) == 0
    assert not errors, errors


def _log_bytes(broker, topic: str, partition: int = 0) -> bytes:
    d = os.path.join(broker.data_dir, f"{topic}-{partition}")
    out = b""
    for f in sorted(os.listdir(d)):
        if f.endswith(".log"):
            with open(os.path.join(d, f), "rb") as fh:
                out += fh.read()
    return out


def test_create_delete_and_grow_topics_with_both_admin_clients(make_cluster):
    c = make_cluster(3, overrides={"default.replication.factor": "2"})
    admin = AdminClient({"bootstrap.servers": c.bootstrap})
    kadmin = KafkaAdminClient(bootstrap_servers=c.bootstrap.split(","), request_timeout_ms=60000)
    try:
        rf3, rf4, dflt, manual = _name(), _name(), _name(), _name()
        futs = admin.create_topics([NewTopic(rf3, 3, 3), NewTopic(rf4, 1, 4), NewTopic(dflt, 2),
                                    NewTopic(manual, 2, replica_assignment=[[3, 1], [2, 3]])], request_timeout=60)
        assert _confluent_error(futs[rf3]) is None
        err = _confluent_error(futs[rf4])
        assert err.code() == confluent_kafka.KafkaError.INVALID_REPLICATION_FACTOR
        assert "Replication factor: 4 larger than available brokers: 3." in err.str()
        assert _confluent_error(futs[dflt]) is None and _confluent_error(futs[manual]) is None
        # the answer came once the controller's image (the broker clients send CreateTopics to) had the
        # topics: Metadata right after sees every leader there; then every broker gives the same view
        names = (rf3, dflt, manual)

        def view(md):
            return {n: sorted((p, i.leader, tuple(i.replicas)) for p, i in md.topics[n].partitions.items())
                    for n in names}

        first = view(c.metadata(list(names), bootstrap=c.broker(c.controller_id()).bootstrap))
        assert all(leader >= 0 for parts in first.values() for _p, leader, _r in parts), first
        for b in c.brokers:
            c.wait_until(lambda md: view(md) == first, 10, f"broker {b.node_id}'s view", topics=list(names),
                         bootstrap=b.bootstrap)
        t = c.describe(rf3)
        assert all(sorted(p.replicas) == [1, 2, 3] and sorted(p.isr) == [1, 2, 3] and p.leader == p.replicas[0]
                   for p in t.partitions.values())
        assert sorted(p.replicas[0] for p in t.partitions.values()) == [1, 2, 3], "leaders spread"
        assert all(len(p.replicas) == 2 for p in c.describe(dflt).partitions.values()), "default.replication.factor"
        m = c.describe(manual).partitions
        assert (m[0].replicas, m[0].leader, m[1].replicas, m[1].leader) == ([3, 1], 3, [2, 3], 2)
        with KafkaClient(c.bootstrap) as kc:
            assert kc.metadata([rf4]).topics[rf4].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        # every replica has its log; validate_only creates nothing
        dirs = _wait(lambda: (lambda d: d if sum(len(v) for v in d.values()) == 9 else None)(_replica_dirs(c, rf3)),
                     30, "nine replica logs")
        assert all(v == [f"{rf3}-0", f"{rf3}-1", f"{rf3}-2"] for v in dirs.values())
        _check_describe_log_dirs(c, kadmin, (rf3, dflt, manual))
        vo = _name()
        kadmin.create_topics([KNewTopic(vo, 1, 3)], validate_only=True)
        assert vo not in c.metadata().topics

        # CreatePartitions: Kafka's placement, and an explicit assignment
        assert _confluent_error(admin.create_partitions([NewPartitions(rf3, 5)], request_timeout=60)[rf3]) is None
        # answered once the answering broker (the controller: admin clients send CreatePartitions
        # there) had them led, as Kafka's delayed CreatePartitions; other brokers may learn later
        t = c.metadata([rf3], bootstrap=c.broker(c.controller_id()).bootstrap).topics[rf3]
        assert len(t.partitions) == 5
        for b in c.brokers:
            c.wait_until(lambda md: all(p.leader >= 0 and len(p.replicas) == 3
                                        for p in md.topics[rf3].partitions.values())
                         and len(md.topics[rf3].partitions) == 5, 10, "five led partitions", topics=[rf3],
                         bootstrap=b.bootstrap)
        fut = admin.create_partitions([NewPartitions(manual, 3, replica_assignment=[[1, 2]])], request_timeout=60)[manual]
        assert _confluent_error(fut) is None
        md = c.wait_until(lambda md: len(md.topics[manual].partitions) == 3 and md.topics[manual].partitions[2].leader >= 0,
                          10, "the third partition", topics=[manual])
        p2 = md.topics[manual].partitions[2]
        assert (p2.replicas, p2.leader) == ([1, 2], 1)
        bad = admin.create_partitions([NewPartitions(manual, 4, replica_assignment=[[1, 9]])], request_timeout=60)
        assert _confluent_error(bad[manual]).code() == confluent_kafka.KafkaError.INVALID_REPLICA_ASSIGNMENT

        # DeleteTopics: gone from every broker's metadata and every replica's log removed
        kadmin.delete_topics([rf3], timeout_ms=30000)
        for b in c.brokers:
            assert rf3 not in c.metadata(bootstrap=b.bootstrap).topics
        _wait(lambda: not any(_replica_dirs(c, rf3).values()), 30, "every replica log of the deleted topic removed")
        assert manual in c.metadata().topics
        # the DescribeCluster view: every live broker and the controller
        desc = admin.describe_cluster(request_timeout=30).result(60)
        assert sorted(n.id for n in desc.nodes) == [1, 2, 3] and desc.controller.id == c.controller_id()
    finally:
        kadmin.close()


def _log_dirs(kadmin, topics) -> dict[int, dict]:
    """kafka-python's describe_log_dirs (one DescribeLogDirs per broker): {broker: {(topic,
    partition): (log dir, size, offset lag, is future)}} for ``topics``."""
    out: dict[int, dict] = {}
    for per_broker in kadmin.describe_log_dirs():
        got = out[per_broker["broker"]] = {}
        for d in per_broker["log_dirs"]:
            assert d["error_code"] == 0, d
            for t in d["topics"]:
                if t["name"] in topics:
                    for p in t["partitions"]:
                        got[(t["name"], p["partition_index"])] = (d["log_dir"], p["partition_size"],
                                                                  p["offset_lag"], p["is_future_key"])
    return out


def _check_describe_log_dirs(c, kadmin, topics) -> None:
    """Every broker lists every replica it holds, leader or follower, with its size on disk (equal
    on every replica once replicated) and Kafka's offset lag (0 for a current replica)."""
    for i, name in enumerate(topics):
        for p in c.describe(name).partitions:
            with KafkaClient(c.bootstrap) as kc:
                kc.produce(name, p, build_batch([(None, b"ld-%d-%d-%d" % (i, p, n)) for n in range(p + 1)]),
                           acks=-1)
    md = c.metadata(list(topics))
    holders = {b: {(n, p) for n in topics for p, i in md.topics[n].partitions.items() if b in i.replicas}
               for b in (1, 2, 3)}
    assert all(holders.values()) and any(md.topics[n].partitions[p].leader != b
                                         for b, held in holders.items() for n, p in held)

    def replicated():
        got = _log_dirs(kadmin, topics)
        sizes: dict = {}
        for b, parts in got.items():
            for key, (_d, size, _lag, _f) in parts.items():
                sizes.setdefault(key, set()).add(size)
        return got if all(len(v) == 1 for v in sizes.values()) and set(got) == {1, 2, 3} else None

    got = _wait(replicated, 30, "every replica's size equal to its leader's")
    for b, parts in got.items():
        assert set(parts) == holders[b], (b, sorted(parts), sorted(holders[b]))
        for (name, p), (log_dir, size, lag, future) in parts.items():
            assert log_dir == c.broker(b).data_dir and lag == 0 and future is False
            on_disk = sum(os.path.getsize(os.path.join(log_dir, f"{name}-{p}", f))
                          for f in os.listdir(os.path.join(log_dir, f"{name}-{p}")) if f.endswith(".log"))
            assert size == on_disk > 0, (b, name, p, size, on_disk)


def _leave_only_broker_1_in_the_isr(c, topic: str) -> None:
    """Broker 2 stops (its controlled shutdown drops it from the ISR), then broker 1 stops too,
    leading to the end; broker 2 comes back with a replica that was never caught up to the ISR."""
    assert c.broker(2).stop() == 0
    c.wait_until(lambda md: md.topics[topic].partitions[0].isr == [1], 30, "the ISR down to 1", topics=[topic])
    _produce(c.broker(1).bootstrap, topic, [b"only-on-1"])
    assert c.broker(1).stop() == 0
    c.broker(2).start()


def test_failover_preferred_election_and_unclean_election_off_then_on(make_cluster):
    c = make_cluster(3, overrides={"auto.leader.rebalance.enable": "false"}, session_timeout_ms=4000)
    t = _name("pref")
    c.create_topic(t, partitions=1, replication_factor=3, assignment={0: [1, 2, 3]})
    _produce(c.bootstrap, t, [b"a", b"b"])
    c.broker(1).kill()
    md = c.wait_until(lambda md: md.topics[t].partitions[0].leader in (2, 3), 30, "failover", topics=[t])
    assert 1 not in md.topics[t].partitions[0].isr
    # while broker 1 is dead (its session, hence its registration, ended: that is what moved the
    # leader), placement counts only the live brokers, as Kafka's does
    assert sorted(md.brokers) == [2, 3]
    admin = AdminClient({"bootstrap.servers": c.live_bootstrap})
    rf3, rf2 = _name("rf3"), _name("rf2")
    futs = admin.create_topics([NewTopic(rf3, 2, 3), NewTopic(rf2, 4, 2)], request_timeout=60)
    err = _confluent_error(futs[rf3])
    assert err is not None and err.code() == confluent_kafka.KafkaError.INVALID_REPLICATION_FACTOR, err
    assert "Replication factor: 3 larger than available brokers: 2." in err.str()
    assert _confluent_error(futs[rf2]) is None
    md = c.wait_until(lambda md: rf2 in md.topics and all(p.leader >= 0 for p in md.topics[rf2].partitions.values()),
                      30, f"{rf2} led", topics=[rf2, rf3])
    assert rf3 not in md.topics or md.topics[rf3].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    parts = md.topics[rf2].partitions.values()
    assert len(parts) == 4 and all(sorted(p.replicas) == [2, 3] and sorted(p.isr) == [2, 3] for p in parts)
    c.broker(1).start()
    c.wait_until(lambda md: 1 in md.topics[t].partitions[0].isr, 60, "broker 1 back in the ISR", topics=[t])
    assert c.leader_of(t, 0) != 1, "no automatic rebalance when it is off"
    kadmin = KafkaAdminClient(bootstrap_servers=c.bootstrap.split(","), request_timeout_ms=60000)
    try:
        r = kadmin.elect_leaders(0, {t: [0]}, timeout_ms=30000)
        assert [(p.partition_id, p.error_code) for res in r.replica_election_results
                for p in res.partition_result] == [(0, 0)]
        # ElectLeaders answers once the controller has moved the leadership; each broker's
        # metadata follows a moment later (its ZooKeeper watch), as Kafka's UpdateMetadata does
        for b in c.brokers:
            c.wait_until(lambda md: md.topics[t].partitions[0].leader == 1, 30,
                         f"broker {b.node_id} showing broker 1 as the leader", topics=[t], bootstrap=b.bootstrap)
        r = kadmin.elect_leaders(0, {t: [0]}, timeout_ms=30000, raise_errors=False)
        assert [p.error_code for res in r.replica_election_results for p in res.partition_result] == [
            ErrorCode.ELECTION_NOT_NEEDED]
    finally:
        kadmin.close()

    # unclean.leader.election.enable is false (the default): no leader while only broker 1 was in the ISR
    u = _name("unclean")
    c.create_topic(u, partitions=1, replication_factor=2, assignment={0: [1, 2]})
    _produce(c.bootstrap, u, [b"x"])
    _leave_only_broker_1_in_the_isr(c, u)
    md = c.wait_until(lambda md: set(md.brokers) == {2, 3}, 60, "brokers 2 and 3", topics=[u])
    p = md.topics[u].partitions[0]
    assert p.leader == -1 and p.error_code == ErrorCode.LEADER_NOT_AVAILABLE, "unclean election is off"
    assert p.offline_replicas == [1]
    # ElectLeaders type 1 (UNCLEAN): broker 2 leads without having been in the ISR
    kadmin = KafkaAdminClient(bootstrap_servers=[c.broker(2).bootstrap, c.broker(3).bootstrap],
                              request_timeout_ms=60000)
    try:
        r = kadmin.elect_leaders(1, {u: [0]}, timeout_ms=30000)
        assert [p.error_code for res in r.replica_election_results for p in res.partition_result] == [0]
        md = c.wait_until(lambda md: md.topics[u].partitions[0].leader == 2, 30, "unclean leader", topics=[u])
        assert md.topics[u].partitions[0].isr == [2]
        r = kadmin.elect_leaders(1, {u: [0]}, timeout_ms=30000, raise_errors=False)
        assert [p.error_code for res in r.replica_election_results for p in res.partition_result] == [
            ErrorCode.ELECTION_NOT_NEEDED]
    finally:
        kadmin.close()


def test_unclean_leader_election_enable_elects_by_itself(make_cluster):
    c = make_cluster(2)
    u = _name("auto")
    c.create_topic(u, partitions=1, replication_factor=2, assignment={0: [1, 2]},
                   configs={"unclean.leader.election.enable": "true"})
    _produce(c.bootstrap, u, [b"x"])
    _leave_only_broker_1_in_the_isr(c, u)
    md = c.wait_until(lambda md: md.topics[u].partitions[0].leader == 2, 30, "the unclean leader", topics=[u])
    assert md.topics[u].partitions[0].isr == [2]


def test_auto_leader_rebalance_brings_leadership_back(make_cluster):
    c = make_cluster(2, overrides={"leader.imbalance.check.interval.seconds": "1"})
    t = _name("rebalance")
    c.create_topic(t, partitions=2, replication_factor=2, assignment={0: [1, 2], 1: [2, 1]})
    assert c.broker(2).stop() == 0
    md = c.wait_until(lambda md: [md.topics[t].partitions[p].leader for p in (0, 1)] == [1, 1], 30,
                      "broker 1 leading both", topics=[t])
    epoch = md.topics[t].partitions[1].leader_epoch
    c.broker(2).start()
    # once broker 2 is back in the ISR, the controller gives it back the partition it prefers
    md = c.wait_until(lambda md: [md.topics[t].partitions[p].leader for p in (0, 1)] == [1, 2], 60,
                      "t-1 led by its preferred replica again", topics=[t])
    assert md.topics[t].partitions[1].leader_epoch > epoch


def test_reassignment_moves_data_and_cancel_reverts(make_cluster):
    c = make_cluster(3, overrides={"auto.leader.rebalance.enable": "false"})
    t, k = _name("move"), _name("cancel")
    c.create_topic(t, partitions=1, replication_factor=2, assignment={0: [1, 2]})
    values = [f"v{i}".encode() for i in range(50)]
    _produce(c.bootstrap, t, values)
    kadmin = KafkaAdminClient(bootstrap_servers=c.bootstrap.split(","), request_timeout_ms=60000)
    try:
        tp = kafka.TopicPartition(t, 0)
        bad = kadmin.alter_partition_reassignments({tp: [2, 9]}, timeout_ms=30000)
        assert bad[tp] is kafka.errors.InvalidReplicationAssignmentError
        got = kadmin.alter_partition_reassignments({tp: [2, 3]}, timeout_ms=30000)
        assert got[tp] is None
        md = c.wait_until(lambda md: md.topics[t].partitions[0].replicas == [2, 3]
                          and sorted(md.topics[t].partitions[0].isr) == [2, 3], 60, "the move", topics=[t])
        assert md.topics[t].partitions[0].leader in (2, 3)
        assert not kadmin.list_partition_reassignments()
        # broker 3 has the records in its own log; broker 1's replica is gone
        data = _wait(lambda: (lambda b: b if all(v in b for v in values) else None)(_log_bytes(c.broker(3), t)),
                     30, "the records in broker 3's log")
        assert values[-1] in data
        _wait(lambda: not _replica_dirs(c, t)[1], 30, "broker 1's replica removed")
        # cancelling: the new replica's broker (not the controller) is paused so it cannot catch up and
        # the reassignment stays in progress
        ctl = c.controller_id()
        paused = max({1, 2, 3} - {ctl})
        a, b = sorted({1, 2, 3} - {paused})
        c.create_topic(k, partitions=1, replication_factor=2, assignment={0: [a, b]})
        c.broker(paused).pause()
        try:
            kp = kafka.TopicPartition(k, 0)
            assert kadmin.alter_partition_reassignments({kp: [a, paused]}, timeout_ms=30000)[kp] is None
            ongoing = kadmin.list_partition_reassignments()
            assert kp in ongoing
            with KafkaClient(c.broker(ctl).bootstrap) as kc:
                assert kc.metadata([k]).topics[k].partitions[0].replicas == [a, paused, b]
            assert kadmin.alter_partition_reassignments({kp: None}, timeout_ms=30000)[kp] is None
            md = c.wait_until(lambda md: md.topics[k].partitions[0].replicas == [a, b], 30, "reverted",
                              topics=[k], bootstrap=c.broker(ctl).bootstrap)
            assert sorted(md.topics[k].partitions[0].isr) == [a, b]
            assert not kadmin.list_partition_reassignments()
            again = kadmin.alter_partition_reassignments({kp: None}, timeout_ms=30000)
            assert again[kp] is kafka.errors.NoReassignmentInProgressError
        finally:
            c.broker(paused).resume()

        # a broker that WAS registered and died (kill -9, its /brokers/ids znode gone with its
        # session): adding a replica on it is refused as Kafka's controller does
        # (KafkaController.validateReplicas), and nothing changes; a dead broker that already holds
        # a replica may stay in a target (only added replicas must be live)
        x = _name("dead")
        c.create_topic(x, partitions=1, replication_factor=3, assignment={0: [a, b, paused]})
        c.broker(paused).kill()
        _wait(lambda: not _zk_exists(c, f"/brokers/ids/{paused}"), c.session_timeout_ms / 1000 + 30,
              f"broker {paused}'s registration to go with its session")
        c.wait_until(lambda md: paused not in md.brokers, 30, "the controller's view without it",
                     bootstrap=c.broker(ctl).bootstrap)
        code, message = _raw_reassign(c, ctl, k, [a, paused])
        assert code == ErrorCode.INVALID_REPLICA_ASSIGNMENT, (code, message)
        assert "not alive" in message and f"[{paused}]" in message, message
        assert kadmin.alter_partition_reassignments({kp: [paused, b]}, timeout_ms=30000)[kp] is \
            kafka.errors.InvalidReplicationAssignmentError
        assert not kadmin.list_partition_reassignments()
        for node in (a, b):
            p = c.metadata([k], bootstrap=c.broker(node).bootstrap).topics[k].partitions[0]
            assert p.replicas == [a, b] and sorted(p.isr) == [a, b], (node, p)
        xp = kafka.TopicPartition(x, 0)
        assert _raw_reassign(c, ctl, x, [paused, a]) == (ErrorCode.NONE, None)  # b leaves once paused is back
        assert kadmin.list_partition_reassignments()[xp]["removing_replicas"] == [b]
        assert kadmin.alter_partition_reassignments({xp: None}, timeout_ms=30000)[xp] is None
        # cancelled: every original replica kept (in the order the in-progress znode had, target first,
        # as Kafka's ReplicaAssignment.reassignTo(originReplicas) leaves it)
        c.wait_until(lambda md: md.topics[x].partitions[0].replicas == [paused, a, b], 30, "reverted",
                     topics=[x], bootstrap=c.broker(ctl).bootstrap)
        assert not kadmin.list_partition_reassignments()
    finally:
        kadmin.close()


def _zk_exists(c, path: str) -> bool:
    from kazoo.client import KazooClient

    zk = KazooClient(c.connect, timeout=10)
    zk.start(timeout=30)
    try:
        return zk.exists(path) is not None
    finally:
        zk.stop()
        zk.close()


def _raw_reassign(c, node: int, topic: str, replicas: list[int]) -> tuple[int, str | None]:
    """AlterPartitionReassignments for partition 0 to broker ``node``: (error code, message)."""
    from kwire.protocol.generated.alter_partition_reassignments_request import (
        AlterPartitionReassignmentsRequest, ReassignablePartition, ReassignableTopic)

    with KafkaClient(c.broker(node).bootstrap) as kc:
        kc.metadata([])
        resp = kc.request(45, AlterPartitionReassignmentsRequest(timeout_ms=30000, topics=[ReassignableTopic(
            name=topic, partitions=[ReassignablePartition(partition_index=0, replicas=replicas)])]), node=node)
    assert resp.error_code == 0
    (part,) = resp.responses[0].partitions
    return part.error_code, part.error_message


def test_sigterm_moves_leadership_before_the_leader_exits(make_cluster):
    c = make_cluster(3, overrides={"auto.leader.rebalance.enable": "false"})
    t = _name("cs")
    c.create_topic(t, partitions=3, replication_factor=3,
                   assignment={0: [1, 2, 3], 1: [1, 3, 2], 2: [2, 1, 3]})
    _produce(c.bootstrap, t, [b"before"])
    epochs = {p: i.leader_epoch for p, i in c.describe(t).partitions.items()}
    assert c.broker(1).stop() == 0
    text = c.broker(1).log_text()
    # its leaderships moved while it was still alive: the epochs moved by one (a controlled move),
    # not through the session timeout
    md = c.wait_until(lambda md: set(md.brokers) == {2, 3}, 30, "broker 1 gone", topics=[t])
    parts = md.topics[t].partitions
    assert parts[0].leader == 2 and parts[1].leader == 3 and parts[2].leader == 2
    assert all(1 not in p.isr for p in parts.values())
    assert parts[0].leader_epoch == epochs[0] + 1 and parts[1].leader_epoch == epochs[1] + 1
    assert "controlled shutdown" in text.lower()
    with KafkaClient(c.bootstrap) as kc:
        kc.produce(t, 0, build_batch([(None, b"after")]), acks=-1)


def test_a_controller_paused_past_its_session_is_replaced_and_fenced(make_cluster):
    c = make_cluster(3, session_timeout_ms=4000)
    t = _name("stop")
    c.create_topic(t, partitions=3, replication_factor=3)
    old = c.controller_id()
    led = [p for p, i in c.describe(t).partitions.items() if i.leader == old]
    c.broker(old).pause()
    try:
        # the new controller is seen before its elections are (a Metadata answer may fall between):
        # wait for both
        md = c.wait_until(lambda md: md.controller_id not in (-1, old) and old not in md.brokers
                          and all(md.topics[t].partitions[p].leader not in (-1, old) for p in led), 30,
                          "another controller, and new leaders for the paused one's partitions", topics=[t])
        new = md.controller_id
    finally:
        c.broker(old).resume()
    # it wakes with an expired session: it registers again and follows; whatever it still wanted to write
    # under its old epoch is refused by ZooKeeper, so the new controller's view stands
    # (the resumed broker answers from its stale image at first: every broker is asked until it agrees)
    for b in c.brokers:
        c.wait_until(lambda md: md.controller_id == new and set(md.brokers) == {1, 2, 3}, 30,
                     f"broker {b.node_id} agreeing on controller {new}", bootstrap=b.bootstrap)
    assert "no longer the controller" in c.broker(old).log_text()
    u = _name("after")
    info = c.create_topic(u, partitions=2, replication_factor=3)
    assert all(p.leader >= 0 for p in info.partitions.values())


def _read_values(bootstrap: str, topic: str, n: int, timeout: float = 60.0) -> list[bytes]:
    """The first ``n`` values of partition 0 through kafka-python's consumer, without a group (no
    coordinator, so nothing that needs a metadata write)."""
    consumer = kafka.KafkaConsumer(bootstrap_servers=bootstrap.split(","), group_id=None,
                                   enable_auto_commit=False, consumer_timeout_ms=1000)
    try:
        tp = kafka.TopicPartition(topic, 0)
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        out: list[bytes] = []
        deadline = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=500).values():
                out.extend(r.value for r in records)
        return out
    finally:
        consumer.close()


def test_zookeeper_restart_refuses_then_accepts_metadata_writes(make_zookeeper, tmp_path):
    zk = make_zookeeper()
    c = Cluster(zk, str(tmp_path / "cluster"), 3, {"min.insync.replicas": "2"}, 6000)
    try:
        c.start()
        t = _name("zk")
        c.create_topic(t, partitions=1, replication_factor=3)
        before = [b"before-%d" % i for i in range(50)]
        _produce(c.bootstrap, t, before)
        leader = c.leader_of(t, 0)
        zk.stop()
        stopped = time.monotonic()
        with KafkaClient(c.bootstrap) as kc:
            # reads from the image keep working
            p = kc.metadata([t]).topics[t].partitions[0]
            assert p.leader == leader and sorted(p.isr) == [1, 2, 3]
        # the leadership they have keeps serving: acks=all (ISR intact, min.insync.replicas=2 met)
        # is acknowledged and a consumer reads it back
        during = [b"during-%d" % i for i in range(50)]
        _produce(c.bootstrap, t, during)
        assert _read_values(c.bootstrap, t, 100) == before + during
        # a metadata write is refused at once, with Kafka's retriable code and a message naming ZooKeeper
        started = time.monotonic()
        with KafkaClient(c.bootstrap) as kc:
            with pytest.raises(KafkaClientError) as e:
                kc.create_topics([KwNewTopic(_name("down"), 1, 2)], timeout_ms=10000)
        took = time.monotonic() - started
        assert e.value.code == ErrorCode.REQUEST_TIMED_OUT and "ZooKeeper" in (e.value.message or ""), e.value
        assert took < 10, took
        # confluent-kafka sees the same error
        admin = AdminClient({"bootstrap.servers": c.bootstrap})
        err = _confluent_error(admin.create_topics([NewTopic("down-confluent", 1, 2)],
                                                   request_timeout=20)["down-confluent"])
        assert err is not None and err.code() == confluent_kafka.KafkaError.REQUEST_TIMED_OUT, err
        # and keeps serving for longer than the session timeout: with ZooKeeper gone nobody can expire
        # a session (a restarted server gives each a fresh timeout), so no leadership is given up
        still, errors = [], []
        producer = confluent_kafka.Producer({"bootstrap.servers": c.bootstrap, "acks": "all",
                                             "message.timeout.ms": 30000})
        while time.monotonic() - stopped < 1.5 * c.session_timeout_ms / 1000:
            still.append(b"still-down-%d" % len(still))
            producer.produce(t, still[-1], partition=0, on_delivery=lambda err, _m: err and errors.append(err))
            assert producer.flush(30) == 0 and not errors, errors  # each one acknowledged before the next
            producer.poll(0.1)
        for b in c.brokers:  # every broker still has the leadership and ISR it had
            q = c.metadata([t], bootstrap=b.bootstrap).topics[t].partitions[0]
            assert (q.leader, sorted(q.isr)) == (leader, [1, 2, 3]), (b.node_id, q)
        zk.start()
        again = _name("back")
        c.wait_until(lambda md: True, 30)  # a broker answers
        _wait(lambda: _try_create(c, again), 60, "a topic creation accepted after ZooKeeper came back", interval=0.5)
        c.wait_until(lambda md: md.topics.get(again) is not None and md.topics[again].partitions[0].leader >= 0,
                     30, "the new topic led", topics=[again])
        # everything resumes on the same leadership, and nothing acknowledged was lost
        after = [b"after-%d" % i for i in range(50)]
        _produce(c.bootstrap, t, after)
        want = before + during + still + after
        assert _read_values(c.bootstrap, t, len(want)) == want
        c.wait_until(lambda md: sorted(md.topics[t].partitions[0].isr) == [1, 2, 3], 60, "the full ISR",
                     topics=[t])
        assert "down-confluent" not in c.metadata().topics
    finally:
        c.close()


def _try_create(c, name: str) -> bool:
    with KafkaClient(c.bootstrap) as kc:
        try:
            kc.create_topics([KwNewTopic(name, 1, 2)], timeout_ms=10000)
            return True
        except Exception:
            return False
