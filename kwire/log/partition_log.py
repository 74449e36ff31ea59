"""The log of one partition: append as leader, read, search by time, retention, recovery.

``PartitionLog`` is the API the broker uses. A partition directory holds::

    <log dir>/<topic>-<partition>/
        00000000000000000000.log / .index / .timeindex    oldest segment
        00000000000000004096.log / .index / .timeindex    ...
        00000000000000008192.log / .index / .timeindex    active segment (appends go here)
        00000000000000008192.snapshot                     producer state below offset 8192
        leader-epoch-checkpoint                           epoch -> start offset

Offsets, all kept distinct (ROADMAP): ``log_start_offset`` <= ``high_watermark``
<= ``log_end_offset``; ``last_stable_offset`` equals the high watermark until
transactions exist. Readers see only batches that end below the high
watermark (or below the LSO for read_committed). ``recovery_point``: every
batch below it is fsynced.

Append path (``append_as_leader``), per request and per batch, never per
record: validate headers + CRC (``validate.py``); idempotent-producer checks
(``producer_state.py``), a retry returns the original offsets; roll if the
active segment cannot take the bytes; write ``base_offset`` and
``partition_leader_epoch`` into the request buffer in place (both lie before
the CRC'd region, so the CRC stays valid) and, for LogAppendTime topics, the
max timestamp (CRC recomputed); one ``os.write`` of the whole buffer; index
entries from header fields; leader epoch and producer state bookkeeping; fsync
when ``flush.messages`` / ``flush.ms`` say so.

Read path (``read``): the offset index and a short header scan find the batch
holding ``fetch_offset``; the result is one ``FileRegion`` of whole batches.
A read stops at the end of a segment, as Kafka's does: the next fetch
continues in the next segment, so ``regions`` has at most one element
(``region`` is that element or None).

Time search (``offset_for_timestamp``, ``offset_of_max_timestamp``) lives in
``search.py``; loading and recovery in ``recovery.py``. Opening reads what the start needs:
the producer snapshot at the LEO (every clean close leaves one) is read on the first use
of ``producer_state``, and a log in the clean shutdown's summary (``summary.py``) is
opened without listing or reading its files.

Invariants: segments are contiguous and sorted, the last one is active;
log start <= HW <= LEO at all times (``update_high_watermark`` clamps); the
producer state and leader epoch cache describe exactly the batches below the
LEO (rebuilt after any truncation).

Storage errors (``kwire.log.faults`` names the write sites): an append or a
roll is all or nothing. A failed write (log, index entry, producer snapshot,
new segment, leader-epoch checkpoint) is undone -- files cut back, in-memory
state as before -- and answered KAFKA_STORAGE_ERROR; the partition stays in
service and the producer's retry lands at the same offset. A successful roll
followed by a failed write keeps the (empty, consistent) new segment. When an
undo fails, an fsync fails, or a read fails, files and memory may disagree:
the log sets ``offline`` and tells the log manager (``on_dir_failure``),
which takes the whole log dir offline; from then on every operation answers
KAFKA_STORAGE_ERROR until a restart recovers the dir.

Replication (``append_as_follower``, ``truncate_to``,
``truncate_fully_and_start_at``, ``assign_epoch_start_offset``): a follower
appends the leader's batches as they are -- the leader's offsets, epochs and
bytes, checked as Kafka checks REPLICATION appends (framing, CRC, increasing
offsets, nothing below the LEO) -- through the same all-or-nothing write step
as the leader path. Truncation is all or nothing too: prepared by reads, then
reversible steps (later segments renamed to ``.deleted``, the epoch
checkpoint rewritten) before the one cut in place, each undone if a later
step fails; the producer state is rebuilt aside and swapped in (``truncation.py``).

Transactions: the producer state tracks open transactions (the LSO stays
below the oldest one's first offset); markers close them and aborts go to the
aborted-transaction index (``txn_index.py``, rebuilt on load). A marker the
coordinator appends is checked first (``ProducerStateManager.check_end_txn``
with the transaction version the coordinator gave:
INVALID_PRODUCER_EPOCH, TRANSACTION_COORDINATOR_FENCED; nothing written), and
passes the ``marker`` fault site (tests hold one partition's markers back).

Not here: compaction (``cleaner.py`` rewrites closed segments and swaps them in;
the read path steps over segments it emptied),
tiered storage, asynchronous deletion (segments are unlinked at once; see
``region.py`` for why outstanding reads survive it; a truncation's renamed
files are unlinked as soon as it is done).
"""

from __future__ import annotations

import base64
import logging
import os
import shutil
import struct
import uuid
from bisect import bisect_right
from functools import cached_property
from typing import NamedTuple

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.batch import (
    CONTROL_MASK,
    HEADER_SIZE,
    BatchHeader,
    LOG_OVERHEAD,
    MAGIC_V2,
    crc_is_valid,
    read_header,
    set_log_append_time,
)
from kwire.records.control import ABORT
from kwire.records.scan import check_client_batch, stamp_batch

from . import faults, search, truncation
from . import summary as log_summary
from .checkpoint import fsync_dir
from .config import LogConfig
from .leader_epoch import FILE_NAME, LeaderEpochCache
from .producer_state import ProducerStateManager, list_snapshots, snapshot_path
from .recovery import load_segments
from .region import FileRegion
from .segment import INT32_MAX, LogDirFailure, LogSegment
from .txn_index import AbortedTxn, TxnIndex, read_marker
from .validate import AppendOrigin, validate_records

log = logging.getLogger("kwire.log")

READ_UNCOMMITTED = 0
READ_COMMITTED = 1
SNAPSHOTS_TO_KEEP = 2
NO_SNAPSHOT = log_summary.NO_SNAPSHOT  # a deferred producer state that is empty, with no file


class AppendResult(NamedTuple):
    base_offset: int
    last_offset: int
    log_append_time: int  # -1 for CreateTime topics
    log_start_offset: int
    duplicate: bool = False


class FollowerAppendResult(NamedTuple):
    first_offset: int  # -1 when nothing was appended
    last_offset: int
    last_leader_epoch: int  # partition_leader_epoch of the last batch appended
    valid_bytes: int  # 0: nothing appended


class UnexpectedAppendOffset(KafkaError):
    """A follower append starting below the LEO (Kafka's UnexpectedAppendOffsetException)."""

    def __init__(self, message: str, first_offset: int, last_offset: int) -> None:
        super().__init__(ErrorCode.UNKNOWN_SERVER_ERROR, message)
        self.first_offset = first_offset
        self.last_offset = last_offset


