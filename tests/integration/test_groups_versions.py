"""Every version of every group API, over TCP with kwire's own codec.

For each JoinGroup version a member joins (v4+ through MEMBER_ID_REQUIRED),
syncs, heartbeats, commits and fetches offsets (metadata round trip), is
described and listed, and leaves; then the group is deleted. The other APIs
(FindCoordinator v0-6, OffsetCommit v2-10, OffsetFetch v1-10 including v7+
require_stable (answered normally: no transaction is pending), v8+
multi-group and v10 topic ids, DescribeGroups v0-6, ListGroups v0-5,
DeleteGroups v0-2, OffsetDelete v0, ConsumerGroupHeartbeat v0-1,
ConsumerGroupDescribe v0-1) run at each of their versions. OffsetFetch v7-10
with require_stable while a transactional offset commit is pending:
UNSTABLE_OFFSET_COMMIT for that partition (named, and in the all-topics fetch
as Kafka's fetchAllOffsets), the committed offset once the transaction commits.
"""

from __future__ import annotations

import time
import uuid

import pytest

from kwire.coordinator.consumer_protocol import encode_assignment, encode_subscription
from kwire.protocol import codec
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated import (
    add_offsets_to_txn_request as ao,
    consumer_group_describe_request as cgd,
    consumer_group_heartbeat_request as cgh,
    delete_groups_request as dg,
    describe_groups_request as dsg,
    end_txn_request as et,
    find_coordinator_request as fc,
    heartbeat_request as hb,
    init_producer_id_request as ip,
    join_group_request as jg,
    leave_group_request as lg,
    list_groups_request as lsg,
    offset_commit_request as oc,
    offset_delete_request as od,
    offset_fetch_request as of,
    sync_group_request as sg,
    txn_offset_commit_request as tc,
)
from clients import Wire
from test_groups_support import create_topic


@pytest.fixture
def wire(broker):
    w = Wire(broker.bootstrap)
    yield w
    w.close()


@pytest.fixture(scope="module")
def topic(broker):
    name = f"t-versions-{uuid.uuid4().hex[:8]}"
    create_topic(broker.bootstrap, name, 2)
    return name


@pytest.mark.parametrize("v", range(0, 7))
def test_find_coordinator(wire, broker, v):
    port = int(broker.bootstrap.rsplit(":", 1)[1])
    if v >= 4:
        r = wire(10, v, fc.FindCoordinatorRequest(key_type=0, coordinator_keys=["a", "b"]))
        assert [(c.key, c.error_code, c.port) for c in r.coordinators] == [("a", 0, port), ("b", 0, port)]
        r = wire(10, v, fc.FindCoordinatorRequest(key_type=1, coordinator_keys=["txn"]))
        assert (r.coordinators[0].error_code, r.coordinators[0].port) == (0, port)  # transactions
    else:
        r = wire(10, v, fc.FindCoordinatorRequest(key="grp", key_type=0))
        assert (r.error_code, r.node_id, r.port) == (0, 0, port)
        if v >= 1:
            r = wire(10, v, fc.FindCoordinatorRequest(key="txn", key_type=1))
            assert (r.error_code, r.node_id, r.port) == (0, 0, port)  # the transaction coordinator


