"""The log cleaner's file work: offset map and segment rewriting, on paths only.

``run(plan)`` does everything the cleaner does to files before the swap, in
a worker thread (or process: the plan and result are plain picklable data;
nothing here touches a ``PartitionLog``, a ``LogSegment`` or the broker's
file cache, which are the event loop's):

1. the *offset map* (Kafka's ``SkimpyOffsetMap``): key -> last offset over
   the dirty section ``[first_dirty, end)``, segment by segment, stopping
   after the segment where it holds ``max_map_entries`` keys (the pass then
   ends there; the next one continues). Keys longer than 32 bytes are stored
   as a 16-byte BLAKE2b digest to bound memory. Markers (control batches)
   and batches of aborted transactions are not mapped; records of committed
   transactions are, like any other;
2. the rewrite of every closed segment below the map's end, in groups whose
   total size stays within ``segment.bytes`` and offset span within 2^31
   (Kafka's ``groupSegmentsBySize``). A record is kept when its key has no
   later offset in the map; a keyless record is dropped (Kafka counts it
   invalid). Tombstones (null value) follow Kafka 3.1+'s rule (KIP-534):
   the first pass that keeps a tombstone stamps its batch with a *delete
   horizon* = now + ``delete.retention.ms`` (attribute bit 6, the horizon
   stored as the base timestamp, record timestamp deltas re-encoded so
   every record keeps its timestamp); a later pass drops the batch's
   tombstones once the horizon has passed. (Kafka's older rule, by segment
   last-modified times, never expires tombstones of a small log whose
   segments keep being merged into one group.) ``CleanResult.next_horizon``
   is the earliest horizon still pending, so the cleaner can come back for
   it even when nothing is dirty. A batch keeps its base offset, partition
   leader epoch, producer id / epoch / base sequence, attributes and last
   offset delta (Kafka's ``overrideLastOffset``: the producer's last
   sequence must survive); ``records_count``, ``max_timestamp``
   (CreateTime), the base timestamp (horizon) and the CRC may change. Kept
   records keep their bytes (their deltas stay relative to the unchanged
   base offset) unless the base timestamp changes; the records section is
   recompressed with the batch's own codec. A batch whose records all stay
   is copied unchanged; one left empty is dropped, except the last batch of
   a producer the log still tracks, which stays as an empty batch (no
   records, codec none, base timestamp -1: Kafka's ``writeEmptyHeader``) so
   that reloading the log keeps the producer's sequence state, as Kafka's
   cleaner retains it. Transactional batches and markers follow
   "Transactions" below;
3. per group, ``<base>.log.cleaned`` + ``.index.cleaned`` +
   ``.timeindex.cleaned`` (Kafka's sparse-index rules of ``LogSegment.track``,
   with the final time-index entry of a closed segment) and
   ``<base>.cleanend`` (the group's end offset, which start-up recovery needs
   to finish an interrupted swap, see ``cleaner_swap.py``), and
   ``<base>.txnindex.cleaned`` when index entries survive; all fsynced, the
   log file's mtime set to the group's last segment's (as Kafka does:
   retention.ms falls back on it for segments without timestamps).

Errors: any exception (an OSError, the ``clean`` fault site, a corrupt batch)
removes every file this run created and propagates; the log is untouched.

Transactions (Kafka's ``CleanedTransactionMetadata``, ``cleaner_txn.py``): the
plan carries the aborted-transaction index entries overlapping the pass; one
``CleanedTxns`` follows the whole pass (which starts at the log start, so a
transaction's batches are met before its marker) and tells, batch by batch:

* a batch of an aborted transaction is dropped whole (kept as an empty batch
  when it is the producer's last); committed transactional records are
  deduplicated like any other record (they supersede and are superseded);
* a marker (control batch) is kept while its transaction may still have data:
  an ABORT marker when this pass met (and dropped) batches of its transaction,
  a COMMIT marker when this pass met any batch of its transaction. Otherwise it
  is *removable*: the pass that first finds that stamps a delete horizon on it
  (now + ``delete.retention.ms``, as for tombstones; ``next_horizon``), and a
  pass after the horizon drops it -- or keeps it as an empty control batch when
  it is the producer's last record (a producer the log tracks with no data
  batch, whose epoch the marker carries: Kafka keeps it for fencing);
* ``<base>.txnindex.cleaned``: the index entries of the ABORT markers kept
  because their data was met in this pass (Kafka's cleaned transaction index);
  entries of markers found removable are dropped, so a read_committed fetch is
  never told about a transaction that has no data left. Entries whose marker
  lies beyond the pass stay in that segment's index.

So an aborted transaction's marker and entry outlive its data by one pass, and
the marker by ``delete.retention.ms`` more; the LSO never moves (the pass stays
below it), and replaying the log (producer state, index) finds every kept
transactional batch followed by its marker.

Not here: choosing the log, the swap, the cleaner checkpoint (``cleaner.py``,
``cleaner_swap.py``); legacy (magic < 2) records and their segment-time delete
horizon.
"""

