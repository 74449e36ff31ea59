"""One share partition (KIP-932): which records of a topic partition a share group has in flight.

A pure state machine: no asyncio, no I/O, time passed in as ``now`` (ms).

Window: ``start_offset`` (Kafka's SPSO) is the first offset not yet
acknowledged or archived; ``end_offset`` is one past the last offset ever
acquired (Kafka's SPEO + 1). The window ``[start_offset, end_offset)`` is
covered, without gaps or overlaps, by ``runs``: sorted ``Run`` objects, each a
range of offsets in one state with one delivery count, member and lock
deadline (Kafka's in-flight batches, which split into per-offset state only
where acknowledgements differ; here a run is split at the offsets where its
records start to differ, and equal neighbours are merged again). The cost of
every operation is in runs, not records: a whole 7,000-record log batch
acquired and ACCEPTed in one range stays one run. States are Kafka's
``RecordState`` ids:

    AVAILABLE(0) --acquire--> ACQUIRED(1) --ACCEPT--> ACKNOWLEDGED(2)
        ^                        |  --REJECT / GAP--> ARCHIVED(4)
        +---RELEASE, lock expiry-+  (ARCHIVED instead once delivery_count reaches the limit)

Acquisition (``acquire``, one log batch at a time, as the manager reads them):
with ``max_records=None`` (Kafka's ``batch_optimized`` acquire mode, the
default) the acquirable records of the whole log batch are taken, so a fetch
may hold more than it asked for, and new records are taken past the end only
while fewer than ``max_in_flight`` are in flight when the batch starts (a soft
limit, as Kafka's); with a number (``record_limit``) at most that many, and
the in-flight limit is strict.

Invariants: an ACQUIRED record has exactly one ``member_id`` and a lock
deadline; ``delivery_count`` rises on every acquisition and never falls; a
record is never ACKNOWLEDGED twice (acknowledgements of records the member
does not hold answer INVALID_RECORD_STATE and change nothing); the start offset
moves past leading ACKNOWLEDGED/ARCHIVED records only.

Not here: reading the log (``kwire.share.manager`` hands in batch offsets), the
durable copy (``snapshot()`` / ``restore()`` are what the share-group state
topic stores), which records belong to aborted transactions (the manager
archives them with ``skip``). Not done: Kafka's isolation of a record on its
last delivery attempt (it delivers such a record alone, so that one poison
record does not archive its neighbours with it).
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import groupby

from kwire.protocol.errors import ErrorCode as E

AVAILABLE, ACQUIRED, ACKNOWLEDGED, ARCHIVED = 0, 1, 2, 4
GAP, ACCEPT, RELEASE, REJECT, RENEW = 0, 1, 2, 3, 4
ACK_TYPES = (GAP, ACCEPT, RELEASE, REJECT, RENEW)
_DONE = (ACKNOWLEDGED, ARCHIVED)


class AckError(Exception):
    def __init__(self, code: E, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Run:
    """Offsets ``first``..``last`` (inclusive) in one state; ``deadline`` only while ACQUIRED."""

    __slots__ = ("first", "last", "state", "delivery_count", "member_id", "deadline")

    def __init__(self, first: int, last: int, state: int = AVAILABLE, delivery_count: int = 0,
                 member_id: str | None = None, deadline: int = 0) -> None:
        self.first, self.last = first, last
        self.state, self.delivery_count = state, delivery_count
        self.member_id, self.deadline = member_id, deadline

    def same(self, o: "Run") -> bool:
        return (self.state == o.state and self.delivery_count == o.delivery_count
                and self.member_id == o.member_id and self.deadline == o.deadline)

    def __len__(self) -> int:
        return self.last - self.first + 1

    def __repr__(self) -> str:
        return f"Run({self.first}-{self.last}, {self.state}, dc={self.delivery_count}, {self.member_id})"


def _first(r: Run) -> int:
    return r.first


class SharePartition:
    """The in-flight records of one (group, topic, partition)."""

    def __init__(self, start_offset: int, lock_duration_ms: int = 30000, delivery_count_limit: int = 5,
                 max_in_flight: int = 2000) -> None:
        self.start_offset = start_offset
        self.end_offset = start_offset
        self.runs: list[Run] = []
        self.lock_duration_ms = lock_duration_ms
        self.delivery_count_limit = delivery_count_limit
        self.max_in_flight = max_in_flight
        self.state_epoch = 0
        self.changed = False  # durable state changed since the last snapshot() taken

    # -- reading ---------------------------------------------------------------------------
    def next_fetch_offset(self) -> int:
        """The lowest offset a fetch could acquire: an AVAILABLE in-flight record, else the end."""
        for r in self.runs:
            if r.state == AVAILABLE:
                return r.first
        return self.end_offset

    def in_flight(self) -> int:
        return self.end_offset - self.start_offset

    def record(self, offset: int) -> Run | None:
        """The run holding ``offset`` (its state, delivery count, member, deadline), or None
        outside the window."""
        if not self.start_offset <= offset < self.end_offset:
            return None
        return self.runs[bisect_right(self.runs, offset, key=_first) - 1]

    def counts(self) -> dict[int, int]:
        """{state: records in the window in that state}."""
        out = dict.fromkeys((AVAILABLE, ACQUIRED, ACKNOWLEDGED, ARCHIVED), 0)
        for r in self.runs:
            out[r.state] += len(r)
        return out

    def next_deadline(self) -> int | None:
        ds = [r.deadline for r in self.runs if r.state == ACQUIRED]
        return min(ds) if ds else None

    # -- runs --------------------------------------------------------------------------------
    def _split(self, offset: int) -> int:
        """Make ``offset`` the first of a run; the index of the first run at or after it."""
        if offset <= self.start_offset:
            return 0
        if offset >= self.end_offset:
            return len(self.runs)
        i = bisect_right(self.runs, offset, key=_first) - 1
        r = self.runs[i]
        if r.first == offset:
            return i
        tail = Run(offset, r.last, r.state, r.delivery_count, r.member_id, r.deadline)
        r.last = offset - 1
        self.runs.insert(i + 1, tail)
        return i + 1

    def _append(self, first: int, last: int, state: int, count: int = 0, member_id: str | None = None,
                deadline: int = 0) -> None:
        """A new run at the end of the window (``first`` == ``end_offset``)."""
        r = Run(first, last, state, count, member_id, deadline)
        if self.runs and self.runs[-1].same(r):
            self.runs[-1].last = last
        else:
            self.runs.append(r)
        self.end_offset = last + 1

    def _tidy(self) -> None:
        """Merge equal neighbours and move the start past leading done runs."""
        runs = self.runs
        k = 0
        while k < len(runs) and runs[k].state in _DONE:
            k += 1
        if k:
            self.start_offset = runs[k - 1].last + 1
            del runs[:k]
        if len(runs) > 1:
            merged = [runs[0]]
            for r in runs[1:]:
                if merged[-1].same(r):
                    merged[-1].last = r.last
                else:
                    merged.append(r)
            self.runs = merged

    # -- acquiring ------------------------------------------------------------------------
    def acquire(self, member_id: str, first: int, last: int, now: int, max_records: int | None = None,
                skip: bool = False) -> list[tuple[int, int, int]]:
        """Acquire for ``member_id`` the acquirable offsets of ``[first, last]`` (one log batch):
        all of them with ``max_records=None`` (batch_optimized), else at most ``max_records``
        (record_limit); ``skip`` archives new offsets instead (a control batch, an aborted
        transaction's batch). Returns runs ``(first, last, delivery_count)`` of acquired offsets."""
        out: list[tuple[int, int, int]] = []
        first = max(first, self.start_offset)
        if skip:
            budget = None
        elif max_records is not None and max_records <= 0:
            return out
        else:
            budget = max_records
        if last < first:
            return out
        deadline = now + self.lock_duration_ms
        # 1. records of this batch already in the window: the AVAILABLE ones
        if first < self.end_offset:
            i = self._split(first)
            j = self._split(min(last, self.end_offset - 1) + 1)
            for r in self.runs[i:j]:
                if budget == 0:
                    break
                if r.state != AVAILABLE:
                    continue
                self.changed = True
                if skip:
                    r.state = ARCHIVED
                    continue
                if budget is not None and len(r) > budget:
                    r = self.runs[self._split(r.first + budget) - 1]
                r.state, r.member_id, r.deadline = ACQUIRED, member_id, deadline
                r.delivery_count += 1
                if budget is not None:
                    budget -= len(r)
                _add(out, r.first, r.last, r.delivery_count)
        # 2. offsets past the end of the window: new records
        if last >= self.end_offset and budget != 0:
            if not skip and self.in_flight() >= self.max_in_flight:
                self._tidy()  # the window is full: touch nothing past the end (no hole either)
                return out
            if first > self.end_offset:  # a hole in the log (compaction): nothing to deliver
                self._append(self.end_offset, first - 1, ARCHIVED)
            start = self.end_offset
            n = last - start + 1
            if not skip and budget is not None:  # record_limit: strict; batch_optimized: whole
                n = min(n, budget, max(1, self.max_in_flight - self.in_flight()))
            if skip:
                self._append(start, start + n - 1, ARCHIVED)
            else:
                self._append(start, start + n - 1, ACQUIRED, 1, member_id, deadline)
                _add(out, start, start + n - 1, 1)
            self.changed = True
        self._tidy()
        return out

    # -- acknowledging --------------------------------------------------------------------
    def acknowledge(self, member_id: str, batches: list[tuple[int, int, list[int]]], now: int) -> None:
        """Apply ``(first, last, types)`` batches of one member atomically: all are checked
        before any is applied, so a bad batch changes nothing (AckError)."""
        plan: list[tuple[int, int, int]] = []
        for first, last, types in batches:
            if last < first or not types or (len(types) != 1 and len(types) != last - first + 1):
                raise AckError(E.INVALID_REQUEST, f"Invalid acknowledgement batch {first}-{last}.")
            if len(types) == 1:
                segments = [(first, last, types[0])]
            else:
                segments, off = [], first
                for kind, group in groupby(types):
                    n = sum(1 for _ in group)
                    segments.append((off, off + n - 1, kind))
                    off += n
            for a, b, kind in segments:
                if kind not in ACK_TYPES:
                    raise AckError(E.INVALID_REQUEST, f"Invalid acknowledge type {kind}.")
                self._check(member_id, a, b, kind)
                plan.append((a, b, kind))
        for a, b, kind in plan:
            i, j = self._split(a), self._split(b + 1)
            for r in self.runs[i:j]:
                if kind == GAP and r.state == ARCHIVED:
                    continue
                if kind == RENEW:
                    r.deadline = now + self.lock_duration_ms
                elif kind == ACCEPT:
                    r.state, r.member_id, r.deadline = ACKNOWLEDGED, None, 0
                elif kind == RELEASE:
                    self._release(r)
                else:  # REJECT, GAP
                    r.state, r.member_id, r.deadline = ARCHIVED, None, 0
        if plan:
            self.changed = True
        self._tidy()

    def _check(self, member_id: str, a: int, b: int, kind: int) -> None:
        def bad(off: int):
            return AckError(E.INVALID_RECORD_STATE, f"The record state is invalid. The acknowledgement of "
                                                    f"offset {off} is not allowed.")

        if a < self.start_offset:
            raise bad(a)
        if b >= self.end_offset:
            raise bad(max(a, self.end_offset))
        i = bisect_right(self.runs, a, key=_first) - 1
        while i < len(self.runs) and self.runs[i].first <= b:
            r = self.runs[i]
            if not ((r.state == ACQUIRED and r.member_id == member_id) or (kind == GAP and r.state == ARCHIVED)):
                raise bad(max(a, r.first))
            i += 1

    def _release(self, r: Run) -> None:
        r.state = ARCHIVED if r.delivery_count >= self.delivery_count_limit else AVAILABLE
        r.member_id, r.deadline = None, 0
        self.changed = True

    def release_member(self, member_id: str) -> int:
        """Release every record ``member_id`` holds (its share session closed); the count."""
        n = 0
        for r in self.runs:
            if r.state == ACQUIRED and r.member_id == member_id:
                n += len(r)
                self._release(r)
        if n:
            self._tidy()
        return n

    def expire_locks(self, now: int) -> int:
        """Acquisition locks past their deadline: the records become available again (or are
        archived at the delivery-count limit). Returns how many."""
        n = 0
        for r in self.runs:
            if r.state == ACQUIRED and r.deadline <= now:
                n += len(r)
                self._release(r)
        if n:
            self._tidy()
        return n

    def move_start(self, log_start_offset: int) -> None:
        """Records removed by retention or DeleteRecords: archive what lies below the log start."""
        if log_start_offset <= self.start_offset:
            return
        if log_start_offset >= self.end_offset:
            self.runs = []
            self.end_offset = log_start_offset
        else:
            del self.runs[:self._split(log_start_offset)]
        self.start_offset = log_start_offset
        self.changed = True
        self._tidy()

    # -- durable state ------------------------------------------------------------------------
    def snapshot(self) -> tuple[int, list[tuple[int, int, int, int]]]:
        """(start offset, [(first, last, state, delivery count)]): Kafka's ShareSnapshot shape.
        ACQUIRED records are stored as AVAILABLE with their count: after a restart they are
        delivered again, their count raised on that delivery."""
        batches: list[tuple[int, int, int, int]] = []
        for r in self.runs:
            state = AVAILABLE if r.state == ACQUIRED else r.state
            if batches and batches[-1][1] == r.first - 1 and batches[-1][2:] == (state, r.delivery_count):
                batches[-1] = (batches[-1][0], r.last, state, r.delivery_count)
            else:
                batches.append((r.first, r.last, state, r.delivery_count))
        self.changed = False
        return self.start_offset, batches

    def restore(self, start_offset: int, batches) -> None:
        self.start_offset = self.end_offset = start_offset
        self.runs = []
        for first, last, state, count in sorted(batches):
            first = max(first, self.end_offset)
            if last < first:
                continue
            if first > self.end_offset:
                self._append(self.end_offset, first - 1, ARCHIVED)
            self._append(first, last, AVAILABLE if state == ACQUIRED else state, count)
        self._tidy()
        self.changed = False


def _add(out: list, first: int, last: int, count: int) -> None:
    if out and out[-1][1] == first - 1 and out[-1][2] == count:
        out[-1] = (out[-1][0], last, count)
    else:
        out.append((first, last, count))
