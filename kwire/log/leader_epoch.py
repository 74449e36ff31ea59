"""Leader epoch cache of one partition: which leader epoch began at which offset.

Kept in ``leader-epoch-checkpoint`` in the partition directory, Kafka's text
format (see ``checkpoint.py``)::

    0
    2
    0 0          epoch 0 started at offset 0
    3 1200       epoch 3 started at offset 1200

Entries strictly increase in both epoch and start offset. ``assign`` follows
Kafka's ``LeaderEpochFileCache.assign``: nothing changes when the epoch equals
the latest one and the start offset is not smaller; otherwise every entry at
the end whose epoch is >= the new epoch or whose start offset is >= the new
start offset is removed and the new entry appended (a follower that receives
an older epoch than its latest, which only happens when truncation was
skipped, ends up with the leader's lineage). ``assign_all`` folds several
assignments (one per batch of a follower append) into one file write. The
file is rewritten atomically on every change (changes are rare: once per
leadership change), file first: when the write fails (OSError) the entries
in memory stay as they were, so the cache always describes the file.

The one exception is the append path (``assign_deferred``): the first batch
of a new epoch changes memory only and marks the cache ``dirty``; the file
is written by the log's next ``flush``, before the recovery point moves past
the new entry (``PartitionLog.flush``), and at close. That is safe because
recovery after a crash replays every batch above the recovery point into
this cache (``recovery.recover_segment``), so an entry that never reached the
file is rebuilt from the records it describes, and a record that did not
survive needs no entry. It keeps two fsyncs (file and directory) off the
first append to every partition: with 50,000 partitions those were most of
the time of writing one record to each.

Opening a log reads nothing here: the file is read at the first use of
``entries`` (most of 50,000 partitions need theirs only at their first
append), and the bounds of the log just opened (``bound``: entries past its
end dropped, the first one moved up to its start) apply in memory then, the
file following at the next flush, as for ``assign_deferred``.

Replication uses ``end_offset_for`` (OffsetForLeaderEpoch, Fetch's diverging
epoch) and the truncation helpers.

Not here: fencing decisions (the broker compares request epochs with the
partition's current epoch).
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from functools import cached_property

from . import faults
from .checkpoint import CheckpointError, read_epochs, write_epochs

log = logging.getLogger("kwire.log")

FILE_NAME = "leader-epoch-checkpoint"
UNDEFINED_EPOCH = -1
UNDEFINED_OFFSET = -1


def assigned(entries: list[tuple[int, int]], epoch: int, start_offset: int) -> list[tuple[int, int]]:
    """``entries`` after assigning ``epoch`` at ``start_offset`` (the same list if unchanged)."""
    if epoch < 0 or start_offset < 0:
        return entries
    if entries and entries[-1][0] == epoch and start_offset >= entries[-1][1]:
        return entries
    out = list(entries)
    # an earlier epoch that never got a record can share or pass the start offset
    while out and (out[-1][0] >= epoch or out[-1][1] >= start_offset):
        out.pop()
    out.append((epoch, start_offset))
    return out


def bounded(entries: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """``entries`` of a log holding [start, end): ``truncate_from_end(end)`` then
    ``truncate_from_start(start)``, in memory (the same list if unchanged)."""
    if entries and entries[-1][1] >= end:
        entries = [e for e in entries if e[1] < end]
    i = bisect_right([o for _, o in entries], start)
    if i == 0 or (i == 1 and entries[0][1] == start):
        return entries
    return [(entries[i - 1][0], start)] + entries[i:]


class LeaderEpochCache:
    def __init__(self, dir: str, exists: bool = True) -> None:
        """The cache of partition directory ``dir``; its file is read on first use of
        ``entries`` (``exists`` False: the caller's listing of ``dir`` shows no file, so none
        is read)."""
        self.path = f"{dir}/{FILE_NAME}"
        self.dirty = False  # memory holds entries the file does not (assign_deferred)
        self._exists = exists
        self._bounds: tuple[int, int] | None = None  # see bound()

    @cached_property
    def entries(self) -> list[tuple[int, int]]:
        """The entries, read from the file on first use: at start-up most partitions never
        need theirs before their first append. (Once read, a plain attribute.)"""
        entries: list[tuple[int, int]] = []
        if self._exists:
            try:
                entries = read_epochs(self.path) or []
            except CheckpointError as e:
                log.warning("ignoring unreadable leader epoch checkpoint: %s", e)
        if self._bounds is not None:
            kept = bounded(entries, *self._bounds)
            if kept != entries:
                entries = kept
                self.dirty = True
        return entries

    def bound(self, log_start_offset: int, log_end_offset: int) -> None:
        """The log now holds [``log_start_offset``, ``log_end_offset``) (a log just opened):
        drop the entries at or after its end and start the one covering its start there.
        In memory, when the entries are first read if they have not been yet; the file is
        rewritten by the next flush (as ``assign_deferred``: recovery applies the same
        bounds again if a crash comes first)."""
        if "entries" not in self.__dict__:
            self._bounds = (log_start_offset, log_end_offset)
            return
        kept = bounded(self.entries, log_start_offset, log_end_offset)
        if kept != self.entries:
            self.entries = kept
            self.dirty = True

    @property
    def latest_epoch(self) -> int:
        return self.entries[-1][0] if self.entries else UNDEFINED_EPOCH

    def assign(self, epoch: int, start_offset: int) -> bool:
        """Record that ``epoch`` starts at ``start_offset`` (Kafka's rule); True if changed."""
        return self.assign_all(((epoch, start_offset),))

    def assign_all(self, pairs) -> bool:
        """``assign`` for each (epoch, start offset) in order, written once; True if changed."""
        entries = self.entries
        for epoch, start_offset in pairs:
            entries = assigned(entries, epoch, start_offset)
        if entries is self.entries:
            return False
        self._write(entries)
        return True

    def assign_deferred(self, pairs) -> list[tuple[int, int]]:
        """``assign_all`` in memory only (the file is written at the log's next flush);
        returns the entries before, for the caller to ``restore`` if its append is undone."""
        before = entries = self.entries
        for epoch, start_offset in pairs:
            entries = assigned(entries, epoch, start_offset)
        if entries is not before:
            self.entries = entries
            self.dirty = True
        return before

    def restore(self, entries: list[tuple[int, int]]) -> None:
        """Undo an ``assign_deferred`` whose append was undone (memory only, as it was)."""
        self.entries = entries

    def flush_if_dirty(self, batch=None) -> None:
        """Write the entries ``assign_deferred`` left in memory only (OSError: still dirty).

        ``batch``: a clean shutdown's ``SyncBatch``, which makes the file durable later."""
        if self.dirty:
            self._write(self.entries, batch)

    def end_offset_for(self, epoch: int, log_end_offset: int) -> tuple[int, int]:
        """(largest epoch <= ``epoch``, its end offset) as OffsetForLeaderEpoch answers.

        An epoch older than every known one answers (that epoch, the first known epoch's start
        offset), as Kafka's ``LeaderEpochFileCache.endOffsetFor`` does: a follower whose last
        epoch the leader never saw (say a former leader of an empty partition, epoch 0, under a
        new leader whose cache starts at epoch 1) is told where the leader's history begins and
        fetches on. Answering UNDEFINED there made the leader answer its every Fetch with
        OFFSET_OUT_OF_RANGE, so it never counted as caught up and never rejoined the ISR."""
        if not self.entries or epoch < 0:
            return UNDEFINED_EPOCH, UNDEFINED_OFFSET
        if epoch < self.entries[0][0]:
            return epoch, self.entries[0][1]
        if epoch >= self.latest_epoch:
            return self.latest_epoch, log_end_offset
        i = bisect_right([e for e, _ in self.entries], epoch)
        return self.entries[i - 1][0], self.entries[i][1]

    def truncate_from_end(self, end_offset: int) -> None:
        """Drop epochs starting at or after ``end_offset`` (the log was truncated there)."""
        keep = [e for e in self.entries if e[1] < end_offset]
        if keep != self.entries:
            self._write(keep)

    def truncate_from_start(self, start_offset: int) -> None:
        """The log now starts at ``start_offset``: the epoch covering it starts there."""
        i = bisect_right([o for _, o in self.entries], start_offset)
        if i == 0 or (i == 1 and self.entries[0][1] == start_offset):
            return
        epoch = self.entries[i - 1][0]
        self._write([(epoch, start_offset)] + self.entries[i:])

    def clear(self) -> None:
        if self.entries:
            self._write([])

    def _write(self, entries: list[tuple[int, int]], batch=None) -> None:
        """Make ``entries`` the cache's, file first: on OSError nothing changes."""
        faults.check("leader_epoch")
        write_epochs(self.path, entries, batch)
        self.entries = entries
        self.dirty = False

    def flush(self) -> None:
        self._write(self.entries)
