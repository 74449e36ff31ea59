"""kwire.share.partition / sessions and the share assignor: pure state machines, time in ms."""

from __future__ import annotations

import pytest

from kwire.coordinator import share_assignor
from kwire.protocol.errors import ErrorCode as E
from kwire.share.partition import (ACCEPT, ACKNOWLEDGED, ACQUIRED, ARCHIVED, AVAILABLE, GAP, RELEASE,
                                   REJECT, RENEW, AckError, SharePartition)
from kwire.share.sessions import ShareSessionCache


def sp(**kw) -> SharePartition:
    return SharePartition(0, lock_duration_ms=1000, **kw)


def test_acquire_accept_moves_start():
    p = sp()
    assert p.acquire("a", 0, 9, now=0, max_records=100) == [(0, 9, 1)]
    assert p.in_flight() == 10 and p.next_fetch_offset() == 10
    p.acknowledge("a", [(0, 4, [ACCEPT])], now=1)
    assert p.start_offset == 5 and p.end_offset == 10


def test_release_redelivers_with_higher_count_and_limit_archives():
    p = sp(delivery_count_limit=2)
    p.acquire("a", 0, 0, 0, 10)
    p.acknowledge("a", [(0, 0, [RELEASE])], 1)
    assert p.records[0].state == AVAILABLE and p.next_fetch_offset() == 0
    assert p.acquire("b", 0, 0, 2, 10) == [(0, 0, 2)]
    p.acknowledge("b", [(0, 0, [RELEASE])], 3)  # second delivery was the last one
    assert p.start_offset == 1 and 0 not in p.records


def test_lock_expiry_makes_records_available():
    p = sp()
    p.acquire("a", 0, 2, 0, 10)
    assert p.next_deadline() == 1000
    assert p.expire_locks(999) == 0
    assert p.expire_locks(1000) == 3
    assert [r.state for r in p.records.values()] == [AVAILABLE] * 3
    with pytest.raises(AckError) as e:
        p.acknowledge("a", [(0, 0, [ACCEPT])], 1001)
    assert e.value.code == E.INVALID_RECORD_STATE


def test_ack_of_another_members_record_changes_nothing():
    p = sp()
    p.acquire("a", 0, 1, 0, 10)
    with pytest.raises(AckError):
        p.acknowledge("b", [(0, 1, [ACCEPT])], 1)
    with pytest.raises(AckError):  # a good batch with a bad one: all or nothing
        p.acknowledge("a", [(0, 0, [ACCEPT]), (5, 5, [ACCEPT])], 1)
    assert [r.state for r in p.records.values()] == [ACQUIRED, ACQUIRED]
    p.acknowledge("a", [(0, 1, [ACCEPT, REJECT])], 1)
    assert p.start_offset == 2
    with pytest.raises(AckError):  # never acknowledged twice
        p.acknowledge("a", [(0, 0, [ACCEPT])], 2)


def test_per_record_types_gap_and_renew():
    p = sp()
    p.acquire("a", 0, 3, 0, 10)
    p.acknowledge("a", [(0, 3, [ACCEPT, GAP, RENEW, REJECT])], 500)
    assert p.records[2].state == ACQUIRED and p.records[2].deadline == 1500
    assert p.start_offset == 2 and p.records[3].state == ARCHIVED
    assert p.expire_locks(1200) == 0
    with pytest.raises(AckError) as e:
        p.acknowledge("a", [(0, 1, [ACCEPT, ACCEPT, ACCEPT])], 1)
    assert e.value.code == E.INVALID_REQUEST


def test_max_records_and_in_flight_limit():
    p = sp(max_in_flight=5)
    assert p.acquire("a", 0, 9, 0, 3) == [(0, 2, 1)]
    assert p.acquire("b", 0, 9, 0, 10) == [(3, 4, 1)]  # the window is full at 5
    p.acknowledge("a", [(0, 2, [ACCEPT])], 1)
    assert p.acquire("b", 5, 9, 1, 10) == [(5, 7, 1)]


def test_full_window_cut_batch_is_no_hole_for_the_next_batch():
    """Two log batches fetched at once, the first cut short by the in-flight limit: the
    second must acquire nothing and archive nothing (its offsets were once taken for a
    compaction hole, archived and never delivered)."""
    p = sp(max_in_flight=4)
    assert p.acquire("a", 0, 9, 0, 100) == [(0, 3, 1)]  # batch 0-9, cut at 4
    assert p.acquire("a", 10, 19, 0, 100) == []  # the next batch of the same read
    assert p.end_offset == 4 and not any(r.state == ARCHIVED for r in p.records.values())
    p.acknowledge("a", [(0, 3, [ACCEPT])], 1)
    assert p.acquire("b", 0, 9, 1, 100) == [(4, 7, 1)]  # 4-9 are still delivered
    p.acknowledge("b", [(4, 7, [ACCEPT])], 2)
    assert p.acquire("b", 0, 9, 2, 100) == [(8, 9, 1)]
    assert p.acquire("b", 10, 19, 2, 100) == [(10, 11, 1)]


