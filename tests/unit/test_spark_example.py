"""examples/sensor-pipeline/spark_kafka.py: the connector jars that go with pyspark, stale checkpoints.

Pure checks (no JVM): jar names as Maven and Ivy's cache write them, the one
``--jars`` / ``$KWIRE_SPARK_KAFKA_JARS`` format, the version check that stops
a 4.0.0 connector under pyspark 4.3.0 with both versions named, the four
required jars, the ``--packages`` coordinate derived from the installed
pyspark, Spark's checkpoint offsets format and what counts as a checkpoint of
another broker. aggregate.py runs for real in
tests/integration/test_sensor_pipeline_spark.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "sensor-pipeline"
sys.path.insert(0, str(EXAMPLE))
import spark_kafka as sk  # noqa: E402

FOUR_400 = ["spark-sql-kafka-0-10_2.13-4.0.0.jar", "spark-token-provider-kafka-0-10_2.13-4.0.0.jar",
            "kafka-clients-3.9.0.jar", "commons-pool2-2.12.0.jar"]
FOUR_430 = [n.replace("4.0.0", "4.3.0") for n in FOUR_400]


def make_jars(d: Path, names: list[str]) -> list[str]:
    d.mkdir(parents=True, exist_ok=True)
    for n in names:
        (d / n).write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip: only the name matters here
    return sorted(str(d / n) for n in names)


@pytest.mark.parametrize("name, artifact, scala, version", [
    ("spark-sql-kafka-0-10_2.13-4.0.0.jar", "spark-sql-kafka-0-10", "2.13", "4.0.0"),
    ("org.apache.spark_spark-sql-kafka-0-10_2.13-4.3.0.jar", "spark-sql-kafka-0-10", "2.13", "4.3.0"),
    ("spark-token-provider-kafka-0-10_2.12-3.5.1.jar", "spark-token-provider-kafka-0-10", "2.12", "3.5.1"),
    ("org.apache.kafka_kafka-clients-3.9.0.jar", "kafka-clients", None, "3.9.0"),
    ("commons-pool2-2.12.0.jar", "commons-pool2", None, "2.12.0"),
    ("spark-core_2.13-4.1.0-preview1.jar", "spark-core", "2.13", "4.1.0-preview1"),
])
def test_jar_names(name, artifact, scala, version):
    info = sk.jar_info("/x/" + name)
    assert (info.artifact, info.scala, info.version) == (artifact, scala, version)


def test_one_format_for_jars_and_the_environment(tmp_path):
    jars = make_jars(tmp_path / "dir", FOUR_430)
    as_dir = sk.resolve_jars(str(tmp_path / "dir"), {})
    with_commas = sk.resolve_jars(",".join(jars), {})
    with_pathsep = sk.resolve_jars(None, {sk.ENV: os.pathsep.join(jars)})
    from_env_dir = sk.resolve_jars(None, {sk.ENV: str(tmp_path / "dir")})
    assert as_dir == with_commas == with_pathsep == from_env_dir == jars
    assert sk.resolve_jars(",".join(jars), {sk.ENV: "/ignored"}) == jars  # --jars wins
    assert sk.resolve_jars(None, {}) == []
    with pytest.raises(sk.SparkSetupError, match="no such jar file or directory"):
        sk.resolve_jars(str(tmp_path / "missing.jar"), {})


def test_connector_of_another_spark_version_is_refused_naming_both():
    with pytest.raises(sk.SparkSetupError) as e:
        sk.check_jars(["/j/" + n for n in FOUR_400], "4.3.0", "2.13")
    msg = str(e.value)
    assert "spark-sql-kafka-0-10_2.13-4.0.0.jar is for Spark 4.0.0" in msg
    assert "pyspark is 4.3.0" in msg and "NoSuchMethodError" in msg
    assert "org.apache.spark:spark-sql-kafka-0-10_2.13:4.3.0" in msg and "pyspark==4.0.0" in msg


def test_matching_jars_pass_and_a_missing_one_is_named():
    sk.check_jars(["/j/" + n for n in FOUR_430], "4.3.0", "2.13")
    with pytest.raises(sk.SparkSetupError, match=r"missing commons-pool2-\*\.jar"):
        sk.check_jars(["/j/" + n for n in FOUR_430 if "pool" not in n], "4.3.0", "2.13")
    with pytest.raises(sk.SparkSetupError, match="no spark-sql-kafka-0-10_2.13"):
        sk.check_jars(["/j/kafka-clients-3.9.0.jar"], "4.3.0", "2.13")
    mixed = ["/j/" + n for n in FOUR_430]
    mixed[1] = "/j/spark-token-provider-kafka-0-10_2.13-4.0.0.jar"
    with pytest.raises(sk.SparkSetupError, match="is for Spark 4.0.0"):
        sk.check_jars(mixed, "4.3.0", "2.13")
    with pytest.raises(sk.SparkSetupError, match="Scala 2.12"):
        sk.check_jars([n.replace("_2.13", "_2.12") for n in mixed], "4.3.0", "2.13")


def test_packages_coordinate_follows_the_installed_pyspark():
    assert sk.packages_coordinate("4.0.0", "2.13") == "org.apache.spark:spark-sql-kafka-0-10_2.13:4.0.0"
    assert sk.spark_configs([], "4.3.0", "2.13") == {
        "spark.jars.packages": "org.apache.spark:spark-sql-kafka-0-10_2.13:4.3.0"}
    pyspark = pytest.importorskip("pyspark")
    version, scala = sk.installed_pyspark()
    assert version == pyspark.__version__ and scala in ("2.12", "2.13")
    assert sk.packages_coordinate(version, scala).endswith(f"_{scala}:{pyspark.__version__}")


def test_avro_mode_needs_spark_avro_of_pysparks_version():
    """aggregate.py --avro: spark-avro is fetched with the connector, or must be among the given jars."""
    assert sk.spark_configs([], "4.3.0", "2.13", avro=True) == {"spark.jars.packages": (
        "org.apache.spark:spark-sql-kafka-0-10_2.13:4.3.0,org.apache.spark:spark-avro_2.13:4.3.0")}
    jars = ["/j/" + n for n in FOUR_430]
    assert sk.spark_configs(jars, "4.3.0", "2.13") == {"spark.jars": ",".join(jars)}  # JSON mode: four do
    with pytest.raises(sk.SparkSetupError, match=r"no spark-avro_2.13-\*\.jar .* spark-avro_2.13-4.3.0.jar"):
        sk.spark_configs(jars, "4.3.0", "2.13", avro=True)
    with pytest.raises(sk.SparkSetupError, match="spark-avro_2.13-4.0.0.jar does not match .* pyspark 4.3.0"):
        sk.spark_configs(jars + ["/j/spark-avro_2.13-4.0.0.jar"], "4.3.0", "2.13", avro=True)
    ivy_named = jars + ["/j/org.apache.spark_spark-avro_2.13-4.3.0.jar"]  # as ~/.ivy2/jars names it
    assert sk.spark_configs(ivy_named, "4.3.0", "2.13", avro=True) == {"spark.jars": ",".join(ivy_named)}


def test_connector_version_command_for_the_setup_script(tmp_path):
    make_jars(tmp_path / "j", FOUR_400)
    p = subprocess.run([sys.executable, str(EXAMPLE / "spark_kafka.py"), "connector-version",
                        str(tmp_path / "j")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "4.0.0", p.stderr
    p = subprocess.run([sys.executable, str(EXAMPLE / "spark_kafka.py"), "connector-version",
                        str(tmp_path / "j" / "kafka-clients-3.9.0.jar")], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 1 and "no spark-sql-kafka-0-10" in p.stderr


def write_checkpoint(d: Path, batches: dict[int, dict]) -> None:
    """Spark's offset log: <checkpoint>/offsets/<batch id> = 'v1', metadata JSON, one JSON per source."""
    (d / "offsets").mkdir(parents=True)
    for batch, offsets in batches.items():
        meta = {"batchWatermarkMs": 0, "batchTimestampMs": 1, "conf": {}}
        (d / "offsets" / str(batch)).write_text(f"v1\n{json.dumps(meta)}\n{json.dumps(offsets)}")
        (d / "offsets" / f".{batch}.crc").write_bytes(b"\0")


def test_checkpoint_of_another_broker_is_explained(tmp_path):
    cp = tmp_path / "cp"
    write_checkpoint(cp, {0: {"readings": {"0": 2, "1": 0}}, 1: {"readings": {"0": 7, "1": 3}}})
    assert sk.checkpoint_offsets(str(cp)) == {"readings": {0: 7, 1: 3}}  # the latest batch
    assert sk.checkpoint_problem(str(cp), {"readings": {0: 7, 1: 10}}) is None  # same broker, more data
    msg = sk.checkpoint_problem(str(cp), {"readings": {0: 0, 1: 0}})  # a fresh broker
    assert "readings-0 was read up to offset 7 but the topic now ends at offset 0" in msg
    assert str(cp) in msg and "Some data may have been lost" in msg and "--checkpoint" in msg
    msg = sk.checkpoint_problem(str(cp), {"readings": {0: 9}})  # recreated with fewer partitions
    assert "partition 1 is in the checkpoint but the topic has 1 partitions" in msg
    assert sk.checkpoint_problem(str(tmp_path / "none"), {"readings": {0: 0}}) is None
    assert sk.checkpoint_problem(str(cp), {"other": {0: 0}}) is None  # not a topic this run reads