from __future__ import annotations

import hashlib
import os
import struct
import time
from dataclasses import dataclass, field

from kwire.records.crc import crc32c

from kwire.records.batch import (
    CONTROL_MASK,
    DELETE_HORIZON_MASK,
    TRANSACTIONAL_MASK,
    HEADER_SIZE,
    LOG_OVERHEAD,
    MAGIC_V2,
    TIMESTAMP_TYPE_MASK,
    read_header,
)
from kwire.records.compression import NONE, compress, decompress
from kwire.records.errors import CorruptRecordError
from kwire.records.varint import encode_varint

from . import faults
from .cleaner_txn import CleanedTxns
from .txn_index import encode_entries

INT32_MAX = (1 << 31) - 1
READ_CHUNK = 1 << 20
MAX_DIRECT_KEY = 32

_HEADER = struct.Struct(">qiibIhiqqqhii")
_OFF = struct.Struct(">ii")
_TIME = struct.Struct(">qi")
_CRC = struct.Struct(">I")
_MAXTS = struct.Struct(">q")
_COUNT = struct.Struct(">i")
LONG_MAX = (1 << 63) - 1


@dataclass
class SegmentInfo:
    base: int
    path: str  # the .log file
    size: int  # bytes at plan time (a closed segment does not grow)
    next_offset: int
    mtime_ms: int


@dataclass
class CleanPlan:
    dir: str  # the partition directory
    segments: list[SegmentInfo]  # every closed segment from the log start below ``end``
    first_dirty: int  # where the offset map starts (the cleaner checkpoint)
    end: int  # first uncleanable offset: a segment base
    now_ms: int  # the pass's clock: horizons are set from it and compared with it
    delete_retention_ms: int
    # pid -> last offset of the producer's last data batch (Kafka's LastRecord.lastDataOffset)
    producer_last_offsets: dict[int, int] = field(default_factory=dict)
    max_map_entries: int = 4_000_000
    segment_bytes: int = 1 << 30
    index_interval_bytes: int = 4096
    max_index_entries: int = 1 << 20
    max_time_index_entries: int = 1 << 20
    # the aborted-transaction index entries overlapping the plan's segments, as plain
    # (producer id, first offset, last offset, last stable offset) tuples
    aborted_txns: list[tuple] = field(default_factory=list)
    # pid -> epoch of the producers the log tracks that have no data batch (their last
    # record is a marker, which Kafka keeps when it carries the producer's epoch)
    producer_epochs: dict[int, int] = field(default_factory=dict)


@dataclass
class CleanedGroup:
    base: int
    old_bases: list[int]
    end: int  # next offset after the group (the base of the segment after it)
    size: int  # bytes of the cleaned log file
    txn_entries: int = 0  # aborted-transaction index entries kept (``<base>.txnindex.cleaned``)


@dataclass
class CleanResult:
    dir: str
    groups: list[CleanedGroup]
    end: int  # the new cleaner checkpoint (first dirty offset of the next pass)
    bytes_read: int = 0
    bytes_written: int = 0
    records_read: int = 0
    records_kept: int = 0
    map_entries: int = 0
    elapsed_s: float = 0.0
    next_horizon: int = LONG_MAX  # earliest delete horizon of a tombstone or marker kept (KIP-534)
    aborted_removed: int = 0  # records of aborted transactions removed
    markers_removed: int = 0  # control batches (transaction markers) removed


