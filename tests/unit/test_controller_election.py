"""The controller's election rules (kwire.cluster.election, controller.desired_state), pure."""

from __future__ import annotations

import pytest

from kwire.cluster import election as E
from kwire.cluster import zk_layout as L
from kwire.cluster.controller import desired_state
from kwire.protocol.errors import ErrorCode, KafkaError


def st(leader, isr, epoch=5):
    return L.LeaderAndIsr(leader, epoch, list(isr), 1, 7)


R = [1, 2, 3]


def test_offline_election_clean_and_unclean():
    assert E.offline_election(st(1, [1, 2, 3]), R, {1, 2, 3}) is None
    assert E.offline_election(st(1, [1, 2, 3]), R, {1, 3}) == (1, [1, 3])
    assert E.offline_election(st(1, [1, 2, 3]), R, {2, 3}) == (2, [2, 3])
    assert E.offline_election(st(1, [3, 1]), R, {2, 3}) == (3, [3]), "assignment order among the live ISR"
    assert E.offline_election(st(1, [1]), R, {2, 3}) == (L.NO_LEADER, [1]), "offline, ISR kept"
    assert E.offline_election(st(L.NO_LEADER, [1]), R, {2, 3}) is None
    assert E.offline_election(st(1, [1]), R, {2, 3}, unclean=True) == (2, [2]), "first live replica"
    assert E.offline_election(st(L.NO_LEADER, [1]), R, {3}, unclean=True) == (3, [3])
    assert E.offline_election(st(L.NO_LEADER, [1]), R, {1, 3}) == (1, [1]), "the ISR member came back"
    assert E.offline_election(st(L.NO_LEADER, [1]), R, set(), unclean=True) is None


def test_shutdown_election():
    assert E.shutdown_election(st(1, [1, 2, 3]), R, {2, 3}, {1}) == (2, [2, 3])
    assert E.shutdown_election(st(2, [1, 2, 3]), R, {2, 3}, {1}) == (2, [2, 3]), "a follower leaves the ISR"
    assert E.shutdown_election(st(1, [1]), R, {2, 3}, {1}) is None, "no other ISR member: stays"
    assert E.shutdown_election(st(1, [1, 2]), R, {3}, {1, 2}) is None, "the other ISR member shuts down too"
    assert E.shutdown_election(st(2, [2, 3]), R, {2, 3}, {1}) is None


def test_preferred_and_unclean_elections_asked_for():
    assert E.preferred_election(st(2, [2, 3, 1]), R, {1, 2, 3}) == (1, [2, 3, 1])
    with pytest.raises(KafkaError) as e:
        E.preferred_election(st(1, [1, 2]), R, {1, 2, 3})
    assert e.value.code == ErrorCode.ELECTION_NOT_NEEDED
    with pytest.raises(KafkaError) as e:
        E.preferred_election(st(2, [2, 3]), R, {1, 2, 3}, "t", 0)
    assert e.value.code == ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE and "t-0" in e.value.message
    with pytest.raises(KafkaError) as e:
        E.preferred_election(st(2, [2, 3, 1]), R, {2, 3})
    assert e.value.code == ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE, "not live"
    with pytest.raises(KafkaError) as e:
        E.unclean_election(st(2, [2]), R, {1, 2, 3})
    assert e.value.code == ErrorCode.ELECTION_NOT_NEEDED
    assert E.unclean_election(st(L.NO_LEADER, [1]), R, {2, 3}) == (2, [2])
    assert E.unclean_election(st(L.NO_LEADER, [1]), R, {1, 2}) == (1, [1]), "a live ISR member first"
    with pytest.raises(KafkaError) as e:
        E.unclean_election(st(L.NO_LEADER, [1]), R, set())
    assert e.value.code == ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE


def test_reassignment_election():
    assert E.reassignment_election(st(1, [1, 2, 3]), [2, 3], {1, 2, 3}) == (2, [2, 3])
    assert E.reassignment_election(st(2, [1, 2, 3]), [2, 3], {1, 2, 3}) == (2, [2, 3]), "the leader stays"
    assert E.reassignment_election(st(1, [1, 2, 3]), [3, 2], {1, 2}) == (2, [2, 3])
    assert E.reassignment_election(st(1, [1]), [2, 3], {1, 2, 3}) is None


def test_desired_state_combines_failures_and_shutdowns():
    assert desired_state(st(1, [1, 2, 3]), R, {1, 2, 3}, set(), False) is None
    assert desired_state(st(1, [1, 2, 3]), R, {1, 2, 3}, {1}, False) == (2, [2, 3])
    # the leader died and the only other ISR member is shutting down: it still leads (better than none)
    assert desired_state(st(1, [1, 2]), R, {2, 3}, {2}, False) == (2, [2])
    # a shutting-down sole ISR member keeps its partition
    assert desired_state(st(1, [1]), R, {1, 2, 3}, {1}, False) is None
    assert desired_state(st(1, [1]), R, {2, 3}, set(), True) == (2, [2])


def test_imbalance():
    parts = [(("t", 0), [1, 2], st(2, [1, 2])), (("t", 1), [2, 1], st(2, [2, 1])),
             (("u", 0), [1, 2], st(1, [1, 2])), (("u", 1), [1, 2], st(2, [2]))]
    # broker 1 prefers 3 partitions and leads 1 of them: 2/3 > 10%; u-1 has 1 out of its ISR
    assert E.imbalanced_partitions(parts, {1, 2}, 10) == [("t", 0)]
    assert E.imbalanced_partitions(parts, {1, 2}, 70) == [], "67% is within 70%"
    assert E.imbalanced_partitions(parts, {2}, 10) == [], "broker 1 is not live"
