"""Classic group state machine on a fake clock: joins, rebalances, expiry, static members."""

from __future__ import annotations

from test_coordinator_harness import Harness, done

from kwire.coordinator.base import Pending
from kwire.coordinator.consumer_protocol import encode_assignment, encode_subscription
from kwire.protocol.errors import ErrorCode as E


def stable_group(h: Harness, n: int, group="g", **kw):
    """n members joined (one rebalance), leader synced; returns ([member ids], generation)."""
    pendings = [h.join_new(group, **kw) for _ in range(n)]
    h.advance(0)
    resps = [done(p) for p in pendings]
    assert all(r.error_code == 0 for r in resps), resps
    gen = resps[0].generation_id
    leader = resps[0].leader
    ids = [r.member_id for r in resps]
    followers = [h.sync(group, m, gen) for m in ids if m != leader]
    assign = {m: encode_assignment({"t": [i]}) for i, m in enumerate(ids)}
    lead = h.sync(group, leader, gen, assign)
    assert done(lead).error_code == 0
    for f in followers:
        assert done(f).error_code == 0
    assert h.shard.groups[group].state == "Stable"
    return ids, gen


def test_member_id_required_then_join_and_sync():
    h = Harness()
    first = h.join("g")
    assert first.error_code == E.MEMBER_ID_REQUIRED and first.member_id.startswith("client-")
    assert h.shard.groups["g"].pending_members == {first.member_id}
    p = h.join("g", first.member_id)
    assert isinstance(p, Pending) and not p.done  # the initial delay runs on the timer
    h.advance(0)
    r = done(p)
    assert (r.error_code, r.generation_id, r.leader, r.protocol_name) == (0, 1, first.member_id, "range")
    assert [m.member_id for m in r.members] == [first.member_id]
    assert r.members[0].metadata == encode_subscription(["t"])
    assert h.shard.groups["g"].state == "CompletingRebalance"
    s = h.sync("g", first.member_id, 1, {first.member_id: b"A"})
    assert done(s).assignment == b"A" and done(s).protocol_name == "range"
    assert h.shard.groups["g"].state == "Stable"
    assert h.heartbeat("g", first.member_id, 1) == E.NONE
    assert h.heartbeat("g", first.member_id, 0) == E.ILLEGAL_GENERATION
    assert h.heartbeat("g", "nobody", 1) == E.UNKNOWN_MEMBER_ID
    assert h.heartbeat("nogroup", "x", 1) == E.UNKNOWN_MEMBER_ID


def test_old_versions_join_without_member_id_required():
    h = Harness()
    p = h.join("g", version=3)
    h.advance(0)
    assert done(p).error_code == 0 and done(p).member_id.startswith("client-")


def test_join_validation_errors():
    h = Harness()
    assert h.join("").error_code == E.INVALID_GROUP_ID
    assert h.join("g", session=1000).error_code == E.INVALID_SESSION_TIMEOUT
    assert h.join("g", session=10**9).error_code == E.INVALID_SESSION_TIMEOUT
    assert h.join("g", "someone").error_code == E.UNKNOWN_MEMBER_ID
    assert h.join("g", protocol_type="").error_code == E.INCONSISTENT_GROUP_PROTOCOL
    assert "g" not in h.shard.groups  # failed joins leave no group behind
    ids, _ = stable_group(h, 1)
    other = h.join("g", protocols=[("roundrobin", b"x")])
    assert other.error_code == E.INCONSISTENT_GROUP_PROTOCOL
    assert h.join("g", protocol_type="connect").error_code == E.INCONSISTENT_GROUP_PROTOCOL


def test_initial_delay_collects_members_and_never_waits_longer():
    h = Harness(group_initial_rebalance_delay_ms=3000)
    p1 = h.join_new("g")
    h.advance(1000)
    p2 = h.join_new("g")
    h.advance(1999)
    assert not p1.done and not p2.done
    h.advance(1)  # exactly the configured delay after the first member: not extended
    r1, r2 = done(p1), done(p2)
    assert r1.generation_id == r2.generation_id == 1
    assert len(r1.members) == 2 and r2.members == [] and r2.leader == r1.member_id


def test_protocol_selection_by_vote():
    h = Harness()
    a = h.join_new("g", protocols=[("range", b"a"), ("roundrobin", b"a2")])
    b = h.join_new("g", protocols=[("roundrobin", b"b"), ("range", b"b2")])
    c = h.join_new("g", protocols=[("cooperative-sticky", b"c"), ("roundrobin", b"c2"), ("range", b"c3")])
    h.advance(0)
    assert done(a).protocol_name == "roundrobin"  # candidates range/roundrobin; 2 votes to 1
    assert {m.metadata for m in done(a).members} == {b"a2", b"b", b"c2"}


