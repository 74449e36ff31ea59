"""Incremental fetch sessions (KIP-227), as a pure cache with no I/O.

A consumer that sends ``session_id=0, session_epoch=0`` asks for a new session:
the broker remembers the partitions of that full fetch and answers with a
session id. Later requests carry the id and the next epoch and list only the
partitions that changed (new fetch offset or max bytes) and the ones to forget;
the broker answers with only the partitions that have something to say (records,
a changed high watermark / last stable offset / log start offset, or an error).

Request forms (session_id, epoch):
    (0, -1)  sessionless full fetch; nothing cached
    (0, 0)   full fetch that opens a new session
    (id, 0)  close ``id`` and open a new session (full fetch)
    (id, -1) close ``id``; sessionless full fetch
    (id, n)  incremental fetch; n must be the session's expected epoch
Errors: FETCH_SESSION_ID_NOT_FOUND (unknown id), INVALID_FETCH_SESSION_EPOCH.

Partitions are identified by an opaque hashable key chosen by the fetch handler
(topic id from v13, topic name before). The cache holds at most
``max.incremental.fetch.session.cache.slots`` sessions and evicts the least
recently used. It does not read logs.

Dirty sets (what makes an incremental fetch over idle partitions cost per changed
partition, not per partition of the session): each session keeps ``dirty``, the
partitions it must look at again, besides the ones a request names. A partition
leaves it only when a read finds it caught up with the offsets the session
already sent (``include(..., pending=False)`` or ``settled``); it comes back
when ``moved(topic, partition)`` reports that its high watermark, last stable
offset or log start moved, or that its leadership, log dir or existence changed
(the broker feeds it from the logs and the replica state). Any other answer
(records, an error, a partition not caught up) keeps it dirty, so an
incremental fetch reads it again, as Kafka answers it again. ``moved`` is
keyed by topic name: the handler tells the context each partition's topic name
(``watch``) when it reads it, since keys may be topic ids.
"""

from __future__ import annotations

import itertools
import random
from collections import OrderedDict
from dataclasses import dataclass

from kwire.protocol.errors import ErrorCode

INITIAL_EPOCH = 0
FINAL_EPOCH = -1


@dataclass
class CachedPartition:
    fetch_offset: int
    max_bytes: int
    # what the last response told the client; -2 = never sent
    high_watermark: int = -2
    last_stable_offset: int = -2
    log_start_offset: int = -2
    order: int = 0  # position in the session (partitions are read and answered in this order)


class FetchSession:
    __slots__ = ("id", "epoch", "partitions", "dirty", "names", "_next_order")

    def __init__(self, session_id: int) -> None:
        self.id = session_id
        self.epoch = 1  # next expected epoch
        self.partitions: OrderedDict = OrderedDict()
        self.dirty: set = set()  # keys to look at again even when a request does not name them
        self.names: dict = {}  # key -> (topic name, partition), for ``FetchSessionCache.moved``
        self._next_order = 0

    def add(self, key, fetch_offset: int, max_bytes: int) -> None:
        """A new partition of the session (read by the request that adds it)."""
        self.partitions[key] = CachedPartition(fetch_offset, max_bytes, order=self._next_order)
        self._next_order += 1


class FetchContext:
    """What one fetch request reads, and which results it must include."""

    __slots__ = ("session", "incremental", "error", "reads", "_cache")

    def __init__(self, session: FetchSession | None, incremental: bool, reads: list,
                 error: ErrorCode = ErrorCode.NONE, cache: "FetchSessionCache | None" = None):
        self.session = session
        self.incremental = incremental
        self.error = error
        # (key, fetch_offset, max_bytes) for every partition to read, in session order; an
        # incremental context leaves it empty: ``all_reads`` / ``changed_reads`` make it
        self.reads = reads
        self._cache = cache

    def all_reads(self) -> list:
        """(key, fetch_offset, max_bytes) of every partition of the session, in session order."""
        return [(k, c.fetch_offset, c.max_bytes) for k, c in self.session.partitions.items()]

    def changed_reads(self, named) -> list:
        """(key, fetch_offset, max_bytes) of the session's partitions that are ``named`` (keys)
        or dirty, in session order: what an incremental fetch must look at. O(those)."""
        parts = self.session.partitions
        keys = set(named)
        keys.update(self.session.dirty)
        get = parts.get
        cached = []
        for k in keys:  # one lookup per key (a key's hash is a UUID's, computed in Python)
            c = get(k)
            if c is not None:
                cached.append((c.order, k, c))
        if len(cached) > 1:
            cached.sort(key=_first)
        return [(k, c.fetch_offset, c.max_bytes) for _o, k, c in cached]

    def watch(self, key, topic: str) -> None:
        """The session's partition ``key`` is partition ``key[1]`` of topic ``topic``: a
        ``moved(topic, key[1])`` makes it dirty from now on."""
        if self.session is not None and key not in self.session.names and key in self.session.partitions:
            self._cache._watch(self.session, key, (topic, key[1]))

    def settled(self, key) -> None:
        """``key`` was found caught up, with offsets the session already sent: not dirty."""
        if self.session is not None:
            self.session.dirty.discard(key)

    @property
    def session_id(self) -> int:
        return self.session.id if self.session else 0

    def unchanged(self, key, high_watermark: int, last_stable_offset: int,
                  log_start_offset: int) -> bool:
        """True when the last response sent ``key`` these very offsets (an incremental fetch
        may then leave the partition out without reading it)."""
        cached = self.session.partitions.get(key) if self.session is not None else None
        return (cached is not None and cached.high_watermark == high_watermark
                and cached.last_stable_offset == last_stable_offset
                and cached.log_start_offset == log_start_offset)

    def include(self, key, high_watermark: int, last_stable_offset: int, log_start_offset: int,
                has_records: bool, has_error: bool, pending: bool = True) -> bool:
        """Record what is sent for ``key``; True if the partition belongs in the response.
        ``pending``: the next incremental fetch must look at it again even if nothing moves
        (records, an error, not caught up); False once it is caught up."""
        if self.session is None:
            return True
        cached = self.session.partitions.get(key)
        if cached is None:
            return True
        if pending:
            self.session.dirty.add(key)
        else:
            self.session.dirty.discard(key)
        changed = (
            cached.high_watermark != high_watermark
            or cached.last_stable_offset != last_stable_offset
            or cached.log_start_offset != log_start_offset
        )
        cached.high_watermark = high_watermark
        cached.last_stable_offset = last_stable_offset
        cached.log_start_offset = log_start_offset
        if not self.incremental:
            return True
        return has_records or has_error or changed


