"""Leader-side replica state (kwire.replication.leader_state): Kafka's HW and ISR rules."""

from __future__ import annotations

import pytest

from kwire.protocol.errors import ErrorCode as E
from kwire.replication.leader_state import LeaderState

T0 = 1_000_000
LAG = 30_000


def leader(isr=(1, 2, 3), replicas=(1, 2, 3), leo=100, hw=100, min_isr=1, **kw) -> LeaderState:
    return LeaderState(1, 5, replicas, isr, leader_log_end_offset=leo, high_watermark=hw,
                       now_ms=T0, replica_lag_time_max_ms=LAG, min_insync_replicas=min_isr, **kw)


def test_high_watermark_is_the_smallest_isr_leo_and_never_decreases():
    s = leader()
    assert s.on_leader_append(110, T0) is False  # followers' LEOs unknown (-1): HW stays
    assert s.update_follower(2, 105, T0).high_watermark_changed is False  # 3 is unknown still
    u = s.update_follower(3, 103, T0)
    assert u.known and u.high_watermark_changed and s.high_watermark == 103
    s.update_follower(3, 110, T0)
    assert s.high_watermark == 105
    s.update_follower(2, 110, T0)
    assert s.high_watermark == 110
    s.update_follower(2, 104, T0)  # a follower that truncated: the HW does not go back
    assert s.high_watermark == 110
    assert s.update_follower(9, 110, T0) == type(u)(known=False)  # not a replica


def test_a_lone_leader_commits_at_once_and_min_isr_holds_the_hw():
    s = leader(isr=(1,), replicas=(1,), leo=0, hw=0)
    assert s.on_leader_append(7, T0) and s.high_watermark == 7
    s = leader(isr=(1,), leo=50, hw=50, min_isr=2)  # KIP-966: below min ISR no HW progress
    assert s.is_under_min_isr and s.append_error(-1) == E.NOT_ENOUGH_REPLICAS
    assert s.append_error(1) == E.NONE
    assert s.on_leader_append(60, T0) is False and s.high_watermark == 50
    # effective min ISR is capped by the replication factor
    assert not leader(isr=(1,), replicas=(1,), min_isr=3).is_under_min_isr


def test_caught_up_follower_outside_the_isr_is_waited_for():
    """maybeIncrementLeaderHW waits for a follower that is caught up (within the lag) even
    before it joins the ISR, so it is not left behind by a moving HW."""
    s = leader(isr=(1, 2), leo=100, hw=100)
    s.update_follower(2, 100, T0)
    s.update_follower(3, 90, T0)  # fetched at 90 < leader LEO 100: not caught up, never was
    assert s.on_leader_append(120, T0 + 1) is False  # 2 (ISR) is at 100; 3 is not waited for
    assert s.high_watermark == 100
    s.update_follower(2, 120, T0 + 1)
    assert s.high_watermark == 120  # 3, at 90 and never caught up, does not hold it back
    s.on_leader_append(120, T0 + 1)
    s.update_follower(3, 120, T0 + 2, leader_log_end_offset=120)  # caught up now
    s.on_leader_append(130, T0 + 3)
    s.update_follower(2, 130, T0 + 3)
    assert s.high_watermark == 120  # 3, caught up 1 ms ago, is waited for


def test_isr_expand_needs_the_hw_and_the_leader_epoch_start():
    s = leader(isr=(1, 2), leo=100, hw=80)  # became leader at LEO 100, HW still 80
    s.update_follower(2, 100, T0)
    u = s.update_follower(3, 90, T0)  # >= HW 80 but below the epoch start 100
    assert u.expand is None
    u = s.update_follower(3, 100, T0)
    assert u.expand == (1, 2, 3)
    isr = s.propose_isr(u.expand)
    assert s.in_flight and s.maximal_isr == {1, 2, 3} and s.isr == (1, 2)
    assert s.update_follower(3, 100, T0).expand is None  # one change at a time
    with pytest.raises(RuntimeError):
        s.propose_isr((1, 2))
    s.commit_isr(isr, T0)
    assert s.isr == (1, 2, 3) and not s.in_flight


