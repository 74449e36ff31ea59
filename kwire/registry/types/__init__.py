"""Schema types of the registry: AVRO (the default), JSON and PROTOBUF.

``parse(schema_type, text, references)`` returns a parsed schema with
``canonical`` (the text two registrations must share to get one id),
``normalized()`` (what ``normalize=true`` uses instead) and the type's own
model; ``references`` are the parsed referenced schemas as ``(name, parsed)``
pairs, dependencies first. It raises ``ValueError`` for an invalid schema;
``strict=False`` (schemas already stored) skips the checks added since they
were accepted (Protobuf's undefined types and imports).
``can_read(reader, writer)`` lists the reasons data written with ``writer``
cannot be read with ``reader`` (empty: compatible). Each type lives in its own
module; this one only dispatches.
"""

from __future__ import annotations

from kwire.registry.types import avro, jsonschema, protobuf

TYPES = ("AVRO", "JSON", "PROTOBUF")
_MODULES = {"AVRO": avro, "JSON": jsonschema, "PROTOBUF": protobuf}


def parse(schema_type: str, text: str, references: list, strict: bool = True):
    mod = _MODULES.get(schema_type)
    if mod is None:
        raise ValueError(f"Invalid schema type {schema_type!r}: use one of {', '.join(TYPES)}")
    if schema_type == "AVRO":
        return mod.parse(text, [parsed for _, parsed in references])
    if schema_type == "PROTOBUF":
        return mod.parse(text, references, strict)
    return mod.parse(text, references)


def can_read(reader, writer) -> list[str]:
    if reader.schema_type != writer.schema_type:
        return [f"Incompatible because of different schema type: {writer.schema_type} -> {reader.schema_type}"]
    return _MODULES[reader.schema_type].can_read(reader, writer)
