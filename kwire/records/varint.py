"""Zigzag varints as used inside v2 records (Kafka's ByteUtils).

Encoding: the signed value is zigzag-mapped (0,-1,1,-2,... -> 0,1,2,3,...)
and written 7 bits at a time, least significant group first; the high bit of
each byte says "more bytes follow"::

    value 300 -> zigzag 600 = 0b100_1011000 -> bytes d8 04

A varint (int32) takes at most 5 bytes and a varlong (int64) at most 10.
Decoders enforce those limits and the end of the buffer, raising
``CorruptRecordError``; they never raise ``IndexError``. This module does not
do the unsigned varints of flexible protocol versions: those live in
``kwire.protocol``.
"""

from __future__ import annotations

from .errors import CorruptRecordError

_INT32_MIN, _INT32_MAX = -(1 << 31), (1 << 31) - 1
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def read_varint(buf, pos: int, end: int, max_bytes: int = 5) -> tuple[int, int]:
    """Decode a zigzag varint at ``buf[pos:end]``; return (value, next_pos).

    ``max_bytes`` is 5 for int32 varints and 10 for varlongs.
    """
    # Fast path: one byte, which covers most lengths and small deltas.
    if pos < end:
        b = buf[pos]
        if b < 0x80:
            return (b >> 1) ^ -(b & 1), pos + 1
    start = pos
    raw = 0
    shift = 0
    limit = min(end, pos + max_bytes)
    while pos < limit:
        b = buf[pos]
        pos += 1
        raw |= (b & 0x7F) << shift
        if b < 0x80:
            value = (raw >> 1) ^ -(raw & 1)
            if max_bytes == 5 and not _INT32_MIN <= value <= _INT32_MAX:
                raise CorruptRecordError(f"varint out of int32 range: {value}")
            if not _INT64_MIN <= value <= _INT64_MAX:
                raise CorruptRecordError(f"varlong out of int64 range: {value}")
            return value, pos
        shift += 7
    if pos - start < max_bytes:
        raise CorruptRecordError(f"varint at {start} runs past the end ({end})")
    raise CorruptRecordError(f"varint at {start} is longer than {max_bytes} bytes")


def read_varlong(buf, pos: int, end: int) -> tuple[int, int]:
    """Decode a zigzag varlong (up to 10 bytes); return (value, next_pos)."""
    return read_varint(buf, pos, end, 10)


_SMALL = [bytes((v << 1,)) for v in range(0x40)]


def encode_varint(value: int) -> bytes:
    """Zigzag-encode ``value`` (int32 or int64 range) into a varint."""
    if 0 <= value < 0x40:
        return _SMALL[value]
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{value} does not fit a varlong")
    raw = ((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF
    if raw < 0x80:
        return bytes((raw,))
    out = bytearray()
    while raw >= 0x80:
        out.append((raw & 0x7F) | 0x80)
        raw >>= 7
    out.append(raw)
    return bytes(out)


def size_of_varint(value: int) -> int:
    """Bytes ``encode_varint(value)`` would take."""
    raw = ((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF
    size = 1
    while raw >= 0x80:
        raw >>= 7
        size += 1
    return size
