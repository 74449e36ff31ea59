"""examples/sensor-pipeline/aggregate.py run as a new user runs it (real pyspark, no connector needed).

* ``--jars`` / ``$KWIRE_SPARK_KAFKA_JARS`` with a connector of another Spark
  version than the installed pyspark: exit code 2 and both versions named,
  before any JVM starts (the failure users otherwise meet as NoSuchMethodError
  mid-query);
* a checkpoint left by a run against another broker (offsets past the end of
  the topics on the kwire broker now): exit code 2 and the explanation,
  instead of Spark's "Some data may have been lost";
* no jars and no Maven Central (offline): exit code 2 with one message naming
  the four jars to give, before Spark starts (no Ivy resolution log, no Java
  stack trace, no Python traceback);
* producer.py as a user runs it (kafka-python 3.0): no DeprecationWarning;
* the example's own transformations on a real local SparkSession built by the
  example's ``session_builder`` (a batch DataFrame of Kafka-shaped rows): the
  windows and aggregates come out right and the example's code raises no
  DeprecationWarning; then its ``wait()`` on a running streaming query (no
  "adaptive is not supported in streaming" warning), interrupted by SIGINT as
  Ctrl-C does: exit code 0, "stopping the query", no Python traceback and no
  py4j/ERROR lines; ``--once`` announces no Ctrl-C.

The Kafka connector jars cannot be fetched here (Maven is unreachable), so the
full Kafka-in/Kafka-out run lives in test_example_pipeline.py, which runs when
``KWIRE_SPARK_KAFKA_JARS`` names them. Needs ``pyspark`` (and java for the last
test); skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import spark_jvm
from procs import sigint_default

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "sensor-pipeline"

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark; ~450 MB)")
SPARK = pyspark.__version__
OTHER = "4.0.0" if SPARK != "4.0.0" else "3.5.1"


def jars(d: Path, version: str) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    for n in (f"spark-sql-kafka-0-10_2.13-{version}.jar", f"spark-token-provider-kafka-0-10_2.13-{version}.jar",
              "kafka-clients-3.9.0.jar", "commons-pool2-2.12.0.jar"):
        (d / n).write_bytes(b"")
    return d


def aggregate(*args: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k != "KWIRE_SPARK_KAFKA_JARS"}
    full_env.update(env or {})
    return subprocess.run([sys.executable, str(EXAMPLE / "aggregate.py"), *args], capture_output=True,
                          text=True, timeout=timeout, env=full_env, cwd=ROOT)


@pytest.mark.parametrize("how", ["--jars", "env"])
def test_connector_of_another_version_stops_before_spark_starts(tmp_path, how):
    d = jars(tmp_path / "jars", OTHER)
    t0 = time.monotonic()
    if how == "--jars":
        p = aggregate("--jars", ",".join(str(j) for j in sorted(d.iterdir())), "--bootstrap", "127.0.0.1:1")
    else:
        p = aggregate("--bootstrap", "127.0.0.1:1", env={"KWIRE_SPARK_KAFKA_JARS": str(d)})
    assert p.returncode == 2, p.stderr
    assert f"is for Spark {OTHER} but the installed pyspark is {SPARK}" in p.stderr
    assert f"org.apache.spark:spark-sql-kafka-0-10_2.13:{SPARK}" in p.stderr
    assert "Traceback" not in p.stderr and time.monotonic() - t0 < 30  # no JVM was started


def test_checkpoint_from_another_broker_is_explained(tmp_path, make_broker):
    b = make_broker()
    from kwire.testing import Broker  # noqa: F401 (the helpers below are the plugin's)
    from kwire.client import KafkaClient, NewTopic
    from kwire.records.builder import build_batch

    with KafkaClient(b.bootstrap) as c:
        c.create_topics([NewTopic("sensor-readings", num_partitions=3)])
        c.produce("sensor-readings", 0, build_batch([(b"s-1", b"{}")]))
    cp = tmp_path / "checkpoint"
    (cp / "offsets").mkdir(parents=True)
    (cp / "offsets" / "4").write_text('v1\n{"batchWatermarkMs":0,"batchTimestampMs":1,"conf":{}}\n'
                                      '{"sensor-readings":{"2":40,"1":35,"0":51}}')
    d = jars(tmp_path / "jars", SPARK)
    p = aggregate("--bootstrap", b.bootstrap, "--checkpoint", str(cp), "--jars", str(d))
    assert p.returncode == 2, p.stdout + p.stderr
    assert f"the checkpoint {cp} was written against another broker or data directory" in p.stderr
    assert "sensor-readings-0 was read up to offset 51 but the topic now ends at offset 1" in p.stderr


IVY_NOWHERE = """<ivysettings>
  <settings defaultResolver="nowhere"/>
  <resolvers><ibiblio name="nowhere" m2compatible="true" root="http://127.0.0.1:1/maven2/"/></resolvers>
