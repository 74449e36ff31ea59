"""The Avro readings' schema, and reading Confluent-framed Avro values back (``--avro`` mode).

A value written by a Schema Registry serializer (confluent-kafka's
``AvroSerializer``, Kafka Connect's AvroConverter, ...) is framed as::

    byte 0      magic byte, 0
    bytes 1-4   the schema id in the registry, big-endian
    bytes 5-    the Avro binary encoding of the record (no schema inside)

Spark's ``from_avro`` decodes the bare Avro binary only, with a schema given
as JSON. So ``aggregate.py --avro``:

* ``latest_schema()`` asks the registry for the latest version of the subject
  (``<topic>-value``, the serializers' default TopicNameStrategy) and gets its
  id and schema text, before Spark starts (``RegistryError`` when it cannot);
* ``payload_column()`` keeps the records whose 5-byte header names exactly that
  id and cuts the header off, as a Spark column for ``from_avro``. Avro binary
  carries no schema, so a record written with another schema version cannot be
  decoded with this one and is skipped (restart the job to read a newer one).

It does not follow schema evolution within a run (one schema id per run),
does not decode Avro keys, and does not register anything (producer.py's
serializer does). ``split_header()`` is the same cut on one value in Python. ``SCHEMA`` is the
schema ``producer.py --avro`` registers. Imports neither pyspark nor
confluent-kafka at module level; ``latest_schema()`` needs confluent-kafka
(``pip install "confluent-kafka[avro,schemaregistry]"``), ``payload_column()``
pyspark.
"""

from __future__ import annotations

import json
import struct

MAGIC = 0
HEADER = struct.Struct(">bI")  # magic byte, schema id

SCHEMA = json.dumps({
    "type": "record", "name": "SensorReading", "namespace": "kwire.examples.sensors",
    "doc": "One reading of producer.py; ts is ISO-8601 UTC with milliseconds, as in JSON mode.",
    "fields": [
        {"name": "sensor", "type": "string"},
        {"name": "ts", "type": "string"},
        {"name": "temperature", "type": "double"},
        {"name": "humidity", "type": "double"},
    ],
})


class RegistryError(Exception):
    """The registry cannot give the schema: the message says why."""


def value_subject(topic: str) -> str:
    """The subject the serializers register a topic's value schema under (TopicNameStrategy)."""
    return f"{topic}-value"


def header(schema_id: int) -> bytes:
    return HEADER.pack(MAGIC, schema_id)


def split_header(value: bytes) -> tuple[int, bytes]:
    """A Confluent-framed value -> (schema id, Avro binary); ValueError if it is not framed."""
    if len(value) < HEADER.size:
        raise ValueError(f"{len(value)} bytes: shorter than the 5-byte Schema Registry header")
    magic, schema_id = HEADER.unpack_from(value)
    if magic != MAGIC:
        raise ValueError(f"magic byte {magic}, not {MAGIC}: not written by a Schema Registry serializer")
    return schema_id, bytes(value[HEADER.size:])


def latest_schema(registry_url: str, subject: str) -> tuple[int, str]:
    """(schema id, schema JSON) of the latest version of ``subject``; RegistryError otherwise."""
    try:
        from confluent_kafka.schema_registry import SchemaRegistryClient
        from confluent_kafka.schema_registry.error import SchemaRegistryError
    except ImportError:
        raise RegistryError('--avro needs confluent-kafka: pip install "confluent-kafka[avro,schemaregistry]"') \
            from None
    client = SchemaRegistryClient({"url": registry_url})
    try:
        registered = client.get_latest_version(subject)
    except SchemaRegistryError as e:
        if e.error_code == 40401:
            raise RegistryError(f"the registry at {registry_url} has no subject {subject!r}: run "
                                "producer.py --avro first (it registers the schema)") from None
        raise RegistryError(f"the registry at {registry_url}: {e.error_message} ({e.error_code})") from None
    except Exception as e:  # connection refused, DNS, timeout: the client raises what httpx raises
        raise RegistryError(f"cannot reach the registry at {registry_url}: {e}") from None
    schema = registered.schema
    if (schema.schema_type or "AVRO") != "AVRO":
        raise RegistryError(f"{subject} version {registered.version} is a {schema.schema_type} schema, not Avro")
    return registered.schema_id, schema.schema_str


def payload_column(value, schema_id: int):
    """Spark column: the Avro binary of ``value`` if its header names ``schema_id``, else null."""
    from pyspark.sql import functions as F

    return F.when(F.substring(value, 1, HEADER.size) == F.lit(header(schema_id)),
                  F.expr(f"substring({_sql(value)}, {HEADER.size + 1})"))


def _sql(value) -> str:
    """A column given by name -> its SQL reference (``payload_column`` takes a name)."""
    if not isinstance(value, str):
        raise TypeError("payload_column takes the column's name")
    return "`" + value.replace("`", "``") + "`"
