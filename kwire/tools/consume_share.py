"""``kwire consume --share-group G``: read a topic as a member of share group G (KIP-932).

The member joins with ShareGroupHeartbeat (epoch 0, subscribed to ``--topic``;
it picks its own member id, as Kafka 4.1+ clients do) and follows the
assignment the coordinator sends; a partition may be assigned to several
members at once, records are handed out one member at a time.

Reading is ShareFetch to each assigned partition's leader, in one share
session per leader (epoch 0 opens it, each good request moves the epoch on,
new partitions are named, revoked ones go in ``forgotten_topics_data``).
Only the records the broker says this member acquired are printed; the tool
then ACCEPTs each printed record, piggy-backed on the next ShareFetch to that
leader. Offsets it acquired but has nothing to print for are acknowledged as
well: control records ACCEPT, offsets missing inside the batches (compacted
away) GAP, offsets past the batches received RELEASE. Records acquired beyond ``--max-messages`` are RELEASEd, so
another member gets them at once.

On exit (``--max-messages``, ``--timeout-ms``, Ctrl-C, SIGTERM; a signal that
comes during a ShareFetch takes effect once it is answered, so that the
connection, and with it the share session, survives) the pending
acknowledgements go in a ShareAcknowledge with epoch -1, which also closes
each share session (the broker releases whatever else the member holds), and
the member leaves with a heartbeat of epoch -1. ``--verbose`` prints joins and
assignment changes to stderr.

Where a share group starts reading is the group's ``share.auto.offset.reset``
config (``latest`` by default, set with IncrementalAlterConfigs on the GROUP
resource), not the tool's options: ``--share-group`` refuses ``--group``,
``--partition``, ``--offset``, ``--timestamp`` and ``--from-beginning`` (exit 2).

Errors: a fenced member (UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH) joins again;
coordinator moves are retried; a lost share session (SHARE_SESSION_NOT_FOUND,
INVALID_SHARE_SESSION_EPOCH) is opened again, and the acknowledgements it
carried are dropped (those records come back after their lock expires);
leader moves refresh the metadata. Other errors end the tool.

What this module does not do: RELEASE / REJECT on the user's request, lock
renewal (RENEW), read_committed (that is the group's ``share.isolation.level``,
applied by the broker), regex subscriptions. Output formats are
kwire.tools.consume's.
"""

from __future__ import annotations

import signal
import threading
import time
import uuid
from contextlib import contextmanager

from kwire.client import KafkaClient, KafkaClientError, TopicInfo
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.share_acknowledge_request import (
    AcknowledgePartition,
    AcknowledgeTopic,
    ShareAcknowledgeRequest,
)
from kwire.protocol.generated.share_acknowledge_request import (
    AcknowledgementBatch as AckBatch,
)
from kwire.protocol.generated.share_fetch_request import (
    AcknowledgementBatch,
    FetchPartition,
    FetchTopic,
    ForgottenTopic,
    ShareFetchRequest,
)
from kwire.protocol.generated.share_group_heartbeat_request import ShareGroupHeartbeatRequest
from kwire.records.decode import CorruptRecordError, decode_batches

from .common import ToolError, UsageError
from .consume_group import _FENCED, _RETRY, MemberBase

API_SHARE_GROUP_HEARTBEAT, API_SHARE_FETCH, API_SHARE_ACKNOWLEDGE = 76, 78, 79
GAP, ACCEPT, RELEASE = 0, 1, 2
MAX_RECORDS = 500  # Kafka's max.poll.records

_SESSION_LOST = {ErrorCode.SHARE_SESSION_NOT_FOUND, ErrorCode.INVALID_SHARE_SESSION_EPOCH}
_LEADER_MOVED = {ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                 ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.LEADER_NOT_AVAILABLE}


def check_share_args(args) -> None:
    """Refuse the options a share-group member cannot honour (exit 2)."""
    if args.group is not None:
        raise UsageError("Options share-group and group cannot be specified together.")
    if args.partition is not None:
        raise UsageError("Options share-group and partition cannot be specified together "
                         "(the share group assigns the partitions).")
    for option, given in (("from-beginning", args.from_beginning), ("offset", args.offset is not None),
                          ("timestamp", args.timestamp is not None)):
        if given:
            raise UsageError(f"Options share-group and {option} cannot be specified together "
                             "(a share group starts where its share.auto.offset.reset config says: "
                             "latest by default; set it to earliest on the group to read from the start).")


