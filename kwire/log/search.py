"""Finding records by timestamp: ListOffsets by time (>= 0) and by max timestamp (-3).

These are the only read paths that decode records, and only of the few
candidate batches: segment-level largest timestamps and the sparse time index
narrow the search, batch headers (``max_timestamp``) pick the batches, and only
those are decoded (``kwire.records.decode``, decompressing if needed) to find
the exact record -- a target in the middle of a compressed batch gets the
right offset, not the batch's base offset.

``offset_for_timestamp``: the first record, in offset order, whose timestamp is
>= the target. Why starting at the time index entry is safe: an entry
(T, offset) is written when the segment's largest timestamp grew to T at the
batch ending at ``offset``, so every record before that batch is older than T
(and T <= target).

``offset_of_max_timestamp``: the first record holding the largest timestamp
(Kafka 3.8+ answers the record's offset, not its batch's).

Both consider only offsets in [log start offset, bound), the bound being the
high watermark unless the caller passes another (followers, read_committed).
Not here: any index of its own; a linear scan of headers is the fallback when
the time index is sparse.

Bad stored data (a segment written before produce validated records, bit rot,
a torn write that recovery missed) never escapes as an arbitrary exception:
a batch that fails its CRC or does not decode raises ``KafkaError``
CORRUPT_MESSAGE naming the segment file and position, and is logged, so
ListOffsets answers that error for the partition and keeps the connection
(Kafka's ListOffsets maps a CorruptRecordException the same way).
"""

from __future__ import annotations

import logging

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.decode import CorruptRecordError, decode_batch

from .segment import LogSegment

log = logging.getLogger("kwire.log")


def _records(seg: LogSegment, pos: int, h):
    """The records of the stored batch at ``pos``; CORRUPT_MESSAGE if it does not decode."""
    try:
        return decode_batch(seg.read_bytes(pos, h.size)).records
    except CorruptRecordError as e:
        log.error("corrupt record batch in %s at position %d (offsets %d-%d): %s",
                  seg.log_path, pos, h.base_offset, h.base_offset + h.last_offset_delta, e)
        raise KafkaError(ErrorCode.CORRUPT_MESSAGE,
                         f"corrupt record batch in {seg.log_path} at position {pos}: {e}") from None


def _first_record(log, seg: LogSegment, pos: int, bound: int, min_ts: int):
    """Decode batches of ``seg`` from ``pos`` until a record with timestamp >= ``min_ts``.

    Returns (offset, timestamp), None when the segment ends first, or False
    when the bound is reached (nothing later can qualify).
    """
    start = log.log_start_offset
    for p, h in seg.iter_batches(pos):
        if h.base_offset >= bound:
            return False
        if h.base_offset + h.last_offset_delta < start or h.max_timestamp < min_ts:
            continue
        for r in _records(seg, p, h):
            if start <= r.offset < bound and r.timestamp >= min_ts:
                return r.offset, r.timestamp
    return None


def offset_for_timestamp(log, target_ms: int, bound: int):
    for seg in log.segments:
        if seg.base_offset >= bound:
            break
        if seg.max_timestamp < target_ms:
            continue
        found = seg.find_batch(max(seg.time_index.lookup(target_ms), log.log_start_offset))
        if found is None:
            continue
        hit = _first_record(log, seg, found[0], bound, target_ms)
        if hit is False:
            return None
        if hit is not None:
            return hit
    return None


def offset_of_max_timestamp(log, bound: int):
    start = log.log_start_offset
    best_ts, best_seg = -1, None
    for seg in log.segments:
        if seg.base_offset >= bound:
            break
        if seg.base_offset >= start and seg.next_offset <= bound:
            if seg.max_timestamp > best_ts:  # the whole segment counts: use its statistics
                best_ts, best_seg = seg.max_timestamp, seg
            continue
        for pos, h in seg.iter_batches(0):  # straddles the log start or the bound
            if h.base_offset >= bound:
                break
            last = h.base_offset + h.last_offset_delta
            if last < start or h.max_timestamp <= best_ts:
                continue
            ts = h.max_timestamp
            if h.base_offset < start or last >= bound:
                # partly outside: the header's max may belong to a record that no longer
                # counts (below the log start), so take the max of the records inside
                records = _records(seg, pos, h)
                ts = max((r.timestamp for r in records if start <= r.offset < bound), default=-1)
            if ts > best_ts:
                best_ts, best_seg = ts, seg
    if best_seg is None:
        return None
    found = best_seg.find_batch(max(best_seg.time_index.lookup(best_ts - 1), start))
    if found is None:
        return None
    return _first_record(log, best_seg, found[0], bound, best_ts) or None
