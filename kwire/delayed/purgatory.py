"""Delayed operations ("purgatory"): requests that wait for the log to move.

A long-poll fetch waits until enough bytes are appended or its ``max_wait_ms``
passes; an acks=all produce (with replication) waits until the high watermark
reaches its offsets or its timeout passes. Both watch keys — ``(topic,
partition)`` — and are woken by ``notify(key, nbytes)``, which the broker calls
after every append and high-watermark change. Nothing polls: an append wakes
exactly the operations watching its partition.

Each waiting operation is a ``DelayedOperation`` whose ``check(key,
nbytes)`` returns True once it can complete; it is then resolved and removed
from every key it watched.

Timeouts: not one event-loop timer per operation (creating and cancelling a
loop timer was a sixth of a parked Fetch's broker CPU) but buckets of
``TICK_S`` (1 ms, the tick of Kafka's timing wheel): an operation joins the
bucket of its deadline rounded up, leaves it when it completes, and one loop
timer, at the earliest bucket, resolves what is due (False) and moves on to
the next bucket. A deadline is thus kept to within a tick (at most 1 ms
late; never early under asyncio's loop, at most half a millisecond under
uvloop's, whose timers are whole milliseconds).

Every operation is registered with its kind, named as Kafka's purgatories are
(``FETCH``, ``PRODUCE``, ``REBALANCE``): ``sizes()`` counts the waiting ones by
kind for the ``kafka_server_delayedoperationpurgatory_purgatorysize`` metric.
"""

from __future__ import annotations

import asyncio
from heapq import heappop, heappush
from typing import Callable, Hashable, Iterable

from kwire.clock import sleep

#: Kinds of delayed operations (Kafka's purgatory names, the metric's delayedOperation label).
FETCH = "Fetch"  # long-poll fetches: consumers' and followers'
PRODUCE = "Produce"  # acks=all appends waiting for the ISR (also the coordinators' own writes)
# Group coordinator responses waiting: JoinGroup / SyncGroup for the rest of the group, and in
# a cluster a commit until its records replicate (that one also counts under PRODUCE meanwhile:
# the coordinator's append waits for the ISR like any acks=all produce).
REBALANCE = "Rebalance"
KINDS = (FETCH, PRODUCE, REBALANCE)
TICK_S = 0.001  # timeouts are kept to this granularity (one bucket per tick)


def replica_key(topic: str, partition: int) -> tuple:
    """The key of followers' long-polls on a partition (woken on the leader's appends).

    Consumers' long-polls and acks=all produces watch ``(topic, partition)``,
    woken when the high watermark moves; followers must hear of every append.
    """
    return ("replica", topic, partition)


def replica_fetch_key(replica_id: int) -> tuple:
    """A key every parked Fetch of follower ``replica_id`` also watches: notified (nbytes 0) when
    this broker starts leading a partition that follower replicates, so that its next Fetch,
    sent at once, can name it (``kwire.replication.joining``)."""
    return ("replica-fetch", replica_id)


class DelayedOperation:
    __slots__ = ("keys", "check", "future", "kind", "tick", "purgatory", "forgotten")

    def __init__(self, keys: tuple, check: Callable[[Hashable, int], bool], future: asyncio.Future,
                 kind: str) -> None:
        self.keys = keys
        self.check = check
        self.future = future
        self.kind = kind
        self.tick = 0  # the timeout's bucket (Purgatory._buckets)
        self.purgatory = None
        self.forgotten = False  # removed from every key it watched

    def done(self, _future) -> None:
        """The future's done callback (woken, expired or cancelled): leave the timeout's
        bucket, unwatch."""
        purgatory = self.purgatory
        if not self.forgotten:
            purgatory._forget(self)
        bucket = purgatory._buckets.get(self.tick)
        if bucket is not None:
            bucket.discard(self)
            if not bucket:
                del purgatory._buckets[self.tick]


