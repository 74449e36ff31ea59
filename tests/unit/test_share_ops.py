"""kwire.coordinator.share_ops: share-group membership in a coordinator shard, time in ms."""

from __future__ import annotations

import pytest

from kwire.coordinator.base import CoordinatorError, OpContext
from kwire.coordinator.records import decode_record, encode_record
from kwire.coordinator.shard import GroupCoordinatorShard
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.join_group_request import JoinGroupRequest
from kwire.protocol.generated.share_group_heartbeat_request import ShareGroupHeartbeatRequest

T1 = b"\x01" * 16


class Topics:
    def by_name(self, name):
        return (T1, 2) if name == "t" else None

    def name_of(self, tid):
        return "t" if tid == T1 else None


CTX = OpContext(1, "client", "/127.0.0.1")


def beat(shard, member, epoch, now=0, topics=("t",)):
    req = ShareGroupHeartbeatRequest(group_id="g", member_id=member, member_epoch=epoch,
                                     subscribed_topic_names=list(topics) if epoch == 0 else None)
    result = shard.share_group_heartbeat(CTX, req, now)
    for r in result.records:  # through the bytes, as a restart would replay them
        shard.replay(decode_record(*encode_record(r)))
    return result.response


def test_join_share_and_leave():
    shard = GroupCoordinatorShard(partition=0, topics=Topics())
    a = beat(shard, "a", 0)
    assert a.member_epoch == 1 and [tp.partitions for tp in a.assignment.topic_partitions] == [[0, 1]]
    b = beat(shard, "b", 0, now=1)
    assert b.member_epoch == 2 and b.assignment.topic_partitions[0].partitions == [1]
    a2 = beat(shard, "a", 1, now=2)  # catches up with the new epoch: gives partition 1 to b
    assert a2.member_epoch == 2 and a2.assignment.topic_partitions[0].partitions == [0]
    for m in "cd":
        beat(shard, m, 0, now=3)
    d = shard.share_group_describe("g")
    assert d.group_state == "Stable" and len(d.members) == 4 and d.assignor_name == "simple"
    assert [l.group_type for l in shard.list_groups(types={"share"})] == ["share"]
    beat(shard, "a", -1, now=4)
    assert "a" not in shard.groups["g"].members


def test_epoch_fencing_and_unknown_members():
    shard = GroupCoordinatorShard(partition=0, topics=Topics())
    beat(shard, "a", 0)
    with pytest.raises(CoordinatorError) as e:
        beat(shard, "a", 7)
    assert e.value.code == E.FENCED_MEMBER_EPOCH
    with pytest.raises(CoordinatorError) as e:
        beat(shard, "zz", 1)
    assert e.value.code == E.UNKNOWN_MEMBER_ID
    with pytest.raises(CoordinatorError) as e:
        beat(shard, "", 0)
    assert e.value.code == E.INVALID_REQUEST


def test_session_timeout_fences():
    shard = GroupCoordinatorShard(partition=0, topics=Topics())
    beat(shard, "a", 0, now=0)
    timeout = shard.config.share_session_timeout_ms("g")
    assert list(shard.poll_timers(timeout - 1)) == []
    for result in shard.poll_timers(timeout):
        for r in result.records:
            shard.replay(r)
    assert shard.groups["g"].members == {} and shard.groups["g"].state == "Empty"


def test_group_type_clashes():
    shard = GroupCoordinatorShard(partition=0, topics=Topics())
    beat(shard, "a", 0)
    join = JoinGroupRequest(group_id="g", session_timeout_ms=10000, rebalance_timeout_ms=10000, member_id="",
                            protocol_type="consumer", protocols=[])
    assert shard.join_group(OpContext(5), join, 0).response.error_code == E.GROUP_ID_NOT_FOUND
    with pytest.raises(CoordinatorError) as e:
        shard.commit_offsets("g", -1, "", None, -1, [], 9, 0)
    assert e.value.code == E.GROUP_ID_NOT_FOUND
    assert shard.delete_groups(["g"], 0).response == {"g": E.NON_EMPTY_GROUP}
    beat(shard, "a", -1)
    result = shard.delete_groups(["g"], 0)
    assert result.response == {"g": E.NONE}
    for r in result.records:
        shard.replay(r)
    assert "g" not in shard.groups
