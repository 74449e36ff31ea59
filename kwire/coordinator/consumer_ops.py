"""KIP-848 operations: ConsumerGroupHeartbeat, ConsumerGroupDescribe, timers, replay.

A heartbeat (``member_epoch`` 0 joins, >0 heartbeats, -1 leaves, -2 is a static
member's temporary leave) goes through these steps, each emitting records
and none changing state directly — the records' replay does:

1. validate the request (INVALID_REQUEST for missing first-join fields,
   UNSUPPORTED_ASSIGNOR, INVALID_REGULAR_EXPRESSION) and the member
   (UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH — a member one epoch behind whose
   owned partitions are a subset of its assignment is accepted, as the
   response that bumped it may have been lost —, FENCED_INSTANCE_ID,
   UNRELEASED_INSTANCE_ID, GROUP_MAX_SIZE_REACHED);
2. update the member's subscription (ConsumerGroupMemberMetadata record);
3. bump the group epoch if membership, subscribed topics, or their partition
   counts changed (ConsumerGroupMetadata, with a hash of the topic metadata);
4. if the group epoch is ahead of the assignment epoch, run the assignor
   (the members' preferred ``server_assignor``, else the first of
   ``group.consumer.assignors``) and write the changed target assignments;
5. move the member's current assignment toward its target: keep what stays,
   revoke what goes (and wait for the member to report it no longer owns it),
   add what is free now, and what others still own once they release it
   (ConsumerGroupCurrentMemberAssignment).

Timers: a session deadline per member (the group's ``consumer.session.timeout.ms``
if set by IncrementalAlterConfigs, else ``group.consumer.session.timeout.ms``; the
heartbeat interval answered likewise)
and a rebalance deadline while a member must revoke partitions (its
``rebalance_timeout_ms``); either fences the member (its records are
tombstoned and the group epoch goes up). A static member's temporary leave
(-2) keeps its assignment for its instance id until the session ends; a new
member with that instance id takes it over without a rebalance.

Not implemented: classic members in consumer groups and online migration
between protocols (KIP-848's upgrade path): a JoinGroup to a consumer group
with members answers INCONSISTENT_GROUP_PROTOCOL, and a heartbeat to a classic
group with members GROUP_ID_NOT_FOUND. Empty groups are converted either way
(the old group's records get tombstones; committed offsets stay). Rack-aware
assignment. Regular expressions are Python's ``re`` (Kafka uses RE2/J), matched
against the whole topic name.
"""

from __future__ import annotations

import hashlib
import logging
import uuid

from kwire.coordinator.assignors import ASSIGNORS
from kwire.coordinator.base import CoordinatorError, Result
from kwire.coordinator.classic import ClassicGroup
from kwire.coordinator.consumer import (
    STABLE, UNRELEASED_PARTITIONS, UNREVOKED_PARTITIONS, ConsumerGroup, ConsumerMember, compile_regex,
)
from kwire.coordinator.records import (
    ConsumerGroupMemberKey, ConsumerGroupMemberValue, ConsumerGroupMetadataKey,
    ConsumerGroupMetadataValue, CoordinatorRecord, CurrentAssignmentKey, CurrentAssignmentValue,
    GroupMetadataKey, TargetAssignmentMemberKey, TargetAssignmentMemberValue,
    TargetAssignmentMetadataKey, TargetAssignmentMetadataValue,
)
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.consumer_group_describe_response import (
    Assignment as DescribeAssignment,
    DescribedGroup,
    Member as DescribedMember,
    TopicPartitions as DescribedTopicPartitions,
)
from kwire.protocol.generated.consumer_group_heartbeat_response import (
    Assignment,
    ConsumerGroupHeartbeatResponse,
    TopicPartitions,
)

log = logging.getLogger("kwire.coordinator")

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2
CONSUMER_MEMBER_TYPE = 1


def _uuid(topic_id: bytes) -> uuid.UUID:
    return uuid.UUID(bytes=bytes(topic_id))


