"""Compression codecs for the records section of v2 batches.

The low three bits of a batch's attributes name the codec; only the bytes
after the 61-byte header (the records) are compressed::

    0 NONE   1 GZIP   2 SNAPPY   3 LZ4   4 ZSTD

``compress(codec, data)`` writes what the Java client writes, and
``decompress(codec, data)`` reads what any mainstream client sends:

* GZIP: RFC 1952 members (GZIPOutputStream); concatenated members are read
  one after another, as GZIPInputStream does.
* SNAPPY: the xerial/snappy-java stream framing the Java client uses::

      0   8  magic  82 53 4e 41 50 50 59 00   ("\\x82SNAPPY\\0")
      8   4  version             (int32 BE, 1)
      12  4  min compat version  (int32 BE, 1)
      16  4  block length n      (int32 BE)  -+ repeated to the end
      20  n  raw snappy block                 -+

  A repeated header (concatenated streams) is skipped, as snappy-java does.
  Input without that magic is taken as one raw snappy block (librdkafka and
  some others send that), which is what Kafka's SnappyInputStream accepts.
  ``compress`` writes 32 KiB blocks like snappy-java.
* LZ4: the LZ4 frame format with independent 64 KiB blocks and no content
  size or checksum, like KafkaLZ4BlockOutputStream. Frames from pre-0.10
  clients with the wrong header checksum only occur in magic 0/1 message
  sets, which kwire does not read, so they are not special-cased.
* ZSTD: one or more zstd frames; frames may omit the content size (zstd-jni's
  streaming encoder does), so decoding always streams.

Every decoder stops once the output would exceed ``max_size`` (default
``MAX_DECOMPRESSED_SIZE``) so a small batch cannot expand into gigabytes, and
all codec failures surface as ``CorruptRecordError``. This module knows
nothing about records or batch headers.
"""

from __future__ import annotations

import struct
import zlib

import cramjam
import lz4.frame
import zstandard

from .errors import CorruptRecordError

NONE, GZIP, SNAPPY, LZ4, ZSTD = 0, 1, 2, 3, 4
CODEC_NAMES = {NONE: "none", GZIP: "gzip", SNAPPY: "snappy", LZ4: "lz4", ZSTD: "zstd"}

MAX_DECOMPRESSED_SIZE = 128 * 1024 * 1024

XERIAL_MAGIC = b"\x82SNAPPY\x00"
_XERIAL_HEADER = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
_XERIAL_BLOCK = 32 * 1024
_I = struct.Struct(">i")
_ZSTD_SLICE = 1024


def codec_by_name(name: str) -> int:
    """Map Kafka's ``compression.type`` spelling ('gzip', 'zstd', ...) to a codec id."""
    for codec, codec_name in CODEC_NAMES.items():
        if codec_name == name.lower():
            return codec
    raise ValueError(f"unknown compression type {name!r}")


def compress(codec: int, data) -> bytes:
    """Compress ``data`` with ``codec`` the way the Java producer does."""
    if codec == NONE:
        return bytes(data)
    if codec == GZIP:
        c = zlib.compressobj(6, zlib.DEFLATED, 31)  # wbits 31 = gzip wrapper
        return c.compress(data) + c.flush()
    if codec == SNAPPY:
        view = memoryview(data)
        out = [_XERIAL_HEADER]
        for start in range(0, len(view), _XERIAL_BLOCK):
            block = bytes(cramjam.snappy.compress_raw(view[start : start + _XERIAL_BLOCK]))
            out.append(_I.pack(len(block)))
            out.append(block)
        return b"".join(out)
    if codec == LZ4:
        return lz4.frame.compress(
            data,
            block_size=lz4.frame.BLOCKSIZE_MAX64KB,
            block_linked=False,
            content_checksum=False,
            store_size=False,
        )
    if codec == ZSTD:
        return zstandard.ZstdCompressor(level=3).compress(data)
    raise ValueError(f"unknown compression codec {codec}")


