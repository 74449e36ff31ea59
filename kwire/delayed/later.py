"""``Later``: a handler's answer that is ready when one future is, without a Task.

A handler that must wait (a long-poll Fetch parked in the purgatory) can
return a coroutine, which the connection runs as an ``asyncio.Task``: a
coroutine object, a Task, its registration in asyncio's task set and a task
step on wake-up, per request. When the wait is a single future and what
follows it is a plain function, the handler returns ``Later(future, then)``
instead: the connection adds a done callback to the future and, when it is
done, answers with ``then(future.result())``. The answer comes on the same
loop turn a Task would have resumed on (the future schedules its callbacks
with ``call_soon`` either way).

Cancelling ``future`` (the connection closes) cancels the wait; ``then`` is
not called. ``Later`` is also awaitable, for callers that await a handler's
result (``await later`` is ``then(await future)``).

Not for waits of several steps or with their own error handling: those stay
coroutines.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable


class Later:
    __slots__ = ("future", "then")

    def __init__(self, future: asyncio.Future, then: Callable[[Any], Any]) -> None:
        self.future = future
        self.then = then

    def __await__(self):
        result = yield from self.future.__await__()
        return self.then(result)