</ivysettings>
"""


def test_no_jars_and_no_maven_explains_the_offline_jars(tmp_path, make_broker):
    """A new user offline: spark.jars.packages cannot be fetched -> exit 2, the four jars named, no traceback.

    Spark's resolver is pointed at a closed port (and an empty Ivy cache), so this
    fails the same way on a machine that could reach Maven Central.
    """
    if shutil.which("java") is None:
        pytest.skip("java (JDK 17+) is not on PATH")
    b = make_broker()
    (tmp_path / "ivysettings.xml").write_text(IVY_NOWHERE)
    submit = (f"--conf spark.jars.ivySettings={tmp_path / 'ivysettings.xml'} "
              f"--conf spark.jars.ivy={tmp_path / 'ivy'} pyspark-shell")
    p = aggregate("--bootstrap", b.bootstrap, "--checkpoint", str(tmp_path / "cp"),
                  env={"PYSPARK_SUBMIT_ARGS": submit}, timeout=180)
    assert p.returncode == 2, p.stdout + p.stderr[-3000:]
    assert p.stderr.startswith(f"aggregate.py: cannot fetch the Kafka connector "
                               f"org.apache.spark:spark-sql-kafka-0-10_2.13:{SPARK} (http://127.0.0.1:1/maven2/: ")
    assert (f"spark-sql-kafka-0-10_2.13-{SPARK}.jar, spark-token-provider-kafka-0-10_2.13-{SPARK}.jar, "
            "kafka-clients-*.jar and commons-pool2-*.jar" in p.stderr), p.stderr[-3000:]
    # only the clear message: Spark never started (no Ivy log, no Java or Python stack trace)
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr[-3000:]
    for noise in ("unresolved dependency", ":: ", "Ivy", "Exception", "\tat ", "Traceback"):
        assert noise not in p.stderr, p.stderr[-3000:]
    assert not (tmp_path / "ivy").exists()  # Spark's resolver did not even start


def test_producer_prints_no_deprecation_warning(make_broker, topic_name):
    """kafka-python 3.0 warns about serializer callables that are not its Serializer classes."""
    b = make_broker()
    runs = {}
    for flags in ([], ["-W", "always::DeprecationWarning"]):
        p = subprocess.run([sys.executable, *flags, str(EXAMPLE / "producer.py"), "--bootstrap", b.bootstrap,
                            "--topic", topic_name, "--count", "5", "--rate", "1000"],
                           capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert p.returncode == 0 and f"sent 5 readings to {topic_name}" in p.stdout, p.stdout + p.stderr
        runs[bool(flags)] = p.stderr
    assert "Warning" not in runs[False], runs[False]  # as a user runs it: nothing at all
    assert "serializer" not in runs[True], runs[True]  # and none of ours with every warning shown
    from kafka import KafkaConsumer

    c = KafkaConsumer(topic_name, bootstrap_servers=b.bootstrap, auto_offset_reset="earliest",
                      consumer_timeout_ms=10000)
    try:
        got = [(m.key, json.loads(m.value)) for m in c]
    finally:
        c.close()
    assert len(got) == 10 and all(k.decode() == v["sensor"] for k, v in got), got


def test_once_announces_no_ctrl_c():
    sys.path.insert(0, str(EXAMPLE))
    import aggregate as example

    args = example.argparse.Namespace(input="in", output="out", checkpoint="/cp", once=True)
    assert example.start_line(args) == "processing what in holds now -> out (checkpoint /cp); stops when done"
    args.once = False
    assert example.start_line(args).endswith("; Ctrl-C to stop")


# How long the script waits for its streaming query's first micro-batch before it gives up.
FIRST_BATCH_S = 180

SPARK_SCRIPT = r'''
import json, sys, warnings
sys.path.insert(0, sys.argv[1])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import aggregate
    from pyspark.sql import SparkSession
    import argparse
    opts = argparse.Namespace(master="local[1]", shuffle_partitions=2)
    spark = aggregate.session_builder(opts, {"spark.ui.enabled": "false"}).getOrCreate()
    print("ADAPTIVE " + spark.conf.get("spark.sql.adaptive.enabled"), flush=True)
    spark.sparkContext.setLogLevel("WARN")
    readings = [("s-1", "06:40:01", 20.0, 40.0), ("s-1", "06:40:02", 22.0, 50.0), ("s-2", "06:40:40", 30.0, 60.0)]
    rows = [(json.dumps({"sensor": s, "ts": f"2026-11-22T{t}.000Z", "temperature": temp, "humidity": h}).encode(),)
            for s, t, temp, h in readings] + [(b"not json",)]
    df = spark.createDataFrame(rows, "value binary")
    out = aggregate.aggregate(aggregate.parse(df), "1 minute", "1 minute", "2 minutes")
    print("RESULT " + json.dumps(sorted([r.key, json.loads(r.value)] for r in out.collect())), flush=True)
ours = [f"{w.filename}:{w.lineno}: {w.message}" for w in caught if "sensor-pipeline" in (w.filename or "")]
print("OUR-WARNINGS " + json.dumps(ours), flush=True)
query = spark.readStream.format("rate").option("rowsPerSecond", 5).load().writeStream.format("noop").start()
import time
deadline = time.monotonic() + float(sys.argv[2])
while query.lastProgress is None and query.isActive and time.monotonic() < deadline:
    query.awaitTermination(0.2)  # until the first micro-batch has run
if query.lastProgress is None:
    print("NO-PROGRESS " + json.dumps({"active": query.isActive, "status": query.status,
                                       "exception": str(query.exception())}), flush=True)
    spark.stop()
    sys.exit(3)
print("STREAMING", flush=True)
code = aggregate.wait(query, spark)
spark.stop()
print("EXIT", code, flush=True)
sys.exit(code)
'''


def _wait_caught(proc: subprocess.Popen, sig: int, timeout: float) -> bool:
    """Until ``proc`` has a handler for ``sig`` (its SigCgt in /proc); False after ``timeout`` or
    when it exited."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            status = Path(f"/proc/{proc.pid}/status").read_text()
        except OSError:
            return False
        caught = int(next(ln for ln in status.splitlines() if ln.startswith("SigCgt:")).split()[1], 16)
        if caught & (1 << (sig - 1)):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
