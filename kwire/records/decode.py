"""Full decoding of v2 record batches, for features that need record contents.

The fetch path never comes here, and the produce path only to name the
records of a batch it refuses (``record_errors``); accepted batches are
walked by ``kwire.records.scan``, which builds no objects. This module is for
ListOffsets by timestamp, the log cleaner, transactions, the CLI consumer
and tests. It checks the header (magic 2, sane length, CRC
unless told not to), decompresses the records section and parses every
record, raising ``CorruptRecordError`` on any malformed byte; it never
returns a partial batch and never raises ``IndexError``.

One record (all varints zigzag, see ``kwire.records.varint``)::

    varint   length             bytes after this field
    int8     attributes         unused, 0
    varlong  timestamp_delta    timestamp - batch base_timestamp
    varint   offset_delta       offset - batch base_offset
    varint   key_length         -1 = null key
    bytes    key
    varint   value_length       -1 = null value
    bytes    value
    varint   header_count
      varint header_key_length  must be >= 0
      bytes  header_key         UTF-8
      varint header_value_length  -1 = null
      bytes  header_value

Invariants checked: each record's fields end exactly at its declared length,
the records section holds exactly ``records_count`` records with no bytes
left over, and the decompressed size stays under the caller's limit. Not
checked (the produce validator's job, not a decoder's): that offset deltas run
0..n-1, that ``last_offset_delta`` and ``max_timestamp`` agree with the
records, or what control records mean.
"""

from __future__ import annotations

import struct
from typing import Iterator, NamedTuple

from . import batch
from .batch import HEADER_SIZE, LOG_OVERHEAD, MAGIC_V2, MIN_BATCH_LENGTH, BatchHeader
from .compression import CODEC_NAMES, MAX_DECOMPRESSED_SIZE, NONE, decompress
from .errors import CorruptRecordError
from .varint import read_varint, read_varlong

__all__ = [
    "CorruptRecordError",
    "check_header",
    "DecodedBatch",
    "Record",
    "decode_batch",
    "decode_batches",
    "iter_records",
    "parse_records",
    "summarize_batch",
]

_INT32_MAX = (1 << 31) - 1
_LENGTH = struct.Struct(">i")


class Record(NamedTuple):
    """One decoded record with absolute offset and timestamp."""

    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]]
    attributes: int = 0
    offset_delta: int = 0
    timestamp_delta: int = 0
    sequence: int = -1


class DecodedBatch(NamedTuple):
    """A batch header with all of its records."""

    header: BatchHeader
    records: list[Record]

    @property
    def size(self) -> int:
        return self.header.size


def decode_batch(
    buf,
    pos: int = 0,
    *,
    verify_crc: bool = True,
    max_decompressed: int = MAX_DECOMPRESSED_SIZE,
) -> DecodedBatch:
    """Decode the batch starting at ``buf[pos]``; bytes after it are ignored."""
    header = check_header(buf, pos, verify_crc=verify_crc)
    start = pos + HEADER_SIZE
    end = pos + header.size
    if header.compression == NONE:
        data = bytes(buf[start:end])
    elif start == end and header.records_count == 0:
        data = b""  # an empty batch carries no compressed stream at all
    else:
        data = decompress(header.compression, memoryview(buf)[start:end], max_decompressed)
    return DecodedBatch(header, parse_records(header, data))


def check_header(buf, pos: int = 0, *, verify_crc: bool = True) -> BatchHeader:
    """Read and sanity-check the header of the batch at ``pos``; return it."""
    if pos < 0 or len(buf) - pos < HEADER_SIZE:
        raise CorruptRecordError(
            f"batch at {pos}: need {HEADER_SIZE} header bytes, have {max(len(buf) - pos, 0)}"
        )
    header = batch.read_header(buf, pos)
    if header.magic != MAGIC_V2:
        raise CorruptRecordError(f"batch at {pos}: magic {header.magic}, only v2 is supported")
    if header.batch_length < MIN_BATCH_LENGTH:
        raise CorruptRecordError(f"batch at {pos}: batch_length {header.batch_length} too small")
    if pos + header.size > len(buf):
        raise CorruptRecordError(
            f"batch at {pos}: {header.size} bytes declared, {len(buf) - pos} available"
        )
    if header.records_count < 0:
        raise CorruptRecordError(f"batch at {pos}: negative records_count {header.records_count}")
    if verify_crc and not batch.crc_is_valid(buf, pos, header.size):
        raise CorruptRecordError(f"batch at {pos}: CRC mismatch (stored {header.crc:#010x})")
    return header