def _runs(acks: dict[int, int]) -> list[tuple[int, int, int]]:
    """{offset: type} -> [(first, last, type)] of consecutive offsets with the same type."""
    out: list[list[int]] = []
    for offset in sorted(acks):
        kind = acks[offset]
        if out and out[-1][1] == offset - 1 and out[-1][2] == kind:
            out[-1][1] = offset
        else:
            out.append([offset, offset, kind])
    return [(a, z, k) for a, z, k in out]


class _Session:
    """This member's share session on one leader: the next epoch and the partitions in it."""

    __slots__ = ("epoch", "partitions")

    def __init__(self) -> None:
        self.epoch = 0
        self.partitions: set[int] = set()

    def bump(self) -> None:
        self.epoch = 1 if self.epoch >= 2**31 - 1 else self.epoch + 1


class ShareMember(MemberBase):
    """One member of a share group reading one topic with kwire's client.

    ``poll()`` heartbeats when due and returns how many milliseconds the caller
    may block; ``fetch(wait_ms, max_records)`` returns ``[(partition, records,
    acquired ranges)]``; ``ack(partition, offset, type)`` queues an
    acknowledgement for the next request to that partition's leader;
    ``close()`` sends the queued ones with epoch -1 and leaves.
    """

    kind = "share group"

    def __init__(self, client: KafkaClient, group_id: str, topic: TopicInfo, *, verbose: bool = False,
                 prog: str = "kwire consume") -> None:
        self.client = client
        self.group_id = group_id
        self.topic = topic
        self.verbose = verbose
        self.prog = prog
        self.member_id = str(uuid.uuid4())
        self.epoch = 0
        self.owned: set[int] = set()
        self.next_heartbeat = 0.0
        self.refresh = False
        self.joined = False
        self.sessions: dict[int, _Session] = {}  # leader node -> session
        self.leaders: dict[int, int] = {}  # partition -> the leader its session is on
        self.forgotten: dict[int, set[int]] = {}  # leader -> partitions to drop from its session
        self.pending: dict[int, dict[int, int]] = {}  # partition -> {offset: ack type}

    # -- membership -------------------------------------------------------------------------------
    def poll(self) -> int:
        if time.monotonic() >= self.next_heartbeat:
            self._heartbeat()
        return max(0, int((self.next_heartbeat - time.monotonic()) * 1000))

    def _heartbeat(self) -> None:
        joining = self.epoch == 0
        try:
            node = self.client.find_coordinator(self.group_id, refresh=self.refresh)
            self.refresh = False
            resp = self.client.request(API_SHARE_GROUP_HEARTBEAT, ShareGroupHeartbeatRequest(
                group_id=self.group_id, member_id=self.member_id, member_epoch=self.epoch,
                subscribed_topic_names=[self.topic.name] if joining else None), node=node)
        except KafkaClientError as e:
            if e.code and e.code not in _RETRY:
                raise
            self._retry_soon(str(e))
            return
        code = resp.error_code
        if code in _RETRY:
            self._retry_soon(resp.error_message or ErrorCode(code).name)
            return
        if code in _FENCED:
            self._say(f"fenced ({resp.error_message or ErrorCode(code).name}); joining again")
            self._assign(set())
            self.epoch = 0
            self.joined = False
            self.next_heartbeat = 0.0
            return
        if code:
            raise KafkaClientError(code, resp.error_message)
        if resp.member_id:
            self.member_id = resp.member_id
        self.epoch = resp.member_epoch
        self.next_heartbeat = time.monotonic() + max(resp.heartbeat_interval_ms, 100) / 1000
        if not self.joined:
            self.joined = True
            self._say(f"joined as member {self.member_id} (epoch {self.epoch})")
        if resp.assignment is not None:
            self._assign({p for tp in resp.assignment.topic_partitions or ()
                          if tp.topic_id == self.topic.topic_id for p in tp.partitions})

    def _assign(self, target: set[int]) -> None:
        revoked, added = self.owned - target, target - self.owned
        for p in sorted(revoked):
            node = self.leaders.pop(p, None)
            if node is None:
                continue
            if self.pending.get(p):
                self._acknowledge(node, {p: self.pending.pop(p)})
            self.forgotten.setdefault(node, set()).add(p)
        if revoked:
            self._say(f"partitions revoked: {self._names(revoked)}")
        if added:
            self._say(f"partitions assigned: {self._names(added)}")
        self.owned = set(target)

    # -- reading and acknowledging ----------------------------------------------------------------------
    def ack(self, partition: int, offset: int, kind: int) -> None:
        self.pending.setdefault(partition, {})[offset] = kind

    def _leader(self, p: int) -> int:
        info = self.topic.partitions.get(p)
        if info is None or info.leader < 0:
            self.topic = self.client.topic(self.topic.name)
            info = self.topic.partitions.get(p)
        if info is None or info.leader < 0:
            raise KafkaClientError(ErrorCode.LEADER_NOT_AVAILABLE, f"no leader for {self.topic.name}-{p}")
        return info.leader

    def fetch(self, wait_ms: int, max_records: int) -> list[tuple[int, bytes, list]]:
        by_leader: dict[int, list[int]] = {}
        for p in sorted(self.owned):
            by_leader.setdefault(self._leader(p), []).append(p)
        out = []
        last = len(by_leader) - 1
        for i, (node, parts) in enumerate(by_leader.items()):
            # only the last leader may hold the request (the others answer at once)
            out += self._fetch_from(node, parts, wait_ms if i == last else 0, max_records)
        return out

    def _fetch_from(self, node: int, parts: list[int], wait_ms: int, max_records: int) -> list:
        s = self.sessions.setdefault(node, _Session())
        tid = self.topic.topic_id
        name_all = s.epoch == 0
        named = [p for p in parts if name_all or p not in s.partitions or self.pending.get(p)]
        # taken off the queue before sending: a request interrupted after it went out was applied
        acks = {p: self.pending.pop(p, None) or {} for p in named} if not name_all else {}
        forgotten = sorted(self.forgotten.pop(node, set()) - set(parts))
        req = ShareFetchRequest(
            group_id=self.group_id, member_id=self.member_id, share_session_epoch=s.epoch,
            max_wait_ms=wait_ms, min_bytes=1, max_records=max_records, batch_size=max_records,
            topics=[FetchTopic(topic_id=tid, partitions=[FetchPartition(
                partition_index=p, acknowledgement_batches=[
                    AcknowledgementBatch(first_offset=a, last_offset=z, acknowledge_types=[k])
                    for a, z, k in _runs(acks.get(p) or {})]) for p in named])] if named else [],
            forgotten_topics_data=[ForgottenTopic(topic_id=tid, partitions=forgotten)]
            if forgotten and not name_all else [])
        resp = self.client.request(API_SHARE_FETCH, req, node=node, wait_s=wait_ms / 1000)
        if resp.error_code in _SESSION_LOST:
            self._say(f"share session on broker {node} lost ({ErrorCode(resp.error_code).name}); "
                      "opening a new one")
            self.sessions.pop(node, None)
            for p in parts:
                self.pending.pop(p, None)  # their records come back when the locks expire
            return []
        if resp.error_code:
            raise KafkaClientError(resp.error_code, resp.error_message)
        s.bump()
        s.partitions.update(named)
        s.partitions.difference_update(forgotten)
        for p in named:
            self.leaders[p] = node
        out = []
        for tr in resp.responses or ():
            if tr.topic_id != tid:
                continue
            for pd in tr.partitions or ():
                p = pd.partition_index
                if pd.acknowledge_error_code:
                    self._warn(f"acknowledging records of {self.topic.name}-{p} failed: "
                               f"{ErrorCode(pd.acknowledge_error_code).name}")
                if pd.error_code in _LEADER_MOVED:
                    self.topic = self.client.topic(self.topic.name)
                    self.sessions.pop(node, None)  # start afresh; the broker releases what it held
                    self.pending.pop(p, None)
                    continue
                if pd.error_code:
                    raise KafkaClientError(pd.error_code, pd.error_message or f"{self.topic.name}-{p}")
                if pd.acquired_records:
                    out.append((p, bytes(pd.records or b""),
                                [(a.first_offset, a.last_offset) for a in pd.acquired_records]))
        return out

    def _acknowledge(self, node: int, acks: dict[int, dict[int, int]], final: bool = False) -> None:
        """ShareAcknowledge of ``acks`` ({partition: {offset: type}}) on ``node``'s session."""
        s = self.sessions.get(node)
        if s is None or s.epoch == 0:
            return  # no session there: nothing acquired, nothing to acknowledge
        req = ShareAcknowledgeRequest(
            group_id=self.group_id, member_id=self.member_id, share_session_epoch=-1 if final else s.epoch,
            topics=[AcknowledgeTopic(topic_id=self.topic.topic_id, partitions=[AcknowledgePartition(
                partition_index=p, acknowledgement_batches=[
                    AckBatch(first_offset=a, last_offset=z, acknowledge_types=[k]) for a, z, k in _runs(offsets)])
                for p, offsets in sorted(acks.items()) if offsets])] if any(acks.values()) else [])
        resp = self.client.request(API_SHARE_ACKNOWLEDGE, req, node=node)
        if resp.error_code:
            self._warn(f"acknowledging on broker {node} failed: {ErrorCode(resp.error_code).name}")
            return
        s.bump()
        for tr in resp.responses or ():
            for pd in tr.partitions or ():
                if pd.error_code:
                    self._warn(f"acknowledging records of {self.topic.name}-{pd.partition_index} failed: "
                               f"{ErrorCode(pd.error_code).name}")

    def close(self) -> None:
        """Acknowledge what is pending and close every share session (epoch -1), then leave."""
        for node in list(self.sessions):
            acks = {p: self.pending.pop(p) for p in list(self.pending) if self.leaders.get(p) == node}
            try:
                self._acknowledge(node, acks, final=True)
            except KafkaClientError as e:
                self._warn(f"closing the share session on broker {node} failed: {e}")
        self.sessions.clear()
        if self.epoch > 0:
            try:
                node = self.client.find_coordinator(self.group_id)
                self.client.request(API_SHARE_GROUP_HEARTBEAT, ShareGroupHeartbeatRequest(
                    group_id=self.group_id, member_id=self.member_id, member_epoch=-1), node=node)
            except KafkaClientError:
                pass  # the session times out instead
            self._say("left the group" + (f"; partitions revoked: {self._names(self.owned)}"
                                          if self.owned else ""))
        self.owned = set()
        self.epoch = -1


