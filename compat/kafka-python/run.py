#!/usr/bin/env python3
"""Run kafka-python's own integration tests (``test/integration/``) against a broker.

    python compat/kafka-python/run.py                      # starts a kwire broker itself
    python compat/kafka-python/run.py --bootstrap HOST:PORT --kafka-version 4.3.0
    python compat/kafka-python/run.py --out DIR -k consumer --update-known
    python compat/kafka-python/run.py --fetch-only          # just cache the sdist, print its path

Steps:

1. The sdist. kafka-python's source distribution on PyPI carries its tests;
   it is cached as ``${KWIRE_CACHE:-~/.cache/kwire}/kafka-python-<VERSION>/``
   and fetched with ``pip download --no-binary :all: --no-deps`` only when the
   cache does not have it (``scripts/setup-test-env.sh`` runs ``--fetch-only``).
   Only its ``test/`` tree is unpacked, into a temporary directory, with two
   additions the sdist lacks: ``test/__init__.py`` (so ``test`` is this tree and
   not CPython's own ``test`` package) and ``test/service.py`` (shim_service.py).
2. Which kafka-python runs. The tests import the *installed* kafka-python, the
   one pinned in kwire's ``test`` extra, and VERSION below must equal it: that
   is the client the rest of kwire's suite (compat/, tests/integration/) uses,
   installed the way users get it (wheel, package data, dependencies), so a
   result here is a statement about that client. The sdist's own ``kafka/``
   is the same code but is never unpacked, so it cannot shadow the installed
   package through ``sys.path``; kp_results.py checks at start-up that
   ``kafka`` came from outside the unpacked tree and has VERSION, and the run
   stops otherwise. VERSION is 3.0.12 because that is what the test extra pins;
   the integration tests of 3.0.11 and 3.0.12 are identical.
3. The broker. With ``--bootstrap`` the tests run against that address
   (``KAFKA_URI=tcp://HOST:PORT``); its configuration is up to you, and
   kafka-python's tests assume the settings of their own fixture broker
   (group.min.session.timeout.ms=1000, advertised.listeners set, 4 partitions
   by default, an ACL authorizer open to all while no ACL matches; see
   KWIRE_OVERRIDES). Without it, a kwire broker is started
   with compat.broker.KwireBroker and exactly those settings, and stopped after.
   ``KAFKA_VERSION`` (``--kafka-version``, default 4.3.0: kwire implements
   Kafka 4.3's API versions) selects version-gated tests and is what the
   clients are told the broker is. It must describe the broker: with 3.9.0
   against kwire, test_kafka_version_infer fails (kafka-python infers 4.3
   from kwire's ApiVersions) and the 4.x-only tests are skipped, not run.
   ``KAFKA_ROOT`` names an empty directory
   because the fixture insists it exists (it is only used to start brokers).
4. The run. ``python -m pytest test/integration`` in the unpacked tree, with
   pytest-timeout's per-test limit (``--timeout``, default 30 s) and a limit
   for the whole run (``--run-timeout``), in its own process group, killed
   when the limit passes. kp_results.py records each test as it finishes.
5. Results. ``--out DIR`` (default: a new temporary directory) gets
   ``results.json`` (test id -> outcome, one-line reason, seconds),
   ``junit.xml``, ``pytest.log`` and, when it started one, ``broker.log`` (its
   ERROR lines are also in results.json as ``broker_error_lines``). A
   summary is printed, then the comparison with ``known_passing.txt`` (one
   pytest node id per line, ``#`` comments): the exit status is 1 when a listed
   test did not pass (failed, error, skipped or not run), 0 otherwise; tests
   that pass but are not listed are printed, not failed. ``--update-known``
   rewrites the list from this run (its passing tests) instead of comparing.
   Exit status 2: the run could not start (no sdist, wrong kafka-python, no
   broker).
6. A second run, for client races only. FINDINGS.md's "Client races" section
   names tests that a kafka-python defect can fail whatever the broker does
   (each with the defect and how it was shown). When one of those did not
   pass, it is run once more, alone, against the same broker (results in
   ``DIR/second-run/``); its outcome is the second one, and results.json keeps
   the first as ``first`` and lists such tests under ``run_again``. A test not
   in that section is never run again.

What it does not do: judge *why* a test fails (FINDINGS.md beside this file
does that), or run kafka-python's unit tests (they need no broker).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from compat.broker import BrokerError, KwireBroker  # noqa: E402

VERSION = "3.0.12"
SDIST = f"kafka_python-{VERSION}.tar.gz"
KNOWN = HERE / "known_passing.txt"
FINDINGS = HERE / "FINDINGS.md"
RACES_HEADING = "## Client races"
DEFAULT_KAFKA_VERSION = "4.3.0"

# The settings of kafka-python's fixture broker (its servers/4.0.0/resources/
# kafka.properties) that its tests depend on: test_group asks for a 3 s session
# timeout (Kafka's default minimum is 6 s), the broker-config test expects
# advertised.listeners to be set statically, topics default to 4 partitions, and
# the producer tests send to topics they never create (Kafka's default
# auto.create.topics.enable=true, which compat.broker turns off for compat).
KWIRE_OVERRIDES = {
    "auto.create.topics.enable": "true",
    "advertised.listeners": "PLAINTEXT://127.0.0.1:0",  # port 0: follows the bound port
    "num.partitions": "4",
    "default.replication.factor": "1",
    "offsets.topic.num.partitions": "2",
    "offsets.topic.replication.factor": "1",
    "group.min.session.timeout.ms": "1000",
    "group.initial.rebalance.delay.ms": "0",
    # the fixture's _acl_config: Kafka's ACL authorizer, open while a resource has no ACLs
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "allow.everyone.if.no.acl.found": "true",
}

OUTCOMES = ("passed", "failed", "error", "skipped")


class RunError(Exception):
    """The run could not start (exit status 2)."""


def cache_dir() -> Path:
    base = os.environ.get("KWIRE_CACHE") or os.path.expanduser("~/.cache/kwire")
    return Path(base) / f"kafka-python-{VERSION}"


def fetch_sdist() -> Path:
    """The cached sdist, downloaded with pip first if it is not there yet."""
    target = cache_dir() / SDIST
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        argv = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q",
                "--no-binary", ":all:", "--no-deps", f"kafka-python=={VERSION}", "-d", tmp]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        got = Path(tmp) / SDIST
        if proc.returncode != 0 or not got.is_file():
            raise RunError(f"pip download of kafka-python=={VERSION} failed ({proc.returncode}):\n"
                           + (proc.stderr or proc.stdout)[-2000:])
        os.replace(got, target)  # atomic: a half-downloaded file is never taken for the cache
    return target


def check_installed() -> None:
    try:
        installed = importlib.metadata.version("kafka-python")
    except importlib.metadata.PackageNotFoundError:
        raise RunError("kafka-python is not installed (pip install -e '.[test]')") from None
    if installed != VERSION:
        raise RunError(f"installed kafka-python is {installed}, these tests are from {VERSION}: "
                       f"change VERSION in {Path(__file__).name} with the pin in pyproject.toml "
                       "and re-check known_passing.txt")


def unpack_tests(sdist: Path, dest: Path) -> Path:
    """Extract only ``<top>/test/`` into dest; return the directory holding ``test/``."""
    prefix = f"kafka_python-{VERSION}/test/"
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(prefix)]
        if not any(m.name.startswith(prefix + "integration/") for m in members):
            raise RunError(f"{sdist} has no {prefix}integration/")
        tar.extractall(dest, members=members, filter="data")
    top = dest / f"kafka_python-{VERSION}"
    (top / "test" / "__init__.py").touch()
    shutil.copyfile(HERE / "shim_service.py", top / "test" / "service.py")
    (top / "pytest.ini").write_text(
        "[pytest]\n"
        "# kafka-python's own pytest settings live in its pyproject.toml, which is not unpacked\n"
        "filterwarnings =\n"
        "    ignore::DeprecationWarning\n", encoding="utf-8")
    (top / "kafka-root-unused").mkdir()
    return top


def run_pytest(top: Path, bootstrap: str, kafka_version: str, out: Path, timeout_s: int,
               run_timeout_s: int, extra: list[str],
               tests: tuple[str, ...] = ("test/integration",)) -> tuple[int | None, float]:
    """Run ``tests`` (paths or node ids); return (pytest's exit code or None when killed, seconds)."""
    results = out / "results.jsonl"
    results.unlink(missing_ok=True)
    env = dict(os.environ)
    env.update({
        "KAFKA_URI": f"tcp://{bootstrap}",
        "KAFKA_VERSION": kafka_version,
        "KAFKA_ROOT": str(top / "kafka-root-unused"),
        "KP_RESULTS": str(results),
        "KP_EXPECT_VERSION": VERSION,
        "KP_SDIST_ROOT": str(top),
        # the unpacked tree first, so `test` is kafka-python's and not CPython's
        "PYTHONPATH": os.pathsep.join([str(top), str(HERE)]),
    })
    env.pop("PYTEST_ADDOPTS", None)
    argv = [sys.executable, "-m", "pytest", "-p", "kp_results", "-p", "no:cacheprovider",
            "-c", str(top / "pytest.ini"), "--rootdir", str(top),
            f"--timeout={timeout_s}", "-q", "-rfEs", "--junitxml", str(out / "junit.xml"),
            *tests, *extra]
    start = time.monotonic()
    with open(out / "pytest.log", "wb") as log:
        proc = subprocess.Popen(argv, cwd=top, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            rc = proc.wait(run_timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
            rc = None
    return rc, time.monotonic() - start


def read_results(out: Path) -> dict[str, dict]:
    path = out / "results.jsonl"
    results: dict[str, dict] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                results[rec["id"]] = rec
    return results


def read_known(path: Path = KNOWN) -> list[str]:
    """Test ids in known_passing.txt, without comments and blank lines."""
    if not path.is_file():
        return []
    ids = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            ids.append(line)
    return ids


def read_races(path: Path = FINDINGS) -> list[str]:
    """Test ids in FINDINGS.md's section on client races (a backticked id per table row)."""
    if not path.is_file():
        return []
    ids, inside = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line.startswith(RACES_HEADING)
        elif inside and line.startswith("| `test/"):
            ids.append(line.split("`", 2)[1])
    return ids


def second_run(results: dict[str, dict], first_out: Path, run) -> list[str]:
    """Run once more the client-race tests (FINDINGS.md) that did not pass; merge the outcomes.

    ``run(out, node_ids)`` runs those tests with their results in ``out``. A test
    that passes the second time keeps outcome "passed" with ``first`` holding
    its first outcome and reason; one that fails again keeps the second failure.
    Returns the ids run again.
    """
    again = [t for t in read_races() if t in results and results[t]["outcome"] != "passed"]
    if not again:
        return []
    out = first_out / "second-run"
    out.mkdir(exist_ok=True)
    run(out, tuple(again))
    for t, rec in read_results(out).items():
        if t in again:
            rec["first"] = {"outcome": results[t]["outcome"], "reason": results[t]["reason"]}
            results[t] = rec
    return again


def write_known(results: dict[str, dict], kafka_version: str, path: Path = KNOWN) -> list[str]:
    passing = sorted(t for t, r in results.items() if r["outcome"] == "passed")
    header = (f"# kafka-python {VERSION} integration tests that pass against kwire\n"
              f"# (KAFKA_VERSION={kafka_version}, broker started by run.py).\n"
              "# run.py exits 1 when one of these does not pass. Regenerate with\n"
              "#   python compat/kafka-python/run.py --update-known\n"
              "# and explain every test that is not here in FINDINGS.md.\n")
    path.write_text(header + "".join(t + "\n" for t in passing), encoding="utf-8")
    return passing


def compare(results: dict[str, dict], known: list[str]) -> tuple[list[str], list[str]]:
    """(known-passing tests that did not pass, passing tests that are not listed)."""
    regressions = [t for t in known if results.get(t, {}).get("outcome") != "passed"]
    listed = set(known)
    unlisted = sorted(t for t, r in results.items() if r["outcome"] == "passed" and t not in listed)
    return regressions, unlisted


def print_summary(results: dict[str, dict], seconds: float, rc: int | None) -> None:
    counts = {o: sum(1 for r in results.values() if r["outcome"] == o) for o in OUTCOMES}
    for rec in sorted(results.values(), key=lambda r: r["id"]):
        if rec["outcome"] != "passed":
            print(f"{rec['outcome'].upper():8} {rec['id']}: {rec['reason']}")
    how = "killed at the run time limit" if rc is None else f"pytest exit {rc}"
    print(f"\nkafka-python {VERSION} integration tests: {len(results)} run, "
          + ", ".join(f"{counts[o]} {o}" for o in OUTCOMES) + f" in {seconds:.0f} s ({how})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bootstrap", metavar="HOST:PORT", help="broker to test (default: start kwire)")
    ap.add_argument("--kafka-version", default=DEFAULT_KAFKA_VERSION,
                    help=f"KAFKA_VERSION for the tests (default {DEFAULT_KAFKA_VERSION})")
    ap.add_argument("--out", type=Path, help="directory for results (default: a new temp dir)")
    ap.add_argument("--timeout", type=int, default=30, help="per-test limit, seconds (default 30)")
    ap.add_argument("--run-timeout", type=int, default=900, help="whole-run limit, seconds (default 900)")
    ap.add_argument("--update-known", action="store_true", help="rewrite known_passing.txt from this run")
    ap.add_argument("--fetch-only", action="store_true", help="cache the sdist, print its path, exit")
    ap.add_argument("-k", dest="keyword", help="pytest -k expression (a subset of the tests)")
    args = ap.parse_args(argv)
    if args.update_known and args.keyword:
        ap.error("--update-known needs the whole suite; drop -k")

    try:
        sdist = fetch_sdist()
        if args.fetch_only:
            print(sdist)
            return 0
        check_installed()
    except (RunError, subprocess.TimeoutExpired) as e:
        print(f"run.py: {e}", file=sys.stderr)
        return 2

    out = args.out or Path(tempfile.mkdtemp(prefix="kafka-python-suite-"))
    out.mkdir(parents=True, exist_ok=True)
    extra = ["-k", args.keyword] if args.keyword else []
    broker = None
    again: list[str] = []
    with tempfile.TemporaryDirectory(prefix="kafka-python-tests-") as tmp:
        try:
            top = unpack_tests(sdist, Path(tmp) / "src")
            bootstrap = args.bootstrap
            if not bootstrap:
                broker = KwireBroker(Path(tmp) / "data", out / "broker.log", KWIRE_OVERRIDES)
                bootstrap = broker.start()
                print(f"kwire broker on {bootstrap} (log: {out / 'broker.log'})")
            rc, seconds = run_pytest(top, bootstrap, args.kafka_version, out, args.timeout,
                                     args.run_timeout, extra)
            results = read_results(out)
            if not args.update_known:
                again = second_run(results, out, lambda o, ids: run_pytest(
                    top, bootstrap, args.kafka_version, o, args.timeout, args.run_timeout, [], ids))
        except (RunError, BrokerError) as e:
            print(f"run.py: {e}", file=sys.stderr)
            return 2
        finally:
            if broker is not None:
                broker.stop()
    broker_errors = broker.error_lines() if broker is not None else None
    (out / "results.json").write_text(json.dumps(
        {"kafka_python": VERSION, "kafka_version": args.kafka_version, "bootstrap": args.bootstrap,
         "seconds": round(seconds, 1), "pytest_exit": rc, "broker_error_lines": broker_errors,
         "run_again": again,
         "tests": {t: {k: v for k, v in r.items() if k != "id"} for t, r in sorted(results.items())}},
        indent=2) + "\n", encoding="utf-8")
    print_summary(results, seconds, rc)
    for t in again:
        rec = results[t]
        print(f"RUN AGAIN {t} (a client race, FINDINGS.md): " + (
            f"first {rec['first']['outcome']} ({rec['first']['reason']}), then {rec['outcome']}"
            if "first" in rec else "no outcome reported the second time"))
    if broker_errors is not None:
        print(f"kwire logged {len(broker_errors)} ERROR line(s)"
              + (f", first: {broker_errors[0]}" if broker_errors else ""))
    print(f"results: {out / 'results.json'}")
    if not results:
        print(f"run.py: no test reported a result; see {out / 'pytest.log'}", file=sys.stderr)
        return 2

    if args.update_known:
        passing = write_known(results, args.kafka_version)
        print(f"wrote {len(passing)} test ids to {KNOWN}")
        return 0
    regressions, unlisted = compare(results, read_known())
    if args.keyword:  # a subset: listed tests outside it were not meant to run
        regressions = [t for t in regressions if t in results]
    for t in unlisted:
        print(f"passes but is not in known_passing.txt: {t}")
    for t in regressions:
        rec = results.get(t)
        print(f"REGRESSION {t}: " + (f"{rec['outcome']}: {rec['reason']}" if rec else "not run"))
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