@pytest.mark.timeout(480)  # its own waits: 240 s for a first micro-batch, 120 s to stop after Ctrl-C
def test_example_code_on_real_spark_and_ctrl_c_stops_cleanly(tmp_path):
    if shutil.which("java") is None:
        pytest.skip("java (JDK 17+) is not on PATH")
    script = tmp_path / "run.py"
    script.write_text(SPARK_SCRIPT)
    # stderr goes to a file: Spark's log could fill a pipe nobody reads and stall the driver.
    err_path = tmp_path / "spark.stderr"
    with open(err_path, "w") as err_file:
        proc = subprocess.Popen([sys.executable, str(script), str(EXAMPLE), str(FIRST_BATCH_S)],
                                stdout=subprocess.PIPE, stderr=err_file, text=True, cwd=tmp_path,
                                env=spark_jvm.driver_env(),
                                preexec_fn=sigint_default)  # Ctrl-C works even if our launcher ignores it
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)  # stdout closed: the process exited

    threading.Thread(target=read, daemon=True).start()
    out: list[str] = []
    rest = ""
    try:
        # The script prints STREAMING once the query has run a micro-batch, NO-PROGRESS (and exits)
        # when none ran within FIRST_BATCH_S; this deadline bounds a driver that prints neither.
        deadline = time.monotonic() + FIRST_BATCH_S + 60
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                out.append(f"(nothing more within {FIRST_BATCH_S + 60} s: the driver is stuck)\n")
                break
            if line is None:
                break
            out.append(line)
            if line.startswith(("STREAMING", "NO-PROGRESS")):
                break
        assert out and out[-1].startswith("STREAMING"), \
            "the streaming query never ran a micro-batch:\n" + "".join(out) + err_path.read_text()[-3000:]
        # Ctrl-C once aggregate.wait() handles it: it installs its SIGINT and then its SIGTERM
        # handler, so SIGTERM among the caught signals means both are in place. Sent right after
        # STREAMING, on a loaded machine the signal could land before that and end the script
        # by KeyboardInterrupt (exit -2), which is not what a user pressing Ctrl-C there meets.
        assert _wait_caught(proc, signal.SIGTERM, 60), \
            "aggregate.wait() did not install its signal handlers within 60 s:\n" + "".join(out)
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("the driver did not stop within 120 s of Ctrl-C:\n" + "".join(out)
                        + err_path.read_text()[-3000:])
        while (line := lines.get(timeout=30)) is not None:  # stdout closes when the process exits
            rest += line
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = err_path.read_text()
    text = "".join(out) + rest
    result = json.loads(next(ln for ln in out if ln.startswith("RESULT "))[7:])
    assert result == [
        ["s-1", {"sensor": "s-1", "window_start": "2026-11-22T06:40:00.000Z",
                 "window_end": "2026-11-22T06:41:00.000Z", "readings": 2, "temp_min": 20.0,
                 "temp_avg": 21.0, "temp_max": 22.0, "humidity_avg": 45.0}],
        ["s-2", {"sensor": "s-2", "window_start": "2026-11-22T06:40:00.000Z",
                 "window_end": "2026-11-22T06:41:00.000Z", "readings": 1, "temp_min": 30.0,
                 "temp_avg": 30.0, "temp_max": 30.0, "humidity_avg": 60.0}],
    ]
    assert "OUR-WARNINGS []" in text, text
    assert "ADAPTIVE false" in text, text
    assert "spark.sql.adaptive.enabled is not supported in streaming" not in err, err[-3000:]
    assert proc.returncode == 0, text + err[-3000:]
    assert "stopping the query (Ctrl-C)..." in text and "EXIT 0" in text
    after = err.split("STREAMING")[-1]
    assert "Traceback" not in err and "py4j" not in after.lower(), err[-3000:]
    assert " ERROR " not in err, err[-3000:]


