"""``kwire consume --group G``: read a topic as a member of consumer group G, like Kafka's console consumer.

The member joins with the KIP-848 consumer group protocol (ConsumerGroupHeartbeat):
it subscribes to ``--topic``, the coordinator assigns it partitions, and the
member follows every change of its assignment:

* newly assigned partitions start at the group's committed offset, or, for a
  partition without one, at the log start with ``--from-beginning`` and at the
  end otherwise (the console consumer's ``auto.offset.reset``);
* before a partition is given up (revoked) its position is committed, then the
  revocation is acknowledged in the next heartbeat, so the next owner resumes
  exactly there;
* positions are committed every ``--commit-interval-ms`` (5000, Kafka's
  ``auto.commit.interval.ms``) when they moved, and on exit (``--max-messages``,
  ``--timeout-ms``, Ctrl-C, SIGTERM), after which the member leaves the group
  (epoch -1) so the others take its partitions at once;
* ``--verbose`` prints each change of the assignment to stderr.

A member fenced by the coordinator (UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH,
e.g. after a pause past the session timeout) loses its partitions without
committing, as Kafka's consumer does, and joins again. Coordinator moves
(NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS)
are retried; other errors (authorization, a classic group of the same name)
end the tool with the error.

Bad input, as kafka-console-consumer.sh refuses it: ``--group`` with
``--partition`` ("Options group and partition cannot be specified together."),
and with ``--offset`` / ``--timestamp`` (a group starts where it committed).

What this module does not do: the classic group protocol (JoinGroup /
SyncGroup), regex subscriptions, static membership; ``--share-group`` is
kwire.tools.consume_share.
The printing and fetching loop is kwire.tools.consume's.
"""

from __future__ import annotations

import sys
import time
import uuid

from kwire.client import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, KafkaClient, KafkaClientError, TopicInfo
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.consumer_group_heartbeat_request import (
    ConsumerGroupHeartbeatRequest,
    TopicPartitions,
)

from .common import UsageError

API_CONSUMER_GROUP_HEARTBEAT = 68
DEFAULT_COMMIT_INTERVAL_MS = 5000
REBALANCE_TIMEOUT_MS = 30000
RETRY_BACKOFF_S = 0.2

_RETRY = {ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE,
          ErrorCode.COORDINATOR_LOAD_IN_PROGRESS}
_FENCED = {ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.FENCED_MEMBER_EPOCH}


def check_group_args(args) -> None:
    """Refuse what a group member cannot do, in kafka-console-consumer.sh's words."""
    if args.partition is not None:
        raise UsageError("Options group and partition cannot be specified together.")
    for option, value in (("offset", args.offset), ("timestamp", args.timestamp)):
        if value is not None:
            raise UsageError(f"Options group and {option} cannot be specified together "
                             "(a group member starts at the group's committed offsets).")


class MemberBase:
    """What a group member and a share-group member (kwire.tools.consume_share) have in common:
    backing off when the coordinator is away, and what they say on stderr (``_say`` with
    --verbose, ``_warn`` always). Needs ``prog``, ``group_id``, ``topic``, ``verbose``,
    ``refresh`` and ``next_heartbeat``."""

    kind = "group"

    def _retry_soon(self, why: str) -> None:
        self.refresh = True  # the next heartbeat looks the coordinator up again
        self.next_heartbeat = time.monotonic() + RETRY_BACKOFF_S
        self._say(f"coordinator not available ({why}); retrying")

    def _names(self, partitions) -> str:
        return ", ".join(f"{self.topic.name}-{p}" for p in sorted(partitions))

    def _say(self, text: str) -> None:
        if self.verbose:
            print(f"{self.prog}: {self.kind} {self.group_id}: {text}", file=sys.stderr, flush=True)

    def _warn(self, text: str) -> None:
        print(f"{self.prog}: warning: {self.kind} {self.group_id}: {text}", file=sys.stderr, flush=True)


