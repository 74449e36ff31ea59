"""Server-side partition assignors for KIP-848 consumer groups: ``uniform`` and ``range``.

Input: each member's subscribed topics (ids), the partition count of every
topic, and the current target assignment (for stickiness). Output: the new
target assignment, ``{member_id: {topic_id: set(partitions)}}``. Pure
functions; deterministic for a given input (members and topics are visited in
sorted order).

* ``uniform`` (Kafka's default): balanced and sticky. Every member keeps the
  partitions it already had, as long as they are still subscribed and it is
  not above its fair share; the rest go one at a time to the subscribed member
  with the fewest partitions; a final pass moves partitions from the most to
  the least loaded member while they differ by more than one (only between
  members that can take the partition). For a group where everyone subscribes
  to the same topics, counts differ by at most one.
* ``range``: per topic, the subscribed members (sorted by member id) get
  contiguous ranges; the first ``partitions % members`` get one extra. Like
  the classic RangeAssignor, co-partitioned topics are assigned alike.

Not done: rack awareness (KIP-881), which Kafka's assignors use when racks
are set; kwire ignores member racks.
"""

from __future__ import annotations

Assignment = dict[str, dict[bytes, set[int]]]


def uniform(subscriptions: dict[str, set[bytes]], partitions: dict[bytes, int],
            current: Assignment | None = None) -> Assignment:
    current = current or {}
    members = sorted(subscriptions)
    out: Assignment = {m: {} for m in members}
    if not members:
        return out
    counts = {m: 0 for m in members}
    eligible: dict[tuple[bytes, int], list[str]] = {}
    for tid in sorted(partitions):
        subs = [m for m in members if tid in subscriptions[m]]
        if subs:
            for p in range(partitions[tid]):
                eligible[(tid, p)] = subs
    total = len(eligible)
    fair = -(-total // len(members)) if total else 0  # ceil: nobody keeps more than this

    def give(m: str, tp: tuple[bytes, int]) -> None:
        out[m].setdefault(tp[0], set()).add(tp[1])
        counts[m] += 1

    taken: set[tuple[bytes, int]] = set()
    for m in members:  # stickiness
        for tid, parts in sorted(current.get(m, {}).items()):
            for p in sorted(parts):
                tp = (tid, p)
                if tp in eligible and tp not in taken and m in eligible[tp] and counts[m] < fair:
                    give(m, tp)
                    taken.add(tp)
    for tp, subs in eligible.items():  # the rest, to the least loaded
        if tp not in taken:
            give(min(subs, key=lambda m: (counts[m], m)), tp)
    _balance(out, counts, eligible)
    return out


def _balance(out: Assignment, counts: dict[str, int], eligible: dict[tuple[bytes, int], list[str]]) -> None:
    moved = True
    while moved:
        moved = False
        for src in sorted(counts, key=lambda m: (-counts[m], m)):
            for tid in sorted(out[src]):
                for p in sorted(out[src][tid]):
                    subs = eligible[(tid, p)]
                    dst = min(subs, key=lambda m: (counts[m], m))
                    if counts[src] - counts[dst] > 1:
                        out[src][tid].discard(p)
                        if not out[src][tid]:
                            del out[src][tid]
                        out[dst].setdefault(tid, set()).add(p)
                        counts[src] -= 1
                        counts[dst] += 1
                        moved = True
                        break
                if moved:
                    break
            if moved:
                break


def range_(subscriptions: dict[str, set[bytes]], partitions: dict[bytes, int],
           current: Assignment | None = None) -> Assignment:
    members = sorted(subscriptions)
    out: Assignment = {m: {} for m in members}
    for tid in sorted(partitions):
        subs = [m for m in members if tid in subscriptions[m]]
        if not subs:
            continue
        n = partitions[tid]
        per, extra = divmod(n, len(subs))
        start = 0
        for i, m in enumerate(subs):
            size = per + (1 if i < extra else 0)
            if size:
                out[m][tid] = set(range(start, start + size))
            start += size
    return out


ASSIGNORS = {"uniform": uniform, "range": range_}
