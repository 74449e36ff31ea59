"""Emit JSON sensor readings to a Kafka topic (kwire or any Kafka broker).

    python examples/sensor-pipeline/producer.py --bootstrap 127.0.0.1:9092 --topic sensor-readings

Each record is keyed by sensor id (so one sensor's readings stay in order in
one partition) and its value is JSON::

    {"sensor": "s-3", "ts": "2026-11-22T06:40:01.250Z", "temperature": 21.7, "humidity": 40.2}

``ts`` is when the reading was taken; the Spark job windows on it. With
``--late-every N`` every Nth reading is stamped 90 s in the past, to show the
watermark dropping data that arrives too late. Runs until ``--count`` readings
(default: forever) at ``--rate`` readings per second.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from datetime import datetime, timedelta, timezone

from kafka import KafkaProducer


def reading(sensor: int, now: datetime, rnd: random.Random) -> dict:
    base = 18.0 + sensor  # each sensor has its own level, so the aggregates differ visibly
    return {"sensor": f"s-{sensor}",
            "ts": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "temperature": round(base + rnd.uniform(-1.5, 1.5), 2),
            "humidity": round(rnd.uniform(30.0, 60.0), 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bootstrap", default="127.0.0.1:9092")
    ap.add_argument("--topic", default="sensor-readings")
    ap.add_argument("--sensors", type=int, default=5)
    ap.add_argument("--rate", type=float, default=20.0, help="readings per second")
    ap.add_argument("--count", type=int, default=0, help="stop after this many (0: never)")
    ap.add_argument("--late-every", type=int, default=0, help="every Nth reading is 90 s late")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)

    rnd = random.Random(args.seed)
    # keys and values are encoded here, not by serializer callables: kafka-python 3.0 warns
    # (DeprecationWarning) about callables that are not its Serializer classes, which 2.x lacks
    producer = KafkaProducer(bootstrap_servers=args.bootstrap, acks="all", linger_ms=50)
    sent = 0
    try:
        while args.count == 0 or sent < args.count:
            now = datetime.now(timezone.utc)
            if args.late_every and sent % args.late_every == args.late_every - 1:
                now -= timedelta(seconds=90)
            r = reading(rnd.randrange(args.sensors), now, rnd)
            producer.send(args.topic, key=r["sensor"].encode(),
                          value=json.dumps(r, separators=(",", ":")).encode())
            sent += 1
            if sent % 100 == 0:
                print(f"sent {sent} readings", flush=True)
            time.sleep(1.0 / args.rate)
    except KeyboardInterrupt:
        pass
    finally:
        producer.flush(30)
        producer.close(10)
    print(f"sent {sent} readings to {args.topic}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
