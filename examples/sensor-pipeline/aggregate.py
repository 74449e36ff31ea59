"""PySpark Structured Streaming: per-sensor windowed aggregates, Kafka in, Kafka out.

    python examples/sensor-pipeline/aggregate.py --bootstrap 127.0.0.1:9092

fetches the Kafka connector that matches the installed pyspark
(``spark.jars.packages=org.apache.spark:spark-sql-kafka-0-10_2.13:<pyspark version>``,
from Maven Central; offline, it stops at once with a message naming the jars
to give, see spark_kafka.fetch_problem); give the four jars with ``--jars`` or
``$KWIRE_SPARK_KAFKA_JARS`` (paths separated by commas or ``:``, directories
allowed): their version is checked against pyspark's before Spark starts
(see spark_kafka.py). ``spark-submit --packages ...`` works too.

Reads JSON readings from ``--input`` (see producer.py), parses them, and per
sensor and per 1-minute event-time window (sliding every 30 s) computes the
count and the min / avg / max temperature and average humidity. A 2-minute
watermark on the reading time bounds the state: a window is final, and
written once, when the watermark passes its end (output mode ``append``);
readings later than that are dropped. Results go to ``--output`` as JSON keyed
by sensor, e.g.::

    {"sensor":"s-3","window_start":"2026-11-22T06:40:00.000Z","window_end":"2026-11-22T06:41:00.000Z",
     "readings":118,"temp_min":19.52,"temp_avg":21.04,"temp_max":22.49,"humidity_avg":44.9}

With ``--avro --registry URL`` the readings are Avro written by
``producer.py --avro``: before Spark starts the job fetches the latest schema
of ``<input>-value`` from the registry, then strips each value's 5-byte
Schema Registry header and decodes the rest with ``from_avro`` (see
avro_registry.py). ``from_avro`` is in the ``spark-avro_2.13`` jar of
pyspark's version: fetched next to the connector, or given with the
connector's jars (``--jars`` / ``$KWIRE_SPARK_KAFKA_JARS``) offline.

The checkpoint (``--checkpoint``) holds the Kafka offsets and the window state:
stop the job and start it again with the same checkpoint and it carries on
where it stopped, without re-reading or re-emitting anything.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # spark_kafka.py beside this file
import avro_registry  # noqa: E402
import spark_kafka  # noqa: E402

try:
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql.types import DoubleType, StringType, StructField, StructType
except ImportError:
    if __name__ == "__main__":
        sys.exit("aggregate.py: pyspark is not installed: pip install pyspark (it needs a JDK 17+)")
    raise

READING = StructType([
    StructField("sensor", StringType()),
    StructField("ts", StringType()),
    StructField("temperature", DoubleType()),
    StructField("humidity", DoubleType()),
])


def parse(kafka_rows, avro: tuple[int, str] | None = None):
    """Kafka source rows -> one row per valid reading, with an ``event_time`` timestamp.

    ``avro``: (schema id, schema JSON) from the registry; the values are then
    Confluent-framed Avro, decoded with ``from_avro`` (needs the spark-avro jar).
    """
    if avro is None:
        reading = F.from_json(F.col("value").cast("string"), READING)
    else:
        from pyspark.sql.avro.functions import from_avro

        schema_id, schema = avro
        reading = from_avro(avro_registry.payload_column("value", schema_id), schema, {"mode": "PERMISSIVE"})
    return (kafka_rows
            .select(reading.alias("r"))
            .select("r.*")
            .withColumn("event_time", F.to_timestamp("ts"))
            .where(F.col("event_time").isNotNull() & F.col("sensor").isNotNull()))


def aggregate(readings, window: str = "1 minute", slide: str = "30 seconds", watermark: str = "2 minutes"):
    """Readings -> Kafka sink rows: key = sensor, value = the window's aggregates as JSON (UTC times)."""
    iso = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"  # the session time zone is UTC (see main)
    return (readings
            .withWatermark("event_time", watermark)
            .groupBy(F.col("sensor"), F.window("event_time", window, slide))
            .agg(F.count("*").alias("readings"),
                 F.round(F.min("temperature"), 2).alias("temp_min"),
                 F.round(F.avg("temperature"), 2).alias("temp_avg"),
                 F.round(F.max("temperature"), 2).alias("temp_max"),
                 F.round(F.avg("humidity"), 1).alias("humidity_avg"))
            .select(F.col("sensor").alias("key"),
                    F.to_json(F.struct("sensor",
                                       F.date_format("window.start", iso).alias("window_start"),
                                       F.date_format("window.end", iso).alias("window_end"),
                                       "readings", "temp_min", "temp_avg", "temp_max", "humidity_avg"))
                    .alias("value")))


