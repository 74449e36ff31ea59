"""Truncation of a partition log (replication): ``truncate_to`` and ``truncate_fully_and_start_at``.

A follower cuts a divergent tail before it fetches the new leader's records
(KIP-101, KIP-279, KIP-595's diverging epoch), and restarts an empty log at
the leader's log start when it is too far behind. Both are all or nothing,
like the append paths (``kwire.log.faults`` names the write sites):

1. reads only: the cut position and the cut segment's statistics
   (``LogSegment.truncation_mark``), the producer state at the new end (the
   newest readable snapshot at or below it plus the batch headers up to it,
   built aside);
2. producer snapshots above the new end are deleted (they are caches of
   state that goes: harmless to lose even if the truncation then fails);
3. the segments that go entirely are renamed to ``<name>.deleted`` (undone by
   renaming back);
4. the leader-epoch checkpoint is rewritten (file first; undone by rewriting
   the old entries), or for a full truncation the new empty segment created
   and the checkpoint emptied;
5. the one destructive step, the cut of the last kept segment's ``.log`` and
   index files (``LogSegment.rollback`` to the truncation mark): if the
   ``.log`` cut itself fails, the file is unchanged and steps 3-4 are undone;
6. memory: segment list, producer state, log start / HW / recovery point
   clamped to the new end; the renamed files are unlinked (left for the next
   start's stray-file sweep if that fails).

A failure in steps 2-5 answers KAFKA_STORAGE_ERROR with files and memory as
before; a failed undo, a failed read, or an index cut failing after the
``.log`` cut takes the log dir offline (``PartitionLog._dir_failed``).

Not here: outstanding reads of the cut tail (see ``region.py``: followers
truncate only above the high watermark, which consumers never read).
"""

from __future__ import annotations

import logging
import os

from kwire.protocol.errors import KafkaError
from kwire.records.batch import LOG_OVERHEAD

from . import faults
from .checkpoint import fsync_dir
from .producer_state import ProducerStateManager, list_snapshots, snapshot_path
from .segment import LogDirFailure, LogSegment
from .txn_index import read_marker

log = logging.getLogger("kwire.log")

DELETED_SUFFIX = ".deleted"  # Kafka's suffix for segment files on their way out


