"""Before-images of the groups a ``__consumer_offsets`` write changes, to put back if it fails.

Kafka's coordinator keeps KIP-848 and share groups in timeline data
structures and reverts them to the last committed snapshot when a write
fails. kwire takes, per write, an image of each group it touches just before
its records are replayed (``take``), and ``put_back`` restores it when the
write fails to replicate:

* a KIP-848 consumer group or a share group: its fields, one level of its
  dicts (members, static members, target assignment, partition epochs) and a
  copy of each member the write names; the same group object stays in place,
  so the operations' references to it stay valid;
* a classic group deleted by a tombstone: the group object and its state, put
  back in the shard (classic membership is otherwise not rolled back, as in
  Kafka: only its assignment waits for the write, see ``classic_ops``);
* a group id the write created: removed again.

Cost: one dict copy per touched group and one member copy per named member,
so a heartbeat's write stays O(its records) plus a few C-level dict copies.

Not here: deciding whether a later write touched the group since (the shard
does that), timers (the shard re-arms the restored members' sessions).
"""

from __future__ import annotations

import copy

_DICTS = ("members", "static_members", "target", "partition_epochs")


class GroupImage:
    """One group as it was before a write: ``put_back`` restores it into ``groups``."""

    __slots__ = ("group_id", "obj", "fields", "members", "state")

    def __init__(self, group_id: str, obj, fields: dict | None, members: dict, state) -> None:
        self.group_id = group_id
        self.obj = obj  # the group object in the shard before the write (None: there was none)
        self.fields = fields  # consumer/share group: its attributes, dicts copied one level
        self.members = members  # member id -> copy of that member (or None: it did not exist)
        self.state = state  # classic group: its state

    def put_back(self, groups: dict) -> list[str]:
        """Restore the group; returns the ids of the members put back (their sessions to re-arm)."""
        if self.obj is None:
            groups.pop(self.group_id, None)
            return []
        groups[self.group_id] = self.obj
        if self.fields is None:  # a classic group
            self.obj.state = self.state
            return []
        vars(self.obj).update(self.fields)
        restored = []
        for mid, member in self.members.items():
            if member is None:
                self.obj.members.pop(mid, None)
                target = self.obj.target
                target.pop(mid, None)
            else:
                self.obj.members[mid] = member
                restored.append(mid)
        return restored


def take(groups: dict, group_id: str, member_ids) -> GroupImage:
    """The image of ``group_id`` before a write naming ``member_ids`` (member records)."""
    obj = groups.get(group_id)
    if obj is None:
        return GroupImage(group_id, None, None, {}, None)
    if getattr(obj, "type", None) == "classic":
        return GroupImage(group_id, obj, None, {}, obj.state)
    fields = dict(vars(obj))
    for name in _DICTS:
        value = fields.get(name)
        if isinstance(value, dict):
            fields[name] = dict(value)
    if isinstance(fields.get("target"), dict):  # target values may be updated in place
        fields["target"] = {m: copy.deepcopy(t) if m in member_ids else t for m, t in fields["target"].items()}
    members = {mid: _copy(obj.members[mid]) if mid in obj.members else None for mid in member_ids}
    return GroupImage(group_id, obj, fields, members, None)


def _copy(member):
    """A member as it is now (its own ``copy`` where it has one: cheaper than deepcopy)."""
    own = getattr(member, "copy", None)
    return own() if own is not None else copy.deepcopy(member)