def map_key(key: bytes) -> bytes:
    return key if len(key) <= MAX_DIRECT_KEY else hashlib.blake2b(key, digest_size=16).digest()


# -- reading ---------------------------------------------------------------------------------

def iter_batches(fd: int, size: int):
    """(position, header, batch bytes) of every whole batch in the first ``size`` bytes."""
    pos = 0
    buf = b""
    buf_start = 0
    while size - pos >= HEADER_SIZE:
        off = pos - buf_start
        if off + HEADER_SIZE > len(buf):
            buf = os.pread(fd, min(READ_CHUNK, size - pos), pos)
            buf_start, off = pos, 0
            if len(buf) < HEADER_SIZE:
                return
        h = read_header(buf, off)
        bsize = LOG_OVERHEAD + h.batch_length
        if h.magic != MAGIC_V2 or h.batch_length < HEADER_SIZE - LOG_OVERHEAD:
            raise CorruptRecordError(f"batch at {pos}: magic {h.magic}, length {h.batch_length}")
        if pos + bsize > size:
            return
        if off + bsize > len(buf):
            buf = os.pread(fd, max(bsize, min(READ_CHUNK, size - pos)), pos)
            buf_start, off = pos, 0
            if len(buf) < bsize:
                raise CorruptRecordError(f"batch at {pos}: file ends inside it")
        yield pos, h, memoryview(buf)[off:off + bsize]
        pos += bsize


def _varint(d, pos: int) -> tuple[int, int]:
    b = d[pos]
    if b < 0x80:
        return (b >> 1) ^ -(b & 1), pos + 1
    value = b & 0x7F
    shift = 7
    pos += 1
    while True:
        b = d[pos]
        value |= (b & 0x7F) << shift
        pos += 1
        if b < 0x80:
            return (value >> 1) ^ -(value & 1), pos
        shift += 7
        if shift > 63:
            raise CorruptRecordError("varint too long")


def scan_records(h, batch) -> tuple[bytes, list]:
    """(uncompressed records section, per record (start, end, offset delta, ts delta, key,
    is tombstone, position of its attributes byte, position after its timestamp delta))."""
    body = batch[HEADER_SIZE:]
    codec = h.attributes & 0x07
    data = bytes(body) if codec == NONE else (b"" if not len(body) else decompress(codec, body))
    out = []
    pos = 0
    n = len(data)
    try:
        for _ in range(h.records_count):
            length, p = _varint(data, pos)
            end = p + length
            if length < 1 or end > n:
                raise CorruptRecordError(f"record length {length} does not fit")
            attr_pos = p
            ts_delta, p = _varint(data, p + 1)
            ts_end = p
            off_delta, p = _varint(data, p)
            klen, p = _varint(data, p)
            if klen >= 0:
                key = data[p:p + klen]
                p += klen
            else:
                key = None
            vlen, p = _varint(data, p)
            out.append((pos, end, off_delta, ts_delta, key, vlen < 0, attr_pos, ts_end))
            pos = end
    except IndexError:
        raise CorruptRecordError("records section ends inside a record") from None
    return data, out


# -- the offset map --------------------------------------------------------------------------

def _end_after(plan: CleanPlan, i: int) -> int:
    """Where segment ``i`` of the plan ends: the next segment's base (``plan.end`` for the last)."""
    segs = plan.segments
    return segs[i + 1].base if i + 1 < len(segs) else plan.end


