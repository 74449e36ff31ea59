"""Malformed input must raise CorruptRecordError and nothing else.

Hand-built cases cover each check in the decoder; the fuzz tests mutate valid
batches at random (byte flips, truncation, insertion, deletion) for every
codec, with the CRC check on and off so the record parser itself is reached.
"""

from __future__ import annotations

import struct

import pytest
from crc32c import crc32c
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kwire.records import batch
from kwire.records.builder import build_batch, encode_record
from kwire.records.compression import GZIP, LZ4, NONE, SNAPPY, ZSTD, compress
from kwire.records.decode import decode_batch, decode_batches, iter_records, summarize_batch
from kwire.records.errors import CorruptRecordError
from kwire.records.varint import encode_varint, read_varint, read_varlong
from mutations import mutate, mutation_ops
from fuzz_budget import examples  # full budgets in the suite, a tenth in --quick

CODECS = [NONE, GZIP, SNAPPY, LZ4, ZSTD]

SAMPLE = [
    (b"key", b"value", [("h1", b"a"), ("h2", None)], 1000),
    (None, b"x" * 50, [], 1001),
    (b"", None, [("", b"")], 999),
]


def _with_records(records_section: bytes, count: int, codec: int = NONE) -> bytearray:
    """A batch whose records section is exactly ``records_section``, valid CRC."""
    head = bytearray(build_batch([])[: batch.HEADER_SIZE])
    buf = head + records_section
    struct.pack_into(">i", buf, batch.BATCH_LENGTH, len(buf) - batch.LOG_OVERHEAD)
    struct.pack_into(">h", buf, batch.ATTRIBUTES, codec)
    struct.pack_into(">i", buf, batch.RECORDS_COUNT, count)
    _fix_crc(buf)
    return buf


def _fix_crc(buf: bytearray) -> None:
    struct.pack_into(">I", buf, batch.CRC, crc32c(bytes(buf[batch.ATTRIBUTES :])))


def test_valid_reference():
    assert len(decode_batch(_with_records(encode_record(0, 0, b"k", b"v"), 1)).records) == 1


@pytest.mark.parametrize(
    "section, count, what",
    [
        (b"\xff" * 10, 1, "varint"),  # record length varint never ends
        (b"\xff\xff\xff\xff\xff\x01", 1, "longer than 5"),
        (encode_varint(100) + b"\x00" * 5, 1, "does not fit"),  # length past end
        (encode_varint(-5) + b"\x00" * 5, 1, "does not fit"),
        (encode_record(0, 0, b"k", b"v"), 2, "ends after 1 of 2"),  # count too high
        (encode_record(0, 0, b"k", b"v") * 2, 1, "left after"),  # count too low
        (b"", 1, "ends after 0"),
        # key length says 50 inside a 4-byte record
        (encode_varint(4) + b"\x00\x00\x00" + encode_varint(50), 1, "key length"),
        (encode_varint(4) + b"\x00\x00\x00" + encode_varint(-2), 1, "key length"),
        # record with trailing bytes inside its own declared length
        (encode_varint(7) + b"\x00\x00\x00\x01\x01\x00\x00", 1, "unread"),
        # negative header count
        (encode_varint(6) + b"\x00\x00\x00\x01\x01" + encode_varint(-3), 1, "header count"),
        # null header key
        (encode_varint(7) + b"\x00\x00\x00\x01\x01\x02\x01", 1, "null header key"),
        # header key not UTF-8
        (encode_varint(9) + b"\x00\x00\x00\x01\x01\x02\x02\xff\x01", 1, "UTF-8"),
    ],
)
def test_hand_built_corruption(section, count, what):
    with pytest.raises(CorruptRecordError, match=what):
        decode_batch(_with_records(section, count))


