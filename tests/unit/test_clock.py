"""kwire.clock under libfaketime: the sleep every broker thread uses works where ``time.sleep`` fails.

A broker whose wall clock is skewed (``tests/clock_skew.py``: libfaketime with
``DONT_FAKE_MONOTONIC=1``) gets EINVAL from CPython 3.11's ``time.sleep`` for
every duration; kazoo's retries, the cleaner's parent watch, a metrics scrape
and the purgatory's size snapshot sleep through ``kwire.clock.sleep`` instead.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from clock_skew import skewed_env

_CHILD = """
import json, time
from kwire import clock
out = {}
for seconds in (0, 0.05):
    t0 = time.monotonic()
    clock.sleep(seconds)
    out[str(seconds)] = time.monotonic() - t0
out["now_ms"] = clock.now_ms()
print(json.dumps(out))
"""


def test_sleep_and_now_ms_work_under_a_skewed_clock():
    env = {**os.environ, **skewed_env("+300s")}
    before = time.time_ns() // 1_000_000
    proc = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    after = time.time_ns() // 1_000_000
    assert out["0.05"] >= 0.04, out  # a real wait, on the monotonic clock libfaketime leaves alone
    assert out["0"] < 1.0, out
    assert before + 299_000 <= out["now_ms"] <= after + 301_000, (before, out, after)  # the skewed wall clock
