"""Writes to ``__consumer_offsets`` that do not replicate leave the shard's memory as it was.

Sans-I/O, on the fake-clock ``Harness``: ``Harness.append`` stages a write as
the runtime does right after its append, and ``shard.settle(staged, ok)``
plays the outcome of its replication wait. A commit is visible to OffsetFetch
only once settled ok; a failed one is dropped (the client was answered
COORDINATOR_NOT_AVAILABLE); a classic group's assignment turns the group
Stable only once replicated, and a failure answers every waiting SyncGroup
with the error and rebalances, as Kafka's classicGroupSyncLeader.
"""

from __future__ import annotations

from test_coordinator_classic import stable_group
from test_coordinator_harness import Harness, done

from kwire.coordinator.consumer_protocol import encode_assignment
from kwire.coordinator.offsets import Commit
from kwire.coordinator.records import OffsetCommitKey
from kwire.protocol.errors import ErrorCode as E

NA = E.COORDINATOR_NOT_AVAILABLE


def _commit(h: Harness, offset: int, group="g", partition=0, generation=-1, member=""):
    return h.shard.commit_offsets(group, generation, member, None, -1,
                                  [Commit("t", partition, offset, -1, None)], 8, h.now)


def _fetched(h: Harness, group="g", partition=0) -> int:
    (_topic, (row,)), = h.shard.fetch_offsets(group, [("t", [partition])])
    return row.offset


def test_a_commit_shows_only_once_replicated_and_a_failed_one_never():
    h = Harness()
    h.apply(_commit(h, 5))
    assert _fetched(h) == 5
    result = _commit(h, 9)
    staged = h.append(result)
    assert _fetched(h) == 5  # appended, not replicated yet: OffsetFetch shows the committed one
    h.shard.settle(staged, False)
    assert result.on_error(NA) == {("t", 0): NA}  # what the client is answered
    assert _fetched(h) == 5
    # after the failure the key is no longer in flight: a new commit applies normally
    h.apply(_commit(h, 11))
    assert _fetched(h) == 11
    assert not h.shard.offsets._inflight


def test_a_commit_of_a_new_group_creates_it_only_once_replicated():
    h = Harness()
    staged = h.append(_commit(h, 3, group="fresh"))
    assert "fresh" not in h.shard.groups and _fetched(h, "fresh") == -1
    h.shard.settle(staged, False)
    assert "fresh" not in h.shard.groups and _fetched(h, "fresh") == -1
    staged = h.append(_commit(h, 4, group="fresh"))
    h.shard.settle(staged, True)
    assert h.shard.groups["fresh"].state == "Empty" and _fetched(h, "fresh") == 4


def test_writes_of_one_key_settle_in_log_order():
    h = Harness()
    first, second = h.append(_commit(h, 1)), h.append(_commit(h, 2))
    h.shard.settle(second, True)  # the later write's waiter ran first
    h.shard.settle(first, True)
    assert _fetched(h) == 2  # the older write does not overwrite the newer one
    first, second = h.append(_commit(h, 3)), h.append(_commit(h, 4))
    h.shard.settle(first, False)
    h.shard.settle(second, True)
    assert _fetched(h) == 4
    first, second = h.append(_commit(h, 5)), h.append(_commit(h, 6))
    h.shard.settle(first, True)
    h.shard.settle(second, False)
    assert _fetched(h) == 5


def test_delete_and_expiry_see_commits_in_flight():
    h = Harness(offsets_retention_ms=1000)
    staged = h.append(_commit(h, 7, partition=1))
    # OffsetDelete of a partition whose only commit is in flight still writes its tombstone
    h.apply(_commit(h, 1, partition=0))  # the group exists (a simple one)
    deleted = h.shard.delete_offsets("g", [("t", [1])], h.now)
    assert [r.key for r in deleted.records] == [OffsetCommitKey("g", "t", 1)]
    assert OffsetCommitKey("g", "t", 1) in {r.key for r in h.shard.offsets.delete_all_records("g")}
    # expiry skips a partition with a commit in flight, and keeps its group
    h.now += 10_000
    expired = h.shard.expire_offsets(h.now)
    assert [r.key for r in expired.records] == [OffsetCommitKey("g", "t", 0)]
    h.shard.settle(staged, True)
    assert _fetched(h, partition=1) == 7


