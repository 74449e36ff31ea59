"""The single-partition Produce, decoded and answered without generated objects.

At low rates librdkafka and the Java producer send one Produce per record
batch: one topic, one partition, one batch, no transactional id. For that
shape only, this module reads the request body straight into a tuple and
writes the successful answer from a per-version template, skipping the
generated ``ProduceRequest`` / ``ProduceResponse`` objects (five objects and
their keyword or slot work per request). The generated codec is the
reference: ``decode`` must return what ``codec.decode_request`` would for the
fields it returns, and ``encode_ok`` the bytes ``codec.encode_response``
writes for the same answer (``tests/unit/test_produce_single.py`` compares
both for every version). ``decode_frame`` is also the twin of the compiled
``kwire.records._scan.produce_frame``, which the connection calls instead when
the C helper is built: the same tuple for every input (the same test file).

What it does not do: anything but that shape. ``decode`` returns None, and
the caller takes the generic path, for a transactional id, more or fewer
than one topic or partition, null records, any tagged field, and anything
malformed (the generic decoder then reports it as it always has).
``encode_ok`` writes only a success (error 0, no record errors, no error
message, no current leader, no node endpoints, throttle 0); every other
answer is built and encoded the generic way.

Layout of a request body (v3-8; v9+ use compact lengths and end each struct
with tagged fields; v13 names the topic by id)::

    transactional_id  nullable string    (must be null here)
    acks              int16
    timeout_ms        int32
    topic_data        [1]  name (v3-12) | topic_id uuid (v13)
                           partition_data [1]  index int32, records bytes
"""

from __future__ import annotations

from struct import Struct, error as StructError

from kwire.protocol.primitives import (
    ProtocolDecodeError,
    read_compact_records,
    read_compact_string,
    read_nullable_string,
    read_records,
    read_string,
    read_uuid,
    write_compact_string,
    write_string,
)

FIRST_FLEXIBLE = 9  # Produce v9: compact lengths and tagged fields (KIP-482)
FIRST_TOPIC_ID = 13  # Produce v13: topics by id (KIP-516)
MIN_VERSION = 3
MAX_VERSION = 13

_HI = Struct(">hi")
_HHI = Struct(">hhi")  # transactional id length (v3-8), acks, timeout_ms
_I = Struct(">i")
_SIZE_CORR = Struct(">ii")
_ONE = b"\x00\x00\x00\x01"  # a non-compact array length of 1


def decode(buf, pos: int, version: int):
    """``(acks, timeout_ms, topic, partition, records)`` of a single-partition Produce body at
    ``pos`` (``topic``: the name, or the ``uuid.UUID`` from v13), or None when it is not that
    shape. ``records`` is the slice the generic decoder would give (same type, same bytes)."""
    if buf.__class__ is not memoryview:  # as the generated decoders: records are a view, no copy
        buf = memoryview(buf)
    try:
        if version >= FIRST_FLEXIBLE:
            if buf[pos]:  # compact nullable transactional id: 0 is null
                return None
            acks, timeout_ms = _HI.unpack_from(buf, pos + 1)
            pos += 7
            if buf[pos] != 2:  # compact array of exactly one topic
                return None
            if version >= FIRST_TOPIC_ID:
                topic, pos = read_uuid(buf, pos + 1)
            else:
                topic, pos = read_compact_string(buf, pos + 1)
            if buf[pos] != 2:  # exactly one partition
                return None
            (partition,) = _I.unpack_from(buf, pos + 1)
            records, pos = read_compact_records(buf, pos + 5)
            # the partition's, the topic's and the request's tagged fields: none
            if records is None or buf[pos] or buf[pos + 1] or buf[pos + 2]:
                return None
        else:
            tid_len, acks, timeout_ms = _HHI.unpack_from(buf, pos)
            if tid_len != -1:
                return None
            (n,) = _I.unpack_from(buf, pos + 8)
            if n != 1:
                return None
            topic, pos = read_string(buf, pos + 12)
            n, partition = _SIZE_CORR.unpack_from(buf, pos)
            if n != 1:
                return None
            records, pos = read_records(buf, pos + 8)
            if records is None:
                return None
    except (IndexError, StructError, ProtocolDecodeError, UnicodeDecodeError, ValueError):
        return None
    return acks, timeout_ms, topic, partition, records


