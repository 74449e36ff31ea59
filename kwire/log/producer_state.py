"""Idempotent-producer state of one partition: dedup and sequence checks, snapshots.

Per producer id the partition remembers the current epoch and the metadata of
its last five batches (Kafka's ``ProducerStateEntry.NUM_BATCHES_TO_RETAIN``):
first and last sequence, base and last offset, max timestamp. With it
``check`` decides, for an incoming batch with ``producer_id >= 0``, exactly as
Kafka 4.x's ``ProducerAppendInfo`` does for client appends:

* same epoch and the same (first, last) sequence as one of the retained
  batches: a retry. The append is answered with the original offsets and
  nothing is written (``DuplicateBatch``).
* epoch lower than the known one: INVALID_PRODUCER_EPOCH (since Kafka 2.7 this
  replaced the fatal PRODUCER_FENCED for produce responses).
* epoch higher than the known one: the sequence must restart at 0, else
  OUT_OF_ORDER_SEQUENCE_NUMBER.
* same epoch: the first sequence must follow the last one (``last + 1``, or 0
  after Int32.MAX -- sequences wrap), else OUT_OF_ORDER_SEQUENCE_NUMBER. That
  includes a retry older than the retained five.
* unknown producer id: any sequence is accepted. Since KIP-360 (Kafka 2.5)
  the broker cannot tell "new producer" from "state lost to retention or
  DeleteRecords", so it takes the first batch as the new starting point.
  Kafka 4.x demands 0 here from a transactions-v2 producer whose batch was
  verified with the coordinator (KIP-890); ``check`` is not told whether a
  batch was verified, so kwire does not apply that rule.

``replay`` applies a batch without checks (loading from the log; Kafka treats
that as the REPLICATION origin). A new epoch clears the retained batches.

Snapshot file ``<20-digit offset>.snapshot`` in the partition directory holds
the state of every batch below that offset. Format (big-endian, kwire's own)::

    0   4   magic  b"KWPS"
    4   2   version (1)
    6   4   CRC-32C of everything after this field
    10  8   offset (same as the file name)
    18  4   number of producers
    then per producer:
        8 producer_id | 2 epoch | 4 coordinator_epoch | 8 last_timestamp |
        8 current_txn_first_offset (-1) | 1 number of batches n |
        n x (4 first_seq | 4 last_seq | 8 base_offset | 8 last_offset | 8 timestamp)

Transactions: a transactional batch of a producer with no open transaction
opens one at its base offset (``current_txn_first_offset``); a control batch
(COMMIT or ABORT marker, written by the transaction coordinator) closes it
and records the coordinator epoch it carries (``coordinator_epoch``, -1 until
the producer's first marker). ``check_end_txn`` refuses a marker from the
coordinator as Kafka's ``ProducerAppendInfo.appendEndTxnMarker`` does: first
an epoch below the producer's (INVALID_PRODUCER_EPOCH; for a transactions v2
marker -- ``transaction_version`` 2, which the coordinator sends with it -- an
epoch equal to the producer's too, as the coordinator bumps the epoch before
every v2 marker, unless the producer has no open transaction here: then it
is a resent marker and is written again, KAFKA-19999), then a coordinator
epoch below the last one seen (TRANSACTION_COORDINATOR_FENCED: a zombie
coordinator, e.g. the previous leader of a ``__transaction_state``
partition). Markers replayed from the log or a leader are not checked (Kafka
only logs there) and set the coordinator epoch whatever it is.
``first_unstable_offset()`` is the first offset of the oldest transaction
still open, or closed by a marker not yet below the high watermark (Kafka's
``unreplicatedTxns``, dropped by ``on_high_watermark``): the partition's last
stable offset (LSO) stays below it, so no read_committed reader sees a
commit before its marker is replicated. Open transactions live in the
snapshot (``current_txn_first_offset``), so they survive restarts; closed
unreplicated ones are rebuilt from the markers replayed after the snapshot. Whether a marker committed or aborted is not known here
(the partition log reads the marker and keeps the aborted-transaction index,
``txn_index.py``).
"""

from __future__ import annotations

import logging
import os
import struct
from collections import deque
from typing import NamedTuple

from kwire.records.crc import crc32c

from kwire.protocol.errors import ErrorCode, KafkaError

from . import faults
from .checkpoint import atomic_write, offsets_named, read_small

log = logging.getLogger("kwire.log")

NUM_BATCHES_TO_RETAIN = 5
INT32_MAX = (1 << 31) - 1
SNAPSHOT_SUFFIX = ".snapshot"
_MAGIC = b"KWPS"
_VERSION = 1
_HEAD = struct.Struct(">4shI")
_BODY_HEAD = struct.Struct(">qi")
_ENTRY = struct.Struct(">qhiqqB")
_BATCH = struct.Struct(">iiqqq")


