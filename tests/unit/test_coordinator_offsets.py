"""Offsets, admin operations and expiry on the shard, with a fake clock."""

from __future__ import annotations

import pytest
from test_coordinator_classic import stable_group
from test_coordinator_harness import Harness

from kwire.coordinator.base import CoordinatorError
from kwire.coordinator.offsets import Commit
from kwire.protocol.errors import ErrorCode as E


def commit(h, group, commits, generation=-1, member="", instance=None, version=8, retention=-1):
    return h.apply(h.shard.commit_offsets(group, generation, member, instance, retention,
                                          [Commit(*c) for c in commits], version, h.now))


def fetch(h, group, topics=None):
    return {(t, f.partition): (f.offset, f.leader_epoch, f.metadata)
            for t, parts in h.shard.fetch_offsets(group, topics) for f in parts}


def test_simple_commit_creates_simple_group_and_fetch_round_trips():
    h = Harness()
    out = commit(h, "g", [("t", 0, 5, 3, "meta"), ("t", 1, 7, -1, None)])
    assert out == {("t", 0): E.NONE, ("t", 1): E.NONE}
    g = h.shard.groups["g"]
    assert g.state == "Empty" and g.protocol_type is None
    assert fetch(h, "g", [("t", [0, 1, 2])]) == {
        ("t", 0): (5, 3, "meta"), ("t", 1): (7, -1, ""), ("t", 2): (-1, -1, "")}
    assert fetch(h, "g") == {("t", 0): (5, 3, "meta"), ("t", 1): (7, -1, "")}
    assert fetch(h, "unknown", [("t", [0])]) == {("t", 0): (-1, -1, "")}
    assert fetch(h, "unknown") == {}
    assert [g.group_id for g in h.shard.list_groups()] == ["g"]
    assert h.shard.list_groups()[0].protocol_type == ""


def test_commit_validation_like_kafka():
    h = Harness()
    with pytest.raises(CoordinatorError) as e:
        commit(h, "nope", [("t", 0, 1, -1, None)], generation=3, member="m", version=8)
    assert e.value.code == E.ILLEGAL_GENERATION
    with pytest.raises(CoordinatorError) as e:
        commit(h, "nope", [("t", 0, 1, -1, None)], generation=3, member="m", version=9)
    assert e.value.code == E.GROUP_ID_NOT_FOUND
    (m1, m2), gen = stable_group(h, 2)
    assert commit(h, "g", [("t", 0, 9, -1, None)], generation=gen, member=m1) == {("t", 0): E.NONE}
    for generation, member, code in [(gen + 1, m1, E.ILLEGAL_GENERATION), (gen, "x", E.UNKNOWN_MEMBER_ID),
                                     (-1, "", E.UNKNOWN_MEMBER_ID)]:
        with pytest.raises(CoordinatorError) as e:
            commit(h, "g", [("t", 0, 1, -1, None)], generation=generation, member=member)
        assert e.value.code == code
    out = commit(h, "g", [("t", 0, 1, -1, "x" * 5000), ("t", 1, 2, -1, "ok")], generation=gen, member=m2)
    assert out == {("t", 0): E.OFFSET_METADATA_TOO_LARGE, ("t", 1): E.NONE}


def test_offset_delete_and_group_delete():
    h = Harness()
    (m1,), gen = stable_group(h, 1, topics=("t",))
    commit(h, "g", [("t", 0, 1, -1, None), ("u", 0, 2, -1, None)], generation=gen, member=m1)
    out = h.apply(h.shard.delete_offsets("g", [("t", [0]), ("u", [0, 5])], h.now))
    assert out == {("t", 0): E.GROUP_SUBSCRIBED_TO_TOPIC, ("u", 0): E.NONE, ("u", 5): E.NONE}
    assert fetch(h, "g") == {("t", 0): (1, -1, "")}
    assert h.apply(h.shard.delete_groups(["g", "nope"], h.now)) == {
        "g": E.NON_EMPTY_GROUP, "nope": E.GROUP_ID_NOT_FOUND}
    h.leave("g", (m1, None))
    assert h.shard.groups["g"].state == "Empty"
    assert h.apply(h.shard.delete_groups(["g"], h.now)) == {"g": E.NONE}
    assert "g" not in h.shard.groups and fetch(h, "g") == {}
    shard = h.reload()
    assert "g" not in shard.groups and not shard.offsets.offsets
    with pytest.raises(CoordinatorError) as e:
        h.shard.delete_offsets("g", [("t", [0])], h.now)
    assert e.value.code == E.GROUP_ID_NOT_FOUND


