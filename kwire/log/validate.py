"""Produce-time validation of record batches: header, CRC-32C, and one walk over the records.

``validate_records(buf, config, now_ms, origin)`` checks the bytes a client
sent for one partition and returns a ``BatchSpan`` (position, header) per
batch. It raises ``KafkaError`` with the code Kafka 4.x answers (a
``RecordValidationError``, carrying ``record_errors``, when individual records
are at fault, as Kafka's RecordValidationException):

====================================  ==========================================
check                                  error
====================================  ==========================================
no bytes at all                        INVALID_RECORD (Kafka's ProduceRequest
                                       .validateRecords: "at least one record
                                       batch")
magic 0 or 1                           INVALID_RECORD (Kafka 4.x only accepts
                                       Produce v3+, which must carry magic 2;
                                       KIP-724 removed the old formats)
any other magic != 2                   CORRUPT_MESSAGE (Kafka's batch iterator
                                       rejects unknown magic as corrupt)
header cut short, batch_length < 49,   CORRUPT_MESSAGE
batch longer than the bytes sent,
bytes left after the last batch
batch larger than max.message.bytes    MESSAGE_TOO_LARGE (size includes the
                                       12-byte log overhead, as Kafka counts)
CRC-32C mismatch                       CORRUPT_MESSAGE
unknown compression codec (> 4)        CORRUPT_MESSAGE
client batch with base_offset != 0     INVALID_RECORD (producers must not
                                       assign offsets)
last_offset_delta + 1 != records_count INVALID_RECORD (also records_count <= 0)
control batch from a client            INVALID_RECORD
producer_id >= 0, base_sequence < 0    INVALID_RECORD
more than one batch from a client      INVALID_RECORD ("exactly one record
                                       batch" per partition for Produce v3+)
batch marked LogAppendTime by client   INVALID_TIMESTAMP
transactional batch from a client      INVALID_TXN_STATE "Partition was not
whose partition is not verified as     added to the transaction" (Kafka's
part of an ongoing transaction         KIP-890 verification; the Produce
                                       handler turns it into
                                       TRANSACTION_ABORTABLE for v11+, as
                                       Kafka does)
records section does not decompress    INVALID_RECORD (Kafka answers
with the batch's codec, or inflates    UNKNOWN_SERVER_ERROR from a KafkaException
past MAX_DECOMPRESSED_SIZE             "Failed to decompress record stream";
(compressed garbage, a codec bit set   kwire names the client's fault with a
on uncompressed bytes, a zip bomb)     non-retriable code instead)
record framing broken: a varint too    INVALID_RECORD (Kafka's
long or past its record, a length      InvalidRecordException: "Found invalid
that does not fit, fields not ending   record structure", "Invalid record
at the record's length, negative       size", "Incorrect declared batch size")
header count, null header key,
non-UTF-8 header key, fewer or more
records than records_count, bytes
left over, offset deltas not 0..n-1
a record without key, cleanup.policy   INVALID_RECORD with record_errors
contains "compact"                     (batch_index, "Compacted topic cannot
                                       accept message without key")
a record's timestamp (base_timestamp   INVALID_TIMESTAMP with record_errors
+ delta, CreateTime topics, -1 exempt) (batch_index, "Timestamp T of message
outside [now - before.max.ms,          with offset O is out of range. ...")
now + after.max.ms]
header max_timestamp out of those      INVALID_TIMESTAMP (kwire stores the
bounds                                 client's header as it is, so the value
                                       segment statistics and the time index
                                       take must be in range too)
total bytes > segment.bytes            RECORD_LIST_TOO_LARGE
====================================  ==========================================

``record_errors`` list every offending record of the batch (index within the
batch), a record's key error before its timestamp error, and the message is
Kafka's: "One or more records have been rejected due to invalid timestamp"
when any timestamp is at fault, else "One or more records have been rejected
due to N record errors in total, and only showing the first three errors at
most: [...]".

Cost: the records are walked once without building Python objects
(``kwire.records.scan``: a C walker with a pure-Python twin); compressed
batches are decompressed once into a temporary buffer. Only a batch that
fails the bulk key / timestamp test is decoded record by record, to name the
records. The stored bytes stay the client's: nothing is recompressed or
rewritten here (``partition_log`` patches base offset and leader epoch in the
header afterwards).

Deliberate differences from Kafka: offset deltas that are not 0..n-1 and
lying ``records_count`` / ``last_offset_delta`` are refused (Kafka rewrites
compressed batches with wrong inner offsets; kwire never recompresses), and
so are header keys that are not UTF-8 (Kafka decodes them leniently; kwire's
readers would fail on them). Not checked: that the header's ``max_timestamp``
equals the largest record timestamp (Kafka overwrites it; kwire keeps the
client's), record attributes (unused in v2).

Transactions: ``txn_verified`` is the seam for the transaction coordinator's
KIP-890 verification (Kafka's VerificationGuard). It is a callable
``(producer_id, producer_epoch) -> bool`` saying whether the producer has an
ongoing transaction that includes this partition. The produce handler passes
the transaction coordinator's check (kwire/transactions); None (appends that
come from no producer request) means no producer can be in a transaction.
"""

