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
    assert p.record(0).state == AVAILABLE and p.next_fetch_offset() == 0
    assert p.acquire("b", 0, 0, 2, 10) == [(0, 0, 2)]
    p.acknowledge("b", [(0, 0, [RELEASE])], 3)  # second delivery was the last one
    assert p.start_offset == 1 and p.record(0) is None


def test_lock_expiry_makes_records_available():
    p = sp()
    p.acquire("a", 0, 2, 0, 10)
    assert p.next_deadline() == 1000
    assert p.expire_locks(999) == 0
    assert p.expire_locks(1000) == 3
    assert p.counts()[AVAILABLE] == 3 and p.in_flight() == 3
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
    assert p.counts()[ACQUIRED] == 2 and p.in_flight() == 2
    p.acknowledge("a", [(0, 1, [ACCEPT, REJECT])], 1)
    assert p.start_offset == 2
    with pytest.raises(AckError):  # never acknowledged twice
        p.acknowledge("a", [(0, 0, [ACCEPT])], 2)


def test_per_record_types_gap_and_renew():
    p = sp()
    p.acquire("a", 0, 3, 0, 10)
    p.acknowledge("a", [(0, 3, [ACCEPT, GAP, RENEW, REJECT])], 500)
    assert p.record(2).state == ACQUIRED and p.record(2).deadline == 1500
    assert p.start_offset == 2 and p.record(3).state == ARCHIVED
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
    assert p.end_offset == 4 and p.counts()[ARCHIVED] == 0
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
    assert [(o, q.record(o).state, q.record(o).delivery_count) for o in range(5)] == \
        [(0, AVAILABLE, 1), (1, ACKNOWLEDGED, 1), (2, AVAILABLE, 1), (3, AVAILABLE, 1), (4, AVAILABLE, 1)]
    assert q.acquire("b", 0, 4, 0, 10) == [(0, 0, 2), (2, 4, 2)]
    assert p.release_member("a") == 4 and p.next_fetch_offset() == 0


def test_move_start_archives_below_log_start():
    p = sp()
    p.acquire("a", 0, 9, 0, 100)
    p.move_start(6)
    assert p.start_offset == 6 and p.record(5) is None and p.record(6).state == ACQUIRED


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
    # Kafka's simple assignor: each partition shared by ceil(3/2) = 2 members, 4 assignments
    # spread 2/1/1
    assert sorted(len(v.get(t1, ())) for v in out.values()) == [1, 1, 2]
    assert sorted(sum(p in v[t1] for v in out.values()) for p in (0, 1)) == [2, 2]
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


def test_batch_optimized_acquires_whole_batches_past_max_records_and_in_flight():
    """Kafka's default acquire mode: a log batch is acquired whole even past ``max_records``
    and past the in-flight limit, once there is room at all; a full window takes nothing new."""
    p = sp(max_in_flight=5)
    assert p.acquire("a", 0, 6999, now=0) == [(0, 6999, 1)]
    assert len(p.runs) == 1 and p.in_flight() == 7000
    assert p.acquire("b", 7000, 7009, now=0) == []  # full: nothing past the end, no hole
    assert p.end_offset == 7000
    p.acknowledge("a", [(0, 6999, [ACCEPT])], 1)
    assert p.runs == [] and p.start_offset == 7000
    assert p.acquire("b", 7000, 7009, now=2) == [(7000, 7009, 1)]


def test_runs_split_on_mixed_acknowledgements_and_merge_back():
    p = sp()
    p.acquire("a", 0, 999, now=0)
    p.acknowledge("a", [(10, 19, [RELEASE]), (500, 500, [REJECT])], 1)
    assert [(r.first, r.last, r.state) for r in p.runs] == [
        (0, 9, ACQUIRED), (10, 19, AVAILABLE), (20, 499, ACQUIRED), (500, 500, ARCHIVED), (501, 999, ACQUIRED)]
    assert p.next_fetch_offset() == 10
    assert p.acquire("b", 0, 999, now=2) == [(10, 19, 2)]  # the released ones, counted twice
    p.acknowledge("a", [(0, 9, [ACCEPT]), (20, 499, [ACCEPT]), (501, 999, [ACCEPT])], 3)
    assert p.start_offset == 10 and [(r.first, r.state) for r in p.runs] == [
        (10, ACQUIRED), (20, ACKNOWLEDGED), (500, ARCHIVED), (501, ACKNOWLEDGED)]  # 10-19 held by b
    p.acknowledge("b", [(10, 19, [ACCEPT])], 4)
    assert p.runs == [] and p.start_offset == 1000
    assert p.snapshot() == (1000, [])