class OffsetsOutOfOrder(KafkaError):
    """A follower append whose batches' offsets do not increase (OffsetsOutOfOrderException)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.UNKNOWN_SERVER_ERROR, message)


class ReadResult(NamedTuple):
    regions: list[FileRegion]
    size: int
    first_batch_offset: int  # base offset of the first batch returned, -1 if none
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int
    log_end_offset: int

    @property
    def region(self) -> FileRegion | None:
        return self.regions[0] if self.regions else None


# base offset (int64), batch length (int32), partition leader epoch (int32): bytes 0..15 of a batch
_OFFSET_LENGTH_EPOCH = struct.Struct(">qii")
_new_tuple = tuple.__new__  # a NamedTuple without its __new__'s argument handling (append path)
_CLIENT, _COORDINATOR = AppendOrigin.CLIENT, AppendOrigin.COORDINATOR  # module reads are cheaper

PARTITION_METADATA = "partition.metadata"  # Kafka's file: the topic id of the log


class PartitionLog:
    def __init__(self, dir: str, topic: str, partition: int, config: LogConfig,
                 segments: list[LogSegment], epochs: LeaderEpochCache, now_ms: int) -> None:
        self.dir = dir
        self.topic = topic
        self.partition = partition
        self.config = config
        self._segments = segments
        self._bases = [s.base_offset for s in segments]
        self.leader_epochs = epochs
        # producer_state: made on first use (the cached property below), from the snapshot
        # that open() found at the LEO and left unread (_deferred_snapshot; NO_SNAPSHOT: the
        # state is empty and no file holds it); None once read (or never deferred)
        self._deferred_snapshot: int | None = None
        self.txn_index = TxnIndex(dir)  # aborted transactions (.txnindex files)
        self._log_start_offset = segments[0].base_offset
        self._high_watermark = self._log_start_offset
        self.recovery_point = self._log_start_offset
        self._last_flush_ms = now_ms
        self.closed = False
        # Set once files and memory may disagree; from then on every operation
        # answers KAFKA_STORAGE_ERROR. ``on_dir_failure(log_dir, reason)`` (set by
        # the log manager) takes the whole log dir offline, Kafka's LogDirFailureChannel.
        self.offline = False
        self.on_dir_failure = None
        self.on_io_error = None  # called with the log dir on every undone write failure
        # called with (topic, partition) when the HW, LSO or log start moves (set by the log
        # manager: the broker's incremental fetch sessions learn which partitions changed)
        self.on_offsets_moved = None
        self.on_config = None  # called with the log after update_config (the log manager's sets)

    # -- topic id (Kafka's partition.metadata, KIP-516) ------------------------
    def topic_id(self) -> uuid.UUID | None:
        """The id of the topic this log was made for (``partition.metadata``; None if not
        recorded). A cluster broker compares it with the topic's id in the metadata: a log
        of an earlier topic of the same name (deleted and re-created while this broker
        did not see it) must not be served as the new topic's."""
        try:
            with open(os.path.join(self.dir, PARTITION_METADATA)) as f:
                text = f.read()
        except OSError:
            return None
        for line in text.splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "topic_id":
                try:
                    raw = value.strip()
                    return uuid.UUID(bytes=base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
                except ValueError:
                    return None
        return None

    def set_topic_id(self, topic_id: uuid.UUID) -> None:
        """Record the topic id in ``partition.metadata`` (Kafka's format: ``version: 0`` and the
        id as URL-safe base64 without padding), written to a temporary file and renamed."""
        path = os.path.join(self.dir, PARTITION_METADATA)
        tmp = path + ".tmp"
        encoded = base64.urlsafe_b64encode(topic_id.bytes).rstrip(b"=").decode()
        with open(tmp, "w") as f:
            f.write(f"version: 0\ntopic_id: {encoded}\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        fsync_dir(self.dir)

    # -- opening --------------------------------------------------------------
    @classmethod
    def open(cls, dir: str, topic: str, partition: int, config: LogConfig, now_ms: int, *,
             recovery_point: int = 0, log_start_offset: int = 0,
             high_watermark: int | None = None, clean_shutdown: bool = False,
             existing: bool = False, summary=None) -> "PartitionLog":
        """Open (creating if needed) ``<dir>/<topic>-<partition>`` and recover it.

        ``recovery_point`` and ``log_start_offset`` come from the log dir's
        checkpoints (0 when unknown: everything is checked); ``high_watermark``
        from ``replication-offset-checkpoint`` (default: the log start offset,
        as Kafka does; on one node the broker then raises it to the LEO).
        ``existing``: the caller just found the directory (start-up), so it is
        not created. The directory is listed once, and the listing serves the
        segments, the producer snapshots and the transaction indexes. ``summary``: the
        log's line of the clean shutdown's summary (``summary.py``): nothing is listed
        or read, the producer snapshot the line names waits for its first use.
        """
        part_dir = os.path.join(dir, f"{topic}-{partition}")
        if summary is not None:
            faults.check("load", part_dir)
            epochs = LeaderEpochCache(part_dir, summary.epoch_file)
            segments = [log_summary.open_segment(LogSegment, part_dir, summary, config, now_ms)]
            names = None
        else:
            if not existing:
                os.makedirs(part_dir, exist_ok=True)
            names = os.listdir(part_dir)
            epochs = LeaderEpochCache(part_dir, FILE_NAME in names)
            segments, names = load_segments(part_dir, config, now_ms,
                                            recovery_point=recovery_point,
                                            clean_shutdown=clean_shutdown, epochs=epochs,
                                            names=names)
        if not segments:
            segments = [LogSegment.create(part_dir, max(log_start_offset, 0), config, now_ms)]
        self = cls(part_dir, topic, partition, config, segments, epochs, now_ms)
        leo = self.log_end_offset
        self._log_start_offset = min(max(log_start_offset, segments[0].base_offset), leo)
        epochs.bound(self._log_start_offset, leo)  # applied when first read (leader_epoch.py)
        # Nothing is fsynced here, and after an unclean shutdown the recovery point stays
        # where the checkpoint had it (Kafka's LogLoader): the recovered segments are marked
        # dirty, and the next flush, which covers every segment from the recovery point,
        # makes them durable. Advancing it to the LEO now would let a crash before that
        # flush skip the check of segments whose bytes were never fsynced.
        self.recovery_point = leo if clean_shutdown else \
            min(max(recovery_point, self._log_start_offset), leo)
        # The state at the LEO is the snapshot's (a clean shutdown leaves one, or names it in
        # the summary): it is read on first use of ``producer_state`` (Kafka reads it at load; with 50,000 partitions
        # that is an open and a read each, most never needed before their first producer
        # request or fetch). A log without any batch has an empty state, read from nothing. A
        # summarized log has no aborted transaction, and the summary names its snapshot.
        if summary is not None:
            self._deferred_snapshot = summary.snapshot
        else:
            self.txn_index.load(self._bases, leo, names)
            snapshots = list_snapshots(part_dir, names)
            if snapshots and snapshots[-1] == leo:
                self._deferred_snapshot = leo
            elif not snapshots and leo == segments[0].base_offset:
                self._deferred_snapshot = NO_SNAPSHOT
            else:
                self._load_producer_state(names)
        hw = self._log_start_offset if high_watermark is None else high_watermark
        self._high_watermark = min(max(hw, self._log_start_offset), leo)
        self._on_high_watermark(self._high_watermark)
        return self

    @cached_property
    def producer_state(self) -> ProducerStateManager:
        """The producers' state; when open() deferred it, read now from the snapshot it
        found at the LEO (nothing for NO_SNAPSHOT). Whatever changed the log since has gone
        through this property first (client and coordinator appends check it before
        writing, truncation and retention load it before touching a snapshot file) or left
        it unchanged (batches without a producer id), except a follower's append, which
        replays its batches after writing them: the snapshot alone, not the log after it,
        is the state before them. A clean close keeps that true across restarts (``close``
        writes no snapshot for a summarized log whose state was never read). An unusable
        snapshot is dropped and the state rebuilt from the log, as at open."""
        ps = ProducerStateManager(self.dir, self.config.producer_id_expiration_ms)
        self.__dict__["producer_state"] = ps
        at, self._deferred_snapshot = self._deferred_snapshot, None
        if at is not None and at != NO_SNAPSHOT:
            try:
                ps.load_snapshot(snapshot_path(self.dir, at))
            except (OSError, ValueError) as e:
                log.warning("%s-%d: producer snapshot unusable at first use (%s); rebuilding "
                            "the producer state from the log", self.topic, self.partition, e)
                ps.clear()
                self._load_producer_state()
                ps.on_high_watermark(self._high_watermark)
        return ps

    @property
    def producer_state_loaded(self) -> bool:
        return "producer_state" in self.__dict__

    def _on_high_watermark(self, hw: int) -> None:
        """The producer state's HW hook, skipped while the state is unread: a state fresh
        from a snapshot has no unreplicated transaction for it to release."""
        ps = self.__dict__.get("producer_state")
        if ps is not None:
            ps.on_high_watermark(hw)

    def _load_producer_state(self, names: list[str] | None = None) -> None:
        leo = self.log_end_offset
        snap = self.producer_state.load_latest_snapshot(leo, names)
        start = max(snap if snap is not None else 0, self._segments[0].base_offset)
        scanned = 0
        # a snapshot at the LEO (every clean shutdown writes one): no batch to replay, no read
        for seg, pos, h in self._iter_headers(start) if start < leo else ():
            if h.is_control and h.producer_id >= 0:  # a marker: maybe an aborted transaction
                batch = seg.read_bytes(pos, LOG_OVERHEAD + h.batch_length)
                self._end_txn(h, h.base_offset, read_marker(h, batch), seg.base_offset)
            else:
                self.producer_state.replay_header(h)
            scanned += 1
        if scanned:
            log.debug("%s-%d: producer state from snapshot %s + %d batches", self.topic,
                      self.partition, snap, scanned)

    # -- offsets --------------------------------------------------------------
    @property
    def log_start_offset(self) -> int:
        return self._log_start_offset

    @property
    def log_end_offset(self) -> int:
        return self._segments[-1].next_offset

    @property
    def high_watermark(self) -> int:
        return self._high_watermark

    @property
    def last_stable_offset(self) -> int:
        """The HW, or the first offset of the oldest unstable transaction if lower: one still
        open, or one whose marker is not yet below the HW (Kafka's ``unreplicatedTxns``)."""
        ps = self.producer_state
        if not ps.ongoing and not ps.unreplicated:  # no transactions: the HW (every fetch asks)
            return self._high_watermark
        first = ps.first_unstable_offset()
        return self._high_watermark if first is None else min(self._high_watermark, first)

    def fetch_offsets(self) -> tuple[int, int, int]:
        """(high watermark, last stable offset, log start offset) in one call: what every
        Fetch partition answers, read twice per partition of a long-poll."""
        hw = self._high_watermark
        ps = self.producer_state
        lso = hw if not ps.ongoing and not ps.unreplicated else self.last_stable_offset
        return hw, lso, self._log_start_offset

    def aborted_transactions(self, start: int, end: int) -> list[AbortedTxn]:
        """Aborted transactions overlapping [start, end) (read_committed fetches)."""
        return self.txn_index.aborted_between(max(start, self._log_start_offset), end)

    def _end_txn(self, h, offset: int, marker, segment_base: int) -> None:
        """A control batch at ``offset`` holding ``marker`` (``read_marker``; None when
        empty or unreadable): close the producer's transaction, record the coordinator
        epoch, and index the transaction if the marker aborted it."""
        first = self.producer_state.end_txn(
            h.producer_id, h.producer_epoch, offset,
            None if marker is None else marker.coordinator_epoch, h.max_timestamp)
        if first >= 0 and marker is not None and marker.control_type == ABORT:
            # the index's LSO counts open transactions only (Kafka's lastStableOffset(completedTxn))
            open_first = self.producer_state.first_open_offset()
            lso = self._high_watermark if open_first is None else min(self._high_watermark, open_first)
            self.txn_index.add(AbortedTxn(h.producer_id, first, offset, lso), segment_base)

    def _check_markers(self, buf, spans, transaction_version: int = 0) -> dict[int, object]:
        """Before a coordinator's append is written: every marker in it (position ->
        ``read_marker``), each checked against the producer state (KafkaError
        INVALID_PRODUCER_EPOCH / TRANSACTION_COORDINATOR_FENCED, as Kafka's
        ``appendEndTxnMarker`` with the coordinator's ``transaction_version``). The
        ``marker`` fault site (the partition directory is the path) fails the append
        here, before any byte is written, with KAFKA_STORAGE_ERROR; nothing was
        touched, so it is not a log-dir I/O error."""
        markers = {}
        for pos, h in spans:
            if not h.attributes & CONTROL_MASK or h.producer_id < 0:
                continue
            m = read_marker(h, buf[pos:pos + LOG_OVERHEAD + h.batch_length])
            if m is not None:
                self.producer_state.check_end_txn(h.producer_id, h.producer_epoch, m.coordinator_epoch,
                                                  transaction_version)
            try:
                faults.check("marker", self.dir)
            except OSError as e:
                log.warning("%s-%d: marker for producer %d not written: %s", self.topic,
                            self.partition, h.producer_id, e)
                raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"marker not written: {e}") from e
            markers[pos] = m
        return markers

    @property
    def size_bytes(self) -> int:
        return sum(s.size for s in self._segments)

    @property
    def segments(self) -> tuple[LogSegment, ...]:
        return tuple(self._segments)

    @property
    def active_segment(self) -> LogSegment:
        return self._segments[-1]

    @property
    def latest_epoch(self) -> int:
        return self.leader_epochs.latest_epoch

    def end_offset_for_epoch(self, epoch: int) -> tuple[int, int]:
        """OffsetForLeaderEpoch: (largest known epoch <= ``epoch``, its end offset) or (-1, -1)."""
        return self.leader_epochs.end_offset_for(epoch, self.log_end_offset)

    def update_high_watermark(self, offset: int) -> int:
        """Set the HW, clamped to [log start, LEO]; returns the new value."""
        before = self._high_watermark
        leo = self._segments[-1].next_offset  # log_end_offset without the property call
        hw = offset if offset > self._log_start_offset else self._log_start_offset
        if hw > leo:  # min(max(...)) without the two calls: every append comes here
            hw = leo
        self._high_watermark = hw
        # the producer state's HW hook: its only work is releasing unreplicated transactions, so
        # no call per plain append, and none while the state is unread (fresh from a snapshot,
        # it has no unreplicated transaction)
        ps = self.__dict__.get("producer_state")
        if ps is not None and ps.unreplicated:
            ps.on_high_watermark(hw)
        if hw != before and self.on_offsets_moved is not None:
            self.on_offsets_moved(self.topic, self.partition)
        return hw

    def offsets_moved(self) -> None:
        """Tell ``on_offsets_moved`` (if set) that the HW, LSO or log start may have moved."""
        if self.on_offsets_moved is not None:
            self.on_offsets_moved(self.topic, self.partition)

    def update_config(self, config: LogConfig) -> None:
        """New settings apply from now on (index sizes only to segments created later)."""
        self.config = config
        ps = self.__dict__.get("producer_state")  # unread: made with self.config when read
        if ps is not None:
            ps.expiration_ms = config.producer_id_expiration_ms
        if self.on_config is not None:
            self.on_config(self)

    def _segment_index(self, offset: int) -> int:
        return max(bisect_right(self._bases, offset) - 1, 0)

    def _iter_headers(self, from_offset: int):
        """(segment, position, header) of every batch ending at or after ``from_offset``."""
        for seg in self._segments[self._segment_index(from_offset):]:
            found = seg.find_batch(from_offset)
            if found is None:
                continue
            for pos, h in seg.iter_batches(found[0]):
                yield seg, pos, h

    # -- append ---------------------------------------------------------------
    def validate(self, records, now_ms: int, origin: AppendOrigin = AppendOrigin.CLIENT):
        """Check a produce payload without appending; a list of ``BatchSpan(pos, header)``."""
        return validate_records(records, self.config, now_ms, origin)

    def append_as_leader(self, records, leader_epoch: int, now_ms: int, *,
                         origin: AppendOrigin = AppendOrigin.CLIENT,
                         txn_verified=None, transaction_version: int = 0) -> AppendResult:
        """Validate, assign offsets in place, write once. ``records`` should be writable.

        A read-only buffer (``bytes``) is copied first. Raises ``KafkaError``.

        All or nothing: when a write fails (OSError: log, index, roll, producer
        snapshot, leader-epoch checkpoint), everything written is cut back and
        the in-memory state (LEO, indexes, stats, producer state, epochs,
        segment list) is as before; the client gets KAFKA_STORAGE_ERROR. When
        that undo fails, or an fsync fails, the log dir goes offline.

        ``transaction_version``: the coordinator's, for the markers of a COORDINATOR
        append (Kafka's epoch rule for transactions v2 markers, ``check_end_txn``).
        """
        if self.offline:
            raise self._offline_error()
        if isinstance(records, memoryview) and not records.readonly:
            buf = records
        elif isinstance(records, bytearray):
            buf = memoryview(records)
        else:
            buf = memoryview(bytearray(records))
        cfg = self.config
        first = None
        log_append = cfg.log_append_time
        base = self._segments[-1].next_offset  # a roll below starts the next segment here too
        stamped = False  # the one batch already carries base and leader_epoch (and its header)
        if origin is _CLIENT:  # one C call for a valid one-batch payload (None: the full checks)
            before, after, max_size, compacted = cfg.client_batch_limits
            if log_append:
                first = check_client_batch(buf, BatchHeader, now_ms - before, now_ms + after,
                                           max_size, compacted)
            else:  # checked and, if it passes, stamped: the request's own buffer, written below
                first = check_client_batch(buf, BatchHeader, now_ms - before, now_ms + after,
                                           max_size, compacted, base, leader_epoch)
                stamped = first is not None
        if first is None:
            spans = validate_records(buf, cfg, now_ms, origin, txn_verified=txn_verified)
            first = spans[0].header
        else:
            spans = ((0, first),)
        # transaction markers (only the coordinator's: validate refuses clients' control batches)
        markers = (self._check_markers(buf, spans, transaction_version)
                   if origin is _COORDINATOR else None)
        if first.producer_id >= 0 and origin is _CLIENT:
            dup = self.producer_state.check(first.producer_id, first.producer_epoch,
                                            first.base_sequence, first.last_sequence)
            if dup is not None:
                return AppendResult(dup.base_offset, dup.last_offset,
                                    dup.timestamp if log_append else -1,
                                    self._log_start_offset, True)
        # (position in buf, size, last offset, max timestamp) per batch, from headers only
        if len(spans) == 1:  # every client append: one batch
            pos, h = first_span = spans[0]
            last_offset = base + h.last_offset_delta
            max_ts = now_ms if log_append else h.max_timestamp
            infos = [(pos, LOG_OVERHEAD + h.batch_length, last_offset, max_ts)]
        else:
            first_span = None
            infos = []
            offset = base
            max_ts = -1
            for pos, h in spans:
                last = offset + h.last_offset_delta
                ts = now_ms if log_append else h.max_timestamp
                infos.append((pos, LOG_OVERHEAD + h.batch_length, last, ts))
                if ts > max_ts:
                    max_ts = ts
                offset = last + 1
            last_offset = offset - 1
        if self._should_roll(len(buf), max_ts, last_offset, now_ms):
            self.roll(now_ms)  # all or nothing itself; KafkaError on failure
        offset = base  # patch in place only now: nothing but the write can fail after this
        headers = []  # each stamped batch's header, for the segment's tail cache
        for pos, size, last, _ts in infos:
            if stamped:  # (a buffer stamped above and refused since is never written)
                headers.append(first)
            elif log_append:
                # base offset, batch length (as it is) and leader epoch: adjacent, one call
                _OFFSET_LENGTH_EPOCH.pack_into(buf, pos, offset, size - LOG_OVERHEAD, leader_epoch)
                set_log_append_time(buf, pos, size, now_ms)
                headers.append(read_header(buf, pos))
            else:  # offset and epoch written, the header read back: one C call
                headers.append(stamp_batch(buf, pos, offset, leader_epoch, BatchHeader))
            offset = last + 1
        epochs = self.leader_epochs.entries
        new_epochs = ((leader_epoch, base),) if leader_epoch >= 0 and (
            not epochs or leader_epoch > epochs[-1][0]) else ()
        self._write(buf, infos, new_epochs, last_offset, now_ms, headers)
        # memory only from here on: nothing can fail
        if first_span is None or first.producer_id >= 0:  # no producer state for a plain batch
            offset = base
            for (pos, h), (_, size, last, ts) in zip(spans, infos):
                if h.producer_id >= 0 and not h.attributes & CONTROL_MASK:
                    self.producer_state.replay(h.producer_id, h.producer_epoch, h.base_sequence,
                                               h.last_sequence, offset, last, ts,
                                               h.is_transactional)
                elif h.producer_id >= 0:  # a transaction marker (the coordinator's)
                    self._end_txn(h, offset, markers.get(pos) if markers else None,
                                 self._segments[-1].base_offset)
                offset = last + 1
        return _new_tuple(AppendResult, (base, last_offset, now_ms if log_append else -1,
                                         self._log_start_offset, False))

    def _write(self, buf, infos, new_epochs, last_offset: int, now_ms: int,
               headers: list | None = None) -> None:
        """The write step of both append paths, all or nothing: the batches (offsets in
        place) to the active segment, then the leader-epoch entries ``new_epochs``
        ((epoch, start offset) pairs, one checkpoint write), then an fsync if
        flush.messages / flush.ms ask for one. Any failure undoes the segment
        append (KAFKA_STORAGE_ERROR; offline when the undo or the fsync fails).
        ``headers``: the batches' headers as stamped, if the caller has them."""
        seg = self._segments[-1]
        mark = seg.mark()
        try:
            seg.append(buf, infos, mark, headers)  # undoes itself on OSError
        except LogDirFailure as e:
            raise self._dir_failed(e) from e
        except OSError as e:
            raise self._storage_error(f"append to {seg.log_path}", e) from e
        # memory only; the checkpoint file is written by the next flush (leader_epoch.py)
        epochs_before = self.leader_epochs.assign_deferred(new_epochs) if new_epochs else None
        cfg = self.config
        if (last_offset + 1 - self.recovery_point >= cfg.flush_messages
                or now_ms - self._last_flush_ms >= cfg.flush_ms):
            try:
                self.flush(now_ms)  # a failed fsync takes the dir offline (KafkaError)
            except KafkaError:
                try:  # and this append, reported failed, must not reappear after a restart
                    seg.rollback(mark)
                except LogDirFailure:
                    pass
                if epochs_before is not None:
                    self.leader_epochs.restore(epochs_before)
                raise

    def append_as_follower(self, records, now_ms: int, *,
                           leader_epoch: int = -1) -> FollowerAppendResult:
        """Append the leader's batches as they are: the leader's offsets and epochs.

        Kafka's ``UnifiedLog.appendAsFollower`` rules (``analyzeAndValidateRecords``
        with origin REPLICATION): a trailing incomplete batch is ignored (the
        leader may cut a fetch response mid-batch); each batch needs magic 2, a
        sane length and a valid CRC-32C, else CORRUPT_MESSAGE; max.message.bytes
        is not applied (the leader already accepted the batch); no record is
        decoded and no producer sequence is checked (producer state is replayed).
        Offsets: each batch must start above the previous one's last offset
        (``OffsetsOutOfOrder``; Kafka only asks the last offsets to increase,
        but kwire's recovery cuts a log at overlapping batches, so they are
        refused here) and the first batch must not start below the LEO
        (``UnexpectedAppendOffset``, carrying the first and last offsets: the
        caller restarts an empty log at the first offset, as Kafka's Partition
        does when the leader's log start lies inside a batch). A gap above the
        LEO is accepted, as Kafka accepts it (compacted leaders have gaps).
        ``leader_epoch`` (the follower's current leader epoch, -1 = unknown):
        batches from the first one stamped with a higher epoch on are dropped
        (KAFKA-18723: a deposed leader's late response must not be persisted).
        The leader-epoch cache takes every batch's ``partition_leader_epoch``.

        All or nothing, exactly as ``append_as_leader`` (same write step). An
        empty result (``valid_bytes`` 0) appended nothing.
        """
        if self.offline:
            raise self._offline_error()
        view = records if isinstance(records, memoryview) else memoryview(records)
        n = len(view)
        spans = []
        infos = []
        pos = 0
        last_offset = -1
        max_ts = -1
        while n - pos >= LOG_OVERHEAD:
            batch_length = int.from_bytes(view[pos + 8:pos + 12], "big", signed=True)
            size = LOG_OVERHEAD + batch_length
            if batch_length < HEADER_SIZE - LOG_OVERHEAD:
                raise KafkaError(ErrorCode.CORRUPT_MESSAGE,
                                 f"Record size {batch_length} at {pos} is less than the minimum "
                                 f"record batch overhead in {self.topic}-{self.partition}")
            if size > n - pos:
                break  # an incomplete last batch: not an error, the next fetch brings it
            h = read_header(view, pos)
            if h.magic != MAGIC_V2:
                raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"batch at {pos}: magic {h.magic}")
            if leader_epoch >= 0 and h.partition_leader_epoch > leader_epoch:
                log.info("%s-%d: skipping batches from offset %d: their leader epoch %d is above "
                         "the current one %d", self.topic, self.partition, h.base_offset,
                         h.partition_leader_epoch, leader_epoch)
                break
            if not crc_is_valid(view, pos, size):
                raise KafkaError(ErrorCode.CORRUPT_MESSAGE,
                                 f"Record is corrupt (stored crc = {h.crc}) in topic partition "
                                 f"{self.topic}-{self.partition}")
            if h.attributes & 0x07 > 4:
                raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"batch at {pos}: unknown "
                                 f"compression codec {h.attributes & 0x07}")
            last = h.base_offset + h.last_offset_delta
            if h.base_offset <= last_offset or h.last_offset_delta < 0:
                raise OffsetsOutOfOrder(f"Out of order offsets found in append to {self.topic}-"
                                        f"{self.partition}: batch {h.base_offset}..{last} after "
                                        f"{last_offset}")
            spans.append(h)
            infos.append((pos, size, last, h.max_timestamp))
            max_ts = max(max_ts, h.max_timestamp)
            last_offset = last
            pos += size
        if not spans:
            return FollowerAppendResult(-1, -1, -1, 0)
        first = spans[0].base_offset
        leo = self.log_end_offset
        if first < leo:
            raise UnexpectedAppendOffset(
                f"Unexpected offset in append to {self.topic}-{self.partition}. First offset "
                f"{first} is less than the next offset {leo}. Last offset in append: "
                f"{last_offset}. Log start offset = {self._log_start_offset}", first, last_offset)
        if pos > self.config.segment_bytes:
            raise KafkaError(ErrorCode.RECORD_LIST_TOO_LARGE,
                             f"Message batch size is {pos} bytes in append to partition "
                             f"{self.topic}-{self.partition}, which exceeds the maximum "
                             f"configured segment size of {self.config.segment_bytes}.")
        buf = view[:pos]
        if self._should_roll(pos, max_ts, last_offset, now_ms):
            self.roll(now_ms)  # all or nothing itself; KafkaError on failure
        self._write(buf, infos, [(h.partition_leader_epoch, h.base_offset) for h in spans],
                    last_offset, now_ms)
        # memory only from here on: nothing can fail
        for h, (bpos, bsize, _l, _t) in zip(spans, infos):
            if h.is_control and h.producer_id >= 0:  # a leader's marker: replayed, not checked
                self._end_txn(h, h.base_offset, read_marker(h, buf[bpos:bpos + bsize]),
                              self._segments[-1].base_offset)
            else:
                self.producer_state.replay_header(h)
        return FollowerAppendResult(first, last_offset, spans[-1].partition_leader_epoch, pos)

    def assign_epoch_start_offset(self, epoch: int, start_offset: int) -> None:
        """A new leader records where its epoch starts (Kafka's makeLeader) before any append,
        so OffsetForLeaderEpoch and diverging-epoch answers already end the previous epoch
        there. KAFKA_STORAGE_ERROR (nothing changed) when the checkpoint cannot be written."""
        if self.offline:
            raise self._offline_error()
        try:
            self.leader_epochs.assign(epoch, start_offset)
        except OSError as e:
            raise self._storage_error(f"leader epoch checkpoint of {self.dir}", e) from e

    # -- storage errors -------------------------------------------------------
    def _offline_error(self) -> KafkaError:
        return KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                          f"{self.topic}-{self.partition} is offline: its log dir "
                          f"{os.path.dirname(self.dir)} failed")

    def _storage_error(self, what: str, e: OSError) -> KafkaError:
        """The error for a failed write that was undone: the partition stays usable."""
        log.warning("%s-%d: %s failed and was undone: %s", self.topic, self.partition, what, e)
        if self.on_io_error is not None:
            self.on_io_error(os.path.dirname(self.dir))
        return KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"{what} failed: {e}")

    def _undo_append(self, seg: LogSegment, mark: tuple, cause: BaseException) -> None:
        try:
            seg.rollback(mark, cause)
        except LogDirFailure as e:
            raise self._dir_failed(e) from e

    def _dir_failed(self, e: BaseException) -> KafkaError:
        """Files and memory may disagree: stop serving; tell the log manager. Returns the
        KafkaError to raise."""
        if not self.offline:
            self.offline = True
            log.error("%s-%d: storage failure in %s; taking the log dir offline: %s",
                      self.topic, self.partition, self.dir, e)
            if self.on_dir_failure is not None:
                self.on_dir_failure(os.path.dirname(self.dir), f"{self.topic}-{self.partition}: {e}")
            self.offsets_moved()  # fetch sessions look at it again (and answer the error)
        return self._offline_error()

    # -- rolling and flushing -------------------------------------------------
    def _should_roll(self, incoming_bytes: int, max_timestamp: int, last_offset: int,
                     now_ms: int) -> bool:
        seg = self._segments[-1]
        if seg.size == 0:
            return False
        if seg.size > self.config.segment_bytes - incoming_bytes:
            return True
        oi, ti = seg.offset_index, seg.time_index
        if len(oi.rel) >= oi.max_entries or len(ti.ts) >= ti.max_entries:  # an index is full
            return True
        if last_offset - seg.base_offset > INT32_MAX:
            return True
        first = seg.first_batch_timestamp
        waited = max_timestamp - first if first is not None and first >= 0 \
            else now_ms - seg.created_ms
        return waited > self.config.segment_ms

    def maybe_roll(self, now_ms: int) -> bool:
        """Roll the active segment if segment.ms (judged at ``now_ms``) or its indexes say so."""
        if self._should_roll(0, now_ms, self.log_end_offset, now_ms):
            self.roll(now_ms)
            return True
        return False

    def roll(self, now_ms: int) -> LogSegment:
        """Start a new active segment at the LEO (no-op when the active one is empty).

        The old segment is fsynced, a producer snapshot at the LEO is
        written, the old segment gets its final time-index entry, the new
        segment's files are created and the recovery point moves to the LEO.
        All or nothing: a failed snapshot changes nothing; a failure after it
        cuts the time-index entry back and removes the new files (the snapshot
        stays: it describes the state at the LEO either way). Raises KafkaError
        (KAFKA_STORAGE_ERROR; the dir goes offline if the undo fails).
        """
        if self.offline:
            raise self._offline_error()
        old = self.active_segment
        if old.is_empty:
            return old
        self.flush(now_ms)
        leo = old.next_offset
        had_snapshot = os.path.exists(snapshot_path(self.dir, leo))
        try:
            self.producer_state.take_snapshot(leo)
        except OSError as e:
            raise self._storage_error(f"producer snapshot at {leo} in {self.dir}", e) from e
        mark = old.mark()
        try:
            old.on_become_inactive()
            new = LogSegment.create(self.dir, leo, self.config, now_ms)
        except OSError as e:
            self._undo_append(old, mark, e)
            if not had_snapshot:
                try:
                    os.unlink(snapshot_path(self.dir, leo))
                except OSError:
                    pass  # a correct snapshot of the state at the LEO: harmless if it stays
            raise self._storage_error(f"roll to a new segment at {leo} in {self.dir}", e) from e
        self._prune_snapshots()
        self._segments.append(new)
        self._bases.append(leo)
        self.recovery_point = leo
        log.debug("%s-%d: rolled new segment at offset %d", self.topic, self.partition, leo)
        return new

    def _take_snapshot(self, offset: int, batch=None) -> None:
        self.producer_state.take_snapshot(offset, batch)
        if batch is None:
            self._prune_snapshots()
        else:  # the new one is renamed into place at the batch's commit: prune after it
            batch.after(self._prune_snapshots)

    def _prune_snapshots(self) -> None:
        offsets = list_snapshots(self.dir)
        if len(offsets) > SNAPSHOTS_TO_KEEP:  # one listing; usually nothing to delete
            keep = set(offsets[-SNAPSHOTS_TO_KEEP:])
            self.producer_state.delete_snapshots(keep=keep.__contains__, offsets=offsets)

    def flush(self, now_ms: int | None = None, batch=None) -> None:
        """fsync every segment with unflushed data (and its indexes); recovery point = LEO.

        ``batch``: a clean shutdown's ``durability.SyncBatch``: the fsyncs are noted and done
        by its commit (before the log manager writes the recovery points).

        A failed fsync takes the log dir offline (KafkaError): after it the
        page cache may have dropped data that was acknowledged, so only a
        recovery at the next start can tell what the files hold.
        """
        if self.offline:
            raise self._offline_error()
        try:
            # epochs first: an entry must be in the file before the recovery point passes it
            self.leader_epochs.flush_if_dirty(batch)
            for seg in self._segments[self._segment_index(self.recovery_point):]:
                seg.flush(batch)  # a no-op for segments without unflushed writes
        except OSError as e:
            raise self._dir_failed(e) from e
        self.recovery_point = self.log_end_offset
        if now_ms is not None:
            self._last_flush_ms = now_ms

    def flush_due(self, now_ms: int) -> bool:
        """True when flush.ms has passed since the last flush and data is waiting (no I/O)."""
        return now_ms - self._last_flush_ms >= self.config.flush_ms and \
            self.recovery_point < self.log_end_offset

    def maybe_flush(self, now_ms: int) -> bool:
        """flush.ms: fsync if it has been that long since the last flush and data is waiting."""
        if self.flush_due(now_ms):
            self.flush(now_ms)
            return True
        return False

    # -- reading --------------------------------------------------------------
    def read(self, fetch_offset: int, max_bytes: int, min_one_batch: bool = True,
             max_offset: int | None = None, isolation: int = READ_UNCOMMITTED) -> ReadResult:
        """Whole batches from the one holding ``fetch_offset``, all ending below ``max_offset``.

        ``max_offset`` defaults to the HW (the LSO for read_committed). The
        first batch is returned even when larger than ``max_bytes`` if
        ``min_one_batch``. Raises OFFSET_OUT_OF_RANGE outside
        [log start, LEO]; at the LEO (or HW) the result is empty.
        """
        if self.offline:
            raise self._offline_error()
        leo = self.log_end_offset
        if fetch_offset < self._log_start_offset or fetch_offset > leo:
            raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE,
                             f"Offset {fetch_offset} is out of range for {self.topic}-"
                             f"{self.partition}: [{self._log_start_offset}, {leo}]")
        if max_offset is None:
            max_offset = self.last_stable_offset if isolation == READ_COMMITTED \
                else self._high_watermark
        regions: list[FileRegion] = []
        first = -1
        if fetch_offset < max_offset:
            try:
                for seg in self._segments[self._segment_index(fetch_offset):]:
                    got = seg.read(fetch_offset, max_bytes, max_offset, min_one_batch)
                    if got is not None:
                        regions.append(got[0])
                        first = got[1]
                        break
                    if (seg.size and seg.next_offset > fetch_offset) or \
                            seg.next_offset >= max_offset:
                        break  # the batch is here but not readable (bound or size)
                    # else: nothing at or after fetch_offset here (a segment the log cleaner
                    # emptied, or a gap at its end): the next segment holds the next batch
            except OSError as e:  # a read error: Kafka takes the dir offline too
                raise self._dir_failed(e) from e
        size = regions[0].length if regions else 0
        return ReadResult(regions, size, first, self._high_watermark, self.last_stable_offset,
                          self._log_start_offset, leo)

    def offset_for_timestamp(self, target_ms: int, max_offset: int | None = None):
        """ListOffsets by time: (offset, timestamp) of the first record with timestamp >=
        ``target_ms`` below ``max_offset`` (default HW), or None. See ``search.py``."""
        if self.offline:
            raise self._offline_error()
        bound = self._high_watermark if max_offset is None else max_offset
        try:
            return search.offset_for_timestamp(self, target_ms, bound)
        except OSError as e:
            raise self._dir_failed(e) from e

    def offset_of_max_timestamp(self, max_offset: int | None = None):
        """ListOffsets -3: (offset, timestamp) of the first record with the largest
        timestamp below ``max_offset`` (default HW), or None for an empty log."""
        if self.offline:
            raise self._offline_error()
        bound = self._high_watermark if max_offset is None else max_offset
        try:
            return search.offset_of_max_timestamp(self, bound)
        except OSError as e:
            raise self._dir_failed(e) from e

    # -- deletion -------------------------------------------------------------
    def _deletable(self, predicate) -> list[LogSegment]:
        """Kafka's rule: a prefix of segments, each wholly below the HW, for which
        ``predicate(segment, next_segment)`` holds; never an empty active segment."""
        out = []
        segs = self._segments
        for i, seg in enumerate(segs):
            nxt = segs[i + 1] if i + 1 < len(segs) else None
            upper = nxt.base_offset if nxt is not None else self.log_end_offset
            if self._high_watermark >= upper and not (nxt is None and seg.is_empty) \
                    and predicate(seg, nxt):
                out.append(seg)
            else:
                break
        return out

    def _delete_segments(self, doomed: list[LogSegment], reason: str,
                         now_ms: int | None = None) -> int:
        if not doomed:
            return 0
        if len(doomed) == len(self._segments):  # keep an active segment at the LEO
            self.roll(self._last_flush_ms if now_ms is None else now_ms)
        for seg in doomed:
            log.info("%s-%d: deleting segment %d (%d bytes): %s", self.topic, self.partition,
                     seg.base_offset, seg.size, reason)
            self._segments.remove(seg)
            seg.close()
            seg.delete()
        self._bases = [s.base_offset for s in self._segments]
        if self._segments[0].base_offset > self._log_start_offset:
            self._log_start_offset = self._segments[0].base_offset
            self.leader_epochs.truncate_from_start(self._log_start_offset)
        self._high_watermark = max(self._high_watermark, self._log_start_offset)
        self._on_high_watermark(self._high_watermark)
        self.offsets_moved()
        self.recovery_point = max(self.recovery_point, self._log_start_offset)
        self.txn_index.drop_segments([s.base_offset for s in doomed], self._log_start_offset)
        return len(doomed)

    def delete_records_before(self, offset: int) -> int:
        """DeleteRecords: move the log start offset to ``offset`` (-1 = the HW); returns it.

        OFFSET_OUT_OF_RANGE above the HW. Segments wholly below the new start
        are deleted at once; a batch straddling it stays (readers skip).
        """
        if self.offline:
            raise self._offline_error()
        if offset == -1:
            offset = self._high_watermark
        if offset < 0 or offset > self._high_watermark:
            raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE,
                             f"Cannot increment the log start offset to {offset} of "
                             f"{self.topic}-{self.partition}: above the high watermark "
                             f"{self._high_watermark}")
        if offset > self._log_start_offset:
            self._log_start_offset = offset
            self.leader_epochs.truncate_from_start(offset)
            self.offsets_moved()
            self._delete_log_start_breached()
        return self._log_start_offset

    def _delete_log_start_breached(self) -> int:
        start = self._log_start_offset
        return self._delete_segments(
            self._deletable(lambda seg, nxt: nxt is not None and nxt.base_offset <= start),
            f"below the log start offset {start}")

    def apply_retention(self, now_ms: int) -> int:
        """Delete old segments by retention.ms and retention.bytes; returns how many.

        Kafka's rules: whole segments only, oldest first, each wholly below the
        HW; retention.ms judges a segment by its largest timestamp; the active
        segment goes too if it qualifies and is not empty (a new empty one is
        rolled first). The log start offset follows the first remaining segment.
        """
        cfg = self.config
        deleted = 0
        if cfg.delete_enabled and cfg.retention_ms >= 0:
            deleted += self._delete_segments(self._deletable(
                lambda seg, nxt: now_ms - seg.largest_timestamp() > cfg.retention_ms),
                f"retention.ms {cfg.retention_ms} breached", now_ms)
        if cfg.delete_enabled and cfg.retention_bytes >= 0:
            excess = [self.size_bytes - cfg.retention_bytes]

            def over(seg, nxt):
                if excess[0] - seg.size >= 0:
                    excess[0] -= seg.size
                    return True
                return False

            deleted += self._delete_segments(self._deletable(over),
                                             f"retention.bytes {cfg.retention_bytes} breached",
                                             now_ms)
        deleted += self._delete_log_start_breached()
        return deleted

    def expire_producers(self, now_ms: int) -> int:
        """Forget producers idle longer than producer.id.expiration.ms; returns how many.
        A state not read yet is left alone (retention visits every log: reading them all
        would undo the deferral); the first check after it is read expires its producers."""
        ps = self.__dict__.get("producer_state")
        return 0 if ps is None else ps.remove_expired(now_ms)

    # -- truncation (replication): all or nothing, in truncation.py ------------
    def truncate_to(self, offset: int) -> int:
        """Remove everything from the batch holding ``offset`` on; the new LEO
        (``truncation.truncate_to``: Kafka's rules, all or nothing)."""
        self.producer_state  # read before truncation deletes snapshots (see producer_state)
        leo = truncation.truncate_to(self, offset)
        self.txn_index.truncate(leo)
        return leo

    def truncate_fully_and_start_at(self, offset: int) -> int:
        """Delete every segment; the log restarts empty at ``offset``
        (``truncation.truncate_fully_and_start_at``, all or nothing)."""
        self.producer_state  # read before truncation deletes snapshots (see producer_state)
        leo = truncation.truncate_fully_and_start_at(self, offset)
        self.txn_index.clear()
        return leo

    # -- lifecycle ------------------------------------------------------------
    def close(self, batch=None) -> None:
        """fsync, write the producer snapshot at the LEO, close index files.

        Raises KafkaError (KAFKA_STORAGE_ERROR) if the log is offline or the
        flush or snapshot fails; the files are closed either way, and the log
        manager then does not certify the dir as cleanly shut down. ``batch``
        (the log manager's clean shutdown): the fsyncs and renames are left to
        ``batch.commit()``, see ``durability.py``.
        """
        if self.closed:
            return
        try:
            if self.offline:
                raise self._offline_error()
            self.flush(batch=batch)
            try:
                leo = self.log_end_offset
                deferred = self._deferred_snapshot
                # Unread since open(): only batches without a producer id came since, so the
                # snapshot found then (or none, for an empty state) still holds the state. A
                # snapshot at the LEO is written unless none is needed: one is there, or the
                # clean shutdown's summary will name the deferred one (a small log: a crash
                # instead replays its few batches from that snapshot).
                if deferred is not None and (deferred == leo or log_summary.summarizable(self)):
                    pass
                elif not self.producer_state.has_snapshot(leo):
                    self._take_snapshot(leo, batch)
            except OSError as e:
                raise self._storage_error(f"producer snapshot at close of {self.dir}", e) from e
        finally:
            for seg in self._segments:
                seg.close()
            self.closed = True

    def delete(self) -> None:
        """Remove the partition directory (no flush): renamed to ``<name>.<hex>-delete``
        first, Kafka's convention, so an interrupted deletion is finished at start-up."""
        for seg in self._segments:
            seg.close()
        self.closed = True
        doomed = f"{self.dir}.{uuid.uuid4().hex}-delete"
        try:
            os.rename(self.dir, doomed)
            fsync_dir(os.path.dirname(self.dir))
        except FileNotFoundError:
            return
        shutil.rmtree(doomed, ignore_errors=True)

    def __repr__(self) -> str:
        return (f"PartitionLog({self.topic}-{self.partition}, start={self._log_start_offset}, "
                f"hw={self._high_watermark}, leo={self.log_end_offset}, "
                f"segments={len(self._segments)})")