@pytest.mark.parametrize("v", range(0, 10))
def test_classic_lifecycle_at_join_version(wire, topic, v):
    group = f"g-v{v}-{uuid.uuid4().hex[:6]}"
    sync_v, hb_v, leave_v = min(v, 5), min(v, 4), min(v, 5)
    meta = encode_subscription([topic])
    join = jg.JoinGroupRequest(group_id=group, session_timeout_ms=10_000, rebalance_timeout_ms=10_000,
                               member_id="", protocol_type="consumer",
                               protocols=[jg.JoinGroupRequestProtocol(name="range", metadata=meta)])
    r = wire(11, v, join)
    if v >= 4:
        assert r.error_code == E.MEMBER_ID_REQUIRED
        join.member_id = r.member_id
        r = wire(11, v, join)
    assert r.error_code == 0 and r.generation_id == 1 and r.leader == r.member_id
    assert r.protocol_name == "range" and [m.metadata for m in r.members] == [meta]
    if v >= 7:
        assert r.protocol_type == "consumer"
    me = r.member_id
    assignment = encode_assignment({topic: [0, 1]})
    s = wire(14, sync_v, sg.SyncGroupRequest(
        group_id=group, generation_id=1, member_id=me,
        protocol_type="consumer" if sync_v >= 5 else None, protocol_name="range" if sync_v >= 5 else None,
        assignments=[sg.SyncGroupRequestAssignment(member_id=me, assignment=assignment)]))
    assert s.error_code == 0 and s.assignment == assignment
    assert wire(12, hb_v, hb.HeartbeatRequest(group_id=group, generation_id=1, member_id=me)).error_code == 0
    assert wire(12, hb_v, hb.HeartbeatRequest(group_id=group, generation_id=7, member_id=me)).error_code == \
        E.ILLEGAL_GENERATION
    # commit as the member, fetch it back
    cv = max(2, min(v, 9))
    c = wire(8, cv, oc.OffsetCommitRequest(
        group_id=group, generation_id_or_member_epoch=1, member_id=me,
        topics=[oc.OffsetCommitRequestTopic(name=topic, partitions=[
            oc.OffsetCommitRequestPartition(partition_index=0, committed_offset=42, committed_metadata="hi")])]))
    assert c.topics[0].partitions[0].error_code == 0
    fv = max(1, min(v, 7))
    f = wire(9, fv, of.OffsetFetchRequest(group_id=group, topics=[
        of.OffsetFetchRequestTopic(name=topic, partition_indexes=[0, 1])]))
    assert [(p.partition_index, p.committed_offset, p.metadata) for p in f.topics[0].partitions] == \
           [(0, 42, "hi"), (1, -1, "")]
    d = wire(15, min(v, 6), dsg.DescribeGroupsRequest(groups=[group]))
    assert d.groups[0].group_state == "Stable" and d.groups[0].members[0].member_assignment == assignment
    ls = wire(16, min(v, 5), lsg.ListGroupsRequest())
    assert group in {g.group_id for g in ls.groups}
    if leave_v >= 3:
        lr = wire(13, leave_v, lg.LeaveGroupRequest(group_id=group, members=[lg.MemberIdentity(member_id=me)]))
        assert lr.error_code == 0 and [m.error_code for m in lr.members] == [0]
    else:
        assert wire(13, leave_v, lg.LeaveGroupRequest(group_id=group, member_id=me)).error_code == 0
    dr = wire(42, min(v, 2), dg.DeleteGroupsRequest(groups_names=[group]))
    assert [(x.group_id, x.error_code) for x in dr.results] == [(group, 0)]


