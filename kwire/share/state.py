"""The share coordinator's durable state: share partitions in ``__share_group_state`` (KIP-932).

``ShareStateStore`` keeps, per (group id, topic id, partition), the share
partition's start offset and its in-flight state batches (first offset, last
offset, delivery state 0/2/4, delivery count) in the compacted internal topic
``__share_group_state`` (``share.coordinator.state.topic.num.partitions``
partitions; a key goes to ``abs(hash("group:topicId:partition")) % n``, Java's
String.hashCode over Kafka's base64 topic id, as Kafka's SharePartitionKey).

Records, with Kafka's record types and field order::

    key   = int16 type (0 ShareSnapshot, 1 ShareUpdate)
            | string group_id | uuid topic_id | int32 partition           (not flexible)
    value = int16 version 0 | flexible fields:
      ShareSnapshot: int32 snapshot_epoch | int32 state_epoch | int32 leader_epoch
                     | int64 start_offset | int64 create_timestamp | int64 write_timestamp
                     | state_batches | tagged fields
      ShareUpdate:   int32 snapshot_epoch | int32 leader_epoch | int64 start_offset
                     | state_batches | tagged fields
      state_batches = compact array of (int64 first | int64 last | int8 state
                                        | int16 delivery_count | tagged fields)
    tombstone (value absent): the share partition's state was deleted

A save writes a ShareSnapshot first and after every
``share.coordinator.snapshot.update.records.per.snapshot`` updates, a
ShareUpdate otherwise; replay applies an update over the snapshot (a newer start
offset drops the batches below it; the update's batches replace the states of
their offsets), as Kafka's ShareCoordinatorShard does. Every update here
carries the whole in-flight window, so replay is exact. A partition of the
topic is read once, on the first load of a key that hashes to it (the
partitions are small: compaction keeps the latest snapshot and the updates
after it).

The share coordinator's APIs (``kwire.handlers.*_share_group_state*``) read and
write the same entries: ``initialize`` (a snapshot at a new state epoch),
``write`` (an update), ``delete`` (tombstones), ``entry`` (read / summary);
``summary`` lists a group's share partitions (on one broker, all of them).

In a cluster (``zookeeper.connect`` set) the store is the share coordinator of
the ``__share_group_state`` partitions this broker leads, as Kafka's
ShareCoordinatorService: the topic is created with
``share.coordinator.state.topic.replication.factor`` replicas and
``min.insync.replicas`` = ``share.coordinator.state.topic.min.isr`` once that
many brokers are alive (COORDINATOR_NOT_AVAILABLE before); becoming leader of a
partition or losing it drops what was loaded of it, and the next use replays
its log (as the leader of then). Every operation on a partition this broker does
not lead raises NOT_COORDINATOR. A write returns a ``Commit`` token; ``await
committed(token)`` is NONE once the high watermark covers it (acks=all), else
the error, and the partition is then reloaded from its log on next use (what
was replayed in memory may not be durable). On one broker the append commits.

Leader epochs (Kafka's fencing of a stale share-partition leader): a read with
a higher leader epoch than the stored one records it (a ShareUpdate of the
stored window); a write with a lower one raises FENCED_LEADER_EPOCH (a write
with -1, as the single broker's own share partitions send, is not fenced).
"""

from __future__ import annotations

import base64
import functools
import logging
import struct
from typing import NamedTuple

from kwire.clock import now_ms
from kwire.coordinator.base import partition_for
from kwire.coordinator.internal_topic import InternalTopic
from kwire.coordinator.replay import LogReplay
from kwire.protocol.errors import ErrorCode as E, KafkaError
from kwire.records.builder import build_batch
from kwire.share.partition import ACKNOWLEDGED, ARCHIVED

log = logging.getLogger("kwire.share")

SHARE_STATE_TOPIC = "__share_group_state"
SNAPSHOT, UPDATE = 0, 1

_K = struct.Struct(">h")
_I = struct.Struct(">i")
_Q = struct.Struct(">q")
_BATCH = struct.Struct(">qqbh")


