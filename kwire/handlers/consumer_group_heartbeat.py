"""ConsumerGroupHeartbeat (key 68), v0-1: the KIP-848 consumer group protocol.

Join (epoch 0), heartbeat, leave (epoch -1; -2 for a static member's temporary
leave) with server-side assignment (``uniform``, the default, and ``range``),
member epochs and incremental revocation/assignment; see
``kwire.coordinator.consumer_ops``. v0 lets the server pick the member id when
a joining member sends none; v1 (KIP-1082) has clients pick it, and adds
``subscribed_topic_regex``. Errors carry Kafka's messages.

Authorization (Kafka 4.x's KafkaApis): READ on the group, else
GROUP_AUTHORIZATION_FAILED; when ``subscribed_topic_names`` is given, DESCRIBE
on every one of them, else TOPIC_AUTHORIZATION_FAILED (the member is not
joined or changed). A regex subscription resolves only to the matching topics
the principal may DESCRIBE (Kafka's TopicRegexResolver), re-checked whenever
the group's subscriptions are evaluated. Not implemented:
classic members in consumer groups and protocol migration, rack-aware
assignment.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.coordinator.runtime import op_context
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import active, allowed, authorize
from kwire.protocol.generated.consumer_group_heartbeat_response import ConsumerGroupHeartbeatResponse

API_KEY = 68
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req) -> ConsumerGroupHeartbeatResponse:
    if not authorize(ctx, acl.READ, acl.GROUP, req.group_id):  # kwire.security
        return _error(CoordinatorError(ErrorCode.GROUP_AUTHORIZATION_FAILED, "Group authorization failed."))
    gc = ctx.broker.group_coordinator
    opctx = op_context(ctx)
    az = active(ctx)
    if az is not None:  # kwire.security: topics the member may not see
        if req.subscribed_topic_names and not all(allowed(ctx, az, acl.DESCRIBE, acl.TOPIC, t)
                                                  for t in set(req.subscribed_topic_names)):
            return ConsumerGroupHeartbeatResponse(throttle_time_ms=0, error_code=acl.TOPIC_AUTHORIZATION_FAILED,
                                                  error_message=None, member_id=None, member_epoch=0,
                                                  heartbeat_interval_ms=0, assignment=None)
        principal, host = str(ctx.session.principal), ctx.client_host
        opctx = opctx._replace(topic_filter=lambda topic: az.allowed(principal, host, acl.DESCRIBE, acl.TOPIC,
                                                                     topic))
    try:
        resp = gc.run(req.group_id, lambda shard, now: shard.consumer_group_heartbeat(opctx, req, now))
    except CoordinatorError as e:
        return _error(e)
    if isinstance(resp, Pending):  # cluster mode: answered once replicated
        return _when_replicated(gc, resp)
    return resp


def _error(e: CoordinatorError) -> ConsumerGroupHeartbeatResponse:
    return ConsumerGroupHeartbeatResponse(throttle_time_ms=0, error_code=e.code,
                                          error_message=e.message or None, member_id=None,
                                          member_epoch=-1, heartbeat_interval_ms=0, assignment=None)


async def _when_replicated(gc, pending) -> ConsumerGroupHeartbeatResponse:
    try:
        return await gc.settle(pending)
    except CoordinatorError as e:
        return _error(e)
