"""Heartbeat (key 12), v0-4: keep a classic group member's session alive.

Answers NONE in Stable and CompletingRebalance, REBALANCE_IN_PROGRESS while
the group prepares a rebalance (the member must rejoin), ILLEGAL_GENERATION,
UNKNOWN_MEMBER_ID (also for an unknown group), FENCED_INSTANCE_ID (v3+ static
members), COORDINATOR_LOAD_IN_PROGRESS while the group's partition loads.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.coordinator.runtime import op_context
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.heartbeat_response import HeartbeatResponse

API_KEY = 12
MIN_VERSION = 0
MAX_VERSION = 4


def handle(ctx, req) -> HeartbeatResponse:
    if not authorize(ctx, acl.READ, acl.GROUP, req.group_id):  # kwire.security
        return HeartbeatResponse(throttle_time_ms=0, error_code=acl.GROUP_AUTHORIZATION_FAILED)
    gc = ctx.broker.group_coordinator
    opctx = op_context(ctx)
    try:
        code = gc.run(req.group_id, lambda shard, now: shard.heartbeat(opctx, req, now))
    except CoordinatorError as e:
        code = e.code
    return HeartbeatResponse(throttle_time_ms=0, error_code=code)
