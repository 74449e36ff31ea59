"""examples/sensor-pipeline's Avro mode (``--avro --registry URL``) against kwire's built-in Schema Registry.

* ``producer.py --avro`` as a user runs it: the schema is registered under
  ``<topic>-value`` and every value, read back raw from the broker, is
  Confluent-framed Avro that confluent-kafka's registry ``AvroDeserializer``
  decodes to the readings (keys = their sensor);
* ``avro_registry.py``, which ``aggregate.py --avro`` uses: ``latest_schema()``
  gets that subject's id and schema from the real registry (and names a missing
  subject / an unreachable registry), ``split_header()`` cuts the 5-byte header
  so that the rest decodes (fastavro) with the fetched schema, and
  ``payload_column()`` does the same cut on a real local Spark (needs java),
  skipping a value framed with another schema id;
* ``aggregate.py --avro`` with the jars but no subject yet / no registry:
  exit code 2 and the reason, before Spark starts;
* ``aggregate.py --avro`` without the spark-avro jar: among ``--jars`` (and
  with a spark-avro jar of another version), or not fetchable offline (the
  connector cached, Maven unreachable): exit code 2 and one message naming
  ``spark-avro_2.13-<pyspark version>.jar``, before Spark starts;
* gated like test_example_pipeline.py (``KWIRE_SPARK_KAFKA_JARS`` with the
  connector's jars **and** spark-avro's, pyspark, java): the whole job,
  ``producer.py --avro`` -> ``aggregate.py --avro --once`` (``from_avro``) ->
  ``consumer.py``, every printed window checked against the input.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "sensor-pipeline"
sys.path.insert(0, str(EXAMPLE))
sys.path.insert(0, str(ROOT))

import avro_registry  # noqa: E402
import spark_jvm  # noqa: E402
from compat.spark import prerequisites  # noqa: E402

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark; ~450 MB)")
SPARK = pyspark.__version__
AVRO_JAR = f"spark-avro_2.13-{SPARK}.jar"
SPARK_JARS, SPARK_MISSING = prerequisites()
if SPARK_MISSING is None and not any(os.path.basename(j).endswith(AVRO_JAR) for j in SPARK_JARS):
    SPARK_MISSING = f"KWIRE_SPARK_KAFKA_JARS holds no {AVRO_JAR} (--avro's from_avro is in it)"


def run(script: str, *args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k != "KWIRE_SPARK_KAFKA_JARS"}
    full_env.update(env or {})
    return subprocess.run([sys.executable, str(EXAMPLE / script), *args], capture_output=True, text=True,
                          timeout=timeout, env=full_env, cwd=ROOT)


def produce_avro(broker, topic: str, count: int, seed: int = 1) -> None:
    p = run("producer.py", "--bootstrap", broker.bootstrap, "--topic", topic, "--count", str(count),
            "--rate", "200", "--sensors", "3", "--seed", str(seed), "--avro", "--registry",
            broker.schema_registry_url)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"sent {count} readings to {topic}" in p.stdout


def raw_records(bootstrap: str, topic: str) -> list:
    """Every record of ``topic`` (kafka-python, assign() up to the end offsets), values untouched."""
    from kafka import KafkaConsumer, TopicPartition

    c = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False,
                      auto_offset_reset="earliest")
    try:
        tps = [TopicPartition(topic, p) for p in sorted(c.partitions_for_topic(topic))]
        c.assign(tps)
        end = c.end_offsets(tps)
        out = []
        while any(c.position(tp) < end[tp] for tp in tps):
            for recs in c.poll(timeout_ms=500).values():
                out.extend(recs)
        return out
    finally:
        c.close()


def test_producer_avro_reads_back_through_the_registry(kwire_broker):
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    topic = kwire_broker.create_topic("sensor-readings", partitions=3)
    produce_avro(kwire_broker, topic, 40)

    client = SchemaRegistryClient({"url": kwire_broker.schema_registry_url})
    assert f"{topic}-value" in client.get_subjects()
    registered = client.get_latest_version(f"{topic}-value")
    assert json.loads(registered.schema.schema_str)["name"] == "SensorReading"

    deserializer = AvroDeserializer(client)
    ctx = SerializationContext(topic, MessageField.VALUE)
    records = raw_records(kwire_broker.bootstrap, topic)
    assert len(records) == 40
    for r in records:
        assert r.value[:5] == b"\x00" + registered.schema_id.to_bytes(4, "big"), r.value[:8]
        reading = deserializer(r.value, ctx)
        assert set(reading) == {"sensor", "ts", "temperature", "humidity"}, reading
        assert r.key.decode() == reading["sensor"] and reading["sensor"] in ("s-0", "s-1", "s-2")
        assert reading["ts"].endswith("Z") and 16.0 <= reading["temperature"] <= 22.0
        assert 30.0 <= reading["humidity"] <= 60.0


def test_aggregates_schema_helper_against_the_registry(kwire_broker):
    import fastavro

    topic = kwire_broker.create_topic("sensor-readings", partitions=1)
    url = kwire_broker.schema_registry_url
    with pytest.raises(avro_registry.RegistryError, match=f"has no subject '{topic}-value'.*producer.py --avro"):
        avro_registry.latest_schema(url, avro_registry.value_subject(topic))

    produce_avro(kwire_broker, topic, 10)
    schema_id, schema = avro_registry.latest_schema(url, avro_registry.value_subject(topic))
    assert schema_id >= 1 and json.loads(schema)["fields"] == json.loads(avro_registry.SCHEMA)["fields"]
    parsed = fastavro.parse_schema(json.loads(schema))
    records = raw_records(kwire_broker.bootstrap, topic)
    assert len(records) == 10
    for r in records:
        got_id, payload = avro_registry.split_header(r.value)
        assert got_id == schema_id
        reading = fastavro.schemaless_reader(io.BytesIO(payload), parsed)
        assert reading["sensor"] == r.key.decode()

    with pytest.raises(ValueError, match="magic byte 1"):
        avro_registry.split_header(b"\x01" + records[0].value[1:])
    with pytest.raises(ValueError, match="shorter than the 5-byte"):
        avro_registry.split_header(b"\x00\x00")

    kwire_broker.stop()
    with pytest.raises(avro_registry.RegistryError, match=f"cannot reach the registry at {url}"):
        avro_registry.latest_schema(url, avro_registry.value_subject(topic))


# a local Spark: 95 s measured at load average 16 on 2 cores, and the first Spark test on a
# machine makes the driver's class-data archive first (tests/spark_jvm.py: 1-3 min loaded)
@pytest.mark.timeout(480)
def test_payload_column_on_spark(kwire_broker, tmp_path, monkeypatch):
    """payload_column() on a real local Spark: the bytes split_header() gives; other schema ids -> null."""
    if shutil.which("java") is None:
        pytest.skip("java (JDK 17+) is not on PATH")
    monkeypatch.setenv("SPARK_SUBMIT_OPTS", spark_jvm.driver_opts())  # a lighter driver JVM
    topic = kwire_broker.create_topic("sensor-readings", partitions=1)
    produce_avro(kwire_broker, topic, 5)
    schema_id, _ = avro_registry.latest_schema(kwire_broker.schema_registry_url,
                                               avro_registry.value_subject(topic))
    values = [bytes(r.value) for r in raw_records(kwire_broker.bootstrap, topic)]
    other = avro_registry.header(schema_id + 1) + values[0][5:]

    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").appName("kwire-avro-header")
             .config("spark.ui.enabled", "false").config("spark.local.dir", str(tmp_path))
             .config("spark.sql.shuffle.partitions", "1").getOrCreate())
    try:
        df = spark.createDataFrame([(i, bytearray(v)) for i, v in enumerate(values + [other])],
                                   "i int, value binary")
        rows = sorted(df.select("i", avro_registry.payload_column("value", schema_id).alias("p")).collect())
    finally:
        spark.stop()
    assert [bytes(r.p) if r.p is not None else None for r in rows] == \
        [avro_registry.split_header(v)[1] for v in values] + [None]


def fake_jars(d: Path, version: str, avro_version: str | None) -> Path:
    """Empty jars named like the connector's four (+ spark-avro): aggregate.py stops before reading them."""
    d.mkdir(parents=True, exist_ok=True)
    names = [f"spark-sql-kafka-0-10_2.13-{version}.jar", f"spark-token-provider-kafka-0-10_2.13-{version}.jar",
             "kafka-clients-3.9.0.jar", "commons-pool2-2.12.0.jar"]
    if avro_version:
        names.append(f"spark-avro_2.13-{avro_version}.jar")
    for n in names:
        (d / n).write_bytes(b"")
    return d


