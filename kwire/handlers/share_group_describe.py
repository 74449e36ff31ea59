"""ShareGroupDescribe (key 77), v1: KIP-932 share groups with members and assignments.

Per group: state (Empty, Stable), group and assignment epochs, assignor
(``simple``) and per member its epoch, client, subscription and assignment
(topic ids and names). A classic or consumer group answers GROUP_ID_NOT_FOUND
("not a share group"), an unknown group GROUP_ID_NOT_FOUND. Authorized
operations when asked. Authorization: DESCRIBE on each group, else that group
answers GROUP_AUTHORIZATION_FAILED.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.handlers.common import AUTHORIZED_OPERATIONS_OMITTED, authorized_operations
from kwire.protocol.generated.share_group_describe_response import DescribedGroup, ShareGroupDescribeResponse

API_KEY = 77
MIN_VERSION = 1
MAX_VERSION = 1


def handle(ctx, req) -> ShareGroupDescribeResponse:
    gc = ctx.broker.group_coordinator
    groups = []
    for gid in req.group_ids:
        try:
            if not authorize(ctx, acl.DESCRIBE, acl.GROUP, gid):  # kwire.security
                raise CoordinatorError(ErrorCode.GROUP_AUTHORIZATION_FAILED)
            g = gc.run(gid, lambda shard, now: shard.share_group_describe(gid))
        except CoordinatorError as e:
            g = DescribedGroup(error_code=e.code, error_message=e.message, group_id=gid, members=[])
        g.authorized_operations = (authorized_operations("group", ctx, gid)
                                   if req.include_authorized_operations and g.error_code == 0
                                   else AUTHORIZED_OPERATIONS_OMITTED)
        groups.append(g)
    return ShareGroupDescribeResponse(throttle_time_ms=0, groups=groups)
