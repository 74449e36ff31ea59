"""build_batch -> decode_batch round trips, header fields and in-place patches."""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kwire.records import batch
from kwire.records.builder import build_batch, encode_record
from kwire.records.compression import GZIP, LZ4, NONE, SNAPPY, ZSTD
from kwire.records.decode import (
    DecodedBatch,
    Record,
    decode_batch,
    decode_batches,
    iter_records,
    summarize_batch,
)
from kwire.records.errors import CorruptRecordError
from kwire.records.varint import encode_varint, read_varint, read_varlong, size_of_varint

CODECS = [NONE, GZIP, SNAPPY, LZ4, ZSTD]

maybe_bytes = st.none() | st.binary(max_size=64)
headers = st.lists(st.tuples(st.text(max_size=8), maybe_bytes), max_size=4)
timestamps = st.integers(min_value=-(2**40), max_value=2**50)
record_tuples = st.lists(
    st.tuples(maybe_bytes, maybe_bytes, headers, timestamps), max_size=40
)


def _check_round_trip(items, codec, **kw):
    buf = build_batch(items, compression=codec, **kw)
    decoded = decode_batch(buf)
    h = decoded.header
    base_offset = kw.get("base_offset", 0)
    assert h.size == len(buf)
    assert h.compression == codec
    assert h.records_count == len(items)
    assert batch.crc_is_valid(buf, 0, len(buf))
    if items:
        assert h.last_offset_delta == len(items) - 1
        assert h.base_timestamp == items[0][3]
        assert h.max_timestamp == max(t for *_, t in items)
    assert len(decoded.records) == len(items)
    for i, (rec, (key, value, hdrs, ts)) in enumerate(zip(decoded.records, items)):
        assert rec.offset == base_offset + i
        assert rec.offset_delta == i
        assert rec.timestamp == ts
        assert rec.timestamp_delta == ts - h.base_timestamp
        assert rec.key == key and rec.value == value
        assert rec.headers == list(hdrs)
        assert rec.attributes == 0
    return buf, decoded


@pytest.mark.parametrize("codec", CODECS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=record_tuples, base_offset=st.integers(0, 2**62))
def test_round_trip_every_codec(codec, items, base_offset):
    _check_round_trip(items, codec, base_offset=base_offset)


@pytest.mark.parametrize("codec", CODECS)
def test_many_records(codec):
    items = [
        (b"key-%d" % i if i % 7 else None, b"v" * (i % 300), [("i", b"%d" % i)], 1_700_000_000_000 + i)
        for i in range(5000)
    ]
    _, decoded = _check_round_trip(items, codec, base_offset=12345)
    assert decoded.records[-1].offset == 12345 + 4999


@pytest.mark.parametrize("codec", CODECS)
def test_large_values_span_codec_blocks(codec):
    # > 64 KiB (LZ4 block) and > 32 KiB (xerial snappy block), incompressible tail
    items = [(b"k", bytes(200_000), [], 1), (None, os.urandom(100_000), [], 2)]
    _check_round_trip(items, codec)


@settings(max_examples=40, deadline=None)
@given(
    producer_id=st.integers(-1, 2**63 - 1),
    producer_epoch=st.integers(-1, 2**15 - 1),
    base_sequence=st.integers(-1, 2**31 - 1),
    leader_epoch=st.integers(-1, 2**31 - 1),
    transactional=st.booleans(),
    control=st.booleans(),
    n=st.integers(0, 5),
)
def test_producer_fields_and_flags(
    producer_id, producer_epoch, base_sequence, leader_epoch, transactional, control, n
):
    buf = build_batch(
        [(b"k", b"v", [], 100 + i) for i in range(n)],
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=base_sequence,
        partition_leader_epoch=leader_epoch,
        is_transactional=transactional,
        is_control=control,
    )
    d = decode_batch(buf)
    h = d.header
    assert (h.producer_id, h.producer_epoch, h.base_sequence) == (
        producer_id,
        producer_epoch,
        base_sequence,
    )
    assert h.partition_leader_epoch == leader_epoch
    assert h.is_transactional == transactional and h.is_control == control
    assert h.timestamp_type == 0
    for i, rec in enumerate(d.records):
        if base_sequence == -1:
            assert rec.sequence == -1
        else:  # sequences wrap past int32 max back to 0, as in Kafka
            assert rec.sequence == (base_sequence + i) % 2**31


def test_empty_batch():
    buf = build_batch([], base_offset=7, producer_id=3, producer_epoch=0, last_offset_delta=4)
    d = decode_batch(buf)
    assert d.records == []
    assert d.header.records_count == 0
    assert d.header.batch_length == batch.HEADER_SIZE - batch.LOG_OVERHEAD
    assert d.header.last_offset == 11
    assert d.header.max_timestamp == -1
    for codec in CODECS:  # compressed empty batches decode too
        assert decode_batch(build_batch([], compression=codec)).records == []