class GroupMember(MemberBase):
    """One member of a KIP-848 consumer group reading one topic; owns ``positions`` entries.

    ``poll(positions)`` heartbeats and commits when due and applies assignment
    changes to ``positions`` (partition -> next offset to read); it returns how
    many milliseconds the caller may block before calling it again.
    ``close(positions)`` commits and leaves.
    """

    def __init__(self, client: KafkaClient, group_id: str, topic: TopicInfo, *, from_beginning: bool,
                 verbose: bool = False, commit_interval_ms: int = DEFAULT_COMMIT_INTERVAL_MS,
                 prog: str = "kwire consume") -> None:
        self.client = client
        self.group_id = group_id
        self.topic = topic
        self.reset = EARLIEST_TIMESTAMP if from_beginning else LATEST_TIMESTAMP
        self.verbose = verbose
        self.commit_interval_s = commit_interval_ms / 1000
        self.prog = prog
        self.member_id = ""
        self.epoch = 0
        self.owned: set[int] = set()
        self.interval_s = 0.0
        self.next_heartbeat = 0.0  # monotonic time; 0: now
        self.next_commit = time.monotonic() + self.commit_interval_s
        self.committed: dict[int, int] = {}  # what this member last committed per partition
        self.joined = False
        self.refresh = False

    # -- the protocol ---------------------------------------------------------------------------
    def poll(self, positions: dict[int, int]) -> int:
        now = time.monotonic()
        if now >= self.next_heartbeat:
            self._heartbeat(positions)
            now = time.monotonic()
        if now >= self.next_commit:
            self.commit(positions, quiet=True)
            self.next_commit = now + self.commit_interval_s
        due = min(self.next_heartbeat, self.next_commit) - time.monotonic()
        return max(0, int(due * 1000))

    def _heartbeat(self, positions: dict[int, int]) -> None:
        joining = self.epoch == 0
        node = self.client.find_coordinator(self.group_id, refresh=self.refresh)
        self.refresh = False
        version = self.client.api_version(API_CONSUMER_GROUP_HEARTBEAT, node)
        if joining and not self.member_id and version >= 1:
            self.member_id = str(uuid.uuid4())  # v1 (KIP-1082): the member picks its id
        req = ConsumerGroupHeartbeatRequest(
            group_id=self.group_id, member_id=self.member_id, member_epoch=self.epoch,
            rebalance_timeout_ms=REBALANCE_TIMEOUT_MS if joining else -1,
            subscribed_topic_names=[self.topic.name] if joining else None,
            topic_partitions=[TopicPartitions(topic_id=self.topic.topic_id, partitions=sorted(self.owned))]
            if self.owned else [])
        try:
            resp = self.client.request(API_CONSUMER_GROUP_HEARTBEAT, req, node=node, version=version)
        except KafkaClientError as e:  # the connection to the coordinator: look it up again
            self._retry_soon(str(e))
            return
        code = resp.error_code
        if code in _RETRY:
            self._retry_soon(resp.error_message or ErrorCode(code).name)
            return
        if code in _FENCED:
            self._lost(positions, resp.error_message or ErrorCode(code).name)
            return
        if code:
            raise KafkaClientError(code, resp.error_message)
        if resp.member_id:
            self.member_id = resp.member_id
        self.epoch = resp.member_epoch
        self.interval_s = max(resp.heartbeat_interval_ms, 100) / 1000
        self.next_heartbeat = time.monotonic() + self.interval_s
        if not self.joined:
            self.joined = True
            self._say(f"joined as member {self.member_id} (epoch {self.epoch})")
        if resp.assignment is not None:
            target = {p for tp in resp.assignment.topic_partitions or ()
                      if tp.topic_id == self.topic.topic_id for p in tp.partitions}
            if target != self.owned:
                self._reassign(positions, target)
                self.next_heartbeat = 0.0  # acknowledge the new ownership at once

    def _lost(self, positions: dict[int, int], why: str) -> None:
        if self.owned:
            self._say(f"partitions lost ({why}): {self._names(self.owned)}")
        for p in self.owned:
            positions.pop(p, None)
        self.owned = set()
        self.epoch = 0
        self.joined = False
        self.next_heartbeat = 0.0

    def _reassign(self, positions: dict[int, int], target: set[int]) -> None:
        revoked = self.owned - target
        if revoked:
            self.commit({p: positions[p] for p in revoked if p in positions})
            for p in revoked:
                positions.pop(p, None)
            self._say(f"partitions revoked: {self._names(revoked)}")
        added = target - self.owned
        if added:
            positions.update(self._start_offsets(sorted(added)))
            self._say(f"partitions assigned: {self._names(added)}")
        self.owned = set(target)

    def _start_offsets(self, partitions: list[int]) -> dict[int, int]:
        name = self.topic.name
        committed = self.client.offset_fetch(self.group_id, {name: partitions})
        out = {p: committed[(name, p)].offset for p in partitions if (name, p) in committed}
        missing = [p for p in partitions if p not in out]
        if missing:
            found = self.client.list_offsets_many(name, dict.fromkeys(missing, self.reset))
            out.update({p: found[p][0] for p in missing})
        self.committed.update({p: o for p, o in out.items() if p not in missing})
        return out

    # -- commits and leaving -----------------------------------------------------------------------
    def commit(self, positions: dict[int, int], quiet: bool = False) -> None:
        """Commit the positions of owned partitions that moved since this member's last commit."""
        due = {p: o for p, o in positions.items() if p in self.owned and self.committed.get(p) != o}
        if not due or self.epoch <= 0:
            return
        try:
            self.client.offset_commit(self.group_id, {(self.topic.name, p): o for p, o in due.items()},
                                      member_id=self.member_id, member_epoch=self.epoch)
        except KafkaClientError as e:
            if not quiet:
                print(f"{self.prog}: warning: committing offsets of group {self.group_id!r} failed: {e}",
                      file=sys.stderr)
            return
        self.committed.update(due)

    def close(self, positions: dict[int, int]) -> None:
        """Commit what was read and leave the group (epoch -1), as the console consumer's close()."""
        if self.epoch <= 0:
            return
        self.commit(positions)
        try:
            node = self.client.find_coordinator(self.group_id)
            self.client.request(API_CONSUMER_GROUP_HEARTBEAT, ConsumerGroupHeartbeatRequest(
                group_id=self.group_id, member_id=self.member_id, member_epoch=-1), node=node)
        except KafkaClientError:
            pass  # the session times out instead
        if self.owned:
            self._say(f"left the group; partitions revoked: {self._names(self.owned)}")
        self.owned = set()
        self.epoch = -1
