"""Committed offsets: OffsetCommit, OffsetFetch, OffsetDelete, expiry, and their replay.

Offsets live per group, topic name and partition, as ``OffsetCommitValue``s
(offset, leader epoch, metadata string, commit and expire timestamps). They
change only by replaying OffsetCommit records (a tombstone deletes one).

Commit validation follows Kafka: a commit with generation/epoch -1 and no
member id is a "simple" commit, accepted for a missing group (which replay then
creates as an Empty classic group without a protocol type) or an Empty one; a
missing group with a real generation answers GROUP_ID_NOT_FOUND from v9 and
ILLEGAL_GENERATION before; otherwise the group checks member and generation
(classic) or member epoch (consumer groups). Metadata longer than
``offset.metadata.max.bytes`` answers OFFSET_METADATA_TOO_LARGE per partition.

Expiry (``offsets.retention.minutes``, checked every
``offsets.retention.check.interval.ms``): an offset with an explicit expire
timestamp (OffsetCommit v2-v4 ``retention_time_ms``) expires then; otherwise a
classic group's offsets expire once the group has been Empty for the retention
period, a simple group's (and a consumer group's) once the retention period
has passed since the commit, and offsets of topics the group is subscribed to
never expire. A group left Empty without offsets is deleted.

Transactional commits (TxnOffsetCommit): the records are appended as a
transactional batch of the producer and replayed into ``pending`` (per
producer id); the transaction's COMMIT marker on the group's partition moves
them to the committed offsets, an ABORT drops them (``complete_txn``, called
live by the transaction coordinator and on load for each marker). While one
is pending, OffsetFetch with ``require_stable`` answers UNSTABLE_OFFSET_COMMIT
for that partition (also when all offsets are asked for, as Kafka's
fetchAllOffsets: every partition with a committed offset is listed, a pending
one UNSTABLE; a partition with only a pending commit is not listed); without
it the last committed offset is returned.

Replication (cluster mode, acks=all): a commit becomes visible only once its
records are replicated, as Kafka's pending offset commits
(``GroupMetadata.onOffsetCommitAppend``/``failPendingOffsetWrite``; the new
coordinator reads OffsetFetch at the last committed offset). ``stage`` marks
the keys of an appended write in flight, ``settle`` applies it once
replicated, or drops it when the write failed (the client was answered
COORDINATOR_NOT_AVAILABLE / NOT_COORDINATOR), so OffsetFetch never shows a
commit that failed. Writes of one key settle in log order: a write applies
only over an older one (``seq``). OffsetDelete, group deletion and expiry see
the keys in flight too. A transactional write is replayed into ``pending`` at
once (it only makes ``require_stable`` answer UNSTABLE_OFFSET_COMMIT) and
``unstage_pending`` takes it back when it fails.

Not handled: a plain commit in flight on a key whose transactional commit a
marker settles meanwhile (the plain one, older in the log, wins once
replicated); a failed write that the log keeps anyway (the HW passed it
while the ISR was below min.insync) shows up after the partition is loaded
again, as in Kafka: the client was told the commit's outcome is unknown.
"""

from __future__ import annotations

from typing import NamedTuple

from kwire.coordinator.base import CoordinatorError, Result
from kwire.coordinator.classic import EMPTY, STABLE, ClassicGroup
from kwire.coordinator.records import CoordinatorRecord, OffsetCommitKey, OffsetCommitValue
from kwire.protocol.errors import ErrorCode as E


_MISSING = object()


class TxnResult(Result):
    """A Result whose records are appended as a transactional batch of ``producer``
    (producer id, epoch) and replayed as pending offsets."""

    __slots__ = ("producer",)


class Commit(NamedTuple):
    topic: str
    partition: int
    offset: int
    leader_epoch: int
    metadata: str | None


class FetchedOffset(NamedTuple):
    partition: int
    offset: int
    leader_epoch: int
    metadata: str
    error: int


