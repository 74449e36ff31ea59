"""Produce-time schema validation (``confluent.value.schema.validation`` / ``confluent.key.schema.validation``).

In the broker layer, below the produce handler that calls it: the registry
(an HTTP service, above the handlers) plugs in only as ``broker.schema_ids``,
a callable set by the server when the registry runs.

A topic with either config ``true`` accepts a batch only when every record's
value (key) is in Confluent's wire format, a magic byte 0 followed by a
4-byte big-endian schema id, and that id is known to this broker's registry
(``known(id)``; None while the registry is still reading ``_schemas`` after a
start: the batch then answers REQUEST_TIMED_OUT, which producers retry):
otherwise the whole batch is refused with INVALID_RECORD and
``record_errors`` naming each offending record, as Confluent Server does. A
null value (a tombstone) passes: compaction needs it.

Cost: nothing when both configs are off (the produce handler looks at the
topic's explicit configs only); when on, one call per batch and field,
``kwire.records.scan.schema_ids`` (C, with a pure-Python twin), walks the
records once more and returns the distinct ids and the number of unframed
fields, building no per-record objects; each distinct id (normally one per
batch) is then looked up once in the registry's in-memory id table. Only a
batch that fails is walked again, in Python, to name its records.

What it does not do: check that the payload matches the schema (Confluent
Server does not either), or that the id is registered under the subject the
topic's subject name strategy derives (``<topic>-value`` by default), which
Confluent Server does: here any id known to the registry passes. A schema
registered through another broker is known here once this broker's registry
has replayed it (normally within milliseconds).
"""

from __future__ import annotations

from typing import Callable

from array import array

from kwire.protocol.errors import ErrorCode
from kwire.records.batch import HEADER_SIZE, LOG_OVERHEAD, iter_batches
from kwire.records.compression import NONE, decompress
from kwire.records.errors import CorruptRecordError
from kwire.records.scan import LAYOUT_FIELDS, scan_records, schema_ids

VALUE_CONFIG = "confluent.value.schema.validation"
KEY_CONFIG = "confluent.key.schema.validation"


def enabled(configs: dict) -> tuple[bool, bool]:
    """(key, value) validation switches from a topic's explicit configs."""
    return (configs.get(KEY_CONFIG, "false").lower() == "true",
            configs.get(VALUE_CONFIG, "false").lower() == "true")


def invalid_records(records: bytes, keys: bool, values: bool,
                    known: Callable[[int], bool | None] | None) -> tuple[ErrorCode, str, list[tuple[int, str]]] | None:
    """None when the batch may be appended; else (INVALID_RECORD, message, [(index, why)]), or
    (REQUEST_TIMED_OUT, message, []) while the registry is still loading (producers retry it)."""
    if known is None:
        return (ErrorCode.INVALID_RECORD, "schema validation is on for this topic, but this broker runs "
                                          "no schema registry (schema.registry.port)", [])
    fields = ((0, "key"),) if keys else ()
    fields += ((1, "value"),) if values else ()
    errors: list[tuple[int, str]] = []
    for span in iter_batches(records):
        h = span.header
        codec = h.attributes & 0x07
        section = memoryview(records)[span.pos + HEADER_SIZE: span.pos + LOG_OVERHEAD + h.batch_length]
        try:
            data = section if codec == NONE else decompress(codec, section)
            for field, what in fields:
                # one C call: the distinct ids and the count of unframed fields, no record objects
                ids, unframed = schema_ids(data, h.records_count, field)
                verdicts = [known(sid) for sid in ids]  # usually one id per batch
                if None in verdicts:
                    return (ErrorCode.REQUEST_TIMED_OUT, "the schema registry is still loading its "
                                                         "schemas: retry", [])
                if unframed or not all(verdicts):
                    errors += _name_errors(data, h.records_count, field, what, dict(zip(ids, verdicts)))
        except CorruptRecordError:
            return None  # the log's own validation answers a corrupt batch
    if not errors:
        return None
    errors.sort()
    shown = "; ".join(f"record {i}: {m}" for i, m in errors[:3])
    return (ErrorCode.INVALID_RECORD,
            f"One or more records have been rejected due to {len(errors)} record errors in total, "
            f"and only showing the first three errors at most: [{shown}]", errors)


def _name_errors(data, count: int, field: int, what: str, verdicts: dict[int, bool]) -> list[tuple[int, str]]:
    """[(index, why)] of one refused batch's records (the slow path: only for a batch that fails)."""
    layout = array("i", bytes(4 * LAYOUT_FIELDS * count))
    scan_records(data, count, layout)
    raw = bytes(data)
    errors = []
    for i in range(count):
        p, n = layout[LAYOUT_FIELDS * i + 2 + 2 * field], layout[LAYOUT_FIELDS * i + 3 + 2 * field]
        if n < 0:
            continue  # null: a tombstone or a keyless record
        if n < 5 or raw[p] != 0:
            errors.append((i, f"the {what} does not start with the schema registry's magic byte and schema id"))
            continue
        sid = int.from_bytes(raw[p + 1:p + 5], "big")
        if not verdicts[sid]:
            errors.append((i, f"the {what}'s schema id {sid} is not known to the schema registry"))
    return errors
