"""``kwire.records.scan.schema_ids``: the C walker and its pure-Python twin agree.

Produce-time schema validation reads every record's key or value head with one
call per batch (issue 25). The two implementations must answer the same
``(ids, unframed)`` or both raise ``CorruptRecordError`` on the same inputs:
hand-made batches (null, short, unframed, one id, many ids out of order, ids
above 2^31), Hypothesis-built record lists and mutated sections.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kwire.records import batch, scan
from kwire.records.builder import build_batch
from kwire.records.errors import CorruptRecordError
from mutations import mutate, mutation_ops

NOW = 1_700_000_000_000


def framed(sid: int, payload: bytes = b"payload") -> bytes:
    return b"\x00" + sid.to_bytes(4, "big") + payload


def section(records) -> tuple[bytes, int]:
    """The records section of a batch of ``(key, value)`` and its record count."""
    return build_batch(records, now_ms=NOW)[batch.HEADER_SIZE:], len(records)


def outcome(fn, data, count, field):
    try:
        return fn(data, count, field)
    except CorruptRecordError:
        return "corrupt"


def same(data, count, field):
    py = outcome(scan.py_schema_ids, data, count, field)
    c = outcome(scan.c_schema_ids, data, count, field)
    assert py == c, (bytes(data)[:80], count, field)
    if scan.IMPLEMENTATION == "c":
        assert scan.schema_ids is scan.c_schema_ids
    return py


def test_the_c_twin_is_built():
    assert scan.c_schema_ids is not None, "kwire/records/_scan.c was not rebuilt: `pip install -e .`"


def test_values_and_keys():
    recs = [(None, framed(7)), (b"plain", framed(7)), (framed(3), None), (framed(9), b"\x00\x00"),
            (b"\x01" + bytes(4), framed(2**32 - 1)), (b"", framed(7, b""))]
    data, n = section(recs)
    # values: 7, 7, null, short (unframed), 2^32-1, 7 with an empty payload
    assert same(data, n, 1) == ((7, 2**32 - 1), 1)
    # keys: null, plain, 3, 9, magic byte 1 (unframed), empty (unframed)
    assert same(data, n, 0) == ((3, 9), 3)
    for buf in (bytes(data), bytearray(data), memoryview(data)):
        assert scan.c_schema_ids(buf, n, 1) == scan.py_schema_ids(buf, n, 1)


def test_many_ids_out_of_order_and_one_id():
    ids = [5, 1, 5, 900, 1, 2**31, 3, 3]
    data, n = section([(None, framed(i)) for i in ids])
    assert same(data, n, 1) == (tuple(sorted(set(ids))), 0)
    data, n = section([(None, framed(42, bytes(100)))] * 3000)
    assert same(data, n, 1) == ((42,), 0)
    assert same(b"", 0, 1) == ((), 0)


def test_corrupt_sections_and_bad_arguments():
    data, n = section([(None, framed(1)), (None, framed(2))])
    for count in (1, 3, -1):
        assert same(data, count, 1) == "corrupt"
    assert same(data[:-1], n, 1) == "corrupt"
    for fn in (scan.py_schema_ids, scan.c_schema_ids):
        with pytest.raises(ValueError):
            fn(data, n, 2)


field_value = st.one_of(st.none(), st.binary(max_size=12),
                        st.builds(framed, st.integers(0, 2**32 - 1), st.binary(max_size=6)))


@settings(max_examples=150, deadline=None)
@given(recs=st.lists(st.tuples(field_value, field_value), max_size=30), field=st.sampled_from([0, 1]))
def test_fuzz_twins_agree_on_built_batches(recs, field):
    data, n = section(recs)
    ids, unframed = same(data, n, field)
    heads = [r[field] for r in recs if r[field] is not None]
    assert unframed == sum(1 for h in heads if len(h) < 5 or h[0] != 0)
    assert ids == tuple(sorted({int.from_bytes(h[1:5], "big") for h in heads if len(h) >= 5 and h[0] == 0}))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=mutation_ops(200), count_shift=st.integers(-1, 1), field=st.sampled_from([0, 1]))
def test_fuzz_twins_agree_on_mutated_sections(ops, count_shift, field):
    data, n = section([(framed(1), framed(2)), (None, b"x"), (b"k", None)])
    same(mutate(data, ops), n + count_shift, field)
