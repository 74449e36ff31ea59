"""Followers a new leader is waiting for: partitions they have not fetched from it yet.

A follower's replica fetcher sends one Fetch at a time per leader, and the
leader parks it for up to ``replica.fetch.wait.max.ms`` when it has nothing
new. A partition the follower starts following meanwhile (a topic just
created, a leader just elected) joins its next Fetch only, so without help
every new partition waits out a parked Fetch, up to 500 ms by default, and so
does the first acks=all produce to it (with ``replica.fetch.wait.max.ms`` at
5,000 the first acks=all produce to each new topic took 4.4-5.0 s on a
3-broker cluster). A ``kwire bench --cluster 3`` produce of 200,000 x 1 KiB
lasts about half a second, so it paid that wait in full.

The leader helps from its side, without a busy loop:

* when it becomes leader of a partition it notes every other replica as
  *joining* that partition (``expect``), and the ReplicaManager answers those
  followers' parked Fetches at once (``kwire.delayed.replica_fetch_key``);
* a follower Fetch that reads a joining partition clears it (``fetched``);
* while a follower still has a joining partition (its metadata may lag the
  leader's by a few milliseconds), its Fetches park for at most
  ``JOIN_WAIT_MS`` instead of ``replica.fetch.wait.max.ms``
  (``waiting_for``); after ``window_ms`` (``replica.lag.time.max.ms``: by
  then the ISR check has its say) the leader stops waiting for it.

Pure state, no I/O and no clock of its own: callers pass ``now_ms``. Each
follower's partitions are kept in the order of their deadlines, so a check
costs O(1) amortized even when a broker starts leading thousands at once.
Not here: which Fetch parks where (the Fetch handler), leadership itself (the
ReplicaManager).
"""

from __future__ import annotations

#: How long a Fetch from a follower with a joining partition may park (ms): the time its own
#: metadata may take to show it the partition, as ``follower.LEADERSHIP_RETRY_MS``.
JOIN_WAIT_MS = 50


class JoiningFollowers:
    def __init__(self, node_id: int, window_ms: int) -> None:
        self.node_id = node_id
        self.window_ms = window_ms
        self.pending: dict[int, dict[tuple[str, int], int]] = {}  # follower -> key -> until (ms)

    def expect(self, key: tuple[str, int], replicas, now_ms: int) -> list[int]:
        """This broker now leads ``key``: its other ``replicas`` join it. Returns them."""
        until = now_ms + self.window_ms
        others = [r for r in replicas if r != self.node_id]
        for r in others:
            keys = self.pending.setdefault(r, {})
            keys.pop(key, None)  # re-inserted: each follower's keys stay in deadline order
            keys[key] = until
        return others

    def fetched(self, replica_id: int, key: tuple[str, int]) -> None:
        """Follower ``replica_id`` read ``key`` from this leader."""
        keys = self.pending.get(replica_id)
        if keys is not None and keys.pop(key, None) is not None and not keys:
            del self.pending[replica_id]

    def forget(self, key: tuple[str, int]) -> None:
        """This broker no longer leads ``key``."""
        for r in [r for r, keys in self.pending.items() if keys.pop(key, None) is not None and not keys]:
            del self.pending[r]

    def waiting_for(self, replica_id: int, now_ms: int) -> bool:
        """True while ``replica_id`` has a partition it has not fetched yet (expired ones dropped)."""
        keys = self.pending.get(replica_id)
        if not keys:
            return False
        while keys:  # oldest first: stop at the first one still within its window
            key, until = next(iter(keys.items()))
            if until > now_ms:
                break
            del keys[key]
        if not keys:
            del self.pending[replica_id]
            return False
        return True
