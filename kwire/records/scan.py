"""Walk the records section of a v2 batch once, checking framing, building no records.

``scan_records(data, count, layout=None) -> (min_ts_delta, max_ts_delta, null_keys)``
reads exactly ``count`` records from ``data`` (the records section, already
decompressed; any buffer) and raises ``CorruptRecordError`` unless:

* every record's varint length is >= 1 and fits, and its fields end exactly
  at that length (record layout drawn in ``kwire.records.decode``);
* every varint is well formed (int32: at most 5 bytes, int64: 10) and ends
  inside its record;
* offset deltas run 0, 1, ..., count-1 in order (so the header's
  ``last_offset_delta`` is right once it equals ``records_count - 1``);
* key, value and header value lengths are >= -1 (-1 = null) and fit; header
  counts and header key lengths are >= 0; header keys are UTF-8 (what
  ``kwire.records.decode`` requires to read the batch back);
* nothing is left after the last record.

``check_batch(data, pos, header_type) -> (header, min_ts_delta, max_ts_delta, null_keys) | None``
is the produce path's one call per batch: the ``BatchHeader`` of the batch
at ``data[pos:]`` and ``scan_records`` of its records, only when the batch is
whole (a 61-byte header, magic 2, a ``batch_length`` of at least 49 that fits
in ``data``), its CRC-32C is valid and it is not compressed. Anything else is
None and raises nothing: the caller's full checks then name the fault (and
decompress). It accepts exactly what those checks would accept on that path.

``check_client_batch(data, header_type, lower, upper, max_size, compacted) -> header | None``
is a client's whole Produce payload for one partition in one call: the header when ``data``
is exactly one batch that ``check_batch`` accepts and that passes every check the produce
validator (``kwire.log.validate``) makes of a client's batch: size <= ``max_size``, base
offset 0, records_count > 0 and last_offset_delta + 1, CreateTime, neither a control nor a
transactional batch (those need the coordinator), a base sequence >= 0 for a producer id >= 0,
every record's timestamp and the header's max timestamp (unless -1) within [lower, upper],
and no null key when ``compacted``. Anything else is None, raising nothing: the validator's
full checks then decide and name the fault.

``stamp_batch(data, pos, base_offset, leader_epoch, header_type) -> header`` writes a
leader's base offset and partition leader epoch into the batch at ``data[pos:]`` (a
writable buffer; the CRC does not cover them) and returns its header read back, one call
for what the log's append does to every batch it stamps (ValueError without a whole header
at ``pos``).

``schema_ids(data, count, field) -> (ids, unframed)`` walks as ``scan_records``
does (same errors) and reads one field of every record, the key (``field`` 0)
or the value (1): ``ids`` is the ascending tuple of the distinct schema ids in
the schema registry's wire format (a field of 5 bytes or more starting with
the magic byte 0, then a 4-byte big-endian id), ``unframed`` the number of
non-null fields not in that format. It is produce-time schema validation's
one call per batch (``kwire.broker.schema_validation``).

``scan_records`` returns the smallest and largest timestamp delta (0, 0 when ``count`` is
0) and the number of records with a null key, which is all the produce
validator needs on its hot path: timestamps and keys are then checked in
bulk, and only a batch that fails gets decoded record by record to name the
offending records (``record_errors``).

``layout``, when given, is a writable ``array('i')`` of at least
``LAYOUT_FIELDS * count`` ints; record ``i`` fills slots ``6i .. 6i+5`` with
``(start, end, key_pos, key_len, value_pos, value_len)`` (positions in
``data``, lengths -1 for null). It is the seam for features that need keys or
record positions without decoding again (the log cleaner's keys, control
records for transactions); the produce path does not ask for it.

Two implementations with one contract: the C extension ``kwire.records._scan``
(built by ``pip install`` when a compiler is present, see setup.py) and
``_py_scan_records`` below. The C one is used when it imports, unless
``KWIRE_NO_EXTENSIONS=1`` is set; ``IMPLEMENTATION`` says which ("c" or
"python"). One more compiled function has its twin elsewhere: ``produce_frame`` (a
single-partition Produce frame read in one call) mirrors
``kwire.protocol.produce_single.decode_frame``; it is None when the Python
walker is in use. Not here: decompression, header checks (``kwire.log.validate``),
record attributes (unused in v2 and not checked, as in Kafka).
"""

