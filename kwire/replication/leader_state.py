"""Leader-side replica state of one partition: follower positions, high watermark, ISR changes.

A pure state machine (no I/O, no clock: every call takes ``now_ms``). The
broker that leads a partition keeps one ``LeaderState``; its replica-fetch
path calls ``update_follower`` for every follower Fetch, its produce path
``on_leader_append``, and a periodic task ``shrink_candidates``. ISR changes
are proposed here and written elsewhere (ZooKeeper, conditional on the
partition's version): ``propose_isr`` puts the change in flight,
``commit_isr`` / ``abort_isr`` settle it. The caller moves the log's HW to
``high_watermark`` and wakes the delayed operations when a call says it rose.

Kafka's rules (``Partition`` / ``Replica`` of Kafka 4.3), by name:

* ``Replica.updateFetchState``: a follower's LEO is its fetch offset. Its
  ``last_caught_up_time_ms`` becomes the fetch time when the fetch reached the
  leader's LEO as of that fetch, else the previous fetch time when this fetch
  reached the leader's LEO as of the previous fetch (a follower that always
  trails a busy leader by one produce still counts as caught up), else stays.
* ``ReplicaState.isCaughtUp``: LEO == leader LEO, or caught up within
  ``replica.lag.time.max.ms``.
* ``maybeIncrementLeaderHW``: nothing while the ISR is smaller than
  ``min(min.insync.replicas, replication factor)`` (4.x, KIP-966; off with
  ``hold_hw_under_min_isr=False``, as in a ZooKeeper-mode 3.x cluster, where
  the HW moves with any ISR and acks=all answers
  NOT_ENOUGH_REPLICAS_AFTER_APPEND instead); else the HW
  is the smallest LEO among the leader and every follower that is in the
  *maximal* ISR (KIP-497: the committed ISR plus a replica being added) or is
  caught up and eligible, so a catching-up follower is waited for rather than
  left behind forever. The HW never decreases and never passes the leader's LEO.
  Being caught up ends with time: the caller re-evaluates (on appends, duplicates
  included, and periodically), as a follower outside the ISR that stops fetching
  must stop holding the HW back.
* ``getOutOfSyncReplicas`` (ISR shrink): ISR followers not caught up (or
  unknown); none while an ISR change is in flight.
* ``isFollowerInSync`` / ``maybeExpandIsr`` (ISR expand): a follower outside
  the ISR, eligible (the caller's rule; kwire's: registered, not shutting down,
  replica not offline -- KIP-841's ``isReplicaIsrEligible``), whose LEO is at or
  above the HW and at or above the start offset of the leader's current epoch
  (so it holds everything committed before this leader); not while a change
  is in flight.
* ``resetReplicaState`` (becoming leader): followers start with unknown LEOs;
  ISR members count as caught up now, others as never.
* ``checkEnoughReplicasReachOffset`` (acks=all) and the append-time
  NOT_ENOUGH_REPLICAS check.

Not here: the ZooKeeper write of an ISR change, leader election, the
follower's side (``follower.py``), the low watermark for DeleteRecords,
reassignment's adding/removing replicas.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from kwire.protocol.errors import ErrorCode

UNKNOWN_OFFSET = -1


@dataclass
class ReplicaState:
    """What the leader knows of one follower (Kafka's ``ReplicaState``)."""

    replica_id: int
    log_start_offset: int = UNKNOWN_OFFSET
    log_end_offset: int = UNKNOWN_OFFSET
    last_fetch_leader_log_end_offset: int = UNKNOWN_OFFSET
    last_fetch_time_ms: int = 0
    last_caught_up_time_ms: int = 0

    def is_caught_up(self, leader_end_offset: int, now_ms: int, max_lag_ms: int) -> bool:
        return (leader_end_offset == self.log_end_offset
                or now_ms - self.last_caught_up_time_ms <= max_lag_ms)


@dataclass(frozen=True)
class FollowerUpdate:
    """The outcome of ``update_follower``."""

    known: bool  # False: not an assigned replica (nothing recorded)
    high_watermark_changed: bool = False
    expand: tuple[int, ...] | None = None  # an ISR to propose (the follower joins), or None


class LeaderState:
    def __init__(self, leader_id: int, leader_epoch: int, replicas: Iterable[int],
                 isr: Iterable[int], *, leader_log_end_offset: int, high_watermark: int,
                 now_ms: int, replica_lag_time_max_ms: int, min_insync_replicas: int = 1,
                 eligible: Callable[[int], bool] | None = None,
                 hold_hw_under_min_isr: bool = True) -> None:
        """Become leader (Kafka's ``makeLeader``): the epoch starts at the current LEO."""
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replicas = tuple(replicas)
        self.isr: tuple[int, ...] = tuple(isr)
        self.leader_epoch_start_offset = leader_log_end_offset
        self.leader_log_end_offset = leader_log_end_offset
        self.high_watermark = high_watermark
        self.replica_lag_time_max_ms = replica_lag_time_max_ms
        self.min_insync_replicas = min_insync_replicas
        self.eligible = eligible or (lambda _replica_id: True)
        self.hold_hw_under_min_isr = hold_hw_under_min_isr
        self.pending: tuple[int, ...] | None = None  # an ISR proposed, not yet committed
        # one continuous leadership, kept by the replica manager across epoch bumps in which this
        # broker stays leader (its log is never truncated then): acks=all waiters of an earlier
        # epoch of the same tenure keep waiting, as Kafka's DelayedProduce does
        self.tenure: object = self
        self.followers: dict[int, ReplicaState] = {}
        for r in self.replicas:
            if r != leader_id:
                self.followers[r] = ReplicaState(
                    r, last_caught_up_time_ms=now_ms if r in self.isr else 0)

    # -- ISR views --------------------------------------------------------------
    @property
    def in_flight(self) -> bool:
        return self.pending is not None

    @property
    def maximal_isr(self) -> frozenset[int]:
        """The committed ISR, plus a replica being added (never minus one being removed)."""
        if self.pending is None:
            return frozenset(self.isr)
        return frozenset(self.isr) | frozenset(self.pending)

    @property
    def effective_min_isr(self) -> int:
        return min(self.min_insync_replicas, len(self.replicas))

    @property
    def is_under_min_isr(self) -> bool:
        return len(self.isr) < self.effective_min_isr

    # -- follower fetches -------------------------------------------------------
    def update_follower(self, replica_id: int, fetch_offset: int, now_ms: int, *,
                        leader_log_end_offset: int | None = None,
                        log_start_offset: int = UNKNOWN_OFFSET) -> FollowerUpdate:
        """Record a follower's Fetch (Kafka's ``updateFollowerFetchState``).

        ``fetch_offset`` is the follower's LEO; ``leader_log_end_offset`` the
        leader's LEO when the fetch was read (before the read: appends after it
        must not keep a follower out of sync), default the last one known.
        Call it only for fetches answered without error or diverging epoch.
        """
        replica = self.followers.get(replica_id)
        if replica is None:
            return FollowerUpdate(known=False)
        leo = self.leader_log_end_offset if leader_log_end_offset is None else leader_log_end_offset
        prev_end = replica.log_end_offset
        if fetch_offset >= leo:
            caught_up = max(replica.last_caught_up_time_ms, now_ms)
        elif fetch_offset >= replica.last_fetch_leader_log_end_offset:
            caught_up = max(replica.last_caught_up_time_ms, replica.last_fetch_time_ms)
        else:
            caught_up = replica.last_caught_up_time_ms
        replica.log_start_offset = log_start_offset
        replica.log_end_offset = fetch_offset
        replica.last_fetch_leader_log_end_offset = max(leo, replica.last_fetch_leader_log_end_offset)
        replica.last_fetch_time_ms = now_ms
        replica.last_caught_up_time_ms = caught_up
        expand = None
        if self.needs_expand(replica_id):
            expand = tuple(self.isr) + (replica_id,)
        hw_changed = prev_end != fetch_offset and self.maybe_increment_high_watermark(now_ms)
        return FollowerUpdate(True, hw_changed, expand)

    def on_leader_append(self, leader_log_end_offset: int, now_ms: int) -> bool:
        """The leader's LEO moved (an append); True if the HW rose (one replica, or an
        ISR of the leader alone, commits at once)."""
        self.leader_log_end_offset = leader_log_end_offset
        return self.maybe_increment_high_watermark(now_ms)

    def maybe_increment_high_watermark(self, now_ms: int) -> bool:
        """Kafka's ``maybeIncrementLeaderHW``; True if the HW rose."""
        if self.hold_hw_under_min_isr and self.is_under_min_isr:
            return False
        leader_end = self.leader_log_end_offset
        new_hw = leader_end
        maximal = self.maximal_isr
        for r in self.followers.values():
            if r.log_end_offset < new_hw and (
                    r.replica_id in maximal
                    or (r.is_caught_up(leader_end, now_ms, self.replica_lag_time_max_ms)
                        and self.eligible(r.replica_id))):
                new_hw = r.log_end_offset
        if new_hw > self.high_watermark:
            self.high_watermark = new_hw
            return True
        return False

    # -- ISR changes ------------------------------------------------------------
    def needs_expand(self, replica_id: int) -> bool:
        """Kafka's ``canAddReplicaToIsr`` and ``isFollowerInSync``."""
        r = self.followers.get(replica_id)
        if r is None or self.in_flight or replica_id in self.isr or not self.eligible(replica_id):
            return False
        return (r.log_end_offset >= self.high_watermark
                and r.log_end_offset >= self.leader_epoch_start_offset)

    def shrink_candidates(self, now_ms: int) -> set[int]:
        """ISR followers out of sync for longer than replica.lag.time.max.ms (none in flight)."""
        if self.in_flight:
            return set()
        out = set()
        for rid in self.isr:
            if rid == self.leader_id:
                continue
            r = self.followers.get(rid)
            if r is None or not r.is_caught_up(self.leader_log_end_offset, now_ms,
                                               self.replica_lag_time_max_ms):
                out.add(rid)
        return out

    def propose_isr(self, new_isr: Iterable[int]) -> tuple[int, ...]:
        """Put an ISR change in flight (one at a time); returns the ISR to write."""
        if self.in_flight:
            raise RuntimeError(f"an ISR change to {self.pending} is already in flight")
        new = tuple(new_isr)
        if self.leader_id not in new:
            raise ValueError(f"the leader {self.leader_id} must stay in the ISR {new}")
        self.pending = new
        return new

    def commit_isr(self, isr: Iterable[int], now_ms: int) -> bool:
        """The ISR write succeeded (or the controller says ``isr``); True if the HW rose."""
        self.isr = tuple(isr)
        self.pending = None
        return self.maybe_increment_high_watermark(now_ms)

    def abort_isr(self) -> None:
        """The ISR write failed (stale version, ZooKeeper down): nothing changes."""
        self.pending = None

    # -- produce ----------------------------------------------------------------
    def append_error(self, acks: int) -> ErrorCode:
        """Before an append: NOT_ENOUGH_REPLICAS for acks=all below min ISR, else NONE."""
        if acks == -1 and self.is_under_min_isr:
            return ErrorCode.NOT_ENOUGH_REPLICAS
        return ErrorCode.NONE

    def check_enough_replicas(self, required_offset: int) -> tuple[bool, ErrorCode]:
        """acks=all: (done, error) for records ending below ``required_offset``."""
        if self.high_watermark >= required_offset:
            if self.effective_min_isr <= len(self.maximal_isr):
                return True, ErrorCode.NONE
            return True, ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND
        return False, ErrorCode.NONE