def test_header_checks():
    good = bytearray(build_batch(SAMPLE))
    with pytest.raises(CorruptRecordError, match="header bytes"):
        decode_batch(good[:60])
    with pytest.raises(CorruptRecordError, match="declared"):
        decode_batch(good[:-1])
    bad = bytearray(good)
    bad[batch.MAGIC] = 1
    with pytest.raises(CorruptRecordError, match="magic"):
        decode_batch(bad)
    bad = bytearray(good)
    struct.pack_into(">i", bad, batch.BATCH_LENGTH, 10)
    with pytest.raises(CorruptRecordError, match="too small"):
        decode_batch(bad)
    bad = bytearray(good)
    struct.pack_into(">i", bad, batch.RECORDS_COUNT, -1)
    _fix_crc(bad)
    with pytest.raises(CorruptRecordError, match="negative"):
        decode_batch(bad)
    bad = bytearray(good)
    bad[bad.index(b"xxxx")] ^= 0x01  # damage a value: only the CRC can tell
    with pytest.raises(CorruptRecordError, match="CRC"):
        decode_batch(bad)
    assert summarize_batch(bad)["crc_valid"] is False
    with pytest.raises(CorruptRecordError):
        decode_batch(good, pos=-1)


@pytest.mark.parametrize("codec", [GZIP, SNAPPY, LZ4, ZSTD, 5, 6, 7])
def test_bad_compressed_section(codec):
    with pytest.raises(CorruptRecordError):
        decode_batch(_with_records(b"definitely not compressed data", 1, codec))


@pytest.mark.parametrize("codec", [GZIP, SNAPPY, LZ4, ZSTD])
def test_compressed_count_mismatch(codec):
    section = compress(codec, encode_record(0, 0, b"k", b"v"))
    assert len(decode_batch(_with_records(section, 1, codec)).records) == 1
    with pytest.raises(CorruptRecordError):
        decode_batch(_with_records(section, 2, codec))


def test_varint_reader_bounds():
    with pytest.raises(CorruptRecordError):
        read_varint(b"", 0, 0)
    with pytest.raises(CorruptRecordError):
        read_varint(b"\x80\x80", 0, 2)
    with pytest.raises(CorruptRecordError):
        read_varint(b"\x02", 0, 0)  # end before the buffer ends
    with pytest.raises(CorruptRecordError, match="int32"):
        read_varint(encode_varint(2**31), 0, 5)
    with pytest.raises(CorruptRecordError):
        read_varlong(b"\xff" * 10 + b"\x01", 0, 11)
    assert read_varlong(encode_varint(-(2**63)), 0, 10)[0] == -(2**63)


_ops = mutation_ops(10_000)


def _decode_only_corrupt(buf, **kw):
    try:
        decode_batch(buf, **kw)
    except CorruptRecordError:
        pass
    try:
        list(iter_records(buf, **kw))
    except CorruptRecordError:
        pass


@pytest.mark.parametrize("codec", CODECS)
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=_ops, records_only=st.booleans())
def test_fuzz_mutations(codec, ops, records_only):
    good = build_batch(SAMPLE, compression=codec)
    if records_only:
        # Mutate only the records section and keep the header consistent, so the
        # decompressor and record parser see the damage rather than the CRC.
        section = mutate(good[batch.HEADER_SIZE :], ops)
        buf = _with_records(bytes(section), len(SAMPLE), codec)
        _decode_only_corrupt(buf)
    else:
        buf = bytearray(mutate(good, ops))
        _decode_only_corrupt(buf)
        _decode_only_corrupt(buf, verify_crc=False)


@pytest.mark.parametrize("codec", [NONE, GZIP])
@settings(max_examples=examples(200), deadline=None)
@given(section=st.binary(max_size=200), count=st.integers(-2, 20))
def test_fuzz_random_records_section(codec, section, count):
    _decode_only_corrupt(_with_records(section, count, codec))
    if codec == GZIP:  # valid compression around random records
        _decode_only_corrupt(_with_records(compress(GZIP, section), count, GZIP))


@settings(max_examples=examples(200), deadline=None)
@given(data=st.binary(max_size=300))
def test_fuzz_random_bytes_as_batches(data):
    for allow in (False, True):
        try:
            decode_batches(data, allow_truncated=allow, verify_crc=False)
        except CorruptRecordError:
            pass