def consume_shared(client: KafkaClient, args, info: TopicInfo, formatter, out, prog: str) -> int:
    """Print what the share group hands this member until a stop condition; returns the count."""
    member = ShareMember(client, args.share_group, info, verbose=args.verbose, prog=prog)
    count = 0
    try:
        count = _loop(member, args, formatter, out)
    finally:
        try:
            member.close()
        except KeyboardInterrupt:
            pass
    return count


@contextmanager
def _interrupts_after_the_answer():
    """Ctrl-C / SIGTERM during a (long-polling) ShareFetch take effect once it is answered
    (``--max-wait-ms`` at most): interrupted, the client would drop the connection, and the
    broker evicts the share sessions of a closed connection (as Kafka does), releasing what
    the member holds, so the final acknowledgement would find no session."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig in previous:
        signal.signal(sig, lambda signum, _frame: held.append(signum))
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if held:
        raise KeyboardInterrupt


def _loop(member: ShareMember, args, formatter, out) -> int:
    topic = args.topic
    limit = args.max_messages
    timeout_s = None if args.timeout_ms is None else args.timeout_ms / 1000
    count = 0
    last_record = time.monotonic()
    try:
        while True:
            wait_ms = args.max_wait_ms
            if timeout_s is not None:
                left = timeout_s - (time.monotonic() - last_record)
                if left <= 0:
                    return count
                wait_ms = max(0, min(wait_ms, int(left * 1000)))
            wait_ms = min(wait_ms, member.poll())
            if not member.owned:
                time.sleep(min(wait_ms, 100) / 1000)
                continue
            want = MAX_RECORDS if limit is None else min(MAX_RECORDS, limit - count)
            printed = 0
            with _interrupts_after_the_answer():
                fetched = member.fetch(wait_ms, want)
            for p, records, ranges in fetched:
                try:
                    batches = decode_batches(records, allow_truncated=True)
                except CorruptRecordError as e:
                    raise ToolError(f"corrupt data fetched from {topic}-{p}: {e}") from None
                acquired = {o for a, z in ranges for o in range(a, z + 1)}
                covered = -1  # the last offset of the batches decoded (a truncated one is not)
                for b in batches:
                    h = b.header
                    covered = max(covered, h.base_offset + h.last_offset_delta)
                    ts_type = "LogAppendTime" if h.timestamp_type else "CreateTime"
                    for r in b.records:
                        if r.offset not in acquired:
                            continue
                        acquired.discard(r.offset)
                        if h.is_control:
                            member.ack(p, r.offset, ACCEPT)
                        elif limit is not None and count >= limit:
                            member.ack(p, r.offset, RELEASE)  # someone else's now
                        else:
                            out.write(formatter(topic, p, r, ts_type))
                            member.ack(p, r.offset, ACCEPT)  # sent after the flush below
                            count += 1
                            printed += 1
                for o in acquired:  # no record: compacted away (GAP), or not received (RELEASE)
                    member.ack(p, o, GAP if o <= covered else RELEASE)
            if printed:
                out.flush()
                last_record = time.monotonic()
            if limit is not None and count >= limit:
                return count
    except KeyboardInterrupt:
        return count
