"""Helpers shared by the three share-group offset admin handlers (not an API module itself).

``checked_group_error`` adds the group's authorization before those checks.
``share_group(ctx, group_id)`` is the group as its coordinator holds it, after
the checks Kafka makes for DescribeShareGroupOffsets / AlterShareGroupOffsets /
DeleteShareGroupOffsets: an unknown group or one of another type answers
GROUP_ID_NOT_FOUND; ``require_empty`` adds NON_EMPTY_GROUP for a group with
members (offsets change only while nobody consumes).
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.protocol.errors import ErrorCode as E
from kwire.security import acl
from kwire.security.authorizer import authorize


def share_group(ctx, group_id: str, require_empty: bool = False):
    gc = ctx.broker.group_coordinator
    group = gc.run(group_id, lambda shard, now: shard.groups.get(group_id))
    if group is None:
        raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
    if getattr(group, "type", None) != "share":
        raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a share group.")
    if require_empty and not group.is_empty():
        raise CoordinatorError(E.NON_EMPTY_GROUP, "The group is not empty.")
    return group


def checked_group_error(ctx, group_id: str, operation, require_empty: bool) -> CoordinatorError | None:
    """The group-level error of an offsets request (authorization first), or None."""
    try:
        if not authorize(ctx, operation, acl.GROUP, group_id):  # kwire.security
            raise CoordinatorError(E.GROUP_AUTHORIZATION_FAILED, "Group authorization failed.")
        share_group(ctx, group_id, require_empty)
    except CoordinatorError as e:
        return e
    return None
