"""DeleteGroups (key 42), v0-2: delete Empty groups and their committed offsets.

Per group: GROUP_ID_NOT_FOUND for unknown (or dead) groups, NON_EMPTY_GROUP
for groups with members, COORDINATOR_LOAD_IN_PROGRESS while the group's
partition loads. A deleted group's offsets and metadata get tombstones in
``__consumer_offsets``; a deleted share group's share-partition state is dropped
(``kwire.share``, tombstones in ``__share_group_state``).
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.delete_groups_response import DeletableGroupResult, DeleteGroupsResponse

API_KEY = 42
MIN_VERSION = 0
MAX_VERSION = 2


def handle(ctx, req) -> DeleteGroupsResponse:
    gc = ctx.broker.group_coordinator
    results = []
    replicating = []  # (result, Pending) answered once replicated (cluster mode)
    for gid in req.groups_names:
        result = DeletableGroupResult(group_id=gid, error_code=0)
        if not authorize(ctx, acl.DELETE, acl.GROUP, gid):  # kwire.security
            result.error_code = acl.GROUP_AUTHORIZATION_FAILED
            results.append(result)
            continue
        try:
            errors = gc.run(gid, lambda shard, now: shard.delete_groups([gid], now))
            if isinstance(errors, Pending):
                replicating.append((result, errors))
            else:
                result.error_code = errors[gid]
                if result.error_code == 0:  # a share group's share-partition state goes too
                    ctx.broker.share_partitions.drop_group(gid)
        except CoordinatorError as e:
            result.error_code = e.code
        results.append(result)
    response = DeleteGroupsResponse(throttle_time_ms=0, results=results)
    return _when_replicated(gc, replicating, response) if replicating else response


async def _when_replicated(gc, replicating, response) -> DeleteGroupsResponse:
    for result, pending in replicating:
        try:
            result.error_code = (await gc.settle(pending))[result.group_id]
        except CoordinatorError as e:
            result.error_code = e.code
    return response
