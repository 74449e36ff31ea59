"""The compatibility suite (compat/) against kwire, as a user runs it.

``python -m compat --jobs 6 --workers-per-client 3 --out DIR`` runs as a
subprocess: it starts its own kwire broker, runs the whole scenario matrix (every
client at once, each client's scenarios on three workers at once) and then the
cross-client matrix, and writes DIR/compat.json. ``python -m compat --cluster 3
--no-cross`` runs the scenario matrix against ZooKeeper and three kwire brokers
it starts, with topics of replication factor 3. Each of the two runs is a
module-scoped fixture in an xdist group of its own, so the two run in parallel
on two workers; every scenario makes topics and groups named after its run,
client and scenario, so the clients share a broker (or a cluster) without
meeting. The tests read compat.json per part of the matrix (a client, Java with
PySpark, and the cross-client matrix; ``SCENARIO_PARTS`` together name every
client once, checked here), so a failure names its part:

* no cell FAILs except those listed under "Known failures against kwire" in
  compat/FINDINGS.md (a listed cell that passes is only warned about, so that
  a fix landing elsewhere does not break this test; the list should then be
  trimmed), and the exit code says whether anything failed;
* each part's columns are complete: every scenario once per client, N/A
  exactly where compat says a client has no such feature, SKIP only for
  PySpark and only for a reason it printed (the connector jars are not
  reachable here);
* the Markdown report has the table, and the run left no topic or group behind;
* the cross-client matrix (compat/cross.py) is complete, every producer x
  consumer x codec once, and FAILs only where "Known cross-client failures" in
  compat/FINDINGS.md lists the cell (same rules); compat.md has its tables;
* against the cluster, the scenario matrix by the same rules, every broker
  stopped with exit code 0, and the brokers' logs show the run's topics led
  with three in-sync replicas.

One run per target, not one per part: a part used to start its own broker or
cluster, and the six cluster starts (ZooKeeper and three brokers, ~4 CPU-s each)
and twelve compat processes were a fifth of the module's CPU (the old and the
new module run at once with ``-n 2 --dist loadgroup``: 153 -> 121 CPU-s).

The cross-client matrix runs against the one broker only. Against the cluster
it checked nothing the two runs do not already check (a consumer reads a
leader's log whatever its replicas do; every client's codecs, produced and
consumed through the cluster's replicated topics, are the scenario matrix's
``compression-*`` cells there), and cost a quarter of the cluster run:
measured 2026-11-29 at load 8-12 sampling /proc, the cluster run
68 CPU-s and 83 s, its cross-client part 24 s of that, ~13 CPU-s of clients
and brokers.

Two quick runs check the runner itself: a broker that is not there gives FAIL
cells with a reason and exit code 1 within the time limit, and without ``--out``
the reports land in ./compat-results/<run id>/ of the working directory; and
``--list`` works. The sensor-pipeline example's producer and consumer are checked
here too; its PySpark job, end to end, in test_example_pipeline.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from compat.cross import CROSS_CLIENTS, CROSS_CODECS  # noqa: E402
from compat.matrix import CLIENTS, NA, SCENARIOS, SKIP, applicable  # noqa: E402

RUN_TIMEOUT_S = 900
# Each client's scenarios run on this many workers of its client at once: each scenario mostly
# waits on the broker, its client's timeouts and rebalances, and each makes its own topics and
# groups, so a client's wall time drops to about its longest share; a worker more costs one
# client start (a JVM for Java, ~1 CPU-s).
WORKERS_PER_CLIENT = 3

# The parts the tests check one by one (PySpark only SKIPs here unless its connector jars are
# given, so it rides with Java), and the cross-client matrix as one more part.
SCENARIO_PARTS: tuple[tuple[str, ...], ...] = (
    ("kafka-python",), ("aiokafka",), ("confluent-kafka",), ("kcat",), ("java", "pyspark"))
CROSS = "cross"
PARTS = ["+".join(p) for p in SCENARIO_PARTS]

# The two runs' xdist groups: the tests of one run stay on the worker that ran it.
SINGLE = pytest.mark.xdist_group("compat-single")
CLUSTER = pytest.mark.xdist_group("compat-cluster")


class MatrixRun:
    """One ``python -m compat`` run: the finished process, compat.json, the output dir."""

    def __init__(self, proc: subprocess.CompletedProcess, data: dict, out: Path) -> None:
        self.proc, self.data, self.out = proc, data, out

    def __iter__(self):  # proc, data, out: what the tests unpack
        return iter((self.proc, self.data, self.out))

    def failed_cells(self) -> dict[tuple[str, str], str]:
        return {(r["client"], r["scenario"]): r["reason"] for r in self.data["results"]
                if r["status"] == "FAIL"}

    def failed_cross(self) -> dict[tuple[str, str, str], str]:
        return {(r["producer"], r["consumer"], r["codec"]): r["reason"] for r in self.data["cross"]
                if r["status"] == "FAIL"}


def run_matrix(out: Path, *extra: str) -> MatrixRun:
    args = ["--jobs", str(len(CLIENTS)), "--workers-per-client", str(WORKERS_PER_CLIENT)]
    proc = run_compat(*extra, *args, "--out", str(out))
    js = out / "compat.json"
    assert js.is_file(), f"python -m compat {' '.join(extra + tuple(args))} wrote no compat.json " \
                         f"(exit {proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return MatrixRun(proc, json.loads(js.read_text()), out)


def test_parts_cover_the_matrix():
    clients = [c for part in SCENARIO_PARTS for c in part]
    assert sorted(clients) == sorted(CLIENTS) and len(clients) == len(set(clients))


def known_failures() -> dict[tuple[str, str], str]:
    """Rows ``| client | `scenario` | reason |`` under "## Known failures against kwire"."""
    text = (ROOT / "compat" / "FINDINGS.md").read_text(encoding="utf-8")
    m = re.search(r"^## Known failures against kwire\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, "compat/FINDINGS.md has no '## Known failures against kwire' section"
    out = {}
    for row in re.finditer(r"^\|\s*([\w.-]+)\s*\|\s*`([\w.-]+)`\s*\|\s*(.*?)\s*\|\s*$", m.group(1), re.M):
        out[(row.group(1), row.group(2))] = row.group(3)
    return out


def known_cross_failures() -> dict[tuple[str, str, str], str]:
    """Rows ``| producer | consumer | `codec` | reason |`` under "## Known cross-client failures"."""
    text = (ROOT / "compat" / "FINDINGS.md").read_text(encoding="utf-8")
    m = re.search(r"^## Known cross-client failures\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, "compat/FINDINGS.md has no '## Known cross-client failures' section"
    out = {}
    for row in re.finditer(r"^\|\s*([\w.-]+)\s*\|\s*([\w.-]+)\s*\|\s*`([\w.-]+)`\s*\|\s*(.*?)\s*\|\s*$",
                           m.group(1), re.M):
        out[(row.group(1), row.group(2), row.group(3))] = row.group(4)
    return out


def run_compat(*args: str, timeout: float = RUN_TIMEOUT_S, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ)  # compat is not installed: from another directory it needs the repository on the path
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "compat", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=env)


def check_part(run: MatrixRun, part: str, against: str = "") -> None:
    """``part``'s cells: complete, N/A and SKIP only where allowed, FAIL only where listed."""
    proc, data, _ = run
    clients = part.split("+")
    cells = [(r["client"], r["scenario"]) for r in data["results"] if r["client"] in clients]
    assert len(cells) == len(set(cells)), "a cell is reported twice"
    assert set(cells) == {(c, s.id) for c in clients for s in SCENARIOS}
    spark_jars = os.environ.get("KWIRE_SPARK_KAFKA_JARS")
    for r in data["results"]:
        if r["client"] not in clients:
            continue
        cell = f"{r['client']} / {r['scenario']}: {r['status']} {r['reason']}"
        assert (r["status"] == NA) == (applicable(r["client"], r["scenario"]) is not None), cell
        if r["status"] == SKIP:
            assert r["client"] == "pyspark", f"only PySpark may be skipped here (setup installs the rest): {cell}"
            assert r["reason"], cell
            if not spark_jars:
                assert "KWIRE_SPARK_KAFKA_JARS is not set" in r["reason"], cell
    if not spark_jars and "pyspark" in clients:
        assert {r["status"] for r in data["results"] if r["client"] == "pyspark"} == {NA, SKIP}
    if "java" in clients:
        assert data["clients"]["java"].get("version", "").startswith("kafka-clients 4.3.0")
    known = {k: v for k, v in known_failures().items() if k[0] in clients}
    failed = {k: v for k, v in run.failed_cells().items() if k[0] in clients}
    unexpected = {k: v for k, v in failed.items() if k not in known}
    assert not unexpected, (
        f"compat cells failed{against} that compat/FINDINGS.md does not list:\n"
        + "\n".join(f"  {c} / {s}: {why}" for (c, s), why in sorted(unexpected.items()))
        + f"\n\n{proc.stdout[-6000:]}")
    fixed = sorted(k for k in known if k not in failed)
    if fixed:
        warnings.warn("listed as known failures in compat/FINDINGS.md but did not fail: "
                      + ", ".join(f"{c}/{s}" for c, s in fixed))


