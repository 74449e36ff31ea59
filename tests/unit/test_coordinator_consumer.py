"""KIP-848 consumer groups on a fake clock: joins, epochs, revocation, assignors, expiry, replay."""

from __future__ import annotations

import uuid

import pytest
from test_coordinator_harness import Harness

from kwire.coordinator.assignors import range_, uniform
from kwire.coordinator.base import CoordinatorError, OpContext
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.consumer_group_heartbeat_request import (
    ConsumerGroupHeartbeatRequest,
    TopicPartitions,
)


class FakeTopics:
    def __init__(self, **topics: int) -> None:
        self.topics = {name: (uuid.uuid5(uuid.NAMESPACE_OID, name).bytes, n) for name, n in topics.items()}

    def by_name(self, name):
        return self.topics.get(name)

    def name_of(self, tid):
        return next((n for n, (i, _) in self.topics.items() if i == tid), None)

    def names(self):
        return list(self.topics)


class Client:
    """A KIP-848 consumer as the protocol expects it to behave."""

    def __init__(self, h: Harness, group="cg", topics=("t",), member_id=None, instance=None, regex=None,
                 assignor=None):
        self.h, self.group = h, group
        self.member_id = member_id or str(uuid.uuid4())
        self.epoch = 0
        self.owned: dict[bytes, list[int]] = {}
        self.topics, self.instance, self.regex, self.assignor = topics, instance, regex, assignor

    def beat(self, owned_changed=False, version=1):
        req = ConsumerGroupHeartbeatRequest(
            group_id=self.group, member_id=self.member_id, member_epoch=self.epoch, instance_id=self.instance,
            rebalance_timeout_ms=30_000 if self.epoch == 0 else -1,
            subscribed_topic_names=list(self.topics) if self.epoch == 0 and self.topics is not None else None,
            subscribed_topic_regex=self.regex if self.epoch == 0 else None,
            server_assignor=self.assignor if self.epoch == 0 else None,
            topic_partitions=[] if self.epoch == 0 else (
                [TopicPartitions(topic_id=uuid.UUID(bytes=t), partitions=p) for t, p in self.owned.items()]
                if owned_changed else None))
        resp = self.h.apply(self.h.shard.consumer_group_heartbeat(OpContext(version, "cli", "/1.2.3.4"),
                                                                   req, self.h.now))
        self.epoch = resp.member_epoch
        if resp.assignment is not None:
            new = {tp.topic_id.bytes: sorted(tp.partitions) for tp in resp.assignment.topic_partitions}
            changed = new != self.owned
            self.owned = new
            return resp, changed
        return resp, False

    def poll(self, rounds=1):
        """Heartbeat; when the assignment changed, ack it in the next heartbeat (as clients do)."""
        for _ in range(rounds):
            resp, changed = self.beat()
            if changed:
                self.beat(owned_changed=True)
        return self

    def partitions(self):
        return sorted((self.h.topics.name_of(t), p) for t, ps in self.owned.items() for p in ps)

    def leave(self):
        self.epoch = -1
        return self.beat()[0]


def settle(*clients, rounds=6):
    for _ in range(rounds):
        for c in clients:
            c.poll()


def test_first_member_gets_everything_and_epochs_advance():
    h = Harness(topics=FakeTopics(t=4))
    c = Client(h)
    resp, _ = c.beat()
    assert resp.error_code == 0 and resp.member_epoch == 1 and resp.heartbeat_interval_ms == 5000
    assert c.partitions() == [("t", 0), ("t", 1), ("t", 2), ("t", 3)]
    g = h.shard.groups["cg"]
    assert (g.group_epoch, g.assignment_epoch, g.state) == (1, 1, "Stable")
    resp, _ = c.beat(owned_changed=True)
    assert resp.assignment is None and resp.member_epoch == 1  # nothing changed


def test_second_member_triggers_incremental_revocation():
    h = Harness(topics=FakeTopics(t=4))
    a = Client(h).poll()
    b = Client(h)
    resp, _ = b.beat()
    assert resp.member_epoch == 2 and b.partitions() == []  # its partitions are still a's
    assert h.shard.groups["cg"].state == "Reconciling"
    resp, changed = a.beat()  # a learns it must give up two partitions, keeps its epoch
    assert changed and len(a.partitions()) == 2 and resp.member_epoch == 1
    resp, _ = b.beat()
    assert b.partitions() == []  # not released yet: a has not acknowledged the revocation
    resp, _ = a.beat(owned_changed=True)  # a reports it no longer owns them
    assert resp.member_epoch == 2
    b.poll()
    assert sorted(a.partitions() + b.partitions()) == [("t", p) for p in range(4)]
    assert len(b.partitions()) == 2 and h.shard.groups["cg"].state == "Stable"


