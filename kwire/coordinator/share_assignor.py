"""The server-side share-group assignor (Kafka's ``simple`` assignor, KIP-932).

Share groups have no exclusive ownership: a partition may be assigned to
several members, who then share its records (each record is acquired by one
of them at a time). Per subscribed topic, with its subscribers sorted by
member id and its partitions by index:

* at least as many partitions as subscribers: partition ``i`` goes to
  subscriber ``(i + shift) % members`` (each partition to exactly one member);
* more subscribers than partitions: subscriber ``j`` gets partition
  ``(j + shift) % partitions`` (each member one partition, partitions shared
  as evenly as possible).

``shift`` rotates the start per topic so that one member does not collect the
first partition of every topic. Deterministic: the same members and topics
always give the same assignment. Not done: rack awareness, keeping previous
assignments stable across membership changes (Kafka's assignor tries to).
"""

from __future__ import annotations

NAME = "simple"


def assign(subscriptions: dict[str, set[bytes]], partitions: dict[bytes, int]) -> dict[str, dict[bytes, set[int]]]:
    """``subscriptions``: member id -> subscribed topic ids; ``partitions``: topic id -> count.
    Returns member id -> {topic id: partitions} (members with nothing get ``{}``)."""
    out: dict[str, dict[bytes, set[int]]] = {m: {} for m in subscriptions}
    for shift, tid in enumerate(sorted(partitions)):
        n = partitions[tid]
        subs = sorted(m for m, topics in subscriptions.items() if tid in topics)
        if not subs or n <= 0:
            continue
        if n >= len(subs):
            for p in range(n):
                out[subs[(p + shift) % len(subs)]].setdefault(tid, set()).add(p)
        else:
            for j, m in enumerate(subs):
                out[m].setdefault(tid, set()).add((j + shift) % n)
    return out