def kafka_uuid(topic_id: bytes) -> str:
    """Kafka's Uuid.toString(): URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(bytes(topic_id)).decode().rstrip("=")


@functools.lru_cache(maxsize=1 << 16)
def _state_partition(group_id: str, topic_id: bytes, partition: int, n: int) -> int:
    """The ``__share_group_state`` partition of a share partition (cached: every write asks)."""
    return partition_for(f"{group_id}:{kafka_uuid(topic_id)}:{partition}", n)


def _uvarint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _read_uvarint(data: bytes, pos: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        b = data[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if not b & 0x80:
            return n, pos
        shift += 7


def encode_key(kind: int, group_id: str, topic_id: bytes, partition: int) -> bytes:
    g = group_id.encode()
    return _K.pack(kind) + _K.pack(len(g)) + g + bytes(topic_id) + _I.pack(partition)


def decode_key(data: bytes) -> tuple[int, str, bytes, int]:
    kind, n = _K.unpack_from(data, 0)[0], _K.unpack_from(data, 2)[0]
    group = data[4:4 + n].decode()
    pos = 4 + n
    return kind, group, bytes(data[pos:pos + 16]), _I.unpack_from(data, pos + 16)[0]


def _encode_batches(batches) -> bytes:
    out = bytearray(_uvarint(len(batches) + 1))
    for first, last, state, count in batches:
        out += _BATCH.pack(first, last, state, count) + b"\x00"
    return bytes(out)


def _decode_batches(data: bytes, pos: int):
    n, pos = _read_uvarint(data, pos)
    out = []
    for _ in range(n - 1):
        out.append(_BATCH.unpack_from(data, pos))
        pos += _BATCH.size
        tags, pos = _read_uvarint(data, pos)
        if tags:
            raise ValueError("tagged fields in a state batch")
    return out, pos


def encode_snapshot(start_offset: int, batches, state_epoch: int = 0, snapshot_epoch: int = 0,
                    leader_epoch: int = -1, now: int = 0) -> bytes:
    return (_K.pack(0) + _I.pack(snapshot_epoch) + _I.pack(state_epoch) + _I.pack(leader_epoch)
            + _Q.pack(start_offset) + _Q.pack(now) + _Q.pack(now) + _encode_batches(batches) + b"\x00")


def encode_update(start_offset: int, batches, snapshot_epoch: int = 0, leader_epoch: int = -1) -> bytes:
    return (_K.pack(0) + _I.pack(snapshot_epoch) + _I.pack(leader_epoch) + _Q.pack(start_offset)
            + _encode_batches(batches) + b"\x00")


def decode_value(kind: int, data: bytes) -> dict:
    if _K.unpack_from(data, 0)[0] != 0:
        raise ValueError("unknown value version")
    if kind == SNAPSHOT:
        snapshot_epoch, state_epoch, leader_epoch = struct.unpack_from(">iii", data, 2)
        start = _Q.unpack_from(data, 14)[0]
        batches, _ = _decode_batches(data, 38)
        return {"snapshot_epoch": snapshot_epoch, "state_epoch": state_epoch, "leader_epoch": leader_epoch,
                "start": start, "batches": batches}
    snapshot_epoch, leader_epoch = struct.unpack_from(">ii", data, 2)
    start = _Q.unpack_from(data, 10)[0]
    batches, _ = _decode_batches(data, 18)
    return {"snapshot_epoch": snapshot_epoch, "leader_epoch": leader_epoch, "start": start, "batches": batches}


def overlay(base, updates, start: int) -> list[tuple[int, int, int, int]]:
    """State batches ``(first, last, state, count)``: ``updates`` laid in order over ``base``
    (an update's offsets take its state and count), cut at ``start``, neighbours of one
    state and count merged. In ranges: the cost is in batches, not offsets."""
    out = sorted(tuple(b) for b in base)
    for first, last, state, count in updates:
        if last < first:
            continue
        kept = []
        for b in out:
            if b[1] < first or b[0] > last:
                kept.append(b)
                continue
            if b[0] < first:
                kept.append((b[0], first - 1, b[2], b[3]))
            if b[1] > last:
                kept.append((last + 1, b[1], b[2], b[3]))
        kept.append((first, last, state, count))
        kept.sort()
        out = kept
    merged: list[tuple[int, int, int, int]] = []
    for first, last, state, count in out:
        if last < start:
            continue
        first = max(first, start)
        if merged and merged[-1][1] == first - 1 and merged[-1][2:] == (state, count):
            merged[-1] = (merged[-1][0], last, state, count)
        else:
            merged.append((first, last, state, count))
    return merged


class Commit(NamedTuple):
    """Where a write went: ``__share_group_state`` partition and the offset after it."""

    partition: int
    end_offset: int


class _Entry:
    __slots__ = ("start", "batches", "state_epoch", "snapshot_epoch", "updates", "leader_epoch")

    def __init__(self, start: int, batches, state_epoch: int = 0, snapshot_epoch: int = 0,
                 leader_epoch: int = -1) -> None:
        self.start = start
        self.batches = {b[0]: b for b in batches}  # first offset -> batch
        self.state_epoch = state_epoch
        self.snapshot_epoch = snapshot_epoch
        self.updates = 0
        self.leader_epoch = leader_epoch

    def copy(self) -> "_Entry":
        e = _Entry(self.start, self.batches.values(), self.state_epoch, self.snapshot_epoch, self.leader_epoch)
        e.updates = self.updates
        return e

    def apply_update(self, start: int, batches) -> None:
        """A newer start offset drops what lies below it; each of ``batches`` (in order)
        replaces the states of its offsets. Works on ranges, never per offset (a 7,000-record
        batch is one range)."""
        if start >= 0 and start > self.start:
            self.start = start
        self.batches = {b[0]: b for b in overlay(self.batches.values(), batches, self.start)}

    def state(self) -> tuple[int, list]:
        return self.start, sorted(self.batches.values())

    def complete_count(self) -> int:
        """Offsets at or above the start offset whose delivery is complete (acknowledged or
        archived): ReadShareGroupStateSummary v1's delivery complete count."""
        return sum(b[1] - max(b[0], self.start) + 1 for b in self.batches.values()
                   if b[2] in (ACKNOWLEDGED, ARCHIVED) and b[1] >= self.start)


class ShareStateStore:
    def __init__(self, broker) -> None:
        self.broker = broker
        self.entries: dict[tuple[str, bytes, int], _Entry] = {}
        self._loaded: set[int] = set()
        self.cluster_mode = bool(getattr(broker, "cluster_mode", False))
        self._topic = InternalTopic(broker, SHARE_STATE_TOPIC, "share.coordinator.state.topic",
                                    "share coordinator state", {"cleanup.policy": "compact"}, min_isr=True)
        if self.cluster_mode:
            broker.add_leadership_listener(self.on_leadership)

    @property
    def num_partitions(self) -> int:
        t = self.broker.metadata.topic(SHARE_STATE_TOPIC)
        if t is not None:
            return len(t.partitions)
        return self.broker.config["share.coordinator.state.topic.num.partitions"]

    def partition_of(self, group_id: str, topic_id: bytes, partition: int) -> int:
        return _state_partition(group_id, bytes(topic_id), partition, self.num_partitions)

    def coordinator_node(self, group_id: str, topic_id: bytes, partition: int) -> int:
        """The broker leading the key's ``__share_group_state`` partition (-1: none known)."""
        pstate = self.broker.metadata.partition(SHARE_STATE_TOPIC, self.partition_of(group_id, topic_id, partition))
        return pstate.leader if pstate is not None and pstate.leader is not None else -1

    # -- ownership (cluster mode) -------------------------------------------------------------
    def on_leadership(self, topic: str, partition: int, is_leader: bool, leader_epoch: int = -1) -> None:
        """Leading a state partition from now on, or no longer: what was loaded of it is dropped
        (replayed again from the log on next use, as its leader)."""
        if topic == SHARE_STATE_TOPIC:
            self._unload(partition)

    def _unload(self, p: int) -> None:
        self._loaded.discard(p)
        for k in [k for k in self.entries if self.partition_of(*k) == p]:
            del self.entries[k]

    def _owned(self, p: int) -> None:
        """Cluster mode: NOT_COORDINATOR unless this broker leads state partition ``p``; then
        the partition is loaded."""
        if self.cluster_mode and not self.broker.is_leader(SHARE_STATE_TOPIC, p):
            raise KafkaError(E.NOT_COORDINATOR, f"This broker does not lead {SHARE_STATE_TOPIC}-{p}.")
        self._load_partition(p)

    def ensure_topic(self) -> None:
        """Create ``__share_group_state`` if it does not exist (cluster mode: once enough brokers
        are alive; COORDINATOR_NOT_AVAILABLE until it is in the metadata)."""
        if not self._topic.ensure():
            raise KafkaError(E.COORDINATOR_NOT_AVAILABLE, f"{SHARE_STATE_TOPIC} is being created.")

    def _load_partition(self, p: int) -> None:
        if p in self._loaded:
            return
        self._loaded.add(p)
        plog = self.broker.get_log(SHARE_STATE_TOPIC, p)
        if plog is None:
            return
        n = LogReplay(plog, SHARE_STATE_TOPIC, p, lambda rec: self._replay(rec.key, rec.value),
                      errors=(ValueError, struct.error, IndexError)).run()
        if n:
            log.info("loaded %s-%d: %d records", SHARE_STATE_TOPIC, p, n)

    def _replay(self, key: bytes, value: bytes | None) -> None:
        kind, group, tid, partition = decode_key(key)
        k = (group, tid, partition)
        if value is None:
            self.entries.pop(k, None)
            return
        v = decode_value(kind, value)
        if kind == SNAPSHOT:
            self.entries[k] = _Entry(v["start"], v["batches"], v["state_epoch"], v["snapshot_epoch"],
                                     v["leader_epoch"])
        elif k in self.entries:
            e = self.entries[k]
            e.apply_update(v["start"], v["batches"])
            e.leader_epoch = max(e.leader_epoch, v["leader_epoch"])
            e.updates += 1

    # -- the SharePartitionManager's interface ----------------------------------------------------
    def load(self, group_id: str, topic_id: bytes, partition: int):
        """(start offset, batches) of the share partition, or None when it has no durable state."""
        e = self.entry(group_id, topic_id, partition)
        return None if e is None else e.state()

    def save(self, group_id: str, topic_id: bytes, partition: int, state, leader_epoch: int = -1) -> Commit:
        """Store the whole in-flight window ``state`` = (start offset, batches) of a share
        partition: a ShareSnapshot, or a ShareUpdate between snapshots."""
        start, batches = state
        self.ensure_topic()
        p = self.partition_of(group_id, topic_id, partition)
        self._owned(p)
        k = (group_id, bytes(topic_id), partition)
        e = self.entries.get(k)
        if e is not None and leader_epoch != -1 and leader_epoch < e.leader_epoch:
            raise KafkaError(E.FENCED_LEADER_EPOCH, f"Leader epoch {leader_epoch} is older than the "
                                                    f"share partition's {e.leader_epoch}.")
        epoch_now = max(leader_epoch, -1 if e is None else e.leader_epoch)
        per_snapshot = self.broker.config["share.coordinator.snapshot.update.records.per.snapshot"]
        now = now_ms()
        value_is_update = not (e is None or e.updates >= per_snapshot)
        if not value_is_update:
            epoch = 0 if e is None else e.snapshot_epoch + 1
            key, value = encode_key(SNAPSHOT, *k), encode_snapshot(start, batches, 0 if e is None else e.state_epoch,
                                                                   epoch, epoch_now, now=now)
        else:
            key, value = encode_key(UPDATE, *k), encode_update(start, batches, e.snapshot_epoch, epoch_now)
        commit = self._append(p, [(key, value)], now)
        if e is not None and value_is_update and start >= e.start and \
                max((b[1] for b in e.batches.values()), default=-1) <= (batches[-1][1] if batches else start - 1):
            # the update is the whole window and covers what the entry held: it *is* the new
            # state, which is what replaying it would give, without decoding and re-merging
            # every offset (the share fetch path saves after every acquisition)
            e.start, e.batches = start, {b[0]: b for b in batches}
            e.leader_epoch = epoch_now
            e.updates += 1
            return commit
        self._replay(key, value)
        return commit

    # -- the share coordinator's APIs (Initialize/Read/Write/Delete/ReadSummary ShareGroupState) ----
    def entry(self, group_id: str, topic_id: bytes, partition: int):
        """The stored state of one share partition (``_Entry``: start, batches, state epoch) or None
        (cluster mode: NOT_COORDINATOR when another broker leads its state partition)."""
        if self.broker.metadata.topic(SHARE_STATE_TOPIC) is None:
            return None
        self._owned(self.partition_of(group_id, topic_id, partition))
        return self.entries.get((group_id, bytes(topic_id), partition))

    def read(self, group_id: str, topic_id: bytes, partition: int, leader_epoch: int = -1):
        """ReadShareGroupState: (entry or None, Commit or None). A leader epoch above the stored
        one is recorded (a ShareUpdate of the stored window), so older leaders' writes are fenced."""
        e = self.entry(group_id, topic_id, partition)
        if e is None or leader_epoch <= e.leader_epoch:
            return e, None
        k = (group_id, bytes(topic_id), partition)
        now = now_ms()
        start, batches = e.state()  # the whole window: compaction keeps only the latest update
        commit = self._append(self.partition_of(*k), [(encode_key(UPDATE, *k),
                                                       encode_update(start, batches, e.snapshot_epoch, leader_epoch))],
                              now)
        e.leader_epoch = leader_epoch
        e.updates += 1
        return e, commit

    def initialize(self, group_id: str, topic_id: bytes, partition: int, state_epoch: int, start: int) -> Commit:
        """A new state epoch starting at ``start`` with nothing in flight (a ShareSnapshot)."""
        self.ensure_topic()
        k = (group_id, bytes(topic_id), partition)
        p = self.partition_of(*k)
        self._owned(p)
        old = self.entries.get(k)
        now = now_ms()
        key = encode_key(SNAPSHOT, *k)
        value = encode_snapshot(start, [], state_epoch, 0 if old is None else old.snapshot_epoch + 1,
                                -1 if old is None else old.leader_epoch, now=now)
        commit = self._append(p, [(key, value)], now)
        self._replay(key, value)
        return commit

    def write(self, group_id: str, topic_id: bytes, partition: int, start: int, batches,
              leader_epoch: int = -1) -> Commit:
        """WriteShareGroupState: a new start offset (-1: unchanged) and the states of some batches,
        merged over the stored state (stored as ``save`` stores a whole window)."""
        k = (group_id, bytes(topic_id), partition)
        merged = self.entries[k].copy()
        merged.apply_update(start, list(batches))
        return self.save(*k, merged.state(), leader_epoch)

    def delete(self, group_id: str, topic_id: bytes, partition: int) -> Commit | None:
        k = (group_id, bytes(topic_id), partition)
        if self.entry(*k) is None:
            return None
        now = now_ms()
        commit = self._append(self.partition_of(*k), [(encode_key(SNAPSHOT, *k), None), (encode_key(UPDATE, *k), None)],
                              now)
        self.entries.pop(k, None)
        return commit

    def summary(self, group_id: str) -> dict[tuple[bytes, int], int]:
        """{(topic id, partition): start offset} of every share partition of the group (cluster
        mode: of the state partitions this broker leads)."""
        if self.broker.metadata.topic(SHARE_STATE_TOPIC) is not None:
            for p in range(self.num_partitions):
                if not self.cluster_mode or self.broker.is_leader(SHARE_STATE_TOPIC, p):
                    self._load_partition(p)
        return {(k[1], k[2]): e.start for k, e in self.entries.items() if k[0] == group_id}

    def _append(self, p: int, records, now: int) -> Commit:
        batch = build_batch(records, now_ms=now)
        try:
            result = self.broker.append(SHARE_STATE_TOPIC, p, bytearray(batch), now)
        except KafkaError as e:
            log.warning("append to %s-%d failed: %s", SHARE_STATE_TOPIC, p, e.code.name)
            if e.code == E.NOT_LEADER_OR_FOLLOWER:
                raise KafkaError(E.NOT_COORDINATOR, e.message) from None
            raise
        return Commit(p, result.last_offset + 1)

    async def committed(self, commit: Commit | None) -> E:
        """NONE once ``commit`` is below the state partition's high watermark (acks=all); else
        the error (NOT_COORDINATOR: leadership lost), and the partition is replayed again on
        next use."""
        if commit is None:
            return E.NONE
        timeout_s = self.broker.config.get("request.timeout.ms", 30000) / 1000
        code = await self.broker.wait_replicated(SHARE_STATE_TOPIC, commit.partition, commit.end_offset, timeout_s)
        if code != E.NONE:
            log.warning("write to %s-%d not committed: %s", SHARE_STATE_TOPIC, commit.partition, code.name)
            self._unload(commit.partition)
            return E.NOT_COORDINATOR if code == E.NOT_LEADER_OR_FOLLOWER else code
        return E.NONE