class FetchSessionCache:
    def __init__(self, max_slots: int = 1000) -> None:
        self.max_slots = max_slots
        self._sessions: OrderedDict[int, FetchSession] = OrderedDict()
        self._ids = itertools.count(random.randint(1, 1 << 20))
        # (topic name, partition) -> {session: its key of that partition}
        self._watchers: dict[tuple[str, int], dict[FetchSession, object]] = {}

    def moved(self, topic: str, partition: int) -> None:
        """The partition's high watermark, last stable offset or log start moved, or its
        leader, log dir or existence changed: every session holding it looks at it again."""
        w = self._watchers.get((topic, partition))
        if w:
            for session, key in w.items():
                session.dirty.add(key)

    def _watch(self, session: FetchSession, key, name_key) -> None:
        session.names[key] = name_key
        w = self._watchers.get(name_key)
        if w is None:
            self._watchers[name_key] = {session: key}
        else:
            w[session] = key

    def _unwatch(self, session: FetchSession, key) -> None:
        name_key = session.names.pop(key, None)
        if name_key is not None:
            w = self._watchers.get(name_key)
            if w is not None:
                w.pop(session, None)
                if not w:
                    del self._watchers[name_key]

    def _drop(self, session: FetchSession | None) -> None:
        """A session closed or evicted: its partitions are no longer watched."""
        if session is not None:
            for key in list(session.names):
                self._unwatch(session, key)

    def __len__(self) -> int:
        return len(self._sessions)

    def new_context(self, session_id: int, epoch: int, partitions: list, forgotten: list) -> FetchContext:
        """``partitions``: (key, fetch_offset, max_bytes) from the request; ``forgotten``: keys."""
        if epoch == FINAL_EPOCH:
            if session_id:
                self._drop(self._sessions.pop(session_id, None))
            return FetchContext(None, False, list(partitions))
        if epoch == INITIAL_EPOCH:
            if session_id:
                self._drop(self._sessions.pop(session_id, None))
            if self.max_slots <= 0:
                return FetchContext(None, False, list(partitions))
            session = FetchSession(self._new_id())
            for key, offset, max_bytes in partitions:
                session.add(key, offset, max_bytes)
            self._sessions[session.id] = session
            while len(self._sessions) > self.max_slots:
                self._drop(self._sessions.popitem(last=False)[1])
            return FetchContext(session, False, list(partitions), cache=self)
        session = self._sessions.get(session_id)
        if session is None:
            return FetchContext(None, True, [], ErrorCode.FETCH_SESSION_ID_NOT_FOUND)
        if session.epoch != epoch:
            return FetchContext(None, True, [], ErrorCode.INVALID_FETCH_SESSION_EPOCH)
        self._sessions.move_to_end(session_id)
        session.epoch = _next_epoch(epoch)
        for key, offset, max_bytes in partitions:
            cached = session.partitions.get(key)
            if cached is None:
                session.add(key, offset, max_bytes)
            else:
                cached.fetch_offset = offset
                cached.max_bytes = max_bytes
        for key in forgotten:
            if session.partitions.pop(key, None) is not None:
                session.dirty.discard(key)
                self._unwatch(session, key)
        return FetchContext(session, True, [], cache=self)

    def _new_id(self) -> int:
        while True:
            sid = next(self._ids) & 0x7FFFFFFF
            if sid and sid not in self._sessions:
                return sid


def _first(entry):
    return entry[0]


def _next_epoch(epoch: int) -> int:
    return 1 if epoch >= 0x7FFFFFFF else epoch + 1
