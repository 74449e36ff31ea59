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
entries), and the caller rebuilds the index from the log. An entry reaches the
file before memory: a failed write (cut back to the last whole entry) leaves
memory as it was, and memory never holds an entry the file lacks.
``truncate_entries`` undoes appends (the segment's rollback).

Not here: deciding consistency with the log beyond "positions inside the
file" (recovery's job), memory-mapping, lazy loading (the segment decides
when to ``load``).
"""

from __future__ import annotations

import errno
import os
import struct
from array import array
from bisect import bisect_right

from . import faults
from .checkpoint import read_small, write_all
from .files import O_APPEND_WO, CachedFile, open_fd

_OFF = struct.Struct(">ii")
_TIME = struct.Struct(">qi")


class _IndexFile:
    """Append-only file of fixed-size entries, opened lazily for writing.

    The append descriptor is a ``CachedFile`` (files.py): the broker's file
    cache may close it while idle and it reopens on the next append or flush.
    """

    SITE = ""  # fault-injection site name (faults.py)
    ENTRY_SIZE = 0

    def __init__(self, path: str) -> None:
        self.path = path
        self._file: CachedFile | None = None  # the append descriptor, once written to
        self._dirty = False

    @property
    def _fd(self) -> int | None:
        """The append descriptor if it is open at this moment (the cache may close it later)."""
        f = self._file
        return None if f is None else f._fd

    def _append_fd(self) -> int:
        f = self._file
        if f is None:
            f = self._file = CachedFile(self.path, O_APPEND_WO, create=True)
        return f.fileno()

    def _append(self, data: bytes) -> None:
        """Write one entry at the end. On OSError the file is cut back to the entries
        already held (best effort; the segment's rollback checks again)."""
        fd = self._append_fd()
        try:
            faults.check(self.SITE)
            if os.write(fd, data) != len(data):  # only on a full disk
                raise OSError(errno.ENOSPC, f"short write to {self.path}")
        except OSError as e:
            try:
                os.ftruncate(fd, len(self) * self.ENTRY_SIZE)
            except OSError:
                pass
            if e.filename is None:  # name the file: the log shows which write failed
                raise OSError(e.errno, e.strerror, self.path) from e
            raise
        self._dirty = True

    def __len__(self) -> int:
        raise NotImplementedError

    def _trim_entries(self, n: int) -> None:
        raise NotImplementedError

    def truncate_entries(self, n: int) -> None:
        """Keep only the first ``n`` entries, in memory and in the file (rollback of an append).

        The file is cut first: if that fails (OSError) memory still describes
        what the file may hold, and the caller takes the log dir offline.
        """
        faults.check("truncate")
        size = n * self.ENTRY_SIZE
        try:
            if self._fd is not None:
                os.ftruncate(self._fd, size)
            else:
                os.truncate(self.path, size)
        except FileNotFoundError:
            if size:
                raise
        self._trim_entries(n)

    def _rewrite(self, data: bytes) -> None:
        """Replace the whole file (after a rebuild or truncation) and fsync it."""
        self.close()
        faults.check(self.SITE)
        fd = open_fd(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        self._dirty = False

    def flush(self, batch=None) -> None:
        """fsync unwritten entries (``batch``: note the file for the clean shutdown's sync)."""
        if self._file is not None and self._dirty:
            faults.check("flush")
            if batch is not None:
                batch.fsync_later(self.path)
            else:
                # reopened if the cache closed it: fsync covers writes made through any descriptor
                os.fsync(self._file.fileno())
            self._dirty = False

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

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
    SITE = "offset_index"

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
        self._append(_OFF.pack(rel, position))  # file first: a failed write leaves memory alone
        self.rel.append(rel)
        self.pos.append(position)

    def _trim_entries(self, n: int) -> None:
        del self.rel[n:]
        del self.pos[n:]

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
            data = read_small(path)
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
    SITE = "time_index"

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
        self._append(_TIME.pack(timestamp, rel))
        self.ts.append(timestamp)
        self.rel.append(rel)
        return True

    def _trim_entries(self, n: int) -> None:
        del self.ts[n:]
        del self.rel[n:]

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

    @classmethod
    def load(cls, path: str, base_offset: int, max_entries: int):
        try:
            data = read_small(path)
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
