"""One log segment: a ``.log`` file of record batches plus its sparse indexes.

Files of the segment with base offset 1200, in ``<log dir>/<topic>-<partition>/``::

    00000000000000001200.log        batches exactly as on the wire, offsets assigned
    00000000000000001200.index      offset index  (see index.py)
    00000000000000001200.timeindex  time index    (see index.py)

A ``.log`` file is a sequence of v2 batches back to back (layout drawn in
``kwire.records.batch``); the segment never looks past a batch's 61-byte
header. Every ``index.interval.bytes`` of log it adds an offset-index entry
(last offset of the batch, position of the batch) and, if the segment's
largest timestamp grew, a time-index entry (largest timestamp so far, last
offset of the batch holding it) -- Kafka's rules in ``LogSegment.append``.
When the segment stops being the active one, a final time-index entry records
its largest timestamp so that reopening needs no scan.

Reads are by position: ``find_batch`` starts at the offset index and scans
headers forward with small read-ahead ``pread`` calls; ``read`` returns one
``FileRegion`` of whole batches. Nothing here decodes records. The headers of
the last ``TAIL_BATCHES`` batches appended by this process are kept in memory
(``_tail``), so a caught-up consumer, whose fetch offset is almost always one
of them, is answered without any file read or scan.

Invariants: ``size`` is the file size and ends on a batch boundary (recovery
truncates torn tails before a segment is used); ``next_offset`` is one past the
last batch's last offset (``base_offset`` when empty); every index position is
a batch start. The file is opened O_APPEND, so writes always land at the end.

Opening (``load_trusted``): a segment of at most ``SMALL_SEGMENT_BYTES`` is read
once and scanned whole in memory; its indexes are read on first use
(``offset_index`` / ``time_index``, Kafka's LazyIndex), checked against the log
then and rebuilt if missing or inconsistent. Every path that changes the
segment uses them first, so they are checked against the log that was
scanned. With 50,000 one-segment partitions this keeps two file reads per
partition off the start-up.

Descriptors: the ``.log`` file and the indexes' append descriptors are
``CachedFile``s (``files.py``), opened on first use through the broker's
bounded file cache and closed by it when they have been idle longest, so an
idle partition holds no descriptor; a ``FileRegion`` pins the ``.log``
descriptor until it is sent.

Appends are all or nothing (``append``, ``mark`` / ``rollback``): if the log
write or an index entry fails, the .log and both index files are cut back to
where they were and every field restored, so the invariants above hold after
any OSError; when the cut itself fails the segment raises ``LogDirFailure``
and its log dir goes offline. Every write site calls ``faults.check`` (tests).

Not here: validation, offset assignment, rolling decisions, CRC checks
(``recovery.py`` and ``partition_log.py`` do those).
"""

from __future__ import annotations

import logging
import os
from bisect import bisect_left
from collections import deque
from functools import cached_property
from typing import Iterator

from kwire.records.batch import HEADER_SIZE, LOG_OVERHEAD, BatchHeader, read_header

from . import faults
from .config import LogConfig
from .index import OffsetIndex, TimeIndex
from .files import create_empty
from .region import FileRegion, SegmentFile

log = logging.getLogger("kwire.log")

INT32_MAX = (1 << 31) - 1
READ_AHEAD = 8192  # bytes fetched per pread while scanning small batches
TAIL_BATCHES = 32  # recently appended batch headers kept for find_batch
# a segment up to this size is scanned whole at start-up and its indexes read on first use
SMALL_SEGMENT_BYTES = READ_AHEAD
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)


def file_name(base_offset: int, suffix: str) -> str:
    return f"{base_offset:020d}{suffix}"


def _fsync(fd: int) -> None:
    faults.check("flush")
    (getattr(os, "fdatasync", None) or os.fsync)(fd)


class LogDirFailure(Exception):
    """A write failed and undoing it failed too: files and memory may disagree.

    The partition log reports it to the log manager, which takes the whole log
    dir offline (Kafka's LogDirFailureChannel). ``cause`` is the first error.
    """

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause


class LogSegment:
    def __init__(self, dir: str, base_offset: int, config: LogConfig, created_ms: int) -> None:
        """A segment by name; nothing is opened or read (``create``, ``load_trusted`` or
        ``recovery.recover_segment`` set ``size`` and the stats)."""
        self.dir = dir
        self.base_offset = base_offset
        self._stem = stem = f"{dir}/{base_offset:020d}"  # no os.path.join: start-up makes 50,000
        self.log_path = stem + ".log"
        self.file = SegmentFile(self.log_path, "a+b")
        self.max_index_entries = config.max_index_entries
        self.max_time_index_entries = config.max_time_index_entries
        # offset_index / time_index: loaded on first use (``_load_indexes``) unless set here
        self.index_interval_bytes = config.index_interval_bytes
        self.created_ms = created_ms
        self.size = 0
        self.next_offset = base_offset
        self.max_timestamp = -1
        self.offset_of_max_timestamp = -1
        self.first_batch_timestamp: int | None = None  # for segment.ms (Kafka: rollingBasedTimestamp)
        self.bytes_since_last_index_entry = 0
        self._dirty = False
        # (last offset, position, header) of the latest appended batches, oldest first
        self._tail: deque = deque(maxlen=TAIL_BATCHES)

    @property
    def index_path(self) -> str:
        return self._stem + ".index"

    @property
    def timeindex_path(self) -> str:
        return self._stem + ".timeindex"

    # -- the indexes, read on first use (Kafka's LazyIndex) ----------------------
    # functools.cached_property: once set, the attribute is a plain instance attribute (no
    # cost on the append path); until then the first access reads both files.
    @cached_property
    def offset_index(self) -> OffsetIndex:
        self._load_indexes()
        return self.__dict__["offset_index"]

    @cached_property
    def time_index(self) -> TimeIndex:
        self._load_indexes()
        return self.__dict__["time_index"]

    @property
    def indexes_loaded(self) -> bool:
        return "offset_index" in self.__dict__

    def _loaded_indexes(self) -> tuple:
        """The index objects already in memory (none of a segment whose indexes were not used)."""
        d = self.__dict__
        return tuple(x for x in (d.get("offset_index"), d.get("time_index")) if x is not None)

    def _new_indexes(self) -> None:
        self.offset_index = OffsetIndex(self.index_path, self.base_offset, self.max_index_entries)
        self.time_index = TimeIndex(self.timeindex_path, self.base_offset, self.max_time_index_entries)

    def _load_indexes(self) -> None:
        """First use of indexes left on disk by ``load_trusted``: read and check them against
        the log (positions inside it, no entry past its end), else rebuild them from the batch
        headers. Runs before anything changes the segment (every write path uses them first),
        so the log is still the one ``load_trusted`` scanned."""
        oi = OffsetIndex.load(self.index_path, self.base_offset, self.max_index_entries, self.size)
        ti = TimeIndex.load(self.timeindex_path, self.base_offset, self.max_time_index_entries)
        if oi is None or ti is None or (len(oi) and oi.base_offset + oi.rel[-1] >= self.next_offset) \
                or (len(ti) and ti.last_entry[1] >= self.next_offset):
            log.info("rebuilding indexes of %s (missing or inconsistent)", self.log_path)
            self.rebuild()
            return
        self.offset_index, self.time_index = oi, ti
        self.bytes_since_last_index_entry = self.size - oi.last_position

    # -- creation -------------------------------------------------------------
    @classmethod
    def create(cls, dir: str, base_offset: int, config: LogConfig, now_ms: int) -> "LogSegment":
        """A new, empty segment (stale files of the same name are removed first).

        Raises OSError with no file of the new segment left behind (best effort).
        """
        paths = [os.path.join(dir, file_name(base_offset, suffix))
                 for suffix in (".log", ".index", ".timeindex")]
        for path in paths:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        seg = None
        try:
            faults.check("segment_create")
            seg = cls(dir, base_offset, config, now_ms)
            seg.size = os.fstat(seg.file.fileno()).st_size  # creates the .log file
            seg._new_indexes()
            for path in (seg.index_path, seg.timeindex_path):
                create_empty(path)  # empty indexes are valid; reopening need not rebuild
        except OSError:
            if seg is not None:
                seg.close()
            for path in paths:
                try:
                    os.unlink(path)
                except OSError:
                    pass
            raise
        return seg

    def __repr__(self) -> str:
        return (f"LogSegment(base_offset={self.base_offset}, size={self.size}, "
                f"next_offset={self.next_offset})")

    @property
    def is_empty(self) -> bool:
        return self.size == 0

    # -- appending ------------------------------------------------------------
    def append(self, data, batches: list[tuple[int, int, int, int]], mark: tuple | None = None,
               headers: list | None = None) -> int:
        """Write ``data`` (whole batches, offsets assigned) with one write; index it.

        ``batches`` holds (position in data, size, last offset, max timestamp)
        per batch; ``headers`` (optional) their ``BatchHeader``s as written, else
        they are read back from ``data``. Returns the file position the data starts at.

        All or nothing: on an OSError from the log or an index write, the log
        and both index files are cut back and every field restored
        (``rollback``), then the OSError is raised. If the cut itself fails,
        ``LogDirFailure`` is raised instead. ``mark`` is ``self.mark()`` if the
        caller already took it (to undo later steps of its own).
        """
        fd = self.file.fileno()
        start = self.size
        view = data if type(data) is memoryview else memoryview(data)
        if mark is None:
            mark = self.mark()
        try:
            faults.check("log")
            try:
                n = os.write(fd, view)
                while n < len(view):  # short writes only happen on a full disk or a signal
                    n += os.write(fd, view[n:])
            except OSError as e:  # name the file: the log shows which write failed
                raise OSError(e.errno, e.strerror, self.log_path) from e
            self.size = start + len(view)
            self._dirty = True
            tail = self._tail
            if headers is None:
                headers = [read_header(view, b[0]) for b in batches]
            for (rel, size, last_offset, max_ts), h in zip(batches, headers):
                self.track(start + rel, size, last_offset, max_ts)
                tail.append((last_offset, start + rel, h))
        except Exception as e:  # OSError, or a bug: either way the bytes must not stay
            self.rollback(mark, e)
            raise
        return start

    def mark(self) -> tuple:
        """What an append or a roll changes here, for ``rollback``."""
        oi, ti = self.offset_index, self.time_index  # first: loading them sets the byte count
        return (self.size, self.next_offset, self.max_timestamp, self.offset_of_max_timestamp,
                self.first_batch_timestamp, self.bytes_since_last_index_entry,
                len(oi.rel), len(ti.ts))  # their entry counts

    def rollback(self, mark: tuple, cause: BaseException | None = None) -> None:
        """Return to ``mark``: cut the .log and both index files back, restore the stats.

        The header cache is dropped (it is a cache; reads fall back to the
        index). Raises ``LogDirFailure`` if a file cannot be cut back or is
        not the expected size afterwards.
        """
        size, next_offset, max_ts, off_max_ts, first_ts, since_entry, n_oi, n_ti = mark
        self._tail.clear()
        try:
            faults.check("truncate")
            fd = self.file.fileno()
            os.ftruncate(fd, size)
            self.offset_index.truncate_entries(n_oi)
            self.time_index.truncate_entries(n_ti)
            actual = os.fstat(fd).st_size
            if actual != size:
                raise OSError(f"{self.log_path} is {actual} bytes after cutting it to {size}")
        except OSError as e:
            raise LogDirFailure(f"could not undo a failed write to {self.log_path}: {e}"
                                f" (the write failed with: {cause})", cause or e) from e
        self.size = size
        self.next_offset = next_offset
        self.max_timestamp = max_ts
        self.offset_of_max_timestamp = off_max_ts
        self.first_batch_timestamp = first_ts
        self.bytes_since_last_index_entry = since_entry
        self._dirty = True  # the cut itself is a change worth an fsync

    def track(self, position: int, size: int, last_offset: int, max_timestamp: int) -> None:
        """Account for one batch at ``position``: stats and sparse index entries."""
        if self.first_batch_timestamp is None:
            self.first_batch_timestamp = max_timestamp
        if max_timestamp > self.max_timestamp:
            self.max_timestamp = max_timestamp
            self.offset_of_max_timestamp = last_offset
        if self.bytes_since_last_index_entry > self.index_interval_bytes:
            self.offset_index.append(last_offset, position)
            self.time_index.maybe_append(self.max_timestamp, self.offset_of_max_timestamp)
            self.bytes_since_last_index_entry = 0
        self.bytes_since_last_index_entry += size
        self.next_offset = last_offset + 1

    def reset_stats(self) -> None:
        self._tail.clear()
        self.next_offset = self.base_offset
        self.max_timestamp = -1
        self.offset_of_max_timestamp = -1
        self.first_batch_timestamp = None
        self.bytes_since_last_index_entry = 0

    def reset_indexes(self) -> None:
        """Forget both indexes and their files (before a rebuild); unread ones are not read."""
        self._delete_index_files(keep_empty=True)
        self._new_indexes()

    def _delete_index_files(self, keep_empty: bool = False) -> None:
        """Remove both index files. ``keep_empty`` (before a rebuild): an empty one stays, as
        it already says "no entries"; recovering 50,000 one-batch partitions would otherwise
        unlink and re-create 100,000 empty files, on a disk most of a restart after kill -9."""
        for idx in self._loaded_indexes():
            idx.close()
        for path in (self.index_path, self.timeindex_path):
            try:
                if not keep_empty or os.stat(path).st_size:
                    os.unlink(path)
            except FileNotFoundError:
                pass

    def rebuild(self) -> int:
        """Recompute stats and both indexes from batch headers (no CRC check).

        Returns where the last complete batch ends (``size`` for a sound file).
        """
        self.reset_stats()
        self.reset_indexes()
        end = 0
        for pos, h in self.iter_batches(0):
            self.track(pos, h.size, h.base_offset + h.last_offset_delta, h.max_timestamp)
            end = pos + h.size
        self.offset_index.flush()
        self.time_index.flush()
        for idx in (self.offset_index, self.time_index):
            if not os.path.exists(idx.path):
                create_empty(idx.path)
        return end

    def load_trusted(self) -> bool:
        """Open a segment believed intact; False if it needs recovery (``recover_segment``).

        The size and the first ``SMALL_SEGMENT_BYTES`` come from one read. A segment that
        small (every partition with little data: the common case with many partitions) is
        scanned from its first batch in memory, and its indexes stay on disk until first
        use (``_load_indexes``), as Kafka's LazyIndex. A larger one loads its indexes now,
        and only the batches after the last offset-index entry are scanned. Either way the
        headers scanned fill the header cache, so a reader of the latest batches needs no
        index. The segment must end on a batch boundary, or it goes to recovery."""
        fd = os.open(self.log_path, _READ_FLAGS)
        try:
            head = os.read(fd, SMALL_SEGMENT_BYTES + 1)
            # a regular file reads short only at its end
            self.size = len(head) if len(head) <= SMALL_SEGMENT_BYTES else os.fstat(fd).st_size
        finally:
            os.close(fd)
        self.reset_stats()
        if self.size <= SMALL_SEGMENT_BYTES:
            for name in ("offset_index", "time_index"):
                self.__dict__.pop(name, None)  # read on first use
            return self._scan(self.iter_batches(0, self.size, head), 0) == self.size
        oi = OffsetIndex.load(self.index_path, self.base_offset, self.max_index_entries, self.size)
        ti = TimeIndex.load(self.timeindex_path, self.base_offset, self.max_time_index_entries)
        if oi is None or ti is None:
            log.info("rebuilding indexes of %s (missing or inconsistent)", self.log_path)
            return self.rebuild() == self.size
        self.offset_index, self.time_index = oi, ti
        self.max_timestamp, self.offset_of_max_timestamp = ti.last_entry if len(ti) else (-1, -1)
        start = oi.last_position
        if start and len(head) >= HEADER_SIZE:  # the first batch: for segment.ms
            self.first_batch_timestamp = read_header(head).max_timestamp
        end = self._scan(self.iter_batches(start), start)
        self.bytes_since_last_index_entry = end - start
        if end != self.size:
            return False
        if (len(oi) and oi.base_offset + oi.rel[-1] >= self.next_offset) or \
                (len(ti) and ti.last_entry[1] >= self.next_offset):
            log.info("rebuilding indexes of %s (entries beyond the log end)", self.log_path)
            self.rebuild()
        return True

    def _scan(self, batches, start: int) -> int:
        """Stats and header cache from ``batches`` ((position, header) from ``start`` to the
        end); returns where the last whole batch ends."""
        end = start
        tail = self._tail
        for pos, h in batches:
            if pos == 0:
                self.first_batch_timestamp = h.max_timestamp
            last_offset = h.base_offset + h.last_offset_delta
            if h.max_timestamp > self.max_timestamp:
                self.max_timestamp, self.offset_of_max_timestamp = h.max_timestamp, last_offset
            self.next_offset = last_offset + 1
            end = pos + LOG_OVERHEAD + h.batch_length
            tail.append((last_offset, pos, h))
        return end

    # -- reading --------------------------------------------------------------
    def iter_batches(self, start: int, end: int | None = None,
                     head: bytes = b"") -> Iterator[tuple[int, BatchHeader]]:
        """(position, header) of each complete batch in [start, end), by header reads only.

        Stops at the first batch that does not fit or has an impossible length.
        Reads ahead ``READ_AHEAD`` bytes while batches are small, so scanning
        many small batches costs few system calls. ``head``: the file's first bytes, if
        the caller read them (nothing they cover is read again).
        """
        if end is None:
            end = self.size
        pos = start
        buf = head  # the caller's read of the file's first bytes, if any
        buf_start = 0
        last_size = 0
        while end - pos >= HEADER_SIZE:
            off = pos - buf_start
            if off + HEADER_SIZE > len(buf):
                want = HEADER_SIZE if last_size >= READ_AHEAD else min(READ_AHEAD, end - pos)
                # fileno() per read: the caller may open other files between batches,
                # and the file cache may then have closed this one (files.py)
                buf = os.pread(self.file.fileno(), want, pos)
                buf_start, off = pos, 0
                if len(buf) < HEADER_SIZE:
                    return
            h = read_header(buf, off)
            last_size = LOG_OVERHEAD + h.batch_length
            if h.batch_length < HEADER_SIZE - LOG_OVERHEAD or pos + last_size > end:
                return
            yield pos, h
            pos += last_size

    def read_header_at(self, position: int) -> BatchHeader | None:
        data = os.pread(self.file.fileno(), HEADER_SIZE, position)
        return read_header(data) if len(data) == HEADER_SIZE else None

    def read_bytes(self, position: int, size: int) -> bytes:
        return FileRegion(self.file, position, size).read()

    def find_batch(self, offset: int, start: int | None = None) -> tuple[int, BatchHeader] | None:
        """The first batch whose last offset is >= ``offset`` (the batch holding it, or the next)."""
        tail = self._tail
        if tail and offset > tail[0][0] - tail[0][2].last_offset_delta - 1:
            # offset lies at or after the oldest cached batch's base: the answer is cached. Search
            # from the newest (a caught-up consumer's batch is the last or nearly): the answer
            # is the oldest cached batch whose last offset is >= offset
            found = None
            for entry in reversed(tail):
                if entry[0] < offset:
                    break
                found = entry
            if found is None:
                return None
            _, p, h = found
            return (p, h) if start is None or start <= p else self._scan_from(offset, start)
        return self._scan_from(offset, start)

    def _scan_from(self, offset: int, start: int | None):
        pos = self.offset_index.lookup(offset)
        if start is not None and start > pos:
            pos = start
        for p, h in self.iter_batches(pos):
            if h.base_offset + h.last_offset_delta >= offset:
                return p, h
        return None

    def position_of(self, offset: int, start: int = 0) -> int:
        """Where the batches with last offset >= ``offset`` begin (``size`` if none do)."""
        if offset >= self.next_offset:
            return self.size
        found = self.find_batch(offset, start)
        return found[0] if found else self.size

    def batch_end_before(self, start: int, limit: int) -> int:
        """End of the last whole batch in [start, limit]; ``start`` if even the first is larger.

        ``start`` must be a batch boundary. The offset index narrows the scan to
        at most ``index.interval.bytes`` of headers.
        """
        if limit >= self.size:
            return self.size
        pos = max(start, self.offset_index.floor_position(limit))
        end = pos
        for p, h in self.iter_batches(pos, limit):
            end = p + h.size
        return end

    def read(self, offset: int, max_bytes: int, max_offset: int, min_one_batch: bool):
        """(FileRegion, first batch base offset) of whole batches from the one holding ``offset``.

        Only batches whose last offset is below ``max_offset`` are included;
        the total stays within ``max_bytes`` except that the first batch is
        returned whole when ``min_one_batch``. None when nothing qualifies.
        """
        found = self.find_batch(offset)
        if found is None:
            return None
        pos, h = found
        if h.base_offset + h.last_offset_delta >= max_offset:
            return None
        bound = self.position_of(max_offset, pos)
        limit = pos + max(max_bytes, 0)
        end = bound if limit >= bound else self.batch_end_before(pos, limit)
        if end == pos:
            if not min_one_batch:
                return None
            end = pos + h.size
        return FileRegion(self.file, pos, end - pos), h.base_offset

    # -- housekeeping ---------------------------------------------------------
    def largest_timestamp(self) -> int:
        """For retention.ms: the largest record timestamp, else the file's mtime (Kafka's rule)."""
        if self.max_timestamp > 0:
            return self.max_timestamp
        try:
            return int(os.stat(self.log_path).st_mtime * 1000)
        except FileNotFoundError:
            return self.created_ms

    def on_become_inactive(self) -> None:
        """Record the final largest timestamp in the time index and make everything durable."""
        if self.max_timestamp >= 0:
            self.time_index.maybe_append(self.max_timestamp, self.offset_of_max_timestamp)
        self.flush()

    def flush(self, batch=None) -> None:
        """fsync unflushed writes and indexes (``batch``: a clean shutdown's ``SyncBatch``
        notes them instead, and its commit makes them durable)."""
        if self._dirty:
            if batch is not None:
                faults.check("flush")
                batch.fsync_later(self.log_path)
            else:
                _fsync(self.file.fileno())
            self._dirty = False
        for idx in self._loaded_indexes():  # an index never loaded has nothing unwritten
            idx.flush(batch)

    def truncation_mark(self, offset: int) -> tuple:
        """The ``mark()`` this segment would have had if it ended before the batch holding
        ``offset``: ``rollback(truncation_mark(o))`` truncates there (replication).

        Reads batch headers up to the cut (and no more); nothing is written.
        """
        position = self.position_of(offset)
        next_offset = self.base_offset
        max_ts, off_max_ts, first_ts = -1, -1, None
        for _pos, h in self.iter_batches(0, position):
            last = h.base_offset + h.last_offset_delta
            if first_ts is None:
                first_ts = h.max_timestamp
            if h.max_timestamp > max_ts:
                max_ts, off_max_ts = h.max_timestamp, last
            next_offset = last + 1
        oi, ti = self.offset_index, self.time_index
        n_oi = bisect_left(oi.pos, position)
        n_ti = bisect_left(ti.rel, next_offset - self.base_offset)
        since_entry = position - (oi.pos[n_oi - 1] if n_oi else 0)
        return (position, next_offset, max_ts, off_max_ts, first_ts, since_entry, n_oi, n_ti)

    def truncate_to_position(self, position: int) -> int:
        """Cut the log at ``position`` (a batch boundary); rebuild stats. Returns bytes removed."""
        removed = self.size - position
        if removed <= 0:
            return 0
        faults.check("truncate")
        os.ftruncate(self.file.fileno(), position)
        self.size = position
        self._dirty = True
        self.rebuild()
        return removed

    def close(self) -> None:
        """Close the descriptors (the .log one once no region pins it); used again, they reopen."""
        for idx in self._loaded_indexes():
            idx.close()
        self.file.release()

    def delete(self) -> None:
        """Unlink all files. Outstanding ``FileRegion``s keep reading the unlinked file."""
        self._delete_index_files()
        self.file.close()  # for good: a pinned descriptor closes when its last region goes
        try:
            os.unlink(self.log_path)
        except FileNotFoundError:
            pass