def decompress(codec: int, data, max_size: int = MAX_DECOMPRESSED_SIZE) -> bytes:
    """Decompress ``data``; raise CorruptRecordError if it is malformed or too big."""
    if codec == NONE:
        return bytes(data)
    decoder = _DECODERS.get(codec)
    if decoder is None:
        raise CorruptRecordError(f"unknown compression codec {codec}")
    try:
        out = decoder(data, max_size)
    except CorruptRecordError:
        raise
    except Exception as exc:  # codec libraries raise their own types
        raise CorruptRecordError(f"bad {CODEC_NAMES[codec]} data: {exc}") from exc
    return out


def _too_big(max_size: int) -> CorruptRecordError:
    return CorruptRecordError(f"decompressed records exceed {max_size} bytes")


def _gzip_decode(data, max_size: int) -> bytes:
    out = bytearray()
    rest = bytes(data)
    if not rest:
        raise CorruptRecordError("empty gzip data")
    while rest:
        d = zlib.decompressobj(31)
        pending = rest
        while True:
            out += d.decompress(pending, max_size + 1 - len(out))
            if len(out) > max_size:
                raise _too_big(max_size)
            pending = d.unconsumed_tail
            if d.eof:
                break
            if not pending:
                raise CorruptRecordError("truncated gzip data")
        rest = d.unused_data
    return bytes(out)


def _snappy_decode(data, max_size: int) -> bytes:
    view = memoryview(data)
    if view[: len(XERIAL_MAGIC)] != XERIAL_MAGIC:
        return _snappy_block(view, max_size)
    if len(view) < len(_XERIAL_HEADER):
        raise CorruptRecordError("truncated xerial snappy header")
    out = bytearray()
    pos = len(_XERIAL_HEADER)
    while pos < len(view):
        if view[pos : pos + len(XERIAL_MAGIC)] == XERIAL_MAGIC:
            # Concatenated streams repeat the header; snappy-java skips it.
            pos += len(_XERIAL_HEADER)
            continue
        if pos + 4 > len(view):
            raise CorruptRecordError("truncated xerial snappy block length")
        (n,) = _I.unpack_from(view, pos)
        pos += 4
        if n < 0 or pos + n > len(view):
            raise CorruptRecordError(f"xerial snappy block length {n} runs past the end")
        out += _snappy_block(view[pos : pos + n], max_size - len(out))
        pos += n
    return bytes(out)


def _snappy_block(block, max_size: int) -> bytes:
    # A raw block starts with its uncompressed length, so check before inflating.
    if int(cramjam.snappy.decompress_raw_len(block)) > max_size:
        raise _too_big(max_size)
    return bytes(cramjam.snappy.decompress_raw(block))


def _lz4_decode(data, max_size: int) -> bytes:
    out = bytearray()
    rest = bytes(data)
    if not rest:
        raise CorruptRecordError("empty lz4 data")
    while rest:  # one frame per pass; Kafka writes one, tolerate more
        d = lz4.frame.LZ4FrameDecompressor()
        pending = rest
        while not d.eof:
            out += d.decompress(pending, max_length=max_size + 1 - len(out))
            if len(out) > max_size:
                raise _too_big(max_size)
            pending = b""
            if not d.eof and not d.needs_input:
                continue
            if not d.eof:
                raise CorruptRecordError("truncated lz4 frame")
        rest = d.unused_data
    return bytes(out)


def _zstd_decode(data, max_size: int) -> bytes:
    # decompressobj has no output limit, so feed input in small slices: one
    # slice of n bytes holds at most n/3 blocks of 128 KiB each, which bounds
    # how far past max_size a single call can run.
    rest = memoryview(bytes(data))
    if not len(rest):
        raise CorruptRecordError("empty zstd data")
    dctx = zstandard.ZstdDecompressor()
    out = bytearray()
    while len(rest):  # one frame per pass
        d = dctx.decompressobj()
        pos = 0
        while not d.eof and pos < len(rest):
            out += d.decompress(rest[pos : pos + _ZSTD_SLICE])
            pos += _ZSTD_SLICE
            if len(out) > max_size:
                raise _too_big(max_size)
        if not d.eof:
            raise CorruptRecordError("truncated zstd frame")
        unused = d.unused_data
        rest = rest[min(pos, len(rest)) - len(unused) :] if unused else rest[pos:]
    return bytes(out)


_DECODERS = {GZIP: _gzip_decode, SNAPPY: _snappy_decode, LZ4: _lz4_decode, ZSTD: _zstd_decode}
