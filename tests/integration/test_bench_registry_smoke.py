"""``python -m kwire.bench.registry`` end to end with tiny counts: a smoke test, not a benchmark.

It checks that the registry figures and the alternating validation on/off
produce rounds run and that the JSON has the documented shape (per-round
records/s and ratios, the median ratio, broker CPU per record, the load
average). No speed is asserted: the machine is shared.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(240)

ROOT = Path(__file__).resolve().parents[2]


def test_registry_bench_reports_alternating_validation_rounds():
    proc = subprocess.run(
        [sys.executable, "-m", "kwire.bench.registry", "--quick", "--rounds", "2", "--records", "3000",
         "--requests", "80"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=220)
    assert proc.returncode == 0, (proc.stdout[-2000:], proc.stderr[-3000:])
    out = json.loads(proc.stdout)
    check(out)


def check(out: dict) -> None:
    assert out["register"]["n"] == 8 and out["lookup_by_id"]["n"] == 80 and out["lookup_by_id"]["p50_ms"] > 0
    per = out["produce_records_per_s"]
    assert len(per["on"]) == len(per["off"]) == 2 and min(per["on"] + per["off"]) > 0
    assert len(out["produce_validation_on_vs_off_per_round"]) == 2
    assert out["produce_validation_on_vs_off"] > 0 and out["records_per_round"] == 3000
    cpu = out["cpu_us_per_record"]
    assert cpu["on"] >= 0 and cpu["off"] >= 0 and set(cpu) == {"on", "off", "on_vs_off"}
    assert len(out["load_average_before_after"]) == 6
