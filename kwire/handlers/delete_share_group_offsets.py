"""DeleteShareGroupOffsets (key 92), v0: forget an empty share group's state for whole topics.

The share partitions of each named topic lose their state (in memory and in
``__share_group_state``; on the cluster DeleteShareGroupState goes to the share
coordinator of each partition, and a partition's error there is the topic's);
the group's next fetch starts them again by ``share.auto.offset.reset``. The group must exist as a share group
(GROUP_ID_NOT_FOUND) and have no members (NON_EMPTY_GROUP); an unknown topic
answers UNKNOWN_TOPIC_OR_PARTITION. Authorization: DELETE on the group, READ
on each topic.
"""

from __future__ import annotations

import uuid

from kwire.handlers.share_group_offsets_common import checked_group_error
from kwire.protocol.errors import ErrorCode as E
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.delete_share_group_offsets_response import (
    DeleteShareGroupOffsetsResponse, DeleteShareGroupOffsetsResponseTopic as Topic,
)

API_KEY = 92
MIN_VERSION = 0
MAX_VERSION = 0


async def handle(ctx, req) -> DeleteShareGroupOffsetsResponse:
    gid = req.group_id
    e = checked_group_error(ctx, gid, acl.DELETE, require_empty=True)
    if e is not None:
        return DeleteShareGroupOffsetsResponse(error_code=e.code, error_message=e.message, responses=[])
    manager = ctx.broker.share_partitions
    out = []
    for rt in req.topics:
        t = ctx.broker.metadata.topic(rt.topic_name)
        if t is None:
            out.append(Topic(topic_name=rt.topic_name, topic_id=uuid.UUID(int=0),
                             error_code=E.UNKNOWN_TOPIC_OR_PARTITION))
        elif not authorize(ctx, acl.READ, acl.TOPIC, rt.topic_name):
            out.append(Topic(topic_name=rt.topic_name, topic_id=t.topic_id, error_code=E.TOPIC_AUTHORIZATION_FAILED))
        else:
            codes = await manager.delete_states(gid, manager.keys_of(gid, {t.topic_id.bytes}))
            code = next((c for c in codes.values() if c), E.NONE)
            out.append(Topic(topic_name=rt.topic_name, topic_id=t.topic_id, error_code=code,
                             error_message=f"The share-group state was not deleted: {code.name}." if code else None))
    return DeleteShareGroupOffsetsResponse(error_code=0, responses=out)
