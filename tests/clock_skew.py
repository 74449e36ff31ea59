"""Clock skew for one broker process: the Debian ``faketime`` package's libfaketime.

``skewed_env("+5m")`` is the environment to give one broker
(``make_cluster(env={id: skewed_env("+5m")})``): ``LD_PRELOAD`` of
libfaketime (the thread-safe ``libfaketimeMT``) with ``FAKETIME`` set to a
relative offset, so the process's wall clock (``time.time``,
``CLOCK_REALTIME``) runs that far ahead or behind while its monotonic clock
is left alone (``DONT_FAKE_MONOTONIC=1``) — the skew NTP trouble gives a
machine, not a clock that jumps. ``FAKETIME_FORCE_MONOTONIC_FIX=0`` turns off
the workaround libfaketime enables by itself on this glibc: with it, every
intercepted timed wait (``pthread_cond_timedwait``: the GIL's 5 ms waits while
threads contend for it, kazoo's and the event loop's waits) takes a slow path
of signal masks, locks and re-reading ``FAKETIME``, so a broker's start cost
3-10 CPU-s instead of ~1 (perf: ``pthread_sigmask``, futex wakes and
``sscanf`` were most of its samples). The workaround is for a faked monotonic
clock, which this one is not: without it the waits last as long as they should
(``timed_wait_s`` measures one). ``measure_skew(env)`` runs a Python
subprocess with it and returns (wall-clock offset, monotonic offset) in
seconds, to prove the preload works before a test relies on it;
``timed_wait_s(env)`` how long a 0.2 s timed wait lasts there.
``need_faketime()`` skips (naming the package) when the library is missing;
scripts/setup-test-env.sh installs it.

Not here: jumps of a running clock (libfaketime's ``FAKETIME`` file with
``FAKETIME_NO_CACHE``), skewing ZooKeeper or the clients.
"""

from __future__ import annotations

import glob
import os
import subprocess
import sys
import time

import pytest


def libfaketime() -> str | None:
    for pattern in ("/usr/lib/*/faketime/libfaketimeMT.so.1", "/usr/lib/faketime/libfaketimeMT.so.1"):
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    return None


def need_faketime() -> str:
    lib = libfaketime()
    if lib is None:
        pytest.skip("libfaketime is not installed: apt-get install faketime (scripts/setup-test-env.sh)")
    return lib


def skewed_env(offset: str) -> dict[str, str]:
    """Environment variables that run a process's wall clock ``offset`` ("+5m", "-300s") off."""
    return {"LD_PRELOAD": need_faketime(), "FAKETIME": offset, "DONT_FAKE_MONOTONIC": "1",
            "FAKETIME_FORCE_MONOTONIC_FIX": "0"}


def remove_leftover_shm(since: float) -> int:
    """Delete libfaketime's per-process shared memory and semaphore (``/dev/shm/faketime_shm_<pid>``,
    ``sem.faketime_sem_<pid>``) left by processes that have exited, created at or after ``since``.

    libfaketime 0.9.10 creates both for every process it is preloaded into and leaves them behind
    even on a clean exit; a later process given the same pid could then fail to create its own.
    Files of live processes, and older files, are left alone. Returns how many were removed."""
    removed = 0
    for path in glob.glob("/dev/shm/faketime_shm_*") + glob.glob("/dev/shm/sem.faketime_sem_*"):
        pid = path.rpartition("_")[2]
        if not pid.isdigit() or os.path.exists(f"/proc/{pid}"):
            continue
        try:
            if os.stat(path).st_mtime < since:
                continue
            os.unlink(path)
            removed += 1
        except OSError:
            pass  # gone already, or not ours to remove
    return removed


def measure_skew(env: dict[str, str]) -> tuple[float, float]:
    """(wall clock - ours, monotonic - ours) in seconds, as a Python subprocess with ``env`` sees them."""
    code = "import time; print(time.time(), time.monotonic())"
    before_wall, before_mono = time.time(), time.monotonic()
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True,
                         text=True, check=True, timeout=60).stdout.split()
    after_wall, after_mono = time.time(), time.monotonic()
    wall, mono = float(out[0]), float(out[1])
    # the child read its clocks between our two readings: compare with their midpoint
    return wall - (before_wall + after_wall) / 2, mono - (before_mono + after_mono) / 2


def timed_wait_s(env: dict[str, str], seconds: float = 0.2) -> float:
    """How long (by the monotonic clock) a ``seconds`` timed wait on an event nobody sets lasts in
    a Python subprocess with ``env``: a preload that broke timed waits returns at once or hangs."""
    code = ("import threading, time; t = time.monotonic(); "
            f"threading.Event().wait({seconds}); print(time.monotonic() - t)")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True,
                         text=True, check=True, timeout=60).stdout
    return float(out)
