"""Classic consumer group model (JoinGroup/SyncGroup protocol): group, members, states.

Kafka's classic group states and their allowed predecessors::

    Empty               <- PreparingRebalance
    PreparingRebalance  <- Stable, CompletingRebalance, Empty
    CompletingRebalance <- PreparingRebalance
    Stable              <- CompletingRebalance
    Dead                <- any (the group is then removed from the shard)

A group holds durable fields (protocol type, generation, selected protocol,
leader, members with their subscription and assignment, the time of the last
state change) — exactly what a ``GroupMetadataValue`` record carries — and
soft fields that only live in memory, as in Kafka: pending members (those told
MEMBER_ID_REQUIRED), members waiting for a JoinGroup or SyncGroup response,
members yet to send SyncGroup, and the new-member flag. This module has no
operations; ``classic_ops`` drives the state machine.

Invariants: ``static_members`` maps each group.instance.id to the id of a
member in ``members``; ``leader`` is a member id of ``members`` or None;
``supported_protocols[name]`` counts the members that list ``name``.
"""

from __future__ import annotations

from collections import Counter

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.coordinator.records import GroupMetadataValue, MemberMetadata
from kwire.protocol.errors import ErrorCode as E

EMPTY = "Empty"
PREPARING_REBALANCE = "PreparingRebalance"
COMPLETING_REBALANCE = "CompletingRebalance"
STABLE = "Stable"
DEAD = "Dead"

VALID_PREVIOUS = {
    EMPTY: {PREPARING_REBALANCE},
    PREPARING_REBALANCE: {STABLE, COMPLETING_REBALANCE, EMPTY},
    COMPLETING_REBALANCE: {PREPARING_REBALANCE},
    STABLE: {COMPLETING_REBALANCE},
    DEAD: {STABLE, PREPARING_REBALANCE, COMPLETING_REBALANCE, EMPTY, DEAD},
}

CONSUMER_PROTOCOL_TYPE = "consumer"


class ClassicMember:
    __slots__ = ("member_id", "group_instance_id", "client_id", "client_host",
                 "rebalance_timeout_ms", "session_timeout_ms", "protocol_type", "protocols",
                 "assignment", "join_waiter", "sync_waiter", "is_new")

    def __init__(self, member_id: str, group_instance_id: str | None, client_id: str,
                 client_host: str, rebalance_timeout_ms: int, session_timeout_ms: int,
                 protocol_type: str, protocols: list[tuple[str, bytes]],
                 assignment: bytes = b"") -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.session_timeout_ms = session_timeout_ms
        self.protocol_type = protocol_type
        self.protocols = protocols  # [(name, metadata)] in the member's order of preference
        self.assignment = assignment
        self.join_waiter: Pending | None = None
        self.sync_waiter: Pending | None = None
        self.is_new = False

    @property
    def is_static(self) -> bool:
        return self.group_instance_id is not None

    @property
    def awaiting_join(self) -> bool:
        return self.join_waiter is not None

    @property
    def awaiting_sync(self) -> bool:
        return self.sync_waiter is not None

    def metadata(self, protocol: str | None) -> bytes:
        for name, meta in self.protocols:
            if name == protocol:
                return meta
        return b""

    def matches(self, protocols: list[tuple[str, bytes]]) -> bool:
        return [(n, bytes(m)) for n, m in protocols] == [(n, bytes(m)) for n, m in self.protocols]

    def vote(self, candidates: set[str]) -> str:
        for name, _ in self.protocols:
            if name in candidates:
                return name
        raise ValueError(f"member {self.member_id} supports none of {sorted(candidates)}")

    def has_satisfied_heartbeat(self) -> bool:
        # Kafka's rule: a new member may expire while waiting for its first join;
        # a known member waiting for a join or sync response is alive by definition.
        if self.is_new:
            return False
        return self.awaiting_join or self.awaiting_sync

    def __repr__(self) -> str:
        return f"ClassicMember({self.member_id!r}, instance={self.group_instance_id!r})"


