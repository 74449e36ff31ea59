"""Building blocks of the coordinator state machines: results, waiters, timers, partitioning.

* ``Result(response, records, on_error, on_commit, replay_records)`` — what
  every coordinator operation returns: the response (or a ``Pending`` one),
  the records to append to ``__consumer_offsets``, how to answer instead if
  that append (or its replication) fails, and what to do once it is
  replicated (Kafka's append future).
* ``Pending`` — a response that is not known yet (a JoinGroup waiting for the
  join phase to end, a SyncGroup waiting for the leader's assignment). Plain
  Python, no asyncio: the runtime attaches a callback that resolves a future.
* ``Timer`` — explicit deadlines keyed by name, polled with the current time.
  Rescheduling a key replaces its deadline; nothing runs on its own, so unit
  tests drive time with plain integers.
* ``partition_for(group_id, n)`` — Kafka's ``abs(groupId.hashCode()) % n`` with
  Java's ``String.hashCode`` over UTF-16 code units and ``Utils.abs``
  (``Integer.MIN_VALUE`` maps to 0).
* ``internal_segment_config(size)`` — the segment size of an internal topic.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any, Callable, Hashable, NamedTuple

from kwire.protocol.errors import ErrorCode

__all__ = ["CoordinatorError", "OpContext", "Pending", "Result", "Timer", "java_string_hash",
           "partition_for"]


class OpContext(NamedTuple):
    """What an operation needs to know about the request besides its body."""

    api_version: int
    client_id: str = ""
    client_host: str = ""
    # With an authorizer: may the requesting principal DESCRIBE this topic? A KIP-848 member's
    # regex subscription resolves to the matching topics that pass (Kafka's TopicRegexResolver).
    topic_filter: Callable[[str], bool] | None = None


class CoordinatorError(Exception):
    """An operation failed with a Kafka error code (and optional message)."""

    def __init__(self, code: ErrorCode, message: str | None = None) -> None:
        super().__init__(message or code.name)
        self.code = ErrorCode(code)
        self.message = message


class Pending:
    """A response that will be known later. ``complete`` returns False if already done."""

    __slots__ = ("response", "done", "_callbacks")

    def __init__(self) -> None:
        self.response: Any = None
        self.done = False
        self._callbacks: list[Callable[[Any], None]] = []

    def complete(self, response: Any) -> bool:
        if self.done:
            return False
        self.response = response
        self.done = True
        callbacks, self._callbacks = self._callbacks, []
        for cb in callbacks:
            cb(response)
        return True

    def add_callback(self, cb: Callable[[Any], None]) -> None:
        if self.done:
            cb(self.response)
        else:
            self._callbacks.append(cb)

    def __repr__(self) -> str:
        return f"Pending(done={self.done}, response={self.response!r})"


class Result:
    """An operation's outcome: response (maybe Pending), records to append, error fallback.

    ``on_error(code)`` is called by the runtime when appending ``records``
    failed, or when they were appended but not replicated, with the error code
    a client should see; it returns the response to send instead (and may undo
    soft state). Without it the runtime answers ``response`` unchanged only if
    there were no records. ``on_commit()`` is called once the records are
    replicated (at once after the append on a single node). With
    ``replay_records`` False the records are written but not replayed on the
    live path: ``on_commit`` applies their effect to memory (Kafka's
    CoordinatorResult ``replayRecords``, used for classic group assignments).
    """

    __slots__ = ("response", "records", "on_error", "on_commit", "replay_records")

    def __init__(self, response: Any = None, records: list | None = None,
                 on_error: Callable[[ErrorCode], Any] | None = None,
                 on_commit: Callable[[], None] | None = None, replay_records: bool = True) -> None:
        self.response = response
        self.records = records if records is not None else []
        self.on_error = on_error
        self.on_commit = on_commit
        self.replay_records = replay_records

    def __repr__(self) -> str:
        return f"Result({self.response!r}, {len(self.records)} records)"


class Timer:
    """Deadlines by key: ``schedule``, ``cancel``, ``next_deadline``, ``pop_expired``."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, Hashable]] = []
        self._entries: dict[Hashable, tuple[int, int, Callable[[int], Any]]] = {}
        self._seq = itertools.count()

    def schedule(self, key: Hashable, deadline_ms: int, fn: Callable[[int], Any]) -> None:
        seq = next(self._seq)
        self._entries[key] = (deadline_ms, seq, fn)
        heapq.heappush(self._heap, (deadline_ms, seq, key))

    def cancel(self, key: Hashable) -> None:
        self._entries.pop(key, None)

    def deadline(self, key: Hashable) -> int | None:
        e = self._entries.get(key)
        return None if e is None else e[0]

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def _prune(self) -> None:
        heap = self._heap
        while heap:
            deadline, seq, key = heap[0]
            e = self._entries.get(key)
            if e is not None and e[1] == seq:
                return
            heapq.heappop(heap)

    def next_deadline(self) -> int | None:
        self._prune()
        return self._heap[0][0] if self._heap else None

    def pop_expired(self, now_ms: int) -> Callable[[int], Any] | None:
        """Remove and return the callback of the earliest expired deadline, or None."""
        self._prune()
        if not self._heap or self._heap[0][0] > now_ms:
            return None
        _, _, key = heapq.heappop(self._heap)
        return self._entries.pop(key)[2]

    def __len__(self) -> int:
        return len(self._entries)


def java_string_hash(s: str) -> int:
    """Java's ``String.hashCode()``: s[0]*31^(n-1) + ... over UTF-16 code units, as int32."""
    h = 0
    data = s.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def partition_for(group_id: str, num_partitions: int) -> int:
    """The ``__consumer_offsets`` partition of a group: Kafka's ``Utils.abs(hash) % n``."""
    h = java_string_hash(group_id)
    return (0 if h == -(1 << 31) else abs(h)) % num_partitions


SEGMENT_BYTES_MIN = 1048576  # the topic config segment.bytes' minimum (Kafka 4)


def internal_segment_config(size: int) -> dict[str, str]:
    """The segment-size topic config of an internal topic whose broker setting
    (``offsets.topic.segment.bytes``, ``transaction.state.log.segment.bytes``; at least 1)
    is ``size``: ``segment.bytes``, or below segment.bytes' 1 MiB minimum Kafka's
    ``internal.segment.bytes``, as Kafka's own metadata log does with its internal segment
    size. Otherwise a small setting (tests of compaction use a few KB) would make the
    topic's creation fail, and with it every FindCoordinator."""
    if size < SEGMENT_BYTES_MIN:
        return {"internal.segment.bytes": str(size)}
    return {"segment.bytes": str(size)}
