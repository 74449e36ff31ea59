"""kwire.nemesis.availability on hand-made acknowledgement times: each figure alone."""

from __future__ import annotations

import math

import pytest

from kwire.nemesis.availability import fault_figures, longest_gap, new_leader_probe_s


def test_split_leader_refusing_until_the_heal():
    # acks every 0.1 s, none from 101.0 (the fault's start is 100.0) until 110.0 + 2.5 (healed at 110.0)
    acks = [100.0 + i / 10 for i in range(11)] + [112.5, 112.6]
    f = fault_figures(acks, 100.0, 110.0)
    assert f["during_s"] == pytest.approx(9.0)  # from the last ack (101.0) to the heal
    assert f["after_heal_s"] == pytest.approx(2.5)
    assert f["to_new_leader_s"] is None  # the leadership never moved


def test_isolation_with_writes_resuming_on_the_new_leader():
    acks = [99.9, 100.05, 106.4, 106.5, 109.9, 110.2]
    f = fault_figures(acks, 100.0, 110.0, new_leader_at=106.0)
    assert f["to_new_leader_s"] == pytest.approx(6.4)  # the first ack after the new leader, from the cut
    assert f["during_s"] == pytest.approx(106.4 - 100.05)
    assert f["after_heal_s"] == pytest.approx(0.2)


def test_an_ack_from_the_old_leader_before_the_move_does_not_count_as_the_new_leaders():
    f = fault_figures([100.5, 107.0], 100.0, 110.0, new_leader_at=106.0)
    assert f["to_new_leader_s"] == pytest.approx(7.0)


def test_no_acknowledgement_at_all():
    f = fault_figures([99.0], 100.0, 110.0, new_leader_at=105.0)
    assert f == {"during_s": 10.0, "after_heal_s": None, "to_new_leader_s": None}


def test_heal_before_start_is_an_error():
    with pytest.raises(ValueError):
        fault_figures([], 10.0, 5.0)


def test_longest_gap_counts_from_since():
    assert longest_gap([1.0, 5.0, 6.0], 0.0) == pytest.approx(4.0)
    assert longest_gap([3.0], 0.0) == pytest.approx(3.0)
    assert math.isinf(longest_gap([1.0], 2.0))


def test_new_leader_probe_counts_the_first_probe_acknowledged_after_the_start():
    assert new_leader_probe_s([99.0, 106.4, 107.0], 100.0) == pytest.approx(6.4)
    assert new_leader_probe_s([99.0], 100.0) is None
