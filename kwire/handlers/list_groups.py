"""ListGroups (key 16), v0-5: every group this broker coordinates.

v4+ filters by state (KIP-518) and v5+ by type, "classic" or "consumer"
(KIP-848), both case-insensitive; v4+/v5+ answer each group's state and type.
Dead groups are not listed. While any ``__consumer_offsets`` partition is still
loading the answer is COORDINATOR_LOAD_IN_PROGRESS with no groups.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.list_groups_response import ListGroupsResponse

API_KEY = 16
MIN_VERSION = 0
MAX_VERSION = 5


def handle(ctx, req) -> ListGroupsResponse:
    v = ctx.api_version
    states = {s.lower() for s in req.states_filter} if v >= 4 and req.states_filter else None
    types = {t.lower() for t in req.types_filter} if v >= 5 and req.types_filter else None
    try:
        shards = ctx.broker.group_coordinator.all_shards()
    except CoordinatorError as e:
        return ListGroupsResponse(throttle_time_ms=0, error_code=e.code, groups=[])
    groups = []
    for shard in shards:
        groups += shard.list_groups(states, types)
    groups.sort(key=lambda g: g.group_id)
    if not authorize(ctx, acl.DESCRIBE, acl.CLUSTER, acl.CLUSTER_NAME):  # kwire.security
        groups = [g for g in groups if authorize(ctx, acl.DESCRIBE, acl.GROUP, g.group_id)]
    return ListGroupsResponse(throttle_time_ms=0, error_code=0, groups=groups)
