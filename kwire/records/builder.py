"""Build v2 record batches from Python values.

Used by tests, the CLI producer and (later) the broker's own internal topics
(``__consumer_offsets``, ``__transaction_state``, control batches). The
produce path never rebuilds client batches; it patches them through
``kwire.records.batch``.

``build_batch`` lays out the 61-byte header drawn in ``kwire.records.batch``,
then the records (format drawn in ``kwire.records.decode``), compressing only
the records section, and fills in the CRC-32C over bytes 21..end last::

    0   base_offset .. 12 partition_leader_epoch | 16 magic | 17 crc
    21  attributes | last_offset_delta | base_timestamp | max_timestamp |
        producer_id | producer_epoch | base_sequence | records_count
    61  records (compressed as a whole when the codec is not NONE)

Choices that mirror the Java producer: offset deltas run 0..n-1 (unless the
caller keeps original offsets, as the log cleaner must), base_timestamp is
the first record's timestamp and deltas may be negative, max_timestamp is the
largest record timestamp, record attributes are 0. An empty batch is allowed:
``records_count`` 0, ``last_offset_delta`` 0 unless given, timestamps -1.
This module does not validate headers against Kafka's rules (UTF-8 keys are
encoded, nothing more) and does not split oversized batches.
"""

from __future__ import annotations

import struct
import time
from typing import Any, Iterable

from kwire.records.crc import crc32c

from . import batch
from .compression import NONE, compress
from .varint import encode_varint

__all__ = ["build_batch", "encode_record"]

_HEADER = struct.Struct(">qiibIhiqqqhii")
_CRC = struct.Struct(">I")


def encode_record(
    offset_delta: int,
    timestamp_delta: int,
    key: bytes | None,
    value: bytes | None,
    headers: Iterable[tuple[str | bytes, bytes | None]] = (),
    attributes: int = 0,
) -> bytes:
    """Encode one record body with its leading varint length."""
    # the pieces joined once (a coordinator commit encodes one record per partition)
    parts = [_ATTRIBUTES[attributes & 0xFF], encode_varint(timestamp_delta),
             encode_varint(offset_delta)]
    _put(parts, key)
    _put(parts, value)
    if headers:
        headers = list(headers)
        parts.append(encode_varint(len(headers)))
        for name, hvalue in headers:
            _put(parts, name.encode("utf-8") if isinstance(name, str) else bytes(name))
            _put(parts, hvalue)
    else:
        parts.append(b"\x00")  # no headers
    body = b"".join(parts)
    return encode_varint(len(body)) + body


_ATTRIBUTES = [bytes((a,)) for a in range(256)]


def _put(parts: list, data) -> None:
    if data is None:
        parts.append(b"\x01")  # zigzag(-1)
    else:
        if isinstance(data, str):
            data = data.encode("utf-8")
        parts.append(encode_varint(len(data)))
        parts.append(data)


def _fields(item: Any) -> tuple:
    """(key, value, headers, timestamp, attributes, offset) of one input item."""
    if type(item) is not tuple and hasattr(item, "value") and hasattr(item, "key"):  # a plain
        # tuple has neither: skipping the two failed lookups is most of this call's cost
        return (
            item.key,
            item.value,
            getattr(item, "headers", None) or (),
            getattr(item, "timestamp", None),
            getattr(item, "attributes", 0) or 0,
            getattr(item, "offset", None),
        )
    if len(item) == 2:
        key, value = item
        return key, value, (), None, 0, None
    if len(item) == 3:
        key, value, headers = item
        return key, value, headers or (), None, 0, None
    key, value, headers, timestamp = item
    return key, value, headers or (), timestamp, 0, None


def build_batch(
    records: Iterable[Any],
    *,
    base_offset: int = 0,
    compression: int = NONE,
    timestamp_type: int = 0,
    producer_id: int = batch.NO_PRODUCER_ID,
    producer_epoch: int = -1,
    base_sequence: int = batch.NO_SEQUENCE,
    partition_leader_epoch: int = -1,
    is_transactional: bool = False,
    is_control: bool = False,
    keep_offsets: bool = False,
    last_offset_delta: int | None = None,
    now_ms: int | None = None,
) -> bytes:
    """Return one complete v2 batch holding ``records``.

    Each item is ``(key, value)``, ``(key, value, headers)``,
    ``(key, value, headers, timestamp)`` or an object with ``key``, ``value``
    and optionally ``headers``, ``timestamp``, ``attributes`` (a decoded
    ``Record`` works). A missing or None timestamp means ``now_ms`` (default:
    the wall clock). With ``keep_offsets`` every item needs an ``offset`` and
    its delta is ``offset - base_offset`` (strictly increasing), which is how
    a compacted batch keeps its gaps; ``last_offset_delta`` overrides the
    header field (the cleaner keeps the original batch's last offset).
    """
    items = [_fields(item) for item in records]
    if now_ms is None:
        now_ms = int(time.time() * 1000)
    timestamps = [now_ms if f[3] is None else int(f[3]) for f in items]
    base_ts = timestamps[0] if items else batch.NO_TIMESTAMP
    max_ts = max(timestamps) if items else batch.NO_TIMESTAMP

    body = bytearray()
    prev_delta = -1
    for i, (key, value, headers, _, attributes, offset) in enumerate(items):
        if keep_offsets:
            if offset is None:
                raise ValueError("keep_offsets needs an offset on every record")
            delta = offset - base_offset
            if delta <= prev_delta:
                raise ValueError(f"offsets must increase from base_offset: {offset}")
        else:
            delta = i
        prev_delta = delta
        body += encode_record(delta, timestamps[i] - base_ts, key, value, headers, attributes)
    if last_offset_delta is None:
        last_offset_delta = max(prev_delta, 0)

    records_bytes = bytes(body) if compression == NONE else compress(compression, bytes(body))
    attributes = (
        (compression & batch.COMPRESSION_MASK)
        | (batch.TIMESTAMP_TYPE_MASK if timestamp_type else 0)
        | (batch.TRANSACTIONAL_MASK if is_transactional else 0)
        | (batch.CONTROL_MASK if is_control else 0)
    )
    out = bytearray(batch.HEADER_SIZE)
    _HEADER.pack_into(
        out,
        0,
        base_offset,
        batch.HEADER_SIZE - batch.LOG_OVERHEAD + len(records_bytes),
        partition_leader_epoch,
        batch.MAGIC_V2,
        0,  # CRC, filled in below
        attributes,
        last_offset_delta,
        base_ts,
        max_ts,
        producer_id,
        producer_epoch,
        base_sequence,
        len(items),
    )
    out += records_bytes
    _CRC.pack_into(out, batch.CRC, crc32c(memoryview(out)[batch.ATTRIBUTES :]))
    return bytes(out)
