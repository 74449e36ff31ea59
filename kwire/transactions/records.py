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

Value version 1 (Kafka's TransactionLogValue v1, flexible: compact strings
and arrays, a tag buffer per partitions entry and at the end) adds tagged
fields: 0 previous_producer_id (int64, default -1), 1 next_producer_id
(int64, -1), 2 client_transaction_version (int16, 0), 3 next_producer_epoch
(int16, -1; read, not kept). kwire writes version 0 for transactions of
transaction version 1 clients (unchanged bytes for them) and version 1 once
an id is used by a transaction version 2 client (KIP-890 part 2) or carries
a previous/next producer id; it reads both. ``transaction_status`` codes are
Kafka's TransactionState ids (see ``state.py``).
"""

from __future__ import annotations

import struct
from typing import NamedTuple

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_FIXED = struct.Struct(">qhib")
_TS = struct.Struct(">qq")
_I64 = struct.Struct(">q")


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
    prev_producer_id: int = -1
    next_producer_id: int = -1
    client_version: int = 0  # 2: a transactions v2 client (epoch bump per transaction)


def _string(s: str) -> bytes:
    b = s.encode()
    return _I16.pack(len(b)) + b


def encode_key(transactional_id: str) -> bytes:
    return _I16.pack(0) + _string(transactional_id)


def _uvarint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def value_version(v: TxnLogValue) -> int:
    return 1 if (v.client_version >= 2 or v.prev_producer_id >= 0 or v.next_producer_id >= 0) else 0


def encode_value(v: TxnLogValue, version: int | None = None) -> bytes:
    version = value_version(v) if version is None else version
    flexible = version >= 1
    out = bytearray(_I16.pack(version))
    out += _FIXED.pack(v.producer_id, v.producer_epoch, v.timeout_ms, v.status)
    by_topic: dict[str, list[int]] = {}
    for t, p in v.partitions:
        by_topic.setdefault(t, []).append(p)
    if not flexible:
        out += _I32.pack(len(by_topic))
        for t, parts in by_topic.items():
            out += _string(t) + _I32.pack(len(parts))
            for p in parts:
                out += _I32.pack(p)
        out += _TS.pack(v.last_update_ms, v.start_ms)
        return bytes(out)
    out += _uvarint(len(by_topic) + 1)
    for t, parts in by_topic.items():
        b = t.encode()
        out += _uvarint(len(b) + 1) + b + _uvarint(len(parts) + 1)
        for p in parts:
            out += _I32.pack(p)
        out += b"\x00"  # no tagged fields
    out += _TS.pack(v.last_update_ms, v.start_ms)
    tags = []
    if v.prev_producer_id != -1:
        tags.append((0, _I64.pack(v.prev_producer_id)))
    if v.next_producer_id != -1:
        tags.append((1, _I64.pack(v.next_producer_id)))
    if v.client_version != 0:
        tags.append((2, _I16.pack(v.client_version)))
    out += _uvarint(len(tags))
    for tag, data in tags:
        out += _uvarint(tag) + _uvarint(len(data)) + data
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
    prev_pid = next_pid = -1
    client_version = 0
    if r.flexible:
        for _ in range(r.uvarint()):
            tag, size = r.uvarint(), r.uvarint()
            data = r.take(size)
            if tag == 0 and size == 8:
                prev_pid = _I64.unpack(data)[0]
            elif tag == 1 and size == 8:
                next_pid = _I64.unpack(data)[0]
            elif tag == 2 and size == 2:
                client_version = _I16.unpack(data)[0]
    return TxnLogValue(pid, epoch, timeout, status, tuple(sorted(parts)), last_update, start,
                       prev_pid, next_pid, client_version)


def _skip_tags(r: _Reader) -> None:
    for _ in range(r.uvarint()):
        r.uvarint()
        r.take(r.uvarint())
