"""Produce-time schema validation (``confluent.value.schema.validation`` / ``confluent.key.schema.validation``).

A topic with either config ``true`` accepts a batch only when every record's
value (key) is in Confluent's wire format, a magic byte 0 followed by a
4-byte big-endian schema id, and that id is known to this broker's registry
(``known(id)``): otherwise the whole batch is refused with INVALID_RECORD and
``record_errors`` naming each offending record, as Confluent Server does. A
null value (a tombstone) passes: compaction needs it.

Cost: nothing when both configs are off (the produce handler looks at the
topic's explicit configs only); when on, the batch is decoded once.

What it does not do: check that the id belongs to the topic's subject, or
that the payload matches the schema (Confluent Server does neither by
default); a schema registered through another broker is known here once this
broker's registry has replayed it (normally within milliseconds).
"""

from __future__ import annotations

from typing import Callable

from kwire.protocol.errors import ErrorCode
from kwire.records.decode import decode_batches
from kwire.records.errors import CorruptRecordError

VALUE_CONFIG = "confluent.value.schema.validation"
KEY_CONFIG = "confluent.key.schema.validation"


def enabled(configs: dict) -> tuple[bool, bool]:
    """(key, value) validation switches from a topic's explicit configs."""
    return (configs.get(KEY_CONFIG, "false").lower() == "true",
            configs.get(VALUE_CONFIG, "false").lower() == "true")


def _check(data, what: str, known: Callable[[int], bool]) -> str | None:
    if data is None:
        return None
    if len(data) < 5 or data[0] != 0:
        return f"the {what} does not start with the schema registry's magic byte and schema id"
    sid = int.from_bytes(data[1:5], "big")
    if not known(sid):
        return f"the {what}'s schema id {sid} is not known to the schema registry"
    return None


def invalid_records(records: bytes, keys: bool, values: bool,
                    known: Callable[[int], bool] | None) -> tuple[ErrorCode, str, list[tuple[int, str]]] | None:
    """None when the batch may be appended; else (INVALID_RECORD, message, [(index, why)])."""
    if known is None:
        return (ErrorCode.INVALID_RECORD, "schema validation is on for this topic, but this broker runs "
                                          "no schema registry (schema.registry.port)", [])
    try:
        batches = decode_batches(records)
    except CorruptRecordError:
        return None  # the log's own validation answers a corrupt batch
    errors: list[tuple[int, str]] = []
    for b in batches:
        for i, r in enumerate(b.records):
            why = (_check(r.key, "key", known) if keys else None) or \
                  (_check(r.value, "value", known) if values else None)
            if why:
                errors.append((i, why))
    if not errors:
        return None
    shown = "; ".join(f"record {i}: {m}" for i, m in errors[:3])
    return (ErrorCode.INVALID_RECORD,
            f"One or more records have been rejected due to {len(errors)} record errors in total, "
            f"and only showing the first three errors at most: [{shown}]", errors)
