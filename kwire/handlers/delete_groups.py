"""DeleteGroups (key 42), v0-2: delete Empty groups and their committed offsets.

Per group: GROUP_ID_NOT_FOUND for unknown (or dead) groups, NON_EMPTY_GROUP
for groups with members, COORDINATOR_LOAD_IN_PROGRESS while the group's
partition loads. A deleted group's offsets and metadata get tombstones in
``__consumer_offsets``. An empty share group's share-partition state is deleted
first (``SharePartitionManager.delete_states``: tombstones in
``__share_group_state``, on the cluster DeleteShareGroupState to the share
coordinator of every partition it may have state for), as Kafka does; if that
fails the group stays and answers the error.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError, Pending
from kwire.handlers.share_group_offsets_common import share_group
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
    shares = []  # empty share groups: their share-partition state is deleted first
    for gid in req.groups_names:
        result = DeletableGroupResult(group_id=gid, error_code=0)
        results.append(result)
        if not authorize(ctx, acl.DELETE, acl.GROUP, gid):  # kwire.security
            result.error_code = acl.GROUP_AUTHORIZATION_FAILED
        elif _empty_share_group(ctx, gid):
            shares.append(result)
        else:
            _delete(gc, result, replicating)
    response = DeleteGroupsResponse(throttle_time_ms=0, results=results)
    return _finish(ctx, gc, shares, replicating, response) if shares or replicating else response


def _empty_share_group(ctx, gid: str) -> bool:
    try:
        share_group(ctx, gid, require_empty=True)
    except CoordinatorError:
        return False  # not one (the deletion answers the group's error)
    return True


def _delete(gc, result, replicating) -> None:
    gid = result.group_id
    try:
        errors = gc.run(gid, lambda shard, now: shard.delete_groups([gid], now))
        if isinstance(errors, Pending):
            replicating.append((result, errors))
        else:
            result.error_code = errors[gid]
    except CoordinatorError as e:
        result.error_code = e.code


async def _finish(ctx, gc, shares, replicating, response) -> DeleteGroupsResponse:
    manager = ctx.broker.share_partitions
    for result in shares:
        gid = result.group_id
        codes = await manager.delete_states(gid, manager.keys_of(gid))
        code = next((c for c in codes.values() if c), None)
        if code:  # the group stays, as Kafka keeps it when its state could not be deleted
            result.error_code = code
        else:
            _delete(gc, result, replicating)
    for result, pending in replicating:
        try:
            result.error_code = (await gc.settle(pending))[result.group_id]
        except CoordinatorError as e:
            result.error_code = e.code
    return response
