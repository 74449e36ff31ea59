"""Emit JSON sensor readings to a Kafka topic (kwire or any Kafka broker).

    python examples/sensor-pipeline/producer.py --bootstrap 127.0.0.1:9092 --topic sensor-readings

Each record is keyed by sensor id (so one sensor's readings stay in order in
one partition) and its value is JSON::

    {"sensor": "s-3", "ts": "2026-11-22T06:40:01.250Z", "temperature": 21.7, "humidity": 40.2}

``ts`` is when the reading was taken; the Spark job windows on it. With
``--late-every N`` every Nth reading is stamped 90 s in the past, to show the
watermark dropping data that arrives too late. Runs until ``--count`` readings
(default: forever) at ``--rate`` readings per second.

With ``--avro --registry URL`` the values are Avro instead (the same four
fields, schema ``avro_registry.SCHEMA``), serialized by confluent-kafka's
Schema Registry ``AvroSerializer``: it registers the schema under the subject
``<topic>-value`` and frames each value with the registry's 5-byte header
(``aggregate.py --avro`` reads them). Keys stay the sensor id as text.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import datetime, timedelta, timezone

from kafka import KafkaProducer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # avro_registry.py beside this file


def reading(sensor: int, now: datetime, rnd: random.Random) -> dict:
    base = 18.0 + sensor  # each sensor has its own level, so the aggregates differ visibly
    return {"sensor": f"s-{sensor}",
            "ts": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "temperature": round(base + rnd.uniform(-1.5, 1.5), 2),
            "humidity": round(rnd.uniform(30.0, 60.0), 1)}


def json_encoder(r: dict) -> bytes:
    return json.dumps(r, separators=(",", ":")).encode()


def avro_encoder(registry: str, topic: str):
    """reading -> Confluent-framed Avro bytes; registers the schema as ``<topic>-value`` on first use."""
    from avro_registry import SCHEMA
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    serializer = AvroSerializer(SchemaRegistryClient({"url": registry}), SCHEMA)
    ctx = SerializationContext(topic, MessageField.VALUE)
    return lambda r: serializer(r, ctx)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bootstrap", default="127.0.0.1:9092")
    ap.add_argument("--topic", default="sensor-readings")
    ap.add_argument("--sensors", type=int, default=5)
    ap.add_argument("--rate", type=float, default=20.0, help="readings per second")
    ap.add_argument("--count", type=int, default=0, help="stop after this many (0: never)")
    ap.add_argument("--late-every", type=int, default=0, help="every Nth reading is 90 s late")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--avro", action="store_true", help="Avro values via the Schema Registry (needs --registry)")
    ap.add_argument("--registry", help="Schema Registry URL, e.g. http://127.0.0.1:8081")
    args = ap.parse_args(argv)
    if args.avro and not args.registry:
        ap.error("--avro needs --registry URL (kwire: serve with --override schema.registry.port=8081)")
    encode = avro_encoder(args.registry, args.topic) if args.avro else json_encoder

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
                          value=encode(r))
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
