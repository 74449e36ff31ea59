"""Incremental fetch sessions (KIP-227): kwire.broker.fetch_sessions."""

from kwire.broker.fetch_sessions import FetchSessionCache
from kwire.protocol.errors import ErrorCode

A0, A1, B0 = ("a", 0), ("a", 1), ("b", 0)


def test_sessionless_full_fetch_caches_nothing():
    cache = FetchSessionCache()
    ctx = cache.new_context(0, -1, [(A0, 5, 100)], [])
    assert ctx.session_id == 0 and ctx.reads == [(A0, 5, 100)] and len(cache) == 0
    assert ctx.include(A0, 10, 10, 0, False, False)


def test_incremental_session_sends_only_changes():
    cache = FetchSessionCache()
    full = cache.new_context(0, 0, [(A0, 0, 100), (A1, 0, 100)], [])
    sid = full.session_id
    assert sid > 0
    assert full.include(A0, 10, 10, 0, True, False) and full.include(A1, 0, 0, 0, False, False)

    inc = cache.new_context(sid, 1, [(A0, 10, 100)], [])
    assert inc.all_reads() == [(A0, 10, 100), (A1, 0, 100)]  # the session remembers A1
    assert not inc.include(A0, 10, 10, 0, False, False)  # nothing new for A0
    assert inc.include(A1, 3, 3, 0, False, False)  # A1's high watermark moved

    inc2 = cache.new_context(sid, 2, [(B0, 0, 50)], [A1])
    assert inc2.all_reads() == [(A0, 10, 100), (B0, 0, 50)]
    assert inc2.include(A0, 10, 10, 0, False, True)  # errors always included


def test_session_errors():
    cache = FetchSessionCache()
    sid = cache.new_context(0, 0, [(A0, 0, 1)], []).session_id
    assert cache.new_context(sid + 1, 1, [], []).error == ErrorCode.FETCH_SESSION_ID_NOT_FOUND
    assert cache.new_context(sid, 5, [], []).error == ErrorCode.INVALID_FETCH_SESSION_EPOCH
    assert cache.new_context(sid, 1, [], []).error == ErrorCode.NONE


def test_close_and_eviction():
    cache = FetchSessionCache(max_slots=2)
    s1 = cache.new_context(0, 0, [(A0, 0, 1)], []).session_id
    cache.new_context(0, 0, [(A0, 0, 1)], [])
    cache.new_context(0, 0, [(A0, 0, 1)], [])
    assert len(cache) == 2
    assert cache.new_context(s1, 1, [], []).error == ErrorCode.FETCH_SESSION_ID_NOT_FOUND  # evicted (LRU)
    s4 = cache.new_context(0, 0, [(A0, 0, 1)], []).session_id
    closed = cache.new_context(s4, -1, [(A0, 0, 1)], [])
    assert closed.session_id == 0
    assert cache.new_context(s4, 1, [], []).error == ErrorCode.FETCH_SESSION_ID_NOT_FOUND


def test_dirty_set_names_only_what_moved_or_is_pending():
    cache = FetchSessionCache()
    full = cache.new_context(0, 0, [(A0, 0, 100), (A1, 0, 100), (B0, 0, 100)], [])
    sid = full.session_id
    for key, topic in ((A0, "a"), (A1, "a"), (B0, "b")):
        full.watch(key, topic)
    # A0 and B0 caught up; A1 answered records (pending: read again until caught up)
    full.include(A0, 0, 0, 0, False, False, pending=False)
    full.include(A1, 5, 5, 0, True, False, pending=True)
    full.include(B0, 0, 0, 0, False, False, pending=False)
    inc = cache.new_context(sid, 1, [], [])
    assert inc.changed_reads({}) == [(A1, 0, 100)]
    cache.moved("b", 0)  # B0's high watermark moved
    cache.moved("zz", 3)  # nobody watches it
    assert inc.changed_reads({}) == [(A1, 0, 100), (B0, 0, 100)]  # session order
    assert inc.changed_reads({A0: -1}) == [(A0, 0, 100), (A1, 0, 100), (B0, 0, 100)]
    inc.settled(B0)
    inc.include(A1, 5, 5, 0, False, False, pending=False)
    assert inc.changed_reads({}) == []


def test_forget_close_and_eviction_unwatch():
    cache = FetchSessionCache(max_slots=1)
    full = cache.new_context(0, 0, [(A0, 0, 100), (A1, 0, 100)], [])
    sid = full.session_id
    full.watch(A0, "a")
    full.watch(A1, "a")
    assert set(cache._watchers) == {("a", 0), ("a", 1)}
    inc = cache.new_context(sid, 1, [], [A1])  # forgotten: no longer watched nor read
    cache.moved("a", 1)
    assert inc.changed_reads({}) == [] and set(cache._watchers) == {("a", 0)}
    cache.new_context(0, 0, [(B0, 0, 1)], [])  # evicts the first session (one slot)
    assert cache.new_context(sid, 2, [], []).error == ErrorCode.FETCH_SESSION_ID_NOT_FOUND
    assert cache._watchers == {}