def build(spark: SparkSession, args):
    source = (spark.readStream.format("kafka")
              .option("kafka.bootstrap.servers", args.bootstrap)
              .option("subscribe", args.input)
              .option("startingOffsets", args.starting_offsets)
              .load())
    out = aggregate(parse(source, getattr(args, "avro_schema", None)), args.window, args.slide, args.watermark)
    trigger = {"availableNow": True} if args.once else {"processingTime": args.trigger}
    return (out.writeStream.format("kafka")
            .option("kafka.bootstrap.servers", args.bootstrap)
            .option("topic", args.output)
            .option("checkpointLocation", args.checkpoint)
            .outputMode("append")
            .trigger(**trigger))


def end_offsets(bootstrap: str, topics: list[str]) -> dict[str, dict[int, int]] | None:
    """topic -> partition -> end offset on the broker now (kafka-python); None if it cannot tell."""
    try:
        from kafka import KafkaConsumer, TopicPartition
        from kafka.errors import KafkaError
    except ImportError:
        return None
    try:
        consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                 request_timeout_ms=15000, bootstrap_timeout_ms=5000)
    except KafkaError:
        return None  # no broker: Spark reports that in its own words
    try:
        out: dict[str, dict[int, int]] = {}
        for topic in topics:
            parts = consumer.partitions_for_topic(topic)
            if parts:
                tps = [TopicPartition(topic, p) for p in sorted(parts)]
                out[topic] = {tp.partition: off for tp, off in consumer.end_offsets(tps).items()}
        return out
    except KafkaError:
        return None
    finally:
        consumer.close()


def _quiet_py4j() -> None:
    """No py4j tracebacks while the JVM goes away under us (Ctrl-C under spark-submit)."""
    import logging

    logging.getLogger("py4j").setLevel(logging.CRITICAL)


def run(spark: SparkSession, args) -> int:
    """Start the query and wait; Ctrl-C / SIGTERM stop it cleanly (exit code 0)."""
    try:
        query = build(spark, args).start()
    except Exception as e:  # e.g. no Kafka connector on the class path: say so, no traceback
        print(f"aggregate.py: the query did not start: {e}", file=sys.stderr, flush=True)
        return 1
    print(start_line(args), flush=True)
    return wait(query, spark)


def start_line(args) -> str:
    """What the job says once its query runs (``--once`` stops by itself: no Ctrl-C hint)."""
    if args.once:
        return (f"processing what {args.input} holds now -> {args.output} (checkpoint {args.checkpoint}); "
                "stops when done")
    return f"streaming {args.input} -> {args.output} (checkpoint {args.checkpoint}); Ctrl-C to stop"