def test_item_shapes_and_default_timestamp():
    rec = Record(offset=5, timestamp=77, key=b"a", value=b"b", headers=[("h", None)])
    buf = build_batch([(b"x", b"y"), (b"x", b"y", [("k", b"v")]), rec], now_ms=1000)
    recs = decode_batch(buf).records
    assert [r.timestamp for r in recs] == [1000, 1000, 77]
    assert recs[1].headers == [("k", b"v")]
    assert recs[2][2:5] == (b"a", b"b", [("h", None)])
    # wall clock default
    before = int(time.time() * 1000)
    (only,) = decode_batch(build_batch([(None, b"v")])).records
    assert before <= only.timestamp <= int(time.time() * 1000)


def test_keep_offsets_for_compaction():
    src = decode_batch(build_batch([(b"k%d" % i, b"v", [], i) for i in range(6)], base_offset=100))
    kept = [r for r in src.records if r.offset in (101, 104)]
    buf = build_batch(kept, base_offset=100, keep_offsets=True, last_offset_delta=5)
    d = decode_batch(buf)
    assert [r.offset for r in d.records] == [101, 104]
    assert [r.timestamp for r in d.records] == [1, 4]
    assert d.header.last_offset == 105
    with pytest.raises(ValueError):
        build_batch(list(reversed(kept)), base_offset=100, keep_offsets=True)


def test_log_append_time_batch():
    buf = build_batch([(b"a", b"1", [], 10), (b"b", b"2", [], 30)], timestamp_type=1)
    d = decode_batch(buf)
    assert d.header.timestamp_type == 1
    assert [r.timestamp for r in d.records] == [30, 30]


@pytest.mark.parametrize("codec", CODECS)
def test_in_place_patches_keep_or_fix_crc(codec):
    buf = bytearray(build_batch([(b"a", b"1", [], 10), (b"b", b"2", [], 20)], compression=codec))
    size = len(buf)
    batch.set_base_offset(buf, 0, 1000)
    batch.set_partition_leader_epoch(buf, 0, 9)
    assert batch.crc_is_valid(buf, 0, size)  # neither field is under the CRC
    d = decode_batch(buf)
    assert [r.offset for r in d.records] == [1000, 1001]
    assert d.header.partition_leader_epoch == 9

    batch.set_log_append_time(buf, 0, size, 5555)
    assert batch.crc_is_valid(buf, 0, size)
    d = decode_batch(buf)
    assert d.header.timestamp_type == 1 and d.header.max_timestamp == 5555
    assert [r.timestamp for r in d.records] == [5555, 5555]


def test_patch_batch_inside_larger_buffer():
    first = build_batch([(b"a", b"1", [], 1)])
    second = build_batch([(b"b", b"2", [], 2), (b"c", b"3", [], 3)])
    buf = bytearray(first + second)
    pos = len(first)
    batch.set_base_offset(buf, pos, 1)
    batch.set_log_append_time(buf, pos, len(second), 99)
    batches = decode_batches(buf)
    assert [b.header.base_offset for b in batches] == [0, 1]
    assert [(r.offset, r.timestamp) for r in iter_records(buf)] == [(0, 1), (1, 99), (2, 99)]
    assert [r.offset for r in iter_records(buf, pos)] == [1, 2]
    assert isinstance(batches[0], DecodedBatch)


def test_decode_batches_truncated_tail():
    buf = build_batch([(b"a", b"1", [], 1)]) + build_batch([(b"b", b"2", [], 2)])[:-3]
    assert len(decode_batches(buf, allow_truncated=True)) == 1
    assert len(list(iter_records(buf, allow_truncated=True))) == 1
    with pytest.raises(CorruptRecordError):
        decode_batches(buf)


def test_summarize_batch():
    buf = build_batch([(b"k", b"v", [("h", b"x")], 5)], compression=GZIP, base_offset=3)
    s = summarize_batch(buf)
    assert s["compression"] == "gzip"
    assert s["crc_valid"] is True
    assert s["base_offset"] == 3 and s["records_count"] == 1
    assert s["records"] == [
        {"offset": 3, "timestamp": 5, "key": b"k", "value": b"v", "headers": [("h", b"x")]}
    ]


def test_encode_record_layout():
    # length 7 | attrs 0 | ts_delta 1 | offset_delta 2 | key len 1, "k" | value null | 0 headers
    assert encode_record(2, 1, b"k", None, []) == bytes(
        [0x0E, 0x00, 0x02, 0x04, 0x02, ord("k"), 0x01, 0x00]
    )


@given(st.integers(-(2**63), 2**63 - 1))
def test_varlong_round_trip(value):
    data = encode_varint(value)
    assert len(data) == size_of_varint(value) <= 10
    assert read_varlong(data, 0, len(data)) == (value, len(data))


@given(st.integers(-(2**31), 2**31 - 1))
def test_varint_round_trip(value):
    data = encode_varint(value)
    assert len(data) <= 5
    assert read_varint(data, 0, len(data)) == (value, len(data))


def test_varint_known_bytes():
    assert encode_varint(0) == b"\x00"
    assert encode_varint(-1) == b"\x01"
    assert encode_varint(1) == b"\x02"
    assert encode_varint(300) == b"\xd8\x04"
    assert encode_varint(-(2**31)) == b"\xff\xff\xff\xff\x0f"