def _tp_dict(topic_partitions) -> dict[bytes, set[int]]:
    return {tp.topic_id.bytes: set(tp.partitions) for tp in topic_partitions}


def assignor_for(members, default: str) -> str:
    """The assignor most members prefer (Kafka's rule), else the default."""
    names = [m.server_assignor for m in members.values() if m.server_assignor]
    return max(sorted(set(names)), key=names.count) if names else default


def _session_key(group_id: str, member_id: str):
    return ("consumer-session", group_id, member_id)


def _rebalance_key(group_id: str, member_id: str):
    return ("consumer-rebalance", group_id, member_id)


def topic_metadata(topics, names):
    """(hash, {name: topic id}, {topic id: partitions}) of the existing topics among ``names``
    (``topics``: the shard's TopicsView); the hash changes when a topic is created, deleted or
    gains partitions, which bumps a KIP-848 or share group's epoch."""
    ids, parts = {}, {}
    rows = []
    for name in sorted(names):
        found = topics.by_name(name) if topics is not None else None
        if found is None:
            continue
        tid, n = found
        ids[name], parts[tid] = tid, n
        rows.append(f"{name}:{tid.hex()}:{n}")
    digest = hashlib.blake2b("|".join(rows).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True), ids, parts


class ConsumerOps:
    def __init__(self, shard) -> None:
        self.shard = shard
        self.config = shard.config
        self.timer = shard.timer

    # -- ConsumerGroupHeartbeat --------------------------------------------------------------
    def heartbeat(self, ctx, req, now: int) -> Result:
        epoch = req.member_epoch
        self._validate_request(ctx, req)
        gid = req.group_id
        records: list = []
        group = self.shard.groups.get(gid)
        if group is not None and not isinstance(group, ConsumerGroup):
            if isinstance(group, ClassicGroup) and group.is_empty() and not group.pending_members \
                    and epoch == 0:
                records.append(CoordinatorRecord(GroupMetadataKey(gid), None))  # convert: Empty classic group
                group = None
            else:
                raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {gid} is not a consumer group.")
        if epoch in (LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH):
            return self._leave(group, req)
        if group is None:
            if epoch != 0:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Group {gid} has no member {req.member_id}.")
            group = ConsumerGroup(gid, self.shard.topics)  # comes to life when its records replay
        member_id = req.member_id or str(uuid.uuid4())
        member, new_member, replaced, extra = self._get_member(group, member_id, req)
        records += extra
        before = member
        member = member.copy()
        if req.instance_id is not None:
            member.instance_id = req.instance_id
        if req.rack_id is not None:
            member.rack_id = req.rack_id
        member.client_id, member.client_host = ctx.client_id, ctx.client_host
        if req.rebalance_timeout_ms != -1:
            member.rebalance_timeout_ms = req.rebalance_timeout_ms
        if req.subscribed_topic_names is not None:
            member.subscribed_topic_names = sorted(set(req.subscribed_topic_names))
        if ctx.api_version >= 1 and req.subscribed_topic_regex is not None:
            member.subscribed_topic_regex = req.subscribed_topic_regex or None
        self._set_regex_filter(group, member_id, ctx.topic_filter)
        if req.server_assignor is not None:
            member.server_assignor = req.server_assignor
        bump = new_member
        if new_member or member.subscription_key() != before.subscription_key():
            records.append(self._member_record(gid, member))
            if group.member_topics(member) != group.member_topics(before):
                bump = True
        view = dict(group.members)
        target = dict(group.target)
        if replaced is not None:  # the new static member stands in for the old one
            del view[replaced]
            if replaced in target:
                target[member_id] = target.pop(replaced)
        view[member_id] = member
        metadata_hash, topic_ids, partitions = self._topic_metadata(group, view)
        group_epoch = group.group_epoch
        if bump or metadata_hash != group.metadata_hash:
            group_epoch += 1
            records.append(CoordinatorRecord(ConsumerGroupMetadataKey(gid),
                                             ConsumerGroupMetadataValue(group_epoch, metadata_hash)))
        assignment_epoch = group.assignment_epoch
        if group_epoch > assignment_epoch:
            target, extra = self._assign(group, view, target, topic_ids, partitions, group_epoch)
            records += extra
            assignment_epoch = group_epoch
        owned = None if req.topic_partitions is None else _tp_dict(req.topic_partitions)
        nxt = self._reconcile(group, member, assignment_epoch, target.get(member_id, {}), owned)
        if (nxt.member_epoch, nxt.previous_member_epoch, nxt.state, nxt.assigned, nxt.pending_revocation) != \
                (before.member_epoch, before.previous_member_epoch, before.state, before.assigned,
                 before.pending_revocation) or new_member:
            records.append(self._current_record(gid, nxt))
        self._schedule_session(group, member_id, now)
        if nxt.state == UNREVOKED_PARTITIONS:
            key = _rebalance_key(gid, member_id)
            if key not in self.timer:
                self.timer.schedule(key, now + nxt.rebalance_timeout_ms,
                                    lambda t, g=gid, m=member_id: self._fence(g, m, "rebalance timeout"))
        else:
            self.timer.cancel(_rebalance_key(gid, member_id))
        send = (new_member or epoch == 0 or nxt.assigned != before.assigned
                or (owned is not None and owned != nxt.assigned))
        response = ConsumerGroupHeartbeatResponse(
            error_code=0, error_message=None, member_id=member_id, member_epoch=nxt.member_epoch,
            heartbeat_interval_ms=self.config.consumer_heartbeat_interval_ms(gid),
            assignment=Assignment(topic_partitions=[
                TopicPartitions(topic_id=_uuid(t), partitions=sorted(ps))
                for t, ps in sorted(nxt.assigned.items())
            ]) if send else None)
        return Result(response, records)

    def _set_regex_filter(self, group: ConsumerGroup, member_id: str, topic_filter) -> None:
        """Remember the member's DESCRIBE check for its regex matches (``TopicsView.regex_filters``);
        entries of members that are gone are dropped here."""
        filters = getattr(self.shard.topics, "regex_filters", None)
        if filters is None:
            return
        mine = {m: f for m, f in filters.get(group.group_id, {}).items() if m in group.members}
        if topic_filter is not None:
            mine[member_id] = topic_filter
        else:
            mine.pop(member_id, None)
        if mine:
            filters[group.group_id] = mine
        else:
            filters.pop(group.group_id, None)

    def _validate_request(self, ctx, req) -> None:
        def invalid(msg):
            raise CoordinatorError(E.INVALID_REQUEST, msg)

        if not req.group_id:
            invalid("GroupId can't be empty.")
        if req.instance_id == "":
            invalid("InstanceId can't be empty.")
        if req.rack_id == "":
            invalid("RackId can't be empty.")
        epoch = req.member_epoch
        if epoch == 0:
            if req.rebalance_timeout_ms == -1:
                invalid("RebalanceTimeoutMs must be provided in first request.")
            if req.topic_partitions is None or req.topic_partitions:
                invalid("TopicPartitions must be empty when (re-)joining.")
            regex = req.subscribed_topic_regex if ctx.api_version >= 1 else None
            if req.subscribed_topic_names is None and regex is None:
                invalid("SubscribedTopicNames or SubscribedTopicRegex must be set in first request.")
        elif epoch > 0 or epoch in (LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH):
            if not req.member_id:
                invalid("MemberId can't be empty.")
            if epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH and req.instance_id is None:
                invalid("InstanceId can't be null.")
        else:
            invalid(f"MemberEpoch {epoch} is invalid.")
        if ctx.api_version >= 1 and req.subscribed_topic_regex:
            compile_regex(req.subscribed_topic_regex)
        supported = self.config.group_consumer_assignors
        if req.server_assignor is not None and req.server_assignor not in supported:
            raise CoordinatorError(E.UNSUPPORTED_ASSIGNOR,
                                   f"ServerAssignor {req.server_assignor} is not supported. Supported "
                                   f"assignors: {', '.join(self.config.group_consumer_assignors)}.")

    def _get_member(self, group: ConsumerGroup, member_id: str, req):
        """(member as it is now, is it new, id of a static member it replaces, records for that)."""
        epoch, instance_id = req.member_epoch, req.instance_id
        records: list = []
        if instance_id is not None:
            old_id = group.static_members.get(instance_id)
            if epoch != 0:
                if old_id is None:
                    raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Instance id {instance_id} is unknown.")
                if old_id != member_id:
                    raise CoordinatorError(E.FENCED_INSTANCE_ID,
                                           f"Static member {member_id} with instance id {instance_id} "
                                           f"was fenced by member {old_id}.")
            elif old_id is not None and old_id != member_id:
                old = group.members[old_id]
                if old.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH:
                    raise CoordinatorError(E.UNRELEASED_INSTANCE_ID,
                                           f"Static member {member_id} with instance id {instance_id} cannot "
                                           f"join the group because the instance id is owned by member "
                                           f"{old_id}.")
                # Take over the old member: same subscription, target and partitions.
                new = old.copy()
                new.member_id = member_id
                new.member_epoch = new.previous_member_epoch = 0
                records += self._member_tombstones(group.group_id, old_id)
                records.append(self._member_record(group.group_id, new))
                if old_id in group.target:
                    records.append(CoordinatorRecord(TargetAssignmentMemberKey(group.group_id, member_id),
                                                     TargetAssignmentMemberValue(group.target[old_id])))
                records.append(self._current_record(group.group_id, new))
                self.timer.cancel(_session_key(group.group_id, old_id))
                self.timer.cancel(_rebalance_key(group.group_id, old_id))
                log.info("group %s: static member %s rejoined as %s (was %s)", group.group_id, instance_id,
                         member_id, old_id)
                return new, False, old_id, records
        existing = group.members.get(member_id)
        if existing is None:
            if epoch != 0:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID,
                                       f"Member {member_id} is not a member of group {group.group_id}.")
            if len(group.members) >= self.config.group_consumer_max_size:
                raise CoordinatorError(E.GROUP_MAX_SIZE_REACHED,
                                       f"The consumer group has reached its maximum capacity of "
                                       f"{self.config.group_consumer_max_size} members.")
            log.info("group %s: member %s joins", group.group_id, member_id)
            return ConsumerMember(member_id), True, None, records
        if epoch == 0:
            # The member lost its state (fenced, or restarted with the same id): start over.
            fresh = existing.copy()
            fresh.member_epoch = fresh.previous_member_epoch = 0
            fresh.state = STABLE
            fresh.assigned, fresh.pending_revocation = {}, {}
            return fresh, False, None, records
        self._check_epoch(existing, epoch, req.topic_partitions)
        return existing, False, None, records

    @staticmethod
    def _check_epoch(member: ConsumerMember, epoch: int, owned) -> None:
        if epoch > member.member_epoch:
            raise CoordinatorError(E.FENCED_MEMBER_EPOCH,
                                   f"The consumer group member has a greater member epoch ({epoch}) than the "
                                   f"one known by the group coordinator ({member.member_epoch}). The member "
                                   f"must abandon all its partitions and rejoin.")
        if epoch < member.member_epoch:
            ok = epoch == member.previous_member_epoch and owned is not None and all(
                set(tp.partitions) <= member.assigned.get(tp.topic_id.bytes, set()) for tp in owned)
            if not ok:
                raise CoordinatorError(E.FENCED_MEMBER_EPOCH,
                                       f"The consumer group member has a smaller member epoch ({epoch}) than "
                                       f"the one known by the group coordinator ({member.member_epoch}). The "
                                       f"member must abandon all its partitions and rejoin.")

    def _topic_metadata(self, group: ConsumerGroup, members: dict[str, ConsumerMember]):
        """(hash, {name: topic id}, {topic id: partitions}) of the topics the members subscribe to."""
        names = set()
        for m in members.values():
            names |= group.member_topics(m)
        return topic_metadata(self.shard.topics, names)

    def _assign(self, group: ConsumerGroup, members: dict[str, ConsumerMember], current, topic_ids,
                partitions, epoch: int):
        name = assignor_for(members, self.config.group_consumer_assignors[0])
        subscriptions = {mid: {topic_ids[t] for t in group.member_topics(m) if t in topic_ids}
                         for mid, m in members.items()}
        target = ASSIGNORS[name](subscriptions, partitions, current)
        records = []
        for mid in sorted(members):
            new = {t: ps for t, ps in target.get(mid, {}).items() if ps}
            if new != group.target.get(mid) or mid not in group.target:
                value = TargetAssignmentMemberValue({t: sorted(p) for t, p in new.items()})
                records.append(CoordinatorRecord(TargetAssignmentMemberKey(group.group_id, mid), value))
        records.append(CoordinatorRecord(TargetAssignmentMetadataKey(group.group_id),
                                         TargetAssignmentMetadataValue(epoch)))
        log.info("group %s: target assignment at epoch %d with %s (%d members)", group.group_id, epoch,
                 name, len(members))
        return target, records

    def _reconcile(self, group: ConsumerGroup, m: ConsumerMember, target_epoch: int, target, owned):
        if m.state == STABLE and m.member_epoch == target_epoch:
            return m
        if m.state == UNREVOKED_PARTITIONS:
            still_owned = owned is None or any(
                owned.get(t, set()) & ps for t, ps in m.pending_revocation.items())
            if still_owned:
                return m
        nxt = m.copy()
        assigned, revoke, waiting = {}, {}, False
        for tid in set(m.assigned) | set(target):
            cur, tgt = m.assigned.get(tid, set()), set(target.get(tid, set()))
            keep = cur & tgt
            for p in tgt - cur:
                if group.owner_epoch(tid, p) == -1 or p in m.pending_revocation.get(tid, ()):
                    keep.add(p)
                else:
                    waiting = True  # still owned by another member
            if keep:
                assigned[tid] = keep
            if cur - tgt:
                revoke[tid] = cur - tgt
        if revoke:
            nxt.state = UNREVOKED_PARTITIONS
            kept = {t: ps - revoke.get(t, set()) for t, ps in m.assigned.items()}
            nxt.assigned = {t: ps for t, ps in kept.items() if ps}
            nxt.pending_revocation = revoke
            return nxt
        if m.member_epoch != target_epoch:
            nxt.previous_member_epoch, nxt.member_epoch = m.member_epoch, target_epoch
        nxt.state = UNRELEASED_PARTITIONS if waiting else STABLE
        nxt.assigned, nxt.pending_revocation = assigned, {}
        return nxt

    # -- leaving and fencing -------------------------------------------------------------------
    def _leave(self, group: ConsumerGroup | None, req) -> Result:
        member_id = req.member_id
        if req.instance_id is not None and group is not None:
            old_id = group.static_members.get(req.instance_id)
            if old_id is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Instance id {req.instance_id} is unknown.")
            if old_id != member_id:
                raise CoordinatorError(E.FENCED_INSTANCE_ID,
                                       f"Static member {member_id} with instance id {req.instance_id} "
                                       f"was fenced by member {old_id}.")
        member = group.members.get(member_id) if group is not None else None
        if member is None:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of the group.")
        gid = group.group_id
        if req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            # Temporary leave: keep the partitions for this instance id until the session ends.
            away = member.copy()
            away.member_epoch = LEAVE_GROUP_STATIC_MEMBER_EPOCH
            records = [self._current_record(gid, away)]
            log.info("group %s: static member %s left temporarily", gid, member_id)
        else:
            records = self._remove_records(group, member_id)
            self.timer.cancel(_session_key(gid, member_id))
            log.info("group %s: member %s left", gid, member_id)
        self.timer.cancel(_rebalance_key(gid, member_id))
        return Result(ConsumerGroupHeartbeatResponse(error_code=0, member_id=member_id,
                                                     member_epoch=req.member_epoch, heartbeat_interval_ms=0),
                      records)

    def _remove_records(self, group: ConsumerGroup, member_id: str) -> list:
        records = self._member_tombstones(group.group_id, member_id)
        remaining = {mid: m for mid, m in group.members.items() if mid != member_id}
        metadata_hash = self._topic_metadata(group, remaining)[0]
        records.append(CoordinatorRecord(ConsumerGroupMetadataKey(group.group_id),
                                         ConsumerGroupMetadataValue(group.group_epoch + 1, metadata_hash)))
        filters = getattr(self.shard.topics, "regex_filters", None)
        if filters and group.group_id in filters:  # the member's DESCRIBE check goes with it
            filters[group.group_id].pop(member_id, None)
            if not filters[group.group_id]:
                del filters[group.group_id]
        return records

    def _fence(self, group_id: str, member_id: str, why: str) -> list:
        group = self.shard.groups.get(group_id)
        if not isinstance(group, ConsumerGroup) or member_id not in group.members:
            return []
        log.info("group %s: member %s fenced (%s)", group_id, member_id, why)
        self.timer.cancel(_session_key(group_id, member_id))
        self.timer.cancel(_rebalance_key(group_id, member_id))
        return self._remove_records(group, member_id)

    def _schedule_session(self, group: ConsumerGroup, member_id: str, now: int) -> None:
        self.timer.schedule(_session_key(group.group_id, member_id),
                            now + self.config.consumer_session_timeout_ms(group.group_id),
                            lambda t, g=group.group_id, m=member_id: self._fence(g, m, "session timeout"))

    # -- records -------------------------------------------------------------------------------
    @staticmethod
    def _member_record(gid: str, m: ConsumerMember) -> CoordinatorRecord:
        return CoordinatorRecord(ConsumerGroupMemberKey(gid, m.member_id), ConsumerGroupMemberValue(
            m.instance_id, m.rack_id, m.client_id, m.client_host, list(m.subscribed_topic_names),
            m.subscribed_topic_regex, m.server_assignor, m.rebalance_timeout_ms))

    @staticmethod
    def _current_record(gid: str, m: ConsumerMember) -> CoordinatorRecord:
        return CoordinatorRecord(CurrentAssignmentKey(gid, m.member_id), CurrentAssignmentValue(
            m.member_epoch, m.previous_member_epoch, m.state,
            {t: sorted(p) for t, p in m.assigned.items()},
            {t: sorted(p) for t, p in m.pending_revocation.items()}))

    @staticmethod
    def _member_tombstones(gid: str, member_id: str) -> list:
        return [CoordinatorRecord(CurrentAssignmentKey(gid, member_id), None),
                CoordinatorRecord(TargetAssignmentMemberKey(gid, member_id), None),
                CoordinatorRecord(ConsumerGroupMemberKey(gid, member_id), None)]

    def tombstones(self, group: ConsumerGroup) -> list:
        records = []
        for mid in group.members:
            records += self._member_tombstones(group.group_id, mid)
        records.append(CoordinatorRecord(TargetAssignmentMetadataKey(group.group_id), None))
        records.append(CoordinatorRecord(ConsumerGroupMetadataKey(group.group_id), None))
        return records

    # -- ConsumerGroupDescribe -------------------------------------------------------------------
    def describe(self, group_id: str) -> DescribedGroup:
        group = self.shard.groups.get(group_id)
        if group is None:
            return DescribedGroup(error_code=E.GROUP_ID_NOT_FOUND, group_id=group_id,
                                  error_message=f"Group {group_id} not found.", members=[])
        if not isinstance(group, ConsumerGroup):
            return DescribedGroup(error_code=E.GROUP_ID_NOT_FOUND, group_id=group_id,
                                  error_message=f"Group {group_id} is not a consumer group.", members=[])
        members = [DescribedMember(
            member_id=m.member_id, instance_id=m.instance_id, rack_id=m.rack_id, member_epoch=m.member_epoch,
            client_id=m.client_id, client_host=m.client_host,
            subscribed_topic_names=list(m.subscribed_topic_names),
            subscribed_topic_regex=m.subscribed_topic_regex,
            assignment=self._describe_assignment(m.assigned),
            target_assignment=self._describe_assignment(group.target.get(m.member_id, {})),
            member_type=CONSUMER_MEMBER_TYPE) for m in group.members.values()]
        assignor = assignor_for(group.members, self.config.group_consumer_assignors[0])
        return DescribedGroup(error_code=0, group_id=group_id, group_state=group.state,
                              group_epoch=group.group_epoch, assignment_epoch=group.assignment_epoch,
                              assignor_name=assignor,
                              members=members)

    def _describe_assignment(self, tps) -> DescribeAssignment:
        out = []
        for tid, parts in sorted(tps.items()):
            name = self.shard.topics.name_of(tid) if self.shard.topics is not None else None
            out.append(DescribedTopicPartitions(topic_id=_uuid(tid), topic_name=name or "",
                                                partitions=sorted(parts)))
        return DescribeAssignment(topic_partitions=out)

    # -- replay ----------------------------------------------------------------------------------
    def replay(self, key, value) -> None:
        groups = self.shard.groups
        gid = key.group
        group = groups.get(gid)
        if not isinstance(group, ConsumerGroup):
            if value is None:
                return
            group = ConsumerGroup(gid, self.shard.topics)  # replaces an Empty classic group, if any
            groups[gid] = group
        if isinstance(key, ConsumerGroupMetadataKey):
            if value is None:
                group.deleted = True
                del groups[gid]
                return
            group.group_epoch, group.metadata_hash = value.epoch, value.metadata_hash
        elif isinstance(key, ConsumerGroupMemberKey):
            if value is None:
                m = group.members.pop(key.member_id, None)
                if m is not None:
                    group.clear_current_assignment(m)
                    if m.instance_id is not None and group.static_members.get(m.instance_id) == m.member_id:
                        del group.static_members[m.instance_id]
                return
            m = group.members.get(key.member_id)
            if m is None:
                m = group.members[key.member_id] = ConsumerMember(key.member_id)
                self._schedule_session(group, key.member_id, self.shard.now)
            (m.instance_id, m.rack_id, m.client_id, m.client_host, m.subscribed_topic_names,
             m.subscribed_topic_regex, m.server_assignor, m.rebalance_timeout_ms) = (
                value.instance_id, value.rack_id, value.client_id, value.client_host,
                list(value.subscribed_topic_names), value.subscribed_topic_regex, value.server_assignor,
                value.rebalance_timeout_ms)
            if m.instance_id is not None:
                group.static_members[m.instance_id] = m.member_id
        elif isinstance(key, TargetAssignmentMemberKey):
            if value is None:
                group.target.pop(key.member_id, None)
            else:
                group.target[key.member_id] = {t: set(p) for t, p in value.partitions.items()}
        elif isinstance(key, TargetAssignmentMetadataKey):
            if value is not None:
                group.assignment_epoch = value.assignment_epoch
        elif isinstance(key, CurrentAssignmentKey):
            m = group.members.get(key.member_id)
            if value is None:
                if m is not None:
                    group.clear_current_assignment(m)
                return
            if m is None:
                m = group.members[key.member_id] = ConsumerMember(key.member_id)
            group.set_current_assignment(m, value.member_epoch, value.previous_member_epoch, value.state,
                                         value.assigned, value.pending_revocation)