def session_builder(args, configs: dict[str, str]):
    """The SparkSession builder: UTC, few shuffle partitions, the connector's configs.

    Adaptive query execution is off: Spark does not support it in streaming and
    warns on every start when it is on (its default)."""
    builder = (SparkSession.builder.appName("kwire-sensor-aggregates")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.shuffle.partitions", str(args.shuffle_partitions))
               .config("spark.sql.adaptive.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    if args.master:
        builder = builder.master(args.master)
    for key, value in configs.items():
        builder = builder.config(key, value)
    return builder


def wait(query, spark: SparkSession | None = None) -> int:
    """Until ``query`` ends (0; 1 if it failed) or Ctrl-C / SIGTERM, which stop it cleanly (0).

    pyspark starts its JVM with SIGINT ignored, so Ctrl-C reaches only this
    process: the handler just sets a flag that the polling loop sees within half
    a second, then the query is stopped and the session closed in order.
    Under spark-submit the JVM gets the signal too and shuts itself down; what
    py4j then raises is expected and silenced.
    """
    import signal
    import threading
    import time

    from py4j.protocol import Py4JError

    stopping = threading.Event()
    first = []

    def on_signal(signum, frame):
        if not stopping.is_set():
            first.append(time.monotonic())
            stopping.set()
        elif time.monotonic() - first[0] > 2.0:  # pressed again later: do not wait any longer
            print("aggregate.py: stopped without waiting for the query", file=sys.stderr, flush=True)
            os._exit(130)  # the JVM exits when this process goes (pyspark's gateway watches it)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    code = 0
    try:
        while not stopping.is_set():
            if query.awaitTermination(0.5):  # True once the query stopped (availableNow: done)
                break
    except Py4JError:
        if not stopping.is_set():
            raise
    except Exception as e:  # StreamingQueryException: the query failed
        if not stopping.is_set():
            print(f"aggregate.py: the query failed: {e}", file=sys.stderr, flush=True)
            code = 1
    if stopping.is_set():
        print("stopping the query (Ctrl-C)...", flush=True)
        _quiet_py4j()
        if spark is not None:  # an interrupted batch's write "aborting" is expected: no ERROR lines
            try:
                spark.sparkContext.setLogLevel("OFF")
            except Exception:
                pass
    try:
        query.stop()
    except Exception:  # the JVM may be gone already (spark-submit passes Ctrl-C to it too)
        _quiet_py4j()
    for sig, handler in previous.items():
        signal.signal(sig, handler)
    return code


def _not_started(configs: dict[str, str], error: Exception) -> str:
    """What to do when Spark's JVM did not start (its own messages are on stderr above ours).

    Offline, ``spark.jars.packages`` is what fails: spark-submit cannot fetch
    the connector from Maven Central ("unresolved dependency") and exits, and
    pyspark only sees the gateway gone (JAVA_GATEWAY_EXITED).
    """
    import shutil

    if shutil.which("java") is None:
        return "Spark did not start: java is not on PATH (pyspark needs a JDK 17+)"
    coordinate = configs.get("spark.jars.packages")
    if coordinate is None:
        return f"Spark did not start (see its messages above): {error}"
    version = coordinate.rsplit(":", 1)[-1]
    scala = coordinate.split("_")[-1].split(":")[0]
    return (f"Spark did not start (see its messages above; 'unresolved dependency' means it could not "
            f"fetch {coordinate} from Maven Central). Offline, give the connector's four jars with --jars "
            f"or ${spark_kafka.ENV}: {spark_kafka.CONNECTOR}_{scala}-{version}.jar, "
            f"{spark_kafka.TOKEN_PROVIDER}_{scala}-{version}.jar, kafka-clients-*.jar and "
            "commons-pool2-*.jar (examples/sensor-pipeline/README.md)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bootstrap", default="127.0.0.1:9092")
    ap.add_argument("--input", default="sensor-readings")
    ap.add_argument("--output", default="sensor-aggregates")
    ap.add_argument("--checkpoint", default="/tmp/kwire-sensor-pipeline-checkpoint")
    ap.add_argument("--starting-offsets", default="earliest")
    ap.add_argument("--window", default="1 minute")
    ap.add_argument("--slide", default="30 seconds")
    ap.add_argument("--watermark", default="2 minutes")
    ap.add_argument("--trigger", default="10 seconds")
    ap.add_argument("--once", action="store_true", help="process what is there, then stop (availableNow)")
    ap.add_argument("--jars", help="the connector's four jars (commas or ':' between paths; a directory "
                    f"means its *.jar); default ${spark_kafka.ENV}, else fetched with spark.jars.packages")
    ap.add_argument("--shuffle-partitions", type=int, default=4,
                    help="spark.sql.shuffle.partitions (Spark's default 200 is for clusters; default 4)")
    ap.add_argument("--master", default=None, help="Spark master (default: pyspark's, local[*])")
    ap.add_argument("--avro", action="store_true",
                    help="the readings are Avro from producer.py --avro (needs --registry and spark-avro)")
    ap.add_argument("--registry", help="Schema Registry URL, e.g. http://127.0.0.1:8081")
    args = ap.parse_args(argv)
    if args.avro and not args.registry:
        ap.error("--avro needs --registry URL (the Schema Registry producer.py --avro registered the schema in)")

    try:
        spark_version, scala = spark_kafka.installed_pyspark()
        configs = spark_kafka.spark_configs(spark_kafka.resolve_jars(args.jars), spark_version, scala,
                                            avro=args.avro)
        ends = end_offsets(args.bootstrap, [args.input])
        problem = spark_kafka.checkpoint_problem(args.checkpoint, ends) if ends else None
        if problem:
            raise spark_kafka.SparkSetupError(problem)
        # offline: say so before Spark's Ivy log and stack trace (under spark-submit its JVM,
        # with whatever --packages / --jars it was given, is already up: nothing to check)
        if "spark.jars.packages" in configs and "PYSPARK_GATEWAY_PORT" not in os.environ:
            problem = spark_kafka.fetch_problem(spark_version, scala, avro=args.avro)
            if problem:
                raise spark_kafka.SparkSetupError(problem)
        if args.avro:
            args.avro_schema = avro_registry.latest_schema(args.registry, avro_registry.value_subject(args.input))
    except (spark_kafka.SparkSetupError, avro_registry.RegistryError) as e:
        print(f"aggregate.py: {e}", file=sys.stderr)
        return 2

    try:
        spark = session_builder(args, configs).getOrCreate()
    except Exception as e:  # the JVM exited before pyspark could talk to it: say why, no traceback
        print(f"aggregate.py: {_not_started(configs, e)}", file=sys.stderr)
        return 2
    spark.sparkContext.setLogLevel("WARN")
    try:
        return run(spark, args)
    finally:
        try:
            spark.stop()
        except Exception:
            _quiet_py4j()


if __name__ == "__main__":
    raise SystemExit(main())