@pytest.mark.parametrize("v", range(2, 11))
def test_offset_commit_and_fetch_versions(wire, broker, topic, v):
    group = f"g-oc{v}-{uuid.uuid4().hex[:6]}"
    topic_id = broker.server.broker.metadata.topic(topic).topic_id
    part = oc.OffsetCommitRequestPartition(partition_index=1, committed_offset=7, committed_leader_epoch=0,
                                           committed_metadata=None)
    t = oc.OffsetCommitRequestTopic(name=topic, partitions=[part]) if v < 10 else \
        oc.OffsetCommitRequestTopic(topic_id=topic_id, partitions=[part])
    bad = oc.OffsetCommitRequestTopic(name="no-such-topic", partitions=[
        oc.OffsetCommitRequestPartition(partition_index=0, committed_offset=1)]) if v < 10 else \
        oc.OffsetCommitRequestTopic(topic_id=uuid.uuid4(), partitions=[
            oc.OffsetCommitRequestPartition(partition_index=0, committed_offset=1)])
    r = wire(8, v, oc.OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=-1, member_id="",
                                          topics=[t, bad]))
    assert [p.error_code for tt in r.topics for p in tt.partitions] == \
        [0, E.UNKNOWN_TOPIC_ID if v >= 10 else E.UNKNOWN_TOPIC_OR_PARTITION]
    for fv in range(1, 11):
        stable = {"require_stable": True} if fv >= 7 else {}  # KIP-447; no transaction is pending
        if fv >= 8:
            topics = [of.OffsetFetchRequestTopics(name=topic, partition_indexes=[1])] if fv < 10 else \
                [of.OffsetFetchRequestTopics(topic_id=topic_id, partition_indexes=[1])]
            req = of.OffsetFetchRequest(groups=[
                of.OffsetFetchRequestGroup(group_id=group, topics=topics),
                of.OffsetFetchRequestGroup(group_id=group, topics=None),
                of.OffsetFetchRequestGroup(group_id="nobody", topics=topics)], **stable)
            assert codec.decode_request(9, fv, codec.encode_request_body(9, fv, req)).require_stable
            f = wire(9, fv, req)
            g1, g2, g3 = f.groups
            assert [g.error_code for g in f.groups] == [0, 0, 0]  # not UNSTABLE_OFFSET_COMMIT
            p = g1.topics[0].partitions[0]
            assert (p.committed_offset, p.committed_leader_epoch, p.metadata) == (7, 0 if v >= 6 else -1, "")
            assert [(x.partition_index, x.committed_offset) for x in g2.topics[0].partitions] == [(1, 7)]
            assert g3.error_code == 0 and g3.topics[0].partitions[0].committed_offset == -1
            if fv >= 10:
                assert g1.topics[0].topic_id == topic_id and g2.topics[0].topic_id == topic_id
        else:
            req = of.OffsetFetchRequest(group_id=group, topics=[
                of.OffsetFetchRequestTopic(name=topic, partition_indexes=[1])], **stable)
            if stable:
                assert codec.decode_request(9, fv, codec.encode_request_body(9, fv, req)).require_stable
            f = wire(9, fv, req)
            p = f.topics[0].partitions[0]
            assert (p.committed_offset, p.error_code) == (7, 0)
            if fv >= 2:
                assert f.error_code == 0
                f = wire(9, fv, of.OffsetFetchRequest(group_id=group, topics=None, **stable))
                assert f.error_code == 0 and f.topics[0].partitions[0].committed_offset == 7
    d = wire(47, 0, od.OffsetDeleteRequest(group_id=group, topics=[
        od.OffsetDeleteRequestTopic(name=topic, partitions=[od.OffsetDeleteRequestPartition(partition_index=1)])]))
    assert d.error_code == 0 and d.topics[0].partitions[0].error_code == 0
    d = wire(47, 0, od.OffsetDeleteRequest(group_id="nobody-" + group, topics=[]))
    assert d.error_code == E.GROUP_ID_NOT_FOUND