from __future__ import annotations

import os
from array import array
from struct import Struct, error as StructError

from .batch import HEADER_SIZE, LOG_OVERHEAD, MAGIC_V2, MIN_BATCH_LENGTH, BatchHeader, crc_is_valid, read_header
from .errors import CorruptRecordError

__all__ = ["IMPLEMENTATION", "LAYOUT_FIELDS", "scan_records", "py_scan_records", "c_scan_records",
           "check_batch", "py_check_batch", "c_check_batch", "check_client_batch",
           "py_check_client_batch", "c_check_client_batch", "stamp_batch", "py_stamp_batch", "c_stamp_batch", "schema_ids", "py_schema_ids", "c_schema_ids",
           "produce_frame", "c_produce_frame"]

LAYOUT_FIELDS = 6
_INT32_MIN, _INT32_MAX = -(1 << 31), (1 << 31) - 1
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def _varint(d, pos: int, end: int, max_bytes: int, i: int, what: str) -> tuple[int, int]:
    """Zigzag varint at ``d[pos:end]``; errors name the record and the field."""
    raw = 0
    shift = 0
    start = pos
    limit = min(end, pos + max_bytes)
    while pos < limit:
        b = d[pos]
        pos += 1
        raw |= (b & 0x7F) << shift
        if b < 0x80:
            v = (raw >> 1) ^ -(raw & 1)
            if (max_bytes == 5 and not _INT32_MIN <= v <= _INT32_MAX) or not _INT64_MIN <= v <= _INT64_MAX:
                raise CorruptRecordError(f"record {i}: {what} varint is out of range")
            return v, pos
        shift += 7
    why = "runs past its end" if pos - start < max_bytes else "is too long"
    raise CorruptRecordError(f"record {i}: {what} varint {why}")