@pytest.mark.parametrize("avro_version", [None, "4.0.0" if SPARK != "4.0.0" else "3.5.1"])
def test_aggregate_avro_without_the_spark_avro_jar(tmp_path, avro_version):
    d = fake_jars(tmp_path / "jars", SPARK, avro_version)
    t0 = time.monotonic()
    p = run("aggregate.py", "--avro", "--registry", "http://127.0.0.1:1", "--bootstrap", "127.0.0.1:1",
            "--checkpoint", str(tmp_path / "cp"), env={"KWIRE_SPARK_KAFKA_JARS": str(d)}, timeout=60)
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stderr.count("aggregate.py:") == 1 and AVRO_JAR in p.stderr, p.stderr
    if avro_version is None:
        assert "no spark-avro_2.13-*.jar among the given jars" in p.stderr
    else:
        assert f"spark-avro_2.13-{avro_version}.jar does not match the installed pyspark {SPARK}" in p.stderr
    assert "Traceback" not in p.stderr and time.monotonic() - t0 < 30  # no JVM was started

    # the same jars without --avro are enough: JSON mode does not need spark-avro
    p = run("aggregate.py", "--avro", "--bootstrap", "127.0.0.1:1", env={"KWIRE_SPARK_KAFKA_JARS": str(d)})
    assert p.returncode == 2 and "--avro needs --registry URL" in p.stderr, p.stderr


