"""Print the per-sensor aggregates the Spark job writes (or any JSON topic).

    python examples/sensor-pipeline/consumer.py --bootstrap 127.0.0.1:9092 --topic sensor-aggregates

Joins consumer group ``--group`` (so a restart resumes where it stopped) and
prints one line per record. ``--max N`` stops after N records and
``--idle S`` after S seconds without any, which makes it usable in scripts.
"""

from __future__ import annotations

import argparse
import json
import time

from kafka import KafkaConsumer


def line(value: bytes) -> str:
    try:
        a = json.loads(value)
    except ValueError:
        return value.decode("utf-8", "replace")
    if "window_start" in a:
        return (f"{a['sensor']:>6}  {a['window_start'][11:19]}-{a['window_end'][11:19]}  "
                f"n={a['readings']:<4} temp {a['temp_min']:.2f} / {a['temp_avg']:.2f} / {a['temp_max']:.2f}"
                f"  humidity {a['humidity_avg']:.1f}")
    return json.dumps(a, separators=(",", ":"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bootstrap", default="127.0.0.1:9092")
    ap.add_argument("--topic", default="sensor-aggregates")
    ap.add_argument("--group", default="sensor-aggregates-printer")
    ap.add_argument("--from-beginning", action="store_true", help="a new group starts at the earliest offset")
    ap.add_argument("--max", type=int, default=0, help="stop after this many records (0: never)")
    ap.add_argument("--idle", type=float, default=0, help="stop after this many seconds without records")
    args = ap.parse_args(argv)

    consumer = KafkaConsumer(args.topic, bootstrap_servers=args.bootstrap, group_id=args.group,
                             auto_offset_reset="earliest" if args.from_beginning else "latest",
                             enable_auto_commit=True)
    seen = 0
    last = time.monotonic()
    try:
        while args.max == 0 or seen < args.max:
            batch = consumer.poll(timeout_ms=500)
            for records in batch.values():
                for r in records:
                    print(line(r.value), flush=True)
                    seen += 1
                    last = time.monotonic()
            if args.idle and time.monotonic() - last > args.idle:
                break
    except KeyboardInterrupt:
        pass
    finally:
        consumer.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
