"""PySpark worker: Spark's Kafka source and sink against the broker, for real.

``python -m compat.spark.pyspark_job --bootstrap B --run-id ID --jars J1,J2 --work-dir D SCENARIO...``

One local SparkSession (``local[2]``, connector jars from ``--jars``, in the one
format of ``KWIRE_SPARK_KAFKA_JARS``, checked against pyspark's version before
Spark starts; see compat/spark/__init__.py) runs:

* ``pyspark-batch-read``: ``spark.read.format("kafka")`` over a topic written by
  librdkafka, earliest..latest and from explicit per-partition offsets, with headers;
* ``pyspark-batch-write``: ``df.write.format("kafka")`` with key, value, headers and
  an explicit partition column, read back with librdkafka;
* ``pyspark-streaming-restart``: ``readStream`` kafka -> ``upper(value)`` ->
  ``writeStream`` kafka with a checkpoint, run to completion (trigger availableNow),
  then, after more input arrives, started again from the same checkpoint: the sink
  must get only the new records.

Test data is written and read back, and topics made and removed, with
confluent-kafka (compat/clients/confluent.py); only the reads and writes under
test go through Spark. Reports in the line protocol of compat/worker.py.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

from compat.clients.base import Msg
from compat.clients.confluent import ConfluentClient
from compat.matrix import FAIL, PASS
from compat.scenarios import Context, Failed, check, check_deliveries
from compat.worker import describe, emit


class SparkRun:
    def __init__(self, spark, bootstrap: str, work: Path) -> None:
        self.spark = spark
        self.bootstrap = bootstrap
        self.work = work
        self.helper = ConfluentClient(bootstrap)

    def read(self, topic: str, **options):
        r = (self.spark.read.format("kafka").option("kafka.bootstrap.servers", self.bootstrap)
             .option("subscribe", topic).option("includeHeaders", "true"))
        for k, v in options.items():
            r = r.option(k, v)
        return r.load()


def _msgs(n: int, tag: str, partitions: int) -> list[Msg]:
    base = int(time.time() * 1000) - 60_000
    return [Msg(f"k{i}".encode(), f"{tag}-{i}".encode(), (("row", str(i).encode()), ("tag", tag.encode())),
                base + i, i % partitions) for i in range(n)]


def batch_read(run: SparkRun, ctx: Context) -> None:
    t = ctx.topic(2)
    msgs = _msgs(20, "read", 2)
    check_deliveries(msgs, run.helper.produce(t, msgs))
    rows = run.read(t, startingOffsets="earliest", endingOffsets="latest").collect()
    check(len(rows) == 20, f"spark.read returned {len(rows)} rows, want 20")
    by_value = {bytes(r["value"]): r for r in rows}
    for i, m in enumerate(msgs):
        r = by_value.get(m.value)
        check(r is not None, f"record {m.value!r} missing from spark.read")
        check(bytes(r["key"]) == m.key, f"{m.value!r}: key {r['key']!r}")
        check(r["partition"] == m.partition and r["offset"] == i // 2,
              f"{m.value!r}: at {r['partition']}:{r['offset']}, want {m.partition}:{i // 2}")
        headers = tuple((h["key"], bytes(h["value"])) for h in (r["headers"] or []))
        check(headers == m.headers, f"{m.value!r}: headers {headers}")
        ts_ms = int(r["timestamp"].timestamp() * 1000)
        check(abs(ts_ms - m.timestamp) <= 1, f"{m.value!r}: timestamp {ts_ms}, want {m.timestamp}")
    # Explicit starting offsets: partition 0 from offset 3 (inside what librdkafka batched), 1 from earliest.
    rows = run.read(t, startingOffsets=f'{{"{t}": {{"0": 3, "1": -2}}}}', endingOffsets="latest").collect()
    got = sorted((r["partition"], r["offset"]) for r in rows)
    want = sorted([(0, o) for o in range(3, 10)] + [(1, o) for o in range(10)])
    check(got == want, f"from offsets {{0: 3, 1: earliest}}: read {got}")


def batch_write(run: SparkRun, ctx: Context) -> None:
    from pyspark.sql import functions as F

    t = ctx.topic(2)
    data = [(f"k{i}", f"write-{i}", i % 2, str(i)) for i in range(30)]
    df = run.spark.createDataFrame(data, "key string, value string, partition int, row string")
    df = df.select(F.col("key").cast("binary").alias("key"), F.col("value").cast("binary").alias("value"),
                   "partition",
                   F.array(F.struct(F.lit("row").alias("key"), F.col("row").cast("binary").alias("value")))
                   .alias("headers"))
    df.write.format("kafka").option("kafka.bootstrap.servers", run.bootstrap).option("topic", t).save()
    recs = run.helper.fetch(t, {0: "earliest", 1: "earliest"}, 30)
    check(len(recs) == 30, f"df.write wrote {len(recs)} records, want 30")
    for r in recs:
        i = int(r.value.decode().split("-")[1])
        check(r.key == f"k{i}".encode() and r.partition == i % 2,
              f"{r.value!r}: key {r.key!r} in partition {r.partition}")
        check(r.headers == (("row", str(i).encode()),), f"{r.value!r}: headers {r.headers}")
    offsets = {p: sorted(r.offset for r in recs if r.partition == p) for p in (0, 1)}
    check(offsets == {0: list(range(15)), 1: list(range(15))}, f"offsets {offsets} (duplicates or gaps)")


def streaming_restart(run: SparkRun, ctx: Context) -> None:
    src, sink = ctx.topic(2), ctx.topic(1)
    checkpoint = run.work / f"checkpoint-{ctx.prefix}"
    first = _msgs(10, "first", 2)
    check_deliveries(first, run.helper.produce(src, first))

    def run_query() -> None:
        stream = (run.spark.readStream.format("kafka").option("kafka.bootstrap.servers", run.bootstrap)
                  .option("subscribe", src).option("startingOffsets", "earliest").load())
        q = (stream.selectExpr("key", "upper(cast(value as string)) as value")
             .writeStream.format("kafka").option("kafka.bootstrap.servers", run.bootstrap)
             .option("topic", sink).option("checkpointLocation", str(checkpoint))
             .trigger(availableNow=True).start())
        if not q.awaitTermination(120):
            q.stop()
            raise Failed("the streaming query did not finish its availableNow run within 120 s")
        if q.exception() is not None:
            raise Failed(f"streaming query failed: {q.exception()}")

    run_query()
    out = run.helper.fetch(sink, {0: "earliest"}, 10)
    check(sorted(r.value for r in out) == sorted(m.value.upper() for m in first),
          f"after the first run the sink holds {sorted(r.value for r in out)}")
    second = _msgs(5, "second", 2)
    check_deliveries(second, run.helper.produce(src, second))
    run_query()  # same checkpoint: must resume after what it already processed
    out = run.helper.fetch(sink, {0: "earliest"}, 15, timeout=10)
    values = sorted(r.value for r in out)
    want = sorted(m.value.upper() for m in first + second)
    check(values == want, f"after the restart the sink holds {len(values)} records "
                          f"({len(values) - len(set(values))} duplicates), want the 15 distinct ones")


SCENARIOS = {
    "pyspark-batch-read": batch_read,
    "pyspark-batch-write": batch_write,
    "pyspark-streaming-restart": streaming_restart,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m compat.spark.pyspark_job")
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--run-id", required=True)
    ap.add_argument("--jars", required=True,
                    help="the connector's four jars: commas or os.pathsep between paths, directories allowed")
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("scenarios", nargs="+")
    args = ap.parse_args(argv)
    work = Path(args.work_dir)
    work.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from compat.spark import SparkSetupError, check_jars, connector_jars, spark_kafka

    try:
        jars = connector_jars(args.jars)
        check_jars(jars, *spark_kafka.installed_pyspark())
    except SparkSetupError as e:  # before a JVM starts, not NoSuchMethodError mid-query
        print(f"pyspark_job: --jars {args.jars}: {e}", file=sys.stderr)
        return 2
    import pyspark
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName(f"kwire-compat-{args.run_id}")
             .config("spark.jars", ",".join(jars))
             .config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "2")
             .config("spark.local.dir", str(work / "spark-local"))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    jar_names = sorted(Path(j).name for j in jars if "kafka" in Path(j).name)
    emit({"event": "hello", "client": "pyspark",
          "version": f"pyspark {pyspark.__version__} with {', '.join(jar_names)}"})
    run = SparkRun(spark, args.bootstrap, work)
    try:
        for sid in args.scenarios:
            emit({"event": "start", "scenario": sid})
            t0 = time.monotonic()
            ctx = Context(run.helper, args.run_id, sid,
                          lambda kind, name, sid=sid: emit({"event": "resource", "scenario": sid,
                                                            "kind": kind, "name": name}))
            ctx.prefix = f"compat-{args.run_id}-pyspark-{sid}"
            status, reason = PASS, ""
            try:
                SCENARIOS[sid](run, ctx)
            except Exception as e:  # noqa: BLE001 - every failure becomes a cell
                status, reason = FAIL, describe(e)
            problems = ctx.cleanup()
            if problems and status == PASS:
                status, reason = FAIL, "cleanup: " + "; ".join(problems)
            emit({"event": "end", "scenario": sid, "status": status, "reason": reason,
                  "seconds": round(time.monotonic() - t0, 3), "notes": ctx.notes})
    finally:
        spark.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