def test_fetch_check_passes_with_the_connector_cached_or_a_repository_that_has_it(tmp_path):
    """The offline check stops only a run Spark could not resolve: a cached connector or a
    repository that serves its POM (here a local HTTP server named by Ivy settings) passes."""
    import http.server
    import threading

    sys.path.insert(0, str(EXAMPLE))
    import spark_kafka

    def settings(name: str, root: str) -> Path:  # Spark's resolver: this repository only (hermetic)
        path = tmp_path / name
        path.write_text(IVY_NOWHERE.replace("http://127.0.0.1:1/maven2/", root))
        return path

    ivy = tmp_path / "ivy"
    (ivy / "jars").mkdir(parents=True)
    nowhere = f"--conf spark.jars.ivy={ivy} --conf spark.jars.ivySettings={settings('n.xml', 'http://127.0.0.1:1/m2')}"
    problem = spark_kafka.fetch_problem(SPARK, "2.13", submit_args=nowhere, timeout=5)
    assert problem and "(http://127.0.0.1:1/m2: " in problem and "maven.org" not in problem, problem
    (ivy / "jars" / f"org.apache.spark_spark-sql-kafka-0-10_2.13-{SPARK}.jar").write_bytes(b"")
    assert spark_kafka.fetch_problem(SPARK, "2.13", submit_args=nowhere, timeout=5) is None  # cached
    pom = tmp_path / "repo" / "org/apache/spark/spark-sql-kafka-0-10_2.13" / SPARK
    pom.mkdir(parents=True)
    (pom / f"spark-sql-kafka-0-10_2.13-{SPARK}.pom").write_text("<project/>")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=str(tmp_path / "repo"), **kw)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        repo = f"http://127.0.0.1:{server.server_address[1]}/"
        empty = tmp_path / "ivy-empty"
        args = f"--conf spark.jars.ivy={empty} --conf spark.jars.ivySettings={settings('r.xml', repo)}"
        assert spark_kafka.fetch_problem(SPARK, "2.13", submit_args=args, timeout=5) is None
        problem = spark_kafka.fetch_problem("0.0.1", "2.13", submit_args=args, timeout=5)
        assert problem and f"{repo}: HTTP 404" in problem  # a repository without it: named
    finally:
        server.shutdown()
        server.server_close()
