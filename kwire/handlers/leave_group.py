"""LeaveGroup (key 13), v0-5: members leave a classic group, which then rebalances.

v0-2 name one member (top-level error); v3+ a batch of members, each by member
id and/or group.instance.id (KIP-345), with a per-member error: UNKNOWN_MEMBER_ID
for unknown ids or instance ids, FENCED_INSTANCE_ID when the instance id belongs
to another member id. An empty member id with an instance id removes that static
member (what admin tools send). v5+ reasons are accepted and ignored.
Group-level errors (unknown group: UNKNOWN_MEMBER_ID; COORDINATOR_LOAD_IN_PROGRESS)
are top-level.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.coordinator.runtime import op_context
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.leave_group_response import LeaveGroupResponse, MemberResponse

API_KEY = 13
MIN_VERSION = 0
MAX_VERSION = 5


def handle(ctx, req) -> LeaveGroupResponse:
    if not authorize(ctx, acl.READ, acl.GROUP, req.group_id):  # kwire.security
        return _error(acl.GROUP_AUTHORIZATION_FAILED)
    gc = ctx.broker.group_coordinator
    opctx = op_context(ctx)
    v = ctx.api_version
    if v >= 3:
        identities = [(m.member_id, m.group_instance_id) for m in req.members]
    else:
        identities = [(req.member_id, None)]
    try:
        out = gc.run(req.group_id, lambda shard, now: shard.leave_group(opctx, req.group_id, identities, now))
    except CoordinatorError as e:
        return _error(e.code)
    if isinstance(out, Pending):  # cluster mode: answered once replicated
        return _when_replicated(gc, out, v)
    return _response(out, v)


def _error(code) -> LeaveGroupResponse:
    return LeaveGroupResponse(throttle_time_ms=0, error_code=code, members=[])


async def _when_replicated(gc, pending, v: int) -> LeaveGroupResponse:
    try:
        return _response(await gc.settle(pending), v)
    except CoordinatorError as e:
        return _error(e.code)


def _response(out, v: int) -> LeaveGroupResponse:
    if v < 3:
        return LeaveGroupResponse(throttle_time_ms=0, error_code=out[0][2])
    return LeaveGroupResponse(throttle_time_ms=0, error_code=0, members=[
        MemberResponse(member_id=mid, group_instance_id=iid, error_code=code) for mid, iid, code in out])
