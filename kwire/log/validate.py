"""Produce-time validation of record batches: header fields and CRC only, no record decoding.

``validate_records(buf, config, now_ms, origin)`` checks the bytes a client
sent for one partition and returns a ``BatchSpan`` (position, header) per
batch. It raises ``KafkaError`` with the code Kafka 4.x answers:

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
CreateTime timestamp out of bounds     INVALID_TIMESTAMP
total bytes > segment.bytes            RECORD_LIST_TOO_LARGE
====================================  ==========================================

Timestamps (CreateTime topics only, records with timestamp -1 are exempt, as
in Kafka): the header's ``base_timestamp`` (first record) and ``max_timestamp``
are each checked against ``now - message.timestamp.before.max.ms`` and
``now + message.timestamp.after.max.ms``. Because ``max_timestamp`` bounds every
record from above, the *after* bound holds for all records. The *before* bound
is exact only when the first record is the oldest, which is how producers fill
batches; a later record older than the first one is not caught, since finding
it would mean decoding (and decompressing) the batch. With Kafka's default
``before.max.ms`` (unlimited) there is nothing to miss.

Deliberately not checked (each would need decoding): record-level offset
deltas and timestamps agreeing with the header, keys on compacted topics,
records nested inside compressed records. Offsets and the CRC region are left
untouched here; ``partition_log`` assigns offsets in place afterwards.
"""

from __future__ import annotations

import enum

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.batch import (
    HEADER_SIZE,
    LOG_OVERHEAD,
    MAGIC_V2,
    BatchSpan,
    crc_is_valid,
    read_header,
)

from .config import LogConfig

E = ErrorCode
MAX_CODEC = 4  # zstd
_MIN_BATCH_LENGTH = HEADER_SIZE - LOG_OVERHEAD


class AppendOrigin(enum.Enum):
    """Who is appending: clients get every check; the broker's own coordinators fewer."""

    CLIENT = "client"
    COORDINATOR = "coordinator"  # several batches, control batches and offsets allowed


def validate_records(buf, config: LogConfig, now_ms: int,
                     origin: AppendOrigin = AppendOrigin.CLIENT) -> list[BatchSpan]:
    n = len(buf)
    if n == 0:
        raise KafkaError(E.INVALID_RECORD, "Produce requests must have at least one record batch")
    client = origin is AppendOrigin.CLIENT
    create_time = not config.log_append_time
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
        h = read_header(buf, pos)
        size = LOG_OVERHEAD + h.batch_length
        if h.batch_length < _MIN_BATCH_LENGTH:
            raise KafkaError(E.CORRUPT_MESSAGE, f"batch at {pos}: batch_length {h.batch_length} "
                                                f"is below the minimum {_MIN_BATCH_LENGTH}")
        if size > left:
            raise KafkaError(E.CORRUPT_MESSAGE, f"batch at {pos} declares {size} bytes, "
                                                f"only {left} were sent")
        if size > config.max_message_bytes:
            raise KafkaError(E.MESSAGE_TOO_LARGE, f"The batch size {size} exceeds max.message.bytes "
                                                  f"{config.max_message_bytes}")
        if not crc_is_valid(buf, pos, size):
            raise KafkaError(E.CORRUPT_MESSAGE, f"batch at {pos}: CRC mismatch "
                                                f"(stored {h.crc:#010x})")
        if h.attributes & 0x07 > MAX_CODEC:
            raise KafkaError(E.CORRUPT_MESSAGE, f"batch at {pos}: unknown compression codec "
                                                f"{h.attributes & 0x07}")
        if client:
            _check_client_batch(h)
        if h.timestamp_type == 1 and client:
            raise KafkaError(E.INVALID_TIMESTAMP,
                             "Producer should not set timestamp type to LogAppendTime")
        if create_time:
            for ts in (h.base_timestamp, h.max_timestamp):
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
