"""examples/sensor-pipeline end to end, with real PySpark: producer.py -> aggregate.py -> consumer.py.

Two rounds against the in-process kwire broker (``broker`` fixture):

1. ``producer.py`` writes readings to an input topic (3 partitions); ``aggregate.py --once``
   (trigger availableNow) aggregates them into an output topic; ``consumer.py`` (a
   consumer group) prints the aggregates;
2. ``producer.py`` writes more readings, later in time; ``aggregate.py --once`` runs again
   with the same ``--checkpoint``; ``consumer.py`` with the same group prints what is new.

The job runs with short windows (``--window "2 seconds" --slide "1 second" --watermark
"1 second"``) so that windows close within a test. With trigger availableNow Spark
processes the data, raises the watermark to (latest reading - 1 s) and runs one more
batch without data that emits every window whose end is at or below it (output mode
append), then stops. So, with W1 and W2 the watermark after each round:

* round 1 prints exactly the windows that end before W1 (at W1 itself, either round);
* round 2 prints exactly the windows that end after W1 and before W2: the restart
  re-emits nothing and loses nothing;
* every printed window holds what the input topic holds for that sensor and time range:
  count, min / avg / max temperature, average humidity (avg to Spark's rounding).

Spark's Kafka source and sink are the spark-sql-kafka-0-10 connector, not part of the
pyspark package (see compat/spark/__init__.py): the test runs when
``KWIRE_SPARK_KAFKA_JARS`` names the connector jars (and pyspark and java are there),
and is skipped otherwise with the reason ``compat.spark.prerequisites()`` gives.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from compat.spark import prerequisites  # noqa: E402

EXAMPLE = ROOT / "examples" / "sensor-pipeline"
SPARK_JARS, SPARK_MISSING = prerequisites()

WINDOW_MS, SLIDE_MS, WATERMARK_MS = 2000, 1000, 1000
JOB_ARGS = ["--window", "2 seconds", "--slide", "1 second", "--watermark", "1 second"]
SPARK_TIMEOUT_S = 360

# consumer.py's line for an aggregate:
#    s-3  06:40:00-06:41:00  n=118  temp 19.52 / 21.04 / 22.49  humidity 44.9
LINE = re.compile(r"^\s*(\S+)\s+(\d\d:\d\d:\d\d)-(\d\d:\d\d:\d\d)\s+n=(\d+)\s+temp (-?[\d.]+) / (-?[\d.]+) / "
                  r"(-?[\d.]+)\s+humidity (-?[\d.]+)$")


def _hms(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%H:%M:%S")


def _epoch_ms(ts: str) -> int:
    return round(datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp() * 1000)


def _run(args: list[str], timeout: float, env: dict | None = None) -> str:
    p = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env)
    assert p.returncode == 0, f"{' '.join(args[:2])} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-6000:]}"
    return p.stdout


def produce(bootstrap: str, topic: str, seed: int) -> None:
    _run([str(EXAMPLE / "producer.py"), "--bootstrap", bootstrap, "--topic", topic, "--count", "60",
          "--rate", "20", "--sensors", "3", "--seed", str(seed)], timeout=120)


def aggregate(bootstrap: str, inp: str, out: str, checkpoint: Path, work: Path) -> None:
    """aggregate.py --once, as the example's README runs it with jars on disk (--jars)."""
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable,
               # Two local cores and two shuffle partitions (Spark's default of 200 state stores
               # per batch only slows a test down); no UI; scratch space under the test's tmp dir.
               PYSPARK_SUBMIT_ARGS=f"--master local[2] --conf spark.sql.shuffle.partitions=2 "
                                   f"--conf spark.ui.enabled=false --conf spark.local.dir={work} pyspark-shell")
    text = _run([str(EXAMPLE / "aggregate.py"), "--bootstrap", bootstrap, "--input", inp, "--output", out,
                 "--checkpoint", str(checkpoint), "--once", "--jars", ",".join(SPARK_JARS), *JOB_ARGS],
                timeout=SPARK_TIMEOUT_S, env=env)
    assert "stops when done" in text and "Ctrl-C" not in text, text  # --once stops by itself


def consume(bootstrap: str, topic: str, group: str) -> dict[tuple[str, str, str], tuple]:
    """consumer.py in ``group`` until 15 s without records: (sensor, start, end) -> aggregates."""
    out = _run([str(EXAMPLE / "consumer.py"), "--bootstrap", bootstrap, "--topic", topic, "--group", group,
                "--from-beginning", "--idle", "15"], timeout=120)
    got: dict[tuple[str, str, str], tuple] = {}
    for line in out.splitlines():
        m = LINE.match(line)
        assert m, f"consumer.py printed a line that is not an aggregate: {line!r}"
        key = (m.group(1), m.group(2), m.group(3))
        assert key not in got, f"window {key} printed twice"
        got[key] = (int(m.group(4)), *(float(m.group(i)) for i in range(5, 9)))
    return got