def decode_frame(frame):
    """A whole Produce frame (no size prefix): ``(version, correlation_id, client_id, acks,
    timeout_ms, topic, partition, records)``, or None when it is not a single-partition
    Produce of v3-13 with a header without tagged fields (the generic path decides then,
    errors included). The request header is read here too, without a ``RequestHeader``."""
    if frame.__class__ is not memoryview:
        frame = memoryview(frame)
    try:
        api_key, version, correlation_id = _HHI.unpack_from(frame, 0)
        if api_key != 0 or not MIN_VERSION <= version <= MAX_VERSION:
            return None
        client_id, pos = read_nullable_string(frame, 8)
        if version >= FIRST_FLEXIBLE:  # request header v2: its tagged fields, none
            if frame[pos]:
                return None
            pos += 1
    except (IndexError, StructError, ProtocolDecodeError, UnicodeDecodeError, ValueError):
        return None
    body = decode(frame, pos, version)
    if body is None:
        return None
    return (version, correlation_id, client_id, *body)


_formats: dict = {}  # (version, topic) -> (Struct of the whole answer, its head, its size)


def _format(version: int, topic):
    """The answer to this topic at this version as one ``Struct``: size and correlation id,
    the head (header tags, the topic array up to the partition: the same for every answer),
    the partition's fields, and the version's constant suffix; packed in one call."""
    out = bytearray()
    if version >= FIRST_FLEXIBLE:
        out.append(0)  # response header v1: no tagged fields
        out.append(2)  # one topic
    else:
        out += _ONE
    if version >= FIRST_TOPIC_ID:
        out += topic.bytes
        out.append(2)
    elif version >= FIRST_FLEXIBLE:
        write_compact_string(out, topic)
        out.append(2)
    else:
        write_string(out, topic)
        out += _ONE
    suffix = _SUFFIXES[version]
    fmt = Struct(f">ii{len(out)}s{'ihqqq' if version >= 5 else 'ihqq'}{len(suffix)}s")
    if len(_formats) >= 4096:  # bounded: topics come and go
        _formats.clear()
    entry = _formats[(version, topic)] = (fmt, bytes(out), fmt.size - 4)
    return entry


# after the partition's offsets: its record errors, error message and tags, the topic's tags,
# throttle_time_ms (0) and the response's tags, per version
_SUFFIXES = {v: (b"\x01\x00\x00" b"\x00" b"\x00\x00\x00\x00" b"\x00" if v >= FIRST_FLEXIBLE
                 else b"\x00\x00\x00\x00" b"\xff\xff" b"\x00\x00\x00\x00" if v >= 8
                 else b"\x00\x00\x00\x00")
             for v in range(MIN_VERSION, MAX_VERSION + 1)}


def encode_ok(version: int, correlation_id: int, topic, partition: int, base_offset: int,
              log_append_time_ms: int, log_start_offset: int) -> bytes:
    """The whole response frame (size prefix included) of a successful single-partition
    Produce: ``topic`` as the request named it (name, or topic id from v13)."""
    entry = _formats.get((version, topic))
    fmt, head, size = entry if entry is not None else _format(version, topic)
    if version >= 5:
        return fmt.pack(size, correlation_id, head, partition, 0, base_offset, log_append_time_ms,
                        log_start_offset, _SUFFIXES[version])
    return fmt.pack(size, correlation_id, head, partition, 0, base_offset, log_append_time_ms,
                    _SUFFIXES[version])