class Purgatory:
    def __init__(self) -> None:
        self._watchers: dict[Hashable, set[DelayedOperation]] = {}
        self._buckets: dict[int, set[DelayedOperation]] = {}  # deadline tick -> operations
        self._ticks: list[int] = []  # heap of ticks; a tick whose bucket emptied is skipped
        self._loop = None
        self._timer = None  # the one loop timer, at tick _timer_tick
        self._timer_tick = 0

    def watch(self, keys: Iterable[Hashable], check: Callable[[Hashable, int], bool],
              timeout_s: float, kind: str) -> asyncio.Future:
        """Start watching ``keys`` now; the future resolves True when a notify passes
        ``check``, False at the timeout. ``kind``: one of ``KINDS``.

        Registration is synchronous on purpose: a handler that read the log and
        found too little must watch before it returns, because the task that
        awaits the future starts only on a later turn of the event loop, and an
        append made in between (by another connection's request in the same
        turn) would otherwise wake nobody and leave the request waiting for its
        whole timeout. Cancelling the future (e.g. the connection closes) also
        unregisters it.
        """
        if kind not in KINDS:
            raise ValueError(f"unknown delayed operation kind {kind!r}")
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (tests run several): the old one's timeouts go
            self._loop = loop
            self._buckets = {}
            self._ticks = []
            self._timer = None
        future = loop.create_future()
        op = DelayedOperation(tuple(keys), check, future, kind)
        watchers = self._watchers
        for k in op.keys:
            s = watchers.get(k)
            if s is None:
                watchers[k] = {op}
            else:
                s.add(op)
        tick = -int(-(loop.time() + max(timeout_s, 0.0)) // TICK_S)  # the deadline, rounded up
        op.tick = tick
        bucket = self._buckets.get(tick)
        if bucket is None:
            self._buckets[tick] = {op}
            heappush(self._ticks, tick)
            if self._timer is None or tick < self._timer_tick:
                if self._timer is not None:
                    self._timer.cancel()
                self._timer = loop.call_at(tick * TICK_S, self._expire_due)
                self._timer_tick = tick
        else:
            bucket.add(op)
        op.purgatory = self
        future.add_done_callback(op.done)
        return future

    def _expire_due(self) -> None:
        """The timer: resolve (False) the operations of every bucket that is due, then set the
        timer at the next bucket that still holds one."""
        self._timer = None
        loop = self._loop
        ticks, buckets = self._ticks, self._buckets
        # due: the buckets whose tick has come (half a tick of slack: uvloop's timers are whole
        # milliseconds, and a timer run a hair early must not set itself again and spin)
        due = int((loop.time() + TICK_S / 2) // TICK_S)
        while ticks and ticks[0] <= due:
            bucket = buckets.pop(heappop(ticks), None)
            if bucket:
                for op in list(bucket):
                    if not op.future.done():
                        op.future.set_result(False)
        while ticks and ticks[0] not in buckets:  # emptied buckets: nothing to time out there
            heappop(ticks)
        if ticks:
            self._timer_tick = ticks[0]
            self._timer = loop.call_at(ticks[0] * TICK_S, self._expire_due)

    async def wait(self, keys: Iterable[Hashable], check: Callable[[Hashable, int], bool], timeout_s: float,
                   kind: str) -> bool:
        """Wait until ``check(key, nbytes)`` returns True for a notify, or the timeout. True if woken."""
        return await self.watch(keys, check, timeout_s, kind)

    def notify(self, key: Hashable, nbytes: int = 0) -> None:
        ops = self._watchers.get(key)
        if not ops:
            return
        for op in list(ops):
            if not op.future.done() and op.check(key, nbytes):
                op.future.set_result(True)
                self._forget(op)  # now, not in the done callback: later notifies must not see it

    def _forget(self, op: DelayedOperation) -> None:
        op.forgotten = True
        watchers = self._watchers
        for k in op.keys:
            s = watchers.get(k)
            if s is not None:
                s.discard(op)
                if not s:
                    del watchers[k]

    @property
    def waiting(self) -> int:
        return len({op for s in self._watchers.values() for op in s})

    def sizes(self) -> dict[str, int]:
        """Waiting operations by kind (each once, however many keys it watches).

        Safe from another thread (the metrics scrape): it only takes snapshots
        (``list()`` of a dict's values or of a set is atomic under the GIL) and
        takes them again if the loop changed a dict under it meanwhile.
        """
        for attempt in range(3):
            try:
                ops: set[DelayedOperation] = set()
                for s in list(self._watchers.values()):
                    ops.update(list(s))
                break
            except RuntimeError:  # changed size during iteration: the loop moved; try again
                if attempt == 2:
                    raise
                sleep(0)  # kwire.clock: time.sleep fails under libfaketime
        counts = dict.fromkeys(KINDS, 0)
        for op in ops:
            counts[op.kind] += 1
        return counts

    def wake_all(self) -> None:
        """Resolve every waiting operation now (used on shutdown)."""
        for s in list(self._watchers.values()):
            for op in list(s):
                if not op.future.done():
                    op.future.set_result(False)

