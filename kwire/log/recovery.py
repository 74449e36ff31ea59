"""Loading a partition directory at open: find segments, check them, cut torn tails.

``load_segments`` returns the partition's segments ready for use:

* an interrupted log-cleaner swap is finished (``cleaner_swap.recover``:
  a ``.log.swap`` replaces the segments it covers), then stray files are
  removed: ``*.tmp`` (an interrupted atomic write), Kafka-style ``*.deleted``
  / ``*.cleaned`` / ``*.swap``, the cleaner's ``*.cleanend`` markers, and
  indexes whose ``.log`` is gone;
* segments below the recovery point (everything there was fsynced together
  with its indexes, see ``PartitionLog.flush``) are trusted
  (``LogSegment.load_trusted``): their indexes are loaded from disk,
  sanity-checked, and rebuilt from batch headers when missing or
  inconsistent; only the tail after the last index entry is scanned to find
  the segment's end offset and largest timestamp (a small segment is scanned
  whole from one read and its indexes wait for their first use);
* from the segment holding the recovery point to the end, every batch is
  checked -- complete header, magic 2, sane length, offsets increasing, CRC-32C
  over the batch -- and the indexes are rebuilt. At the first bad batch the
  segment is truncated there and every later segment is deleted, each logged
  at WARNING with file, position and byte count. As in Kafka's ``LogLoader``,
  nothing recovered is fsynced here and the partition log leaves its recovery
  point where the checkpoint had it: the next flush makes the recovered
  segments durable and moves it.

After a clean shutdown (the log manager's ``.kwire_cleanshutdown`` marker) no
segment is CRC-checked; the last one is still scanned from its last index
entry, and a tail that does not end on a batch boundary sends it through full
recovery anyway. (A small one-segment log that the clean shutdown summarized does not come
here at all: ``summary.py``.)

The scan reads the file in chunks of ``CHUNK`` bytes with ``os.pread``; a batch
larger than a chunk is read on its own. Batches are validated, never decoded.

Not here: producer-state and leader-epoch rebuilding from scratch (the
partition log does it from the recovered segments), the HW/LSO (checkpoints).
"""

from __future__ import annotations

import logging
import os

from kwire.records.batch import HEADER_SIZE, LOG_OVERHEAD, MAGIC_V2, crc_is_valid, read_header

from . import cleaner_swap, faults
from .checkpoint import offsets_named
from .config import LogConfig
from .segment import INT32_MAX, LogSegment

log = logging.getLogger("kwire.log")

CHUNK = 1 << 20
_STRAY_SUFFIXES = (".tmp", ".deleted", ".cleaned", ".swap", ".cleanend")
_INDEX_SUFFIXES = (".index", ".timeindex")


def _strays(names: list[str]) -> list[str]:
    """The names of ``names`` that ``remove_stray_files`` removes.

    Start-up runs this once per partition directory, most of them holding a handful of
    names: string tests, no regular expression, and a set of the names only for a large
    directory."""
    out = []
    present = names if len(names) <= 32 else None
    for name in names:
        if name.endswith(_STRAY_SUFFIXES):
            out.append(name)
        elif name[20:] in _INDEX_SUFFIXES and name[:20].isdigit():
            if present is None:
                present = set(names)
            if name[:20] + ".log" not in present:  # an index whose segment is gone
                out.append(name)
    return out


def remove_stray_files(dir: str, names: list[str] | None = None) -> list[str]:
    """Finish an interrupted cleaner swap, remove stray files; returns the names left in ``dir``.

    The directory is listed once (twice only after a swap was finished), or not at all
    when the caller passes its listing ``names``: with tens of thousands of partitions,
    listing each directory is a large part of start-up."""
    if names is None:
        names = os.listdir(dir)
    strays = _strays(names)
    if not strays:  # the usual case: one pass over the names
        return names
    if any(name.endswith(".swap") for name in strays) and cleaner_swap.recover(dir, names):
        names = os.listdir(dir)
        strays = _strays(names)
    kept = set()
    for name in strays:
        log.info("removing stray file %s", os.path.join(dir, name))
        try:
            os.unlink(os.path.join(dir, name))
        except (FileNotFoundError, IsADirectoryError):
            kept.add(name)
    gone = set(strays) - kept
    return [name for name in names if name not in gone]


def segment_bases(dir: str, names: list[str] | None = None) -> list[int]:
    """Base offsets of the ``.log`` files in ``dir`` (``names``: its listing, if known)."""
    return offsets_named(os.listdir(dir) if names is None else names, ".log")