def test_control_batches_are_archived_and_holes_skipped():
    p = sp()
    assert p.acquire("a", 0, 0, 0, 10, skip=True) == []
    assert p.start_offset == 1
    assert p.acquire("a", 5, 6, 0, 10) == [(5, 6, 1)]  # 1-4 compacted away
    assert p.start_offset == 5


def test_release_member_and_snapshot_restore():
    p = sp()
    p.acquire("a", 0, 4, 0, 10)
    p.acknowledge("a", [(1, 1, [ACCEPT])], 1)
    start, batches = p.snapshot()
    assert start == 0
    q = SharePartition(0)
    q.restore(start, batches)
    # acquired records come back available with their count; the accepted one stays done
    assert [(o, r.state, r.delivery_count) for o, r in sorted(q.records.items())] == \
        [(0, AVAILABLE, 1), (1, ACKNOWLEDGED, 1), (2, AVAILABLE, 1), (3, AVAILABLE, 1), (4, AVAILABLE, 1)]
    assert q.acquire("b", 0, 4, 0, 10) == [(0, 0, 2), (2, 4, 2)]
    assert p.release_member("a") == 4 and p.next_fetch_offset() == 0


def test_move_start_archives_below_log_start():
    p = sp()
    p.acquire("a", 0, 9, 0, 100)
    p.move_start(6)
    assert p.start_offset == 6 and min(p.records) == 6


def test_sessions_epochs_and_limit():
    c = ShareSessionCache(max_sessions=1)
    assert c.check("g", "m", 1)[0] == E.SHARE_SESSION_NOT_FOUND
    err, s = c.open("g", "m", [(b"t", 0)])
    assert err == E.NONE and s.epoch == 1
    assert c.check("g", "m", 2)[0] == E.INVALID_SHARE_SESSION_EPOCH
    assert c.check("g", "m", 1)[1] is s
    s.bump()
    assert c.check("g", "m", 2)[1] is s and c.check("g", "m", -1)[1] is s
    assert c.open("g", "other", [])[0] == E.SHARE_SESSION_LIMIT_REACHED
    assert c.close("g", "m") is s and c.open("g", "other", [])[0] == E.NONE


def test_share_assignor_shares_partitions_when_members_outnumber_them():
    t1, t2 = b"1" * 16, b"2" * 16
    out = share_assignor.assign({"a": {t1}, "b": {t1}, "c": {t1}}, {t1: 2})
    assert sorted(len(v.get(t1, ())) for v in out.values()) == [1, 1, 1]
    assert set().union(*(v[t1] for v in out.values())) == {0, 1}
    out = share_assignor.assign({"a": {t1, t2}, "b": {t2}}, {t1: 4, t2: 2})
    assert out["a"][t1] == {0, 1, 2, 3} and out["a"][t2] | out["b"][t2] == {0, 1}
    assert not out["a"][t2] & out["b"][t2]


def test_share_state_records_round_trip_and_update_merge():
    from kwire.share import state

    tid = bytes(range(16))
    key = state.encode_key(state.UPDATE, "g", tid, 3)
    assert state.decode_key(key) == (state.UPDATE, "g", tid, 3)
    assert state.kafka_uuid(tid) == "AAECAwQFBgcICQoLDA0ODw"
    snap = state.decode_value(state.SNAPSHOT, state.encode_snapshot(5, [(5, 7, 0, 1), (8, 8, 2, 1)], 2, 4, 3))
    assert snap == {"snapshot_epoch": 4, "state_epoch": 2, "leader_epoch": 3, "start": 5,
                    "batches": [(5, 7, 0, 1), (8, 8, 2, 1)]}
    upd = state.decode_value(state.UPDATE, state.encode_update(6, [(6, 6, 2, 2), (9, 9, 0, 1)], 4, 7))
    assert upd["leader_epoch"] == 7 and upd["snapshot_epoch"] == 4
    e = state._Entry(snap["start"], snap["batches"])
    e.apply_update(upd["start"], upd["batches"])
    assert e.state() == (6, [(6, 6, 2, 2), (7, 7, 0, 1), (8, 8, 2, 1), (9, 9, 0, 1)])
