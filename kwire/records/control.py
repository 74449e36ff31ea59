"""Control records: the COMMIT/ABORT markers that end a transaction.

A control batch has the transactional and control attribute bits set and
holds one record whose key and value are tiny fixed structs (big-endian)::

    key    int16 version (0) | int16 type     0 = ABORT, 1 = COMMIT
    value  int16 version (0) | int32 coordinator_epoch

This module builds and reads those markers. It does not decide when to write
them or track transaction state; that belongs to the transaction coordinator
and the partition log. Unknown control types are reported, not rejected,
because Kafka reserves other values for future markers.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from .builder import build_batch
from .errors import CorruptRecordError

ABORT = 0
COMMIT = 1

_KEY = struct.Struct(">hh")
_VALUE = struct.Struct(">hi")
CONTROL_VERSION = 0


class EndTxnMarker(NamedTuple):
    control_type: int
    coordinator_epoch: int


def build_end_txn_batch(
    control_type: int,
    *,
    producer_id: int,
    producer_epoch: int,
    coordinator_epoch: int,
    base_offset: int = 0,
    timestamp: int | None = None,
    partition_leader_epoch: int = -1,
) -> bytes:
    """One control batch holding a COMMIT or ABORT marker."""
    key = _KEY.pack(CONTROL_VERSION, control_type)
    value = _VALUE.pack(CONTROL_VERSION, coordinator_epoch)
    return build_batch(
        [(key, value, [], timestamp)],
        base_offset=base_offset,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        partition_leader_epoch=partition_leader_epoch,
        is_transactional=True,
        is_control=True,
    )


def control_type(key: bytes | None) -> int:
    """The type in a control record key; CorruptRecordError if it is malformed."""
    if key is None or len(key) < _KEY.size:
        raise CorruptRecordError(f"control record key too short: {key!r}")
    version, ctype = _KEY.unpack_from(key)
    if version < 0:
        raise CorruptRecordError(f"control record key version {version}")
    return ctype


def parse_end_txn_marker(key: bytes | None, value: bytes | None) -> EndTxnMarker:
    """Read a COMMIT/ABORT marker from a control record's key and value."""
    ctype = control_type(key)
    if ctype not in (ABORT, COMMIT):
        raise CorruptRecordError(f"control type {ctype} is not an end-transaction marker")
    if value is None or len(value) < _VALUE.size:
        raise CorruptRecordError(f"end-transaction marker value too short: {value!r}")
    version, coordinator_epoch = _VALUE.unpack_from(value)
    if version < 0:
        raise CorruptRecordError(f"end-transaction marker version {version}")
    return EndTxnMarker(ctype, coordinator_epoch)