def test_aggregate_avro_asks_the_registry_before_spark_starts(tmp_path, kwire_broker):
    """The right jars, but no schema yet / no registry: exit 2 with the registry's answer, no JVM."""
    d = fake_jars(tmp_path / "jars", SPARK, SPARK)
    topic = kwire_broker.create_topic("sensor-readings", partitions=1)
    common = ("--bootstrap", kwire_broker.bootstrap, "--input", topic, "--checkpoint", str(tmp_path / "cp"),
              "--jars", str(d), "--avro", "--registry")
    p = run("aggregate.py", *common, kwire_broker.schema_registry_url, timeout=60)
    assert p.returncode == 2, p.stdout + p.stderr
    assert f"has no subject '{topic}-value': run producer.py --avro first" in p.stderr, p.stderr
    p = run("aggregate.py", *common, "http://127.0.0.1:1", timeout=60)
    assert p.returncode == 2 and "cannot reach the registry at http://127.0.0.1:1" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


IVY_NOWHERE = """<ivysettings>
  <settings defaultResolver="nowhere"/>
  <resolvers><ibiblio name="nowhere" m2compatible="true" root="http://127.0.0.1:1/maven2/"/></resolvers>
</ivysettings>
"""


def test_aggregate_avro_offline_names_the_spark_avro_jar(tmp_path):
    """No jars, the connector in the Ivy cache, Maven unreachable: only spark-avro is missing, and said so."""
    ivy = tmp_path / "ivy"
    (ivy / "jars").mkdir(parents=True)
    (ivy / "jars" / f"org.apache.spark_spark-sql-kafka-0-10_2.13-{SPARK}.jar").write_bytes(b"")
    (tmp_path / "ivysettings.xml").write_text(IVY_NOWHERE)
    submit = f"--conf spark.jars.ivySettings={tmp_path / 'ivysettings.xml'} --conf spark.jars.ivy={ivy} pyspark-shell"
    p = run("aggregate.py", "--avro", "--registry", "http://127.0.0.1:1", "--bootstrap", "127.0.0.1:1",
            "--checkpoint", str(tmp_path / "cp"), env={"PYSPARK_SUBMIT_ARGS": submit}, timeout=60)
    assert p.returncode == 2, p.stdout + p.stderr
    assert f"cannot fetch org.apache.spark:spark-avro_2.13:{SPARK}, which --avro needs" in p.stderr, p.stderr
    assert f"add {AVRO_JAR} to the connector's jars" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.skipif(SPARK_MISSING is not None, reason=f"real PySpark Avro pipeline not run: {SPARK_MISSING}")
@pytest.mark.timeout(600)
def test_sensor_pipeline_avro_with_pyspark(kwire_broker, tmp_path):
    import test_example_pipeline as pipeline
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    inp = kwire_broker.create_topic("avro-readings", partitions=3)
    out = kwire_broker.create_topic("avro-aggregates", partitions=3)
    produce_avro(kwire_broker, inp, 60)
    work = tmp_path / "spark-local"
    work.mkdir()
    env = dict(PYSPARK_PYTHON=sys.executable,
               PYSPARK_SUBMIT_ARGS=f"--master local[2] --conf spark.sql.shuffle.partitions=2 "
                                   f"--conf spark.ui.enabled=false --conf spark.local.dir={work} pyspark-shell")
    p = run("aggregate.py", "--bootstrap", kwire_broker.bootstrap, "--input", inp, "--output", out,
            "--checkpoint", str(tmp_path / "cp"), "--once", "--jars", ",".join(SPARK_JARS),
            "--avro", "--registry", kwire_broker.schema_registry_url, *pipeline.JOB_ARGS,
            env=env, timeout=pipeline.SPARK_TIMEOUT_S)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-6000:]

    deserializer = AvroDeserializer(SchemaRegistryClient({"url": kwire_broker.schema_registry_url}))
    ctx = SerializationContext(inp, MessageField.VALUE)
    readings = [deserializer(r.value, ctx) for r in raw_records(kwire_broker.bootstrap, inp)]
    readings = [{**r, "ms": pipeline._epoch_ms(r["ts"])} for r in readings]
    watermark = max(r["ms"] for r in readings) - pipeline.WATERMARK_MS
    expected = {(s, pipeline._hms(start), pipeline._hms(start + pipeline.WINDOW_MS)): (start + pipeline.WINDOW_MS, rs)
                for (s, start), rs in pipeline.windows(readings).items()}
    printed = pipeline.consume(kwire_broker.bootstrap, out, f"{out}-printer")
    assert printed, "aggregate.py --avro printed no aggregate"
    for key, got in printed.items():
        assert key in expected and expected[key][0] <= watermark, key
        pipeline.check_window(key, got, expected[key][1])
    missing = [k for k, (end, _) in expected.items() if end < watermark and k not in printed]
    assert not missing, f"windows closed by the watermark but not printed: {sorted(missing)}"
