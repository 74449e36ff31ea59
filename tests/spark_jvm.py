"""Lighter JVM flags for the short-lived local Spark drivers the tests start.

A test's SparkSession lives for a few seconds of work. It does not live long
enough for the C2 compiler or G1's concurrent threads to pay off, and on a
loaded 2-core machine they compete with the test for CPU. pyspark starts its
driver JVM through ``spark-submit``, which adds ``$SPARK_SUBMIT_OPTS`` to the
java command line (it prints nothing about them, unlike ``JAVA_TOOL_OPTIONS``,
so stderr stays as a user sees it). ``driver_env()`` returns an environment
that has these flags, for a subprocess or for ``monkeypatch.setenv`` before a
session starts in the test process.

Most of a driver start's CPU is the JVM loading and verifying Spark's classes
(thousands, from the ~280 jars pyspark ships). A dynamic class-data-sharing
archive of the classes a small batch-and-streaming session loads (JDK 13+:
``-XX:ArchiveClassesAtExit`` on one run, ``-XX:SharedArchiveFile`` on the others)
maps them instead: a session that runs a grouped batch job costs 8-9 CPU-s and
8-11 s with it, 16-18 CPU-s and 22-143 s without (the driver JVM, sampled from
/proc, alternating runs at load 9-17, 2026-11-29). The archive (~160 MB) is made
once per machine, JDK and pyspark (its name hashes the JDK and every jar, size
and mtime, as CDS checks them) under ``${KWIRE_CACHE:-~/.cache/kwire}/cds``, by
a session in a subprocess (~26 CPU-s, 1-3 min of wall time on a loaded machine,
inside the first Spark test that asks), under a file lock: one xdist worker
makes it, another that asks meanwhile starts its driver without it. The JVM's own warnings (a stale archive, say)
go to stderr, not to the stdout the tests read.

It does not change what Spark computes, the example's own settings, or
executor JVMs (``local[N]`` runs the executors inside the driver); it does not
make the archive in the quick tier. ``KWIRE_TEST_SPARK_CDS=0`` turns the archive
off; when it cannot be made, drivers start without it and a warning says why.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

# C1 only, the serial collector, the JDK's class-data archive when it has one; JVM warnings
# to stderr (by default they go to stdout).
SPARK_DRIVER_FLAGS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -Xlog:disable -Xlog:all=warning:stderr"

_archives: dict[str, str] = {}

# What the archive-making session does: a grouped batch job over JSON (the sensor example's
# kind of work) and one micro-batch of a streaming query.
_EXERCISE = r'''
import json
from pyspark.sql import SparkSession, functions as F
spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "2").getOrCreate())
rows = [(json.dumps({"s": f"s-{i % 3}", "t": 20.0 + i}).encode(),) for i in range(12)]
df = spark.createDataFrame(rows, "value binary")
parsed = df.select(F.from_json(F.col("value").cast("string"), "s string, t double").alias("r")).select("r.*")
print(sorted(parsed.groupBy("s").agg(F.avg("t"), F.count("*")).collect()))
query = spark.readStream.format("rate").option("rowsPerSecond", 5).load().writeStream.format("noop").start()
while query.lastProgress is None and query.isActive:
    query.awaitTermination(0.2)
query.stop()
spark.stop()
'''


def driver_opts() -> str:
    """``$SPARK_SUBMIT_OPTS`` with the lighter flags (whatever was set there is kept, first)."""
    return " ".join(filter(None, [os.environ.get("SPARK_SUBMIT_OPTS", "").strip(), SPARK_DRIVER_FLAGS,
                                  archive_flag()]))


def driver_env(env: dict | None = None) -> dict:
    """``env`` (default: this process's environment) with ``SPARK_SUBMIT_OPTS`` set to ``driver_opts()``."""
    out = dict(os.environ if env is None else env)
    out["SPARK_SUBMIT_OPTS"] = driver_opts()
    return out


def _key() -> str | None:
    """A hash of the JDK and pyspark's jars (None: no java or no pyspark)."""
    java = shutil.which("java")
    try:
        import pyspark
    except ImportError:
        return None
    if java is None:
        return None
    real = os.path.realpath(java)
    h = hashlib.sha256(f"{real}\0{os.stat(real).st_mtime_ns}\0{pyspark.__version__}".encode())
    jars = Path(pyspark.__file__).resolve().parent / "jars"
    for jar in sorted(jars.glob("*.jar")):
        st = jar.stat()
        h.update(f"\0{jar}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    return h.hexdigest()[:16]


def archive_flag() -> str:
    """``-XX:SharedArchiveFile=...`` for the driver archive (made first when missing), or ""."""
    if os.environ.get("KWIRE_TEST_SPARK_CDS", "1") == "0":
        return ""
    key = _key()
    if key is None:
        return ""
    if key in _archives:
        return _archives[key]
    d = Path(os.environ.get("KWIRE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "kwire")) / "cds"
    archive = d / f"spark-driver-{key}.jsa"
    flag = ""
    try:
        d.mkdir(parents=True, exist_ok=True)
        if os.environ.get("KWIRE_TEST_QUICK") == "1" and not archive.is_file():
            return ""  # the quick tier starts no Spark driver that would repay it
        with open(d / ".spark-lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another worker is making it (minutes when loaded): not this time
                return ""
            if not archive.is_file():
                _make(archive)
        flag = f"-XX:SharedArchiveFile={archive}"
    except (OSError, subprocess.SubprocessError, RuntimeError) as e:
        warnings.warn(f"no Spark driver class-data archive, drivers start without it: {e}")
    _archives[key] = flag
    return flag


def _make(archive: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="kwire-sparkcds-") as tmp:
        staging = Path(tmp) / "spark-driver.jsa"
        env = dict(os.environ)
        env["SPARK_SUBMIT_OPTS"] = " ".join(filter(None, [
            env.get("SPARK_SUBMIT_OPTS", "").strip(), SPARK_DRIVER_FLAGS, f"-XX:ArchiveClassesAtExit={staging}"]))
        env.setdefault("PYSPARK_PYTHON", sys.executable)
        # the driver JVM writes the archive as it exits, when the session's Python process ends
        proc = subprocess.run([sys.executable, "-c", _EXERCISE], cwd=tmp, env=env, capture_output=True,
                              text=True, timeout=300)
        if proc.returncode != 0 or not staging.is_file():
            raise RuntimeError(f"the archive-making session exited {proc.returncode} and wrote "
                               f"{'an' if staging.is_file() else 'no'} archive: {proc.stderr[-800:]}")
        for old in archive.parent.glob("spark-driver-*.jsa"):  # of other JDKs or pysparks, unused a week
            if time.time() - old.stat().st_atime > 7 * 86400:
                old.unlink(missing_ok=True)
        shutil.move(str(staging), archive)
