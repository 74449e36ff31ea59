"""kwire.server.heap: glibc keeps freed request buffers for reuse instead of faulting in new pages.

Each check runs in a fresh interpreter (``mallopt`` changes the whole process).
The churn allocates and frees 1 MiB ``bytearray``s with up to 30 alive at a
time, as a partition leader holds acks=all Produce frames; glibc's default
gives the heap's top back and faults it in again (about 120 faults per MB on
the 2-core test machine); tuned, the heap is reused.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def _glibc() -> bool:
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (ValueError, OSError):
        return False


pytestmark = pytest.mark.skipif(not _glibc(), reason="glibc's mallopt only")

CHURN = """
import json, random, resource, sys
from kwire.server.heap import tune_malloc
tuned = tune_malloc()
random.seed(7)
live = []
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(200):  # the heap reaches its peak first: those faults are the one-time cost
    live.append(bytearray(1 << 20))
    if len(live) > 30:
        del live[:random.randint(1, 30)]
f0 = faults()
for _ in range(2000):
    live.append(bytearray(random.randint(900_000, 1 << 20)))
    if len(live) > random.randint(1, 30):
        del live[:random.randint(1, len(live))]
print(json.dumps({"tuned": tuned, "faults_per_mb": (faults() - f0) / 2000}))
"""


def _churn(env_extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    env.update(env_extra)
    out = subprocess.run([sys.executable, "-c", CHURN], env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_tuned_heap_reuses_large_buffers():
    got = _churn({})
    assert got["tuned"] is True
    # a MiB is 256 pages: faulting each buffer in again would be ~250 per MB
    assert got["faults_per_mb"] < 20, got


def test_an_explicit_malloc_environment_is_left_alone():
    got = _churn({"MALLOC_TRIM_THRESHOLD_": str(1 << 20)})
    assert got["tuned"] is False
