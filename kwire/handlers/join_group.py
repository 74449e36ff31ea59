"""JoinGroup (key 11), v0-9: join a classic group and wait for the rebalance's join phase.

The coordinator shard decides (``kwire.coordinator.classic_ops``); this module
adapts versions and waits. Version notes: v0 has no rebalance timeout (the
session timeout is used); v4+ answers MEMBER_ID_REQUIRED to a first join
without a member id (KIP-394); v5+ static membership (group.instance.id,
KIP-345); v7+ protocol type in the response (nullable protocol name); v8+
join reason (logged only); v9+ ``skip_assignment`` for a static leader that
rejoined a Stable group (KIP-814). The response is delayed until the join
phase completes, hence a coroutine; COORDINATOR_LOAD_IN_PROGRESS while the
group's partition loads.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.coordinator.classic_ops import join_error
from kwire.coordinator.runtime import op_context
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.errors import ErrorCode

API_KEY = 11
MIN_VERSION = 0
MAX_VERSION = 9


def handle(ctx, req):
    if not authorize(ctx, acl.READ, acl.GROUP, req.group_id):  # kwire.security
        return _for_version(join_error(ErrorCode.GROUP_AUTHORIZATION_FAILED, req.member_id), ctx.api_version)
    gc = ctx.broker.group_coordinator
    opctx = op_context(ctx)
    try:
        resp = gc.run(req.group_id, lambda shard, now: shard.join_group(opctx, req, now))
    except CoordinatorError as e:
        resp = join_error(e.code, req.member_id)
    unloaded = join_error(ErrorCode.NOT_COORDINATOR, req.member_id)
    on_error = lambda code: join_error(code, req.member_id)  # noqa: E731 (not replicated, or the shard was unloaded)
    if isinstance(resp, Pending) and not resp.done:
        return _wait(gc, resp, ctx.api_version, unloaded, on_error)
    return _for_version(gc.wait_now(resp, unloaded, on_error), ctx.api_version)


async def _wait(gc, pending, version: int, if_unloaded, on_error):
    return _for_version(await gc.wait(pending, if_unloaded, on_error), version)


def _for_version(resp, version: int):
    if version < 7 and resp.protocol_name is None:
        resp.protocol_name = ""
    if version < 9:
        resp.skip_assignment = False
    return resp