def readings(bootstrap: str, topic: str) -> list[dict]:
    """Everything in the input topic, read with an assign()ed consumer up to the end offsets."""
    from kafka import KafkaConsumer, TopicPartition

    c = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False,
                      auto_offset_reset="earliest")
    try:
        tps = [TopicPartition(topic, p) for p in sorted(c.partitions_for_topic(topic))]
        c.assign(tps)
        c.seek_to_beginning(*tps)
        end = c.end_offsets(tps)
        out: list[dict] = []
        while any(c.position(tp) < end[tp] for tp in tps):
            for recs in c.poll(timeout_ms=500).values():
                for r in recs:
                    v = json.loads(r.value)
                    assert r.key.decode() == v["sensor"], f"record keyed {r.key!r} holds {v}"
                    out.append({**v, "ms": _epoch_ms(v["ts"])})
        return out
    finally:
        c.close()


def windows(rs: list[dict]) -> dict[tuple[str, int], list[dict]]:
    """(sensor, window start ms) -> its readings: sliding windows aligned to the epoch, as Spark's."""
    out: dict[tuple[str, int], list[dict]] = {}
    for r in rs:
        last = r["ms"] - r["ms"] % SLIDE_MS
        for start in range(last - WINDOW_MS + SLIDE_MS, last + 1, SLIDE_MS):
            out.setdefault((r["sensor"], start), []).append(r)
    return out


def check_window(key: tuple[str, str, str], got: tuple, rs: list[dict]) -> None:
    n, tmin, tavg, tmax, havg = got
    temps = [r["temperature"] for r in rs]
    hums = [r["humidity"] for r in rs]
    assert n == len(rs), f"{key}: n={n}, the input holds {len(rs)} readings"
    assert (tmin, tmax) == (round(min(temps), 2), round(max(temps), 2)), \
        f"{key}: temp min/max {tmin}/{tmax}, want {min(temps)}/{max(temps)}"
    # Spark rounds half up, Python to even on the binary value: allow one unit in the last place.
    assert abs(tavg - sum(temps) / n) <= 0.0051 + 1e-9, f"{key}: temp avg {tavg}, want {sum(temps) / n:.4f}"
    assert abs(havg - sum(hums) / n) <= 0.051 + 1e-9, f"{key}: humidity avg {havg}, want {sum(hums) / n:.4f}"


@pytest.mark.skipif(SPARK_MISSING is not None, reason=f"real PySpark pipeline not run: {SPARK_MISSING}")
@pytest.mark.timeout(2 * SPARK_TIMEOUT_S + 300)
def test_sensor_pipeline_with_pyspark(broker, topic_name, tmp_path):
    from kafka.admin import KafkaAdminClient, NewTopic

    inp, out, group = f"{topic_name}-readings", f"{topic_name}-aggregates", f"{topic_name}-printer"
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        admin.create_topics([NewTopic(inp, 3, 1), NewTopic(out, 3, 1)])
    finally:
        admin.close()
    checkpoint, work = tmp_path / "checkpoint", tmp_path / "spark-local"
    work.mkdir()

    produce(broker.bootstrap, inp, seed=1)
    first = readings(broker.bootstrap, inp)
    assert len(first) == 60
    aggregate(broker.bootstrap, inp, out, checkpoint, work)
    printed1 = consume(broker.bootstrap, out, group)

    produce(broker.bootstrap, inp, seed=2)
    everything = readings(broker.bootstrap, inp)
    assert len(everything) == 120
    aggregate(broker.bootstrap, inp, out, checkpoint, work)  # restarted from its checkpoint
    printed2 = consume(broker.bootstrap, out, group)          # the group resumes after round 1

    w1 = max(r["ms"] for r in first) - WATERMARK_MS
    w2 = max(r["ms"] for r in everything) - WATERMARK_MS
    assert sorted(r["ms"] for r in everything)[len(first)] > w1 + WATERMARK_MS, \
        "round 2 has readings older than round 1's"
    expected = {(s, _hms(start), _hms(start + WINDOW_MS)): (start + WINDOW_MS, rs)
                for (s, start), rs in windows(everything).items()}
    assert printed1, f"round 1 printed no aggregate (watermark {_hms(w1)}; expected windows: {sorted(expected)})"
    assert not set(printed1) & set(printed2), \
        f"windows printed again after the restart: {sorted(set(printed1) & set(printed2))}"
    for rnd, printed, low, high in ((1, printed1, None, w1), (2, printed2, w1, w2)):
        for key, got in printed.items():
            assert key in expected, f"round {rnd}: window {key} holds no reading of the input"
            end, rs = expected[key]
            assert end <= high and (low is None or end >= low), \
                f"round {rnd}: window {key} ends at {_hms(end)}, outside the watermarks " \
                f"{_hms(low) if low else '-'}..{_hms(high)}"
            check_window(key, got, rs)
        missing = [k for k, (end, _) in expected.items()
                   if end < high and (low is None or end > low) and k not in printed]
        assert not missing, f"round {rnd}: windows that end before the watermark {_hms(high)} " \
                            f"were not printed: {sorted(missing)}"
