"""ConsumerGroupDescribe (key 69), v0-1: KIP-848 consumer groups with members and assignments.

Answers the group's state, group and assignment epochs, assignor, and per
member its epoch, subscription, current and target assignment (topic ids and
names); v1 adds the member type (consumer). A classic group answers
GROUP_ID_NOT_FOUND ("not a consumer group"), as Kafka does, so that admin
clients fall back to DescribeGroups; an unknown group GROUP_ID_NOT_FOUND.
Authorized operations when asked (no ACLs: all that apply to a group).
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.handlers.common import AUTHORIZED_OPERATIONS_OMITTED, authorized_operations
from kwire.protocol.generated.consumer_group_describe_response import (
    ConsumerGroupDescribeResponse,
    DescribedGroup,
)

API_KEY = 69
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req) -> ConsumerGroupDescribeResponse:
    gc = ctx.broker.group_coordinator
    groups = []
    for gid in req.group_ids:
        try:
            if not authorize(ctx, acl.DESCRIBE, acl.GROUP, gid):  # kwire.security
                raise CoordinatorError(acl.GROUP_AUTHORIZATION_FAILED)
            g = gc.run(gid, lambda shard, now: shard.consumer_group_describe(gid))
        except CoordinatorError as e:
            g = DescribedGroup(error_code=e.code, error_message=e.message, group_id=gid, members=[])
        if ctx.api_version < 1:
            for m in g.members:
                m.member_type = -1
        g.authorized_operations = (authorized_operations("group", ctx, gid) if req.include_authorized_operations
                                   else AUTHORIZED_OPERATIONS_OMITTED)
        groups.append(g)
    return ConsumerGroupDescribeResponse(throttle_time_ms=0, groups=groups)
