"""KIP-848 consumer group model: members, epochs, target and current assignments.

A ``ConsumerGroup`` has a *group epoch* (bumped whenever membership or
subscriptions — or the subscribed topics' partitions — change), a *target
assignment* computed by the server-side assignor at an *assignment epoch*,
and per member a *current assignment* that converges to the target one
heartbeat at a time: partitions the member must give up are first revoked
(state UNREVOKED_PARTITIONS, the member keeps its epoch), partitions still
owned by others are handed out once released (UNRELEASED_PARTITIONS), and a
member that owns exactly its target is STABLE at the assignment epoch.

Group states as Kafka names them: Empty (no members), Assigning (group epoch
ahead of the assignment epoch), Reconciling (a member not yet at the
assignment epoch or not stable), Stable.

Everything here changes only through ``kwire.coordinator.consumer_ops``'s
replay of the ConsumerGroup* records. Topic ids are 16-byte ``bytes``.
"""

from __future__ import annotations

import re

from kwire.coordinator.base import CoordinatorError
from kwire.protocol.errors import ErrorCode as E

STABLE, UNRELEASED_PARTITIONS, UNREVOKED_PARTITIONS = 0, 1, 2

EMPTY, ASSIGNING, RECONCILING, STABLE_STATE, DEAD = "Empty", "Assigning", "Reconciling", "Stable", "Dead"

TopicPartitions = dict[bytes, set[int]]


class ConsumerMember:
    __slots__ = ("member_id", "instance_id", "rack_id", "client_id", "client_host",
                 "subscribed_topic_names", "subscribed_topic_regex", "server_assignor",
                 "rebalance_timeout_ms", "member_epoch", "previous_member_epoch", "state",
                 "assigned", "pending_revocation")

    def __init__(self, member_id: str) -> None:
        self.member_id = member_id
        self.instance_id: str | None = None
        self.rack_id: str | None = None
        self.client_id = ""
        self.client_host = ""
        self.subscribed_topic_names: list[str] = []
        self.subscribed_topic_regex: str | None = None
        self.server_assignor: str | None = None
        self.rebalance_timeout_ms = 0
        self.member_epoch = 0
        self.previous_member_epoch = 0
        self.state = STABLE
        self.assigned: TopicPartitions = {}
        self.pending_revocation: TopicPartitions = {}

    def subscription_key(self) -> tuple:
        return (self.instance_id, self.rack_id, self.client_id, self.client_host,
                tuple(self.subscribed_topic_names), self.subscribed_topic_regex,
                self.server_assignor, self.rebalance_timeout_ms)

    def copy(self) -> "ConsumerMember":
        m = ConsumerMember(self.member_id)
        for name in self.__slots__:
            setattr(m, name, getattr(self, name))
        m.assigned = {t: set(p) for t, p in self.assigned.items()}
        m.pending_revocation = {t: set(p) for t, p in self.pending_revocation.items()}
        return m

    def __repr__(self) -> str:
        return f"ConsumerMember({self.member_id!r}, epoch={self.member_epoch}, state={self.state})"


def compile_regex(regex: str):
    try:
        return re.compile(regex)
    except re.error as e:
        raise CoordinatorError(E.INVALID_REGULAR_EXPRESSION,
                               f"SubscribedTopicRegex `{regex}` is not a valid regular expression: {e}.")