def check_cross(run: MatrixRun, against: str = "") -> None:
    """The cross-client cells: every producer x consumer x codec once, FAIL only where listed."""
    proc, data, out = run
    cells = [(r["producer"], r["consumer"], r["codec"]) for r in data["cross"]]
    assert len(cells) == len(set(cells)), "a cross-client cell is reported twice"
    assert set(cells) == {(p, q, c) for p in CROSS_CLIENTS for q in CROSS_CLIENTS for c in CROSS_CODECS}
    skipped = [r for r in data["cross"] if r["status"] == SKIP]
    assert not skipped, f"cross-client cells skipped (setup installs every codec library): {skipped[:3]}"
    known = known_cross_failures()
    failed = run.failed_cross()
    unexpected = {k: v for k, v in failed.items() if k not in known}
    assert not unexpected, (
        f"cross-client cells failed{against} that compat/FINDINGS.md does not list:\n"
        + "\n".join(f"  {p} > {q} ({c}): {why}" for (p, q, c), why in sorted(unexpected.items()))
        + f"\n\n{proc.stdout[-6000:]}")
    fixed = sorted(k for k in known if k not in failed)
    if fixed:
        warnings.warn("listed as known cross-client failures in compat/FINDINGS.md but did not fail: "
                      + ", ".join(f"{p}>{q}/{c}" for p, q, c in fixed))
    md = (out / "compat.md").read_text(encoding="utf-8")
    assert "## Cross-client matrix" in md
    for codec in CROSS_CODECS:
        table = md.split(f"### `{codec}`\n", 1)[1]
        assert table.lstrip().startswith("| producer \\ consumer | " + " | ".join(CROSS_CLIENTS) + " |")
        for p in CROSS_CLIENTS:
            assert f"\n| {p} | " in table
    assert "Cross-client matrix" in proc.stdout


