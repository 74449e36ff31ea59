"""Classic group operations: JoinGroup, SyncGroup, Heartbeat, LeaveGroup, their timers, replay.

Behaviour follows Kafka's group coordinator:

* JoinGroup with an empty member id: v4+ dynamic members get MEMBER_ID_REQUIRED
  with a fresh id (``<client.id>-<uuid>``) and become *pending* until they
  rejoin with it (KIP-394); static members (group.instance.id, KIP-345) join
  directly, and a known instance id replaces the old member id (fencing the old
  one with FENCED_INSTANCE_ID). A Stable group whose selected protocol does not
  change keeps its assignment: the replacement is persisted and no rebalance
  happens; the leader gets the member list with ``skip_assignment``.
* A rebalance: PreparingRebalance until every member has rejoined (or the
  rebalance timeout, the largest of the members'), then the join phase
  completes: dynamic members that did not rejoin are dropped, the generation
  goes up, a protocol every member supports is voted for, the leader gets the
  member list, and the group waits in CompletingRebalance for the leader's
  SyncGroup. Its assignment is written as a GroupMetadata record; once that
  record is replicated the group moves to Stable and the waiting SyncGroups
  are answered (if the write fails, they get its error and the group
  rebalances, as Kafka's classicGroupSyncLeader: membership and generation
  stay in memory, as in Kafka, where classic groups are not rolled back).
* The first rebalance of an Empty group waits ``group.initial.rebalance.delay.ms``
  for more members. Kafka extends that window while new members keep coming
  (up to the rebalance timeout); kwire does not — the first join never waits
  longer than the configured delay (a late member triggers a second rebalance).
* Session timeouts: each member has a heartbeat deadline; members waiting for a
  join or sync response satisfy it implicitly, except new members, which get
  ``NEW_MEMBER_JOIN_TIMEOUT_MS`` (5 minutes, as Kafka) for their first join.
  Members that do not send SyncGroup within the rebalance timeout are removed.

Soft state (who waits, deadlines, the rebalance in progress) changes directly
in these operations, as in Kafka; durable state (generation, protocol,
members and assignments of a completed generation, an Empty generation,
deletion) only through GroupMetadata records and ``replay_group_metadata``.
"""

from __future__ import annotations

import logging
import uuid

from kwire.coordinator.base import CoordinatorError, Pending, Result
from kwire.coordinator.classic import (
    COMPLETING_REBALANCE, DEAD, EMPTY, PREPARING_REBALANCE, STABLE, ClassicGroup, ClassicMember,
)
from kwire.coordinator.records import CoordinatorRecord, GroupMetadataKey
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.join_group_response import JoinGroupResponse, JoinGroupResponseMember
from kwire.protocol.generated.sync_group_response import SyncGroupResponse

log = logging.getLogger("kwire.coordinator")

NEW_MEMBER_JOIN_TIMEOUT_MS = 5 * 60 * 1000


def join_error(code: E, member_id: str = "") -> JoinGroupResponse:
    return JoinGroupResponse(error_code=code, generation_id=-1, protocol_type=None,
                             protocol_name=None, leader="", member_id=member_id, members=[])


def sync_error(code: E) -> SyncGroupResponse:
    return SyncGroupResponse(error_code=code, protocol_type=None, protocol_name=None, assignment=b"")


def _hb_key(group_id: str, member_id: str):
    return ("classic-hb", group_id, member_id)


def _join_key(group_id: str):
    return ("classic-join", group_id)


def _sync_key(group_id: str):
    return ("classic-sync", group_id)