def py_scan_records(data, count: int, layout=None) -> tuple[int, int, int]:
    """Pure-Python ``scan_records`` (the reference the C walker is tested against)."""
    d = memoryview(data).cast("B") if not isinstance(data, (bytes, bytearray)) else data
    if layout is not None:
        if not isinstance(count, int) or count < 0 or len(layout) < LAYOUT_FIELDS * count or \
                getattr(layout, "typecode", "i") != "i" or len(d) > _INT32_MAX:
            raise ValueError("layout must be a writable array('i') of 6 * count ints "
                             "(and data under 2 GiB)")
    if count < 0:
        raise CorruptRecordError(f"negative records_count {count}")
    end = len(d)
    pos = 0
    min_ts = max_ts = 0
    null_keys = 0
    for i in range(count):
        if pos >= end:
            raise CorruptRecordError(f"records section ends after {i} of {count} records")
        start = pos
        b = d[pos]
        if b < 0x80:  # one-byte varints are the common case: skip the call
            length, pos = (b >> 1) ^ -(b & 1), pos + 1
        else:
            length, pos = _varint(d, pos, end, 5, i, "length")
        rend = pos + length
        if length < 1 or length > end - pos:
            raise CorruptRecordError(f"record {i}: length {length} does not fit")
        pos += 1  # attributes
        # One-byte varints (b < 0x80) are decoded inline: the call is most of the cost.
        b = d[pos] if pos < rend else 0x80
        if b < 0x80:
            ts, pos = (b >> 1) ^ -(b & 1), pos + 1
        else:
            ts, pos = _varint(d, pos, rend, 10, i, "timestamp delta")
        if i == 0 or ts < min_ts:
            min_ts = ts
        if i == 0 or ts > max_ts:
            max_ts = ts
        b = d[pos] if pos < rend else 0x80
        if b < 0x80:
            od, pos = (b >> 1) ^ -(b & 1), pos + 1
        else:
            od, pos = _varint(d, pos, rend, 5, i, "offset delta")
        if od != i:
            raise CorruptRecordError(f"record {i}: offset delta {od}, expected {i}")
        b = d[pos] if pos < rend else 0x80
        if b < 0x80:
            key_len, pos = (b >> 1) ^ -(b & 1), pos + 1
        else:
            key_len, pos = _varint(d, pos, rend, 5, i, "key length")
        key_pos = pos
        if key_len < -1 or key_len > rend - pos:
            raise CorruptRecordError(f"record {i}: key length {key_len} does not fit")
        if key_len < 0:
            null_keys += 1
        else:
            pos += key_len
        val_len, pos = _varint(d, pos, rend, 5, i, "value length")
        val_pos = pos
        if val_len < -1 or val_len > rend - pos:
            raise CorruptRecordError(f"record {i}: value length {val_len} does not fit")
        if val_len > 0:
            pos += val_len
        headers, pos = _varint(d, pos, rend, 5, i, "header count")
        if headers < 0:
            raise CorruptRecordError(f"record {i}: negative header count {headers}")
        for _ in range(headers):
            n, pos = _varint(d, pos, rend, 5, i, "header key length")
            if n < 0 or n > rend - pos:
                raise CorruptRecordError(f"record {i}: header key length {n} does not fit")
            try:
                bytes(d[pos : pos + n]).decode("utf-8")
            except UnicodeDecodeError:
                raise CorruptRecordError(f"record {i}: header key is not UTF-8") from None
            pos += n
            n, pos = _varint(d, pos, rend, 5, i, "header value length")
            if n < -1 or n > rend - pos:
                raise CorruptRecordError(f"record {i}: header value length {n} does not fit")
            if n > 0:
                pos += n
        if pos != rend:
            raise CorruptRecordError(f"record {i}: {rend - pos} unread bytes inside its length")
        if layout is not None:
            k = LAYOUT_FIELDS * i
            layout[k], layout[k + 1], layout[k + 2] = start, rend, key_pos
            layout[k + 3], layout[k + 4], layout[k + 5] = key_len, val_pos, val_len
    if pos != end:
        raise CorruptRecordError(f"{end - pos} bytes left after {count} records")
    return min_ts, max_ts, null_keys


def py_check_batch(data, pos: int, header_type=BatchHeader):
    """Pure-Python ``check_batch`` (the reference the C one is tested against); the header is
    a ``header_type`` (a tuple type taking the 13 fields, ``BatchHeader`` on the produce path)."""
    left = len(data) - pos
    if pos < 0 or left < HEADER_SIZE or data[pos + 16] != MAGIC_V2:
        return None
    h = read_header(data, pos)
    size = LOG_OVERHEAD + h.batch_length
    if h.batch_length < MIN_BATCH_LENGTH or size > left or h.attributes & 0x07:
        return None
    if not crc_is_valid(data, pos, size):
        return None
    try:
        scanned = py_scan_records(memoryview(data)[pos + HEADER_SIZE : pos + size], h.records_count)
    except CorruptRecordError:
        return None
    return (h if header_type is BatchHeader else tuple.__new__(header_type, h), *scanned)


def py_check_client_batch(data, header_type, lower: int, upper: int, max_size: int, compacted,
                          *stamp):
    """Pure-Python ``check_client_batch`` (the reference the C one is tested against).
    ``stamp``: none, or ``base_offset, leader_epoch``, written into an accepted batch (as
    ``py_stamp_batch``), whose stamped header is then the answer."""
    if stamp:
        if len(stamp) != 2:
            raise TypeError("check_client_batch(data, header_type, lower, upper, max_size, "
                            "compacted[, base_offset, leader_epoch])")
        if not (_INT64_MIN <= stamp[0] <= _INT64_MAX and -2**31 <= stamp[1] < 2**31):
            raise OverflowError("base_offset or leader_epoch out of range")
        if memoryview(data).readonly:
            raise BufferError("Object is not writable.")
    checked = py_check_batch(data, 0, header_type)
    if checked is None:
        return None
    h, min_delta, max_delta, null_keys = checked
    size = LOG_OVERHEAD + h.batch_length
    if size != len(data) or size > max_size or h.attributes & 0x38:  # LogAppendTime, txn, control
        return None
    if h.base_offset != 0 or h.records_count <= 0 or h.last_offset_delta != h.records_count - 1:
        return None
    if (h.producer_id >= 0 and h.base_sequence < 0) or (compacted and null_keys):
        return None
    first, last = h.base_timestamp + min_delta, h.base_timestamp + max_delta
    if not (_INT64_MIN <= first and last <= _INT64_MAX) or first < lower or last > upper:
        return None  # (the C twin cannot add past int64: it says None too)
    if h.max_timestamp != -1 and not lower <= h.max_timestamp <= upper:
        return None
    if stamp:
        return py_stamp_batch(data, 0, stamp[0], stamp[1], header_type)
    return h


