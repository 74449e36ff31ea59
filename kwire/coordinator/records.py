"""Records of the internal topic ``__consumer_offsets``: typed keys and values, versioned bytes.

The group coordinator's durable state is a sequence of these records. Each is a
(key, value) pair: the key names the entity (so log compaction keeps the latest
value per entity) and the value is its new state, or None (a tombstone) when the
entity is deleted. The format is kwire's own; it follows the shape of Kafka's
coordinator records (OffsetCommit, GroupMetadata, ConsumerGroup* records) but is
not byte-compatible with them.

Byte layout (big-endian)::

    key   = int16 record_type | fields of that key type
    value = int16 value_version | fields of that version      (absent: tombstone)

    string   = int16 length (-1: null) | UTF-8 bytes
    bytes    = int32 length (-1: null) | bytes
    array    = int32 count | items
    uuid     = 16 bytes

Record types (the key's first field never changes meaning):

    1  OffsetCommit                  key: group, topic, partition
    2  GroupMetadata (classic)       key: group
    3  ConsumerGroupMetadata         key: group                 (group epoch)
    5  ConsumerGroupMemberMetadata   key: group, member_id      (subscription)
    6  ConsumerGroupTargetAssignmentMetadata  key: group        (assignment epoch)
    7  ConsumerGroupTargetAssignmentMember    key: group, member_id
    8  ConsumerGroupCurrentMemberAssignment   key: group, member_id
   10  ShareGroupMemberMetadata      key: group, member_id      (subscription, epoch, assignment)
   11  ShareGroupMetadata            key: group                 (group epoch)

Versioning: a decoder reads every version it knows and raises ``RecordError``
for a newer one, so an old broker never silently misreads a newer log. New
fields go at the end of a new value version; readers of the old version fill
defaults. Deliberately not done: compression of single records, schemas shared
with Kafka's tooling (``kafka-console-consumer --formatter`` cannot read these).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Union

__all__ = [
    "CoordinatorRecord", "RecordError", "decode_record", "encode_record",
    "OffsetCommitKey", "OffsetCommitValue", "GroupMetadataKey", "GroupMetadataValue",
    "MemberMetadata", "ConsumerGroupMetadataKey", "ConsumerGroupMetadataValue",
    "ConsumerGroupMemberKey", "ConsumerGroupMemberValue", "TargetAssignmentMetadataKey",
    "TargetAssignmentMetadataValue", "TargetAssignmentMemberKey", "TargetAssignmentMemberValue",
    "CurrentAssignmentKey", "CurrentAssignmentValue", "ShareGroupMetadataKey", "ShareGroupMetadataValue",
    "ShareGroupMemberKey", "ShareGroupMemberValue",
]


class RecordError(ValueError):
    """A record in __consumer_offsets could not be decoded."""


# -- keys and values --------------------------------------------------------------------

@dataclass(frozen=True)
class OffsetCommitKey:
    group: str
    topic: str
    partition: int
    TYPE = 1


@dataclass
class OffsetCommitValue:
    offset: int
    leader_epoch: int  # -1: unknown
    metadata: str  # never None: a null commit metadata is stored as ""
    commit_timestamp: int
    expire_timestamp: int = -1  # -1: use the broker's offsets.retention.minutes
    VERSION = 0


@dataclass(frozen=True)
class GroupMetadataKey:
    group: str
    TYPE = 2


@dataclass
class MemberMetadata:
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    subscription: bytes  # the member's metadata for the selected protocol
    assignment: bytes


@dataclass
class GroupMetadataValue:
    protocol_type: str
    generation: int
    protocol: str | None
    leader: str | None
    current_state_timestamp: int
    members: list[MemberMetadata] = field(default_factory=list)
    VERSION = 0


@dataclass(frozen=True)
class ConsumerGroupMetadataKey:
    group: str
    TYPE = 3


@dataclass
class ConsumerGroupMetadataValue:
    epoch: int
    metadata_hash: int = 0  # of the subscribed topics' ids and partition counts at that epoch
    VERSION = 0


@dataclass(frozen=True)
class ConsumerGroupMemberKey:
    group: str
    member_id: str
    TYPE = 5


@dataclass
class ConsumerGroupMemberValue:
    instance_id: str | None
    rack_id: str | None
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    subscribed_topic_regex: str | None
    server_assignor: str | None
    rebalance_timeout_ms: int
    VERSION = 0


@dataclass(frozen=True)
class TargetAssignmentMetadataKey:
    group: str
    TYPE = 6


@dataclass
class TargetAssignmentMetadataValue:
    assignment_epoch: int
    VERSION = 0


@dataclass(frozen=True)
class TargetAssignmentMemberKey:
    group: str
    member_id: str
    TYPE = 7


@dataclass
class TargetAssignmentMemberValue:
    partitions: dict[bytes, list[int]]  # topic id (16 bytes) -> partitions
    VERSION = 0


@dataclass(frozen=True)
class CurrentAssignmentKey:
    group: str
    member_id: str
    TYPE = 8


@dataclass
class CurrentAssignmentValue:
    member_epoch: int
    previous_member_epoch: int
    state: int  # kwire.coordinator.consumer.MemberState
    assigned: dict[bytes, list[int]]
    pending_revocation: dict[bytes, list[int]]
    VERSION = 0


@dataclass(frozen=True)
class ShareGroupMetadataKey:
    group: str
    TYPE = 11


@dataclass
class ShareGroupMetadataValue:
    epoch: int
    metadata_hash: int = 0
    VERSION = 0


@dataclass(frozen=True)
class ShareGroupMemberKey:
    group: str
    member_id: str
    TYPE = 10


@dataclass
class ShareGroupMemberValue:
    rack_id: str | None
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    member_epoch: int
    assigned: dict[bytes, list[int]]
    VERSION = 0


Key = Union[OffsetCommitKey, GroupMetadataKey, ConsumerGroupMetadataKey, ConsumerGroupMemberKey,
            TargetAssignmentMetadataKey, TargetAssignmentMemberKey, CurrentAssignmentKey]


@dataclass
class CoordinatorRecord:
    key: Any
    value: Any | None  # None: tombstone

    def __repr__(self) -> str:
        return f"Record({self.key!r} -> {self.value!r})"


# -- primitive writer / reader ------------------------------------------------------------

_H = struct.Struct(">h")
_I = struct.Struct(">i")
_Q = struct.Struct(">q")
_VALUE_HEAD = struct.Struct(">hqi")  # offset commit value: version, offset, leader epoch
_VALUE_TAIL = struct.Struct(">qq")  # commit timestamp, expire timestamp
# the same value with empty metadata (what every consumer sends): version, offset, leader
# epoch, metadata length 0, commit and expire timestamps in one pack
_VALUE_NO_METADATA = struct.Struct(">hqihqq")


class _Writer:
    __slots__ = ("buf",)

    def __init__(self) -> None:
        self.buf = bytearray()

    def int16(self, v: int) -> "_Writer":
        self.buf += _H.pack(v)
        return self

    def int32(self, v: int) -> "_Writer":
        self.buf += _I.pack(v)
        return self

    def int64(self, v: int) -> "_Writer":
        self.buf += _Q.pack(v)
        return self

    def string(self, s: str | None) -> "_Writer":
        if s is None:
            return self.int16(-1)
        b = s.encode("utf-8")
        self.int16(len(b))
        self.buf += b
        return self

    def bytes_(self, b: bytes | None) -> "_Writer":
        if b is None:
            return self.int32(-1)
        self.int32(len(b))
        self.buf += b
        return self

    def strings(self, items: list[str]) -> "_Writer":
        self.int32(len(items))
        for s in items:
            self.string(s)
        return self

    def topic_partitions(self, tp: dict[bytes, list[int]]) -> "_Writer":
        self.int32(len(tp))
        for topic_id in sorted(tp):
            if len(topic_id) != 16:
                raise ValueError("topic ids are 16 bytes")
            self.buf += topic_id
            parts = sorted(tp[topic_id])
            self.int32(len(parts))
            for p in parts:
                self.int32(p)
        return self


class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def _take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise RecordError(f"record truncated at byte {self.pos} (wanted {n} more)")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return bytes(b)

    def int16(self) -> int:
        return _H.unpack(self._take(2))[0]

    def int32(self) -> int:
        return _I.unpack(self._take(4))[0]

    def int64(self) -> int:
        return _Q.unpack(self._take(8))[0]

    def string(self) -> str | None:
        n = self.int16()
        if n == -1:
            return None
        try:
            return self._take(n).decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"bad UTF-8 in record: {e}") from None

    def bytes_(self) -> bytes | None:
        n = self.int32()
        return None if n == -1 else self._take(n)

    def count(self) -> int:
        n = self.int32()
        if n < 0 or n > len(self.data):
            raise RecordError(f"bad array length {n}")
        return n

    def strings(self) -> list[str]:
        return [self.string() or "" for _ in range(self.count())]

    def topic_partitions(self) -> dict[bytes, list[int]]:
        out = {}
        for _ in range(self.count()):
            topic_id = self._take(16)
            out[topic_id] = [self.int32() for _ in range(self.count())]
        return out

    def end(self) -> None:
        # Trailing bytes are allowed: a newer minor addition we can ignore safely
        # would come with a new version, so for known versions they mean corruption.
        if self.pos != len(self.data):
            raise RecordError(f"{len(self.data) - self.pos} unexpected trailing bytes")


# -- encode -------------------------------------------------------------------------------

def _string(s: str | None) -> bytes:
    if s is None:
        return b"\xff\xff"
    b = s.encode("utf-8")
    return _H.pack(len(b)) + b


# group and topic names repeat in every commit record of a request: encoded once (bounded)
_name = lru_cache(maxsize=4096)(_string)


def _encode_key(key) -> bytes:
    if type(key) is OffsetCommitKey:  # one per committed partition: packed at once, same bytes
        return _H.pack(key.TYPE) + _name(key.group) + _name(key.topic) + _I.pack(key.partition)
    w = _Writer().int16(key.TYPE)
    if isinstance(key, OffsetCommitKey):
        w.string(key.group).string(key.topic).int32(key.partition)
    elif isinstance(key, (GroupMetadataKey, ConsumerGroupMetadataKey, TargetAssignmentMetadataKey,
                          ShareGroupMetadataKey)):
        w.string(key.group)
    elif isinstance(key, (ConsumerGroupMemberKey, TargetAssignmentMemberKey, CurrentAssignmentKey,
                          ShareGroupMemberKey)):
        w.string(key.group).string(key.member_id)
    else:
        raise TypeError(f"not a coordinator record key: {key!r}")
    return bytes(w.buf)


def _encode_value(v) -> bytes:
    if type(v) is OffsetCommitValue:  # one per committed partition: packed at once, same bytes
        if v.metadata == "":
            return _VALUE_NO_METADATA.pack(v.VERSION, v.offset, v.leader_epoch, 0, v.commit_timestamp,
                                           v.expire_timestamp)
        return (_VALUE_HEAD.pack(v.VERSION, v.offset, v.leader_epoch) + _string(v.metadata)
                + _VALUE_TAIL.pack(v.commit_timestamp, v.expire_timestamp))
    w = _Writer().int16(v.VERSION)
    if isinstance(v, OffsetCommitValue):
        w.int64(v.offset).int32(v.leader_epoch).string(v.metadata)
        w.int64(v.commit_timestamp).int64(v.expire_timestamp)
    elif isinstance(v, GroupMetadataValue):
        w.string(v.protocol_type).int32(v.generation).string(v.protocol).string(v.leader)
        w.int64(v.current_state_timestamp).int32(len(v.members))
        for m in v.members:
            w.string(m.member_id).string(m.group_instance_id).string(m.client_id).string(m.client_host)
            w.int32(m.rebalance_timeout_ms).int32(m.session_timeout_ms)
            w.bytes_(m.subscription).bytes_(m.assignment)
    elif isinstance(v, ConsumerGroupMetadataValue):
        w.int32(v.epoch).int64(v.metadata_hash)
    elif isinstance(v, ConsumerGroupMemberValue):
        w.string(v.instance_id).string(v.rack_id).string(v.client_id).string(v.client_host)
        w.strings(v.subscribed_topic_names).string(v.subscribed_topic_regex)
        w.string(v.server_assignor).int32(v.rebalance_timeout_ms)
    elif isinstance(v, TargetAssignmentMetadataValue):
        w.int32(v.assignment_epoch)
    elif isinstance(v, TargetAssignmentMemberValue):
        w.topic_partitions(v.partitions)
    elif isinstance(v, CurrentAssignmentValue):
        w.int32(v.member_epoch).int32(v.previous_member_epoch).int16(v.state)
        w.topic_partitions(v.assigned).topic_partitions(v.pending_revocation)
    elif isinstance(v, ShareGroupMetadataValue):
        w.int32(v.epoch).int64(v.metadata_hash)
    elif isinstance(v, ShareGroupMemberValue):
        w.string(v.rack_id).string(v.client_id).string(v.client_host).strings(v.subscribed_topic_names)
        w.int32(v.member_epoch).topic_partitions(v.assigned)
    else:
        raise TypeError(f"not a coordinator record value: {v!r}")
    return bytes(w.buf)


def encode_record(record: CoordinatorRecord) -> tuple[bytes, bytes | None]:
    """(key bytes, value bytes or None for a tombstone)."""
    value = None if record.value is None else _encode_value(record.value)
    return _encode_key(record.key), value


# -- decode -------------------------------------------------------------------------------

def _decode_key(data: bytes):
    r = _Reader(data)
    t = r.int16()
    if t in (0, 1):
        key = OffsetCommitKey(r.string() or "", r.string() or "", r.int32())
    elif t == GroupMetadataKey.TYPE:
        key = GroupMetadataKey(r.string() or "")
    elif t == ConsumerGroupMetadataKey.TYPE:
        key = ConsumerGroupMetadataKey(r.string() or "")
    elif t == TargetAssignmentMetadataKey.TYPE:
        key = TargetAssignmentMetadataKey(r.string() or "")
    elif t == ShareGroupMetadataKey.TYPE:
        key = ShareGroupMetadataKey(r.string() or "")
    elif t in (ConsumerGroupMemberKey.TYPE, TargetAssignmentMemberKey.TYPE, CurrentAssignmentKey.TYPE,
               ShareGroupMemberKey.TYPE):
        cls = {5: ConsumerGroupMemberKey, 7: TargetAssignmentMemberKey, 8: CurrentAssignmentKey,
               10: ShareGroupMemberKey}[t]
        key = cls(r.string() or "", r.string() or "")
    else:
        raise RecordError(f"unknown record type {t}")
    r.end()
    return key


def _decode_value(key, data: bytes):
    r = _Reader(data)
    version = r.int16()
    if version != 0:
        raise RecordError(f"{type(key).__name__}: unknown value version {version}")
    if isinstance(key, OffsetCommitKey):
        v = OffsetCommitValue(r.int64(), r.int32(), r.string() or "", r.int64(), r.int64())
    elif isinstance(key, GroupMetadataKey):
        protocol_type, generation, protocol, leader = r.string() or "", r.int32(), r.string(), r.string()
        ts = r.int64()
        members = []
        for _ in range(r.count()):
            members.append(MemberMetadata(
                r.string() or "", r.string(), r.string() or "", r.string() or "",
                r.int32(), r.int32(), r.bytes_() or b"", r.bytes_() or b""))
        v = GroupMetadataValue(protocol_type, generation, protocol, leader, ts, members)
    elif isinstance(key, ConsumerGroupMetadataKey):
        v = ConsumerGroupMetadataValue(r.int32(), r.int64())
    elif isinstance(key, ConsumerGroupMemberKey):
        v = ConsumerGroupMemberValue(r.string(), r.string(), r.string() or "", r.string() or "",
                                     r.strings(), r.string(), r.string(), r.int32())
    elif isinstance(key, TargetAssignmentMetadataKey):
        v = TargetAssignmentMetadataValue(r.int32())
    elif isinstance(key, TargetAssignmentMemberKey):
        v = TargetAssignmentMemberValue(r.topic_partitions())
    elif isinstance(key, CurrentAssignmentKey):
        v = CurrentAssignmentValue(r.int32(), r.int32(), r.int16(), r.topic_partitions(),
                                   r.topic_partitions())
    elif isinstance(key, ShareGroupMetadataKey):
        v = ShareGroupMetadataValue(r.int32(), r.int64())
    elif isinstance(key, ShareGroupMemberKey):
        v = ShareGroupMemberValue(r.string(), r.string() or "", r.string() or "", r.strings(), r.int32(),
                                  r.topic_partitions())
    else:  # pragma: no cover - _decode_key only returns the types above
        raise RecordError(f"no value type for {key!r}")
    r.end()
    return v


def decode_record(key: bytes | None, value: bytes | None) -> CoordinatorRecord:
    """Decode one record of __consumer_offsets; raises RecordError."""
    if key is None:
        raise RecordError("record without a key")
    k = _decode_key(key)
    return CoordinatorRecord(k, None if value is None else _decode_value(k, value))
