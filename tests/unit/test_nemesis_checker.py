"""kwire.nemesis.checker on hand-made histories: each anomaly alone, and a clean history with none."""

from __future__ import annotations

from kwire.nemesis.checker import ANOMALIES, FAIL, INFO, Poll, Reset, Send, check


def _only(result, name: str) -> None:
    bad = {a: n for a, n in result.counts().items() if n}
    assert set(bad) == {name}, result.summary()


def _final(records, partition: int = 0, replicas=("1", "2", "3")):
    return {r: {partition: list(records)} for r in replicas}


def test_clean_history_has_no_anomaly():
    h = [Send("p", 0, b"a", offset=0), Send("p", 0, b"b", offset=1), Send("p", 0, b"c", FAIL),
         Send("p", 0, b"d", INFO),
         Poll("c", 0, ((0, b"a"),)), Poll("c", 0, ((1, b"b"),)), Reset("c"), Poll("c", 0, ((0, b"a"), (1, b"b")))]
    r = check(h, _final([(0, b"a"), (1, b"b")]))
    assert r.valid, r.summary()
    assert (r.sends, r.acknowledged, r.indeterminate, r.polled) == (4, 2, 1, 4)
    assert set(r.counts()) == set(ANOMALIES)


def test_indeterminate_present_is_fine():
    h = [Send("p", 0, b"a", offset=0), Send("p", 0, b"x", INFO), Send("p", 0, b"b", offset=2)]
    assert check(h, _final([(0, b"a"), (1, b"x"), (2, b"b")])).valid


def test_lost_acknowledged_value_passed_over_by_reads():
    h = [Send("p", 0, b"a", offset=0), Send("p", 0, b"b", offset=1), Send("p", 0, b"c", offset=2),
         Poll("c", 0, ((0, b"a"), (2, b"c")))]
    r = check(h, _final([(0, b"a"), (2, b"c")]))
    _only(r, "lost")
    assert r.anomalies["lost"] == [(b"b", 0, 1)]


def test_unseen_acknowledged_value_missing_at_the_end():
    h = [Send("p", 0, b"a", offset=0), Send("p", 0, b"b", offset=1), Poll("c", 0, ((0, b"a"),))]
    r = check(h, _final([(0, b"a")]))
    _only(r, "unseen")
    assert r.anomalies["unseen"] == [(b"b", 0, 1)]


def test_unseen_on_one_replica_only():
    h = [Send("p", 0, b"a", offset=0)]
    r = check(h, {"1": {0: [(0, b"a")]}, "2": {0: []}})
    _only(r, "unseen")


def test_duplicated_value_at_two_offsets():
    h = [Send("p", 0, b"a", INFO), Send("p", 0, b"b", offset=2)]
    r = check(h, _final([(0, b"a"), (1, b"a"), (2, b"b")]))
    _only(r, "duplicated")
    assert r.anomalies["duplicated"] == [(b"a", [(0, 0), (0, 1)])]


def test_inconsistent_offsets_across_replicas():
    h = [Send("p", 0, b"a", INFO), Send("p", 0, b"b", INFO)]
    r = check(h, {"1": {0: [(0, b"a")]}, "2": {0: [(0, b"b")]}})
    _only(r, "inconsistent_offsets")
    assert r.anomalies["inconsistent_offsets"] == [(0, 0, [b"a", b"b"])]


def test_inconsistent_offsets_between_a_poll_and_the_log():
    h = [Send("p", 0, b"a", offset=0), Send("p", 0, b"z", INFO), Poll("c", 0, ((1, b"z"),))]
    r = check(h, _final([(0, b"a"), (1, b"y")]))
    assert r.counts()["inconsistent_offsets"] == 1


def test_nonmonotonic_send():
    h = [Send("p", 0, b"a", offset=5), Send("p", 0, b"b", offset=3)]
    r = check(h, _final([(3, b"b"), (5, b"a")]))
    _only(r, "nonmonotonic_send")
    assert r.anomalies["nonmonotonic_send"] == [("p", 0, 5, 3)]


def test_sends_of_different_producers_interleave_freely():
    h = [Send("p", 0, b"a", offset=5), Send("q", 0, b"b", offset=3)]
    assert check(h, _final([(3, b"b"), (5, b"a")])).valid


def test_nonmonotonic_poll_without_reset():
    h = [Send("p", 0, b"a", offset=0), Send("p", 0, b"b", offset=1),
         Poll("c", 0, ((0, b"a"), (1, b"b"))), Poll("c", 0, ((0, b"a"),))]
    r = check(h, _final([(0, b"a"), (1, b"b")]))
    _only(r, "nonmonotonic_poll")
    assert r.anomalies["nonmonotonic_poll"] == [("c", 0, 1, 0)]


def test_rereading_after_a_reset_is_fine():
    h = [Send("p", 0, b"a", offset=0), Poll("c", 0, ((0, b"a"),)), Reset("c"), Poll("c", 0, ((0, b"a"),))]
    assert check(h, _final([(0, b"a")])).valid


def test_skipped_poll():
    h = [Send("p", 0, b"a", offset=0), Send("p", 0, b"b", offset=1), Send("p", 0, b"c", offset=2),
         Poll("c", 0, ((0, b"a"), (2, b"c")))]
    r = check(h, _final([(0, b"a"), (1, b"b"), (2, b"c")]))
    _only(r, "skipped_poll")
    assert r.anomalies["skipped_poll"] == [("c", 0, 0, 2, [1])]


def test_gap_with_nothing_known_there_is_not_a_skip():
    # offset 1 holds a transaction marker or a compacted record nobody saw: not a skip
    h = [Send("p", 0, b"a", offset=0), Send("p", 0, b"c", offset=2), Poll("c", 0, ((0, b"a"), (2, b"c")))]
    assert check(h, _final([(0, b"a"), (2, b"c")])).valid


def test_aborted_read():
    h = [Send("t", 0, b"a", FAIL, txn_aborted=True), Poll("c", 0, ((0, b"a"),))]
    r = check(h, _final([(0, b"a")]))
    _only(r, "aborted_read")


def test_summary_names_anomalies():
    h = [Send("p", 0, b"a", offset=0)]
    assert "unseen: 1" in check(h, _final([])).summary()
    assert "no anomalies" in check([], {}).summary()
