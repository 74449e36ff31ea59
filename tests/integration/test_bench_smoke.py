"""``kwire bench`` end to end with tiny counts against a kwire broker it starts itself.

A smoke test, not a benchmark: it checks that every workload runs, that the
JSON report has the documented shape and that throughput is non-zero. No
speed is asserted (the machine is shared and the counts are tiny).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("confluent_kafka")
pytestmark = pytest.mark.timeout(240)

ROOT = Path(__file__).resolve().parents[2]
WORKLOADS = ["produce_100B_acks1", "produce_100B_acksall", "produce_1KiB_acks1",
             "produce_1KiB_acksall", "consume_100B", "consume_1KiB", "latency_1KiB"]


SHARE = ["share_100B_1p", "share_100B_6p", "classic_100B_6p"]


class BenchRun:
    """One finished ``kwire bench`` run: the process, its JSON document, its Markdown text."""

    def __init__(self, proc: subprocess.CompletedProcess, doc: dict, md: str, nice: int) -> None:
        self.proc, self.doc, self.md, self.nice = proc, doc, md, nice


@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    """The default workloads, the opt-in share-group ones and ``roundtrip_1KiB`` in one run:
    a bench start (interpreter, broker, client) costs ~2 CPU-s, and the three tests below
    each used to make their own."""
    tmp = tmp_path_factory.mktemp("bench-default")
    out, md = tmp / "bench.json", tmp / "bench.md"
    nice = max(3, os.getpriority(os.PRIO_PROCESS, 0))  # never below ours: no privilege needed
    proc = subprocess.run(
        [sys.executable, "-m", "kwire", "bench", "--runs", "1", "--messages", "300",
         "--small-messages", "1000", "--latency-seconds", "1", "--latency-rate", "200",
         "--latency-warmup", "0.2", "--workloads", ",".join(WORKLOADS + SHARE + ["roundtrip_1KiB"]),
         "--roundtrips", "300", "--nice", str(nice), "--json", str(out), "--markdown", str(md),
         "--workdir", str(tmp / "work")],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return BenchRun(proc, json.loads(out.read_text()), md.read_text(), nice)


def test_bench_runs_every_workload_and_writes_json(default_run):
    proc, doc = default_run.proc, default_run.doc
    assert [b["name"] for b in doc["brokers"]] == ["kwire"]
    assert doc["ratios"] == {}
    assert doc["meta"]["runs"] == 1 and "confluent-kafka" in doc["meta"]["client"]
    res = doc["results"]["kwire"]
    assert set(res) == set(WORKLOADS) | set(SHARE) | {"roundtrip_1KiB", "startup"}
    for w in WORKLOADS:
        if w.startswith("latency"):
            for f in ("p50_ms", "p95_ms", "p99_ms", "max_ms", "broker_cpu_s", "broker_rss_mb",
                      "client_cpu_s", "producer_cpu_s", "loop_cpu_s"):
                assert res[w][f]["median"] is not None and res[w][f]["median"] >= 0, (w, f)
            # the client's two Python threads are part of its process CPU (a tick of slack)
            assert res[w]["producer_cpu_s"]["median"] + res[w]["loop_cpu_s"]["median"] <= \
                res[w]["client_cpu_s"]["median"] + 0.05
            continue
        for f in ("msgs_per_s", "mb_per_s"):
            s = res[w][f]
            assert s["median"] > 0 and s["min"] <= s["median"] <= s["max"], (w, f, s)
            assert len(s["runs"]) == 1
        assert res[w]["broker_rss_mb"]["median"] > 0
        assert res[w]["client_cpu_s"]["median"] >= 0
    assert res["startup"]["startup_s"]["median"] > 0
    assert res["startup"]["idle_rss_mb"]["median"] > 0
    text = default_run.md
    assert "| workload | figure | kwire |" in text and "produce_1KiB_acksall" in text
    assert text.strip() in proc.stdout


def test_bench_usage_errors_exit_2():
    proc = subprocess.run([sys.executable, "-m", "kwire", "bench", "--workloads", "nope"],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 2
    assert "unknown workloads" in proc.stderr


def test_bench_against_tansu_alternates_and_reports_ratios(tmp_path):
    """``--peer tansu``: both brokers started, runs alternate, ratios per workload.

    Tansu comes from the PyPI wheel the set-up script caches (kwire/bench/tansu.py).
    """
    out = tmp_path / "bench.json"
    workloads = ["produce_1KiB_acks1", "consume_1KiB", "latency_1KiB"]
    proc = subprocess.run(
        [sys.executable, "-m", "kwire", "bench", "--peer", "tansu", "--runs", "2",
         "--messages", "300", "--latency-seconds", "1", "--latency-rate", "200",
         "--latency-warmup", "0.2", "--workloads", ",".join(workloads), "--json", str(out),
         "--workdir", str(tmp_path / "work")],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    assert [b["name"] for b in doc["brokers"]] == ["kwire", "tansu"]
    assert doc["brokers"][1]["storage"].startswith("memory")  # reported next to the numbers
    # A B A B: each workload's runs alternate between the brokers
    order = [line.split()[2:4] for line in proc.stderr.splitlines() + proc.stdout.splitlines()
             if line.startswith("[run ")]
    assert [b for b, w in order if w.startswith("produce_1KiB_acks1")] == ["kwire", "tansu"] * 2
    for name in ("kwire", "tansu"):
        for w in workloads[:2]:
            assert doc["results"][name][w]["msgs_per_s"]["median"] > 0, (name, w)
        assert doc["results"][name]["latency_1KiB"]["p99_ms"]["median"] >= 0
    for w in workloads[:2]:
        r = doc["ratios"][w]["msgs_per_s"]
        assert len(r["runs"]) == 2 and r["min"] <= r["median"] <= r["max"] and r["median"] > 0, (w, r)


REV = "0a36422"
PEER = f"kwire@{REV}"


def test_bench_against_a_git_revision_of_kwire(tmp_path):
    """``--peer kwire@<rev>``: that revision runs from a ``git archive`` tree, removed afterwards.

    The revision is the release the record-validation work was measured
    against (a fixed one: HEAD may be a work in progress that does not start).
    """
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{REV}^{{commit}}"],
                      capture_output=True).returncode:
        pytest.skip(f"not a git checkout holding {REV}")
    out = tmp_path / "bench.json"
    work = tmp_path / "work"
    proc = subprocess.run(
        [sys.executable, "-m", "kwire", "bench", "--peer", PEER, "--runs", "2",
         "--messages", "300", "--small-messages", "1000",
         "--workloads", "produce_1KiB_acks1,produce_100B_acks1", "--json", str(out),
         "--workdir", str(work)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    assert [b["name"] for b in doc["brokers"]] == ["kwire", PEER]
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", REV], capture_output=True,
                            text=True).stdout.strip()
    assert f"git {commit[:12]}" in doc["brokers"][1]["notes"]
    order = [line.split()[2:4] for line in proc.stderr.splitlines() if line.startswith("[run ")]
    assert [b for b, w in order if w.rstrip(":") == "produce_1KiB_acks1"] == ["kwire", PEER] * 2
    for w in ("produce_1KiB_acks1", "produce_100B_acks1"):
        assert doc["results"][PEER][w]["msgs_per_s"]["median"] > 0
        r = doc["ratios_by_peer"][PEER][w]["msgs_per_s"]
        assert len(r["runs"]) == 2 and r["median"] > 0
    assert doc["ratios"] == doc["ratios_by_peer"][PEER]
    cost = {v["batch"]: v for v in doc["meta"]["record_validation_ms_per_mb"]}
    assert cost["1 KiB"]["validate_python_ms_per_mb"] > 0 and cost["100 B"]["crc_ms_per_mb"] > 0
    assert "record validation of a 1 KiB batch, ms per MB" in proc.stdout
    assert f"| kwire/{PEER} |" in proc.stdout
    assert not list(work.glob(f"kwire-{commit[:10]}-*")), "the revision tree must be removed"
    assert "C helper built" in doc["brokers"][1]["notes"] or "no compiled helpers" in \
        doc["brokers"][1]["notes"]  # built like a release (kwire/bench/revision.py)


def test_bench_bad_peers_are_left_out_and_the_rest_is_reported(tmp_path):
    """Three bad peers in one run: a revision that does not exist and a Tansu that cannot be
    found (each named on stderr and in the report, never run), and a peer revision whose
    broker exits at start-up (left out from then on: its runs are null). kwire's own figures
    still come. The failing revision is made in a throw-away clone of this repository (a
    commit whose ``python -m kwire`` exits at once), never in this one; ``$KWIRE_BENCH_REPO``
    points the bench at the clone for revisions (no-such-rev is unknown there too)."""
    clone = tmp_path / "clone"
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
    if subprocess.run(git + ["clone", "--quiet", "--shared", str(ROOT), str(clone)],
                      capture_output=True).returncode:
        pytest.skip("this checkout cannot be cloned (not a git repository)")
    main_py = clone / "kwire" / "__main__.py"
    main_py.write_text("import sys\nsys.exit('this revision cannot start')\n")
    # no setup.py: the peer's C helper is not compiled for a broker that never starts (the
    # build is test_bench_against_a_git_revision_of_kwire's to check)
    subprocess.run(git + ["-C", str(clone), "rm", "--quiet", "setup.py"], check=True)
    subprocess.run(git + ["-C", str(clone), "commit", "--quiet", "-am", "broken"], check=True)
    broken = subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    out = tmp_path / "bench.json"
    peer = f"kwire@{broken[:12]}"
    proc = subprocess.run(
        [sys.executable, "-m", "kwire", "bench", "--peer", "kwire@no-such-rev", "--peer", "tansu",
         "--tansu", str(tmp_path / "no-tansu-here"), "--no-fetch", "--peer", peer, "--runs", "2",
         "--messages", "200", "--workloads", "produce_1KiB_acks1", "--json", str(out),
         "--workdir", str(tmp_path / "work")],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "KWIRE_BENCH_REPO": str(clone)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "peer kwire@no-such-rev left out: unknown git revision 'no-such-rev'" in proc.stderr
    assert "peer tansu left out: --tansu" in proc.stderr
    assert f"peer {peer} left out" in proc.stderr
    doc = json.loads(out.read_text())
    # the peers that could not be prepared are no column; the one that failed to start is, empty
    assert [b["name"] for b in doc["brokers"]] == ["kwire", peer]
    assert doc["results"]["kwire"]["produce_1KiB_acks1"]["msgs_per_s"]["median"] > 0
    assert doc["results"][peer]["produce_1KiB_acks1"]["msgs_per_s"]["runs"] == [None, None]
    left_out = {lo["peer"]: lo["reason"] for lo in doc["meta"]["left_out"]}
    assert set(left_out) == {"kwire@no-such-rev", "tansu", peer}
    assert "did not start in run 1" in left_out[peer]
    assert "LEFT OUT: kwire@no-such-rev" in proc.stdout


def test_bench_cluster_mode_compares_with_a_single_broker(tmp_path):
    """``--cluster 3``: ZooKeeper + 3 brokers first (RF 3 topics), the single broker as its peer."""
    from kwire.devcluster import ZooKeeperMissing, zookeeper_classpath

    try:
        zookeeper_classpath()
    except ZooKeeperMissing as e:
        pytest.skip(str(e))
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, "-m", "kwire", "bench", "--cluster", "3", "--runs", "1", "--messages", "300",
         "--json", str(out), "--workdir", str(tmp_path / "work")],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    assert [b["name"] for b in doc["brokers"]] == ["kwire-cluster3", "kwire"]
    assert "replication factor 3" in doc["brokers"][0]["storage"]
    assert doc["meta"]["cluster_brokers"] == 3
    for name in ("kwire-cluster3", "kwire"):
        for w in ("produce_1KiB_acksall", "produce_1KiB_acks1"):
            assert doc["results"][name][w]["mb_per_s"]["median"] > 0, (name, w)
    ratio = doc["ratios_by_peer"]["kwire"]["produce_1KiB_acksall"]["msgs_per_s"]["median"]
    assert ratio is not None and ratio > 0
    assert "| workload | figure | kwire-cluster3 | kwire | kwire-cluster3/kwire |" in proc.stdout
    assert not list((tmp_path / "work").glob("kwire-cluster-*")), "the cluster's data was not removed"


def test_bench_cleaner_replay_commits_runs(tmp_path):
    """``scripts/bench-cleaner.py --replay-commits``, tiny: the script checks the committed
    offsets after each replay itself; here, that compaction shrank the partition and the replay."""
    import re

    proc = subprocess.run(
        [sys.executable, "scripts/bench-cleaner.py", "--replay-commits", "20000",
         "--replay-segment-mb", "1", "--dir", str(tmp_path)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=200)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    m = re.search(r"replay of 20000 commits to one group: [\d.]+ s before compaction \(([\d.]+) MB\)"
                  r", [\d.]+ s after \(([\d.]+) MB\)", proc.stdout)
    assert m, proc.stdout
    before = [int(x) for x in re.findall(r"(\d+) records replayed", proc.stdout)]
    assert float(m.group(2)) < float(m.group(1)) and before[1] < before[0] == 20000


def test_bench_ci_script_reports_and_never_fails(tmp_path):
    """scripts/bench-ci.sh against a revision that does not exist: exit 0, the peer named as
    left out, kwire's figures and the micro-benchmark table printed, JSON written."""
    pytest.importorskip("pytest_benchmark")
    import shutil

    results = ROOT / "benchmarks" / "results"
    before = set(results.glob("*")) if results.exists() else set()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_RUNS": "1", "BENCH_MESSAGES": "200",
           "BENCH_WORKLOADS": "produce_1KiB_acks1", "BENCH_MICRO_MAX_TIME": "0.01"}
    proc = subprocess.run([str(ROOT / "scripts" / "bench-ci.sh"), "no-such-rev-for-bench-ci"],
                          cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=230)
    made = set(results.glob("*")) - before
    try:
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "peer kwire@no-such-rev-for-bench-ci left out" in proc.stderr
        assert "| produce_1KiB_acks1 | msg/s |" in proc.stdout
        assert "| test_produce_append_1KiB |" in proc.stdout
        names = sorted(p.name for p in made)
        assert any(n.endswith("-bench.json") for n in names) and any(
            n.endswith("-micro.json") for n in names), names
        bench = json.loads(next(p for p in made if p.name.endswith("-bench.json")).read_text())
        assert bench["results"]["kwire"]["produce_1KiB_acks1"]["msgs_per_s"]["median"] > 0
    finally:
        for p in made:  # a test run is not history
            p.unlink() if p.is_file() else shutil.rmtree(p)


