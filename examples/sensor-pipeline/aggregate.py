"""PySpark Structured Streaming: per-sensor windowed aggregates, Kafka in, Kafka out.

    spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<spark version> \\
        examples/sensor-pipeline/aggregate.py --bootstrap 127.0.0.1:9092

or, with the connector jars already on disk, ``python aggregate.py --jars J1,J2,...``.

Reads JSON readings from ``--input`` (see producer.py), parses them, and per
sensor and per 1-minute event-time window (sliding every 30 s) computes the
count and the min / avg / max temperature and average humidity. A 2-minute
watermark on the reading time bounds the state: a window is final, and
written once, when the watermark passes its end (output mode ``append``);
readings later than that are dropped. Results go to ``--output`` as JSON keyed
by sensor, e.g.::

    {"sensor":"s-3","window_start":"2026-11-22T06:40:00.000Z","window_end":"2026-11-22T06:41:00.000Z",
     "readings":118,"temp_min":19.52,"temp_avg":21.04,"temp_max":22.49,"humidity_avg":44.9}

The checkpoint (``--checkpoint``) holds the Kafka offsets and the window state:
stop the job and start it again with the same checkpoint and it carries on
where it stopped, without re-reading or re-emitting anything.
"""

from __future__ import annotations

import argparse

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import DoubleType, StringType, StructField, StructType

READING = StructType([
    StructField("sensor", StringType()),
    StructField("ts", StringType()),
    StructField("temperature", DoubleType()),
    StructField("humidity", DoubleType()),
])


def parse(kafka_rows):
    """Kafka source rows -> one row per valid reading, with an ``event_time`` timestamp."""
    return (kafka_rows
            .select(F.from_json(F.col("value").cast("string"), READING).alias("r"))
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
    out = aggregate(parse(source), args.window, args.slide, args.watermark)
    trigger = {"availableNow": True} if args.once else {"processingTime": args.trigger}
    return (out.writeStream.format("kafka")
            .option("kafka.bootstrap.servers", args.bootstrap)
            .option("topic", args.output)
            .option("checkpointLocation", args.checkpoint)
            .outputMode("append")
            .trigger(**trigger))


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
    ap.add_argument("--jars", help="comma-separated connector jars, instead of spark-submit --packages")
    args = ap.parse_args(argv)

    builder = SparkSession.builder.appName("kwire-sensor-aggregates").config("spark.sql.session.timeZone", "UTC")
    if args.jars:
        builder = builder.config("spark.jars", args.jars)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    query = build(spark, args).start()
    print(f"streaming {args.input} -> {args.output} (checkpoint {args.checkpoint}); Ctrl-C to stop", flush=True)
    try:
        query.awaitTermination()
    except KeyboardInterrupt:
        query.stop()
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
