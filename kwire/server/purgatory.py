"""Delayed operations ("purgatory"): requests that wait for the log to move.

A long-poll fetch waits until enough bytes are appended or its ``max_wait_ms``
passes; an acks=all produce (with replication) waits until the high watermark
reaches its offsets or its timeout passes. Both watch keys — ``(topic,
partition)`` — and are woken by ``notify(key, nbytes)``, which the broker calls
after every append and high-watermark change. Nothing polls: an append wakes
exactly the operations watching its partition.

Each waiting operation is a ``DelayedOperation`` whose ``on_notify(key,
nbytes)`` returns True once it can complete; it is then resolved and removed
from every key it watched. Timeouts are the event loop's timers.
"""

from __future__ import annotations

import asyncio
from typing import Callable, Hashable, Iterable


class DelayedOperation:
    __slots__ = ("keys", "check", "future")

    def __init__(self, keys: tuple, check: Callable[[Hashable, int], bool], future: asyncio.Future) -> None:
        self.keys = keys
        self.check = check
        self.future = future


class Purgatory:
    def __init__(self) -> None:
        self._watchers: dict[Hashable, set[DelayedOperation]] = {}

    def watch(self, keys: Iterable[Hashable], check: Callable[[Hashable, int], bool],
              timeout_s: float) -> asyncio.Future:
        """Start watching ``keys`` now; the future resolves True when a notify passes
        ``check``, False at the timeout.

        Registration is synchronous on purpose: a handler that read the log and
        found too little must watch before it returns, because the task that
        awaits the future starts only on a later turn of the event loop, and an
        append made in between (by another connection's request in the same
        turn) would otherwise wake nobody and leave the request waiting for its
        whole timeout. Cancelling the future (e.g. the connection closes) also
        unregisters it.
        """
        loop = asyncio.get_running_loop()
        op = DelayedOperation(tuple(keys), check, loop.create_future())
        for k in op.keys:
            self._watchers.setdefault(k, set()).add(op)
        handle = loop.call_later(max(timeout_s, 0.0), _expire, op.future)

        def done(_f) -> None:
            handle.cancel()
            self._forget(op)

        op.future.add_done_callback(done)
        return op.future

    async def wait(self, keys: Iterable[Hashable], check: Callable[[Hashable, int], bool], timeout_s: float) -> bool:
        """Wait until ``check(key, nbytes)`` returns True for a notify, or the timeout. True if woken."""
        return await self.watch(keys, check, timeout_s)

    def notify(self, key: Hashable, nbytes: int = 0) -> None:
        ops = self._watchers.get(key)
        if not ops:
            return
        for op in list(ops):
            if not op.future.done() and op.check(key, nbytes):
                op.future.set_result(True)
                self._forget(op)  # now, not in the done callback: later notifies must not see it

    def _forget(self, op: DelayedOperation) -> None:
        for k in op.keys:
            s = self._watchers.get(k)
            if s is not None:
                s.discard(op)
                if not s:
                    del self._watchers[k]

    @property
    def waiting(self) -> int:
        return len({op for s in self._watchers.values() for op in s})

    def wake_all(self) -> None:
        """Resolve every waiting operation now (used on shutdown)."""
        for s in list(self._watchers.values()):
            for op in list(s):
                if not op.future.done():
                    op.future.set_result(False)


def _expire(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(False)
