"""Share groups (KIP-932) in the group coordinator: ShareGroupHeartbeat, ShareGroupDescribe, replay.

A ``ShareGroup`` has a group epoch (bumped when membership, subscriptions or
the subscribed topics' partitions change) and members, each with a member
epoch and an assignment. Unlike KIP-848 consumer groups there is nothing to
revoke: partitions are shared, so a member takes its new target assignment
(``kwire.coordinator.share_assignor``, Kafka's ``simple`` assignor, computed
from the current members and topics) at once on its next heartbeat, at the
group epoch. States as Kafka names them: Empty, Stable (Dead once deleted).

Heartbeat (v1, KIP-932; members choose their ids): epoch 0 joins (needs
``subscribed_topic_names``), >0 heartbeats (another epoch than the member's:
FENCED_MEMBER_EPOCH; an unknown member: UNKNOWN_MEMBER_ID), -1 leaves. A
group id that names a classic or consumer group answers GROUP_ID_NOT_FOUND
("Group g is not a share group."), as Kafka does; the reverse is answered by
the other group types' code. Session timeout (``share.session.timeout.ms`` of
the group, else ``group.share.session.timeout.ms``) fences a member;
``group.share.max.size`` bounds the members (GROUP_MAX_SIZE_REACHED).

Records (``kwire.coordinator.records``): ShareGroupMetadata (epoch, topic
metadata hash) and ShareGroupMemberMetadata (subscription, member epoch,
assignment); state changes only in ``replay``. The share partitions' own
state (which records are acknowledged) is not here: ``kwire.share``; a
member fenced for missing heartbeats is reported to
``share_member_removed`` (given by the broker: its share session closes,
its records are released). A member that leaves keeps its session: the client
closes it itself (final epoch) after the leave, with its last acknowledgements,
as against Kafka.
Assignment: Kafka 4.3's ``simple`` assignor, sticky (``kwire.coordinator.share_assignor``),
one target per group epoch. Not implemented: rack-aware assignment (Kafka's
``simple`` assignor has none either), assignment batching
(``group.share.assignment.interval.ms``), regex subscriptions (share groups
have none in Kafka either).
"""

from __future__ import annotations

import logging
import uuid

from kwire.coordinator import share_assignor
from kwire.coordinator.base import CoordinatorError, Result
from kwire.coordinator.consumer_ops import topic_metadata
from kwire.coordinator.records import (CoordinatorRecord, ShareGroupMemberKey, ShareGroupMemberValue,
                                       ShareGroupMetadataKey, ShareGroupMetadataValue)
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.share_group_describe_response import (
    Assignment as DescribeAssignment, DescribedGroup, Member as DescribedMember,
    TopicPartitions as DescribedTopicPartitions,
)
from kwire.protocol.generated.share_group_heartbeat_response import (
    Assignment, ShareGroupHeartbeatResponse, TopicPartitions,
)

log = logging.getLogger("kwire.coordinator")

LEAVE_GROUP_MEMBER_EPOCH = -1
EMPTY, STABLE, DEAD = "Empty", "Stable", "Dead"


class ShareMember:
    __slots__ = ("member_id", "rack_id", "client_id", "client_host", "subscribed_topic_names",
                 "member_epoch", "assigned")

    def __init__(self, member_id: str) -> None:
        self.member_id = member_id
        self.rack_id: str | None = None
        self.client_id = ""
        self.client_host = ""
        self.subscribed_topic_names: list[str] = []
        self.member_epoch = 0
        self.assigned: dict[bytes, set[int]] = {}


