"""A limit on concurrent heavy starts across the pytest-xdist workers of one run.

Starting a 3-broker cluster (three ``kwire serve`` interpreters importing kwire, registering in
ZooKeeper, electing a controller) costs several CPU-seconds in a burst. When every worker starts
one at once (the heavy modules are handed out first), a 2-core machine's load spikes and
timing-sensitive tests flake. ``heavy_start()`` lets at most ``KWIRE_TEST_HEAVY_STARTS`` (default
2) such starts of the same run proceed at a time; the others wait their turn.

What it does: ``with heavy_start():`` around the start only (never around a whole test),
taking one of N slot files with ``flock`` in a directory named after the xdist run
(``PYTEST_XDIST_TESTRUNUID``), so concurrent runs (other sessions, other checkouts) never wait
on each other. A slot is released when the block ends or the process dies (the kernel drops the
lock).

What it does not do: limit anything without xdist (one process starts one thing at a time
anyway); make a test fail. A start that waited ``MAX_WAIT_S`` goes ahead without a slot (a
lock holder may itself be waiting on something slow), so the limit can only delay, never block.
``KWIRE_TEST_HEAVY_STARTS=0`` turns it off.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time

MAX_WAIT_S = 60.0


def _slots() -> int:
    try:
        return max(0, int(os.environ.get("KWIRE_TEST_HEAVY_STARTS", "2")))
    except ValueError:
        return 2


@contextlib.contextmanager
def heavy_start(run: str | None = None):
    """Hold one of the run's heavy-start slots for the block (see the module docstring);
    ``run``: the xdist run id, by default this worker's."""
    if run is None:
        run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    n = _slots()
    if not run or n == 0:
        yield
        return
    d = os.path.join(tempfile.gettempdir(), f"kwire-heavy-starts-{run}")
    os.makedirs(d, exist_ok=True)
    held = None
    deadline = time.monotonic() + MAX_WAIT_S
    while held is None and time.monotonic() < deadline:
        for i in range(n):
            f = open(os.path.join(d, f"slot-{i}"), "a")
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                f.close()
                continue
            held = f
            break
        else:
            time.sleep(0.2)
    try:
        yield
    finally:
        if held is not None:
            fcntl.flock(held, fcntl.LOCK_UN)
            held.close()