from __future__ import annotations

import enum
from typing import Callable

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.batch import (
    HEADER_SIZE,
    LOG_OVERHEAD,
    MAGIC_V2,
    MIN_BATCH_LENGTH,
    TRANSACTIONAL_MASK,
    BatchHeader,
    BatchSpan,
    crc_is_valid,
    read_header,
)
from kwire.records.compression import MAX_DECOMPRESSED_SIZE, NONE, decompress
from kwire.records.decode import parse_records
from kwire.records.errors import CorruptRecordError
from kwire.records.scan import check_batch, scan_records

from .config import LogConfig

E = ErrorCode
MAX_CODEC = 4  # zstd


class RecordValidationError(KafkaError):
    """Some records of a batch are at fault: ``record_errors`` is [(batch_index, message)]."""

    def __init__(self, code: ErrorCode, message: str, record_errors: list[tuple[int, str]]) -> None:
        super().__init__(code, message)
        self.record_errors = record_errors


class AppendOrigin(enum.Enum):
    """Who is appending: clients get every check; the broker's own coordinators fewer."""

    CLIENT = "client"
    COORDINATOR = "coordinator"  # several batches, control batches and offsets allowed


# the members as module constants: an Enum member read through its class costs ~0.3 µs
# on Python 3.11, three of them per append
_CLIENT = AppendOrigin.CLIENT

def validate_records(buf, config: LogConfig, now_ms: int,
                     origin: AppendOrigin = AppendOrigin.CLIENT, *,
                     txn_verified: Callable[[int, int], bool] | None = None) -> list[BatchSpan]:
    n = len(buf)
    if n == 0:
        raise KafkaError(E.INVALID_RECORD, "Produce requests must have at least one record batch")
    client = origin is _CLIENT
    create_time = not config.log_append_time
    compacted = "compact" in config.cleanup_policy
    lower = now_ms - config.message_timestamp_before_max_ms
    upper = now_ms + config.message_timestamp_after_max_ms
    spans: list[BatchSpan] = []
    pos = 0
    while pos < n:
        left = n - pos
        if left > 16:
            magic = buf[pos + 16]
            if magic != MAGIC_V2:
                if magic in (0, 1):
                    raise KafkaError(E.INVALID_RECORD, f"Produce requests are only allowed to contain "
                                                       f"record batches with magic version 2, got {magic}")
                raise KafkaError(E.CORRUPT_MESSAGE, f"batch at {pos}: unknown magic {magic}")
        if left < HEADER_SIZE:
            raise KafkaError(E.CORRUPT_MESSAGE,
                             f"{left} bytes at {pos} are too few for a record batch header")
        # one call for a whole, uncompressed batch with a good CRC and records (C when built);
        # None sends the batch through the checks below, which name what is wrong
        fast = check_batch(buf, pos, BatchHeader)
        if fast is None:
            h = _checked_header(buf, pos, left, config)
            size = LOG_OVERHEAD + h.batch_length
        else:
            h = fast[0]
            size = LOG_OVERHEAD + h.batch_length
            if size > config.max_message_bytes:
                raise _too_large(size, config)
        if client:
            _check_client_batch(h)
            if h.timestamp_type == 1:
                raise KafkaError(E.INVALID_TIMESTAMP,
                                 "Producer should not set timestamp type to LogAppendTime")
            if h.attributes & TRANSACTIONAL_MASK and not (
                    txn_verified is not None and txn_verified(h.producer_id, h.producer_epoch)):
                raise KafkaError(E.INVALID_TXN_STATE, "Partition was not added to the transaction")
        create_ts = create_time and not h.attributes & 0x08
        _check_records(buf, pos, size, h, compacted, create_ts and (lower, upper), fast)
        if create_ts:
            ts = h.max_timestamp
            if ts != -1 and not lower <= ts <= upper:
                raise KafkaError(E.INVALID_TIMESTAMP, f"Timestamp {ts} is out of range. The "
                                 f"timestamp should be within [{lower}, {upper}]")
        spans.append(BatchSpan(pos, h))
        pos += size
    if client and len(spans) > 1:
        raise KafkaError(E.INVALID_RECORD,
                         "Produce requests are only allowed to contain exactly one record batch")
    if n > config.segment_bytes:
        raise KafkaError(E.RECORD_LIST_TOO_LARGE, f"The record batch size {n} exceeds "
                                                  f"segment.bytes {config.segment_bytes}")
    return spans


def _too_large(size: int, config: LogConfig) -> KafkaError:
    return KafkaError(E.MESSAGE_TOO_LARGE, f"The batch size {size} exceeds max.message.bytes "
                                           f"{config.max_message_bytes}")


