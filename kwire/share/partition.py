"""One share partition (KIP-932): which records of a topic partition a share group has in flight.

A pure state machine: no asyncio, no I/O, time passed in as ``now`` (ms).

Window: ``start_offset`` (Kafka's SPSO) is the first offset not yet
acknowledged or archived; ``end_offset`` (SPEO) is one past the last offset
ever acquired. Every offset in ``[start_offset, end_offset)`` has a state in
``records``; offsets below the start are done, offsets at or above the end were
never delivered. Per-record states are Kafka's ``RecordState`` ids:

    AVAILABLE(0) --acquire--> ACQUIRED(1) --ACCEPT--> ACKNOWLEDGED(2)
        ^                        |  --REJECT / GAP--> ARCHIVED(4)
        +---RELEASE, lock expiry-+  (ARCHIVED instead once delivery_count reaches the limit)

Invariants: an ACQUIRED record has exactly one ``member_id`` and a lock
deadline; ``delivery_count`` rises on every acquisition and never falls; a
record is never ACKNOWLEDGED twice (acknowledgements of records the member
does not hold answer INVALID_RECORD_STATE and change nothing); the start offset
moves past leading ACKNOWLEDGED/ARCHIVED records only.

Not here: reading the log (``kwire.share.manager`` hands in batch offsets), the
durable copy (``snapshot()`` / ``restore()`` are what the share-group state
topic stores), which records belong to aborted transactions (the manager
archives them with ``skip``).
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode as E

AVAILABLE, ACQUIRED, ACKNOWLEDGED, ARCHIVED = 0, 1, 2, 4
GAP, ACCEPT, RELEASE, REJECT, RENEW = 0, 1, 2, 3, 4
ACK_TYPES = (GAP, ACCEPT, RELEASE, REJECT, RENEW)


class AckError(Exception):
    def __init__(self, code: E, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Rec:
    __slots__ = ("state", "delivery_count", "member_id", "deadline")

    def __init__(self, state: int = AVAILABLE, delivery_count: int = 0) -> None:
        self.state = state
        self.delivery_count = delivery_count
        self.member_id: str | None = None
        self.deadline = 0

    def __repr__(self) -> str:
        return f"Rec({self.state}, dc={self.delivery_count}, {self.member_id})"


class SharePartition:
    """The in-flight records of one (group, topic, partition)."""

    def __init__(self, start_offset: int, lock_duration_ms: int = 30000, delivery_count_limit: int = 5,
                 max_in_flight: int = 2000) -> None:
        self.start_offset = start_offset
        self.end_offset = start_offset
        self.records: dict[int, Rec] = {}
        self.lock_duration_ms = lock_duration_ms
        self.delivery_count_limit = delivery_count_limit
        self.max_in_flight = max_in_flight
        self.state_epoch = 0
        self.changed = False  # durable state changed since the last snapshot() taken

    # -- reading ---------------------------------------------------------------------------
    def next_fetch_offset(self) -> int:
        """The lowest offset a fetch could acquire: an AVAILABLE in-flight record, else the end."""
        for off in range(self.start_offset, self.end_offset):
            if self.records[off].state == AVAILABLE:
                return off
        return self.end_offset

    def in_flight(self) -> int:
        return self.end_offset - self.start_offset

    def acquired_by(self, member_id: str) -> list[int]:
        return [o for o, r in self.records.items() if r.state == ACQUIRED and r.member_id == member_id]

    def next_deadline(self) -> int | None:
        ds = [r.deadline for r in self.records.values() if r.state == ACQUIRED]
        return min(ds) if ds else None

    # -- acquiring ------------------------------------------------------------------------
    def acquire(self, member_id: str, first: int, last: int, now: int, max_records: int,
                skip: bool = False) -> list[tuple[int, int, int]]:
        """Acquire for ``member_id`` the acquirable offsets of ``[first, last]`` (one log batch),
        at most ``max_records``; ``skip`` archives new offsets instead (a control batch).
        Returns runs ``(first, last, delivery_count)`` of acquired offsets."""
        runs: list[tuple[int, int, int]] = []
        first = max(first, self.start_offset)
        deadline = now + self.lock_duration_ms
        taken = 0
        for off in range(first, last + 1):
            if taken >= max_records:
                break
            rec = self.records.get(off)
            if rec is None:
                if off < self.end_offset:
                    continue  # below the end but gone: done already
                # the window is full: stop before anything past the end is touched (a batch
                # after one cut short here must not take the untouched offsets for a hole)
                if self.in_flight() >= self.max_in_flight and not skip:
                    break
                if off > self.end_offset:  # a hole in the log (compaction): nothing to deliver
                    for hole in range(self.end_offset, off):
                        self.records[hole] = Rec(ARCHIVED)
                rec = self.records[off] = Rec()
                self.end_offset = off + 1
                self.changed = True
                if skip:
                    rec.state = ARCHIVED
                    continue
            if rec.state != AVAILABLE:
                continue
            if skip:
                rec.state = ARCHIVED
                self.changed = True
                continue
            rec.state, rec.member_id, rec.deadline = ACQUIRED, member_id, deadline
            rec.delivery_count += 1
            self.changed = True
            taken += 1
            if runs and runs[-1][1] == off - 1 and runs[-1][2] == rec.delivery_count:
                runs[-1] = (runs[-1][0], off, rec.delivery_count)
            else:
                runs.append((off, off, rec.delivery_count))
        self._advance()
        return runs

    # -- acknowledging --------------------------------------------------------------------
    def acknowledge(self, member_id: str, batches: list[tuple[int, int, list[int]]], now: int) -> None:
        """Apply ``(first, last, types)`` batches of one member atomically: all are checked
        before any is applied, so a bad batch changes nothing (AckError)."""
        plan = []
        for first, last, types in batches:
            if last < first or not types or (len(types) != 1 and len(types) != last - first + 1):
                raise AckError(E.INVALID_REQUEST, f"Invalid acknowledgement batch {first}-{last}.")
            for i, off in enumerate(range(first, last + 1)):
                kind = types[0] if len(types) == 1 else types[i]
                if kind not in ACK_TYPES:
                    raise AckError(E.INVALID_REQUEST, f"Invalid acknowledge type {kind}.")
                rec = self.records.get(off)
                if rec is None or rec.state != ACQUIRED or rec.member_id != member_id:
                    if kind == GAP and rec is not None and rec.state == ARCHIVED:
                        continue
                    raise AckError(E.INVALID_RECORD_STATE,
                                   f"The record state is invalid. The acknowledgement of offset {off} "
                                   f"is not allowed.")
                plan.append((rec, kind))
        for rec, kind in plan:
            if kind == RENEW:
                rec.deadline = now + self.lock_duration_ms
                continue
            if kind == ACCEPT:
                rec.state = ACKNOWLEDGED
            elif kind == RELEASE:
                self._release(rec)
                continue
            else:  # REJECT, GAP
                rec.state = ARCHIVED
            rec.member_id = None
        if plan:
            self.changed = True
        self._advance()

    def _release(self, rec: Rec) -> None:
        rec.state = ARCHIVED if rec.delivery_count >= self.delivery_count_limit else AVAILABLE
        rec.member_id = None
        self.changed = True

    def release_member(self, member_id: str) -> int:
        """Release every record ``member_id`` holds (its share session closed); the count."""
        n = 0
        for rec in self.records.values():
            if rec.state == ACQUIRED and rec.member_id == member_id:
                self._release(rec)
                n += 1
        self._advance()
        return n

    def expire_locks(self, now: int) -> int:
        """Acquisition locks past their deadline: the records become available again (or are
        archived at the delivery-count limit). Returns how many."""
        n = 0
        for rec in self.records.values():
            if rec.state == ACQUIRED and rec.deadline <= now:
                self._release(rec)
                n += 1
        if n:
            self._advance()
        return n

    def move_start(self, log_start_offset: int) -> None:
        """Records removed by retention or DeleteRecords: archive what lies below the log start."""
        if log_start_offset <= self.start_offset:
            return
        for off in range(self.start_offset, min(log_start_offset, self.end_offset)):
            self.records.pop(off, None)
        self.start_offset = log_start_offset
        self.end_offset = max(self.end_offset, log_start_offset)
        self.changed = True
        self._advance()

    def _advance(self) -> None:
        while self.start_offset < self.end_offset:
            rec = self.records[self.start_offset]
            if rec.state not in (ACKNOWLEDGED, ARCHIVED):
                break
            del self.records[self.start_offset]
            self.start_offset += 1

    # -- durable state ------------------------------------------------------------------------
    def snapshot(self) -> tuple[int, list[tuple[int, int, int, int]]]:
        """(start offset, [(first, last, state, delivery count)]): Kafka's ShareSnapshot shape.
        ACQUIRED records are stored as AVAILABLE with their count: after a restart they are
        delivered again, their count raised on that delivery."""
        batches: list[tuple[int, int, int, int]] = []
        for off in range(self.start_offset, self.end_offset):
            rec = self.records[off]
            state = AVAILABLE if rec.state == ACQUIRED else rec.state
            if batches and batches[-1][1] == off - 1 and batches[-1][2:] == (state, rec.delivery_count):
                batches[-1] = (batches[-1][0], off, state, rec.delivery_count)
            else:
                batches.append((off, off, state, rec.delivery_count))
        self.changed = False
        return self.start_offset, batches

    def restore(self, start_offset: int, batches) -> None:
        self.start_offset = self.end_offset = start_offset
        self.records = {}
        for first, last, state, count in batches:
            for off in range(max(first, start_offset), last + 1):
                self.records[off] = Rec(AVAILABLE if state == ACQUIRED else state, count)
                self.end_offset = max(self.end_offset, off + 1)
        for off in range(start_offset, self.end_offset):
            self.records.setdefault(off, Rec(ARCHIVED))
        self._advance()
        self.changed = False