def build_offset_map(plan: CleanPlan, result: CleanResult) -> tuple[dict, int]:
    """(key -> last offset, end of the mapped section: a segment base <= plan.end)."""
    offsets: dict[bytes, int] = {}
    end = plan.first_dirty
    # Kafka's buildOffsetMap: records of aborted transactions never enter the map (they must
    # not supersede anything); committed transactional records do, like any other record
    txns = CleanedTxns([t for t in plan.aborted_txns if t[2] >= plan.first_dirty])
    for i, info in enumerate(plan.segments):
        seg_end = _end_after(plan, i)
        if seg_end <= plan.first_dirty:
            continue
        faults.check("clean", plan.dir)
        fd = os.open(info.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            for _pos, h, batch in iter_batches(fd, info.size):
                last = h.base_offset + h.last_offset_delta
                if h.attributes & CONTROL_MASK:  # a marker: ends a transaction, maps nothing
                    _data, recs = scan_records(h, batch)
                    txns.on_control(h.producer_id, last, recs[0][4] if recs else None)
                    continue
                if txns.on_batch(h.producer_id, h.attributes & TRANSACTIONAL_MASK, last) or \
                        last < plan.first_dirty:
                    continue
                _data, recs = scan_records(h, batch)
                base = h.base_offset
                for _s, _e, delta, _t, key, *_ in recs:
                    if key is not None:
                        offsets[map_key(key) if len(key) > MAX_DIRECT_KEY else key] = base + delta
        finally:
            os.close(fd)
        result.bytes_read += info.size
        end = seg_end
        if len(offsets) >= plan.max_map_entries:
            break
    return offsets, end


# -- rewriting -------------------------------------------------------------------------------

def group_segments(segments: list[SegmentInfo], max_bytes: int) -> list[list[SegmentInfo]]:
    groups: list[list[SegmentInfo]] = []
    cur: list[SegmentInfo] = []
    size = 0
    for info in segments:
        if cur and (size + info.size > max_bytes or info.next_offset - 1 - cur[0].base > INT32_MAX):
            groups.append(cur)
            cur, size = [], 0
        cur.append(info)
        size += info.size
    if cur:
        groups.append(cur)
    return groups


class _Writer:
    """One cleaned segment being written: the log file plus Kafka's sparse index entries."""

    def __init__(self, path: str, base: int, plan: CleanPlan) -> None:
        self.path = path
        self.base = base
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0),
                          0o644)
        self.size = 0
        self.interval = plan.index_interval_bytes
        self.since = 0
        self.max_ts = -1
        self.off_max_ts = -1
        self.oi: list[bytes] = []
        self.ti: list[bytes] = []
        self.last_ti = None  # (ts, rel)
        self.pending: list = []
        self.pending_bytes = 0

    def _time_entry(self, ts: int, offset: int) -> None:
        rel = offset - self.base
        if self.last_ti is not None and (ts <= self.last_ti[0] or rel < self.last_ti[1]):
            return
        self.ti.append(_TIME.pack(ts, rel))
        self.last_ti = (ts, rel)

    def add(self, data, last_offset: int, max_ts: int) -> None:
        size = len(data)
        if max_ts > self.max_ts:
            self.max_ts, self.off_max_ts = max_ts, last_offset
        if self.since > self.interval:
            self.oi.append(_OFF.pack(last_offset - self.base, self.size))
            self._time_entry(self.max_ts, self.off_max_ts)
            self.since = 0
        self.since += size
        self.size += size
        self.pending.append(data)
        self.pending_bytes += size
        if self.pending_bytes >= READ_CHUNK:
            self.drain()

    def drain(self) -> None:
        if self.pending:
            data = b"".join(self.pending)
            self.pending, self.pending_bytes = [], 0
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]

    def finish(self, mtime_ms: int) -> None:
        self.drain()
        if self.max_ts >= 0:
            self._time_entry(self.max_ts, self.off_max_ts)
        os.fsync(self.fd)
        os.close(self.fd)
        self.fd = -1
        os.utime(self.path, ns=(mtime_ms * 1_000_000, mtime_ms * 1_000_000))
        for suffix, entries in ((".index.cleaned", self.oi), (".timeindex.cleaned", self.ti)):
            _write_file(os.path.join(os.path.dirname(self.path), f"{self.base:020d}{suffix}"),
                        b"".join(entries))

    def abort(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _write_file(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def cleaned_paths(dir: str, base: int) -> list[str]:
    name = f"{base:020d}"
    return [os.path.join(dir, name + s) for s in
            (".log.cleaned", ".index.cleaned", ".timeindex.cleaned", ".cleanend",
             ".txnindex.cleaned")]


def rebuild_batch(h, batch, data: bytes, kept: list, base_ts: int | None = None) -> bytes:
    """The batch holding only ``kept`` records (spans into the uncompressed ``data``).

    With ``base_ts`` the batch gets that base timestamp and the delete-horizon
    attribute (KIP-534); record timestamp deltas are re-encoded to keep every
    record's timestamp.
    """
    attributes = h.attributes
    if base_ts is None:
        body = b"".join(data[s:e] for s, e, *_ in kept)
        base_ts = h.base_timestamp
    else:
        attributes |= DELETE_HORIZON_MASK
        parts = []
        for r in kept:
            rec = data[r[6]:r[6] + 1] + encode_varint(h.base_timestamp + r[3] - base_ts) + \
                data[r[7]:r[1]]
            parts.append(encode_varint(len(rec)))
            parts.append(rec)
        body = b"".join(parts)
    codec = attributes & 0x07
    if codec != NONE:
        body = compress(codec, body)
    if attributes & TIMESTAMP_TYPE_MASK:
        max_ts = h.max_timestamp
    else:
        max_ts = h.base_timestamp + max(r[3] for r in kept)
    out = bytearray(batch[:HEADER_SIZE])
    _COUNT.pack_into(out, 8, HEADER_SIZE - LOG_OVERHEAD + len(body))
    struct.pack_into(">h", out, 21, attributes)
    _MAXTS.pack_into(out, 27, base_ts)
    _MAXTS.pack_into(out, 35, max_ts)
    _COUNT.pack_into(out, 57, len(kept))
    out += body
    _CRC.pack_into(out, 17, crc32c(memoryview(out)[21:]))
    return bytes(out)


def empty_batch(h) -> bytes:
    """Kafka's ``writeEmptyHeader``: the batch's offsets, producer fields, timestamp type,
    transactional and control bits and max timestamp; no records, codec none, base
    timestamp -1 (NO_TIMESTAMP) and no delete horizon."""
    attributes = h.attributes & ~(0x07 | DELETE_HORIZON_MASK)
    out = bytearray(HEADER_SIZE)
    _HEADER.pack_into(out, 0, h.base_offset, HEADER_SIZE - LOG_OVERHEAD, h.partition_leader_epoch,
                      MAGIC_V2, 0, attributes, h.last_offset_delta, -1,
                      h.max_timestamp, h.producer_id, h.producer_epoch, h.base_sequence, 0)
    _CRC.pack_into(out, 17, crc32c(memoryview(out)[21:]))
    return bytes(out)


def clean_group(plan: CleanPlan, group: list[SegmentInfo], group_end: int, offsets: dict,
                result: CleanResult, txns: CleanedTxns) -> CleanedGroup:
    """Write the group's cleaned segment (Kafka's ``cleanSegments`` + ``cleanInto``);
    ``txns`` carries the pass's transaction state from group to group."""
    base = group[0].base
    paths = cleaned_paths(plan.dir, base)
    w = _Writer(paths[0], base, plan)
    now = plan.now_ms
    new_horizon = now + plan.delete_retention_ms
    producers = plan.producer_last_offsets
    marker_epochs = plan.producer_epochs
    get = offsets.get
    try:
        for info in group:
            faults.check("clean", plan.dir)
            fd = os.open(info.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            try:
                for _pos, h, batch in iter_batches(fd, info.size):
                    last = h.base_offset + h.last_offset_delta
                    attrs = h.attributes
                    pid = h.producer_id
                    has_horizon = bool(attrs & DELETE_HORIZON_MASK)
                    # Kafka's isBatchLastRecordOfProducer: the producer's last data batch, or
                    # its marker when it has no data batch and the marker has its epoch
                    if pid < 0:
                        keep_empty = False
                    else:
                        lo = producers.get(pid)
                        keep_empty = last == lo if lo is not None else bool(
                            attrs & CONTROL_MASK) and marker_epochs.get(pid) == h.producer_epoch
                    if attrs & CONTROL_MASK:
                        data, recs = scan_records(h, batch)
                        result.records_read += len(recs)
                        unneeded = txns.on_control(pid, last, recs[0][4] if recs else None)
                        if not recs or (unneeded and has_horizon and h.base_timestamp <= now):
                            # an emptied marker, or one past its delete horizon
                            if keep_empty:
                                w.add(empty_batch(h), last, h.max_timestamp)
                            else:
                                result.markers_removed += 1
                            continue
                        result.records_kept += len(recs)
                        if not unneeded:
                            w.add(bytes(batch), last, h.max_timestamp)
                            continue
                        # the transaction has no data left: the marker goes delete.retention.ms
                        # after the pass that first finds that (KIP-534's horizon, as tombstones)
                        horizon = h.base_timestamp if has_horizon else new_horizon
                        result.next_horizon = min(result.next_horizon, horizon)
                        if has_horizon:
                            w.add(bytes(batch), last, h.max_timestamp)
                        else:
                            nb = rebuild_batch(h, batch, data, recs, new_horizon)
                            w.add(nb, last, _MAXTS.unpack_from(nb, 35)[0])
                        continue
                    if txns.on_batch(pid, attrs & TRANSACTIONAL_MASK, last):
                        # a batch of an aborted transaction: no record of it stays
                        result.records_read += h.records_count
                        result.aborted_removed += h.records_count
                        if keep_empty:
                            w.add(empty_batch(h), last, h.max_timestamp)
                        continue
                    retain_deletes = not has_horizon or h.base_timestamp > now
                    data, recs = scan_records(h, batch)
                    result.records_read += len(recs)
                    b = h.base_offset
                    kept = []
                    tombstones = False
                    for r in recs:
                        key = r[4]
                        if key is None:
                            continue  # keyless: Kafka's cleaner drops it
                        found = get(map_key(key) if len(key) > MAX_DIRECT_KEY else key)
                        if found is not None and b + r[2] < found:
                            continue  # a later record has this key
                        if r[5]:
                            if not retain_deletes:
                                continue  # a tombstone past its delete horizon
                            tombstones = True
                        kept.append(r)
                    result.records_kept += len(kept)
                    if tombstones:
                        horizon = h.base_timestamp if has_horizon else new_horizon
                        result.next_horizon = min(result.next_horizon, horizon)
                    set_horizon = tombstones and not has_horizon
                    if len(kept) == len(recs) and not set_horizon:
                        w.add(bytes(batch), last, h.max_timestamp)
                    elif kept:
                        nb = rebuild_batch(h, batch, data, kept,
                                           new_horizon if set_horizon else None)
                        w.add(nb, last, _MAXTS.unpack_from(nb, 35)[0])
                    elif keep_empty:
                        w.add(empty_batch(h), last, h.max_timestamp)
            finally:
                os.close(fd)
            result.bytes_read += info.size
        faults.check("clean", plan.dir)
        w.finish(group[-1].mtime_ms)
        entries = txns.take_retained()
        if entries:  # Kafka's cleaned transaction index: kept ABORT markers' entries only
            _write_file(paths[4], encode_entries(entries))
        _write_file(paths[3], str(group_end).encode())
    except BaseException:
        w.abort()
        remove_files(paths)
        raise
    result.bytes_written += w.size
    return CleanedGroup(base, [i.base for i in group], group_end, w.size, len(entries))


def remove_files(paths) -> None:
    for p in paths:
        try:
            os.unlink(p)
        except FileNotFoundError:
            pass


def run(plan: CleanPlan) -> CleanResult:
    """Map the dirty section, write the cleaned groups; see the module docstring."""
    t0 = time.perf_counter()
    result = CleanResult(plan.dir, [], plan.first_dirty)
    offsets, end = build_offset_map(plan, result)
    result.map_entries = len(offsets)
    result.end = end
    todo = [i for i in plan.segments if i.base < end]
    groups = group_segments(todo, plan.segment_bytes)
    # one transaction state for the whole pass, which starts at the log start: every
    # transaction's batches are met before its marker (Kafka's CleanedTransactionMetadata)
    txns = CleanedTxns([t for t in plan.aborted_txns if t[1] < end])
    try:
        for g in groups:
            group_end = _end_after(plan, plan.segments.index(g[-1]))
            result.groups.append(clean_group(plan, g, group_end, offsets, result, txns))
    except BaseException:
        for g in result.groups:
            remove_files(cleaned_paths(plan.dir, g.base))
        raise
    result.elapsed_s = time.perf_counter() - t0
    return result