def _checked_header(buf, pos: int, left: int, config: LogConfig):
    """The header of the batch at ``pos`` once its length, size, CRC and codec are checked."""
    h = read_header(buf, pos)
    size = LOG_OVERHEAD + h.batch_length
    if h.batch_length < MIN_BATCH_LENGTH:
        raise KafkaError(E.CORRUPT_MESSAGE, f"batch at {pos}: batch_length {h.batch_length} "
                                            f"is below the minimum {MIN_BATCH_LENGTH}")
    if size > left:
        raise KafkaError(E.CORRUPT_MESSAGE, f"batch at {pos} declares {size} bytes, "
                                            f"only {left} were sent")
    if size > config.max_message_bytes:
        raise _too_large(size, config)
    if not crc_is_valid(buf, pos, size):
        raise KafkaError(E.CORRUPT_MESSAGE, f"batch at {pos}: CRC mismatch "
                                            f"(stored {h.crc:#010x})")
    if h.attributes & 0x07 > MAX_CODEC:
        raise KafkaError(E.CORRUPT_MESSAGE, f"batch at {pos}: unknown compression codec "
                                            f"{h.attributes & 0x07}")
    return h


def _check_client_batch(h) -> None:
    if h.base_offset != 0:
        raise KafkaError(E.INVALID_RECORD, f"The baseOffset of the record batch should be 0, "
                                           f"but it is {h.base_offset}")
    count = h.last_offset_delta + 1
    if count <= 0 or h.records_count <= 0:
        raise KafkaError(E.INVALID_RECORD, f"Batch has an invalid offset range or count: "
                                           f"last_offset_delta {h.last_offset_delta}, "
                                           f"records_count {h.records_count}")
    if count != h.records_count:
        raise KafkaError(E.INVALID_RECORD, f"Inconsistent batch offset range [0, {count - 1}] "
                                           f"and count of records {h.records_count}")
    if h.is_control:
        raise KafkaError(E.INVALID_RECORD, "Clients are not allowed to write control records")
    if h.producer_id >= 0 and h.base_sequence < 0:
        raise KafkaError(E.INVALID_RECORD, f"Invalid sequence number {h.base_sequence} in record "
                                           f"batch with producerId {h.producer_id}")


def _check_records(buf, pos: int, size: int, h, compacted: bool, bounds, fast=None) -> None:
    """Decompress once, walk the records once (``fast``: ``check_batch`` did); name offending
    records only on failure."""
    if fast is not None:
        _h, min_delta, max_delta, null_keys = fast
        base = h.base_timestamp
        if (compacted and null_keys) or (bounds and not (
                bounds[0] <= base + min_delta and base + max_delta <= bounds[1])):
            _record_errors(h, memoryview(buf)[pos + HEADER_SIZE : pos + size], compacted, bounds)
        return
    codec = h.attributes & 0x07
    section = memoryview(buf)[pos + HEADER_SIZE : pos + size]
    if codec == NONE:
        data = section
    elif not len(section) and h.records_count == 0:
        data = b""  # an empty batch carries no compressed stream at all
    else:
        try:
            data = decompress(codec, section, MAX_DECOMPRESSED_SIZE)
        except CorruptRecordError as e:
            raise KafkaError(E.INVALID_RECORD, f"batch at {pos}: {e}") from None
    try:
        min_delta, max_delta, null_keys = scan_records(data, h.records_count)
    except CorruptRecordError as e:
        raise KafkaError(E.INVALID_RECORD, f"batch at {pos}: {e}") from None
    base = h.base_timestamp
    if (compacted and null_keys) or (bounds and not (
            bounds[0] <= base + min_delta and base + max_delta <= bounds[1])):
        _record_errors(h, data, compacted, bounds)


def _record_errors(h, data, compacted: bool, bounds) -> None:
    """The slow path: decode the batch and report every bad record as Kafka does."""
    errors: list[tuple[int, str]] = []
    bad_timestamp = False
    for i, r in enumerate(parse_records(h, bytes(data))):
        if compacted and r.key is None:
            errors.append((i, "Compacted topic cannot accept message without key"))
            continue  # Kafka reports the key and does not look at the timestamp
        ts = h.base_timestamp + r.timestamp_delta
        if bounds and ts != -1 and not bounds[0] <= ts <= bounds[1]:
            bad_timestamp = True
            errors.append((i, f"Timestamp {ts} of message with offset {r.offset_delta} is out of "
                              f"range. The timestamp should be within [{bounds[0]}, {bounds[1]}]"))
    if not errors:
        return  # only records with timestamp -1 fell outside: they are exempt
    if bad_timestamp:
        raise RecordValidationError(
            E.INVALID_TIMESTAMP, "One or more records have been rejected due to invalid timestamp",
            errors)
    shown = ", ".join(f"RecordError(batchIndex={i}, message='{m}')" for i, m in errors[:3])
    raise RecordValidationError(
        E.INVALID_RECORD, f"One or more records have been rejected due to {len(errors)} record "
        f"errors in total, and only showing the first three errors at most: [{shown}]", errors)