def check_run(run: MatrixRun) -> None:
    """Whole-run rules: exit code from the FAILs, the summary, the report, nothing left behind."""
    proc, data, out = run
    failed = bool(run.failed_cells() or run.failed_cross())
    assert proc.returncode == (1 if failed else 0), \
        f"exit code {proc.returncode}, failed cells: {failed}\n{proc.stderr[-3000:]}"
    assert data["failed"] == failed
    assert data["leftovers"] == [], f"the run left behind: {data['leftovers']}"
    assert sum(data["summary"].values()) == len(data["results"])
    assert data["target"]["started_by_compat"] is True
    assert data["target"]["broker_exit_code"] == 0, "kwire did not shut down cleanly after the run"
    md = (out / "compat.md").read_text(encoding="utf-8")
    assert "| scenario | " + " | ".join(CLIENTS) + " |" in md
    for s in SCENARIOS:
        assert f"| `{s.id}` |" in md
    for line in ("scenario", "roundtrip", "PASS"):
        assert line in proc.stdout


@pytest.fixture(scope="module")
def cluster_run(tmp_path_factory):  # first in the file: the heavier run starts first
    import shutil

    from cluster_fixtures import zookeeper_jar

    if zookeeper_jar() is None or shutil.which("java") is None:
        pytest.skip("ZooKeeper (Debian package zookeeper) or java is not installed")
    return run_matrix(tmp_path_factory.mktemp("compat-cluster-out"), "--cluster", "3", "--no-cross")


