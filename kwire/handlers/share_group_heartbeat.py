"""ShareGroupHeartbeat (key 76), v1: membership of a KIP-932 share group.

Join (member epoch 0, with ``subscribed_topic_names``), heartbeat, leave
(epoch -1); members choose their own ids. The coordinator assigns partitions
with Kafka's ``simple`` share assignor; a partition may go to several members.
See ``kwire.coordinator.share_ops`` for the rules and error codes. v0 (the
early-access protocol of Kafka 4.0) is not served, as Kafka 4.1+ does not.

Authorization (Kafka 4.x's KafkaApis): READ on the group, else
GROUP_AUTHORIZATION_FAILED; DESCRIBE on every subscribed topic, else
TOPIC_AUTHORIZATION_FAILED.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.coordinator.runtime import op_context
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import active, allowed, authorize
from kwire.protocol.generated.share_group_heartbeat_response import ShareGroupHeartbeatResponse

API_KEY = 76
MIN_VERSION = 1
MAX_VERSION = 1


def handle(ctx, req):
    if not authorize(ctx, acl.READ, acl.GROUP, req.group_id):  # kwire.security
        return _error(CoordinatorError(ErrorCode.GROUP_AUTHORIZATION_FAILED, "Group authorization failed."))
    az = active(ctx)
    if az is not None and req.subscribed_topic_names and not all(
            allowed(ctx, az, acl.DESCRIBE, acl.TOPIC, t) for t in set(req.subscribed_topic_names)):
        return _error(CoordinatorError(acl.TOPIC_AUTHORIZATION_FAILED))
    gc = ctx.broker.group_coordinator
    opctx = op_context(ctx)
    try:
        resp = gc.run(req.group_id, lambda shard, now: shard.share_group_heartbeat(opctx, req, now))
    except CoordinatorError as e:
        return _error(e)
    if isinstance(resp, Pending):  # cluster mode: answered once replicated
        return _settled(gc, resp)
    return resp


def _error(e: CoordinatorError) -> ShareGroupHeartbeatResponse:
    return ShareGroupHeartbeatResponse(throttle_time_ms=0, error_code=e.code, error_message=e.message or None,
                                       member_id=None, member_epoch=-1, heartbeat_interval_ms=0,
                                       assignment=None)


async def _settled(gc, pending) -> ShareGroupHeartbeatResponse:
    try:
        return await gc.settle(pending)
    except CoordinatorError as e:
        return _error(e)
