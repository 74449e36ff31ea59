"""DescribeShareGroupOffsets (key 90), v0-1: share-partition start offsets of share groups.

Per group: its share partitions' start offsets (the first offset not yet
acknowledged or archived) with, from v1, the lag (records below the high
watermark not yet delivered to completion). ``topics`` null: every partition
the group has state for; a named partition without state answers start offset
-1, an unknown topic UNKNOWN_TOPIC_OR_PARTITION. An unknown group, or one that
is not a share group: GROUP_ID_NOT_FOUND for the group. Leader epochs are -1
(kwire keeps none per share partition). Authorization: DESCRIBE on the group
(GROUP_AUTHORIZATION_FAILED) and on each topic (TOPIC_AUTHORIZATION_FAILED).
"""

from __future__ import annotations

import uuid

from kwire.handlers.share_group_offsets_common import checked_group_error
from kwire.protocol.errors import ErrorCode as E
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.describe_share_group_offsets_response import (
    DescribeShareGroupOffsetsResponse, DescribeShareGroupOffsetsResponseGroup as Group,
    DescribeShareGroupOffsetsResponsePartition as Partition, DescribeShareGroupOffsetsResponseTopic as Topic,
)

API_KEY = 90
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req) -> DescribeShareGroupOffsetsResponse:
    return DescribeShareGroupOffsetsResponse(throttle_time_ms=0, groups=[_group(ctx, g) for g in req.groups])


def _group(ctx, g) -> Group:
    e = checked_group_error(ctx, g.group_id, acl.DESCRIBE, require_empty=False)
    if e is not None:
        return Group(group_id=g.group_id, topics=[], error_code=e.code, error_message=e.message)
    manager = ctx.broker.share_partitions
    md = ctx.broker.metadata
    starts = manager.start_offsets(g.group_id)
    wanted: dict[str, list[int] | None] = {}
    if g.topics is None:
        for tid, p in sorted(starts):
            t = manager.topic_of(tid)
            if t is not None:
                wanted.setdefault(t.name, []).append(p)
    else:
        for t in g.topics:
            wanted[t.topic_name] = list(t.partitions)
    topics = []
    for name, parts in wanted.items():
        t = md.topic(name)
        if t is None or not authorize(ctx, acl.DESCRIBE, acl.TOPIC, name):
            code = E.UNKNOWN_TOPIC_OR_PARTITION if t is None else E.TOPIC_AUTHORIZATION_FAILED
            topics.append(Topic(topic_name=name, partitions=[Partition(partition_index=p, start_offset=-1,
                                                                       leader_epoch=-1, error_code=code)
                                                             for p in parts or []]))
            continue
        tid = t.topic_id.bytes
        out = []
        for p in parts:
            start = starts.get((tid, p), -1)
            out.append(Partition(partition_index=p, start_offset=start, leader_epoch=-1,
                                 lag=manager.lag(g.group_id, tid, p, start) if start >= 0 else -1))
        topics.append(Topic(topic_name=name, topic_id=uuid.UUID(bytes=tid), partitions=out))
    return Group(group_id=g.group_id, topics=topics)