class BatchMetadata(NamedTuple):
    first_seq: int
    last_seq: int
    base_offset: int
    last_offset: int
    timestamp: int


class ProducerStateEntry:
    __slots__ = ("producer_id", "epoch", "batches", "last_timestamp", "coordinator_epoch",
                 "current_txn_first_offset")

    def __init__(self, producer_id: int, epoch: int = -1) -> None:
        self.producer_id = producer_id
        self.epoch = epoch
        self.batches: deque[BatchMetadata] = deque(maxlen=NUM_BATCHES_TO_RETAIN)
        self.last_timestamp = -1
        self.coordinator_epoch = -1
        self.current_txn_first_offset = -1

    @property
    def last_seq(self) -> int:
        return self.batches[-1].last_seq if self.batches else -1

    def add(self, epoch: int, meta: BatchMetadata) -> None:
        if epoch != self.epoch:
            self.epoch = epoch
            self.batches.clear()
        self.batches.append(meta)
        self.last_timestamp = meta.timestamp

    def find_duplicate(self, epoch: int, first_seq: int, last_seq: int) -> BatchMetadata | None:
        if epoch != self.epoch:
            return None
        for b in self.batches:
            if b.first_seq == first_seq and b.last_seq == last_seq:
                return b
        return None


def in_sequence(last_seq: int, next_seq: int) -> bool:
    return next_seq == last_seq + 1 or (next_seq == 0 and last_seq == INT32_MAX)


def snapshot_path(dir: str, offset: int) -> str:
    return f"{dir}/{offset:020d}{SNAPSHOT_SUFFIX}"  # not os.path.join: start-up calls it per partition


def list_snapshots(dir: str, names: list[str] | None = None) -> list[int]:
    """Offsets of the snapshot files in ``dir`` (``names``: its listing, if known), ascending."""
    return offsets_named(os.listdir(dir) if names is None else names, SNAPSHOT_SUFFIX)