class ClassicGroup:
    type = "classic"

    def __init__(self, group_id: str, now_ms: int, state: str = EMPTY) -> None:
        self.group_id = group_id
        self.state = state
        self.previous_state: str | None = None
        self.state_timestamp = now_ms
        self.protocol_type: str | None = None
        self.protocol_name: str | None = None
        self.generation_id = 0
        self.leader: str | None = None
        self.members: dict[str, ClassicMember] = {}
        self.static_members: dict[str, str] = {}
        self.pending_members: set[str] = set()
        self.pending_sync: set[str] = set()
        self.supported_protocols: Counter = Counter()
        self.subscribed_topics: set[str] | None = None
        self.awaiting_join_count = 0
        self.new_member_added = False

    # -- state -----------------------------------------------------------------------
    def is_in(self, *states: str) -> bool:
        return self.state in states

    def transition(self, state: str, now_ms: int) -> None:
        if self.state not in VALID_PREVIOUS[state]:
            raise AssertionError(f"group {self.group_id}: illegal transition {self.state} -> {state}")
        self.previous_state = self.state
        self.state = state
        self.state_timestamp = now_ms

    def can_rebalance(self) -> bool:
        return self.state in VALID_PREVIOUS[PREPARING_REBALANCE]

    # -- members ---------------------------------------------------------------------
    def has_member(self, member_id: str) -> bool:
        return member_id in self.members

    def is_leader(self, member_id: str) -> bool:
        return self.leader == member_id

    def add(self, member: ClassicMember, waiter: Pending | None = None) -> None:
        if not self.members:
            self.protocol_type = member.protocol_type
        self.members[member.member_id] = member
        self.supported_protocols.update(name for name, _ in member.protocols)
        if member.group_instance_id is not None:
            self.static_members[member.group_instance_id] = member.member_id
        if self.leader is None:
            self.leader = member.member_id
        if waiter is not None:
            member.join_waiter = waiter
            self.awaiting_join_count += 1

    def remove(self, member_id: str) -> ClassicMember | None:
        member = self.members.pop(member_id, None)
        if member is not None:
            self.supported_protocols.subtract(name for name, _ in member.protocols)
            self.supported_protocols += Counter()  # drop zero counts
            if member.awaiting_join:
                self.awaiting_join_count -= 1
            if member.group_instance_id is not None:
                self.static_members.pop(member.group_instance_id, None)
        if self.leader == member_id:
            self.leader = next(iter(self.members), None)
        self.pending_members.discard(member_id)
        self.pending_sync.discard(member_id)
        return member

    def update_member(self, member: ClassicMember, protocols: list[tuple[str, bytes]],
                      rebalance_timeout_ms: int, session_timeout_ms: int,
                      waiter: Pending | None) -> None:
        self.supported_protocols.subtract(name for name, _ in member.protocols)
        member.protocols = protocols
        self.supported_protocols.update(name for name, _ in protocols)
        self.supported_protocols += Counter()
        member.rebalance_timeout_ms = rebalance_timeout_ms
        member.session_timeout_ms = session_timeout_ms
        if waiter is not None and not member.awaiting_join:
            self.awaiting_join_count += 1
        elif waiter is None and member.awaiting_join:
            self.awaiting_join_count -= 1
        member.join_waiter = waiter

    def complete_join(self, member: ClassicMember, response) -> bool:
        if member.join_waiter is None:
            return False
        waiter, member.join_waiter = member.join_waiter, None
        self.awaiting_join_count -= 1
        waiter.complete(response)
        return True

    def complete_sync(self, member: ClassicMember, response) -> bool:
        if member.sync_waiter is None:
            return False
        waiter, member.sync_waiter = member.sync_waiter, None
        waiter.complete(response)
        return True

    def has_all_members_joined(self) -> bool:
        return len(self.members) == self.awaiting_join_count and not self.pending_members

    def not_yet_rejoined(self) -> list[ClassicMember]:
        return [m for m in self.members.values() if not m.awaiting_join]

    def rebalance_timeout_ms(self) -> int:
        return max((m.rebalance_timeout_ms for m in self.members.values()), default=0)

    def maybe_elect_new_joined_leader(self) -> bool:
        """Keep the leader if it rejoined, else pick a joined member; False if none joined."""
        if self.leader is None:
            return False
        if self.members[self.leader].awaiting_join:
            return True
        for m in self.members.values():
            if m.awaiting_join:
                self.leader = m.member_id
                return True
        return False

    def is_static_member_fenced(self, group_instance_id: str | None, member_id: str) -> bool:
        if group_instance_id is None:
            return False
        existing = self.static_members.get(group_instance_id)
        return existing is not None and existing != member_id

    def replace_static_member(self, group_instance_id: str, old_id: str, new_id: str):
        """Give a static member a new id; returns (new member, old join waiter, old sync waiter)."""
        old = self.members.pop(old_id)
        # The replaced instance may still wait for a response: fence it right away.
        if old.join_waiter is not None:
            self.awaiting_join_count -= 1
        old_join, old_sync = old.join_waiter, old.sync_waiter
        old.join_waiter = old.sync_waiter = None
        new = ClassicMember(new_id, group_instance_id, old.client_id, old.client_host,
                            old.rebalance_timeout_ms, old.session_timeout_ms, old.protocol_type,
                            old.protocols, old.assignment)
        self.members[new_id] = new
        if self.leader == old_id:
            self.leader = new_id
        self.static_members[group_instance_id] = new_id
        if old_id in self.pending_sync:
            self.pending_sync.discard(old_id)
            self.pending_sync.add(new_id)
        return new, old_join, old_sync

    # -- protocols ---------------------------------------------------------------------
    def candidate_protocols(self) -> set[str]:
        n = len(self.members)
        return {name for name, count in self.supported_protocols.items() if count == n}

    def supports_protocols(self, protocol_type: str, names: list[str]) -> bool:
        if self.state == EMPTY:
            return bool(protocol_type) and bool(names)
        n = len(self.members)
        return self.protocol_type == protocol_type and any(
            self.supported_protocols.get(name, 0) == n for name in names)

    def select_protocol(self) -> str:
        candidates = self.candidate_protocols()
        votes = Counter(m.vote(candidates) for m in self.members.values())
        best = max(votes.values())
        # Ties: the first member's preference among the most voted (deterministic).
        first = next(iter(self.members.values()))
        for name, _ in first.protocols:
            if votes.get(name) == best:
                return name
        return votes.most_common(1)[0][0]

    def init_next_generation(self, now_ms: int) -> None:
        self.generation_id += 1
        if self.members:
            self.protocol_name = self.select_protocol()
            self.subscribed_topics = self.compute_subscribed_topics()
            self.transition(COMPLETING_REBALANCE, now_ms)
        else:
            self.protocol_name = None
            self.subscribed_topics = self.compute_subscribed_topics()
            self.transition(EMPTY, now_ms)
        self.pending_sync.clear()

    def uses_consumer_protocol(self) -> bool:
        return self.protocol_type == CONSUMER_PROTOCOL_TYPE

    def compute_subscribed_topics(self) -> set[str] | None:
        if self.protocol_type != CONSUMER_PROTOCOL_TYPE:
            return None
        if not self.members:
            return set()
        if self.protocol_name is None:
            return None
        from kwire.coordinator.consumer_protocol import subscription_topics

        topics: set[str] = set()
        try:
            for m in self.members.values():
                topics.update(subscription_topics(m.metadata(self.protocol_name)))
        except ValueError:
            return None  # not the consumer protocol after all: unknown subscriptions
        return topics

    def is_subscribed_to_topic(self, topic: str) -> bool:
        if self.subscribed_topics is None:
            return self.uses_consumer_protocol()
        return topic in self.subscribed_topics

    # -- validation for the offset and admin APIs ------------------------------------------
    def validate_member(self, member_id: str, group_instance_id: str | None) -> None:
        if group_instance_id is not None:
            existing = self.static_members.get(group_instance_id)
            if existing is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
            if existing != member_id:
                raise CoordinatorError(E.FENCED_INSTANCE_ID)
        if member_id not in self.members:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID)

    def validate_offset_commit(self, member_id: str, group_instance_id: str | None,
                               generation_id: int, api_version: int) -> None:
        if self.state == DEAD:
            raise CoordinatorError(E.COORDINATOR_NOT_AVAILABLE)
        if generation_id < 0 and self.state == EMPTY:
            return  # admin client or a consumer without group management
        if generation_id >= 0 or member_id or group_instance_id is not None:
            self.validate_member(member_id, group_instance_id)
            if generation_id != self.generation_id:
                raise CoordinatorError(E.ILLEGAL_GENERATION)
        elif self.state != EMPTY:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
        if self.state == COMPLETING_REBALANCE:
            # The member knows the new generation but has no assignment yet.
            raise CoordinatorError(E.REBALANCE_IN_PROGRESS)

    def validate_offset_fetch(self, member_id: str | None, member_epoch: int) -> None:
        if self.state == DEAD:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {self.group_id} is in dead state.")

    def validate_offset_delete(self) -> None:
        if self.state == DEAD:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {self.group_id} is in dead state.")
        if self.state != EMPTY and not self.uses_consumer_protocol():
            raise CoordinatorError(E.NON_EMPTY_GROUP)

    def validate_delete_group(self) -> None:
        if self.state == DEAD:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {self.group_id} is in dead state.")
        if self.state != EMPTY:
            raise CoordinatorError(E.NON_EMPTY_GROUP)

    def is_empty(self) -> bool:
        return self.state == EMPTY

    # -- persistence ---------------------------------------------------------------------
    def to_record_value(self, assignments: dict[str, bytes] | None = None) -> GroupMetadataValue:
        assignments = assignments or {}
        members = [
            MemberMetadata(m.member_id, m.group_instance_id, m.client_id, m.client_host,
                           m.rebalance_timeout_ms, m.session_timeout_ms,
                           m.metadata(self.protocol_name),
                           assignments.get(m.member_id, m.assignment))
            for m in self.members.values()
        ]
        return GroupMetadataValue(self.protocol_type or "", self.generation_id, self.protocol_name,
                                  self.leader, self.state_timestamp, members)

    def __repr__(self) -> str:
        return (f"ClassicGroup({self.group_id!r}, {self.state}, gen={self.generation_id}, "
                f"members={list(self.members)})")
