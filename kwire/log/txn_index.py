"""The aborted-transaction index of one partition (Kafka's ``.txnindex``).

Every ABORT marker appended to a partition adds one entry: the producer id,
the first offset of the transaction it aborted, the marker's offset
(``last_offset``) and the partition's last stable offset at that moment.
read_committed fetches send the entries overlapping the fetched range
(``aborted_transactions``) so that consumers drop the aborted batches.

Files: one ``<20-digit base offset>.txnindex`` beside each segment that
holds an abort marker, entries in Kafka's format (version 0, big-endian)::

    0   2   version (0)
    2   8   producer_id
    10  8   first_offset
    18  8   last_offset
    26  8   last_stable_offset
            34 bytes per entry, appended in marker order

The whole index is also kept in memory (a list sorted by ``last_offset``;
aborted transactions are rare). Loading reads the files of the segments
that exist (files of deleted segments are removed) and drops entries at or
above the log end offset (a torn tail cut by recovery); the partition log
then replays the markers above the producer snapshot, which adds any entry a
crash lost (``add`` ignores an entry it already has). Entries below the log
start offset are skipped when reading; deleted segments take their files and
the entries below the new log start with them (``drop_segments``); truncation
drops the entries from the truncation offset on (rewriting the files).

This module does not decide what a marker is: the partition log does.
"""

from __future__ import annotations

import logging
import os
import re
import struct
from bisect import bisect_left
from typing import NamedTuple

from kwire.records.batch import HEADER_SIZE
from kwire.records.control import EndTxnMarker, parse_end_txn_marker
from kwire.records.decode import parse_records

from .checkpoint import read_small

log = logging.getLogger("kwire.log")

SUFFIX = ".txnindex"
_RE = re.compile(r"^(\d{20})\.txnindex$")
_ENTRY = struct.Struct(">hqqqq")
VERSION = 0


class AbortedTxn(NamedTuple):
    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int


def read_marker(h, batch: bytes) -> EndTxnMarker | None:
    """The COMMIT/ABORT marker (type, coordinator epoch) in the control batch ``batch``
    (whole, header ``h``); None for an empty control batch (the cleaner emptied it) or an
    unreadable one (logged). Control batches are never compressed, but a compressed one
    is read too."""
    try:
        from kwire.records.compression import NONE, decompress
        section = bytes(batch[HEADER_SIZE:])
        if h.attributes & 0x07 != NONE:
            section = decompress(h.attributes & 0x07, section, 1 << 20)
        records = parse_records(h, section)
        if not records:
            return None
        return parse_end_txn_marker(records[0].key, records[0].value)
    except Exception as e:  # CorruptRecordError and friends
        log.warning("unreadable control batch at offset %d: %s", h.base_offset, e)
        return None


def encode_entries(entries) -> bytes:
    """The file bytes of ``entries`` ((producer id, first, last, LSO) tuples), in order."""
    return b"".join(_ENTRY.pack(VERSION, *e) for e in entries)


def index_path(dir: str, base_offset: int) -> str:
    return os.path.join(dir, f"{base_offset:020d}{SUFFIX}")


class TxnIndex:
    def __init__(self, dir: str) -> None:
        self.dir = dir
        self.entries: list[AbortedTxn] = []  # sorted by last_offset
        self._lasts: list[int] = []
        self._segment_of: dict[int, int] = {}  # last_offset -> segment base offset

    def __len__(self) -> int:
        return len(self.entries)

    # -- loading --------------------------------------------------------------
    def load(self, segment_bases: list[int], log_end_offset: int,
             names: list[str] | None = None) -> None:
        """Read the ``.txnindex`` files of ``segment_bases`` (``names``: the directory's
        listing, if known); files of other segments are deleted."""
        files = [name for name in (os.listdir(self.dir) if names is None else names)
                 if name.endswith(SUFFIX)]
        if not files and not self.entries:  # the usual case: no aborted transaction
            return
        bases = set(segment_bases)
        found: list[tuple[AbortedTxn, int]] = []
        for name in files:
            m = _RE.match(name)
            if not m:
                continue
            base = int(m.group(1))
            path = os.path.join(self.dir, name)
            if base not in bases:
                try:
                    os.unlink(path)  # its segment is gone (retention, truncation)
                except OSError:
                    pass
                continue
            try:
                data = read_small(path)
            except OSError as e:
                log.warning("unreadable %s: %s", path, e)
                continue
            for pos in range(0, len(data) - _ENTRY.size + 1, _ENTRY.size):
                version, pid, first, last, lso = _ENTRY.unpack_from(data, pos)
                if version == VERSION and last < log_end_offset:
                    found.append((AbortedTxn(pid, first, last, lso), base))
        found.sort(key=lambda e: e[0].last_offset)
        self.entries = [e for e, _ in found]
        self._lasts = [e.last_offset for e in self.entries]
        self._segment_of = {e.last_offset: b for e, b in found}

    # -- updates --------------------------------------------------------------
    def add(self, entry: AbortedTxn, segment_base: int, persist: bool = True) -> None:
        """A new abort marker (idempotent: an entry already known is ignored)."""
        if entry.last_offset in self._segment_of:
            return
        i = bisect_left(self._lasts, entry.last_offset)
        self.entries.insert(i, entry)
        self._lasts.insert(i, entry.last_offset)
        self._segment_of[entry.last_offset] = segment_base
        if persist:
            try:
                with open(index_path(self.dir, segment_base), "ab") as f:
                    f.write(_ENTRY.pack(VERSION, *entry))
            except OSError as e:  # the log still holds the marker: recovery from the
                log.warning("could not write %s: %s", index_path(self.dir, segment_base), e)

    def truncate(self, offset: int) -> None:
        """Drop the entries whose marker is at or above ``offset`` (files rewritten)."""
        i = bisect_left(self._lasts, offset)
        if i == len(self.entries):
            return
        dropped = self.entries[i:]
        del self.entries[i:]
        del self._lasts[i:]
        touched = {self._segment_of.pop(e.last_offset) for e in dropped}
        for base in touched:
            keep = [e for e in self.entries if self._segment_of.get(e.last_offset) == base]
            path = index_path(self.dir, base)
            try:
                if keep:
                    with open(path, "wb") as f:
                        f.write(b"".join(_ENTRY.pack(VERSION, *e) for e in keep))
                else:
                    os.unlink(path)
            except OSError as e:
                log.warning("could not rewrite %s: %s", path, e)

    def clear(self) -> None:
        self.truncate(-1)

    def drop_segments(self, bases, log_start_offset: int) -> None:
        """Segments ``bases`` were deleted (retention, DeleteRecords): their files go, and the
        entries whose marker is below the new log start offset."""
        for base in bases:
            try:
                os.unlink(index_path(self.dir, base))
            except FileNotFoundError:
                pass
            except OSError as e:
                log.warning("could not delete %s: %s", index_path(self.dir, base), e)
        i = bisect_left(self._lasts, log_start_offset)
        for e in self.entries[:i]:
            self._segment_of.pop(e.last_offset, None)
        del self.entries[:i]
        del self._lasts[:i]

    # -- reading --------------------------------------------------------------
    def aborted_between(self, start: int, end: int) -> list[AbortedTxn]:
        """Aborted transactions overlapping [start, end): marker at or after ``start``,
        first offset below ``end`` (Kafka's collectAbortedTxns)."""
        out = []
        for e in self.entries[bisect_left(self._lasts, start):]:
            if e.first_offset < end:
                out.append(e)
        return out
