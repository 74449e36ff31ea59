"""Group coordinators in a 3-broker ZooKeeper-mode cluster: they move with ``__consumer_offsets``.

* ``__consumer_offsets`` is created on the first FindCoordinator with
  ``offsets.topic.replication.factor`` (3) replicas, and not before 3 brokers
  are alive: FindCoordinator answers COORDINATOR_NOT_AVAILABLE until then.
* Every broker answers FindCoordinator the same (the leader of the group's
  partition); group requests to another broker answer NOT_COORDINATOR.
* An offset commit is answered once its record is replicated (acks=all):
  with both followers of the group's partition down it answers
  COORDINATOR_NOT_AVAILABLE (after ``offsets.commit.timeout.ms``), and
  succeeds again once a follower is back in sync.
* A coordinator that stops leading the group's partition (controlled
  shutdown moves leadership away first) unloads it: a JoinGroup waiting
  there answers NOT_COORDINATOR, and the new coordinator has the group.
* A consumer group whose coordinator's broker is SIGKILLed finds the new
  coordinator (the new leader of the partition, which loaded the groups from
  its replica): no committed offset is lost, the members keep consuming and
  committing, the group rebalances when a member leaves, and no record is
  delivered twice.
"""

from __future__ import annotations

import uuid

import pytest
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from test_groups_support import LIVE, Member, duplicates, wait_until

from kwire.client import KafkaClient, KafkaClientError
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.find_coordinator_request import FindCoordinatorRequest
from kwire.protocol.generated.heartbeat_request import HeartbeatRequest
from kwire.protocol.generated.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol
from kwire.protocol.generated.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from kwire.protocol.generated.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic
from kwire.protocol.generated.sync_group_request import SyncGroupRequest

OFFSETS = "__consumer_offsets"
API_OFFSET_COMMIT, API_OFFSET_FETCH, API_FIND_COORDINATOR = 8, 9, 10
API_JOIN, API_HEARTBEAT, API_SYNC = 11, 12, 14
OVERRIDES = {"min.insync.replicas": "2", "offsets.topic.num.partitions": "3",
             "group.initial.rebalance.delay.ms": "0", "offsets.topic.replication.factor": "3"}
TIMEOUT_S = 60.0


@pytest.fixture(autouse=True)
def stop_leftover_members():
    yield
    for m in list(LIVE):
        m.stop()
    import test_groups_java

    for m in list(test_groups_java.LIVE):
        m.kill()


def find_coordinator(client: KafkaClient, node: int, group: str) -> tuple[int, int]:
    """(error code, coordinator node id) as ``node`` answers FindCoordinator v3 (one key)."""
    resp = client.request(API_FIND_COORDINATOR, FindCoordinatorRequest(key=group, key_type=0),
                          node=node, version=3)
    return resp.error_code, resp.node_id


def offset_fetch_error(client: KafkaClient, node: int, group: str, topic: str) -> int:
    req = OffsetFetchRequest(group_id=group, require_stable=False,
                             topics=[OffsetFetchRequestTopic(name=topic, partition_indexes=[0])])
    return client.request(API_OFFSET_FETCH, req, node=node, version=5).error_code


def committed(bootstrap: str, group: str, topic: str) -> dict[int, int]:
    with KafkaClient(bootstrap, timeout=TIMEOUT_S) as c:
        return {p: o.offset for (t, p), o in c.offset_fetch(group).items() if t == topic}


def produce(bootstrap: str, topic: str, n: int, partitions: int, tag: str) -> None:
    from kafka import KafkaProducer

    p = KafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=5, retries=20,
                      retry_backoff_ms=200, request_timeout_ms=15000)
    try:
        futures = [p.send(topic, value=f"{tag}-{i}".encode(), partition=i % partitions) for i in range(n)]
        p.flush(timeout=TIMEOUT_S)
        for f in futures:
            f.get(timeout=TIMEOUT_S)
    finally:
        p.close()


def test_offsets_topic_waits_for_replication_factor_brokers(make_cluster):
    c = make_cluster(3, overrides=OVERRIDES, session_timeout_ms=6000)
    third = c.brokers[2]
    assert third.stop() == 0
    c.wait_until(lambda md: len(md.brokers) == 2, timeout=TIMEOUT_S)
    with KafkaClient(c.brokers[0].bootstrap, timeout=TIMEOUT_S) as client:
        for b in c.brokers[:2]:
            assert find_coordinator(client, b.node_id, "g-early") == (ErrorCode.COORDINATOR_NOT_AVAILABLE, -1)
        assert OFFSETS not in {t.name for t in client.metadata().topics}
        third.start()
        # the next FindCoordinator creates the topic; answers once its partition has a leader
        got = wait_until(lambda: (r := find_coordinator(client, c.brokers[0].node_id, "g-early"))[0] == 0
                         and r, timeout=TIMEOUT_S, what="a coordinator")
        assert got[1] in {b.node_id for b in c.brokers}
    info = c.describe(OFFSETS)
    assert len(info.partitions) == 3
    assert all(len(p.replicas) == 3 for p in info.partitions.values())