class ShareGroup:
    type = "share"
    protocol_type = "share"

    def __init__(self, group_id: str) -> None:
        self.group_id = group_id
        self.group_epoch = 0
        self.metadata_hash = 0
        self.members: dict[str, ShareMember] = {}
        self.deleted = False
        # the target assignment of the current epoch (derived state, not replayed: after a
        # restart the next heartbeat computes it again from the members' assignments)
        self.target: dict[str, dict[bytes, set[int]]] = {}
        self.target_key: tuple | None = None

    @property
    def state(self) -> str:
        if self.deleted:
            return DEAD
        return STABLE if self.members else EMPTY

    @property
    def assignment_epoch(self) -> int:
        return self.group_epoch

    def is_empty(self) -> bool:
        return not self.members

    def subscribed_topic_names(self) -> set[str]:
        out: set[str] = set()
        for m in self.members.values():
            out.update(m.subscribed_topic_names)
        return out

    def is_subscribed_to_topic(self, topic: str) -> bool:
        return topic in self.subscribed_topic_names()

    def _not_consumer(self, *_a, **_k) -> None:
        raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {self.group_id} is not a consumer group.")

    validate_offset_commit = validate_offset_fetch = validate_offset_delete = _not_consumer

    def validate_delete_group(self) -> None:
        if self.members:
            raise CoordinatorError(E.NON_EMPTY_GROUP)


def _session_key(group_id: str, member_id: str):
    return ("share-session", group_id, member_id)


