"""DescribeGroups (key 15), v0-6: state, protocol and members of classic groups.

Members carry metadata and assignment only while the group is Stable (as in
Kafka); client hosts are shown as Kafka does ("/127.0.0.1"). An unknown group —
or a KIP-848 consumer group, which this API cannot describe — answers
GROUP_ID_NOT_FOUND with a message from v6 (KIP-1043) and, before, no error and
state "Dead". v3+ reports authorized operations when asked (kwire has no ACLs:
everything that applies to a group); v4+ group instance ids.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.handlers.common import AUTHORIZED_OPERATIONS_OMITTED, authorized_operations
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.describe_groups_response import DescribedGroup, DescribeGroupsResponse

API_KEY = 15
MIN_VERSION = 0
MAX_VERSION = 6


def handle(ctx, req) -> DescribeGroupsResponse:
    v = ctx.api_version
    gc = ctx.broker.group_coordinator
    out = []
    for gid in req.groups:
        try:
            if not authorize(ctx, acl.DESCRIBE, acl.GROUP, gid):  # kwire.security
                raise CoordinatorError(ErrorCode.GROUP_AUTHORIZATION_FAILED)
            g = gc.run(gid, lambda shard, now: shard.describe_group(gid))
        except CoordinatorError as e:
            g = DescribedGroup(error_code=e.code, group_id=gid, group_state="", protocol_type="",
                               protocol_data="", members=[])
        if g is None or g.error_code == ErrorCode.GROUP_ID_NOT_FOUND:
            g = DescribedGroup(error_code=0, group_id=gid, group_state="Dead", protocol_type="",
                               protocol_data="", members=[])
            if v >= 6:
                g.error_code = ErrorCode.GROUP_ID_NOT_FOUND
                g.error_message = f"Group {gid} not found."
        if v < 6:
            g.error_message = None
        if v >= 3 and req.include_authorized_operations and g.error_code == 0:  # Kafka: errors omit them
            g.authorized_operations = authorized_operations("group", ctx, gid)
        else:
            g.authorized_operations = AUTHORIZED_OPERATIONS_OMITTED
        out.append(g)
    return DescribeGroupsResponse(throttle_time_ms=0, groups=out)