def parse_records(header: BatchHeader, data: bytes) -> list[Record]:
    """Parse exactly ``header.records_count`` records from the (uncompressed) ``data``."""
    log_append = header.timestamp_type == 1
    base_offset = header.base_offset
    base_ts = header.base_timestamp
    base_seq = header.base_sequence
    end = len(data)
    pos = 0
    records = []
    for i in range(header.records_count):
        if pos >= end:
            raise CorruptRecordError(
                f"records section ends after {i} of {header.records_count} records"
            )
        length, pos = read_varint(data, pos, end)
        rend = pos + length
        if length < 1 or rend > end:
            raise CorruptRecordError(f"record {i}: length {length} does not fit")
        attributes = data[pos]
        ts_delta, pos = read_varlong(data, pos + 1, rend)
        offset_delta, pos = read_varint(data, pos, rend)
        key, pos = _read_bytes(data, pos, rend, i, "key")
        value, pos = _read_bytes(data, pos, rend, i, "value")
        count, pos = read_varint(data, pos, rend)
        if count < 0:
            raise CorruptRecordError(f"record {i}: negative header count {count}")
        headers = []
        for _ in range(count):
            hkey, pos = _read_bytes(data, pos, rend, i, "header key")
            if hkey is None:
                raise CorruptRecordError(f"record {i}: null header key")
            try:
                name = hkey.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise CorruptRecordError(f"record {i}: header key is not UTF-8") from exc
            hvalue, pos = _read_bytes(data, pos, rend, i, "header value")
            headers.append((name, hvalue))
        if pos != rend:
            raise CorruptRecordError(f"record {i}: {rend - pos} unread bytes inside its length")
        if base_seq < 0:
            sequence = -1
        elif base_seq > _INT32_MAX - offset_delta:
            sequence = offset_delta - (_INT32_MAX - base_seq) - 1  # wraps like Kafka
        else:
            sequence = base_seq + offset_delta
        records.append(
            Record(
                base_offset + offset_delta,
                header.max_timestamp if log_append else base_ts + ts_delta,
                key,
                value,
                headers,
                attributes,
                offset_delta,
                ts_delta,
                sequence,
            )
        )
    if pos != end:
        raise CorruptRecordError(
            f"{end - pos} bytes left after {header.records_count} records"
        )
    return records


def _read_bytes(data: bytes, pos: int, end: int, index: int, what: str):
    n, pos = read_varint(data, pos, end)
    if n == -1:
        return None, pos
    if n < -1 or pos + n > end:
        raise CorruptRecordError(f"record {index}: {what} length {n} does not fit")
    return data[pos : pos + n], pos + n


def decode_batches(
    buf,
    *,
    allow_truncated: bool = False,
    verify_crc: bool = True,
    max_decompressed: int = MAX_DECOMPRESSED_SIZE,
) -> list[DecodedBatch]:
    """Decode every batch in ``buf`` back to back.

    A trailing partial batch is an error unless ``allow_truncated`` (fetch
    responses may end in one, and a consumer just ignores it).
    """
    return list(_iter_batches(buf, 0, allow_truncated, verify_crc, max_decompressed))


def iter_records(
    buf,
    pos: int = 0,
    *,
    allow_truncated: bool = False,
    verify_crc: bool = True,
    max_decompressed: int = MAX_DECOMPRESSED_SIZE,
) -> Iterator[Record]:
    """Yield every record of every batch from ``buf[pos]`` to the end, batch by batch."""
    for decoded in _iter_batches(buf, pos, allow_truncated, verify_crc, max_decompressed):
        yield from decoded.records


def _iter_batches(buf, pos, allow_truncated, verify_crc, max_decompressed):
    end = len(buf)
    while pos < end:
        if allow_truncated and not _complete(buf, pos):
            return
        decoded = decode_batch(
            buf, pos, verify_crc=verify_crc, max_decompressed=max_decompressed
        )
        yield decoded
        pos += decoded.size


def _complete(buf, pos: int) -> bool:
    if len(buf) - pos < HEADER_SIZE:
        return False
    length = _LENGTH.unpack_from(buf, pos + batch.BATCH_LENGTH)[0]
    return length < MIN_BATCH_LENGTH or pos + LOG_OVERHEAD + length <= len(buf)


def summarize_batch(buf, pos: int = 0) -> dict:
    """Describe the batch at ``pos`` as plain data, for tests and the CLI.

    Header fields by name plus ``compression`` (codec name), ``crc_valid``
    and ``records`` (dicts of offset, timestamp, key, value, headers). The
    CRC is reported rather than enforced, so a test can see what a client
    actually sent; other corruption still raises ``CorruptRecordError``.
    """
    decoded = decode_batch(buf, pos, verify_crc=False)
    h = decoded.header
    out = h._asdict()
    out["compression"] = CODEC_NAMES.get(h.compression, str(h.compression))
    out["timestamp_type"] = "LogAppendTime" if h.timestamp_type else "CreateTime"
    out["is_transactional"] = h.is_transactional
    out["is_control"] = h.is_control
    out["crc_valid"] = batch.crc_is_valid(buf, pos, h.size)
    out["records"] = [
        {
            "offset": r.offset,
            "timestamp": r.timestamp,
            "key": r.key,
            "value": r.value,
            "headers": r.headers,
        }
        for r in decoded.records
    ]
    return out
