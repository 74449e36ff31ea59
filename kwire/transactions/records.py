"""``__transaction_state`` records: Kafka's TransactionLogKey / TransactionLogValue.

One record per transactional id and state change; the topic is compacted,
so the newest record of an id is its state, and a tombstone (null value)
removes an expired id. Layout (big-endian, Kafka's schemas)::

    key    int16 version (0) | string transactional_id
    value  int16 version (0) | int64 producer_id | int16 producer_epoch |
           int32 transaction_timeout_ms | int8 transaction_status |
           array transaction_partitions (int32 count, -1 = null) of
               [string topic | int32 count | int32 partition...] |
           int64 transaction_last_update_timestamp_ms |
           int64 transaction_start_timestamp_ms

kwire writes value version 0 (what Kafka writes for transaction version 1
clients); it reads 0 and the fixed part of 1 (flexible: compact arrays and
strings, tagged fields ignored). ``transaction_status`` codes are Kafka's
TransactionState ids (see ``state.py``).
"""

from __future__ import annotations

import struct
from typing import NamedTuple

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_FIXED = struct.Struct(">qhib")
_TS = struct.Struct(">qq")


class RecordError(ValueError):
    pass


class TxnLogValue(NamedTuple):
    producer_id: int
    producer_epoch: int
    timeout_ms: int
    status: int
    partitions: tuple[tuple[str, int], ...]  # sorted (topic, partition)
    last_update_ms: int
    start_ms: int


def _string(s: str) -> bytes:
    b = s.encode()
    return _I16.pack(len(b)) + b


def encode_key(transactional_id: str) -> bytes:
    return _I16.pack(0) + _string(transactional_id)


def encode_value(v: TxnLogValue) -> bytes:
    out = bytearray(_I16.pack(0))
    out += _FIXED.pack(v.producer_id, v.producer_epoch, v.timeout_ms, v.status)
    by_topic: dict[str, list[int]] = {}
    for t, p in v.partitions:
        by_topic.setdefault(t, []).append(p)
    out += _I32.pack(len(by_topic))
    for t, parts in by_topic.items():
        out += _string(t) + _I32.pack(len(parts))
        for p in parts:
            out += _I32.pack(p)
    out += _TS.pack(v.last_update_ms, v.start_ms)
    return bytes(out)


class _Reader:
    def __init__(self, data: bytes, flexible: bool = False) -> None:
        self.data, self.pos, self.flexible = data, 0, flexible

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise RecordError("record cut short")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def unpack(self, st: struct.Struct):
        return st.unpack(self.take(st.size))

    def uvarint(self) -> int:
        shift = value = 0
        while True:
            b = self.take(1)[0]
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                return value
            shift += 7

    def string(self) -> str:
        n = self.uvarint() - 1 if self.flexible else self.unpack(_I16)[0]
        if n < 0:
            raise RecordError("null string")
        return self.take(n).decode()

    def count(self) -> int:
        return self.uvarint() - 1 if self.flexible else self.unpack(_I32)[0]


def decode_key(data: bytes) -> str:
    r = _Reader(bytes(data))
    version = r.unpack(_I16)[0]
    if version != 0:
        raise RecordError(f"unknown transaction log key version {version}")
    return r.string()


def decode_value(data: bytes | None) -> TxnLogValue | None:
    if data is None:
        return None
    r = _Reader(bytes(data))
    version = r.unpack(_I16)[0]
    if version not in (0, 1):
        raise RecordError(f"unknown transaction log value version {version}")
    r.flexible = version >= 1
    pid, epoch, timeout, status = r.unpack(_FIXED)
    parts: list[tuple[str, int]] = []
    n = r.count()
    for _ in range(max(n, 0)):
        topic = r.string()
        for _ in range(r.count()):
            parts.append((topic, r.unpack(_I32)[0]))
        if r.flexible:
            _skip_tags(r)
    last_update, start = r.unpack(_TS)
    return TxnLogValue(pid, epoch, timeout, status, tuple(sorted(parts)), last_update, start)


def _skip_tags(r: _Reader) -> None:
    for _ in range(r.uvarint()):
        r.uvarint()
        r.take(r.uvarint())