_BASE_OFFSET, _LEADER_EPOCH = Struct(">q"), Struct(">i")


def py_stamp_batch(data, pos: int, base_offset: int, leader_epoch: int, header_type=BatchHeader):
    """Pure-Python ``stamp_batch`` (the reference the C one is tested against)."""
    if memoryview(data).readonly:
        raise BufferError("Object is not writable.")
    if pos < 0 or len(data) - pos < HEADER_SIZE:
        raise ValueError("no 61-byte batch header at pos")
    try:
        _BASE_OFFSET.pack_into(data, pos, base_offset)
        _LEADER_EPOCH.pack_into(data, pos + 12, leader_epoch)
    except StructError as e:
        raise OverflowError(str(e)) from None
    h = read_header(data, pos)
    return h if header_type is BatchHeader else tuple.__new__(header_type, h)


def py_schema_ids(data, count: int, field: int) -> tuple[tuple[int, ...], int]:
    """Pure-Python ``schema_ids`` (the reference the C one is tested against)."""
    if field not in (0, 1):
        raise ValueError("field must be 0 (key) or 1 (value), data under 2 GiB")
    if count < 0:
        raise CorruptRecordError(f"negative records_count {count}")
    layout = array("i", bytes(4 * LAYOUT_FIELDS * count))
    py_scan_records(data, count, layout)
    raw = data if isinstance(data, (bytes, bytearray)) else bytes(data)
    ids: set[int] = set()
    unframed = 0
    for p, n in zip(layout[2 + 2 * field::LAYOUT_FIELDS], layout[3 + 2 * field::LAYOUT_FIELDS]):
        if n < 0:
            continue
        if n < 5 or raw[p] != 0:
            unframed += 1
        else:
            ids.add(int.from_bytes(raw[p + 1:p + 5], "big"))
    return tuple(sorted(ids)), unframed


def _load_c():
    try:
        from . import _scan
    except ImportError:
        return None, None, None, None, None, None
    # an extension built before check_batch (schema_ids, ...) existed lacks it: the Python one is used
    return (_scan.scan_records, getattr(_scan, "check_batch", None), getattr(_scan, "schema_ids", None),
            getattr(_scan, "check_client_batch", None), getattr(_scan, "stamp_batch", None),
            getattr(_scan, "produce_frame", None))


# None when the extension is not built
(c_scan_records, c_check_batch, c_schema_ids, c_check_client_batch, c_stamp_batch,
 c_produce_frame) = _load_c()

if c_scan_records is not None and os.environ.get("KWIRE_NO_EXTENSIONS", "") in ("", "0"):
    scan_records = c_scan_records
    check_batch = c_check_batch or py_check_batch
    schema_ids = c_schema_ids or py_schema_ids
    check_client_batch = c_check_client_batch or py_check_client_batch
    stamp_batch = c_stamp_batch or py_stamp_batch
    # the single-partition Produce frame reader; its twin, produce_single.decode_frame, is in
    # kwire.protocol, which this layer does not import: None here means "use the twin"
    produce_frame = c_produce_frame
    IMPLEMENTATION = "c"
else:
    scan_records = py_scan_records
    check_batch = py_check_batch
    schema_ids = py_schema_ids
    check_client_batch = py_check_client_batch
    stamp_batch = py_stamp_batch
    produce_frame = None
    IMPLEMENTATION = "python"
