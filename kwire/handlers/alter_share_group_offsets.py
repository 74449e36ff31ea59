"""AlterShareGroupOffsets (key 91), v0: set share-partition start offsets of an empty share group.

Each named partition starts over at the given offset: its in-flight state is
dropped and the next fetch delivers from there (the new state is written to
``__share_group_state`` at once; on the cluster it is initialized at the share
coordinator at the next state epoch, and the answer waits for that). The group must exist as a share group
(GROUP_ID_NOT_FOUND) and have no members (NON_EMPTY_GROUP), as Kafka answers;
an unknown topic or partition answers UNKNOWN_TOPIC_OR_PARTITION, an offset
outside [log start offset, log end offset] OFFSET_OUT_OF_RANGE (kwire's check;
Kafka clamps at the next fetch). Authorization: READ on the group and on each topic.
"""

from __future__ import annotations

import uuid

from kwire.handlers.share_group_offsets_common import checked_group_error
from kwire.protocol.errors import ErrorCode as E
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.alter_share_group_offsets_response import (
    AlterShareGroupOffsetsResponse, AlterShareGroupOffsetsResponsePartition as Partition,
    AlterShareGroupOffsetsResponseTopic as Topic,
)

API_KEY = 91
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> AlterShareGroupOffsetsResponse:
    gid = req.group_id
    e = checked_group_error(ctx, gid, acl.READ, require_empty=True)
    if e is not None:
        return AlterShareGroupOffsetsResponse(error_code=e.code, error_message=e.message, responses=[])
    broker = ctx.broker
    topics, waits = [], []  # cluster mode: the share coordinators' writes to wait for
    for rt in req.topics:
        t = broker.metadata.topic(rt.topic_name)
        out = Topic(topic_name=rt.topic_name, topic_id=t.topic_id if t is not None else uuid.UUID(int=0),
                    partitions=[])
        for rp in rt.partitions:
            code, pending = E.NONE, None
            if t is None or not 0 <= rp.partition_index < len(t.partitions):
                code = E.UNKNOWN_TOPIC_OR_PARTITION
            elif not authorize(ctx, acl.READ, acl.TOPIC, rt.topic_name):
                code = E.TOPIC_AUTHORIZATION_FAILED
            else:
                plog = broker.get_log(t.name, rp.partition_index)
                if plog is None:
                    code = E.UNKNOWN_TOPIC_OR_PARTITION
                elif not plog.log_start_offset <= rp.start_offset <= plog.log_end_offset:
                    code = E.OFFSET_OUT_OF_RANGE
                else:
                    pending = broker.share_partitions.reset(gid, t.topic_id.bytes, rp.partition_index,
                                                            rp.start_offset)
            part = Partition(partition_index=rp.partition_index, error_code=code)
            if pending is not None:
                waits.append((part, pending))
            out.partitions.append(part)
        topics.append(out)
    response = AlterShareGroupOffsetsResponse(error_code=0, responses=topics)
    return _when_written(waits, response) if waits else response


async def _when_written(waits, response):
    for part, pending in waits:
        part.error_code = await pending
    return response