def test_not_coordinator_from_other_brokers(make_cluster):
    c = make_cluster(3, overrides=OVERRIDES, session_timeout_ms=6000)
    c.create_topic_zk("t", partitions=1, replication_factor=3)
    group = "g-" + uuid.uuid4().hex[:8]
    with KafkaClient(c.bootstrap, timeout=TIMEOUT_S) as client:
        coord = client.find_coordinator(group)  # creates __consumer_offsets, retries until led
        client.offset_commit(group, {("t", 0): 7})
        for b in c.brokers:  # every broker names the same coordinator
            assert find_coordinator(client, b.node_id, group) == (0, coord)
        others = [b.node_id for b in c.brokers if b.node_id != coord]
        for node in others:
            assert offset_fetch_error(client, node, group, "t") == ErrorCode.NOT_COORDINATOR
            hb = client.request(API_HEARTBEAT, HeartbeatRequest(group_id=group, generation_id=1,
                                                                member_id="m"), node=node, version=1)
            assert hb.error_code == ErrorCode.NOT_COORDINATOR
        assert offset_fetch_error(client, coord, group, "t") == 0
        assert {p: o.offset for (_, p), o in client.offset_fetch(group).items()} == {0: 7}


class JavaGroupMember:
    """A Java KafkaConsumer (tests/java KwireGroups member JVM) with the ``Member`` interface used here."""

    def __init__(self, bootstrap: str, topic: str, group: str) -> None:
        from test_groups_java import JavaMember

        self.kind = "java"
        self.m = JavaMember(bootstrap, topic, group, session_ms=10000, heartbeat_ms=1000)

    @property
    def records(self):
        return self.m.records

    @property
    def assigned(self):
        return self.m.assigned

    @property
    def errors(self):
        return self.m.errors

    def call(self, what: str):
        assert what == "commit"
        return self.m.call("commit-sync")

    def values(self) -> set[bytes]:
        return {v.encode() for _, _, v in self.m.records}

    def stop(self) -> None:
        self.m.stop()


def member(kind: str, bootstrap: str, topic: str, group: str):
    return JavaGroupMember(bootstrap, topic, group) if kind == "java" else Member(kind, bootstrap, topic, group)


@pytest.mark.parametrize("kinds", [("kafka-python", "confluent"), ("java", "kafka-python")],
                         ids=["kafka-python+confluent", "java+kafka-python"])
def test_group_moves_with_its_coordinator_on_kill(make_cluster, kinds):
    if "java" in kinds:
        import javaclient

        javaclient.require_java()
    c = make_cluster(3, overrides=OVERRIDES, session_timeout_ms=6000)
    topic, group = "t-move", "g-move-" + uuid.uuid4().hex[:8]
    c.create_topic_zk(topic, partitions=3, replication_factor=3)
    members = [member(k, c.bootstrap, topic, group) for k in kinds]
    wait_until(lambda: set().union(*(m.assigned for m in members)) == {0, 1, 2}
               and all(m.assigned for m in members) and not (members[0].assigned & members[1].assigned),
               timeout=TIMEOUT_S, what="both members in the group")
    produce(c.bootstrap, topic, 30, 3, "a")
    wait_until(lambda: sum(len(m.records) for m in members) >= 30, timeout=TIMEOUT_S,
               what="the first 30 records")
    for m in members:
        m.call("commit")
    assert committed(c.bootstrap, group, topic) == {0: 10, 1: 10, 2: 10}

    with KafkaClient(c.bootstrap, timeout=TIMEOUT_S) as client:
        old = client.find_coordinator(group)
    victim = next(b for b in c.brokers if b.node_id == old)
    victim.kill()
    survivors = [b for b in c.brokers if b is not victim]
    with KafkaClient(",".join(b.bootstrap for b in survivors), timeout=TIMEOUT_S) as client:
        def moved():
            try:
                node = client.find_coordinator(group, refresh=True)
            except KafkaClientError:
                return None
            return node if node != old else None
        new = wait_until(moved, timeout=TIMEOUT_S, what="a new coordinator")
        # loaded from its replica: nothing committed is lost
        assert {p: o.offset for (t, p), o in client.offset_fetch(group).items() if t == topic} \
            == {0: 10, 1: 10, 2: 10}
    assert new != old

    # the members find the new coordinator: they keep consuming, and commit there
    produce(",".join(b.bootstrap for b in survivors), topic, 30, 3, "b")
    wait_until(lambda: sum(len(m.records) for m in members) >= 60, timeout=TIMEOUT_S,
               what="the next 30 records")

    def commit_all():
        try:
            for m in members:
                m.call("commit")
        except Exception:
            return False
        return True
    wait_until(commit_all, timeout=TIMEOUT_S, what="commits at the new coordinator")
    bootstrap = ",".join(b.bootstrap for b in survivors)
    assert committed(bootstrap, group, topic) == {0: 20, 1: 20, 2: 20}

    # the group rebalances to the surviving member, which resumes at the committed offsets
    leaving = members[1]
    leaving.stop()
    stay = members[0]
    wait_until(lambda: stay.assigned == {0, 1, 2}, timeout=TIMEOUT_S, what="the rebalance")
    produce(bootstrap, topic, 30, 3, "c")
    # every value, not 90 records: the duplicates allowed below count towards 90 too
    want = {f"{tag}-{i}".encode() for tag in "abc" for i in range(30)}
    wait_until(lambda: {v for m in members for v in m.values()} >= want, timeout=TIMEOUT_S,
               what="the last 30 records")
    # at least once between commits, as Kafka: if the members rebalanced while the coordinator
    # moved, records above the commit made before the kill (offsets 10-19) may come again;
    # a committed record (below 10, or below 20 once committed there) never does
    dups = duplicates(members)
    assert all(10 <= o < 20 for _p, o, _first, _second in dups), dups
    got = {v for m in members for v in m.values()}
    assert got == {f"{tag}-{i}".encode() for tag in "abc" for i in range(30)}
    assert not any(m.errors for m in members), [m.errors for m in members]


