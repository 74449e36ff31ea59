"""DescribeShareGroupOffsets (key 90), v0-1: share-partition start offsets of share groups.

Per group: its share partitions' start offsets (the first offset not yet
acknowledged or archived) with, from v1, the lag (records below the high
watermark not yet delivered to completion: high watermark - start offset -
delivery complete count, as Kafka computes it; -1 when this broker holds no
replica of the partition). The state is read from the share coordinators
(``SharePartitionManager.offsets``: on the cluster ReadShareGroupStateSummary
to each key's coordinator; an error there is that partition's error).
``topics`` null: every partition the group has state for; a named partition
without state answers start offset -1, an unknown topic
UNKNOWN_TOPIC_OR_PARTITION. An unknown group, or one that is not a share group:
GROUP_ID_NOT_FOUND for the group. Leader epochs are -1 (kwire keeps none per
share partition). Authorization: DESCRIBE on the group
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


async def handle(ctx, req) -> DescribeShareGroupOffsetsResponse:
    return DescribeShareGroupOffsetsResponse(throttle_time_ms=0, groups=[await _group(ctx, g) for g in req.groups])


async def _group(ctx, g) -> Group:
    e = checked_group_error(ctx, g.group_id, acl.DESCRIBE, require_empty=False)
    if e is not None:
        return Group(group_id=g.group_id, topics=[], error_code=e.code, error_message=e.message)
    manager = ctx.broker.share_partitions
    md = ctx.broker.metadata
    topics, keys = [], []
    if g.topics is None:
        wanted = None  # every share partition that has state
        keys = [(tid, p) for tid, p in manager.keys_of(g.group_id)
                if (t := manager.topic_of(tid)) is not None and authorize(ctx, acl.DESCRIBE, acl.TOPIC, t.name)]
    else:
        wanted = {}
        for rt in g.topics:
            t = md.topic(rt.topic_name)
            if t is None or not authorize(ctx, acl.DESCRIBE, acl.TOPIC, rt.topic_name):
                code = E.UNKNOWN_TOPIC_OR_PARTITION if t is None else E.TOPIC_AUTHORIZATION_FAILED
                topics.append(Topic(topic_name=rt.topic_name, partitions=[
                    Partition(partition_index=p, start_offset=-1, leader_epoch=-1, error_code=code)
                    for p in rt.partitions or []]))
                continue
            wanted[t.topic_id.bytes] = list(rt.partitions)
            keys += [(t.topic_id.bytes, p) for p in rt.partitions]
    found = await manager.offsets(g.group_id, keys)
    by_topic: dict[bytes, list[Partition]] = {}
    for (tid, p), (code, payload) in found.items():
        if wanted is None and code == E.UNKNOWN_TOPIC_OR_PARTITION:
            continue  # never initialized: not the group's
        part = Partition(partition_index=p, start_offset=-1, leader_epoch=-1)
        if code == E.NONE:
            start, complete = payload
            hwm = manager.high_watermark(tid, p)
            part.start_offset = start
            part.lag = -1 if hwm is None else max(0, hwm - start - max(complete, 0))
        elif code != E.UNKNOWN_TOPIC_OR_PARTITION:  # a named partition never initialized: -1
            part.error_code, part.error_message = code, f"The share-group state could not be read: {code.name}."
        by_topic.setdefault(tid, []).append(part)
    for tid, parts in by_topic.items():
        t = manager.topic_of(tid)
        if t is not None:
            topics.append(Topic(topic_name=t.name, topic_id=uuid.UUID(bytes=tid), partitions=parts))
    return Group(group_id=g.group_id, topics=topics)
