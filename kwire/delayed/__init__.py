"""kwire.delayed: delayed operations ("purgatory") -- requests that wait for the log to move.

A low-level package: it imports nothing of kwire, so the broker, the
replica manager, the group coordinator and the Fetch handler can all park
requests here and wake them on appends and high-watermark changes. It does
no I/O of its own; timeouts are the running event loop's timers. See
``purgatory.py`` for the mechanism and its invariants.
"""

from .later import Later
from .purgatory import (FETCH, KINDS, PRODUCE, REBALANCE, DelayedOperation, Purgatory, replica_fetch_key,
                        replica_key)

__all__ = ["DelayedOperation", "FETCH", "KINDS", "Later", "PRODUCE", "Purgatory", "REBALANCE", "replica_fetch_key",
           "replica_key"]
