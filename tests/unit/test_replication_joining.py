"""``kwire.replication.joining``: which followers a new leader still waits for, and until when."""

from kwire.replication.joining import JoiningFollowers

A, B = ("t", 0), ("t", 1)


def test_a_follower_joins_until_it_fetches_every_newly_led_partition():
    j = JoiningFollowers(node_id=1, window_ms=1000)
    assert j.expect(A, [1, 2, 3], now_ms=0) == [2, 3]
    j.expect(B, [3, 1], now_ms=0)
    assert j.waiting_for(2, 10) and j.waiting_for(3, 10)
    j.fetched(2, A)
    assert not j.waiting_for(2, 10)
    j.fetched(3, A)
    assert j.waiting_for(3, 10)  # B is still missing from its fetches
    j.fetched(3, B)
    assert not j.waiting_for(3, 10) and j.pending == {}


def test_the_wait_ends_at_the_window_or_when_leadership_goes():
    j = JoiningFollowers(node_id=1, window_ms=1000)
    j.expect(A, [1, 2], now_ms=0)
    j.expect(B, [1, 2], now_ms=500)
    assert j.waiting_for(2, 999)
    assert j.waiting_for(2, 1000)  # A expired, B not yet
    assert list(j.pending[2]) == [B]
    j.forget(B)
    assert not j.waiting_for(2, 1001) and j.pending == {}
    j.expect(A, [1, 2], now_ms=0)
    assert not j.waiting_for(2, 1000) and j.pending == {}  # a follower that never fetches: let go


def test_a_partition_led_again_gets_a_new_deadline_in_order():
    j = JoiningFollowers(node_id=1, window_ms=1000)
    j.expect(A, [1, 2], now_ms=0)
    j.expect(B, [1, 2], now_ms=100)
    j.expect(A, [1, 2], now_ms=200)  # led again (a new epoch): A's window restarts, after B's
    assert list(j.pending[2]) == [B, A]
    assert j.waiting_for(2, 1100) and list(j.pending[2]) == [A]
    assert not j.waiting_for(2, 1200)
