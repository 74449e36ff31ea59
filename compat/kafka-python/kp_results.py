"""pytest plugin the runner loads (``-p kp_results``) into kafka-python's own test run.

It does two things and nothing else:

* At start-up, before any conftest is imported, it checks that ``import kafka`` gives the *installed*
  kafka-python of the expected version (``KP_EXPECT_VERSION``) and not a copy
  inside the unpacked sdist (``KP_SDIST_ROOT``); otherwise the run stops with a
  usage error, because its results would describe some other client.
* After each test it appends one JSON line to ``KP_RESULTS`` (the file the
  runner reads): ``{"id", "outcome", "reason", "duration"}`` with outcome one of
  passed / failed / error / skipped. A failure in setup or teardown is "error";
  a skip is never "passed". Lines are written as tests finish, so a run killed
  half-way still leaves the results of the tests that did finish.

It does not decide what counts as a regression (run.py compares with
known_passing.txt) and changes nothing about how the tests run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

_reports: dict[str, dict] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args) -> None:
    # before test/integration/conftest.py (an initial conftest) imports kafka
    import kafka

    expected = os.environ.get("KP_EXPECT_VERSION")
    where = Path(kafka.__file__).resolve()
    sdist_root = os.environ.get("KP_SDIST_ROOT")
    if sdist_root and Path(sdist_root).resolve() in where.parents:
        raise pytest.UsageError(f"kafka imported from the unpacked sdist ({where}), not the installed package")
    if expected and kafka.__version__ != expected:
        raise pytest.UsageError(f"installed kafka-python is {kafka.__version__} ({where}); "
                                f"the tests are from {expected}")


def _one_line(report) -> str:
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr or "")
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return (lines[0] if lines else "")[:300]


def pytest_runtest_logreport(report) -> None:
    rec = _reports.setdefault(report.nodeid, {"id": report.nodeid, "outcome": None, "reason": "",
                                              "duration": 0.0})
    rec["duration"] += report.duration
    if rec["outcome"] in ("failed", "error"):
        pass  # the first problem is the reason; teardown noise after it is not
    elif report.failed:
        rec["outcome"] = "failed" if report.when == "call" else "error"
        rec["reason"] = (f"in {report.when}: " if report.when != "call" else "") + _one_line(report)
    elif report.skipped:
        rec["outcome"] = "skipped"
        rec["reason"] = _one_line(report)
    elif report.when == "call":
        rec["outcome"] = "passed"
    if report.when == "teardown":
        rec["duration"] = round(rec["duration"], 3)
        if rec["outcome"] is None:  # setup passed, no call report: should not happen
            rec["outcome"], rec["reason"] = "error", "no call phase reported"
        path = os.environ.get("KP_RESULTS")
        if path:
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(rec) + "\n")