def truncate_to(plog, offset: int) -> int:
    """Remove everything from the batch holding ``offset`` on; returns the new LEO.

    Kafka's ``UnifiedLog.truncateTo``: at or above the LEO nothing is
    removed, but the leader-epoch cache is still cut at the LEO (a leader
    that recorded its epoch's start and was deposed before appending leaves
    an entry there); below the first segment the log is emptied and
    restarts at ``offset``; otherwise a log start offset above ``offset``
    comes down to it (Kafka's ``logStartOffset = min(targetOffset, logStartOffset)``).

    All or nothing. Prepared by reads only (the cut position, the new
    segment statistics, the producer state at the new LEO from a snapshot
    at or below it plus the batch headers up to it); then, each step undone
    if a later one fails: producer snapshots above the new LEO deleted (they
    are caches: harmless to lose), later segments renamed to ``.deleted``,
    the leader-epoch checkpoint rewritten, the cut segment's ``.log`` and
    index files cut. A failure answers KAFKA_STORAGE_ERROR with files and
    memory as before; a failure of an undo, of a read, or of the index cut
    after the ``.log`` cut takes the log dir offline. Last, memory: segment
    list, producer state, HW and recovery point clamped to the new LEO; the
    ``.deleted`` files are unlinked (left for the next start if that fails).
    """
    if plog.offline:
        raise plog._offline_error()
    leo = plog.log_end_offset
    if offset >= leo:
        _write_epochs(plog, [e for e in plog.leader_epochs.entries if e[1] < leo])
        return leo
    if offset < plog._segments[0].base_offset:
        return truncate_fully_and_start_at(plog, offset)
    i = plog._segment_index(offset)
    seg = plog._segments[i]
    doomed = plog._segments[i + 1:]
    try:
        mark = seg.truncation_mark(offset)
        new_leo = mark[1]
        producers = _producer_state_at(plog, new_leo)
    except OSError as e:
        raise plog._dir_failed(e) from e
    old_epochs = plog.leader_epochs.entries
    new_epochs = [e for e in old_epochs if e[1] < new_leo]
    _delete_snapshots(plog, lambda off: off > new_leo)
    renamed = _rename_for_deletion(plog, doomed)
    try:
        _write_epochs(plog, new_epochs)
    except KafkaError:
        _undo_renames(plog, renamed)
        raise
    removed = seg.size - mark[0]
    if removed:
        before = (seg.size, len(seg.offset_index), len(seg.time_index))
        try:
            seg.rollback(mark)
        except LogDirFailure as e:
            if not _unchanged(seg, before):
                raise plog._dir_failed(e) from e
            if new_epochs != old_epochs:
                try:
                    plog.leader_epochs._write(old_epochs)
                except OSError as e2:
                    raise plog._dir_failed(e2) from e2
            _undo_renames(plog, renamed)
            raise plog._storage_error(f"truncation of {seg.log_path}", e.cause or e) from e
    # memory only from here on (and best-effort unlinks)
    del plog._segments[i + 1:]
    del plog._bases[i + 1:]
    _forget_renamed(plog, renamed)
    plog.producer_state.producers = producers.producers
    plog.producer_state.unreplicated = producers.unreplicated  # markers below the new end only
    # Kafka lowers the log start to the truncation offset (records DeleteRecords hid
    # below the new end become readable again; kwire also keeps it <= the LEO)
    plog._log_start_offset = min(plog._log_start_offset, offset, new_leo)
    plog._high_watermark = min(max(plog._high_watermark, plog._log_start_offset), new_leo)
    plog.producer_state.on_high_watermark(plog._high_watermark)
    plog.offsets_moved()
    plog.recovery_point = min(plog.recovery_point, new_leo)
    log.info("%s-%d: truncated to offset %d (%d bytes removed from segment %d, %d later "
             "segments deleted)", plog.topic, plog.partition, new_leo, removed,
             seg.base_offset, len(doomed))
    return new_leo


def truncate_fully_and_start_at(plog, offset: int) -> int:
    """Delete every segment and restart the log, empty, at ``offset`` (log start, HW, LEO).

    Kafka's ``truncateFullyAndStartAt``: a follower whose log end lies below
    the leader's log start, or that must start at the base of the leader's
    first batch. All or nothing as ``truncate_to``: every producer snapshot
    deleted (caches), the segments renamed to ``.deleted``, the new empty
    segment created, the leader-epoch checkpoint emptied; a failure undoes
    the earlier steps (KAFKA_STORAGE_ERROR), a failed undo takes the dir offline.
    """
    if plog.offline:
        raise plog._offline_error()
    _delete_snapshots(plog, lambda off: True)
    renamed = _rename_for_deletion(plog, plog._segments)
    try:
        new = LogSegment.create(plog.dir, offset, plog.config, plog._last_flush_ms)
    except OSError as e:
        _undo_renames(plog, renamed)
        raise plog._storage_error(f"new segment at {offset} in {plog.dir}", e) from e
    try:
        _write_epochs(plog, [])
    except KafkaError:
        new.delete()
        _undo_renames(plog, renamed)
        raise
    plog._segments = [new]
    plog._bases = [offset]
    _forget_renamed(plog, renamed)
    fsync_dir(plog.dir)
    plog._log_start_offset = plog._high_watermark = plog.recovery_point = offset
    plog.producer_state.clear()
    plog.offsets_moved()
    log.info("%s-%d: truncated fully; the log now starts at offset %d", plog.topic,
             plog.partition, offset)
    return offset


def _write_epochs(plog, entries: list[tuple[int, int]]) -> None:
    if entries != plog.leader_epochs.entries:
        try:
            plog.leader_epochs._write(entries)
        except OSError as e:
            raise plog._storage_error(f"leader epoch checkpoint of {plog.dir}", e) from e


