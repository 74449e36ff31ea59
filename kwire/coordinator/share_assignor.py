"""The server-side share-group assignor: Kafka 4.3's ``simple`` assignor (KIP-932), not rack-aware.

Share groups have no exclusive ownership: a partition may be assigned to
several members, who then share its records (each record is acquired by one
of them at a time). ``current`` is each member's assignment so far; the
result keeps as much of it as balance allows.

All members subscribed to the same topics (Kafka's ``SimpleHomogeneousAssignmentBuilder``):

* each partition is shared by ``desired sharing = ceil(members / partitions)``
  members, so with at least as many partitions as members each partition goes
  to one member, and with fewer every member gets one (or more);
* the ``sharing x partitions`` assignments are spread so that two members'
  counts differ by at most one (member ``i`` of ``M`` gets
  ``ceil(x * (i + 1)) - ceil(x * i)``, ``x = sharing * partitions / M``);
* sticky: current assignments of subscribed topics are kept, then revoked where
  a partition is shared by more members than desired (from members with too
  many first) and from members that still have too many; partitions short of
  members go round-robin to the members with too few.

Members subscribed to different topics (Kafka's heterogeneous assignment):
each member first gets the partition its member id hashes to (Java's
``String.hashCode``) among its subscribed partitions; partitions neither
hashed to nor currently assigned go round-robin, per topic, to that topic's
subscribers; a member keeps its current partitions of topics it still
subscribes to unless the hashing gave them to someone.

Orders are deterministic (members by id, topics by id, partitions by index)
where Kafka iterates hash maps, so the same input always gives the same
assignment; the balance and stickiness rules are Kafka's. Not done: rack
awareness (Kafka's ``simple`` assignor has none either).
"""

from __future__ import annotations

import math

NAME = "simple"

Assignment = dict[str, dict[bytes, set[int]]]


def assign(subscriptions: dict[str, set[bytes]], partitions: dict[bytes, int],
           current: Assignment | None = None) -> Assignment:
    """``subscriptions``: member id -> subscribed topic ids; ``partitions``: topic id -> count
    (existing topics only); ``current``: member id -> {topic id: partitions} now.
    Returns member id -> {topic id: partitions} (members with nothing get ``{}``)."""
    current = current or {}
    members = sorted(subscriptions)
    subs = {m: {t for t in subscriptions[m] if partitions.get(t, 0) > 0} for m in members}
    if members and all(subs[m] == subs[members[0]] for m in members):
        by_member = _homogeneous(members, subs[members[0]], partitions, current)
    else:
        by_member = _heterogeneous(members, subs, partitions, current)
    out: Assignment = {m: {} for m in members}
    for m, tps in by_member.items():
        for t, p in tps:
            out[m].setdefault(t, set()).add(p)
    return out


def _targets(topics, partitions: dict[bytes, int]) -> list[tuple[bytes, int]]:
    return [(t, p) for t in sorted(topics) for p in range(partitions[t])]


def _kept(member: str, topics, partitions, current: Assignment) -> list[tuple[bytes, int]]:
    """The member's current partitions of ``topics`` that still exist."""
    return [(t, p) for t, ps in sorted(current.get(member, {}).items()) if t in topics
            for p in sorted(ps) if p < partitions[t]]


def _homogeneous(members: list[str], topics, partitions: dict[bytes, int], current: Assignment):
    targets = _targets(topics, partitions)
    by_member: dict[str, dict[tuple[bytes, int], None]] = {m: {} for m in members}
    if not targets:
        return by_member
    n_members, n_parts = len(members), len(targets)
    sharing = (n_members + n_parts - 1) // n_parts
    x = sharing * n_parts / n_members
    desired = {m: math.ceil(x * (i + 1)) - math.ceil(x * i) for i, m in enumerate(members)}
    by_part: dict[tuple[bytes, int], dict[str, None]] = {tp: {} for tp in targets}
    for m in members:  # 1. keep what is still subscribed
        for tp in _kept(m, topics, partitions, current):
            by_part[tp][m] = None
            by_member[m][tp] = None
    over = [m for m in members if len(by_member[m]) > desired[m]]
    for tp in targets:  # 2. partitions shared more than desired: from overfilled members first
        holders = by_part[tp]
        for pass_over in (True, False):
            for m in [m for m in holders if (m in over) == pass_over]:
                if len(holders) <= sharing:
                    break
                del holders[m], by_member[m][tp]
    for m in over:  # 3. members that still have too many
        while len(by_member[m]) > desired[m]:
            tp = next(reversed(by_member[m]))
            del by_member[m][tp], by_part[tp][m]
    unfilled = [m for m in members if len(by_member[m]) < desired[m]]
    k = 0  # 4. partitions short of members, round-robin over the members short of partitions
    for tp in targets:
        holders = by_part[tp]
        tried = 0
        while len(holders) < sharing and unfilled and tried < len(unfilled):
            k %= len(unfilled)
            m = unfilled[k]
            if m in holders:
                k += 1
                tried += 1
                continue
            holders[m] = None
            by_member[m][tp] = None
            tried = 0
            if len(by_member[m]) >= desired[m]:
                unfilled.pop(k)
            else:
                k += 1
    return by_member


def _heterogeneous(members: list[str], subs: dict[str, set[bytes]], partitions: dict[bytes, int],
                   current: Assignment):
    member_parts = {m: _targets(subs[m], partitions) for m in members if subs[m]}
    fresh: dict[tuple[bytes, int], list[str]] = {}
    for m, parts in member_parts.items():  # 1. the partition each member id hashes to
        fresh.setdefault(parts[abs(java_hash(m)) % len(parts)], []).append(m)
    currently = {tp for m in members for tp in _kept(m, subs[m], partitions, current)}
    for t in sorted({t for s in subs.values() for t in s}):  # 2. the rest, round-robin per topic
        subscribers = [m for m in members if t in subs[m]]
        left = [(t, p) for p in range(partitions[t]) if (t, p) not in fresh and (t, p) not in currently]
        for i, tp in enumerate(left):
            fresh.setdefault(tp, []).append(subscribers[i % len(subscribers)])
    by_member: dict[str, dict[tuple[bytes, int], None]] = {m: {} for m in members}
    for tp, ms in fresh.items():
        for m in ms:
            by_member[m][tp] = None
    for m in members:  # 3. current partitions nobody was given afresh
        for tp in _kept(m, subs[m], partitions, current):
            if tp not in fresh:
                by_member[m][tp] = None
    return by_member


def java_hash(s: str) -> int:
    """Java's ``String.hashCode`` (UTF-16 code units, 32-bit wrap-around)."""
    h = 0
    data = s.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h
