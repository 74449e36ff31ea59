"""Header-only view of v2 record batches (Kafka's DefaultRecordBatch).

This module reads and patches the fixed 61-byte batch header and never looks at
the records behind it: it is what the produce and fetch paths use, so that
batches stay opaque wire bytes from the client's socket to the segment file and
back. Full record decoding lives in ``kwire.records.decode``.

Byte layout of one batch (big-endian)::

    offset  size  field
    0       8     base_offset
    8       4     batch_length            (bytes after this field)
    12      4     partition_leader_epoch  -- not covered by the CRC
    16      1     magic (2)
    17      4     crc (CRC-32C over bytes 21 .. end)
    21      2     attributes
    23      4     last_offset_delta
    27      8     base_timestamp
    35      8     max_timestamp
    43      8     producer_id
    51      2     producer_epoch
    53      4     base_sequence
    57      4     records_count
    61      ...   records

Because the CRC starts at byte 21, the broker writes base_offset and
partition_leader_epoch in place without recomputing it. Rewriting
max_timestamp (LogAppendTime) changes covered bytes, so the CRC is recomputed.

Invariants: functions take a buffer and the position of a batch in it; they do
not copy the batch. ``iter_batches`` stops at the first incomplete batch.
"""

from __future__ import annotations

import struct
from typing import Iterator, NamedTuple

from kwire.records.crc import crc32c

HEADER_SIZE = 61
LOG_OVERHEAD = 12  # base_offset + batch_length
MIN_BATCH_LENGTH = HEADER_SIZE - LOG_OVERHEAD  # a batch_length below this cannot hold the header
MAGIC_V2 = 2

BASE_OFFSET = 0
BATCH_LENGTH = 8
PARTITION_LEADER_EPOCH = 12
MAGIC = 16
CRC = 17
ATTRIBUTES = 21
LAST_OFFSET_DELTA = 23
BASE_TIMESTAMP = 27
MAX_TIMESTAMP = 35
PRODUCER_ID = 43
PRODUCER_EPOCH = 51
BASE_SEQUENCE = 53
RECORDS_COUNT = 57

# attributes bits
COMPRESSION_MASK = 0x07
TIMESTAMP_TYPE_MASK = 0x08  # 0 = CreateTime, 1 = LogAppendTime
TRANSACTIONAL_MASK = 0x10
CONTROL_MASK = 0x20
DELETE_HORIZON_MASK = 0x40

NO_PRODUCER_ID = -1
NO_SEQUENCE = -1
NO_TIMESTAMP = -1

_HEADER = struct.Struct(">qiibIhiqqqhii")
_Q = struct.Struct(">q")
_I = struct.Struct(">i")
_UI = struct.Struct(">I")


class BatchHeader(NamedTuple):
    """The decoded 61-byte header of one batch."""

    base_offset: int
    batch_length: int
    partition_leader_epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    records_count: int

    @property
    def size(self) -> int:
        """Bytes the whole batch occupies, header included."""
        return LOG_OVERHEAD + self.batch_length

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.last_offset_delta

    @property
    def compression(self) -> int:
        return self.attributes & COMPRESSION_MASK

    @property
    def is_transactional(self) -> bool:
        return bool(self.attributes & TRANSACTIONAL_MASK)

    @property
    def is_control(self) -> bool:
        return bool(self.attributes & CONTROL_MASK)

    @property
    def timestamp_type(self) -> int:
        return 1 if self.attributes & TIMESTAMP_TYPE_MASK else 0

    @property
    def last_sequence(self) -> int:
        if self.base_sequence == NO_SEQUENCE:
            return NO_SEQUENCE
        return (self.base_sequence + self.last_offset_delta) & 0x7FFFFFFF


_new_tuple = tuple.__new__


def read_header(buf, pos: int = 0) -> BatchHeader:
    """Decode the header of the batch starting at ``pos`` (needs 61 bytes)."""
    return _new_tuple(BatchHeader, _HEADER.unpack_from(buf, pos))  # _make's work, without its checks


def crc_is_valid(buf, pos: int, size: int) -> bool:
    """True when the stored CRC matches CRC-32C over bytes 21..size of the batch."""
    stored = _UI.unpack_from(buf, pos + CRC)[0]
    return crc32c(memoryview(buf)[pos + ATTRIBUTES : pos + size]) == stored


def set_base_offset(buf, pos: int, base_offset: int) -> None:
    _Q.pack_into(buf, pos + BASE_OFFSET, base_offset)


def set_partition_leader_epoch(buf, pos: int, epoch: int) -> None:
    _I.pack_into(buf, pos + PARTITION_LEADER_EPOCH, epoch)


def set_log_append_time(buf, pos: int, size: int, timestamp: int) -> None:
    """Mark the batch LogAppendTime with ``timestamp`` as max timestamp; recompute the CRC."""
    attrs = struct.unpack_from(">h", buf, pos + ATTRIBUTES)[0] | TIMESTAMP_TYPE_MASK
    struct.pack_into(">h", buf, pos + ATTRIBUTES, attrs)
    _Q.pack_into(buf, pos + MAX_TIMESTAMP, timestamp)
    _UI.pack_into(buf, pos + CRC, crc32c(memoryview(buf)[pos + ATTRIBUTES : pos + size]))


class BatchSpan(NamedTuple):
    """Where one batch sits in a buffer, with its header."""

    pos: int
    header: BatchHeader


def iter_batches(buf, start: int = 0, end: int | None = None) -> Iterator[BatchSpan]:
    """Yield each complete batch in ``buf[start:end]``; stop at the first incomplete one.

    Only sizes are checked here (a header that fits and a length that fits);
    callers validate magic and CRC as they need to.
    """
    if end is None:
        end = len(buf)
    pos = start
    while end - pos >= HEADER_SIZE:
        header = read_header(buf, pos)
        size = LOG_OVERHEAD + header.batch_length
        if header.batch_length < MIN_BATCH_LENGTH or pos + size > end:
            return
        yield BatchSpan(pos, header)
        pos += size