class ProducerStateManager:
    def __init__(self, dir: str, expiration_ms: int) -> None:
        self.dir = dir
        self.expiration_ms = expiration_ms
        self._producers: dict[int, ProducerStateEntry] = {}
        self.ongoing: dict[int, int] = {}  # producer id -> first offset of its open transaction
        # Kafka's unreplicatedTxns: first offset -> marker offset of a transaction whose COMMIT or
        # ABORT marker is not yet below the high watermark; it stays unstable (holds the LSO) until
        # then, or a read_committed reader could see a commit that a leader change then loses
        self.unreplicated: dict[int, int] = {}
        self._on_disk: tuple[int, bytes] | None = None  # (offset, bytes) of the last snapshot file

    @property
    def producers(self) -> dict[int, ProducerStateEntry]:
        return self._producers

    @producers.setter
    def producers(self, producers: dict[int, ProducerStateEntry]) -> None:
        self._producers = producers
        self.ongoing = {pid: e.current_txn_first_offset for pid, e in producers.items()
                        if e.current_txn_first_offset >= 0}

    def first_open_offset(self) -> int | None:
        """First offset of the oldest open transaction (None: none open)."""
        return min(self.ongoing.values()) if self.ongoing else None

    def first_unstable_offset(self) -> int | None:
        """First offset of the oldest transaction still open or whose marker is not yet below
        the high watermark (Kafka's ``firstUnstableOffset``); None: none."""
        if not self.ongoing and not self.unreplicated:  # no transactions: every fetch asks this
            return None
        firsts = list(self.ongoing.values()) + list(self.unreplicated)
        return min(firsts) if firsts else None

    def on_high_watermark(self, high_watermark: int) -> None:
        """Kafka's ``onHighWatermarkUpdated``: transactions whose marker is below the HW are stable."""
        if self.unreplicated:
            self.unreplicated = {f: m for f, m in self.unreplicated.items() if m >= high_watermark}

    def check_end_txn(self, producer_id: int, epoch: int, coordinator_epoch: int,
                      transaction_version: int = 0) -> None:
        """Validate a marker from the transaction coordinator before it is written
        (Kafka's checks, in Kafka's order); raises KafkaError. ``transaction_version``
        is the one the coordinator sent with the marker (WriteTxnMarkers v2; 0 before)."""
        entry = self._producers.get(producer_id)
        if entry is None:  # Kafka's empty entry: epoch -1, coordinator epoch -1, no transaction
            current_epoch = current_coordinator_epoch = -1
            open_txn = False
        else:
            current_epoch, current_coordinator_epoch = entry.epoch, entry.coordinator_epoch
            open_txn = entry.current_txn_first_offset >= 0
        # Transactions v2: the coordinator bumps the epoch before every marker, so a valid
        # marker is strictly above the epoch the partition knows; an equal one is late or
        # a duplicate. Before v2 markers carry the transaction's own epoch.
        if transaction_version >= 2:
            invalid, comparison = epoch <= current_epoch, "<="
        else:
            invalid, comparison = epoch < current_epoch, "<"
        if invalid:
            if transaction_version >= 2 and epoch == current_epoch and not open_txn:
                # KAFKA-19999: the transaction already ended here (a marker resent after a
                # coordinator reload, or one whose response was lost); written again
                log.info("Idempotent transaction marker retry detected for producer %d epoch %d. "
                         "Transaction already completed, allowing duplicate marker write.",
                         producer_id, epoch)
            else:
                raise KafkaError(ErrorCode.INVALID_PRODUCER_EPOCH,
                                 f"Epoch of producer {producer_id} is {epoch}, which is "
                                 f"{comparison} the last seen epoch {current_epoch} "
                                 f"(TV{transaction_version})")
        if current_coordinator_epoch > coordinator_epoch:
            raise KafkaError(ErrorCode.TRANSACTION_COORDINATOR_FENCED,
                             f"Invalid coordinator epoch for producerId {producer_id}: "
                             f"{coordinator_epoch} (zombie), {current_coordinator_epoch} (current)")

    def end_txn(self, producer_id: int, epoch: int, marker_offset: int,
                coordinator_epoch: int | None = None, timestamp: int | None = None) -> int:
        """A COMMIT/ABORT marker at ``marker_offset``: close the producer's open
        transaction; returns its first offset (-1 if none was open). The marker's
        coordinator epoch and timestamp are recorded when given (None: the marker
        could not be read; the known values stay)."""
        entry = self._producers.get(producer_id)
        if entry is None:
            entry = self._producers[producer_id] = ProducerStateEntry(producer_id, epoch)
        elif epoch > entry.epoch:
            entry.epoch = epoch
            entry.batches.clear()
        first = entry.current_txn_first_offset
        entry.current_txn_first_offset = -1
        if first >= 0:
            self.unreplicated[first] = marker_offset
        if coordinator_epoch is not None:
            entry.coordinator_epoch = coordinator_epoch
        if timestamp is not None and timestamp >= 0:
            entry.last_timestamp = timestamp
        self.ongoing.pop(producer_id, None)
        return first

    def __len__(self) -> int:
        return len(self.producers)

    # -- live appends ---------------------------------------------------------
    def check(self, producer_id: int, epoch: int, first_seq: int,
              last_seq: int) -> BatchMetadata | None:
        """Validate an incoming client batch; the original batch if it is a retry."""
        entry = self.producers.get(producer_id)
        if entry is None:
            return None
        dup = entry.find_duplicate(epoch, first_seq, last_seq)
        if dup is not None:
            return dup
        if epoch < entry.epoch:
            raise KafkaError(ErrorCode.INVALID_PRODUCER_EPOCH,
                             f"Epoch of producer {producer_id} is {epoch}, which is smaller than "
                             f"the last seen epoch {entry.epoch}")
        if epoch > entry.epoch:
            if first_seq != 0 and entry.epoch != -1:
                raise KafkaError(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                                 f"Invalid sequence number for new epoch of producer {producer_id}: "
                                 f"{epoch} (request epoch), {first_seq} (seq. number), "
                                 f"{entry.epoch} (current producer epoch)")
        elif not in_sequence(entry.last_seq, first_seq):
            raise KafkaError(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                             f"Out of order sequence number for producer {producer_id}: "
                             f"{first_seq} (incoming seq. number), {entry.last_seq} "
                             f"(current end sequence number)")
        return None

    def replay(self, producer_id: int, epoch: int, first_seq: int, last_seq: int,
               base_offset: int, last_offset: int, timestamp: int,
               transactional: bool = False) -> None:
        """Record an appended batch (live, after the write, or while loading)."""
        entry = self._producers.get(producer_id)
        if entry is None:
            entry = self._producers[producer_id] = ProducerStateEntry(producer_id, epoch)
        elif epoch < entry.epoch:
            log.warning("producer %d: batch at %d has epoch %d below %d; kept anyway",
                        producer_id, base_offset, epoch, entry.epoch)
        entry.add(epoch, BatchMetadata(first_seq, last_seq, base_offset, last_offset, timestamp))
        if transactional and entry.current_txn_first_offset < 0:
            entry.current_txn_first_offset = base_offset
            self.ongoing[producer_id] = base_offset

    def replay_header(self, h) -> int:
        """Replay one batch header; for a control batch, the first offset of the
        transaction it closed (-1 if none), else -1. A header alone does not tell
        the marker's coordinator epoch: callers that have the batch's bytes call
        ``end_txn`` with it instead (``PartitionLog._end_txn``)."""
        if h.producer_id < 0:
            return -1
        if h.is_control:
            return self.end_txn(h.producer_id, h.producer_epoch, h.base_offset)
        self.replay(h.producer_id, h.producer_epoch, h.base_sequence, h.last_sequence,
                    h.base_offset, h.base_offset + h.last_offset_delta, h.max_timestamp,
                    h.is_transactional)
        return -1

    def remove_expired(self, now_ms: int) -> int:
        """Forget producers idle for producer.id.expiration.ms (by their last batch timestamp)."""
        expired = [pid for pid, e in self.producers.items()
                   if e.current_txn_first_offset < 0
                   and now_ms - e.last_timestamp >= self.expiration_ms]
        for pid in expired:
            del self._producers[pid]
        return len(expired)

    def clear(self) -> None:
        self._producers.clear()
        self.ongoing.clear()
        self.unreplicated.clear()

    # -- snapshots ------------------------------------------------------------
    def encode(self, offset: int) -> bytes:
        body = bytearray(_BODY_HEAD.pack(offset, len(self.producers)))
        for e in self.producers.values():
            body += _ENTRY.pack(e.producer_id, e.epoch, e.coordinator_epoch, e.last_timestamp,
                                e.current_txn_first_offset, len(e.batches))
            for b in e.batches:
                body += _BATCH.pack(*b)
        return _HEAD.pack(_MAGIC, _VERSION, crc32c(bytes(body))) + bytes(body)

    def take_snapshot(self, offset: int, batch=None) -> str:
        """Write the snapshot at ``offset`` (``batch``: a clean shutdown's ``SyncBatch``
        makes it durable and renames it into place at its commit)."""
        path = snapshot_path(self.dir, offset)
        faults.check("producer_snapshot")
        data = self.encode(offset)
        self._on_disk = None
        atomic_write(path, data, batch)
        self._on_disk = (offset, data)
        return path

    def has_snapshot(self, offset: int) -> bool:
        """True when the snapshot file at ``offset`` that this manager last read or wrote
        still exists and holds the state as it is now: a clean shutdown of a partition that
        did not change since it was opened writes no new one."""
        on_disk = self._on_disk
        return on_disk is not None and on_disk[0] == offset and on_disk[1] == self.encode(offset) \
            and os.path.exists(snapshot_path(self.dir, offset))

    def load_snapshot(self, path: str) -> int:
        """Replace the state with the snapshot's; returns its offset. ValueError if unusable."""
        self._on_disk = None
        data = read_small(path)
        if len(data) < _HEAD.size + _BODY_HEAD.size:
            raise ValueError(f"{path}: too short")
        magic, version, crc = _HEAD.unpack_from(data, 0)
        if magic != _MAGIC or version != _VERSION:
            raise ValueError(f"{path}: not a version {_VERSION} kwire producer snapshot")
        body = memoryview(data)[_HEAD.size:]
        if crc32c(body) != crc:
            raise ValueError(f"{path}: CRC mismatch")
        try:
            offset, count = _BODY_HEAD.unpack_from(body, 0)
            pos = _BODY_HEAD.size
            producers = {}
            for _ in range(count):
                pid, epoch, coord, last_ts, txn, nb = _ENTRY.unpack_from(body, pos)
                pos += _ENTRY.size
                e = ProducerStateEntry(pid, epoch)
                e.coordinator_epoch, e.last_timestamp, e.current_txn_first_offset = coord, last_ts, txn
                for _ in range(nb):
                    e.batches.append(BatchMetadata(*_BATCH.unpack_from(body, pos)))
                    pos += _BATCH.size
                producers[pid] = e
        except struct.error as exc:
            raise ValueError(f"{path}: truncated ({exc})") from None
        self.producers = producers
        self._on_disk = (offset, bytes(data))
        return offset

    def delete_snapshots(self, keep=lambda offset: False, offsets: list[int] | None = None) -> None:
        """Unlink the snapshots not kept; ``offsets``: the ones present, if the caller just
        listed them (the directory is then not listed again)."""
        for off in list_snapshots(self.dir) if offsets is None else offsets:
            if not keep(off):
                try:
                    os.unlink(snapshot_path(self.dir, off))
                except FileNotFoundError:
                    pass

    def load_latest_snapshot(self, log_end_offset: int, names: list[str] | None = None) -> int | None:
        """Load the newest usable snapshot at or below ``log_end_offset``; its offset or None.

        Snapshots above the log end (left behind by a truncation) and
        unreadable ones are deleted. ``names``: the directory's listing, if known.
        """
        for off in reversed(list_snapshots(self.dir, names)):
            path = snapshot_path(self.dir, off)
            if off > log_end_offset:
                os.unlink(path)
                continue
            try:
                self.load_snapshot(path)
                return off
            except (OSError, ValueError) as e:
                log.warning("deleting unusable producer snapshot: %s", e)
                os.unlink(path)
        self.clear()
        return None
