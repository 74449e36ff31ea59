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


class FetchSession:
    __slots__ = ("id", "epoch", "partitions")

    def __init__(self, session_id: int) -> None:
        self.id = session_id
        self.epoch = 1  # next expected epoch
        self.partitions: OrderedDict = OrderedDict()


class FetchContext:
    """What one fetch request reads, and which results it must include."""

    __slots__ = ("session", "incremental", "error", "reads")

    def __init__(self, session: FetchSession | None, incremental: bool, reads: list, error: ErrorCode = ErrorCode.NONE):
        self.session = session
        self.incremental = incremental
        self.error = error
        # (key, fetch_offset, max_bytes) for every partition to read, in session order
        self.reads = reads

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
                has_records: bool, has_error: bool) -> bool:
        """Record what is sent for ``key``; True if the partition belongs in the response."""
        if self.session is None:
            return True
        cached = self.session.partitions.get(key)
        if cached is None:
            return True
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

    def __len__(self) -> int:
        return len(self._sessions)

    def new_context(self, session_id: int, epoch: int, partitions: list, forgotten: list) -> FetchContext:
        """``partitions``: (key, fetch_offset, max_bytes) from the request; ``forgotten``: keys."""
        if epoch == FINAL_EPOCH:
            if session_id:
                self._sessions.pop(session_id, None)
            return FetchContext(None, False, list(partitions))
        if epoch == INITIAL_EPOCH:
            if session_id:
                self._sessions.pop(session_id, None)
            if self.max_slots <= 0:
                return FetchContext(None, False, list(partitions))
            session = FetchSession(self._new_id())
            for key, offset, max_bytes in partitions:
                session.partitions[key] = CachedPartition(offset, max_bytes)
            self._sessions[session.id] = session
            while len(self._sessions) > self.max_slots:
                self._sessions.popitem(last=False)
            return FetchContext(session, False, list(partitions))
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
                session.partitions[key] = CachedPartition(offset, max_bytes)
            else:
                cached.fetch_offset = offset
                cached.max_bytes = max_bytes
        for key in forgotten:
            session.partitions.pop(key, None)
        reads = [(k, c.fetch_offset, c.max_bytes) for k, c in session.partitions.items()]
        return FetchContext(session, True, reads)

    def _new_id(self) -> int:
        while True:
            sid = next(self._ids) & 0x7FFFFFFF
            if sid and sid not in self._sessions:
                return sid


def _next_epoch(epoch: int) -> int:
    return 1 if epoch >= 0x7FFFFFFF else epoch + 1
