"""compat/spark: KWIRE_SPARK_KAFKA_JARS read and checked as the sensor-pipeline example reads it.

One format (commas or ``os.pathsep``, directories) and one version check
(``spark_kafka.check_jars``) for the example and compat's PySpark scenarios:
the same jars give the same list both ways, a connector of another Spark
version is refused with both versions named, by ``prerequisites()`` (the skip
reason) and by ``pyspark_job`` itself before any JVM starts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples" / "sensor-pipeline"))

import spark_kafka  # noqa: E402
from compat import spark as compat_spark  # noqa: E402


def four(d: Path, version: str) -> list[str]:
    d.mkdir(parents=True, exist_ok=True)
    names = [f"spark-sql-kafka-0-10_2.13-{version}.jar", f"spark-token-provider-kafka-0-10_2.13-{version}.jar",
             "kafka-clients-3.9.0.jar", "commons-pool2-2.12.0.jar"]
    for n in names:
        (d / n).write_bytes(b"PK\x05\x06" + b"\0" * 18)
    return sorted(str(d / n) for n in names)


def test_one_format_with_the_example(tmp_path):
    jars = four(tmp_path / "jars", "4.3.0")
    for value in (",".join(jars), os.pathsep.join(jars), str(tmp_path / "jars"),
                  f"{jars[0]},{os.pathsep.join(jars[1:])}"):
        assert compat_spark.connector_jars(value) == spark_kafka.split_jars(value) == jars
    with pytest.raises(compat_spark.SparkSetupError, match="no such jar file or directory"):
        compat_spark.connector_jars(str(tmp_path / "nowhere.jar"))


def test_version_check_is_the_examples(tmp_path):
    jars = four(tmp_path / "jars", "4.0.0")
    compat_spark.check_jars(jars, "4.0.0")
    with pytest.raises(compat_spark.SparkSetupError,
                       match=r"spark-sql-kafka-0-10_2.13-4.0.0.jar is for Spark 4.0.0 but the installed pyspark "
                             r"is 4.3.0"):
        compat_spark.check_jars(jars, "4.3.0")
    with pytest.raises(compat_spark.SparkSetupError, match="missing spark-token-provider-kafka-0-10"):
        compat_spark.check_jars([j for j in jars if "token" not in j], "4.0.0")


def test_prerequisites_name_the_jars_and_check_the_version(tmp_path):
    pyspark = pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("java (JDK 17+) is not on PATH")
    v = pyspark.__version__
    other = "4.0.0" if v != "4.0.0" else "3.5.1"
    jars, why = compat_spark.prerequisites({})
    assert jars == [] and f"KWIRE_SPARK_KAFKA_JARS is not set: the Kafka connector's four jars " \
        f"(spark-sql-kafka-0-10_2.13-{v}.jar, spark-token-provider-kafka-0-10_2.13-{v}.jar, " \
        "kafka-clients-*.jar and commons-pool2-*.jar)" in why
    good = four(tmp_path / "good", v)
    assert compat_spark.prerequisites({"KWIRE_SPARK_KAFKA_JARS": ",".join(good)}) == (good, None)
    assert compat_spark.prerequisites({"KWIRE_SPARK_KAFKA_JARS": os.pathsep.join(good)}) == (good, None)
    four(tmp_path / "bad", other)
    jars, why = compat_spark.prerequisites({"KWIRE_SPARK_KAFKA_JARS": str(tmp_path / "bad")})
    assert jars == [] and f"is for Spark {other} but the installed pyspark is {v}" in why


def test_pyspark_job_refuses_another_version_before_spark_starts(tmp_path):
    pyspark = pytest.importorskip("pyspark")
    other = "4.0.0" if pyspark.__version__ != "4.0.0" else "3.5.1"
    jars = four(tmp_path / "jars", other)
    p = subprocess.run([sys.executable, "-m", "compat.spark.pyspark_job", "--bootstrap", "127.0.0.1:1",
                        "--run-id", "t", "--jars", ",".join(jars), "--work-dir", str(tmp_path / "w"),
                        "pyspark-batch-read"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 2, p.stdout + p.stderr
    assert f"is for Spark {other} but the installed pyspark is {pyspark.__version__}" in p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""  # no hello line: no SparkSession was made