def test_bench_share_workloads(default_run):
    """The opt-in share-group workloads: 4 share consumers over 1 and 6 partitions and a
    classic group over 6 each read every record (a stall or lost record fails the run)."""
    res = default_run.doc["results"]["kwire"]
    for w in SHARE:
        assert res[w]["msgs_per_s"]["median"] > 0, (w, res[w])
        # The broker's CPU comes from /proc in 10 ms ticks: a short workload on a fast machine
        # can read no tick at all (classic_100B_6p read 0.0 in a rehearsal), never less than 0;
        # per message it is that CPU over the messages read, so zero only with it.
        cpu, per = (res[w][k]["median"] for k in ("broker_cpu_s", "broker_cpu_us_per_msg"))
        assert cpu >= 0 and per >= 0 and (per == 0) == (cpu == 0), (w, res[w])
    assert "broker CPU µs/msg" in default_run.proc.stdout


def test_bench_roundtrip_reports_broker_cpu_per_round_trip_at_the_niceness_asked(default_run):
    """``roundtrip_1KiB`` (opt-in): closed-loop produce -> long-poll fetch round trips with
    kwire's wire client; each must fetch the record just produced (else the run fails), and the
    figures are the round trip's wall time and the broker's CPU per round trip. ``--nice``
    applies to the bench and the broker it starts (noted in the report)."""
    doc = default_run.doc
    assert doc["meta"]["niceness"] == default_run.nice
    r = doc["results"]["kwire"]["roundtrip_1KiB"]
    assert 0 < r["rt_p50_ms"]["median"] <= r["rt_p99_ms"]["median"]
    assert r["broker_cpu_us_per_rt"]["median"] > 0
    assert "round trip p99 ms" in default_run.proc.stdout and "niceness" in default_run.proc.stdout
    bad = subprocess.run([sys.executable, "-m", "kwire", "bench", "--roundtrips", "0"], cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "--roundtrips" in bad.stderr


def test_bench_scale_writes_every_partition_with_the_java_producer(tmp_path):
    """``--scale 2x20``: every figure reported, one record to each of the 40 partitions written
    by the Java producer (the default writer), the broker's and the writer's CPU."""
    from javaclient import require_java

    require_java()  # skips only when the kafka-clients jar is missing
    writer = "java"
    out = tmp_path / "scale.json"
    proc = subprocess.run(
        [sys.executable, "-m", "kwire", "bench", "--scale", "2x20", "--runs", "1", "--scale-writer", writer,
         "--json", str(out), "--workdir", str(tmp_path / "work")],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=220)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(out.read_text())
    assert doc["meta"]["writer"] == writer and doc["meta"]["scale"] == "2x20"
    run = doc["runs"]["kwire"][0]
    assert run["partitions"] == 40 and run["writer"] == writer
    # Wall times are always positive. The broker's CPU per partition comes from /proc in clock
    # ticks (10 ms): 40 partitions at ~35 us each is 1.4 ms, so one round can read 0 ticks.
    for f in ("produce_first_s", "produce_again_s", "metadata_all_s", "create_s", "restart_clean_s"):
        assert run[f] > 0, (f, run)
    for f in ("produce_first_us_per_partition", "produce_again_us_per_partition",
              "produce_first_client_cpu_s", "produce_again_client_cpu_s", "metadata_all_cpu_s"):
        assert run[f] >= 0, (f, run)
    assert run["create_cpu_s"] > 0, run  # the broker's start and the creation: many ticks
    # the restart measured as clean followed a stop that finished by itself and left the marker
    assert run["stop_clean"] == 1 and run["stop_cpu_s"] >= 0, run
    assert f"written with {writer}" in proc.stdout