def test_offset_delete_on_non_consumer_group_with_members():
    h = Harness()
    p = h.join_new("g", protocol_type="connect", protocols=[("default", b"x")])
    h.advance(0)
    with pytest.raises(CoordinatorError) as e:
        h.shard.delete_offsets("g", [("t", [0])], h.now)
    assert e.value.code == E.NON_EMPTY_GROUP


def test_describe_and_list_groups():
    h = Harness()
    (m1, m2), gen = stable_group(h, 2)
    d = h.shard.describe_group("g")
    assert (d.group_state, d.protocol_type, d.protocol_data) == ("Stable", "consumer", "range")
    assert {m.member_id for m in d.members} == {m1, m2}
    assert all(m.client_host == "/127.0.0.1" and m.member_assignment for m in d.members)
    assert h.shard.describe_group("nope") is None
    h.join_new("g")  # rebalancing: members are described without metadata
    d = h.shard.describe_group("g")
    assert d.group_state == "PreparingRebalance" and d.protocol_data == ""
    assert all(m.member_metadata == b"" and m.member_assignment == b"" for m in d.members)
    commit(h, "simple", [("t", 0, 1, -1, None)])
    assert {g.group_id for g in h.shard.list_groups({"empty"})} == {"simple"}
    assert {g.group_id for g in h.shard.list_groups({"preparingrebalance"})} == {"g"}
    assert {g.group_id for g in h.shard.list_groups(types={"consumer"})} == set()
    assert {g.group_id for g in h.shard.list_groups(types={"classic"})} == {"g", "simple"}


def test_offsets_expire_after_retention_once_group_is_empty():
    h = Harness(offsets_retention_ms=60_000)
    (m1,), gen = stable_group(h, 1, session=10_000)
    commit(h, "g", [("t", 0, 1, -1, None)], generation=gen, member=m1)
    commit(h, "g", [("old", 0, 1, -1, None)], generation=gen, member=m1)
    h.advance(10_000)  # m1's session expires: the group becomes Empty now
    h.advance(110_000)
    g = h.shard.groups["g"]
    assert g.state == "Empty"
    h.apply(h.shard.expire_offsets(h.now - 60_000))  # only 50 s since Empty: kept
    assert fetch(h, "g")
    h.apply(h.shard.expire_offsets(h.now))  # 110 s since Empty: expired, the group is deleted
    assert fetch(h, "g") == {} and "g" not in h.shard.groups
    assert "g" not in h.reload().groups


def test_simple_group_offsets_expire_by_commit_time_and_explicit_retention():
    h = Harness(offsets_retention_ms=60_000)
    commit(h, "s", [("t", 0, 1, -1, None)])
    h.now += 30_000
    commit(h, "s", [("t", 1, 1, -1, None)])
    commit(h, "s", [("t", 2, 1, -1, None)], version=2, retention=5_000)  # v2-4 retention_time_ms
    h.now += 10_000
    h.apply(h.shard.expire_offsets(h.now))
    assert set(fetch(h, "s")) == {("t", 0), ("t", 1)}
    h.now += 25_000
    h.apply(h.shard.expire_offsets(h.now))
    assert set(fetch(h, "s")) == {("t", 1)}
    h.now += 60_000
    h.apply(h.shard.expire_offsets(h.now))
    assert "s" not in h.shard.groups


def test_stable_consumer_group_keeps_offsets_of_subscribed_topics():
    h = Harness(offsets_retention_ms=60_000)
    (m1,), gen = stable_group(h, 1, session=600_000, topics=("t",))
    commit(h, "g", [("t", 0, 1, -1, None), ("gone", 0, 1, -1, None)], generation=gen, member=m1)
    h.now += 120_000
    h.apply(h.shard.expire_offsets(h.now))
    assert set(fetch(h, "g")) == {("t", 0)}
