"""OffsetCommit (key 8), v2-10: store committed offsets of a group.

Partitions of unknown topics answer UNKNOWN_TOPIC_OR_PARTITION (v10, by topic
id: UNKNOWN_TOPIC_ID) and are not stored; the rest go to the coordinator
(``kwire.coordinator.offsets``), which validates the group, member and
generation (classic) or member epoch (KIP-848, v9+), answers
OFFSET_METADATA_TOO_LARGE per partition, and writes one OffsetCommit record per
partition. Commits with generation -1 and no member id ("simple" consumers,
admin tools) are accepted for a missing or Empty group. The metadata string is
stored as given (null as ""). v2-4 ``retention_time_ms`` sets an explicit
expiry; v6+ carries the leader epoch; v7+ group.instance.id; v10 topic ids.
Group-level errors (COORDINATOR_LOAD_IN_PROGRESS, ILLEGAL_GENERATION,
UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS, GROUP_ID_NOT_FOUND...) are answered
for every partition. Not implemented: TxnOffsetCommit.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.coordinator.offsets import Commit
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.offset_commit_response import (
    OffsetCommitResponse,
    OffsetCommitResponsePartition,
    OffsetCommitResponseTopic,
)

API_KEY = 8
MIN_VERSION = 2
MAX_VERSION = 10


def handle(ctx, req) -> OffsetCommitResponse:
    broker = ctx.broker
    md = broker.metadata
    v = ctx.api_version
    by_id = v >= 10
    names: list[str | None] = []
    early: dict[tuple[int, int], int] = {}  # (topic index, partition) -> error, not sent on
    commits = []
    for i, t in enumerate(req.topics):
        topic = md.topic_by_id(t.topic_id) if by_id else md.topic(t.name)
        names.append(topic.name if topic is not None else None)
        # kwire.security: once per topic, as Kafka filters the request's topics
        readable = topic is not None and authorize(ctx, acl.READ, acl.TOPIC, topic.name)
        for p in t.partitions:
            if topic is None:
                early[(i, p.partition_index)] = (ErrorCode.UNKNOWN_TOPIC_ID if by_id
                                                 else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
            elif not readable:
                early[(i, p.partition_index)] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            elif not 0 <= p.partition_index < len(topic.partitions):
                early[(i, p.partition_index)] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            else:
                epoch = p.committed_leader_epoch if v >= 6 else -1
                commits.append(Commit(topic.name, p.partition_index, p.committed_offset, epoch,
                                      p.committed_metadata))
    if not authorize(ctx, acl.READ, acl.GROUP, req.group_id):  # kwire.security: every partition
        return _response(req, names, {}, by_id, ErrorCode.GROUP_AUTHORIZATION_FAILED, {})
    retention = req.retention_time_ms if v <= 4 else -1
    gc = broker.group_coordinator
    group_error = None
    errors: dict = {}
    if commits:
        try:
            errors = gc.run(req.group_id, lambda shard, now: shard.commit_offsets(
                req.group_id, req.generation_id_or_member_epoch, req.member_id, req.group_instance_id,
                retention, commits, v, now))
        except CoordinatorError as e:
            group_error = e.code
    if isinstance(errors, Pending):  # cluster mode: answered once replicated (acks=all)
        return _when_replicated(gc, errors, req, names, early, by_id)
    return _response(req, names, early, by_id, group_error, errors)


async def _when_replicated(gc, pending, req, names, early, by_id) -> OffsetCommitResponse:
    try:
        return _response(req, names, early, by_id, None, await gc.settle(pending))
    except CoordinatorError as e:
        return _response(req, names, early, by_id, e.code, {})


def _response(req, names, early, by_id, group_error, errors) -> OffsetCommitResponse:
    topics = []
    for i, t in enumerate(req.topics):
        parts = []
        for p in t.partitions:
            code = early.get((i, p.partition_index))
            if code is None:
                code = group_error if group_error is not None \
                    else errors.get((names[i], p.partition_index), 0)
            parts.append(OffsetCommitResponsePartition(partition_index=p.partition_index, error_code=code))
        topics.append(OffsetCommitResponseTopic(name=t.name if not by_id else (names[i] or ""),
                                                topic_id=t.topic_id, partitions=parts))
    return OffsetCommitResponse(throttle_time_ms=0, topics=topics)