def join(client: KafkaClient, node: int, group: str, member_id: str = ""):
    req = JoinGroupRequest(group_id=group, session_timeout_ms=30000, rebalance_timeout_ms=60000,
                           member_id=member_id, protocol_type="consumer",
                           protocols=[JoinGroupRequestProtocol(name="range", metadata=b"")])
    return client.request(API_JOIN, req, node=node, version=3, wait_s=90)


def test_waiting_join_answers_not_coordinator_when_leadership_moves(make_cluster):
    import threading

    c = make_cluster(3, overrides=OVERRIDES, session_timeout_ms=6000)
    group = "g-unload-" + uuid.uuid4().hex[:8]
    with KafkaClient(c.bootstrap, timeout=TIMEOUT_S) as client:
        coord = client.find_coordinator(group)
        first = join(client, coord, group)  # alone: generation 1, leader
        assert first.error_code == 0 and first.leader == first.member_id
        sync = client.request(API_SYNC, SyncGroupRequest(group_id=group, generation_id=first.generation_id,
                                                         member_id=first.member_id), node=coord, version=3)
        assert sync.error_code == 0
        # a second member's JoinGroup waits for the first to rejoin (up to its 60 s rebalance timeout)
        answers: list = []
        second = KafkaClient(c.bootstrap, timeout=TIMEOUT_S)
        t = threading.Thread(target=lambda: answers.append(join(second, coord, group)), daemon=True)
        t.start()
        wait_until(lambda: client.describe_group(group).state == "PreparingRebalance", timeout=TIMEOUT_S,
                   what="the rebalance")
        victim = next(b for b in c.brokers if b.node_id == coord)
        assert victim.stop() == 0  # controlled shutdown: leadership moves away first
        t.join(TIMEOUT_S)
        second.close()
        assert answers and answers[0].error_code == ErrorCode.NOT_COORDINATOR
        assert "answered NOT_COORDINATOR" in victim.log_text()  # unloaded, not cut by the shutdown
        new = wait_until(lambda: (n := client.find_coordinator(group, refresh=True)) != coord and n,
                         timeout=TIMEOUT_S, what="a new coordinator")
        # the new coordinator loaded the group as written (generation 1, its member)
        d = client.describe_group(group)
        assert d.state == "Stable" and [m.member_id for m in d.members] == [first.member_id]
        assert new != coord


def commit_error(client: KafkaClient, node: int, group: str, topic: str, offset: int) -> int:
    req = OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=-1, member_id="",
                              group_instance_id=None, retention_time_ms=-1, topics=[OffsetCommitRequestTopic(
                                  name=topic, partitions=[OffsetCommitRequestPartition(
                                      partition_index=0, committed_offset=offset, committed_leader_epoch=-1,
                                      committed_metadata="")])])
    resp = client.request(API_OFFSET_COMMIT, req, node=node, version=8)
    return resp.topics[0].partitions[0].error_code


def test_commit_is_answered_once_replicated(make_cluster):
    c = make_cluster(3, overrides={**OVERRIDES, "offsets.commit.timeout.ms": "2000"}, session_timeout_ms=6000)
    c.create_topic_zk("t", partitions=1, replication_factor=3)
    group = "g-acks-" + uuid.uuid4().hex[:8]
    with KafkaClient(c.bootstrap, timeout=TIMEOUT_S) as client:
        coord = client.find_coordinator(group)
        assert commit_error(client, coord, group, "t", 5) == 0
        followers = [b for b in c.brokers if b.node_id != coord]
        for b in followers:
            b.kill()
        # nothing can reach the HW: answered COORDINATOR_NOT_AVAILABLE, not NONE
        assert commit_error(client, coord, group, "t", 6) == ErrorCode.COORDINATOR_NOT_AVAILABLE
        followers[0].start()
        wait_until(lambda: commit_error(client, coord, group, "t", 7) == 0, timeout=TIMEOUT_S,
                   what="a commit once a follower is back")
        assert {p: o.offset for (_, p), o in client.offset_fetch(group).items()} == {0: 7}