def test_record_limit_leaves_the_rest_of_a_batch_for_the_next_fetch():
    p = sp()
    assert p.acquire("a", 0, 99, 0, max_records=30) == [(0, 29, 1)]
    assert p.acquire("b", 0, 99, 0, max_records=30) == [(30, 59, 1)]
    assert p.acquire("b", 0, 99, 0, max_records=0) == []


class _Model:
    """The per-offset reference of the share-partition rules (what the runs must equal)."""

    def __init__(self, limit: int, max_in_flight: int) -> None:
        self.start = self.end = 0
        self.recs: dict[int, list] = {}  # offset -> [state, count, member]
        self.limit, self.max_in_flight = limit, max_in_flight

    def acquire(self, member, first, last, max_records):
        out = []
        for off in range(max(first, self.start), last + 1):
            if len(out) >= max_records:
                break
            rec = self.recs.get(off)
            if rec is None:
                if off < self.end:
                    continue
                if self.end - self.start >= self.max_in_flight:
                    break
                for hole in range(self.end, off):
                    self.recs[hole] = [ARCHIVED, 0, None]
                rec = self.recs[off] = [AVAILABLE, 0, None]
                self.end = off + 1
            if rec[0] == AVAILABLE:
                rec[:] = [ACQUIRED, rec[1] + 1, member]
                out.append(off)
        self._advance()
        return out

    def acknowledge(self, member, first, last, types):
        for i, off in enumerate(range(first, last + 1)):
            rec, kind = self.recs.get(off), types[i]
            if rec is None or rec[0] != ACQUIRED or rec[2] != member:
                if kind == GAP and rec is not None and rec[0] == ARCHIVED:
                    continue
                return False
        for i, off in enumerate(range(first, last + 1)):
            rec, kind = self.recs[off], types[i]
            if kind == GAP and rec[0] == ARCHIVED or kind == RENEW:
                continue
            if kind == ACCEPT:
                rec[:] = [ACKNOWLEDGED, rec[1], None]
            elif kind == RELEASE:
                self._release(rec)
            else:
                rec[:] = [ARCHIVED, rec[1], None]
        self._advance()
        return True

    def _release(self, rec):
        rec[:] = [ARCHIVED if rec[1] >= self.limit else AVAILABLE, rec[1], None]

    def release_member(self, member):
        for rec in self.recs.values():
            if rec[0] == ACQUIRED and rec[2] == member:
                self._release(rec)
        self._advance()

    def _advance(self):
        while self.start < self.end and self.recs[self.start][0] in (ACKNOWLEDGED, ARCHIVED):
            del self.recs[self.start]
            self.start += 1


@pytest.mark.parametrize("seed", range(40))
def test_runs_agree_with_a_per_offset_model(seed):
    """Random acquisitions (record_limit, so that the per-offset model is exact), mixed
    per-record acknowledgements, releases by member, snapshot/restore: every offset's state,
    delivery count and holder equal the per-offset model's."""
    import random

    rnd = random.Random(seed)
    p, m = sp(delivery_count_limit=3, max_in_flight=40), _Model(3, 40)
    members = ["a", "b", "c"]
    base = 0
    for _ in range(150):
        op = rnd.random()
        if op < 0.4:
            first = rnd.choice([p.next_fetch_offset(), base, base + rnd.randint(0, 5)])
            last = first + rnd.randint(0, 12)
            base = max(base, last + 1)
            who, n = rnd.choice(members), rnd.randint(1, 20)
            got = p.acquire(who, first, last, 0, max_records=n)
            assert [o for a, b, _ in got for o in range(a, b + 1)] == m.acquire(who, first, last, n)
        elif op < 0.85 and p.in_flight():
            who = rnd.choice(members)
            a = rnd.randint(p.start_offset, p.end_offset - 1)
            b = min(p.end_offset - 1, a + rnd.randint(0, 8))
            types = [rnd.choice(ACK_CHOICES) for _ in range(b - a + 1)]
            ok = m.acknowledge(who, a, b, types)
            if ok:
                p.acknowledge(who, [(a, b, types)], 1)
            else:
                with pytest.raises(AckError):
                    p.acknowledge(who, [(a, b, types)], 1)
        elif op < 0.95:
            who = rnd.choice(members)
            p.release_member(who)
            m.release_member(who)
        else:
            q = SharePartition(0, delivery_count_limit=3, max_in_flight=40)
            q.restore(*p.snapshot())
            p = q
            for rec in m.recs.values():
                if rec[0] == ACQUIRED:
                    rec[:] = [AVAILABLE, rec[1], None]
            m._advance()
        assert (p.start_offset, p.end_offset) == (m.start, m.end)
        for off in range(p.start_offset, p.end_offset):
            r = p.record(off)
            assert [r.state, r.delivery_count, r.member_id] == m.recs[off], off
        assert all(a.last + 1 == b.first for a, b in zip(p.runs, p.runs[1:]))
        assert all(not a.same(b) for a, b in zip(p.runs, p.runs[1:]))


