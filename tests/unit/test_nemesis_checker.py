"""kwire.nemesis.checker on hand-made histories: each anomaly alone, and a clean history with none."""

from __future__ import annotations

from kwire.nemesis.checker import ANOMALIES, FAIL, INFO, Offsets, Poll, Reset, Send, Write, check


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


def test_a_copy_under_a_higher_epoch_of_the_same_producer_is_a_resend_not_an_anomaly():
    h = [Send("p", 0, b"a", offset=1), Send("p", 0, b"b", offset=2)]
    final = _final([(0, b"a"), (1, b"a"), (2, b"b")])
    r = check(h, final, {(0, 0): (7, 0), (0, 1): (7, 1), (0, 2): (7, 1)})
    assert r.valid, r.summary()
    assert r.resent == [(b"a", [(0, 0), (0, 1)])]
    assert "1 re-sent by their producer under a new epoch" in r.summary()
    for ids in ({(0, 0): (7, 0), (0, 1): (7, 0)},   # one epoch: a retry the broker missed
                {(0, 0): (7, 1), (0, 1): (7, 0)},   # the epoch falls
                {(0, 0): (7, 0), (0, 1): (8, 1)},   # another producer
                {(0, 0): (7, 0)}):                  # a copy whose batch is unknown
        r = check(h, final, ids)
        _only(r, "duplicated")
        assert r.resent == []


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


def _skip_over(value_at_2: bytes, aborted: bool):
    """Reader c reads offsets 1 then 3; a read_uncommitted reader saw ``value_at_2`` at offset 2."""
    return [Send("t", 0, value_at_2, FAIL if aborted else INFO, txn_aborted=aborted, txn="t:1"),
            Send("p", 0, b"b", offset=1), Send("p", 0, b"d", offset=3),
            Poll("dirty", 0, ((1, b"b"), (2, value_at_2), (3, b"d"))), Poll("c", 0, ((1, b"b"), (3, b"d")))]


def test_skipping_an_aborted_value_is_not_a_skipped_poll():
    _only(check(_skip_over(b"z", aborted=True)), "aborted_read")  # the dirty reader's, no skip by c
    _only(check(_skip_over(b"y", aborted=False)), "skipped_poll")


def test_aborted_value_in_a_replicas_committed_read():
    h = [Send("t", 0, b"a", FAIL, txn_aborted=True, txn="t:1")]
    r = check(h, {"1": {0: []}, "2": {0: [(0, b"a")]}})
    _only(r, "aborted_read")
    assert r.anomalies["aborted_read"] == [(b"a", 0, 0, "2")]


def test_a_value_aborted_once_and_committed_on_retry_may_be_read():
    # consume-transform-produce: the output of an aborted attempt is written again by the retry
    h = [Send("x", 0, b"a", FAIL, txn_aborted=True, txn="x:1"), Send("x", 0, b"a", offset=1, txn="x:2"),
         Poll("c", 0, ((1, b"a"),))]
    assert check(h, _final([(1, b"a")])).valid


def _txn_history(poll_at: int):
    """Transaction t:1 writes a, b to partition 0 and commits; a read_committed poll of a is
    recorded at ``poll_at`` among its writes."""
    ops = [Write("t", "t:1", 0, b"a"), Write("t", "t:1", 0, b"b"),
           Send("t", 0, b"a", offset=0, txn="t:1"), Send("t", 0, b"b", offset=1, txn="t:1")]
    ops.insert(poll_at, Poll("c", 0, ((0, b"a"),)))
    return ops


def test_intermediate_read_before_the_transaction_wrote_more():
    r = check(_txn_history(1), _final([(0, b"a"), (1, b"b")]))
    _only(r, "intermediate_read")
    assert r.anomalies["intermediate_read"] == [("c", "t:1", b"a", 0, 0)]


def test_reading_a_transaction_after_its_last_write_is_not_intermediate():
    assert check(_txn_history(4), _final([(0, b"a"), (1, b"b")])).valid


def _ctp(a_reads: tuple, b_reads: tuple):
    """Two consume-transform-produce transactions A (writes x to 0) and B (writes y to 1)."""
    return [Write("A", "A:1", 0, b"x"), Write("B", "B:1", 1, b"y"),
            Poll("A", 1, a_reads, txn="A:1"), Poll("B", 0, b_reads, txn="B:1"),
            Send("A", 0, b"x", offset=0, txn="A:1"), Send("B", 1, b"y", offset=0, txn="B:1")]


def test_g1c_two_transactions_reading_each_others_writes():
    r = check(_ctp(((0, b"y"),), ((0, b"x"),)), {"1": {0: [(0, b"x")], 1: [(0, b"y")]}})
    assert r.anomalies["g1c"] == [["A:1", "B:1"]], r.summary()
    assert r.wr_edges == 2
    assert r.counts()["offsets_backwards"] == r.counts()["aborted_read"] == 0


def test_information_flowing_one_way_is_no_cycle():
    r = check(_ctp((), ((0, b"x"),)), {"1": {0: [(0, b"x")], 1: [(0, b"y")]}})
    assert r.valid, r.summary()


def test_g1c_through_a_chain_of_three():
    h = [Poll("A", 2, ((0, b"z"),), txn="A"), Poll("B", 0, ((0, b"x"),), txn="B"),
         Poll("C", 1, ((0, b"y"),), txn="C"),
         Send("A", 0, b"x", offset=0, txn="A"), Send("B", 1, b"y", offset=0, txn="B"),
         Send("C", 2, b"z", offset=0, txn="C")]
    r = check(h)
    assert r.anomalies["g1c"] == [["A", "B", "C"]]


def test_committed_offsets_going_backwards():
    h = [Offsets("g", 0, 5), Offsets("g", 1, 2), Offsets("g", 0, 7), Offsets("g", 0, 6), Offsets("g", 0, 7)]
    r = check(h)
    _only(r, "offsets_backwards")
    assert r.anomalies["offsets_backwards"] == [("g", 0, 7, 6)]


def test_committed_offsets_of_other_groups_and_partitions_are_independent():
    assert check([Offsets("g", 0, 5), Offsets("h", 0, 1), Offsets("g", 1, 0), Offsets("g", 0, 5)]).valid


def test_indeterminate_send_present_twice_is_duplicated():
    h = [Send("p", 0, b"a", INFO, txn="p:1")]
    r = check(h, _final([(0, b"a"), (3, b"a")]))
    _only(r, "duplicated")


def test_summary_names_anomalies():
    h = [Send("p", 0, b"a", offset=0)]
    assert "unseen: 1" in check(h, _final([])).summary()
    assert "no anomalies" in check([], {}).summary()