def load_segments(dir: str, config: LogConfig, now_ms: int, *, recovery_point: int,
                  clean_shutdown: bool, epochs=None,
                  names: list[str] | None = None) -> tuple[list[LogSegment], list[str]]:
    """Open, check and (if needed) recover every segment in ``dir``, oldest first.

    Returns the segments and the directory's names after the stray files went (for
    the producer snapshots and transaction indexes: one listing per partition).
    ``names``: the directory's listing, if the caller has it. An OSError (an
    unreadable file or directory, EIO) propagates: the log manager then starts the
    whole log dir offline."""
    faults.check("load", dir)  # before anything is touched: a failed load changes no file
    names = remove_stray_files(dir, names)
    segments = [LogSegment(dir, base, config, now_ms) for base in segment_bases(dir, names)]
    if not segments:
        return segments, names
    if clean_shutdown:
        first_unsafe = len(segments)
    else:
        first_unsafe = 0
        for i, seg in enumerate(segments):
            if seg.base_offset <= recovery_point:
                first_unsafe = i
    expected = segments[0].base_offset
    for i, seg in enumerate(segments):
        if seg.base_offset < expected:
            log.warning("%s starts at offset %d, below the previous segment's end %d; "
                        "recovering it", seg.log_path, seg.base_offset, expected)
            first_unsafe = min(first_unsafe, i)
        last = i == len(segments) - 1
        if i >= first_unsafe or not seg.load_trusted():
            truncated = recover_segment(seg, epochs)
            if truncated and not last:
                _delete_after(segments, i)
                return segments[: i + 1], names
        expected = seg.next_offset
    return segments, names


def _delete_after(segments: list[LogSegment], i: int) -> None:
    for later in segments[i + 1:]:
        log.warning("deleting %s (%d bytes, offsets from %d) after the truncation of %s",
                    later.log_path, later.size, later.base_offset, segments[i].log_path)
        later.close()
        later.delete()


def recover_segment(seg: LogSegment, epochs=None) -> int:
    """Check every batch of ``seg``; cut it at the first bad one. Returns bytes removed."""
    fd = seg.file.fileno()
    size = os.fstat(fd).st_size
    seg.size = size
    seg.reset_stats()
    seg.reset_indexes()
    pos = 0
    buf = b""
    buf_start = 0
    expected = seg.base_offset
    problem = None
    while pos < size:
        off = pos - buf_start
        if off + HEADER_SIZE > len(buf):
            buf = os.pread(fd, min(CHUNK, size - pos), pos)
            buf_start, off = pos, 0
            if len(buf) < HEADER_SIZE:
                problem = f"incomplete batch header ({len(buf)} bytes)"
                break
        h = read_header(buf, off)
        bsize = LOG_OVERHEAD + h.batch_length
        if h.magic != MAGIC_V2:
            problem = f"magic {h.magic}"
            break
        if h.batch_length < HEADER_SIZE - LOG_OVERHEAD:
            problem = f"batch_length {h.batch_length}"
            break
        if pos + bsize > size:
            problem = f"incomplete batch ({bsize} bytes declared, {size - pos} present)"
            break
        last_offset = h.base_offset + h.last_offset_delta
        if h.base_offset < expected or h.last_offset_delta < 0 or \
                last_offset - seg.base_offset > INT32_MAX:
            problem = f"offsets {h.base_offset}..{last_offset} (expected >= {expected})"
            break
        if off + bsize > len(buf):
            buf = os.pread(fd, max(bsize, min(CHUNK, size - pos)), pos)
            buf_start, off = pos, 0
        if not crc_is_valid(buf, off, bsize):
            problem = "CRC mismatch"
            break
        seg.track(pos, bsize, last_offset, h.max_timestamp)
        if epochs is not None and h.partition_leader_epoch >= 0:
            # memory only: the log's next flush writes the file before the recovery point
            # passes these batches (a crash before it recovers them, and their epochs, again)
            epochs.assign_deferred(((h.partition_leader_epoch, h.base_offset),))
        expected = last_offset + 1
        pos += bsize
    removed = size - pos
    if removed:
        log.warning("recovery of %s: truncating %d bytes at position %d (%s); the log now ends "
                    "at offset %d", seg.log_path, removed, pos, problem, seg.next_offset)
        os.ftruncate(fd, pos)
        seg.size = pos
    # Nothing is fsynced during the load (Kafka's LogLoader neither): the segment and its
    # rebuilt indexes stay dirty, the recovery point stays below them, and the log's next
    # flush (from the recovery point on) makes them durable; a crash before it recovers
    # them again.
    seg._dirty = True
    for idx in (seg.offset_index, seg.time_index):  # an empty index is still a file
        if not os.path.exists(idx.path):
            open(idx.path, "wb").close()
    return removed
