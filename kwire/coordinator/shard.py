"""One group coordinator shard: the groups and offsets of one ``__consumer_offsets`` partition.

A pure state machine (no asyncio, no I/O, time passed in as ``now`` in ms).
Every operation returns a ``Result``: the response, the records to append to
the shard's partition, and a fallback answer if the append fails. The shard's
durable state changes only in ``replay(record)`` — after an append on the live
path, and for every record of the partition when loading after a restart — so
both paths are one. Soft state (a rebalance in progress, waiting responses,
deadlines) lives only here, as in Kafka.

Writes that must replicate (``stage``/``settle``): the runtime stages an
appended write and settles it once its replication is known (a single node's
append is durable: everything applies when staged). Committed
offsets apply only at a successful ``settle`` (dropped at a failed one), and
so does a write with ``replay_records`` False (through its ``on_commit``: a
classic group's assignment); a transactional write's pending offsets are
taken back at a failed one. Other records are replayed when staged; with
``replicating`` (cluster mode) a failed write puts each KIP-848 / share group it
touched back as it was (``kwire.coordinator.undo``; a classic group only if
the write deleted it), unless a later write touched that group since: that
write's own outcome decides (the transaction coordinator's rule).

Timers are explicit: ``poll_timers(now)`` yields one ``Result`` per expired
deadline; the caller must append and replay its records before asking for the
next. ``next_deadline()`` says when to poll again. ``expire_offsets(now)`` is
the periodic offset/group cleanup.

Group types: ``ClassicGroup`` (JoinGroup protocol, ``classic_ops``),
``ConsumerGroup`` (KIP-848, ``consumer_ops``) and ``ShareGroup`` (KIP-932, ``share_ops``). Group ids are unique across
types within a shard.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from kwire.coordinator import undo
from kwire.coordinator.base import CoordinatorError, Result, Timer
from kwire.coordinator.classic import ClassicGroup
from kwire.coordinator.classic_ops import ClassicOps
from kwire.coordinator.offsets import OffsetManager
from kwire.coordinator.records import (CoordinatorRecord, GroupMetadataKey, OffsetCommitKey,
                                      ShareGroupMemberKey, ShareGroupMetadataKey)
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.describe_groups_response import DescribedGroup, DescribedGroupMember
from kwire.protocol.generated.list_groups_response import ListedGroup


@dataclass
class CoordinatorConfig:
    """The broker configs the coordinator uses (names as Kafka's, dots -> underscores)."""

    group_initial_rebalance_delay_ms: int = 3000
    group_min_session_timeout_ms: int = 6000
    group_max_session_timeout_ms: int = 1800000
    group_max_size: int = 2**31 - 1
    offset_metadata_max_bytes: int = 4096
    offsets_retention_ms: int = 10080 * 60_000
    offsets_retention_check_interval_ms: int = 600000
    group_consumer_session_timeout_ms: int = 45000
    group_consumer_min_session_timeout_ms: int = 45000
    group_consumer_max_session_timeout_ms: int = 60000
    group_consumer_heartbeat_interval_ms: int = 5000
    group_consumer_min_heartbeat_interval_ms: int = 5000
    group_consumer_max_heartbeat_interval_ms: int = 15000
    group_consumer_max_size: int = 2**31 - 1
    group_consumer_assignors: list[str] = field(default_factory=lambda: ["uniform", "range"])
    group_share_session_timeout_ms: int = 45000
    group_share_min_session_timeout_ms: int = 45000
    group_share_max_session_timeout_ms: int = 60000
    group_share_heartbeat_interval_ms: int = 5000
    group_share_min_heartbeat_interval_ms: int = 5000
    group_share_max_heartbeat_interval_ms: int = 15000
    group_share_max_size: int = 200
    # KIP-848 dynamic group configs by group id ({name: value string}); the broker hands in the
    # cluster metadata's live dict, so an IncrementalAlterConfigs on a GROUP applies at once.
    group_configs: dict = field(default_factory=dict)

    def consumer_session_timeout_ms(self, group_id: str) -> int:
        """The group's ``consumer.session.timeout.ms``, else the broker's."""
        return self._group_int(group_id, "consumer.session.timeout.ms", self.group_consumer_session_timeout_ms,
                               self.group_consumer_min_session_timeout_ms,
                               self.group_consumer_max_session_timeout_ms)

    def consumer_heartbeat_interval_ms(self, group_id: str) -> int:
        """The group's ``consumer.heartbeat.interval.ms``, else the broker's."""
        return self._group_int(group_id, "consumer.heartbeat.interval.ms",
                               self.group_consumer_heartbeat_interval_ms,
                               self.group_consumer_min_heartbeat_interval_ms,
                               self.group_consumer_max_heartbeat_interval_ms)

    def share_session_timeout_ms(self, group_id: str) -> int:
        """The share group's ``share.session.timeout.ms``, else the broker's."""
        return self._group_int(group_id, "share.session.timeout.ms", self.group_share_session_timeout_ms,
                               self.group_share_min_session_timeout_ms, self.group_share_max_session_timeout_ms)

    def share_heartbeat_interval_ms(self, group_id: str) -> int:
        """The share group's ``share.heartbeat.interval.ms``, else the broker's."""
        return self._group_int(group_id, "share.heartbeat.interval.ms", self.group_share_heartbeat_interval_ms,
                               self.group_share_min_heartbeat_interval_ms,
                               self.group_share_max_heartbeat_interval_ms)

    def _group_int(self, group_id: str, name: str, default: int, lo: int, hi: int) -> int:
        # Kafka's GroupConfig.evaluate: an override outside the broker's bounds is clamped
        raw = (self.group_configs.get(group_id) or {}).get(name)
        if raw is None:
            return default
        try:
            return min(max(int(raw), lo), hi)
        except ValueError:
            return default

    @classmethod
    def from_broker_config(cls, cfg) -> "CoordinatorConfig":
        def get(name, default):
            try:
                return cfg[name]
            except KeyError:
                return default

        d = cls()
        out = {}
        for f in d.__dataclass_fields__:
            if f == "offsets_retention_ms":
                out[f] = get("offsets.retention.minutes", 10080) * 60_000
            elif f == "group_consumer_assignors":
                value = get("group.consumer.assignors", None)
                names = [a.split(".")[-1].lower().replace("assignor", "") for a in value] if value else None
                known = [n for n in names or () if n in ("uniform", "range")]
                out[f] = known or d.group_consumer_assignors
            else:
                out[f] = get(f.replace("_", "."), getattr(d, f))
        return cls(**out)


class Staged:
    """An appended write waiting for its replication: ``GroupCoordinatorShard.settle``."""

    __slots__ = ("seq", "offsets", "pending", "on_commit", "images")

    def __init__(self, seq: int, on_commit) -> None:
        self.seq = seq
        self.offsets: list = []  # (OffsetCommitKey, value) applied when replicated
        self.pending: list = []  # OffsetManager.stage_pending tokens, taken back if not
        self.on_commit = on_commit
        self.images: list = []  # undo.GroupImage of each group the write changed, put back if not


class GroupCoordinatorShard:
    def __init__(self, config: CoordinatorConfig | None = None, partition: int = 0, topics=None,
                 share_member_removed: Callable[[str, str], Any] | None = None) -> None:
        self.config = config or CoordinatorConfig()
        self.partition = partition
        self.topics = topics  # kwire.coordinator.consumer_ops.TopicsView, for KIP-848 groups
        # (group id, member id): a share-group member was fenced (missed heartbeats); the
        # broker's share partitions close its share session and release its records
        self.share_member_removed = share_member_removed
        self.groups: dict = {}
        self.timer = Timer()
        self.now = 0
        self.classic = ClassicOps(self)
        self.offsets = OffsetManager(self)
        from kwire.coordinator.consumer_ops import ConsumerOps

        self.consumer = ConsumerOps(self)
        from kwire.coordinator.share_ops import ShareOps

        self.share = ShareOps(self)
        self._staged_seq = itertools.count()
        self._touched: dict[str, int] = {}  # group id -> seq of the last unsettled write changing it

    # -- classic protocol ----------------------------------------------------------------
    def join_group(self, ctx, req, now: int) -> Result:
        self.now = now
        return self.classic.join(ctx, req, now)

    def sync_group(self, ctx, req, now: int) -> Result:
        self.now = now
        return self.classic.sync(ctx, req, now)

    def heartbeat(self, ctx, req, now: int) -> E:
        self.now = now
        return self.classic.heartbeat(ctx, req, now)

    def leave_group(self, ctx, group_id: str, identities, now: int) -> Result:
        self.now = now
        return self.classic.leave(ctx, group_id, identities, now)

    # -- KIP-848 -------------------------------------------------------------------------
    def consumer_group_heartbeat(self, ctx, req, now: int) -> Result:
        self.now = now
        return self.consumer.heartbeat(ctx, req, now)

    def consumer_group_describe(self, group_id: str):
        return self.consumer.describe(group_id)

    # -- KIP-932 share groups ----------------------------------------------------------------
    def share_group_heartbeat(self, ctx, req, now: int) -> Result:
        self.now = now
        return self.share.heartbeat(ctx, req, now)

    def share_group_describe(self, group_id: str):
        return self.share.describe(group_id)

    # -- offsets -------------------------------------------------------------------------
    def commit_offsets(self, group_id, generation, member_id, instance_id, retention_ms, commits,
                       api_version: int, now: int) -> Result:
        self.now = now
        return self.offsets.commit(group_id, generation, member_id, instance_id, retention_ms,
                                   commits, api_version, now)

    def fetch_offsets(self, group_id, topics, member_id=None, member_epoch=-1, require_stable=False):
        return self.offsets.fetch(group_id, topics, member_id, member_epoch, require_stable)

    def txn_commit_offsets(self, group_id, producer_id, producer_epoch, generation, member_id,
                           instance_id, commits, now: int) -> Result:
        self.now = now
        return self.offsets.txn_commit(group_id, producer_id, producer_epoch, generation, member_id,
                                       instance_id, commits, now)

    def replay_pending(self, producer_id: int, record: CoordinatorRecord) -> None:
        """A record of a transactional batch (TxnOffsetCommit): pending until the marker."""
        if isinstance(record.key, OffsetCommitKey):
            self.offsets.replay_pending(producer_id, record.key, record.value)

    def complete_txn(self, producer_id: int, commit: bool) -> None:
        self.offsets.complete_txn(producer_id, commit)

    def delete_offsets(self, group_id, topics, now: int) -> Result:
        self.now = now
        return self.offsets.delete(group_id, topics)

    # -- admin ---------------------------------------------------------------------------
    def describe_group(self, group_id: str) -> DescribedGroup | None:
        group = self.groups.get(group_id)
        if group is None:
            return None
        if not isinstance(group, ClassicGroup):
            return DescribedGroup(error_code=E.GROUP_ID_NOT_FOUND, group_id=group_id,
                                  error_message=f"Group {group_id} is not a classic group.",
                                  group_state="Dead", protocol_type="", protocol_data="", members=[])
        stable = group.state == "Stable"
        members = [DescribedGroupMember(
            member_id=m.member_id, group_instance_id=m.group_instance_id, client_id=m.client_id,
            client_host=m.client_host,
            member_metadata=m.metadata(group.protocol_name) if stable else b"",
            member_assignment=m.assignment if stable else b"") for m in group.members.values()]
        return DescribedGroup(error_code=0, group_id=group_id, group_state=group.state,
                              protocol_type=group.protocol_type or "",
                              protocol_data=(group.protocol_name or "") if stable else "",
                              members=members)

    def list_groups(self, states: set[str] | None = None, types: set[str] | None = None) -> list[ListedGroup]:
        out = []
        for group in self.groups.values():
            state = group.state
            if state == "Dead":
                continue
            if states and state.lower() not in states:
                continue
            if types and group.type not in types:
                continue
            protocol_type = group.protocol_type or ""
            out.append(ListedGroup(group_id=group.group_id, protocol_type=protocol_type,
                                   group_state=state, group_type=group.type))
        return out

    def delete_groups(self, group_ids: list[str], now: int) -> Result:
        """Response {group_id: error}; records: offsets and group tombstones."""
        self.now = now
        errors: dict[str, int] = {}
        records: list = []
        for gid in group_ids:
            group = self.groups.get(gid)
            if group is None:
                errors[gid] = E.GROUP_ID_NOT_FOUND
                continue
            try:
                group.validate_delete_group()
            except CoordinatorError as e:
                errors[gid] = e.code
                continue
            errors[gid] = E.NONE
            records += self.offsets.delete_all_records(gid)
            records += self._group_tombstones(group)
        return Result(errors, records,
                      lambda code: {g: code if v == E.NONE else v for g, v in errors.items()})

    def _group_tombstones(self, group) -> list:
        if isinstance(group, ClassicGroup):
            return [CoordinatorRecord(GroupMetadataKey(group.group_id), None)]
        if group.type == "share":
            return self.share.tombstones(group)
        return self.consumer.tombstones(group)

    def expire_offsets(self, now: int) -> Result:
        """Tombstones for expired offsets, and for Empty groups left without offsets."""
        self.now = now
        records = []
        for group in list(self.groups.values()):
            if group.type == "share":
                continue  # share groups have no committed offsets here; Kafka never expires them
            expired, none_left = self.offsets.expired_records(group, now)
            records += expired
            if none_left and group.is_empty() and not getattr(group, "pending_members", None):
                records += self._group_tombstones(group)
        return Result(None, records)

    # -- timers --------------------------------------------------------------------------
    def next_deadline(self) -> int | None:
        return self.timer.next_deadline()

    def poll_timers(self, now: int) -> Iterator[Result]:
        """One Result per expired deadline; apply its records before taking the next."""
        while True:
            self.now = now
            fn = self.timer.pop_expired(now)
            if fn is None:
                return
            yield Result(None, fn(now) or [])

    # -- replication -----------------------------------------------------------------------
    def stage(self, result: Result, producer_id: int | None = None, replicating: bool = False) -> Staged:
        """The records of ``result`` were appended: replay what applies at once, hold the rest
        for ``settle``. ``producer_id``: a transactional batch (pending offsets).
        ``replicating``: the write waits for its replication and may fail (cluster mode);
        else it is durable already, applies here, and ``settle`` only runs ``on_commit``."""
        staged = Staged(next(self._staged_seq), result.on_commit)
        if not result.replay_records:
            return staged
        if not replicating:
            for record in result.records:
                if producer_id is None:
                    self.replay(record)
                else:
                    self.replay_pending(producer_id, record)
            return staged
        if producer_id is None:
            self._take_images(staged, result.records)
        for record in result.records:
            key = record.key
            if producer_id is not None:
                if isinstance(key, OffsetCommitKey):
                    staged.pending.append(self.offsets.stage_pending(producer_id, key, record.value))
            elif isinstance(key, OffsetCommitKey):
                staged.offsets.append((key, record.value))
            else:
                self.replay(record)
        self.offsets.stage([k for k, _ in staged.offsets])
        return staged

    def settle(self, staged: Staged, ok: bool) -> None:
        """The staged write was replicated (``ok``) or failed to: apply or drop what it held."""
        self.offsets.settle(staged.seq, staged.offsets, ok)
        for image in staged.images:
            if self._touched.get(image.group_id) != staged.seq:
                continue  # a later write changed the group since: its outcome decides
            del self._touched[image.group_id]
            if not ok:
                self._put_back(image)
        if not ok:
            for token in reversed(staged.pending):
                self.offsets.unstage_pending(token)
        elif staged.on_commit is not None:
            staged.on_commit()

    def _take_images(self, staged: Staged, records: list) -> None:
        members: dict[str, set] = {}
        for record in records:
            key = record.key
            if isinstance(key, OffsetCommitKey):
                continue
            if isinstance(key, GroupMetadataKey) and (record.value is not None
                                                      or not isinstance(self.groups.get(key.group), ClassicGroup)):
                continue  # a classic group's metadata: not rolled back (Kafka keeps it in memory)
            ids = members.setdefault(key.group, set())
            member_id = getattr(key, "member_id", None)
            if member_id is not None:
                ids.add(member_id)
        for gid, ids in members.items():
            staged.images.append(undo.take(self.groups, gid, ids))
            self._touched[gid] = staged.seq

    def _put_back(self, image) -> None:
        restored = image.put_back(self.groups)
        group = self.groups.get(image.group_id)
        for mid in restored:  # their sessions may have been cancelled by the failed write
            if group.type == "share":
                self.share._schedule_session(image.group_id, mid, self.now)
            else:
                self.consumer._schedule_session(group, mid, self.now)

    # -- replay --------------------------------------------------------------------------
    def replay(self, record: CoordinatorRecord) -> None:
        key = record.key
        if isinstance(key, OffsetCommitKey):
            self.offsets.replay(key, record.value)
        elif isinstance(key, GroupMetadataKey):
            self.classic.replay_group_metadata(key, record.value)
        elif isinstance(key, (ShareGroupMetadataKey, ShareGroupMemberKey)):
            self.share.replay(key, record.value)
        else:
            self.consumer.replay(key, record.value)