def test_a_failed_transactional_commit_takes_its_pending_offsets_back():
    h = Harness()

    def txn(offset: int):
        return h.shard.txn_commit_offsets("g", 1000, 0, -1, "", None, [Commit("t", 0, offset, -1, None)],
                                          h.now)

    h.apply(txn(10))  # replicated: pending until the marker
    assert h.shard.offsets.has_pending("g", "t", 0)
    staged = h.append(txn(12))
    h.shard.settle(staged, False)
    assert h.shard.offsets.has_pending("g", "t", 0)  # back to the first one, not dropped
    h.shard.complete_txn(1000, True)
    assert _fetched(h) == 10 and not h.shard.offsets.has_pending("g", "t", 0)
    staged = h.append(txn(20))  # a new transaction whose only commit fails
    h.shard.settle(staged, False)
    assert not h.shard.offsets.has_pending("g", "t", 0) and not h.shard.offsets._pending_keys
    h.shard.complete_txn(1000, True)  # its marker (an abort in practice) changes nothing
    assert _fetched(h) == 10


def _completing(h: Harness):
    """A two-member group through one rebalance, then both rejoin: CompletingRebalance at gen+1."""
    (m1, m2), gen = stable_group(h, 2)
    p1, p2 = h.join("g", m1), h.join("g", m2)
    r1, r2 = done(p1), done(p2)
    assert r1.generation_id == gen + 1 and h.shard.groups["g"].state == "CompletingRebalance"
    leader, follower = (m1, m2) if r1.leader == m1 else (m2, m1)
    return leader, follower, gen + 1


def _leader_sync_appended(h: Harness):
    """Both members of a rebalance sync; the leader's assignment is appended, not settled."""
    leader, follower, gen = _completing(h)
    f = h.sync("g", follower, gen)
    result = h.shard.sync_group(*_sync_args(h, leader, gen))
    return leader, follower, gen, f, result, h.append(result)


def test_a_classic_assignment_turns_the_group_stable_only_once_replicated():
    h = Harness()
    leader, follower, _gen, f, result, staged = _leader_sync_appended(h)
    group = h.shard.groups["g"]
    assert group.state == "CompletingRebalance" and not f.done and not result.response.done
    h.shard.settle(staged, True)
    assert group.state == "Stable"
    order = list(group.members)
    assert done(f).error_code == 0
    assert done(f).assignment == encode_assignment({"t": [order.index(follower)]})
    assert done(result.response).assignment == encode_assignment({"t": [order.index(leader)]})


def test_a_classic_assignment_that_fails_to_replicate_answers_the_error_and_rebalances():
    h = Harness()
    leader, follower, gen, f, result, staged = _leader_sync_appended(h)
    h.shard.settle(staged, False)
    answer = result.on_error(NA)  # what the runtime answers the leader
    group = h.shard.groups["g"]
    assert answer.error_code == NA and done(f).error_code == NA
    assert group.state == "PreparingRebalance" and group.generation_id == gen
    assert all(m.assignment == b"" for m in group.members.values())
    # both rejoin: the next generation, which syncs normally
    p1, p2 = h.join("g", leader), h.join("g", follower)
    assert done(p1).generation_id == done(p2).generation_id == gen + 1
    f = h.sync("g", follower, gen + 1)
    lead = h.sync("g", leader, gen + 1, {leader: b"L", follower: b"F"})
    assert done(lead).assignment == b"L" and done(f).assignment == b"F" and group.state == "Stable"


def test_a_late_replication_of_an_old_assignment_leaves_a_newer_rebalance_alone():
    h = Harness()
    leader, follower, gen = _completing(h)
    result = h.shard.sync_group(*_sync_args(h, leader, gen))
    staged = h.append(result)
    p = h.join("g", follower, topics=("t", "u"))  # a new subscription meanwhile: a new rebalance
    group = h.shard.groups["g"]
    assert group.state == "PreparingRebalance"
    h.shard.settle(staged, True)
    assert group.state == "PreparingRebalance" and not p.done
    assert all(m.assignment == b"" for m in group.members.values())


def _sync_args(h: Harness, leader: str, gen: int):
    from kwire.coordinator.base import OpContext
    from kwire.protocol.generated.sync_group_request import SyncGroupRequest, SyncGroupRequestAssignment

    members = list(h.shard.groups["g"].members)
    assignments = [SyncGroupRequestAssignment(member_id=m, assignment=encode_assignment({"t": [i]}))
                   for i, m in enumerate(members)]
    req = SyncGroupRequest(group_id="g", generation_id=gen, member_id=leader, group_instance_id=None,
                           protocol_type=None, protocol_name=None, assignments=assignments)
    return OpContext(5), req, h.now


# -- KIP-848 consumer groups: a failed write puts the group back --------------------------------

def _fingerprint(group) -> tuple:
    members = sorted((m.member_id, m.member_epoch, m.state, sorted((t, sorted(p)) for t, p in m.assigned.items()),
                      tuple(m.subscribed_topic_names)) for m in group.members.values())
    target = sorted((m, sorted((t, sorted(p)) for t, p in a.items())) for m, a in group.target.items())
    return (group.group_epoch, group.assignment_epoch, group.metadata_hash, members, target,
            sorted(group.partition_epochs.items()), dict(group.static_members), group.state)


