"""Differential checks against kafka-python's independent record code.

kafka-python is used only here, as a second implementation: batches built by
kwire must read back identically through ``kafka.record``, and batches built
by ``kafka.record`` must decode identically through kwire, for every codec.
kafka-python's snappy path needs python-snappy, which is not installed; a
shim backed by cramjam supplies the raw block codec so that kafka-python's
own xerial framing code is what gets exercised.
"""

from __future__ import annotations

import types
import warnings

import cramjam
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():  # kafka-python's schema loader uses deprecated importlib APIs
    warnings.simplefilter("ignore", DeprecationWarning)
    import kafka.codec
    from kafka.record.default_records import DefaultRecordBatchBuilder
    from kafka.record.memory_records import MemoryRecords

from kwire.records import batch
from kwire.records.builder import build_batch
from kwire.records.compression import GZIP, LZ4, NONE, SNAPPY, ZSTD, decompress
from kwire.records.decode import decode_batch

CODECS = [NONE, GZIP, SNAPPY, LZ4, ZSTD]

_snappy_shim = types.SimpleNamespace(
    compress=lambda data: bytes(cramjam.snappy.compress_raw(bytes(data))),
    decompress=lambda data: bytes(cramjam.snappy.decompress_raw(bytes(data))),
)


@pytest.fixture(autouse=True)
def snappy_for_kafka_python(monkeypatch):
    if kafka.codec.snappy is None:
        monkeypatch.setattr(kafka.codec, "snappy", _snappy_shim)


maybe_bytes = st.none() | st.binary(max_size=40)
items_st = st.lists(
    st.tuples(
        maybe_bytes,
        maybe_bytes,
        st.lists(st.tuples(st.text(max_size=6), maybe_bytes), max_size=3),
        st.integers(0, 2**45),
    ),
    min_size=1,
    max_size=30,
)
compressible = st.binary(min_size=1, max_size=10).map(lambda b: b * 50)


def _kp_records(buf):
    kp_batch = MemoryRecords(bytes(buf)).next_batch()
    assert kp_batch.validate_crc()
    return kp_batch, list(kp_batch)


@pytest.mark.parametrize("codec", CODECS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=items_st, base_offset=st.integers(0, 2**40), padding=compressible)
def test_kwire_built_reads_in_kafka_python(codec, items, base_offset, padding):
    items = items + [(b"pad", padding, [], items[-1][3])]
    buf = build_batch(
        items,
        compression=codec,
        base_offset=base_offset,
        producer_id=42,
        producer_epoch=3,
        base_sequence=7,
    )
    kp_batch, kp_records = _kp_records(buf)
    assert kp_batch.compression_type == codec
    assert kp_batch.base_offset == base_offset
    assert kp_batch.last_offset_delta == len(items) - 1
    assert kp_batch.max_timestamp == max(t for *_, t in items)
    assert (kp_batch.producer_id, kp_batch.producer_epoch, kp_batch.base_sequence) == (42, 3, 7)
    assert len(kp_records) == len(items)
    for i, (rec, (key, value, headers, ts)) in enumerate(zip(kp_records, items)):
        assert rec.offset == base_offset + i
        assert rec.timestamp == ts
        assert rec.key == key and rec.value == value
        assert list(rec.headers) == headers


def test_kwire_null_header_value_reads_in_kafka_python():
    buf = build_batch([(b"k", b"v", [("n", None), ("e", b"")], 1)])
    _, (rec,) = _kp_records(buf)
    assert list(rec.headers) == [("n", None), ("e", b"")]


def _kp_build(items, codec, *, transactional=False, pid=-1, epoch=-1, seq=-1):
    builder = DefaultRecordBatchBuilder(
        magic=2,
        compression_type=codec,
        is_transactional=transactional,
        producer_id=pid,
        producer_epoch=epoch,
        base_sequence=seq,
        batch_size=1 << 30,
    )
    for i, (key, value, headers, ts) in enumerate(items):
        assert builder.append(i, timestamp=ts, key=key, value=value, headers=headers)
    return bytes(builder.build())


@pytest.mark.parametrize("codec", CODECS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=items_st, padding=compressible)
def test_kafka_python_built_decodes_in_kwire(codec, items, padding):
    items = items + [(b"pad", padding, [], items[-1][3])]
    buf = _kp_build(items, codec, transactional=True, pid=9, epoch=1, seq=100)
    d = decode_batch(buf)
    # kafka-python falls back to NONE when compression does not help
    assert d.header.compression in (codec, NONE)
    assert d.header.is_transactional
    assert (d.header.producer_id, d.header.producer_epoch, d.header.base_sequence) == (9, 1, 100)
    assert d.header.records_count == len(items)
    assert d.header.max_timestamp == max(t for *_, t in items)
    for i, (rec, (key, value, headers, ts)) in enumerate(zip(d.records, items)):
        assert (rec.offset, rec.timestamp, rec.key, rec.value) == (i, ts, key, value)
        assert rec.headers == headers
        assert rec.sequence == 100 + i


@pytest.mark.parametrize("codec", [GZIP, SNAPPY, LZ4, ZSTD])
def test_kafka_python_compressed_large_batch(codec):
    items = [(b"k%d" % i, b"value-%d " % i * 20, [("h", b"x")], 1000 + i) for i in range(3000)]
    buf = _kp_build(items, codec)
    d = decode_batch(buf)
    assert d.header.compression == codec
    assert [r.value for r in d.records] == [v for _, v, _, _ in items]


def test_kafka_python_snappy_xerial_encoder_output():
    data = b"".join(b"payload %d " % i for i in range(50_000))  # > 32 KiB, several blocks
    framed = kafka.codec.snappy_encode(data)
    assert framed.startswith(b"\x82SNAPPY\x00")
    assert decompress(SNAPPY, framed) == data
    assert decompress(SNAPPY, kafka.codec.snappy_encode(data, xerial_compatible=False)) == data


@pytest.mark.parametrize("codec", [GZIP, LZ4, ZSTD])
def test_kafka_python_codec_functions(codec):
    enc = {GZIP: kafka.codec.gzip_encode, LZ4: kafka.codec.lz4_encode, ZSTD: kafka.codec.zstd_encode}
    data = b"abc" * 40_000
    assert decompress(codec, enc[codec](data)) == data


def test_kafka_python_sees_patched_batch():
    buf = bytearray(build_batch([(b"a", b"1", [], 10), (b"b", b"2", [], 20)], compression=LZ4))
    batch.set_base_offset(buf, 0, 500)
    batch.set_log_append_time(buf, 0, len(buf), 777)
    kp_batch, recs = _kp_records(buf)
    assert kp_batch.timestamp_type == 1
    assert [(r.offset, r.timestamp) for r in recs] == [(500, 777), (501, 777)]


def test_control_batch_reads_in_kafka_python():
    from kwire.records.control import ABORT, COMMIT, build_end_txn_batch

    for ctype in (ABORT, COMMIT):
        buf = build_end_txn_batch(ctype, producer_id=5, producer_epoch=1, coordinator_epoch=3)
        kp_batch, (rec,) = _kp_records(buf)
        assert kp_batch.is_control_batch and kp_batch.is_transactional
        assert rec.commit == (ctype == COMMIT) and rec.abort == (ctype == ABORT)