@pytest.mark.parametrize("n", [2, 3])
def test_uniform_split_and_leave_and_session_expiry(n):
    h = Harness(topics=FakeTopics(t=6))
    clients = [Client(h) for _ in range(n)]
    settle(*clients)
    assert sorted(len(c.partitions()) for c in clients) == [6 // n] * n
    assert sorted(sum((c.partitions() for c in clients), [])) == [("t", p) for p in range(6)]
    assert h.shard.groups["cg"].state == "Stable"
    clients[0].leave()
    settle(*clients[1:])
    assert sorted(sum((c.partitions() for c in clients[1:]), [])) == [("t", p) for p in range(6)]
    # the last member stops heartbeating: fenced after the session timeout
    for _ in range(10):
        h.advance(5_000)
        for c in clients[1:-1]:
            c.poll()
    g = h.shard.groups["cg"]
    assert clients[-1].member_id not in g.members
    if n == 3:
        settle(clients[1])
        assert len(clients[1].partitions()) == 6


def test_errors():
    h = Harness(topics=FakeTopics(t=2))
    a = Client(h).poll()
    ghost = Client(h, member_id="ghost")
    ghost.epoch = 5
    with pytest.raises(CoordinatorError) as e:
        ghost.beat()
    assert e.value.code == E.UNKNOWN_MEMBER_ID
    a.epoch += 5
    with pytest.raises(CoordinatorError) as e:
        a.beat()
    assert e.value.code == E.FENCED_MEMBER_EPOCH
    bad = Client(h, assignor="sticky")
    with pytest.raises(CoordinatorError) as e:
        bad.beat()
    assert e.value.code == E.UNSUPPORTED_ASSIGNOR
    rx = Client(h, topics=None, regex="t(")
    with pytest.raises(CoordinatorError) as e:
        rx.beat()
    assert e.value.code == E.INVALID_REGULAR_EXPRESSION
    none = Client(h, topics=None)
    with pytest.raises(CoordinatorError) as e:
        none.beat()
    assert e.value.code == E.INVALID_REQUEST
    # a classic group with members is not a consumer group
    h.join_new("classic")
    h.advance(0)
    with pytest.raises(CoordinatorError) as e:
        Client(h, group="classic").beat()
    assert e.value.code == E.GROUP_ID_NOT_FOUND


def test_previous_epoch_with_subset_is_accepted():
    h = Harness(topics=FakeTopics(t=2))
    a = Client(h).poll()
    b = Client(h)
    b.beat()
    a.poll()  # a revokes one partition and moves to epoch 2
    assert a.epoch == 2
    a.epoch = 1  # the response with the new epoch was "lost"
    resp, _ = a.beat(owned_changed=True)
    assert resp.error_code == 0 and resp.member_epoch == 2


def test_regex_subscription_and_new_topic_bumps_epoch():
    topics = FakeTopics(**{"orders-1": 2, "orders-2": 2, "other": 2})
    h = Harness(topics=topics)
    c = Client(h, topics=None, regex="orders-.*").poll()
    assert c.partitions() == [("orders-1", 0), ("orders-1", 1), ("orders-2", 0), ("orders-2", 1)]
    epoch = h.shard.groups["cg"].group_epoch
    topics.topics["orders-3"] = (uuid.uuid4().bytes, 1)
    c.poll()
    assert ("orders-3", 0) in c.partitions() and h.shard.groups["cg"].group_epoch == epoch + 1


def test_range_assignor_and_assignor_functions():
    t1, t2 = b"1" * 16, b"2" * 16
    subs = {"a": {t1, t2}, "b": {t1, t2}, "c": {t1}}
    r = range_(subs, {t1: 5, t2: 3})
    assert r["a"] == {t1: {0, 1}, t2: {0, 1}} and r["b"] == {t1: {2, 3}, t2: {2}} and r["c"] == {t1: {4}}
    u = uniform({"a": {t1}, "b": {t1}, "c": {t1}}, {t1: 7})
    assert sorted(len(v.get(t1, ())) for v in u.values()) == [2, 2, 3]
    sticky = uniform({"a": {t1}, "b": {t1}, "c": {t1}}, {t1: 6}, {"a": {t1: {0, 1, 2}}, "b": {t1: {3, 4, 5}}})
    assert sticky["a"][t1] <= {0, 1, 2} and sticky["b"][t1] <= {3, 4, 5} and len(sticky["c"][t1]) == 2
    h = Harness(topics=FakeTopics(t=4))
    a, b = Client(h, assignor="range"), Client(h, assignor="range")
    settle(a, b)
    assert sorted(len(c.partitions()) for c in (a, b)) == [2, 2]


def test_static_member_temporary_leave_and_rejoin_keeps_assignment():
    h = Harness(topics=FakeTopics(t=4))
    a, b = Client(h, instance="ia"), Client(h, instance="ib")
    settle(a, b)
    parts = b.partitions()
    epoch = h.shard.groups["cg"].group_epoch
    b.epoch = -2
    assert b.beat()[0].member_epoch == -2
    assert h.shard.groups["cg"].group_epoch == epoch  # no rebalance
    b2 = Client(h, instance="ib")  # the restarted instance, new member id
    b2.poll()
    assert b2.partitions() == parts and h.shard.groups["cg"].group_epoch == epoch
    assert b.member_id not in h.shard.groups["cg"].members
    # a second live member with the same instance id is refused
    with pytest.raises(CoordinatorError) as e:
        Client(h, instance="ib").beat()
    assert e.value.code == E.UNRELEASED_INSTANCE_ID


def test_replay_rebuilds_consumer_group_and_describe():
    h = Harness(topics=FakeTopics(t=6))
    a, b = Client(h), Client(h)
    settle(a, b)
    shard = h.reload()
    g1, g2 = h.shard.groups["cg"], shard.groups["cg"]
    assert (g1.group_epoch, g1.assignment_epoch, g1.state) == (g2.group_epoch, g2.assignment_epoch, g2.state)
    assert g1.target == g2.target and g1.partition_epochs == g2.partition_epochs
    assert {m: (x.member_epoch, x.assigned, x.subscribed_topic_names) for m, x in g1.members.items()} == \
           {m: (x.member_epoch, x.assigned, x.subscribed_topic_names) for m, x in g2.members.items()}
    d = h.shard.consumer_group_describe("cg")
    assert d.error_code == 0 and d.group_state == "Stable" and d.assignor_name == "uniform"
    assert {tp.topic_name for m in d.members for tp in m.assignment.topic_partitions} == {"t"}
    h.join_new("classic")
    assert h.shard.consumer_group_describe("classic").error_code == E.GROUP_ID_NOT_FOUND
    assert h.shard.consumer_group_describe("none").error_code == E.GROUP_ID_NOT_FOUND
    assert {g.group_id: g.group_type for g in h.shard.list_groups()} == {"cg": "consumer", "classic": "classic"}
    # delete: refused while members exist; then members leave, delete succeeds
    assert h.apply(h.shard.delete_groups(["cg"], h.now)) == {"cg": E.NON_EMPTY_GROUP}
    a.leave()
    b.leave()
    assert h.shard.groups["cg"].state == "Empty"
    assert h.apply(h.shard.delete_groups(["cg"], h.now)) == {"cg": E.NONE}
    assert "cg" not in h.shard.groups and "cg" not in h.reload().groups


def test_offset_commit_checks_member_epoch():
    from kwire.coordinator.offsets import Commit

    h = Harness(topics=FakeTopics(t=2))
    a = Client(h).poll()
    ok = h.apply(h.shard.commit_offsets("cg", a.epoch, a.member_id, None, -1, [Commit("t", 0, 5, -1, None)], 9, h.now))
    assert ok == {("t", 0): E.NONE}
    with pytest.raises(CoordinatorError) as e:
        h.shard.commit_offsets("cg", a.epoch + 1, a.member_id, None, -1, [Commit("t", 0, 5, -1, None)], 9, h.now)
    assert e.value.code == E.STALE_MEMBER_EPOCH
    with pytest.raises(CoordinatorError) as e:
        h.shard.fetch_offsets("cg", [("t", [0])], a.member_id, a.epoch + 1)
    assert e.value.code == E.STALE_MEMBER_EPOCH
    assert h.shard.fetch_offsets("cg", [("t", [0])], a.member_id, a.epoch)[0][1][0].offset == 5


def test_empty_groups_convert_between_protocols():
    h = Harness(topics=FakeTopics(t=2))
    a = Client(h, group="x").poll()
    r = h.join("x")
    assert r.error_code == E.INCONSISTENT_GROUP_PROTOCOL  # consumer group with a member
    a.leave()
    p = h.join_new("x")  # Empty consumer group -> classic
    h.advance(0)
    assert p.done and p.response.error_code == 0
    assert h.shard.groups["x"].type == "classic"
    mid = p.response.member_id
    h.sync("x", mid, p.response.generation_id, {mid: b""})  # the generation is written at sync
    assert h.reload().groups["x"].type == "classic"
    h.leave("x", (p.response.member_id, None))
    Client(h, group="x").poll()  # Empty classic group -> consumer
    assert h.shard.groups["x"].type == "consumer"
    assert h.reload().groups["x"].type == "consumer"
