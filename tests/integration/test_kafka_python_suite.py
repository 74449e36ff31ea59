"""kafka-python's own integration tests against kwire, through compat/kafka-python/run.py.

The runner runs as a user runs it (a subprocess; it starts its own kwire broker
with kafka-python's fixture settings and stops it) and writes results.json.
Checked here:

* it exits 0: every test in known_passing.txt passed (the runner's own
  comparison), and results.json says the same thing independently: each listed
  test has outcome "passed" (skipped never counts);
* the list is not trivial (at least MIN_KNOWN tests) and the run is complete
  (at least MIN_TOTAL tests reported, so a collection failure cannot pass);
* every test that did not pass is explained in compat/kafka-python/FINDINGS.md;
* the broker logged no ERROR line during the run.

A second, short run against a port where nothing listens checks the runner
itself: a known-passing test that fails makes it exit 1 and name the test.

The sdist comes from ${KWIRE_CACHE:-~/.cache/kwire}/kafka-python-<version>/
(scripts/setup-test-env.sh fetches it); without it the runner downloads it.
The full run takes about 80 s here.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "compat" / "kafka-python" / "run.py"
FINDINGS = ROOT / "compat" / "kafka-python" / "FINDINGS.md"
KNOWN = ROOT / "compat" / "kafka-python" / "known_passing.txt"
MIN_KNOWN = 40
MIN_TOTAL = 60
RUN_TIMEOUT_S = 600


def known_passing() -> list[str]:
    return [ln.split("#", 1)[0].strip() for ln in KNOWN.read_text(encoding="utf-8").splitlines()
            if ln.split("#", 1)[0].strip()]


def run(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(RUNNER), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    out = tmp_path_factory.mktemp("kafka-python-suite")
    proc = run(["--out", str(out), "--run-timeout", str(RUN_TIMEOUT_S - 60)], RUN_TIMEOUT_S)
    results_file = out / "results.json"
    assert results_file.is_file(), f"runner wrote no results (exit {proc.returncode}):\n" \
                                   f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc, json.loads(results_file.read_text(encoding="utf-8"))


@pytest.mark.timeout(RUN_TIMEOUT_S + 60)
def test_known_passing_tests_pass(suite):
    proc, results = suite
    tests = results["tests"]
    not_passing = {t: f"{tests[t]['outcome']}: {tests[t]['reason']}" if t in tests else "not run"
                   for t in known_passing() if tests.get(t, {}).get("outcome") != "passed"}
    assert not not_passing, "known-passing kafka-python tests did not pass:\n" + "\n".join(
        f"  {t}: {why}" for t, why in not_passing.items())
    assert proc.returncode == 0, f"runner exit {proc.returncode}:\n{proc.stdout[-4000:]}\n{proc.stderr[-2000:]}"
    assert results["broker_error_lines"] == [], "kwire logged ERROR lines during the run"


@pytest.mark.timeout(RUN_TIMEOUT_S + 60)
def test_list_and_run_are_not_trivial(suite):
    _, results = suite
    known = known_passing()
    assert len(known) >= MIN_KNOWN
    assert len(set(known)) == len(known), "duplicate ids in known_passing.txt"
    assert len(results["tests"]) >= MIN_TOTAL, f"only {len(results['tests'])} tests reported"
    assert sum(r["outcome"] == "passed" for r in results["tests"].values()) >= MIN_KNOWN


@pytest.mark.timeout(RUN_TIMEOUT_S + 60)
def test_every_test_that_does_not_pass_is_explained(suite):
    _, results = suite
    explained = set(re.findall(r"`(test/integration/[^`]+)`", FINDINGS.read_text(encoding="utf-8")))
    missing = sorted(t for t, r in results["tests"].items() if r["outcome"] != "passed" and t not in explained)
    assert not missing, "not passing and not in compat/kafka-python/FINDINGS.md:\n" + "\n".join(
        f"  {t}: {results['tests'][t]['outcome']}: {results['tests'][t]['reason']}" for t in missing)


@pytest.mark.timeout(180)
def test_runner_fails_when_a_known_passing_test_fails(tmp_path):
    target = "test/integration/test_consumer_integration.py::test_consumer_topics"
    assert target in known_passing()
    with socket.socket() as s:  # a loopback port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = run(["--bootstrap", f"127.0.0.1:{port}", "--out", str(tmp_path), "--timeout", "20",
                "-k", "test_consumer_topics"], 170)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert f"REGRESSION {target}" in proc.stdout
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["tests"][target]["outcome"] in ("failed", "error")
    assert results["tests"][target]["reason"]
