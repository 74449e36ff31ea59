"""Real PySpark against the broker: what it needs, and why it may not be here.

Spark's Kafka source and sink are not part of the ``pyspark`` package: they are
the ``spark-sql-kafka-0-10_2.13`` connector and its dependencies
(``spark-token-provider-kafka-0-10_2.13``, ``kafka-clients``,
``commons-pool2``), which users pull from Maven Central with
``--packages org.apache.spark:spark-sql-kafka-0-10_2.13:<spark version>``.
No PyPI package ships them, and a machine that cannot reach Maven cannot
fetch them. So the PySpark scenarios take the jars from ``KWIRE_SPARK_KAFKA_JARS``
and, when that is unset or its jars do not fit the installed pyspark, are
SKIPPED with this explanation. Nothing is faked.

``KWIRE_SPARK_KAFKA_JARS`` has the one format of the sensor-pipeline example
(``examples/sensor-pipeline/spark_kafka.py``, loaded from its file here so
that the example stays a directory users can copy on its own): paths
separated by commas or ``os.pathsep``, a directory standing for every
``*.jar`` in it (e.g. the ``~/.ivy2*/jars`` cache a ``--packages`` run leaves
behind); the connector's version must equal pyspark's (``check_jars``).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sensor-pipeline" / "spark_kafka.py"


def _load_spark_kafka():
    name = "kwire_example_spark_kafka"  # not "spark_kafka": the example's own sys.path import stays separate
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, _EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class body runs
    spec.loader.exec_module(module)
    return module


spark_kafka = _load_spark_kafka()
ENV = spark_kafka.ENV
CONNECTOR = spark_kafka.CONNECTOR
SparkSetupError = spark_kafka.SparkSetupError


def connector_jars(value: str) -> list[str]:
    """``KWIRE_SPARK_KAFKA_JARS`` -> jar paths (commas or ``os.pathsep``; raises SparkSetupError)."""
    return spark_kafka.split_jars(value)


def check_jars(jars: list[str], spark_version: str, scala: str = "2.13") -> None:
    """The example's check: the four jars, connector version == ``spark_version`` (SparkSetupError)."""
    spark_kafka.check_jars(jars, spark_version, scala)


def _four_jars(version: str, scala: str) -> str:
    return (f"{CONNECTOR}_{scala}-{version}.jar, {spark_kafka.TOKEN_PROVIDER}_{scala}-{version}.jar, "
            "kafka-clients-*.jar and commons-pool2-*.jar")


def prerequisites(environ: dict[str, str] | None = None) -> tuple[list[str], str | None]:
    """(jars, None) when the PySpark scenarios can run, else ([], why not)."""
    env = os.environ if environ is None else environ
    missing = []
    value = env.get(ENV, "")
    jars: list[str] = []
    try:
        version, scala = spark_kafka.installed_pyspark()
    except SparkSetupError as e:
        version, scala = None, "2.13"
        missing.append(str(e))
    wanted = _four_jars(version or "<pyspark version>", scala)
    if not value.strip():
        missing.append(f"{ENV} is not set: the Kafka connector's four jars ({wanted}) come from Maven "
                       "Central (spark.jars.packages / --packages), which this machine cannot reach, and "
                       "no PyPI package ships them; set it to the jar paths (commas or "
                       f"'{os.pathsep}' between them) or a directory of jars")
    else:
        try:
            jars = connector_jars(value)
            if version is not None:
                check_jars(jars, version, scala)
        except SparkSetupError as e:
            missing.append(f"{ENV}={value}: {e}")
    if shutil.which("java") is None:
        missing.append("java (JDK 17+) is not on PATH")
    return (jars, None) if not missing else ([], "; ".join(missing))