def test_offset_fetch_require_stable_while_a_transactional_commit_is_pending(wire, broker, topic):
    """KIP-447: committed 3 on both partitions of ``topic``; a transaction then commits 10 on
    partition 0 and 4 on partition 0 of ``other`` (never committed before). Until its COMMIT
    marker, OffsetFetch v7-10 with require_stable answers UNSTABLE_OFFSET_COMMIT (offset -1) for
    those partitions, named or in the all-topics fetch (which, as Kafka's, lists only partitions
    with a committed offset); without require_stable the last committed offsets. After the
    commit: NONE and the transaction's offsets."""
    group, tid = f"g-stable-{uuid.uuid4().hex[:6]}", f"tx-stable-{uuid.uuid4().hex[:6]}"
    other = f"t-stable-{uuid.uuid4().hex[:8]}"
    create_topic(broker.bootstrap, other, 1)
    md = broker.server.broker.metadata
    ids = {topic: md.topic(topic).topic_id, other: md.topic(other).topic_id}
    names = {v: k for k, v in ids.items()}
    c = wire(8, 8, oc.OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=-1, member_id="",
                                          topics=[oc.OffsetCommitRequestTopic(name=topic, partitions=[
                                              oc.OffsetCommitRequestPartition(partition_index=p, committed_offset=3)
                                              for p in (0, 1)])]))
    assert [p.error_code for p in c.topics[0].partitions] == [0, 0]
    r = wire(22, 4, ip.InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000))
    assert r.error_code == 0
    pid, epoch = r.producer_id, r.producer_epoch
    assert wire(25, 3, ao.AddOffsetsToTxnRequest(transactional_id=tid, producer_id=pid, producer_epoch=epoch,
                                                 group_id=group)).error_code == 0
    t = wire(28, 3, tc.TxnOffsetCommitRequest(
        transactional_id=tid, group_id=group, producer_id=pid, producer_epoch=epoch, topics=[
            tc.TxnOffsetCommitRequestTopic(name=topic, partitions=[
                tc.TxnOffsetCommitRequestPartition(partition_index=0, committed_offset=10)]),
            tc.TxnOffsetCommitRequestTopic(name=other, partitions=[
                tc.TxnOffsetCommitRequestPartition(partition_index=0, committed_offset=4)])]))
    assert [p.error_code for x in t.topics for p in x.partitions] == [0, 0]

    def fetch(fv: int, stable: bool, everything: bool) -> dict:
        """{(topic, partition): (offset, error)} of one OffsetFetch at version ``fv``."""
        named = {topic: [0, 1], other: [0]}
        if fv >= 8:
            topics = None if everything else [
                of.OffsetFetchRequestTopics(topic_id=ids[n], partition_indexes=ps) if fv >= 10 else
                of.OffsetFetchRequestTopics(name=n, partition_indexes=ps) for n, ps in named.items()]
            f = wire(9, fv, of.OffsetFetchRequest(require_stable=stable, groups=[
                of.OffsetFetchRequestGroup(group_id=group, topics=topics)]))
            assert f.groups[0].error_code == 0
            found = f.groups[0].topics
        else:
            topics = None if everything else [of.OffsetFetchRequestTopic(name=n, partition_indexes=ps)
                                              for n, ps in named.items()]
            f = wire(9, fv, of.OffsetFetchRequest(group_id=group, topics=topics, require_stable=stable))
            assert f.error_code == 0
            found = f.topics
        return {(names[x.topic_id] if fv >= 10 else x.name, p.partition_index): (p.committed_offset, p.error_code)
                for x in found for p in x.partitions}

    unstable = (-1, E.UNSTABLE_OFFSET_COMMIT)
    for fv in range(7, 11):
        assert fetch(fv, True, False) == {(topic, 0): unstable, (topic, 1): (3, 0), (other, 0): unstable}, fv
        assert fetch(fv, True, True) == {(topic, 0): unstable, (topic, 1): (3, 0)}, fv
        assert fetch(fv, False, False) == {(topic, 0): (3, 0), (topic, 1): (3, 0), (other, 0): (-1, 0)}, fv
        assert fetch(fv, False, True) == {(topic, 0): (3, 0), (topic, 1): (3, 0)}, fv
    ended = wire(26, 3, et.EndTxnRequest(transactional_id=tid, producer_id=pid, producer_epoch=epoch,
                                         committed=True))
    assert ended.error_code == 0
    done = {(topic, 0): (10, 0), (topic, 1): (3, 0), (other, 0): (4, 0)}
    deadline = time.monotonic() + 30
    while fetch(7, True, False) != done:  # the COMMIT marker reaches the group's partition
        assert time.monotonic() < deadline, fetch(7, True, False)
        time.sleep(0.1)
    for fv in range(7, 11):
        assert fetch(fv, True, False) == done and fetch(fv, True, True) == done, fv


@pytest.mark.parametrize("v", range(0, 7))
def test_describe_unknown_group(wire, v):
    d = wire(15, v, dsg.DescribeGroupsRequest(groups=["no-such-group"], include_authorized_operations=v >= 3))
    g = d.groups[0]
    if v >= 6:
        assert g.error_code == E.GROUP_ID_NOT_FOUND and "not found" in g.error_message
    else:
        assert (g.error_code, g.group_state) == (0, "Dead")
    if v >= 6:  # Kafka's handleDescribeGroupsRequest fills them only for groups without an error
        assert g.authorized_operations == -2**31
    elif v >= 3:  # before v6 an unknown group is a Dead group with no error
        assert g.authorized_operations > 0


