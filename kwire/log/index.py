"""Sparse offset and time indexes of one segment, in memory and in Kafka's file layout.

``.index`` (offset index), 8 bytes per entry, big-endian::

    0  int32  relative offset   last offset of a batch - segment base offset
    4  int32  position          byte position of that batch in the .log file

``.timeindex`` (time index), 12 bytes per entry, big-endian::

    0  int64  timestamp         largest timestamp in the segment so far
    8  int32  relative offset   last offset of the batch that holds that timestamp

Both indexes are kept in ``array`` objects (bisect works on them) and appended
to their files as entries are added; the files hold exactly the entries, with
no preallocated tail (Kafka preallocates ``segment.index.bytes`` and trims on
roll; the byte layout of the entries is the same, so Kafka's DumpLogSegments can
read ours). The segment decides *when* to add entries (every
``index.interval.bytes`` of log, see ``segment.py``).

Invariants: relative offsets and positions strictly increase in the offset
index; timestamps strictly increase in the time index and offsets never
decrease. ``load`` refuses a file that breaks them (or is not a whole number of
entries), and the caller rebuilds the index from the log.

Not here: deciding consistency with the log beyond "positions inside the
file" (recovery's job), memory-mapping, lazy loading.
"""

from __future__ import annotations

import os
import struct
from array import array
from bisect import bisect_right

_OFF = struct.Struct(">ii")
_TIME = struct.Struct(">qi")


class _IndexFile:
    """Append-only file of fixed-size entries, opened lazily for writing."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self._dirty = False

    def _append(self, data: bytes) -> None:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(self._fd, data)
        self._dirty = True

    def _rewrite(self, data: bytes) -> None:
        """Replace the whole file (after a rebuild or truncation) and fsync it."""
        self.close()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        self._dirty = False

    def flush(self) -> None:
        if self._fd is not None and self._dirty:
            os.fsync(self._fd)
            self._dirty = False

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def delete(self) -> None:
        self.close()
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    def rename(self, path: str) -> None:
        self.close()
        if os.path.exists(self.path):
            os.replace(self.path, path)
        self.path = path


class OffsetIndex(_IndexFile):
    ENTRY_SIZE = 8

    def __init__(self, path: str, base_offset: int, max_entries: int) -> None:
        super().__init__(path)
        self.base_offset = base_offset
        self.max_entries = max_entries
        self.rel = array("i")
        self.pos = array("i")

    def __len__(self) -> int:
        return len(self.rel)

    @property
    def is_full(self) -> bool:
        return len(self.rel) >= self.max_entries

    @property
    def last_position(self) -> int:
        return self.pos[-1] if self.pos else 0

    def append(self, offset: int, position: int) -> None:
        rel = offset - self.base_offset
        if self.rel and (rel <= self.rel[-1] or position <= self.pos[-1]):
            raise ValueError(f"{self.path}: entry ({offset}, {position}) does not follow "
                             f"({self.base_offset + self.rel[-1]}, {self.pos[-1]})")
        self.rel.append(rel)
        self.pos.append(position)
        self._append(_OFF.pack(rel, position))

    def lookup(self, offset: int) -> int:
        """Position of the last indexed batch ending at or before ``offset`` (0 if none)."""
        i = bisect_right(self.rel, offset - self.base_offset) - 1
        return self.pos[i] if i >= 0 else 0

    def floor_position(self, position: int) -> int:
        """Largest indexed batch position <= ``position`` (0 if none): a batch boundary."""
        i = bisect_right(self.pos, position) - 1
        return self.pos[i] if i >= 0 else 0

    def reset(self, entries: list[tuple[int, int]]) -> None:
        """Replace every entry with ``entries`` (absolute offset, position) and rewrite the file."""
        self.rel = array("i", [o - self.base_offset for o, _ in entries])
        self.pos = array("i", [p for _, p in entries])
        self._rewrite(b"".join(_OFF.pack(r, p) for r, p in zip(self.rel, self.pos)))

    def truncate_to_position(self, size: int) -> None:
        """Drop entries pointing at or past ``size`` (the log was cut there)."""
        n = bisect_right(self.pos, size - 1)
        if n < len(self.pos):
            self.reset([(self.base_offset + r, p) for r, p in zip(self.rel[:n], self.pos[:n])])

    @classmethod
    def load(cls, path: str, base_offset: int, max_entries: int, log_size: int):
        """The index stored at ``path``, or None when missing or inconsistent."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        if len(data) % cls.ENTRY_SIZE:
            return None
        idx = cls(path, base_offset, max_entries)
        last_rel = last_pos = -1
        for rel, pos in _OFF.iter_unpack(data):
            if rel <= last_rel or pos <= last_pos or pos >= log_size or rel < 0:
                return None
            last_rel, last_pos = rel, pos
            idx.rel.append(rel)
            idx.pos.append(pos)
        return idx


class TimeIndex(_IndexFile):
    ENTRY_SIZE = 12

    def __init__(self, path: str, base_offset: int, max_entries: int) -> None:
        super().__init__(path)
        self.base_offset = base_offset
        self.max_entries = max_entries
        self.ts = array("q")
        self.rel = array("i")

    def __len__(self) -> int:
        return len(self.ts)

    @property
    def is_full(self) -> bool:
        return len(self.ts) >= self.max_entries

    @property
    def last_entry(self) -> tuple[int, int]:
        """(timestamp, offset) of the last entry, or (-1, base_offset) when empty."""
        if not self.ts:
            return -1, self.base_offset
        return self.ts[-1], self.base_offset + self.rel[-1]

    def maybe_append(self, timestamp: int, offset: int) -> bool:
        """Add (timestamp, offset) if the timestamp grew since the last entry (Kafka's rule)."""
        if self.ts and timestamp <= self.ts[-1]:
            return False
        rel = offset - self.base_offset
        if self.rel and rel < self.rel[-1]:
            return False
        self.ts.append(timestamp)
        self.rel.append(rel)
        self._append(_TIME.pack(timestamp, rel))
        return True

    def lookup(self, timestamp: int) -> int:
        """Offset of the last entry with timestamp <= ``timestamp`` (base offset if none).

        Every record before that entry's batch has a timestamp <= the entry's,
        so a search for the first record >= ``timestamp`` may start there.
        """
        i = bisect_right(self.ts, timestamp) - 1
        return self.base_offset + self.rel[i] if i >= 0 else self.base_offset

    def reset(self, entries: list[tuple[int, int]]) -> None:
        self.ts = array("q", [t for t, _ in entries])
        self.rel = array("i", [o - self.base_offset for _, o in entries])
        self._rewrite(b"".join(_TIME.pack(t, r) for t, r in zip(self.ts, self.rel)))

    def truncate_to_offset(self, next_offset: int) -> None:
        """Drop entries for offsets >= ``next_offset``."""
        n = bisect_right(self.rel, next_offset - 1 - self.base_offset)
        if n < len(self.rel):
            self.reset([(t, self.base_offset + r) for t, r in zip(self.ts[:n], self.rel[:n])])

    @classmethod
    def load(cls, path: str, base_offset: int, max_entries: int):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        if len(data) % cls.ENTRY_SIZE:
            return None
        idx = cls(path, base_offset, max_entries)
        last_ts, last_rel = None, -1
        for ts, rel in _TIME.iter_unpack(data):
            if (last_ts is not None and ts <= last_ts) or rel < last_rel or rel < 0:
                return None
            last_ts, last_rel = ts, rel
            idx.ts.append(ts)
            idx.rel.append(rel)
        return idx
