"""OffsetDelete (key 47), v0: delete a group's committed offsets for some partitions.

Top-level errors: GROUP_ID_NOT_FOUND (unknown or dead group), NON_EMPTY_GROUP (a
group with members that does not use the consumer protocol, so its
subscriptions are unknown), COORDINATOR_LOAD_IN_PROGRESS. Per partition:
GROUP_SUBSCRIBED_TO_TOPIC for topics an active consumer group subscribes to,
UNKNOWN_TOPIC_OR_PARTITION for topics or partitions that do not exist.
Deleting an offset that was never committed succeeds.

Authorization (Kafka's KafkaApis): DELETE on the group, else the whole request
is GROUP_AUTHORIZATION_FAILED; then READ on each topic, else that topic's
partitions answer TOPIC_AUTHORIZATION_FAILED (checked before existence, so an
unauthorized principal cannot probe which topics exist) and are not deleted.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.offset_delete_response import (
    OffsetDeleteResponse,
    OffsetDeleteResponsePartition,
    OffsetDeleteResponseTopic,
)

API_KEY = 47
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> OffsetDeleteResponse:
    if not authorize(ctx, acl.DELETE, acl.GROUP, req.group_id):  # kwire.security
        return _error(acl.GROUP_AUTHORIZATION_FAILED)
    md = ctx.broker.metadata
    gc = ctx.broker.group_coordinator
    early: dict[tuple[str, int], int] = {}  # (topic, partition) -> error, not sent to the coordinator
    known = []
    for t in req.topics:
        topic = md.topic(t.name)
        if not authorize(ctx, acl.READ, acl.TOPIC, t.name):  # kwire.security
            early.update(((t.name, p.partition_index), ErrorCode.TOPIC_AUTHORIZATION_FAILED) for p in t.partitions)
            continue
        valid = []
        for p in t.partitions:
            if topic is None or not 0 <= p.partition_index < len(topic.partitions):
                early[(t.name, p.partition_index)] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            else:
                valid.append(p.partition_index)
        if valid:
            known.append((t.name, valid))
    try:
        errors = gc.run(req.group_id, lambda shard, now: shard.delete_offsets(req.group_id, known, now))
    except CoordinatorError as e:
        return _error(e.code)
    if isinstance(errors, Pending):  # cluster mode: answered once replicated
        return _when_replicated(gc, errors, early, req)
    return _response(errors, early, req)


def _error(code) -> OffsetDeleteResponse:
    return OffsetDeleteResponse(error_code=code, throttle_time_ms=0, topics=[])


async def _when_replicated(gc, pending, early, req) -> OffsetDeleteResponse:
    try:
        return _response(await gc.settle(pending), early, req)
    except CoordinatorError as e:
        return _error(e.code)


def _response(errors: dict, early: dict, req) -> OffsetDeleteResponse:
    topics = []
    for t in req.topics:
        topics.append(OffsetDeleteResponseTopic(name=t.name, partitions=[
            OffsetDeleteResponsePartition(
                partition_index=p.partition_index,
                error_code=early.get((t.name, p.partition_index), errors.get((t.name, p.partition_index), 0)))
            for p in t.partitions]))
    return OffsetDeleteResponse(error_code=0, throttle_time_ms=0, topics=topics)