class ClassicOps:
    def __init__(self, shard) -> None:
        self.shard = shard
        self.config = shard.config
        self.timer = shard.timer

    # -- helpers ---------------------------------------------------------------------------
    def _group(self, group_id: str) -> ClassicGroup | None:
        g = self.shard.groups.get(group_id)
        return g if isinstance(g, ClassicGroup) else None

    def _alive(self, group: ClassicGroup) -> bool:
        return self.shard.groups.get(group.group_id) is group

    def _schedule_heartbeat(self, group: ClassicGroup, member_id: str, timeout_ms: int) -> None:
        self.timer.schedule(_hb_key(group.group_id, member_id), self.shard.now + timeout_ms,
                            lambda now, g=group, m=member_id: self._expire_heartbeat(g, m, now))

    def _current_join_response(self, group: ClassicGroup, member_id: str,
                               skip_assignment: bool = False) -> JoinGroupResponse:
        members = self._member_list(group) if group.is_leader(member_id) else []
        return JoinGroupResponse(error_code=0, generation_id=group.generation_id,
                                 protocol_type=group.protocol_type, protocol_name=group.protocol_name,
                                 leader=group.leader or "", skip_assignment=skip_assignment,
                                 member_id=member_id, members=members)

    @staticmethod
    def _member_list(group: ClassicGroup) -> list[JoinGroupResponseMember]:
        return [JoinGroupResponseMember(member_id=m.member_id, group_instance_id=m.group_instance_id,
                                        metadata=m.metadata(group.protocol_name))
                for m in group.members.values()]

    # -- JoinGroup -------------------------------------------------------------------------
    def join(self, ctx, req, now: int) -> Result:
        cfg = self.config
        if not req.group_id:
            return Result(join_error(E.INVALID_GROUP_ID, req.member_id))
        if not cfg.group_min_session_timeout_ms <= req.session_timeout_ms <= cfg.group_max_session_timeout_ms:
            # Say why: clients only see the error code, and the bounds are broker configs.
            log.info("JoinGroup of group %s, member %r refused with INVALID_SESSION_TIMEOUT: "
                     "session.timeout.ms=%d is outside [group.min.session.timeout.ms=%d, "
                     "group.max.session.timeout.ms=%d]", req.group_id, req.member_id,
                     req.session_timeout_ms, cfg.group_min_session_timeout_ms,
                     cfg.group_max_session_timeout_ms)
            return Result(join_error(E.INVALID_SESSION_TIMEOUT, req.member_id))
        rebalance_timeout = req.rebalance_timeout_ms if ctx.api_version >= 1 else req.session_timeout_ms
        if rebalance_timeout < 0:
            rebalance_timeout = req.session_timeout_ms
        unknown = req.member_id == ""
        existing = self.shard.groups.get(req.group_id)
        converted: list = []
        if existing is not None and existing.type == "share":  # Kafka: "Group g is not a classic group."
            return Result(join_error(E.GROUP_ID_NOT_FOUND, req.member_id))
        if existing is not None and not isinstance(existing, ClassicGroup):
            if not existing.is_empty():
                # A consumer (KIP-848) group with members: kwire does not mix protocols in a group.
                return Result(join_error(E.INCONSISTENT_GROUP_PROTOCOL, req.member_id))
            # An Empty consumer group becomes a classic one (its offsets stay).
            converted = self.shard.consumer.tombstones(existing)
            del self.shard.groups[req.group_id]
            existing = None
        group = existing
        created = False
        if group is None:
            if not unknown:
                return Result(join_error(E.UNKNOWN_MEMBER_ID, req.member_id))
            group = ClassicGroup(req.group_id, now)
            self.shard.groups[req.group_id] = group
            created = True
        if (not group.has_member(req.member_id) and req.member_id not in group.pending_members
                and len(group.members) >= cfg.group_max_size):
            result = Result(join_error(E.GROUP_MAX_SIZE_REACHED, req.member_id))
        elif unknown:
            result = self._join_new_member(ctx, req, group, rebalance_timeout, now)
        else:
            result = self._join_existing_member(ctx, req, group, rebalance_timeout, now)
        if created and not group.members and not group.pending_members and not converted:
            del self.shard.groups[req.group_id]  # a join that failed leaves no trace
        if converted:
            result.records[:0] = converted
        return result

    def _join_new_member(self, ctx, req, group: ClassicGroup, rebalance_timeout: int, now: int) -> Result:
        if group.is_in(DEAD):
            return Result(join_error(E.COORDINATOR_NOT_AVAILABLE))
        if not group.supports_protocols(req.protocol_type, [p.name for p in req.protocols]):
            return Result(join_error(E.INCONSISTENT_GROUP_PROTOCOL))
        instance_id = req.group_instance_id
        new_id = f"{instance_id if instance_id is not None else (ctx.client_id or '')}-{uuid.uuid4()}"
        if instance_id is not None:
            old_id = group.static_members.get(instance_id)
            if old_id is not None:
                return self._replace_static_member(ctx, req, group, old_id, new_id, rebalance_timeout, now)
            return self._add_member_and_rebalance(ctx, req, group, new_id, rebalance_timeout, now)
        if ctx.api_version >= 4:
            # KIP-394: hand out the id first, so a client that times out and retries
            # does not leave orphaned members behind.
            group.pending_members.add(new_id)
            self._schedule_heartbeat(group, new_id, req.session_timeout_ms)
            return Result(join_error(E.MEMBER_ID_REQUIRED, new_id))
        return self._add_member_and_rebalance(ctx, req, group, new_id, rebalance_timeout, now)

    def _join_existing_member(self, ctx, req, group: ClassicGroup, rebalance_timeout: int,
                              now: int) -> Result:
        member_id, instance_id = req.member_id, req.group_instance_id
        if group.is_in(DEAD):
            return Result(join_error(E.COORDINATOR_NOT_AVAILABLE, member_id))
        if not group.supports_protocols(req.protocol_type, [p.name for p in req.protocols]):
            return Result(join_error(E.INCONSISTENT_GROUP_PROTOCOL, member_id))
        if member_id in group.pending_members:
            return self._add_member_and_rebalance(ctx, req, group, member_id, rebalance_timeout, now)
        if group.is_static_member_fenced(instance_id, member_id):
            return Result(join_error(E.FENCED_INSTANCE_ID, member_id))
        if not group.has_member(member_id) or (
                instance_id is not None and instance_id not in group.static_members):
            return Result(join_error(E.UNKNOWN_MEMBER_ID, member_id))
        member = group.members[member_id]
        protocols = [(p.name, bytes(p.metadata)) for p in req.protocols]
        if group.is_in(PREPARING_REBALANCE):
            return self._update_member_and_rebalance(group, member, protocols, rebalance_timeout,
                                                     req.session_timeout_ms, now)
        if group.is_in(COMPLETING_REBALANCE):
            if member.matches(protocols):
                # The member lost our join response: send it again, no new rebalance.
                return Result(self._current_join_response(group, member_id))
            return self._update_member_and_rebalance(group, member, protocols, rebalance_timeout,
                                                     req.session_timeout_ms, now)
        if group.is_in(STABLE):
            if group.is_leader(member_id) or not member.matches(protocols):
                # The leader rejoining means it wants a new assignment (new topics, say).
                return self._update_member_and_rebalance(group, member, protocols, rebalance_timeout,
                                                         req.session_timeout_ms, now)
            return Result(self._current_join_response(group, member_id))
        return Result(join_error(E.UNKNOWN_MEMBER_ID, member_id))  # Empty

    def _add_member_and_rebalance(self, ctx, req, group: ClassicGroup, member_id: str,
                                  rebalance_timeout: int, now: int) -> Result:
        protocols = [(p.name, bytes(p.metadata)) for p in req.protocols]
        member = ClassicMember(member_id, req.group_instance_id, ctx.client_id or "", ctx.client_host,
                               rebalance_timeout, req.session_timeout_ms, req.protocol_type, protocols)
        member.is_new = True
        waiter = Pending()
        group.pending_members.discard(member_id)
        group.add(member, waiter)
        if group.is_in(PREPARING_REBALANCE) and group.previous_state == EMPTY:
            group.new_member_added = True
        self._schedule_heartbeat(group, member_id, NEW_MEMBER_JOIN_TIMEOUT_MS)
        records = self.maybe_prepare_rebalance_or_complete_join(group, f"adding new member {member_id}")
        return Result(waiter, records)

    def _update_member_and_rebalance(self, group: ClassicGroup, member: ClassicMember, protocols,
                                     rebalance_timeout: int, session_timeout: int, now: int) -> Result:
        if member.join_waiter is not None:
            # A retried JoinGroup replaces the one still waiting (its connection is stale).
            group.complete_join(member, join_error(E.REBALANCE_IN_PROGRESS, member.member_id))
        waiter = Pending()
        group.update_member(member, protocols, rebalance_timeout, session_timeout, waiter)
        records = self.maybe_prepare_rebalance_or_complete_join(
            group, f"updating metadata of member {member.member_id}")
        return Result(waiter, records)

    def _replace_static_member(self, ctx, req, group: ClassicGroup, old_id: str, new_id: str,
                               rebalance_timeout: int, now: int) -> Result:
        instance_id = req.group_instance_id
        old_member = group.members[old_id]
        saved = (old_member.protocols, old_member.rebalance_timeout_ms, old_member.session_timeout_ms)
        member, old_join, old_sync = group.replace_static_member(instance_id, old_id, new_id)
        if old_join is not None:
            old_join.complete(join_error(E.FENCED_INSTANCE_ID, old_id))
        if old_sync is not None:
            old_sync.complete(sync_error(E.FENCED_INSTANCE_ID))
        self.timer.cancel(_hb_key(group.group_id, old_id))
        self._schedule_heartbeat(group, new_id, req.session_timeout_ms)
        protocols = [(p.name, bytes(p.metadata)) for p in req.protocols]
        waiter = Pending()
        group.update_member(member, protocols, rebalance_timeout, req.session_timeout_ms, waiter)
        log.info("group %s: static member %s rejoined as %s (was %s)", group.group_id, instance_id,
                 new_id, old_id)
        if group.is_in(STABLE):
            if group.select_protocol() != group.protocol_name:
                records = self.prepare_rebalance(group, f"static member {instance_id} changed protocols")
                return Result(waiter, records)
            # Same protocol: keep the assignment; persist the new member id.
            response = self._current_join_response(group, new_id, skip_assignment=group.is_leader(new_id))
            group.complete_join(member, response)
            record = CoordinatorRecord(GroupMetadataKey(group.group_id), group.to_record_value())

            def undo(code: E):
                if self._alive(group) and new_id in group.members:
                    back, _, _ = group.replace_static_member(instance_id, new_id, old_id)
                    group.update_member(back, *saved, None)
                    self.timer.cancel(_hb_key(group.group_id, new_id))
                    self._schedule_heartbeat(group, old_id, back.session_timeout_ms)
                return join_error(code)

            return Result(response, [record], undo)
        if group.is_in(COMPLETING_REBALANCE):
            records = self.prepare_rebalance(group, f"static member {instance_id} rejoined during sync")
            return Result(waiter, records)
        return Result(waiter, self.maybe_complete_join_phase(group))  # PreparingRebalance

    # -- rebalance -------------------------------------------------------------------------
    def maybe_prepare_rebalance_or_complete_join(self, group: ClassicGroup, reason: str) -> list:
        if group.can_rebalance():
            return self.prepare_rebalance(group, reason)
        return self.maybe_complete_join_phase(group)

    def maybe_complete_join_phase(self, group: ClassicGroup) -> list:
        if not group.is_in(PREPARING_REBALANCE) or group.previous_state == EMPTY:
            return []  # the initial rebalance completes on its timer
        if not group.has_all_members_joined():
            return []
        return self.complete_join(group)

    def prepare_rebalance(self, group: ClassicGroup, reason: str) -> list:
        now = self.shard.now
        if group.is_in(COMPLETING_REBALANCE):
            self._reset_and_propagate_assignment_error(group, E.REBALANCE_IN_PROGRESS)
        self.timer.cancel(_sync_key(group.group_id))
        group.pending_sync.clear()
        initial = group.is_in(EMPTY)
        if initial:
            group.new_member_added = False
            self.timer.schedule(_join_key(group.group_id), now + self.config.group_initial_rebalance_delay_ms,
                                lambda t, g=group: self._on_join_deadline(g))
        group.transition(PREPARING_REBALANCE, now)
        log.info("group %s: preparing to rebalance (generation %d): %s", group.group_id,
                 group.generation_id, reason)
        if initial:
            return []
        if group.has_all_members_joined():
            return self.complete_join(group)
        self.timer.schedule(_join_key(group.group_id), now + group.rebalance_timeout_ms(),
                            lambda t, g=group: self._on_join_deadline(g))
        return []

    def _on_join_deadline(self, group: ClassicGroup) -> list:
        if not self._alive(group) or not group.is_in(PREPARING_REBALANCE):
            return []
        return self.complete_join(group)

    def complete_join(self, group: ClassicGroup) -> list:
        now = self.shard.now
        self.timer.cancel(_join_key(group.group_id))
        gone = [m for m in group.not_yet_rejoined() if not m.is_static]
        for m in gone:
            group.remove(m.member_id)
            self.timer.cancel(_hb_key(group.group_id, m.member_id))
        if gone:
            log.info("group %s: removed members that did not rejoin: %s", group.group_id,
                     [m.member_id for m in gone])
        if group.is_in(DEAD):
            return []
        if not group.maybe_elect_new_joined_leader() and group.members:
            # Only static members that have not rejoined are left: wait for them (or
            # for their session timeouts) one more rebalance timeout.
            self.timer.schedule(_join_key(group.group_id), now + group.rebalance_timeout_ms(),
                                lambda t, g=group: self._on_join_deadline(g))
            return []
        group.init_next_generation(now)
        if group.is_in(EMPTY):
            log.info("group %s: generation %d is empty", group.group_id, group.generation_id)
            return [CoordinatorRecord(GroupMetadataKey(group.group_id), group.to_record_value())]
        log.info("group %s: generation %d with %d members, protocol %s, leader %s", group.group_id,
                 group.generation_id, len(group.members), group.protocol_name, group.leader)
        for m in list(group.members.values()):
            group.complete_join(m, self._current_join_response(group, m.member_id))
            self._schedule_heartbeat(group, m.member_id, m.session_timeout_ms)
            m.is_new = False
            group.pending_sync.add(m.member_id)
        generation = group.generation_id
        self.timer.schedule(_sync_key(group.group_id), now + group.rebalance_timeout_ms(),
                            lambda t, g=group, gen=generation: self._expire_pending_sync(g, gen))
        return []

    def _expire_pending_sync(self, group: ClassicGroup, generation: int) -> list:
        if not self._alive(group) or group.generation_id != generation:
            return []
        if group.is_in(COMPLETING_REBALANCE, STABLE) and group.pending_sync:
            missing = sorted(group.pending_sync)
            for mid in missing:
                group.remove(mid)
                self.timer.cancel(_hb_key(group.group_id, mid))
            return self.prepare_rebalance(group, f"members {missing} did not send SyncGroup in time")
        return []

    def _reset_and_propagate_assignment_error(self, group: ClassicGroup, error: E) -> None:
        for m in group.members.values():
            m.assignment = b""
        self.propagate_assignment(group, error)

    def propagate_assignment(self, group: ClassicGroup, error: E) -> None:
        ok = error == E.NONE
        for m in list(group.members.values()):
            response = SyncGroupResponse(error_code=error,
                                         protocol_type=group.protocol_type if ok else None,
                                         protocol_name=group.protocol_name if ok else None,
                                         assignment=m.assignment if ok else b"")
            if group.complete_sync(m, response):
                self._schedule_heartbeat(group, m.member_id, m.session_timeout_ms)

    # -- heartbeats and removal ------------------------------------------------------------
    def _expire_heartbeat(self, group: ClassicGroup, member_id: str, now: int) -> list:
        if not self._alive(group) or group.is_in(DEAD):
            return []
        if member_id in group.pending_members:
            log.info("group %s: pending member %s expired", group.group_id, member_id)
            group.pending_members.discard(member_id)
            if group.is_in(PREPARING_REBALANCE) and group.has_all_members_joined():
                return self.complete_join(group)
            return []
        member = group.members.get(member_id)
        if member is None or member.has_satisfied_heartbeat():
            return []
        log.info("group %s: member %s session expired", group.group_id, member_id)
        return self.remove_member_and_update(group, member, "session timeout")

    def remove_member_and_update(self, group: ClassicGroup, member: ClassicMember, reason: str) -> list:
        group.complete_join(member, join_error(E.UNKNOWN_MEMBER_ID))
        group.complete_sync(member, sync_error(E.UNKNOWN_MEMBER_ID))
        group.remove(member.member_id)
        self.timer.cancel(_hb_key(group.group_id, member.member_id))
        if group.is_in(STABLE, COMPLETING_REBALANCE):
            return self.maybe_prepare_rebalance_or_complete_join(
                group, f"removing member {member.member_id}: {reason}")
        if group.is_in(PREPARING_REBALANCE) and group.has_all_members_joined():
            return self.complete_join(group)
        return []

    # -- SyncGroup -------------------------------------------------------------------------
    def sync(self, ctx, req, now: int) -> Result:
        if not req.group_id:
            return Result(sync_error(E.INVALID_GROUP_ID))
        group = self._group(req.group_id)
        if group is None:
            return Result(sync_error(E.UNKNOWN_MEMBER_ID))
        try:
            if group.is_in(DEAD):
                raise CoordinatorError(E.COORDINATOR_NOT_AVAILABLE)
            group.validate_member(req.member_id, req.group_instance_id)
            if req.generation_id != group.generation_id:
                raise CoordinatorError(E.ILLEGAL_GENERATION)
            if ((req.protocol_type is not None and req.protocol_type != group.protocol_type)
                    or (req.protocol_name is not None and req.protocol_name != group.protocol_name)):
                raise CoordinatorError(E.INCONSISTENT_GROUP_PROTOCOL)
        except CoordinatorError as e:
            return Result(sync_error(e.code))
        member = group.members[req.member_id]
        if group.is_in(EMPTY):
            return Result(sync_error(E.UNKNOWN_MEMBER_ID))
        if group.is_in(PREPARING_REBALANCE):
            return Result(sync_error(E.REBALANCE_IN_PROGRESS))
        group.pending_sync.discard(member.member_id)
        if group.is_in(STABLE):
            self._schedule_heartbeat(group, member.member_id, member.session_timeout_ms)
            return Result(SyncGroupResponse(error_code=0, protocol_type=group.protocol_type,
                                            protocol_name=group.protocol_name,
                                            assignment=member.assignment))
        # CompletingRebalance: wait for the leader's assignment to be written.
        if member.sync_waiter is not None:
            group.complete_sync(member, sync_error(E.REBALANCE_IN_PROGRESS))
        waiter = member.sync_waiter = Pending()
        if not group.is_leader(member.member_id):
            return Result(waiter)
        given = {a.member_id: bytes(a.assignment) for a in req.assignments}
        assignments = {mid: given.get(mid, b"") for mid in group.members}
        value = group.to_record_value(assignments)
        record = CoordinatorRecord(GroupMetadataKey(group.group_id), value)
        generation = group.generation_id

        def current() -> bool:
            # another member may have joined (or left) while the assignment was written
            return self._alive(group) and group.is_in(COMPLETING_REBALANCE) and group.generation_id == generation

        def stored() -> None:
            if current() and list(group.members) == [m.member_id for m in value.members]:
                self._store_assignment(group, value)

        def failed(code: E):
            if current():
                self._reset_and_propagate_assignment_error(group, code)
                self.maybe_prepare_rebalance_or_complete_join(
                    group, f"could not store the assignment: {code.name}")
            return waiter.response if waiter.done else sync_error(code)

        # Kafka's classicGroupSyncLeader: the group turns Stable (and the members get their
        # assignments) only once the record is written and replicated; on failure the members
        # get the error and the group rebalances (its membership is in memory, not reverted)
        return Result(waiter, [record], failed, on_commit=stored, replay_records=False)

    # -- Heartbeat -------------------------------------------------------------------------
    def heartbeat(self, ctx, req, now: int) -> E:
        if not req.group_id:
            return E.INVALID_GROUP_ID
        group = self._group(req.group_id)
        if group is None:
            return E.UNKNOWN_MEMBER_ID
        try:
            if group.is_in(DEAD):
                raise CoordinatorError(E.COORDINATOR_NOT_AVAILABLE)
            group.validate_member(req.member_id, req.group_instance_id)
            if req.generation_id != group.generation_id:
                raise CoordinatorError(E.ILLEGAL_GENERATION)
        except CoordinatorError as e:
            return e.code
        member = group.members[req.member_id]
        if group.is_in(EMPTY):
            return E.UNKNOWN_MEMBER_ID
        self._schedule_heartbeat(group, member.member_id, member.session_timeout_ms)
        if group.is_in(PREPARING_REBALANCE):
            return E.REBALANCE_IN_PROGRESS
        return E.NONE

    def touch(self, group: ClassicGroup, member_id: str) -> None:
        """An OffsetCommit from a member in Stable/PreparingRebalance keeps its session alive."""
        member = group.members.get(member_id)
        if member is not None and group.is_in(STABLE, PREPARING_REBALANCE):
            self._schedule_heartbeat(group, member_id, member.session_timeout_ms)

    # -- LeaveGroup ------------------------------------------------------------------------
    def leave(self, ctx, group_id: str, identities: list[tuple[str, str | None]], now: int) -> Result:
        """Remove members; the response is a list of (member_id, instance_id, error) per identity."""
        if not group_id:
            raise CoordinatorError(E.INVALID_GROUP_ID)
        group = self._group(group_id)
        if group is None:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
        if group.is_in(DEAD):
            raise CoordinatorError(E.COORDINATOR_NOT_AVAILABLE)
        out = []
        removed = removed_pending = False
        for member_id, instance_id in identities:
            code = E.NONE
            if instance_id is not None:
                existing = group.static_members.get(instance_id)
                if existing is None:
                    code = E.UNKNOWN_MEMBER_ID
                elif member_id and member_id != existing:
                    code = E.FENCED_INSTANCE_ID
                else:
                    self._remove(group, group.members[existing])
                    removed = True
            elif member_id in group.pending_members:
                group.pending_members.discard(member_id)
                self.timer.cancel(_hb_key(group.group_id, member_id))
                removed_pending = True
            elif member_id not in group.members:
                code = E.UNKNOWN_MEMBER_ID
            else:
                self._remove(group, group.members[member_id])
                removed = True
            out.append((member_id, instance_id, code))
        records: list = []
        if removed:
            records = self.maybe_prepare_rebalance_or_complete_join(group, "members left the group")
        elif removed_pending and group.is_in(PREPARING_REBALANCE) and group.has_all_members_joined():
            records = self.complete_join(group)
        return Result(out, records)

    def _remove(self, group: ClassicGroup, member: ClassicMember) -> None:
        log.info("group %s: member %s left", group.group_id, member.member_id)
        group.complete_join(member, join_error(E.UNKNOWN_MEMBER_ID))
        group.complete_sync(member, sync_error(E.UNKNOWN_MEMBER_ID))
        group.remove(member.member_id)
        self.timer.cancel(_hb_key(group.group_id, member.member_id))

    # -- replay ----------------------------------------------------------------------------
    def _store_assignment(self, group: ClassicGroup, value) -> None:
        """A GroupMetadata record of the group as it is in memory is written: its assignment."""
        for m in value.members:
            group.members[m.member_id].assignment = m.assignment
        if group.is_in(COMPLETING_REBALANCE):
            group.transition(STABLE, self.shard.now)
            self.propagate_assignment(group, E.NONE)

    def replay_group_metadata(self, key: GroupMetadataKey, value) -> None:
        groups = self.shard.groups
        current = groups.get(key.group)
        if value is None:
            if isinstance(current, ClassicGroup):
                current.state = DEAD
                del groups[key.group]
                self.timer.cancel(_join_key(key.group))
                self.timer.cancel(_sync_key(key.group))
            return
        group = current if isinstance(current, ClassicGroup) else None
        if (group is not None and group.generation_id == value.generation
                and list(group.members) == [m.member_id for m in value.members]):
            # The record describes this group as it is in memory (the live path):
            # apply what it adds — the assignment — and finish the rebalance.
            self._store_assignment(group, value)
            return
        # Loading (or memory that diverged from the log): rebuild from the record.
        if group is not None:
            for m in list(group.members.values()):
                group.complete_join(m, join_error(E.NOT_COORDINATOR))
                group.complete_sync(m, sync_error(E.NOT_COORDINATOR))
        group = ClassicGroup(key.group, value.current_state_timestamp,
                             STABLE if value.members else EMPTY)
        group.protocol_type = value.protocol_type or None
        group.generation_id = value.generation
        group.protocol_name = value.protocol
        for m in value.members:
            group.add(ClassicMember(m.member_id, m.group_instance_id, m.client_id, m.client_host,
                                    m.rebalance_timeout_ms, m.session_timeout_ms, value.protocol_type,
                                    [(value.protocol or "", m.subscription)], m.assignment))
        group.protocol_type = value.protocol_type or None
        group.leader = value.leader if value.leader in group.members else next(iter(group.members), None)
        group.subscribed_topics = group.compute_subscribed_topics()
        groups[key.group] = group
        for m in group.members.values():
            self._schedule_heartbeat(group, m.member_id, m.session_timeout_ms)