class OffsetManager:
    def __init__(self, shard) -> None:
        self.shard = shard
        self.config = shard.config
        # group -> topic -> partition -> value
        self.offsets: dict[str, dict[str, dict[int, OffsetCommitValue]]] = {}
        # producer id -> OffsetCommitKey -> value, until the transaction's marker
        self.pending: dict[int, dict[OffsetCommitKey, OffsetCommitValue]] = {}
        self._pending_keys: dict[OffsetCommitKey, int] = {}  # key -> producers with it pending
        # key -> [staged writes not settled yet, seq of the last one applied]
        self._inflight: dict[OffsetCommitKey, list[int]] = {}

    # -- commit ----------------------------------------------------------------------------
    def commit(self, group_id: str, generation: int, member_id: str, instance_id: str | None,
               retention_ms: int, commits: list[Commit], api_version: int, now: int) -> Result:
        """Response: {(topic, partition): error}. Group-level failures raise CoordinatorError."""
        group = self.shard.groups.get(group_id)
        if group is None:
            if generation >= 0:
                raise CoordinatorError(E.GROUP_ID_NOT_FOUND if api_version >= 9 else E.ILLEGAL_GENERATION)
        else:
            group.validate_offset_commit(member_id, instance_id, generation, api_version)
            if isinstance(group, ClassicGroup) and member_id:
                self.shard.classic.touch(group, member_id)
        expire = now + retention_ms if retention_ms is not None and retention_ms >= 0 else -1
        limit = self.config.offset_metadata_max_bytes
        errors: dict[tuple[str, int], int] = {}
        records = []
        for c in commits:
            if c.metadata is not None and len(c.metadata) > limit:
                errors[(c.topic, c.partition)] = E.OFFSET_METADATA_TOO_LARGE
                continue
            errors[(c.topic, c.partition)] = E.NONE
            records.append(CoordinatorRecord(
                OffsetCommitKey(group_id, c.topic, c.partition),
                OffsetCommitValue(c.offset, c.leader_epoch, c.metadata or "", now, expire)))

        def failed(code: E):
            return {k: (code if v == E.NONE else v) for k, v in errors.items()}

        return Result(errors, records, failed)

    # -- transactional commits --------------------------------------------------------------
    def txn_commit(self, group_id: str, producer_id: int, producer_epoch: int, generation: int,
                   member_id: str, instance_id: str | None, commits: list[Commit], now: int) -> Result:
        """TxnOffsetCommit: like ``commit``, the records pending until the transaction ends."""
        group = self.shard.groups.get(group_id)
        if group is not None and (generation >= 0 or member_id or instance_id is not None):
            group.validate_offset_commit(member_id, instance_id, generation, 9)
        result = self._records(group_id, commits, now)
        txn = TxnResult(result.response, result.records, result.on_error)
        txn.producer = (producer_id, producer_epoch)
        return txn

    def _records(self, group_id: str, commits: list[Commit], now: int) -> Result:
        limit = self.config.offset_metadata_max_bytes
        errors: dict[tuple[str, int], int] = {}
        records = []
        for c in commits:
            if c.metadata is not None and len(c.metadata) > limit:
                errors[(c.topic, c.partition)] = E.OFFSET_METADATA_TOO_LARGE
                continue
            errors[(c.topic, c.partition)] = E.NONE
            records.append(CoordinatorRecord(
                OffsetCommitKey(group_id, c.topic, c.partition),
                OffsetCommitValue(c.offset, c.leader_epoch, c.metadata or "", now, -1)))
        return Result(errors, records,
                      lambda code: {k: (code if v == E.NONE else v) for k, v in errors.items()})

    # -- replication -------------------------------------------------------------------------
    def stage(self, keys: list[OffsetCommitKey]) -> None:
        """An appended write with these keys waits for replication (``settle`` follows)."""
        inflight = self._inflight
        for key in keys:
            entry = inflight.get(key)
            if entry is None:
                inflight[key] = [1, -1]
            else:
                entry[0] += 1

    def settle(self, seq: int, pairs: list[tuple[OffsetCommitKey, OffsetCommitValue | None]], ok: bool) -> None:
        """The write ``seq`` (staged in that order) was replicated (``ok``: apply it, unless a
        later write of the key was applied first) or not (drop it)."""
        inflight = self._inflight
        for key, value in pairs:
            entry = inflight.get(key)
            if entry is None:  # never staged (defensive): apply as replicated
                if ok:
                    self.replay(key, value)
                continue
            if ok and seq >= entry[1]:
                self.replay(key, value)
                entry[1] = seq
            entry[0] -= 1
            if entry[0] <= 0:
                del inflight[key]

    def in_flight(self, group_id: str, topic: str, partition: int) -> bool:
        return bool(self._inflight) and OffsetCommitKey(group_id, topic, partition) in self._inflight

    def stage_pending(self, producer_id: int, key: OffsetCommitKey, value: OffsetCommitValue | None):
        """``replay_pending`` for a write that may fail: returns what ``unstage_pending`` needs."""
        before = self.pending.get(producer_id, {}).get(key, _MISSING)
        self.replay_pending(producer_id, key, value)
        return producer_id, key, before, value

    def unstage_pending(self, staged) -> None:
        """A transactional write was not replicated: its pending offset back to what it was,
        unless a later write (or the transaction's marker) changed it since."""
        producer_id, key, before, after = staged
        mine = self.pending.get(producer_id)
        if mine is None or key not in mine or mine[key] is not after:
            return
        if before is not _MISSING:
            mine[key] = before
            return
        del mine[key]
        if not mine:
            del self.pending[producer_id]
        n = self._pending_keys.get(key, 1) - 1
        if n:
            self._pending_keys[key] = n
        else:
            self._pending_keys.pop(key, None)

    def replay_pending(self, producer_id: int, key: OffsetCommitKey, value: OffsetCommitValue | None) -> None:
        mine = self.pending.setdefault(producer_id, {})
        if key not in mine:
            self._pending_keys[key] = self._pending_keys.get(key, 0) + 1
        mine[key] = value

    def complete_txn(self, producer_id: int, commit: bool) -> None:
        mine = self.pending.pop(producer_id, None)
        if not mine:
            return
        for key, value in mine.items():
            n = self._pending_keys.get(key, 1) - 1
            if n:
                self._pending_keys[key] = n
            else:
                self._pending_keys.pop(key, None)
            if commit:
                self.replay(key, value)

    def has_pending(self, group_id: str, topic: str, partition: int) -> bool:
        return bool(self._pending_keys) and OffsetCommitKey(group_id, topic, partition) in self._pending_keys

    # -- fetch -----------------------------------------------------------------------------
    def fetch(self, group_id: str, topics: list[tuple[str, list[int]]] | None, member_id: str | None,
              member_epoch: int, require_stable: bool = False) -> list[tuple[str, list[FetchedOffset]]]:
        """Offsets of ``topics`` (all committed ones when None), by topic, in request order."""
        group = self.shard.groups.get(group_id)
        missing = group is None
        if group is not None:
            try:
                group.validate_offset_fetch(member_id, member_epoch)
            except CoordinatorError as e:
                if e.code != E.GROUP_ID_NOT_FOUND:
                    raise
                missing = True
        stored = {} if missing else self.offsets.get(group_id, {})
        out = []
        if topics is None:
            # Kafka's fetchAllOffsets: the partitions with a committed offset, each UNSTABLE when a
            # transactional commit is pending on it; a partition with only a pending one is not listed
            for topic, parts in stored.items():
                out.append((topic, [
                    FetchedOffset(p, -1, -1, "", E.UNSTABLE_OFFSET_COMMIT)
                    if require_stable and self.has_pending(group_id, topic, p)
                    else FetchedOffset(p, v.offset, v.leader_epoch, v.metadata, E.NONE)
                    for p, v in sorted(parts.items())]))
            return out
        for topic, partitions in topics:
            parts = stored.get(topic, {})
            row = []
            for p in partitions:
                v = parts.get(p)
                if require_stable and self.has_pending(group_id, topic, p):
                    row.append(FetchedOffset(p, -1, -1, "", E.UNSTABLE_OFFSET_COMMIT))
                    continue
                row.append(FetchedOffset(p, -1, -1, "", E.NONE) if v is None
                           else FetchedOffset(p, v.offset, v.leader_epoch, v.metadata, E.NONE))
            out.append((topic, row))
        return out

    # -- delete ----------------------------------------------------------------------------
    def delete(self, group_id: str, topics: list[tuple[str, list[int]]]) -> Result:
        """OffsetDelete: response {(topic, partition): error}; group errors raise."""
        group = self.shard.groups.get(group_id)
        if group is None:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        group.validate_offset_delete()
        stored = self.offsets.get(group_id, {})
        errors = {}
        records = []
        for topic, partitions in topics:
            subscribed = group.is_subscribed_to_topic(topic)
            for p in partitions:
                if subscribed:
                    errors[(topic, p)] = E.GROUP_SUBSCRIBED_TO_TOPIC
                    continue
                errors[(topic, p)] = E.NONE
                if p in stored.get(topic, {}) or self.in_flight(group_id, topic, p):
                    records.append(CoordinatorRecord(OffsetCommitKey(group_id, topic, p), None))
        return Result(errors, records,
                      lambda code: {k: code if v == E.NONE else v for k, v in errors.items()})

    def delete_all_records(self, group_id: str) -> list:
        keys = {OffsetCommitKey(group_id, t, p) for t, parts in self.offsets.get(group_id, {}).items()
                for p in parts}
        keys.update(k for k in self._inflight if k.group == group_id)
        return [CoordinatorRecord(k, None) for k in sorted(keys, key=lambda k: (k.topic, k.partition))]

    # -- expiry ----------------------------------------------------------------------------
    def expired_records(self, group, now: int) -> tuple[list, bool]:
        """Tombstones for the expired offsets of ``group``; and whether none will be left."""
        stored = self.offsets.get(group.group_id, {})
        base = self._expiration_base(group)
        retention = self.config.offsets_retention_ms
        records = []
        remaining = 0
        for topic, parts in stored.items():
            subscribed = base is None or group.is_subscribed_to_topic(topic)
            for p, v in parts.items():
                if subscribed or self.in_flight(group.group_id, topic, p):
                    remaining += 1
                    continue
                if v.expire_timestamp >= 0:
                    expired = now >= v.expire_timestamp
                else:
                    expired = now - base(v) >= retention
                if expired:
                    records.append(CoordinatorRecord(OffsetCommitKey(group.group_id, topic, p), None))
                else:
                    remaining += 1
        return records, remaining == 0 and not any(k.group == group.group_id for k in self._inflight)

    @staticmethod
    def _expiration_base(group):
        """How an offset's age is measured for this group, or None when nothing may expire."""
        if isinstance(group, ClassicGroup):
            if group.protocol_type is None:
                return lambda v: v.commit_timestamp  # simple group
            if group.is_in(EMPTY):
                return lambda v: group.state_timestamp
            if group.uses_consumer_protocol() and group.subscribed_topics is not None and group.is_in(STABLE):
                return lambda v: v.commit_timestamp
            return None
        return lambda v: v.commit_timestamp  # consumer group: unsubscribed topics only

    # -- replay ----------------------------------------------------------------------------
    def replay(self, key: OffsetCommitKey, value: OffsetCommitValue | None) -> None:
        if value is not None:
            if key.group not in self.shard.groups:
                # Offsets without membership: a "simple" group, Empty, no protocol type.
                self.shard.groups[key.group] = ClassicGroup(key.group, value.commit_timestamp)
            self.offsets.setdefault(key.group, {}).setdefault(key.topic, {})[key.partition] = value
            return
        topics = self.offsets.get(key.group)
        if topics is None:
            return
        parts = topics.get(key.topic)
        if parts is not None:
            parts.pop(key.partition, None)
            if not parts:
                del topics[key.topic]
        if not topics:
            del self.offsets[key.group]