@CLUSTER
@pytest.mark.timeout(RUN_TIMEOUT_S + 60)
def test_cluster_run(cluster_run):
    check_run(cluster_run)
    _, data, out = cluster_run
    target = data["target"]
    assert target["cluster"] == 3 and target["replication_factor"] == 3
    assert target["broker_exit_codes"] == {"broker-1": 0, "broker-2": 0, "broker-3": 0}, target
    # Every broker's and ZooKeeper's log is kept, and the run's topics had 3 in-sync replicas.
    logs = [out / "logs" / f"kwire-broker-{i}.log" for i in (1, 2, 3)]
    assert all(p.is_file() for p in logs) and (out / "logs" / "zookeeper.log").is_file()
    run_topic = re.compile(rf"compat-{re.escape(data['run_id'])}-\S+.*\[\d+, \d+, \d+\]")
    assert all(run_topic.search(p.read_text(errors="replace")) for p in logs), \
        "no broker log shows a topic of the run with three replicas in its ISR"
    assert "3 kwire brokers started by `python -m compat --cluster 3`" in (out / "compat.md").read_text()
    assert data["cross"] == [] and data["cross_clients"] == [], "--no-cross ran the cross-client matrix"


@CLUSTER
@pytest.mark.parametrize("part", PARTS)
def test_cluster_matrix(cluster_run, part):
    check_part(cluster_run, part, " against a 3-broker cluster")


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    return run_matrix(tmp_path_factory.mktemp("compat-out"))


@SINGLE
@pytest.mark.timeout(RUN_TIMEOUT_S + 60)
def test_reports_and_cleanup(full_run):
    check_run(full_run)
    assert "cluster" not in full_run.data["target"]


@SINGLE
@pytest.mark.parametrize("part", PARTS)
def test_no_failures_but_the_known_ones(full_run, part):
    check_part(full_run, part)


@SINGLE
def test_cross_matrix(full_run):
    check_cross(full_run)


@pytest.mark.timeout(150)
def test_unreachable_broker_fails_with_reason(tmp_path):
    # Nothing listens on port 1: each cell must FAIL with a reason, within its (scaled) limit
    # (the clients keep retrying, so the runner's limit, 60 s x 0.1, ends each; both at once).
    # No --out: the reports go to ./compat-results/<run id>/ under the working directory.
    proc = run_compat("--bootstrap", "127.0.0.1:1", "--clients", "kafka-python,confluent-kafka",
                      "--scenarios", "metadata", "--timeout-factor", "0.1", "--jobs", "2",
                      "--run-id", "unreach", timeout=120, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = tmp_path.resolve() / "compat-results" / "unreach"
    assert (out / "compat.md").is_file() and (out / "logs").is_dir(), proc.stdout + proc.stderr
    assert f"wrote {out / 'compat.md'} and {out / 'compat.json'}" in proc.stdout
    assert str(out) in proc.stderr  # announced when the run starts
    data = json.loads((out / "compat.json").read_text())
    assert {(r["client"], r["status"]) for r in data["results"]} == {("kafka-python", "FAIL"),
                                                                     ("confluent-kafka", "FAIL")}
    assert all(r["reason"] for r in data["results"])
    assert data["target"]["started_by_compat"] is False


def test_list():
    proc = run_compat("--list", timeout=60)
    assert proc.returncode == 0
    for s in SCENARIOS:
        assert s.id in proc.stdout


@pytest.mark.timeout(120)
def test_example_producer_and_consumer(broker, topic_name):
    """examples/sensor-pipeline: the producer's readings come out of the consumer intact."""
    ex = ROOT / "examples" / "sensor-pipeline"
    p = subprocess.run([sys.executable, str(ex / "producer.py"), "--bootstrap", broker.bootstrap,
                        "--topic", topic_name, "--count", "40", "--rate", "1000", "--seed", "3"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    c = subprocess.run([sys.executable, str(ex / "consumer.py"), "--bootstrap", broker.bootstrap,
                        "--topic", topic_name, "--group", f"{topic_name}-g", "--from-beginning",
                        "--max", "40", "--idle", "20"], capture_output=True, text=True, timeout=60)
    assert c.returncode == 0, c.stderr
    readings = [json.loads(line) for line in c.stdout.splitlines()]
    assert len(readings) == 40
    assert {frozenset(r) for r in readings} == {frozenset({"sensor", "ts", "temperature", "humidity"})}
