"""Lighter JVM flags for the short-lived local Spark drivers the tests start.

A test's SparkSession lives for a few seconds of work. It does not live long
enough for the C2 compiler or G1's concurrent threads to pay off, and on a
loaded 2-core machine they compete with the test for CPU. pyspark starts its
driver JVM through ``spark-submit``, which adds ``$SPARK_SUBMIT_OPTS`` to the
java command line (it prints nothing about them, unlike ``JAVA_TOOL_OPTIONS``,
so stderr stays as a user sees it). ``driver_env()`` returns an environment
that has these flags, for a subprocess or for ``monkeypatch.setenv`` before a
session starts in the test process.

It does not change what Spark computes, the example's own settings, or
executor JVMs (``local[N]`` runs the executors inside the driver).
"""

from __future__ import annotations

import os

# C1 only, the serial collector, the JDK's class-data archive when it has one.
SPARK_DRIVER_FLAGS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto"


def driver_opts() -> str:
    """``$SPARK_SUBMIT_OPTS`` with the lighter flags (whatever was set there is kept, first)."""
    return " ".join(filter(None, [os.environ.get("SPARK_SUBMIT_OPTS", "").strip(), SPARK_DRIVER_FLAGS]))


def driver_env(env: dict | None = None) -> dict:
    """``env`` (default: this process's environment) with ``SPARK_SUBMIT_OPTS`` set to ``driver_opts()``."""
    out = dict(os.environ if env is None else env)
    out["SPARK_SUBMIT_OPTS"] = driver_opts()
    return out
