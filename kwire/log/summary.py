"""The clean shutdown's summary of small logs, so that the next clean start reads no file of theirs.

A clean close (``LogManager.close``) writes ``<log dir>/.kwire_cleanshutdown_logs`` before the
clean-shutdown marker: one line per log of that dir that is a single small segment (at most
``segment.SMALL_SEGMENT_BYTES``, the common case with tens of thousands of partitions) and has
no aborted transaction indexed::

    <version> <token>
    <count>
    <topic> <partition> <base offset> <size> <next offset> <max timestamp>
        <offset of max timestamp> <first batch timestamp or N> <epoch file 0/1>
        <producer snapshot offset, -1 for none>

(one line each). The marker holds the same ``token`` (a random one per close): a
marker written by an older kwire, which knows nothing of the summary, does not certify a
summary left from before. The next start, and only when it finds the marker, reads the file and
removes it with the marker (so a summary is never used twice, nor after a crash). A log it
lists whose ``.log`` file still has the recorded size is opened from its line
(``PartitionLog.open(summary=...)``): no listing of the partition directory, no read of
the segment, the producer snapshot the line names read on first use, the indexes and
epoch file on first use as for any small segment (checked against the log then). The
snapshot is the one at the LEO, or, for a log whose producer state was never read since
its open (only appends without a producer id came since), the one it was opened with, or
none (-1) for a state that has always been empty: the close of such a log writes no new
snapshot, and a crash instead replays its few batches from the older one. Kafka's clean-shutdown marker lets its start skip recovery in the same way;
Kafka still lists and opens each partition's files, which at 50,000 partitions is most of
the start.

What the clean start then does not do for these logs: remove stray files in the partition
directory (a clean close leaves none; the next start without a summary removes any) and
scan the segment's batches (the size check catches a file cut or grown since the close;
a change in place that keeps the size is not detected, as the clean start never
CRC-checked). A summary that cannot be read is ignored (every log is loaded the usual
way). Not here: logs of several segments, larger segments or with aborted transactions
(loaded from their files).
"""

from __future__ import annotations

import logging
import uuid
from typing import NamedTuple

from .checkpoint import CheckpointError, atomic_write, read_small
from .segment import SMALL_SEGMENT_BYTES

log = logging.getLogger("kwire.log")

SUMMARY_FILE = ".kwire_cleanshutdown_logs"
VERSION = 0
NO_SNAPSHOT = -1  # the producer state is empty and no snapshot file holds it


class LogSummary(NamedTuple):
    base_offset: int
    size: int
    next_offset: int
    max_timestamp: int
    offset_of_max_timestamp: int
    first_batch_timestamp: int | None
    epoch_file: bool
    snapshot: int  # the producer snapshot holding the state at the close, or NO_SNAPSHOT


def summarizable(plog) -> bool:
    """True for a log the summary holds: one segment of at most SMALL_SEGMENT_BYTES and no
    aborted transaction indexed."""
    segments = plog._segments
    return len(segments) == 1 and segments[0].size <= SMALL_SEGMENT_BYTES \
        and not plog.txn_index.entries


def summarize(plog) -> LogSummary | None:
    """The line of a closed log, or None if it must be loaded from its files next time."""
    if not summarizable(plog):
        return None
    seg = plog._segments[0]
    epochs = plog.leader_epochs
    deferred = plog._deferred_snapshot  # None: the state was read, its snapshot is at the LEO
    return LogSummary(seg.base_offset, seg.size, seg.next_offset, seg.max_timestamp,
                      seg.offset_of_max_timestamp, seg.first_batch_timestamp,
                      bool(epochs._exists or epochs.__dict__.get("entries")),
                      seg.next_offset if deferred is None else deferred)


def new_token() -> str:
    return uuid.uuid4().hex


def write(path: str, rows: dict[tuple[str, int], LogSummary], token: str) -> None:
    """Write the summary atomically (temp file, fsync, rename, fsync of the dir); the
    clean-shutdown marker written after it holds ``token``."""
    lines = [f"{VERSION} {token}\n{len(rows)}\n"]
    for (topic, partition), s in rows.items():
        first = "N" if s.first_batch_timestamp is None else s.first_batch_timestamp
        lines.append(f"{topic} {partition} {s.base_offset} {s.size} {s.next_offset} "
                     f"{s.max_timestamp} {s.offset_of_max_timestamp} {first} "
                     f"{int(s.epoch_file)} {s.snapshot}\n")
    atomic_write(path, "".join(lines).encode("utf-8"))


def read(path: str, token: str) -> dict[tuple[str, int], LogSummary]:
    """The summary's lines by (topic, partition); {} when missing. CheckpointError if malformed
    or not the one the marker (holding ``token``) certifies."""
    try:
        text = read_small(path).decode("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise CheckpointError(f"{path}: {e}") from e
    lines = text.split("\n")
    if len(lines) < 3 or lines[-1] != "" or lines[0].split(" ")[0] != str(VERSION):
        raise CheckpointError(f"{path}: unsupported version or truncated")
    if not token or lines[0] != f"{VERSION} {token}":
        raise CheckpointError(f"{path}: not the summary of the clean shutdown's marker")
    out = {}
    make = LogSummary._make  # not LogSummary(...): its keyword handling, 50,000 times
    try:
        count = int(lines[1])
        for line in lines[2:-1]:
            t, p, base, size, nxt, mts, omts, first, ep, snap = line.split(" ")
            out[(t, int(p))] = make((int(base), int(size), int(nxt), int(mts), int(omts),
                                     None if first == "N" else int(first), ep == "1",
                                     int(snap)))
    except ValueError as e:
        raise CheckpointError(f"{path}: malformed line ({e})") from None
    if count != len(out) or count != len(lines) - 3:
        raise CheckpointError(f"{path}: expected {count} lines, found {len(lines) - 3}")
    return out


def open_segment(segment_cls, part_dir: str, s: LogSummary, config, now_ms: int):
    """The segment of a summarized log, its stats from the line (nothing read)."""
    seg = segment_cls(part_dir, s.base_offset, config, now_ms)
    seg.size = s.size
    seg.next_offset = s.next_offset
    seg.max_timestamp = s.max_timestamp
    seg.offset_of_max_timestamp = s.offset_of_max_timestamp
    seg.first_batch_timestamp = s.first_batch_timestamp
    return seg
