"""Codec round trips, foreign framings (xerial snappy, raw snappy, zstd without
content size) and the decompression-bomb limit."""

from __future__ import annotations

import gzip
import os
import struct

import cramjam
import lz4.frame
import pytest
import zstandard
from crc32c import crc32c
from hypothesis import given, settings
from hypothesis import strategies as st

from kwire.records import batch
from kwire.records.builder import build_batch
from kwire.records.compression import (
    GZIP,
    LZ4,
    MAX_DECOMPRESSED_SIZE,
    NONE,
    SNAPPY,
    XERIAL_MAGIC,
    ZSTD,
    codec_by_name,
    compress,
    decompress,
)
from kwire.records.decode import decode_batch
from kwire.records.errors import CorruptRecordError

CODECS = [NONE, GZIP, SNAPPY, LZ4, ZSTD]
COMPRESSED = [GZIP, SNAPPY, LZ4, ZSTD]


@pytest.mark.parametrize("codec", CODECS)
@settings(max_examples=50, deadline=None)
@given(data=st.binary(max_size=5000) | st.binary(max_size=50).map(lambda b: b * 3000))
def test_codec_round_trip(codec, data):
    assert decompress(codec, compress(codec, data)) == data


@pytest.mark.parametrize("codec", COMPRESSED)
def test_concatenated_streams(codec):
    a, b = b"first" * 1000, os.urandom(70_000)
    assert decompress(codec, compress(codec, a) + compress(codec, b)) == a + b


def _xerial(data: bytes, block: int) -> bytes:
    """xerial framing written out by hand, as snappy-java's SnappyOutputStream does."""
    out = [XERIAL_MAGIC, struct.pack(">ii", 1, 1)]
    for i in range(0, len(data), block):
        raw = bytes(cramjam.snappy.compress_raw(data[i : i + block]))
        out += [struct.pack(">i", len(raw)), raw]
    return b"".join(out)


def test_snappy_xerial_framed_like_java_client():
    data = b"".join(b"record %d;" % i for i in range(20_000))
    framed = _xerial(data, 32 * 1024)
    assert framed[:16] == b"\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01"
    assert decompress(SNAPPY, framed) == data
    assert decompress(SNAPPY, _xerial(data, 1000)) == data  # any block size
    assert compress(SNAPPY, data) == framed  # what we write is what Java writes


def test_snappy_raw_block_without_xerial_header():
    data = b"librdkafka sends raw snappy" * 100
    assert decompress(SNAPPY, bytes(cramjam.snappy.compress_raw(data))) == data


def test_snappy_xerial_batch_decodes():
    records = build_batch([(b"k", b"v" * 100, [], 1)] * 3)
    body = records[61:]
    # Re-frame the records section by hand and splice it into a SNAPPY batch.
    framed = _xerial(body, 16)
    buf = bytearray(records[:61] + framed)
    struct.pack_into(">i", buf, batch.BATCH_LENGTH, len(buf) - batch.LOG_OVERHEAD)
    struct.pack_into(">h", buf, batch.ATTRIBUTES, SNAPPY)
    struct.pack_into(">I", buf, batch.CRC, crc32c(bytes(buf[batch.ATTRIBUTES :])))
    assert [r.value for r in decode_batch(buf).records] == [b"v" * 100] * 3


def test_gzip_from_stdlib_and_zlib_style_headers():
    data = os.urandom(1000) * 5
    assert decompress(GZIP, gzip.compress(data, 9)) == data
    assert compress(GZIP, data)[:2] == b"\x1f\x8b"


def test_lz4_frame_variants():
    data = os.urandom(500) * 400
    for kw in (
        {},
        {"content_checksum": True},
        {"store_size": True},
        {"block_linked": True},
        {"block_size": lz4.frame.BLOCKSIZE_MAX4MB},
    ):
        assert decompress(LZ4, lz4.frame.compress(data, **kw)) == data
    # Kafka's framing: independent blocks, 64 KiB max block size (FLG bit 5, BD 0x40)
    frame = compress(LZ4, data)
    assert frame[:4] == b"\x04\x22\x4d\x18"
    assert frame[4] & 0x20 and frame[5] == 0x40


def test_zstd_without_content_size():
    data = os.urandom(2000) * 100
    frame = zstandard.ZstdCompressor(write_content_size=False).compress(data)
    assert decompress(ZSTD, frame) == data
    streamed = zstandard.ZstdCompressor().compressobj()
    frame = streamed.compress(data) + streamed.flush()
    assert decompress(ZSTD, frame) == data


@pytest.mark.parametrize("codec", COMPRESSED)
def test_decompression_limit(codec):
    data = bytes(1_000_000)
    packed = compress(codec, data)
    assert len(packed) < 100_000
    assert decompress(codec, packed, max_size=len(data)) == data
    with pytest.raises(CorruptRecordError, match="exceed"):
        decompress(codec, packed, max_size=len(data) - 1)


def test_decompression_bomb_default_limit():
    bomb = zstandard.ZstdCompressor(level=1).compress(bytes(MAX_DECOMPRESSED_SIZE + 1))
    assert len(bomb) < 100_000
    with pytest.raises(CorruptRecordError):
        decompress(ZSTD, bomb)


def test_batch_decompression_limit():
    buf = build_batch([(None, bytes(500_000), [], 1)], compression=ZSTD)
    assert decode_batch(buf).records[0].value == bytes(500_000)
    with pytest.raises(CorruptRecordError):
        decode_batch(buf, max_decompressed=100_000)


@pytest.mark.parametrize("codec", COMPRESSED)
@pytest.mark.parametrize("junk", [b"", b"\x05", b"garbage!" * 10, b"\x82SNAPPY\x00"])
def test_garbage_is_corrupt(codec, junk):
    with pytest.raises(CorruptRecordError):
        decompress(codec, junk)


@pytest.mark.parametrize("codec", COMPRESSED)
def test_truncated_stream_is_corrupt(codec):
    packed = compress(codec, os.urandom(3000) * 30)
    for cut in (1, 5, len(packed) // 2, len(packed) - 1):
        with pytest.raises(CorruptRecordError):
            decompress(codec, packed[:cut])


def test_unknown_codec():
    with pytest.raises(CorruptRecordError):
        decompress(5, b"abc")
    with pytest.raises(ValueError):
        compress(7, b"abc")


def test_codec_by_name():
    assert [codec_by_name(n) for n in ("none", "gzip", "snappy", "lz4", "ZSTD")] == CODECS
    with pytest.raises(ValueError):
        codec_by_name("brotli")