def _consumer_harness():
    from test_coordinator_consumer import Client, FakeTopics

    h = Harness(topics=FakeTopics(t=4))
    c1 = Client(h)
    c1.beat()
    c1.beat()
    assert h.shard.groups["cg"].state == "Stable"
    return h, c1, Client


def _heartbeat_unsettled(h: Harness, client):
    from kwire.coordinator.base import OpContext
    from kwire.protocol.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest

    req = ConsumerGroupHeartbeatRequest(
        group_id=client.group, member_id=client.member_id, member_epoch=client.epoch, instance_id=None,
        rebalance_timeout_ms=30_000 if client.epoch == 0 else -1,
        subscribed_topic_names=list(client.topics) if client.epoch == 0 else None,
        subscribed_topic_regex=None, server_assignor=None, topic_partitions=[] if client.epoch == 0 else None)
    result = h.shard.consumer_group_heartbeat(OpContext(1, "cli", "/1.2.3.4"), req, h.now)
    assert result.records
    return result, h.append(result)


def test_a_consumer_group_join_that_fails_to_replicate_leaves_the_group_as_it_was():
    h, c1, Client = _consumer_harness()
    group = h.shard.groups["cg"]
    before = _fingerprint(group)
    c2 = Client(h)
    result, staged = _heartbeat_unsettled(h, c2)
    assert c2.member_id in group.members and group.group_epoch > before[0]  # replayed at once
    h.shard.settle(staged, False)
    assert h.shard.groups["cg"] is group and _fingerprint(group) == before
    assert c1.beat()[0].error_code == 0 and _fingerprint(group) == before  # c1 sees no rebalance
    c2.beat()  # the retry joins normally
    assert c2.member_id in group.members and group.group_epoch == before[0] + 1


def test_a_consumer_group_leave_that_fails_to_replicate_keeps_the_member_and_its_session():
    h, c1, Client = _consumer_harness()
    group = h.shard.groups["cg"]
    before = _fingerprint(group)
    c1.epoch = -1  # LeaveGroup
    result, staged = _heartbeat_unsettled(h, c1)
    assert c1.member_id not in group.members
    h.shard.settle(staged, False)
    assert _fingerprint(group) == before
    # its session timer is armed again: silent for a session timeout, it is fenced
    h.advance(h.config.group_consumer_session_timeout_ms + 1)
    assert c1.member_id not in group.members


def test_a_new_consumer_group_whose_first_write_fails_is_gone():
    h, _c1, Client = _consumer_harness()
    c = Client(h, group="other")
    _result, staged = _heartbeat_unsettled(h, c)
    assert "other" in h.shard.groups
    h.shard.settle(staged, False)
    assert "other" not in h.shard.groups


def test_a_failed_write_does_not_undo_a_later_one_of_the_same_group():
    h, c1, Client = _consumer_harness()
    group = h.shard.groups["cg"]
    c2, c3 = Client(h), Client(h)
    _r2, first = _heartbeat_unsettled(h, c2)
    _r3, second = _heartbeat_unsettled(h, c3)
    h.shard.settle(first, False)  # the group changed since: left to the later write
    assert {c2.member_id, c3.member_id} <= set(group.members)
    h.shard.settle(second, True)
    assert {c2.member_id, c3.member_id} <= set(group.members)
    assert not h.shard._touched


def test_a_share_group_join_that_fails_to_replicate_leaves_the_group_as_it_was():
    from test_share_ops import CTX, Topics, beat

    from kwire.coordinator.shard import GroupCoordinatorShard
    from kwire.protocol.generated.share_group_heartbeat_request import ShareGroupHeartbeatRequest

    shard = GroupCoordinatorShard(partition=0, topics=Topics())
    beat(shard, "a", 0)
    group = shard.groups["g"]

    def image():  # the persisted state (a share group's target is a cache the operations refresh)
        return (group.group_epoch, group.metadata_hash,
                sorted((m.member_id, m.member_epoch, sorted((t, sorted(p)) for t, p in m.assigned.items()))
                       for m in group.members.values()))

    before = image()
    req = ShareGroupHeartbeatRequest(group_id="g", member_id="b", member_epoch=0, subscribed_topic_names=["t"])
    staged = shard.stage(shard.share_group_heartbeat(CTX, req, 1), replicating=True)
    assert "b" in group.members
    shard.settle(staged, False)
    assert shard.groups["g"] is group and image() == before
    assert beat(shard, "a", 1, now=2).member_epoch == before[0]  # a sees no new epoch
    assert beat(shard, "b", 0, now=3).member_epoch == before[0] + 1  # the retry joins