class ConsumerGroup:
    type = "consumer"
    protocol_type = "consumer"

    def __init__(self, group_id: str, topics=None) -> None:
        self.group_id = group_id
        self.topics = topics  # TopicsView, to resolve regex subscriptions
        self.group_epoch = 0
        self.metadata_hash = 0
        self.assignment_epoch = 0
        self.members: dict[str, ConsumerMember] = {}
        self.static_members: dict[str, str] = {}
        self.target: dict[str, TopicPartitions] = {}
        self.partition_epochs: dict[tuple[bytes, int], int] = {}
        self.deleted = False

    # -- state -----------------------------------------------------------------------------
    @property
    def state(self) -> str:
        if self.deleted:
            return DEAD
        if not self.members:
            return EMPTY
        if self.group_epoch > self.assignment_epoch:
            return ASSIGNING
        for m in self.members.values():
            if m.member_epoch != self.assignment_epoch or m.state != STABLE:
                return RECONCILING
        return STABLE_STATE

    def is_empty(self) -> bool:
        return not self.members

    # -- subscriptions -----------------------------------------------------------------------
    def member_topics(self, m: ConsumerMember) -> set[str]:
        names = set(m.subscribed_topic_names)
        if m.subscribed_topic_regex and self.topics is not None:
            rx = compile_regex(m.subscribed_topic_regex)
            # with an authorizer only the matches the member's principal may DESCRIBE (Kafka's
            # TopicRegexResolver.filterTopicDescribeAuthorizedTopics)
            allowed = getattr(self.topics, "regex_filters", {}).get(self.group_id, {}).get(m.member_id)
            names.update(n for n in self.topics.names() if rx.fullmatch(n) and (allowed is None or allowed(n)))
        return names

    def subscribed_topic_names(self) -> set[str]:
        out: set[str] = set()
        for m in self.members.values():
            out |= self.member_topics(m)
        return out

    def is_subscribed_to_topic(self, topic: str) -> bool:
        return topic in self.subscribed_topic_names()

    # -- ownership ----------------------------------------------------------------------------
    def owner_epoch(self, topic_id: bytes, partition: int) -> int:
        return self.partition_epochs.get((topic_id, partition), -1)

    def _index(self, m: ConsumerMember, add: bool) -> None:
        for parts_by_topic in (m.assigned, m.pending_revocation):
            for tid, parts in parts_by_topic.items():
                for p in parts:
                    if add:
                        self.partition_epochs[(tid, p)] = m.member_epoch
                    else:
                        self.partition_epochs.pop((tid, p), None)

    def set_current_assignment(self, m: ConsumerMember, epoch: int, previous: int, state: int,
                               assigned: TopicPartitions, pending: TopicPartitions) -> None:
        self._index(m, add=False)
        m.member_epoch, m.previous_member_epoch, m.state = epoch, previous, state
        m.assigned = {t: set(p) for t, p in assigned.items() if p}
        m.pending_revocation = {t: set(p) for t, p in pending.items() if p}
        self._index(m, add=True)

    def clear_current_assignment(self, m: ConsumerMember) -> None:
        self._index(m, add=False)
        m.member_epoch = m.previous_member_epoch = 0
        m.state = STABLE
        m.assigned, m.pending_revocation = {}, {}

    # -- validation for the offset and admin APIs ----------------------------------------------
    def validate_offset_commit(self, member_id: str, instance_id: str | None, epoch: int,
                               api_version: int) -> None:
        if epoch < 0 and not self.members:
            return  # admin client, or a consumer without group management
        member = self.members.get(member_id)
        if member is None:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
        if epoch != member.member_epoch:
            raise CoordinatorError(E.STALE_MEMBER_EPOCH if api_version >= 9 else E.UNSUPPORTED_VERSION)

    def validate_offset_fetch(self, member_id: str | None, epoch: int) -> None:
        if epoch >= 0:
            member = self.members.get(member_id or "")
            if member is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
            if epoch != member.member_epoch:
                raise CoordinatorError(E.STALE_MEMBER_EPOCH)

    def validate_offset_delete(self) -> None:
        pass

    def validate_delete_group(self) -> None:
        if self.members:
            raise CoordinatorError(E.NON_EMPTY_GROUP)

    def __repr__(self) -> str:
        return (f"ConsumerGroup({self.group_id!r}, {self.state}, epoch={self.group_epoch}, "
                f"assignment_epoch={self.assignment_epoch}, members={list(self.members)})")
