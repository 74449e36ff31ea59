"""OffsetFetch (key 9), v1-10: read committed offsets of one or more groups.

v1-7: one group; v2+ a null topic list asks for every committed offset and
errors are top-level (v1 puts them on each partition); v7 ``require_stable``:
a partition with a transactional offset commit pending answers
UNSTABLE_OFFSET_COMMIT (KIP-447); v8+ several groups (KIP-709), each with its own error;
v9+ member id and epoch, checked for KIP-848 consumer groups (STALE_MEMBER_EPOCH,
UNKNOWN_MEMBER_ID); v10 topic ids (unknown ids answer UNKNOWN_TOPIC_ID; fetching
all offsets skips topics that no longer exist). A partition without a committed
offset answers offset -1, leader epoch -1 and metadata "" — also for a group
that does not exist. Metadata strings are returned as committed.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import active as authorizer_active, authorize
from kwire.protocol.generated.offset_fetch_response import (
    OffsetFetchResponse,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartition,
    OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic,
    OffsetFetchResponseTopics,
)

API_KEY = 9
MIN_VERSION = 1
MAX_VERSION = 10


def handle(ctx, req) -> OffsetFetchResponse:
    v = ctx.api_version
    if v >= 8:
        groups = [_fetch_group(ctx, g.group_id, g.topics, g.member_id, g.member_epoch, v >= 10,
                               req.require_stable)
                  for g in req.groups]
        return OffsetFetchResponse(throttle_time_ms=0, groups=groups)
    topics = None if req.topics is None else [(t.name, t.partition_indexes) for t in req.topics]
    error, rows = _fetch(ctx, req.group_id, topics, None, -1, v >= 7 and req.require_stable)
    if error and v >= 2:
        return OffsetFetchResponse(throttle_time_ms=0, error_code=error, topics=[])
    if error:  # v1: no top-level error; every requested partition carries it
        rows = [(t, [(p, -1, -1, "", error) for p in parts]) for t, parts in topics or []]
    return OffsetFetchResponse(throttle_time_ms=0, error_code=0, topics=[
        OffsetFetchResponseTopic(name=t, partitions=[
            OffsetFetchResponsePartition(partition_index=p, committed_offset=o,
                                         committed_leader_epoch=e, metadata=m, error_code=c)
            for p, o, e, m, c in parts])
        for t, parts in rows])


def _fetch(ctx, group_id, topics, member_id, member_epoch, require_stable=False):
    if not authorize(ctx, acl.DESCRIBE, acl.GROUP, group_id):  # kwire.security
        return ErrorCode.GROUP_AUTHORIZATION_FAILED, []
    gc = ctx.broker.group_coordinator
    try:
        rows = gc.run(group_id, lambda shard, now: shard.fetch_offsets(group_id, topics, member_id,
                                                                      member_epoch, require_stable))
    except CoordinatorError as e:
        return e.code, []
    rows = [(t, [tuple(f) for f in parts]) for t, parts in rows]
    if authorizer_active(ctx) is not None:  # topics it may not DESCRIBE: refused if named, else left out
        rows = [(t, parts if authorize(ctx, acl.DESCRIBE, acl.TOPIC, t) else
                 [(f[0], -1, -1, "", ErrorCode.TOPIC_AUTHORIZATION_FAILED) for f in parts])
                for t, parts in rows if topics is not None or authorize(ctx, acl.DESCRIBE, acl.TOPIC, t)]
    return 0, rows


def _fetch_group(ctx, group_id, req_topics, member_id, member_epoch, by_id,
                 require_stable=False) -> OffsetFetchResponseGroup:
    md = ctx.broker.metadata
    unknown_ids = []  # (topic_id, partitions) of ids that name no topic
    topics = None
    if req_topics is not None:
        topics = []
        for t in req_topics:
            if by_id:
                topic = md.topic_by_id(t.topic_id)
                if topic is None:
                    unknown_ids.append((t.topic_id, t.partition_indexes))
                    continue
                topics.append((topic.name, t.partition_indexes))
            else:
                topics.append((t.name, t.partition_indexes))
    error, rows = _fetch(ctx, group_id, topics, member_id, member_epoch, require_stable)
    if error:
        return OffsetFetchResponseGroup(group_id=group_id, topics=[], error_code=error)
    out = []
    for name, parts in rows:
        topic_id = None
        if by_id:
            topic = md.topic(name)
            if topic is None:
                continue  # deleted since the commit: it has no id to answer with
            topic_id = topic.topic_id
        out.append(_topic(name, topic_id, parts))
    for topic_id, partitions in unknown_ids:
        out.append(_topic("", topic_id, [(p, -1, -1, "", ErrorCode.UNKNOWN_TOPIC_ID) for p in partitions]))
    return OffsetFetchResponseGroup(group_id=group_id, topics=out, error_code=0)


def _topic(name, topic_id, parts) -> OffsetFetchResponseTopics:
    kw = {"topic_id": topic_id} if topic_id is not None else {}
    return OffsetFetchResponseTopics(name=name, partitions=[
        OffsetFetchResponsePartitions(partition_index=p, committed_offset=o, committed_leader_epoch=e,
                                      metadata=m, error_code=c)
        for p, o, e, m, c in parts], **kw)