class ShareOps:
    def __init__(self, shard) -> None:
        self.shard = shard
        self.config = shard.config
        self.timer = shard.timer

    # -- ShareGroupHeartbeat ----------------------------------------------------------------------
    def heartbeat(self, ctx, req, now: int) -> Result:
        self._validate(req)
        gid, epoch = req.group_id, req.member_epoch
        group = self.shard.groups.get(gid)
        if group is not None and not isinstance(group, ShareGroup):
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {gid} is not a share group.")
        if epoch == LEAVE_GROUP_MEMBER_EPOCH:
            if group is None or req.member_id not in group.members:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID,
                                       f"Member {req.member_id} is not a member of group {gid}.")
            self.timer.cancel(_session_key(gid, req.member_id))
            log.info("share group %s: member %s left", gid, req.member_id)
            return Result(ShareGroupHeartbeatResponse(error_code=0, member_id=req.member_id,
                                                      member_epoch=LEAVE_GROUP_MEMBER_EPOCH,
                                                      heartbeat_interval_ms=0),
                          self._remove_records(group, req.member_id))
        if group is None:
            if epoch != 0:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Group {gid} has no member {req.member_id}.")
            group = ShareGroup(gid)
        existing = group.members.get(req.member_id)
        if existing is None:
            if epoch != 0:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID,
                                       f"Member {req.member_id} is not a member of group {gid}.")
            if len(group.members) >= self.config.group_share_max_size:
                raise CoordinatorError(E.GROUP_MAX_SIZE_REACHED,
                                       f"The share group has reached its maximum capacity of "
                                       f"{self.config.group_share_max_size} members.")
            member = ShareMember(req.member_id)
        else:
            if epoch != 0 and epoch != existing.member_epoch:
                raise CoordinatorError(E.FENCED_MEMBER_EPOCH,
                                       f"The share group member has a {'greater' if epoch > existing.member_epoch else 'smaller'} "
                                       f"member epoch ({epoch}) than the one known by the group coordinator "
                                       f"({existing.member_epoch}). The member must abandon all its partitions "
                                       f"and rejoin.")
            member = existing
        new = _copy(member)
        if req.rack_id is not None:
            new.rack_id = req.rack_id
        new.client_id, new.client_host = ctx.client_id, ctx.client_host
        if req.subscribed_topic_names is not None:
            new.subscribed_topic_names = sorted(set(req.subscribed_topic_names))
        view = dict(group.members)
        view[new.member_id] = new
        records = []
        metadata_hash, topic_ids, partitions = self._topic_metadata(view)
        group_epoch = group.group_epoch
        if existing is None or new.subscribed_topic_names != member.subscribed_topic_names \
                or metadata_hash != group.metadata_hash:
            group_epoch += 1
            records.append(CoordinatorRecord(ShareGroupMetadataKey(gid),
                                             ShareGroupMetadataValue(group_epoch, metadata_hash)))
        if new.member_epoch != group_epoch or existing is None:
            new.assigned = self._target(group, group_epoch, view, topic_ids, partitions).get(new.member_id, {})
            new.member_epoch = group_epoch
        changed = existing is None or _key(new) != _key(member)
        if changed:
            records.append(self._member_record(gid, new))
        self._schedule_session(gid, new.member_id, now)
        send = existing is None or epoch == 0 or new.assigned != member.assigned
        return Result(ShareGroupHeartbeatResponse(
            error_code=0, member_id=new.member_id, member_epoch=new.member_epoch,
            heartbeat_interval_ms=self.config.share_heartbeat_interval_ms(gid),
            assignment=Assignment(topic_partitions=[
                TopicPartitions(topic_id=uuid.UUID(bytes=t), partitions=sorted(ps))
                for t, ps in sorted(new.assigned.items())]) if send else None), records)

    @staticmethod
    def _target(group: "ShareGroup", group_epoch: int, view: dict, topic_ids: dict, partitions: dict) -> dict:
        """The group's target assignment at ``group_epoch``: computed once per epoch (and
        membership) from every member's previous target, so that members heartbeating one
        after another take parts of one assignment, as Kafka's target assignment is."""
        subscriptions = {mid: {topic_ids[t] for t in m.subscribed_topic_names if t in topic_ids}
                         for mid, m in view.items()}
        key = (group_epoch, tuple(sorted((mid, tuple(sorted(ts))) for mid, ts in subscriptions.items())),
               tuple(sorted(partitions.items())))
        if group.target_key != key:
            previous = {mid: group.target.get(mid, m.assigned) for mid, m in view.items()}
            group.target = share_assignor.assign(subscriptions, partitions, previous)
            group.target_key = key
        return group.target

    @staticmethod
    def _validate(req) -> None:
        def invalid(msg):
            raise CoordinatorError(E.INVALID_REQUEST, msg)

        if not req.group_id:
            invalid("GroupId can't be empty.")
        if req.rack_id == "":
            invalid("RackId can't be empty.")
        if not req.member_id:
            invalid("MemberId can't be empty.")
        if req.member_epoch == 0:
            if not req.subscribed_topic_names:
                invalid("SubscribedTopicNames must be set in first request.")
        elif req.member_epoch < LEAVE_GROUP_MEMBER_EPOCH:
            invalid(f"MemberEpoch is invalid: {req.member_epoch}.")

    def _topic_metadata(self, members: dict[str, ShareMember]):
        names = set()
        for m in members.values():
            names.update(m.subscribed_topic_names)
        return topic_metadata(self.shard.topics, names)

    def _remove_records(self, group: ShareGroup, member_id: str) -> list:
        remaining = {mid: m for mid, m in group.members.items() if mid != member_id}
        return [CoordinatorRecord(ShareGroupMemberKey(group.group_id, member_id), None),
                CoordinatorRecord(ShareGroupMetadataKey(group.group_id),
                                  ShareGroupMetadataValue(group.group_epoch + 1,
                                                          self._topic_metadata(remaining)[0]))]

    def _fence(self, group_id: str, member_id: str) -> list:
        group = self.shard.groups.get(group_id)
        if not isinstance(group, ShareGroup) or member_id not in group.members:
            return []
        log.info("share group %s: member %s fenced (session timeout)", group_id, member_id)
        fenced = self.shard.share_member_removed
        if fenced is not None:  # the broker closes its share session and releases its records
            fenced(group_id, member_id)
        return self._remove_records(group, member_id)

    def _schedule_session(self, group_id: str, member_id: str, now: int) -> None:
        self.timer.schedule(_session_key(group_id, member_id),
                            now + self.config.share_session_timeout_ms(group_id),
                            lambda t, g=group_id, m=member_id: self._fence(g, m))

    @staticmethod
    def _member_record(gid: str, m: ShareMember) -> CoordinatorRecord:
        return CoordinatorRecord(ShareGroupMemberKey(gid, m.member_id), ShareGroupMemberValue(
            m.rack_id, m.client_id, m.client_host, list(m.subscribed_topic_names), m.member_epoch,
            {t: sorted(p) for t, p in m.assigned.items()}))

    def tombstones(self, group: ShareGroup) -> list:
        records = [CoordinatorRecord(ShareGroupMemberKey(group.group_id, mid), None) for mid in group.members]
        records.append(CoordinatorRecord(ShareGroupMetadataKey(group.group_id), None))
        return records

    # -- ShareGroupDescribe -----------------------------------------------------------------------
    def describe(self, group_id: str) -> DescribedGroup:
        group = self.shard.groups.get(group_id)
        if group is None:
            return DescribedGroup(error_code=E.GROUP_ID_NOT_FOUND, group_id=group_id,
                                  error_message=f"Group {group_id} not found.")
        if not isinstance(group, ShareGroup):
            return DescribedGroup(error_code=E.GROUP_ID_NOT_FOUND, group_id=group_id,
                                  error_message=f"Group {group_id} is not a share group.")
        members = [DescribedMember(
            member_id=m.member_id, rack_id=m.rack_id, member_epoch=m.member_epoch, client_id=m.client_id,
            client_host=m.client_host, subscribed_topic_names=list(m.subscribed_topic_names),
            assignment=DescribeAssignment(topic_partitions=[
                DescribedTopicPartitions(topic_id=uuid.UUID(bytes=t),
                                         topic_name=(self.shard.topics.name_of(t) or "") if self.shard.topics else "",
                                         partitions=sorted(ps))
                for t, ps in sorted(m.assigned.items())]))
            for m in group.members.values()]
        return DescribedGroup(error_code=0, group_id=group_id, group_state=group.state,
                              group_epoch=group.group_epoch, assignment_epoch=group.group_epoch,
                              assignor_name=share_assignor.NAME, members=members)

    # -- replay -----------------------------------------------------------------------------------
    def replay(self, key, value) -> None:
        groups = self.shard.groups
        gid = key.group
        group = groups.get(gid)
        if not isinstance(group, ShareGroup):
            if value is None:
                return
            group = groups[gid] = ShareGroup(gid)
        if isinstance(key, ShareGroupMetadataKey):
            if value is None:
                group.deleted = True
                del groups[gid]
                return
            group.group_epoch, group.metadata_hash = value.epoch, value.metadata_hash
        elif isinstance(key, ShareGroupMemberKey):
            if value is None:
                group.members.pop(key.member_id, None)
                self.timer.cancel(_session_key(gid, key.member_id))
                return
            m = group.members.get(key.member_id)
            if m is None:
                m = group.members[key.member_id] = ShareMember(key.member_id)
                self._schedule_session(gid, key.member_id, self.shard.now)
            m.rack_id, m.client_id, m.client_host = value.rack_id, value.client_id, value.client_host
            m.subscribed_topic_names = list(value.subscribed_topic_names)
            m.member_epoch = value.member_epoch
            m.assigned = {t: set(p) for t, p in value.assigned.items()}


def _copy(m: ShareMember) -> ShareMember:
    c = ShareMember(m.member_id)
    for name in ShareMember.__slots__:
        setattr(c, name, getattr(m, name))
    c.assigned = {t: set(p) for t, p in m.assigned.items()}
    c.subscribed_topic_names = list(m.subscribed_topic_names)
    return c


def _key(m: ShareMember) -> tuple:
    return (m.rack_id, m.client_id, m.client_host, tuple(m.subscribed_topic_names), m.member_epoch,
            sorted((t, sorted(p)) for t, p in m.assigned.items()))