def test_rebalance_when_member_joins_stable_group():
    h = Harness()
    (m1, m2), gen = stable_group(h, 2)
    p3 = h.join_new("g")
    assert h.shard.groups["g"].state == "PreparingRebalance"
    assert h.heartbeat("g", m1, gen) == E.REBALANCE_IN_PROGRESS
    assert not p3.done
    p1 = h.join("g", m1)
    assert not p3.done
    p2 = h.join("g", m2)
    r1, r2, r3 = done(p1), done(p2), done(p3)  # all rejoined: completes at once
    assert r1.generation_id == r2.generation_id == r3.generation_id == gen + 1
    assert r1.leader == m1 and len(r1.members) == 3
    # committing during CompletingRebalance is refused, as in Kafka
    from kwire.coordinator.offsets import Commit
    from kwire.coordinator.base import CoordinatorError
    try:
        h.shard.commit_offsets("g", gen + 1, m2, None, -1, [Commit("t", 0, 1, -1, None)], 8, h.now)
        raise AssertionError("expected REBALANCE_IN_PROGRESS")
    except CoordinatorError as e:
        assert e.code == E.REBALANCE_IN_PROGRESS


def test_member_that_does_not_rejoin_is_dropped_after_rebalance_timeout():
    h = Harness()
    (m1, m2), gen = stable_group(h, 2, rebalance=20_000)
    p1 = h.join("g", m1, rebalance=20_000, topics=("t", "u"))  # leader rejoins: rebalance
    assert h.shard.groups["g"].state == "PreparingRebalance"
    h.advance(5_000)
    assert h.heartbeat("g", m2, gen) == E.REBALANCE_IN_PROGRESS
    h.advance(15_000)
    r = done(p1)
    assert r.generation_id == gen + 1 and [m.member_id for m in r.members] == [m1]


def test_session_expiry_removes_member_and_rebalances():
    h = Harness()
    (m1, m2), gen = stable_group(h, 2, session=10_000)
    for _ in range(3):
        h.advance(3_000)
        assert h.heartbeat("g", m1, gen) == E.NONE  # m2 stays silent
    h.advance(1_000)
    assert h.shard.groups["g"].state == "PreparingRebalance"
    assert m2 not in h.shard.groups["g"].members
    assert h.heartbeat("g", m1, gen) == E.REBALANCE_IN_PROGRESS
    p = h.join("g", m1)
    r = done(p)
    assert r.generation_id == gen + 1 and [m.member_id for m in r.members] == [m1]


def test_last_member_expiring_leaves_an_empty_generation_on_the_log():
    h = Harness()
    (m1,), gen = stable_group(h, 1, session=10_000)
    h.advance(10_000)
    g = h.shard.groups["g"]
    assert g.state == "Empty" and g.generation_id == gen + 1 and not g.members
    shard = h.reload()
    assert shard.groups["g"].state == "Empty" and shard.groups["g"].generation_id == gen + 1


def test_pending_member_expires():
    h = Harness()
    first = h.join("g", session=10_000)
    h.advance(10_000)
    assert first.member_id not in h.shard.groups["g"].pending_members


def test_new_member_join_timeout_when_leader_is_silent():
    """A member awaiting its first join may expire; one that rejoins keeps waiting."""
    h = Harness()
    (m1,), gen = stable_group(h, 1, session=10_000, rebalance=600_000)
    p2 = h.join_new("g", session=10_000, rebalance=600_000)
    # m1 neither heartbeats nor rejoins: its session expires and the join completes without it
    h.advance(10_000)
    r2 = done(p2)
    assert r2.error_code == 0 and [m.member_id for m in r2.members] == [r2.member_id]


def test_sync_errors_and_pending_sync_expiry():
    h = Harness()
    p1 = h.join_new("g", rebalance=20_000, session=30_000)
    p2 = h.join_new("g", rebalance=20_000, session=30_000)
    h.advance(0)
    r1, r2 = done(p1), done(p2)
    gen = r1.generation_id
    assert done(h.sync("g", "nobody", gen)).error_code == E.UNKNOWN_MEMBER_ID
    assert done(h.sync("g", r1.member_id, gen + 5)).error_code == E.ILLEGAL_GENERATION
    assert done(h.sync("nogroup", r1.member_id, gen)).error_code == E.UNKNOWN_MEMBER_ID
    lead = h.sync("g", r1.member_id, gen, {r1.member_id: b"x", r2.member_id: b"y"})
    assert done(lead).assignment == b"x"
    # r2 never sends SyncGroup: removed once the rebalance timeout has passed
    h.advance(20_000)
    g = h.shard.groups["g"]
    assert r2.member_id not in g.members and g.state == "PreparingRebalance"


def test_follower_sync_waits_for_leader_and_gets_rebalance_error_on_new_join():
    h = Harness()
    p1, p2 = h.join_new("g"), h.join_new("g")
    h.advance(0)
    r1, r2 = done(p1), done(p2)
    follower = h.sync("g", r2.member_id, r2.generation_id)
    assert not follower.done
    h.join_new("g")  # a third member: the rebalance aborts the waiting sync
    assert done(follower).error_code == E.REBALANCE_IN_PROGRESS