def _producer_state_at(plog, offset: int) -> ProducerStateManager:
    """The producer state of the batches below ``offset``, built aside (reads only):
    the newest readable snapshot at or below it, then the batch headers up to it."""
    state = ProducerStateManager(plog.dir, plog.config.producer_id_expiration_ms)
    snap = None
    for off in reversed(list_snapshots(plog.dir)):
        if off > offset:
            continue
        try:
            state.load_snapshot(snapshot_path(plog.dir, off))
            snap = off
            break
        except ValueError as e:
            log.warning("%s-%d: skipping unusable producer snapshot: %s", plog.topic,
                        plog.partition, e)
            state.clear()
    start = max(snap if snap is not None else 0, plog._segments[0].base_offset)
    for seg, pos, h in plog._iter_headers(start):
        if h.base_offset >= offset:
            break
        if h.is_control and h.producer_id >= 0:  # a marker: its coordinator epoch too
            m = read_marker(h, seg.read_bytes(pos, LOG_OVERHEAD + h.batch_length))
            state.end_txn(h.producer_id, h.producer_epoch, h.base_offset,
                          None if m is None else m.coordinator_epoch, h.max_timestamp)
        else:
            state.replay_header(h)
    return state


def _delete_snapshots(plog, doomed) -> None:
    """Unlink the producer snapshots whose offset ``doomed(offset)`` names (before a
    truncation: they describe records that go). KAFKA_STORAGE_ERROR if one cannot be."""
    for off in list_snapshots(plog.dir):
        if doomed(off):
            try:
                faults.check("producer_snapshot")
                os.unlink(snapshot_path(plog.dir, off))
            except FileNotFoundError:
                pass
            except OSError as e:
                raise plog._storage_error(f"deleting producer snapshot {off} in {plog.dir}",
                                          e) from e


def _segment_paths(seg: LogSegment) -> list[str]:
    return [seg.log_path, seg.index_path, seg.timeindex_path]


def _rename_for_deletion(plog, segments) -> list[tuple[LogSegment, list[str]]]:
    """Rename each segment's files to ``<name>.deleted`` (undone on failure:
    KAFKA_STORAGE_ERROR; offline if the undo fails). Returns what was renamed."""
    renamed: list[tuple[LogSegment, list[str]]] = []
    try:
        for seg in segments:
            done: list[str] = []
            renamed.append((seg, done))
            for path in _segment_paths(seg):
                faults.check("segment_delete")
                try:
                    os.rename(path, path + DELETED_SUFFIX)
                except FileNotFoundError:
                    if path == seg.log_path:
                        raise
                    continue  # an index file that was never written
                done.append(path)
    except OSError as e:
        _undo_renames(plog, renamed)
        raise plog._storage_error(f"deleting segment files in {plog.dir}", e) from e
    return renamed


def _undo_renames(plog, renamed) -> None:
    try:
        for _seg, done in reversed(renamed):
            for path in reversed(done):
                os.rename(path + DELETED_SUFFIX, path)
    except OSError as e:
        raise plog._dir_failed(e) from e


def _forget_renamed(plog, renamed) -> None:
    """The truncation is done: close the segments, unlink their renamed files. A file
    that cannot be unlinked is removed at the next start (recovery's stray files)."""
    for seg, done in renamed:
        # closed for good, not seg.delete(): a new segment may have taken its old paths
        seg.close()  # indexes never read stay unread
        seg.file.close()
        for path in done:
            try:
                os.unlink(path + DELETED_SUFFIX)
            except OSError as e:
                log.warning("%s-%d: could not remove %s: %s", plog.topic, plog.partition,
                            path + DELETED_SUFFIX, e)


def _unchanged(seg: LogSegment, before: tuple) -> bool:
    """After a failed cut: are the .log and the index files still as they were?"""
    try:
        size = os.fstat(seg.file.fileno()).st_size
    except OSError:
        return False
    return (size, len(seg.offset_index), len(seg.time_index)) == before
