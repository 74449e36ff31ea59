"""A Schema Registry built into the broker (issue 25): Confluent Schema Registry's REST API v1.

Layout: ``errors`` (status and error codes), ``state`` (the records of
``_schemas`` and the state replayed from them, sans-I/O), ``types`` (AVRO,
JSON, PROTOBUF parsing and compatibility rules; ``types.protoconv`` between
.proto text and descriptors; ``types.avroform`` and ``types.protoform`` the
texts Confluent's registry compares, so equal schemas share an id), ``service`` (the API's operations), ``store``
(``_schemas`` through a Kafka client of the broker), ``server`` (the HTTP
layer, and forwarding of writes to the primary on a cluster). Produce-time
checks of schema ids live below the handlers, in
``kwire.broker.schema_validation`` (this package sits above them, beside the
console and metrics). The CLI
is ``kwire.tools.schemas``, the console page ``kwire.console.schemas``, the
figures ``kwire.bench.registry``. Started by ``kwire serve`` when
``schema.registry.port`` or ``schema.registry.listeners`` is set; user docs
in docs/schema-registry.md.
"""