def test_join_while_completing_rebalance_returns_same_generation():
    h = Harness()
    p1, p2 = h.join_new("g"), h.join_new("g")
    h.advance(0)
    r2 = done(p2)
    again = h.join("g", r2.member_id)  # same protocols: the lost response is sent again
    assert again.generation_id == r2.generation_id and again.error_code == 0


def test_leave_group_single_and_batch():
    h = Harness()
    (m1, m2, m3), gen = stable_group(h, 3)
    out = h.leave("g", (m2, None))
    assert out == [(m2, None, E.NONE)]
    assert h.shard.groups["g"].state == "PreparingRebalance"
    out = h.leave("g", (m3, None), ("ghost", None), ("x", "no-such-instance"))
    assert [e for _, _, e in out] == [E.NONE, E.UNKNOWN_MEMBER_ID, E.UNKNOWN_MEMBER_ID]
    r = done(h.join("g", m1))
    assert [m.member_id for m in r.members] == [m1]
    out = h.leave("g", (m1, None))
    g = h.shard.groups["g"]
    assert g.state == "PreparingRebalance" or g.state == "Empty"


def test_static_member_rejoin_without_rebalance_and_fencing():
    h = Harness()
    p1 = h.join("g", instance="i1")  # static members never get MEMBER_ID_REQUIRED
    p2 = h.join("g", instance="i2")
    h.advance(0)
    r1, r2 = done(p1), done(p2)
    assert r1.member_id.startswith("i1-")
    gen = r1.generation_id
    lead = h.sync("g", r1.member_id, gen, {r1.member_id: b"A", r2.member_id: b"B"}, instance="i1")
    h.sync("g", r2.member_id, gen, instance="i2")
    assert done(lead).error_code == 0
    records_before = len(h.log)
    # i2 restarts: unknown member id, same instance id -> new id, same generation, no rebalance
    again = h.join("g", instance="i2")
    assert again.error_code == 0 and again.generation_id == gen and again.member_id != r2.member_id
    assert h.shard.groups["g"].state == "Stable"
    assert len(h.log) == records_before + 1  # the replacement is persisted
    assert done(h.sync("g", again.member_id, gen, instance="i2")).assignment == b"B"
    # the old incarnation is fenced
    assert h.heartbeat("g", r2.member_id, gen, instance="i2") == E.FENCED_INSTANCE_ID
    assert done(h.sync("g", r2.member_id, gen, instance="i2")).error_code == E.FENCED_INSTANCE_ID
    assert h.join("g", r2.member_id, instance="i2").error_code == E.FENCED_INSTANCE_ID
    out = h.leave("g", (r2.member_id, "i2"))
    assert out[0][2] == E.FENCED_INSTANCE_ID
    # the leader restarting gets the member list with skip_assignment
    lead_again = h.join("g", instance="i1")
    assert lead_again.skip_assignment and len(lead_again.members) == 2
    assert h.shard.groups["g"].state == "Stable"
    # replay of the log sees the replaced ids
    shard = h.reload()
    assert set(shard.groups["g"].members) == {again.member_id, lead_again.member_id}
    assert shard.groups["g"].static_members == {"i1": lead_again.member_id, "i2": again.member_id}


def test_static_member_session_expiry_and_leave_by_instance_id():
    h = Harness()
    p1 = h.join("g", instance="i1", session=10_000)
    h.advance(0)
    r1 = done(p1)
    h.sync("g", r1.member_id, r1.generation_id, {r1.member_id: b""}, instance="i1")
    out = h.leave("g", ("", "i1"))  # KIP-345 batch leave by instance id
    assert out[0][2] == E.NONE
    assert h.shard.groups["g"].state == "Empty"


def test_group_max_size():
    h = Harness(group_max_size=1)
    stable_group(h, 1)
    assert h.join("g", version=3).error_code == E.GROUP_MAX_SIZE_REACHED


def test_replay_rebuilds_identical_state():
    h = Harness()
    (m1, m2), gen = stable_group(h, 2)
    from kwire.coordinator.offsets import Commit

    h.apply(h.shard.commit_offsets("g", gen, m1, None, -1,
                                   [Commit("t", 0, 10, 3, "m0"), Commit("t", 1, 20, -1, None)], 8, h.now))
    shard = h.reload()
    a, b = h.shard.groups["g"], shard.groups["g"]
    assert (a.state, a.generation_id, a.protocol_type, a.protocol_name, a.leader) == \
           (b.state, b.generation_id, b.protocol_type, b.protocol_name, b.leader)
    assert {k: (m.assignment, m.metadata(a.protocol_name), m.session_timeout_ms, m.client_id, m.client_host)
            for k, m in a.members.items()} == \
           {k: (m.assignment, m.metadata(b.protocol_name), m.session_timeout_ms, m.client_id, m.client_host)
            for k, m in b.members.items()}
    assert h.shard.offsets.offsets == shard.offsets.offsets
    assert b.subscribed_topics == {"t"}
    # loaded members must heartbeat within their session or be removed
    assert shard.timer.next_deadline() == h.now + 10_000
