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
topic's explicit configs only); when on, the records are walked once more
(``kwire.records.scan`` with its layout: no record objects), and each
distinct id is looked up once per batch.

What it does not do: check that the id belongs to the topic's subject, or
that the payload matches the schema (Confluent Server does neither by
default); a schema registered through another broker is known here once this
broker's registry has replayed it (normally within milliseconds).
"""

from __future__ import annotations

from typing import Callable

from array import array

from kwire.protocol.errors import ErrorCode
from kwire.records.batch import HEADER_SIZE, LOG_OVERHEAD, iter_batches
from kwire.records.compression import NONE, decompress
from kwire.records.errors import CorruptRecordError
from kwire.records.scan import LAYOUT_FIELDS, scan_records

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
    found = known(sid)
    if found is None:
        raise _Loading()
    if not found:
        return f"the {what}'s schema id {sid} is not known to the schema registry"
    return None


class _Loading(Exception):
    """The registry is still reading ``_schemas``: it cannot say yet."""


def invalid_records(records: bytes, keys: bool, values: bool,
                    known: Callable[[int], bool | None] | None) -> tuple[ErrorCode, str, list[tuple[int, str]]] | None:
    """None when the batch may be appended; else (INVALID_RECORD, message, [(index, why)]), or
    (REQUEST_TIMED_OUT, message, []) while the registry is still loading (producers retry it)."""
    if known is None:
        return (ErrorCode.INVALID_RECORD, "schema validation is on for this topic, but this broker runs "
                                          "no schema registry (schema.registry.port)", [])
    errors: list[tuple[int, str]] = []
    ok_ids: set[bytes] = set()  # 4-byte ids already found known (most records share one)
    for span in iter_batches(records):
        h = span.header
        codec = h.attributes & 0x07
        section = memoryview(records)[span.pos + HEADER_SIZE: span.pos + LOG_OVERHEAD + h.batch_length]
        try:
            data = section if codec == NONE else decompress(codec, section)
            layout = array("i", bytes(4 * LAYOUT_FIELDS * h.records_count))
            scan_records(data, h.records_count, layout)
        except CorruptRecordError:
            return None  # the log's own validation answers a corrupt batch
        try:
            errors += _walk(data, layout, keys, values, known, ok_ids)
        except _Loading:
            return (ErrorCode.REQUEST_TIMED_OUT, "the schema registry is still loading its schemas: "
                                                 "retry", [])
    if not errors:
        return None
    errors.sort()
    shown = "; ".join(f"record {i}: {m}" for i, m in errors[:3])
    return (ErrorCode.INVALID_RECORD,
            f"One or more records have been rejected due to {len(errors)} record errors in total, "
            f"and only showing the first three errors at most: [{shown}]", errors)


def _walk(data, layout, keys: bool, values: bool, known, ok_ids: set[bytes]) -> list[tuple[int, str]]:
    """[(index, why)] of one batch's records; raises _Loading when the registry cannot say yet."""
    errors: list[tuple[int, str]] = []
    fields = ((2, 3, "key"),) if keys else ()
    fields += ((4, 5, "value"),) if values else ()
    raw = data if isinstance(data, bytes) else bytes(data)
    for pos_slot, len_slot, what in fields:
        starts, lengths = layout[pos_slot::LAYOUT_FIELDS], layout[len_slot::LAYOUT_FIELDS]
        if lengths and min(lengths) >= 5:
            # the common case, every record framed: the distinct 5-byte heads, sliced in C loops
            heads = set(map(raw.__getitem__, map(slice, starts, map((5).__add__, starts))))
            if all(h[1:] in ok_ids or (_check(h, what, known) is None and not ok_ids.add(h[1:]))
                   for h in heads):
                continue
        for i, (p, n) in enumerate(zip(starts, lengths)):
            if n < 0:
                continue  # null: a tombstone or a keyless record
            head = raw[p:p + 5] if n >= 5 else b""
            if head[:1] == b"\0" and head[1:] in ok_ids:
                continue
            why = _check(head if n >= 5 else raw[p:p + n], what, known)
            if why is None:
                ok_ids.add(head[1:])
            else:
                errors.append((i, why))
    return errors
