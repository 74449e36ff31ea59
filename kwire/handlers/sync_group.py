"""SyncGroup (key 14), v0-5: get this member's assignment for the current generation.

The leader sends everyone's assignments; they are written to
``__consumer_offsets`` as the group's GroupMetadata record, and once that is
replayed every waiting member is answered (a coroutine until then). Errors as
Kafka: UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, REBALANCE_IN_PROGRESS (a new
rebalance started), FENCED_INSTANCE_ID (v3+ static members),
INCONSISTENT_GROUP_PROTOCOL (v5+ protocol type/name that do not match the
group's), COORDINATOR_LOAD_IN_PROGRESS. v5+ answers protocol type and name.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.coordinator.classic_ops import sync_error
from kwire.coordinator.runtime import op_context
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.errors import ErrorCode

API_KEY = 14
MIN_VERSION = 0
MAX_VERSION = 5


def handle(ctx, req):
    if not authorize(ctx, acl.READ, acl.GROUP, req.group_id):  # kwire.security
        return _for_version(sync_error(ErrorCode.GROUP_AUTHORIZATION_FAILED), ctx.api_version)
    gc = ctx.broker.group_coordinator
    opctx = op_context(ctx)
    try:
        resp = gc.run(req.group_id, lambda shard, now: shard.sync_group(opctx, req, now))
    except CoordinatorError as e:
        resp = sync_error(e.code)
    unloaded = sync_error(ErrorCode.NOT_COORDINATOR)
    on_error = lambda code: sync_error(code)  # noqa: E731 (not replicated, or the shard was unloaded)
    if isinstance(resp, Pending) and not resp.done:
        return _wait(gc, resp, ctx.api_version, unloaded, on_error)
    return _for_version(gc.wait_now(resp, unloaded, on_error), ctx.api_version)


async def _wait(gc, pending, version: int, if_unloaded, on_error):
    return _for_version(await gc.wait(pending, if_unloaded, on_error), version)


def _for_version(resp, version: int):
    if version < 5:
        resp.protocol_type = resp.protocol_name = None
    return resp