def test_ineligible_follower_does_not_join_and_is_not_waited_for():
    dead = {3}
    s = leader(isr=(1, 2), leo=100, hw=100, eligible=lambda r: r not in dead)
    s.update_follower(2, 100, T0)
    assert s.update_follower(3, 100, T0).expand is None
    s.on_leader_append(110, T0)
    s.update_follower(2, 110, T0)
    assert s.high_watermark == 110


def test_shrink_after_replica_lag_time_max_ms():
    s = leader(leo=100, hw=100)
    assert s.shrink_candidates(T0 + LAG) == set()  # ISR members count as caught up at T0
    s.update_follower(2, 100, T0 + 10)
    s.on_leader_append(150, T0 + 20)
    assert s.shrink_candidates(T0 + LAG + 1) == {3}  # 3 never fetched
    assert s.shrink_candidates(T0 + LAG + 10) == {3}
    assert s.shrink_candidates(T0 + LAG + 11) == {2, 3}  # 2 lags since its fetch at +10
    s.update_follower(2, 150, T0 + LAG + 11)
    assert s.shrink_candidates(T0 + LAG + 12) == {3}
    new = s.propose_isr(set(s.isr) - {3})
    assert s.shrink_candidates(T0 + LAG + 12) == set()  # in flight
    assert s.maximal_isr == {1, 2, 3}  # still waited for until committed
    assert s.high_watermark == 100
    assert s.commit_isr(sorted(new), T0 + LAG + 13) is True and s.high_watermark == 150
    s.abort_isr()
    assert not s.in_flight


def test_follower_trailing_a_busy_leader_still_counts_as_caught_up():
    """Replica.updateFetchState: a fetch reaching the leader LEO of the previous fetch moves
    last_caught_up_time_ms to that previous fetch's time."""
    s = leader(isr=(1, 2), replicas=(1, 2), leo=100, hw=100)
    now = T0
    leo = 100
    for _ in range(10):  # each fetch reaches the LEO of the previous one; new data keeps coming
        now += LAG // 2
        s.update_follower(2, leo, now, leader_log_end_offset=leo + 10)
        leo += 10
        s.on_leader_append(leo, now)
    assert s.shrink_candidates(now + 1) == set()
    r = s.followers[2]
    assert now - r.last_caught_up_time_ms == LAG // 2


def test_acks_all_completion():
    s = leader(leo=100, hw=100, min_isr=2)
    s.on_leader_append(110, T0)
    assert s.check_enough_replicas(110) == (False, E.NONE)
    s.update_follower(2, 110, T0)
    s.update_follower(3, 110, T0)
    assert s.check_enough_replicas(110) == (True, E.NONE)
    s.propose_isr((1,))
    s.commit_isr((1,), T0)  # shrunk below min ISR after the append
    assert s.check_enough_replicas(110) == (True, E.NOT_ENOUGH_REPLICAS_AFTER_APPEND)
    with pytest.raises(ValueError):
        s.propose_isr((2, 3))  # the leader never leaves its own ISR


def test_zookeeper_mode_moves_the_hw_under_min_isr():
    """Kafka 3.x (no KIP-966): the HW follows the ISR even below min ISR; acks=all then
    answers NOT_ENOUGH_REPLICAS_AFTER_APPEND."""
    s = leader(isr=(1,), leo=50, hw=50, min_isr=2, hold_hw_under_min_isr=False)
    assert s.append_error(-1) == E.NOT_ENOUGH_REPLICAS
    assert s.on_leader_append(60, T0) and s.high_watermark == 60
    assert s.check_enough_replicas(60) == (True, E.NOT_ENOUGH_REPLICAS_AFTER_APPEND)