ACK_CHOICES = [ACCEPT, ACCEPT, ACCEPT, RELEASE, REJECT, GAP, RENEW]


def test_sessions_are_evicted_with_the_connection_that_opened_them():
    c = ShareSessionCache(max_sessions=2)
    c.open("g", "m1", [], ("127.0.0.1", 1))
    c.open("g", "m2", [], ("127.0.0.1", 1))
    assert c.open("g", "m3", [], ("127.0.0.1", 2))[0] == E.SHARE_SESSION_LIMIT_REACHED
    c.open("g", "m2", [], ("127.0.0.1", 3))  # m2 reopened on another connection
    assert [s.member_id for s in c.disconnected(("127.0.0.1", 1))] == ["m1"]
    assert c.get("g", "m1") is None and c.get("g", "m2") is not None
    assert c.disconnected(("127.0.0.1", 1)) == []
    assert c.close("g", "m2") is not None and c.by_connection == {}


def _count(out):
    return {m: sum(len(ps) for ps in v.values()) for m, v in out.items()}


@pytest.mark.parametrize("members,parts", [(1, 6), (4, 6), (6, 6), (4, 1), (5, 2), (7, 3), (3, 8)])
def test_share_assignor_balances_and_shares_as_kafka(members, parts):
    """Homogeneous: every partition shared by ceil(M/P) members, counts differ by at most one."""
    t = b"t" * 16
    ms = [f"m{i}" for i in range(members)]
    out = share_assignor.assign({m: {t} for m in ms}, {t: parts})
    sharing = -(-members // parts)
    assert all(sum(p in out[m].get(t, ()) for m in ms) == sharing for p in range(parts))
    counts = _count(out).values()
    assert max(counts) - min(counts) <= 1 and sum(counts) == sharing * parts


def test_share_assignor_is_sticky():
    """A member joining takes partitions only from those with too many; the others keep theirs."""
    t = b"t" * 16
    before = share_assignor.assign({m: {t} for m in "abc"}, {t: 6})
    after = share_assignor.assign({m: {t} for m in "abcd"}, {t: 6}, before)
    assert all(after[m][t] <= before[m][t] for m in "abc")
    moved = sum(len(before[m][t] - after[m][t]) for m in "abc")
    assert moved == len(after["d"][t]) == 1  # 6 over 4 members: 2/1/2/1, one partition moves
    assert share_assignor.assign({m: {t} for m in "abcd"}, {t: 6}, after) == after
    # a member leaving: the others keep everything and share out its partitions
    gone = share_assignor.assign({m: {t} for m in "abc"}, {t: 6}, after)
    assert all(gone[m][t] >= after[m][t] for m in "abc") and _count(gone) == {"a": 2, "b": 2, "c": 2}


def test_share_assignor_heterogeneous_hashes_then_round_robins():
    t1, t2 = b"1" * 16, b"2" * 16
    out = share_assignor.assign({"a": {t1, t2}, "b": {t2}}, {t1: 4, t2: 2})
    assert out["a"][t1] == {0, 1, 2, 3} and out["a"][t2] | out["b"][t2] == {0, 1}
    # b's hashed partition among its 2: Java's String.hashCode("b") = 98, 98 % 2 = 0
    assert share_assignor.java_hash("b") == 98 and 0 in out["b"][t2]
    assert share_assignor.java_hash("member-with-a-long-id") == -463753236  # as the JDK computes it
