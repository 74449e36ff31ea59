"""The wall clock in milliseconds and a sleep that works under libfaketime.

* ``now_ms()``: the wall clock in milliseconds since the epoch, what Kafka's
  ``time.milliseconds()`` gives (record timestamps, expiry deadlines).
* ``sleep(seconds)``: a blocking sleep for threads (kazoo's retries, the
  cleaner's parent watch, a metrics scrape handing the GIL to the event loop).
  Not ``time.sleep``: CPython 3.11 sleeps with an absolute
  ``clock_nanosleep(CLOCK_MONOTONIC)``, which libfaketime 0.9.10 with
  ``DONT_FAKE_MONOTONIC=1`` (a broker whose wall clock is skewed,
  ``tests/clock_skew.py``) fails with EINVAL for every duration, 0 included.
  A positive duration is a timed wait on an event nobody sets; 0 is
  ``os.sched_yield``, which, like ``time.sleep(0)``, lets other threads take
  the GIL.

No state, no imports from kwire: every layer may use it. Not here: the
event loop's time (coroutines use ``asyncio.sleep`` and the loop's timers,
which libfaketime does not break).
"""

from __future__ import annotations

import os
import threading
import time

_NEVER = threading.Event()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def sleep(seconds: float) -> None:
    if seconds > 0:
        _NEVER.wait(seconds)
    else:
        os.sched_yield()