@pytest.mark.parametrize("v", range(0, 6))
def test_list_groups_filters(wire, topic, v):
    group = f"g-ls{v}-{uuid.uuid4().hex[:6]}"
    # a simple group (offsets without membership): Empty, classic, no protocol type
    c = wire(8, 8, oc.OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=-1, member_id="",
                                          topics=[oc.OffsetCommitRequestTopic(name=topic, partitions=[
                                              oc.OffsetCommitRequestPartition(partition_index=0,
                                                                              committed_offset=1)])]))
    assert c.topics[0].partitions[0].error_code == 0

    def listed(states=(), types=()):
        r = wire(16, v, lsg.ListGroupsRequest(states_filter=list(states), types_filter=list(types)))
        assert r.error_code == 0
        return {g.group_id: g for g in r.groups}

    everything = listed()
    assert group in everything and everything[group].protocol_type == ""
    if v >= 4:
        assert everything[group].group_state == "Empty"
        # matching filters list it (case-insensitive), a non-matching one does not
        for states in (["EMPTY"], ["Empty"], ["Stable", "empty"]):
            got = listed(states=states)
            assert group in got, states
            assert all(g.group_state == "Empty" for g in got.values())
        assert group not in listed(states=["Stable"])
        assert group not in listed(states=["PreparingRebalance", "CompletingRebalance", "Dead"])
    if v >= 5:
        assert everything[group].group_type == "classic"
        for types in (["Classic"], ["classic"], ["consumer", "CLASSIC"]):
            assert group in listed(types=types), types
        assert group in listed(states=["EMPTY"], types=["Classic"])
        got = listed(types=["consumer"])
        assert group not in got and all(g.group_type == "consumer" for g in got.values())
        assert group not in listed(states=["EMPTY"], types=["consumer"])
        assert group not in listed(states=["Stable"], types=["Classic"])


@pytest.mark.parametrize("v", range(0, 2))
def test_consumer_group_heartbeat_and_describe_versions(wire, topic, v):
    group = f"g-cg{v}-{uuid.uuid4().hex[:6]}"
    member_id = "" if v == 0 else str(uuid.uuid4())
    r = wire(68, v, cgh.ConsumerGroupHeartbeatRequest(
        group_id=group, member_id=member_id, member_epoch=0, rebalance_timeout_ms=30_000,
        subscribed_topic_names=[topic], topic_partitions=[]))
    assert r.error_code == 0 and r.member_epoch == 1 and r.member_id
    assert sorted(p for tp in r.assignment.topic_partitions for p in tp.partitions) == [0, 1]
    bad = wire(68, v, cgh.ConsumerGroupHeartbeatRequest(group_id=group, member_id=r.member_id, member_epoch=9))
    assert bad.error_code == E.FENCED_MEMBER_EPOCH and "epoch" in bad.error_message
    d = wire(69, v, cgd.ConsumerGroupDescribeRequest(group_ids=[group, "no-such-group"]))
    g, missing = d.groups
    assert (g.error_code, g.group_state, g.group_epoch, g.assignor_name) == (0, "Stable", 1, "uniform")
    assert g.members[0].member_type == (1 if v >= 1 else -1)
    assert g.members[0].assignment.topic_partitions[0].topic_name == topic
    assert missing.error_code == E.GROUP_ID_NOT_FOUND
    left = wire(68, v, cgh.ConsumerGroupHeartbeatRequest(group_id=group, member_id=r.member_id, member_epoch=-1))
    assert left.error_code == 0 and left.member_epoch == -1
    dr = wire(42, 2, dg.DeleteGroupsRequest(groups_names=[group]))
    assert dr.results[0].error_code == 0
