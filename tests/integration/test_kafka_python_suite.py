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
* the broker logged no ERROR line during the run;
* a test run a second time (run.py does that only for FINDINGS.md's client
  races) is one of those, and the client race named there is real:
  test_the_client_race_is_real makes it happen with a relay that holds
  Metadata responses back, so the section goes once a kafka-python fixes it.

A second, short run against a port where nothing listens checks the runner
itself: a known-passing test that fails makes it exit 1 and name the test.

The sdist comes from ${KWIRE_CACHE:-~/.cache/kwire}/kafka-python-<version>/
(scripts/setup-test-env.sh fetches it); without it the runner downloads it.
The full run takes about 80 s here.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import socket
import struct
import subprocess
import sys
import threading
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


def races() -> list[str]:
    """FINDINGS.md's client-race tests (run.py's ``read_races``)."""
    spec = importlib.util.spec_from_file_location("kafka_python_run", RUNNER)
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    return runner.read_races()


@pytest.mark.timeout(RUN_TIMEOUT_S + 60)
def test_only_client_races_were_run_again(suite):
    _, results = suite
    again = results["run_again"]
    assert set(again) <= set(races()), f"run again but not a client race in FINDINGS.md: {again}"
    assert {t for t, r in results["tests"].items() if "first" in r} == set(again)
    for t in again:  # shown in the test's output, so a second run is never silent
        print(f"run again: {t}: first {results['tests'][t]['first']}, then {results['tests'][t]['outcome']}")


@pytest.mark.timeout(240)
def test_runner_fails_when_a_known_passing_test_fails(tmp_path):
    target = "test/integration/test_consumer_integration.py::test_consumer_topics"
    race = "test/integration/test_producer_integration.py::test_idempotent_producer_max_in_flight[1]"
    assert target in known_passing() and race in known_passing() and race in races()
    with socket.socket() as s:  # a loopback port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = run(["--bootstrap", f"127.0.0.1:{port}", "--out", str(tmp_path), "--timeout", "10",
                "-k", "test_consumer_topics or (max_in_flight and 1)"], 230)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert f"REGRESSION {target}" in proc.stdout and f"REGRESSION {race}" in proc.stdout
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["tests"][target]["outcome"] in ("failed", "error")
    assert results["tests"][target]["reason"]
    # the client-race test was run a second time (and failed again); the other one was not
    assert results["run_again"] == [race], results["run_again"]
    assert results["tests"][race]["outcome"] in ("failed", "error")
    assert results["tests"][race]["first"]["outcome"] in ("failed", "error")
    assert "first" not in results["tests"][target]
    assert f"RUN AGAIN {race}" in proc.stdout


class MetadataHold:
    """A relay on 127.0.0.1 in front of a broker that holds each Metadata response back ``hold`` s.

    It reads whole frames both ways: the correlation ids of Metadata requests
    (API key 3) from the client, and the responses carrying those ids from the
    broker, which it sends on after the hold. Everything else passes at once.
    """

    def __init__(self, target: str, hold: float) -> None:
        host, port = target.rsplit(":", 1)
        self.target, self.hold = (host, int(port)), hold
        self.loop = asyncio.new_event_loop()
        self.port = None
        self.metadata_asked = threading.Event()  # a Metadata request has passed
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        assert ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        async def frame(r):
            head = await r.readexactly(4)
            return head + await r.readexactly(struct.unpack(">i", head)[0])

        async def requests(r, w, held):
            while True:
                f = await frame(r)
                if struct.unpack(">h", f[4:6])[0] == 3:
                    held.add(struct.unpack(">i", f[8:12])[0])
                    self.metadata_asked.set()
                w.write(f)

        async def responses(r, w, held):
            while True:
                f = await frame(r)
                if struct.unpack(">i", f[4:8])[0] in held:
                    await asyncio.sleep(self.hold)
                w.write(f)

        async def relay(cr, cw):
            sr, sw = await asyncio.open_connection(*self.target)
            held: set[int] = set()
            try:  # until either side closes
                await asyncio.gather(requests(cr, sw, held), responses(sr, cw, held))
            except (asyncio.IncompleteReadError, ConnectionError):
                pass
            finally:
                cw.close()
                sw.close()

        async def main():
            self.server = await asyncio.start_server(relay, "127.0.0.1", 0)
            self.port = self.server.sockets[0].getsockname()[1]
            ready.set()
            await self.server.serve_forever()

        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(main())
        except asyncio.CancelledError:
            pass

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.server.close)


@pytest.mark.timeout(120)
def test_the_client_race_is_real(broker):
    """FINDINGS.md's client race: a subscribe() made while the bootstrap Metadata is in flight is lost."""
    from kafka import KafkaConsumer, KafkaProducer
    from kafka.admin import KafkaAdminClient, NewTopic

    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    admin.create_topics([NewTopic("race", 4, 1)])
    admin.close()
    producer = KafkaProducer(bootstrap_servers=broker.bootstrap)
    for i in range(20):
        producer.send("race", value=b"%d" % i)
    producer.flush()
    producer.close()

    def consume(hold: float):
        relay = MetadataHold(broker.bootstrap, hold)
        try:
            # as kafka-python's test fixture makes it: api_version given, so no version probe
            # before the constructor returns (the bootstrap runs in the client's I/O thread)
            c = KafkaConsumer(bootstrap_servers=f"127.0.0.1:{relay.port}", group_id=None, api_version=(4, 3),
                              auto_offset_reset="earliest", consumer_timeout_ms=4000)
            try:
                if hold:  # subscribe while the bootstrap Metadata request's answer is held
                    assert relay.metadata_asked.wait(10)
                else:  # subscribe once the bootstrap is done: no Metadata request in flight
                    c.bootstrap(10000)
                c.subscribe(["race"])
                return sum(1 for _ in c), c.assignment()
            finally:
                c.close()
        finally:
            relay.close()

    read, assigned = consume(0.0)
    assert read == 20 and len(assigned) == 4, "subscribed after the bootstrap, the consumer reads every record"
    read, assigned = consume(1.0)
    assert read == 0 and not assigned, (
        f"kafka-python kept the subscription this time ({read} records, {len(assigned)} partitions):"
        " if it no longer has the race, drop FINDINGS.md's 'Client races' section and run.py's second run")
