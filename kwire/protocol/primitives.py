"""Kafka wire primitives: the readers and writers the generated codec calls.

Readers take ``(buf, pos)`` and return ``(value, new_pos)``.  ``buf`` is a
``memoryview`` (the generated ``decode_vN`` entry points wrap whatever they
are given), so ``records`` come back as zero-copy slices of the caller's
buffer.  Writers append to a ``bytearray`` ``out``.

Encodings (all integers big-endian)::

    string            int16 length N, N bytes UTF-8      (N = -1: null)
    compact string    uvarint N+1, N bytes               (0: null)
    bytes / records   int32 length N, N bytes            (N = -1: null)
    compact bytes     uvarint N+1, N bytes               (0: null)
    array             int32 count N, N elements          (N = -1: null)
    compact array     uvarint N+1, N elements            (0: null)
    nullable struct   int8 -1 (null) or 1, then the struct
    uuid              16 raw bytes
    tagged fields     uvarint count, then per field: uvarint tag,
                      uvarint size, size bytes of value; tags ascending

Invariants: a reader never allocates from a length it has not checked
against the bytes remaining, and malformed input surfaces as
:class:`ProtocolDecodeError` (or a ``struct.error``/``IndexError``/
``ValueError`` that :mod:`kwire.protocol.codec` turns into one).

Not here: record batches (``kwire.records``) and framing (``codec``).
"""

from __future__ import annotations

from struct import Struct
from uuid import UUID

__all__ = [
    "ProtocolError", "ProtocolDecodeError", "UnsupportedVersionError", "FieldVersionError",
    "ZERO_UUID",
    "read_uvarint", "read_uvarlong", "read_varint", "read_varlong",
    "write_uvarint", "write_varint", "write_varlong", "uvarint_size",
    "read_string", "read_nullable_string", "read_compact_string", "read_compact_nullable_string",
    "write_string", "write_nullable_string", "write_compact_string", "write_compact_nullable_string",
    "read_bytes", "read_nullable_bytes", "read_compact_bytes", "read_compact_nullable_bytes",
    "write_bytes", "write_nullable_bytes", "write_compact_bytes", "write_compact_nullable_bytes",
    "read_records", "read_compact_records", "write_records", "write_compact_records",
    "read_uuid", "read_array_len", "read_nullable_array_len", "read_compact_array_len",
    "read_compact_nullable_array_len", "read_fixed_array", "write_fixed_array",
    "read_tags", "write_tags",
]


class ProtocolError(Exception):
    """Base class for wire protocol errors."""


class ProtocolDecodeError(ProtocolError, ValueError):
    """Malformed, truncated or lying input."""


class UnsupportedVersionError(ProtocolError):
    """An API version (or a field value) that the chosen version cannot carry."""


class FieldVersionError(UnsupportedVersionError):
    """A non-default, non-ignorable field set on a version that lacks it.

    Raised inside the generated struct encoders (which are shared between
    identical versions); the per-version entry point re-raises it through
    :meth:`at` so the message names the version being encoded.
    """

    def __init__(self, field: str, versions: str):
        self.field = field
        self.versions = versions
        super().__init__(f"field {field} (versions {versions}) is set but not supported")

    def at(self, message: str, version: int) -> UnsupportedVersionError:
        if self.versions == "null":
            return UnsupportedVersionError(
                f"{message} v{version}: field {self.field} is null but not nullable in v{version}")
        if self.versions == "tags":
            return UnsupportedVersionError(
                f"{message} v{version}: {self.field} has unknown tagged fields but v{version} is not flexible")
        return UnsupportedVersionError(
            f"{message} v{version}: field {self.field} has a non-default value but only exists in "
            f"versions {self.versions} and is not ignorable")


ZERO_UUID = UUID(int=0)
_ZERO16 = bytes(16)

_I16 = Struct(">h")
_I32 = Struct(">i")
_u16 = _I16.unpack_from
_u32 = _I32.unpack_from
_p16 = _I16.pack
_p32 = _I32.pack
_NULL16 = b"\xff\xff"
_NULL32 = b"\xff\xff\xff\xff"


def _short(what: str, need: int, have: int) -> ProtocolDecodeError:
    return ProtocolDecodeError(f"{what} of length {need} exceeds the {have} bytes remaining")


# -- varints ---------------------------------------------------------------

def read_uvarint(buf, pos: int):
    """Unsigned varint of at most 5 bytes (Kafka's 32-bit form)."""
    b = buf[pos]
    if b < 0x80:
        return b, pos + 1
    result = b & 0x7F
    shift = 7
    pos += 1
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 28:
            raise ProtocolDecodeError("unsigned varint longer than 5 bytes")


def read_uvarlong(buf, pos: int):
    """Unsigned varint of at most 10 bytes (64-bit)."""
    result = 0
    shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ProtocolDecodeError("varlong longer than 10 bytes")


def read_varint(buf, pos: int):
    """Zigzag signed varint (32-bit)."""
    n, pos = read_uvarint(buf, pos)
    return (n >> 1) ^ -(n & 1), pos


def read_varlong(buf, pos: int):
    """Zigzag signed varint (64-bit)."""
    n, pos = read_uvarlong(buf, pos)
    return (n >> 1) ^ -(n & 1), pos


def write_uvarint(out: bytearray, n: int) -> None:
    if n < 0x80:
        out.append(n)
        return
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def write_varint(out: bytearray, n: int) -> None:
    write_uvarint(out, ((n << 1) ^ (n >> 31)) & 0xFFFFFFFF)


def write_varlong(out: bytearray, n: int) -> None:
    write_uvarint(out, ((n << 1) ^ (n >> 63)) & 0xFFFFFFFFFFFFFFFF)


def uvarint_size(n: int) -> int:
    size = 1
    while n >= 0x80:
        n >>= 7
        size += 1
    return size


# -- strings -----------------------------------------------------------------

def read_string(buf, pos: int):
    (n,) = _u16(buf, pos)
    pos += 2
    end = pos + n
    if n < 0:
        raise ProtocolDecodeError("null value for a non-nullable string")
    if end > len(buf):
        raise _short("string", n, len(buf) - pos)
    return str(buf[pos:end], "utf-8"), end


def read_nullable_string(buf, pos: int):
    (n,) = _u16(buf, pos)
    pos += 2
    if n < 0:
        return None, pos
    end = pos + n
    if end > len(buf):
        raise _short("string", n, len(buf) - pos)
    return str(buf[pos:end], "utf-8"), end


def read_compact_string(buf, pos: int):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise ProtocolDecodeError("null value for a non-nullable compact string")
    end = pos + n - 1
    if end > len(buf):
        raise _short("compact string", n - 1, len(buf) - pos)
    return str(buf[pos:end], "utf-8"), end


def read_compact_nullable_string(buf, pos: int):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    end = pos + n - 1
    if end > len(buf):
        raise _short("compact string", n - 1, len(buf) - pos)
    return str(buf[pos:end], "utf-8"), end


def write_string(out: bytearray, s: str) -> None:
    b = s.encode()
    out += _p16(len(b))
    out += b


def write_nullable_string(out: bytearray, s) -> None:
    if s is None:
        out += _NULL16
        return
    b = s.encode()
    out += _p16(len(b))
    out += b


def write_compact_string(out: bytearray, s: str) -> None:
    b = s.encode()
    n = len(b) + 1
    if n < 0x80:
        out.append(n)
    else:
        write_uvarint(out, n)
    out += b


def write_compact_nullable_string(out: bytearray, s) -> None:
    if s is None:
        out.append(0)
        return
    write_compact_string(out, s)


# -- bytes -------------------------------------------------------------------

def read_bytes(buf, pos: int):
    (n,) = _u32(buf, pos)
    pos += 4
    if n < 0:
        raise ProtocolDecodeError("null value for non-nullable bytes")
    end = pos + n
    if end > len(buf):
        raise _short("bytes", n, len(buf) - pos)
    return bytes(buf[pos:end]), end


def read_nullable_bytes(buf, pos: int):
    (n,) = _u32(buf, pos)
    pos += 4
    if n < 0:
        return None, pos
    end = pos + n
    if end > len(buf):
        raise _short("bytes", n, len(buf) - pos)
    return bytes(buf[pos:end]), end


def read_compact_bytes(buf, pos: int):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise ProtocolDecodeError("null value for non-nullable compact bytes")
    end = pos + n - 1
    if end > len(buf):
        raise _short("compact bytes", n - 1, len(buf) - pos)
    return bytes(buf[pos:end]), end


def read_compact_nullable_bytes(buf, pos: int):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    end = pos + n - 1
    if end > len(buf):
        raise _short("compact bytes", n - 1, len(buf) - pos)
    return bytes(buf[pos:end]), end


_ZERO32 = b"\x00\x00\x00\x00"


def _blen(b) -> int:
    return b.nbytes if b.__class__ is memoryview else len(b)


def write_bytes(out: bytearray, b) -> None:
    out += _p32(_blen(b))
    out += b


def write_nullable_bytes(out: bytearray, b) -> None:
    if b is None:
        out += _NULL32
        return
    out += _p32(_blen(b))
    out += b


def write_compact_bytes(out: bytearray, b) -> None:
    write_uvarint(out, _blen(b) + 1)
    out += b


def write_compact_nullable_bytes(out: bytearray, b) -> None:
    if b is None:
        out.append(0)
        return
    write_uvarint(out, _blen(b) + 1)
    out += b


# -- records (opaque) ----------------------------------------------------------

def read_records(buf, pos: int):
    """Records as a slice of ``buf`` (zero-copy for memoryviews), or None."""
    (n,) = _u32(buf, pos)
    pos += 4
    if n < 0:
        return None, pos
    end = pos + n
    if end > len(buf):
        raise _short("records", n, len(buf) - pos)
    return buf[pos:end], end


def read_compact_records(buf, pos: int):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    end = pos + n - 1
    if end > len(buf):
        raise _short("records", n - 1, len(buf) - pos)
    return buf[pos:end], end


def _append_records(out: bytearray, parts: list, v) -> None:
    cls = v.__class__
    if cls is bytes or cls is bytearray or cls is memoryview or isinstance(v, (bytes, bytearray, memoryview)):
        out += v
    else:
        # A region (e.g. a file slice for sendfile): close the current chunk,
        # hand the region over as its own part, and keep writing into ``out``.
        if out:
            parts.append(out[:])
        parts.append(v)
        del out[:]


def write_records(out: bytearray, parts: list, v) -> None:
    if v is None:
        out += _NULL32
        return
    if v.__class__ is bytes and not v:  # a caught-up Fetch partition: no records, most often
        out += _ZERO32
        return
    out += _p32(_blen(v))
    _append_records(out, parts, v)


def write_compact_records(out: bytearray, parts: list, v) -> None:
    if v is None:
        out.append(0)
        return
    if v.__class__ is bytes and not v:  # a caught-up Fetch partition: length 0, as a uvarint 1
        out.append(1)
        return
    write_uvarint(out, _blen(v) + 1)
    _append_records(out, parts, v)


# -- uuid ----------------------------------------------------------------------

# the UUIDs decoded lately, by their 16 bytes: a topic id comes in every Fetch and Produce of a
# client, and ``UUID(bytes=...)`` is Python code (a dozen lines) while a UUID never changes, so
# the same object can be handed out again; bounded: cleared when it reaches _UUIDS_MAX
_UUIDS: dict[bytes, UUID] = {}
_UUIDS_MAX = 4096
UUID_CACHE = _UUIDS  # for kwire.records._scan.produce_frame, which looks topic ids up in it


def read_uuid(buf, pos: int):
    end = pos + 16
    if end > len(buf):
        raise _short("uuid", 16, len(buf) - pos)
    raw = bytes(buf[pos:end])
    u = _UUIDS.get(raw)
    if u is not None:
        return u, end
    if raw == _ZERO16:
        return ZERO_UUID, end
    if len(_UUIDS) >= _UUIDS_MAX:
        _UUIDS.clear()
    u = _UUIDS[raw] = UUID(bytes=raw)
    return u, end


# -- arrays ----------------------------------------------------------------------
# Like Kafka, a count larger than the bytes left is rejected up front.

def read_array_len(buf, pos: int):
    (n,) = _u32(buf, pos)
    pos += 4
    if n < 0:
        raise ProtocolDecodeError("null value for a non-nullable array")
    if n > len(buf) - pos:
        raise _short("array", n, len(buf) - pos)
    return n, pos


def read_nullable_array_len(buf, pos: int):
    (n,) = _u32(buf, pos)
    pos += 4
    if n < 0:
        return None, pos
    if n > len(buf) - pos:
        raise _short("array", n, len(buf) - pos)
    return n, pos


def read_compact_array_len(buf, pos: int):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise ProtocolDecodeError("null value for a non-nullable compact array")
    n -= 1
    if n > len(buf) - pos:
        raise _short("array", n, len(buf) - pos)
    return n, pos


def read_compact_nullable_array_len(buf, pos: int):
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    n -= 1
    if n > len(buf) - pos:
        raise _short("array", n, len(buf) - pos)
    return n, pos


_FIXED_CACHE: dict[tuple[int, str], Struct] = {}


def _fixed(n: int, ch: str) -> Struct:
    s = _FIXED_CACHE.get((n, ch))
    if s is None:
        s = Struct(f">{n}{ch}")
        if len(_FIXED_CACHE) < 256:
            _FIXED_CACHE[(n, ch)] = s
    return s


def read_fixed_array(buf, pos: int, n: int, ch: str):
    """``n`` fixed-width elements with struct format char ``ch``."""
    s = _fixed(n, ch)
    return list(s.unpack_from(buf, pos)), pos + s.size


def write_fixed_array(out: bytearray, ch: str, values) -> None:
    out += _fixed(len(values), ch).pack(*values)


# -- tagged fields ------------------------------------------------------------------

def read_tags(buf, pos: int):
    """Read a tagged-field section whose tags are all unknown: {tag: raw bytes}."""
    n = buf[pos]
    if n == 0:
        return {}, pos + 1
    n, pos = read_uvarint(buf, pos)
    tags = {}
    for _ in range(n):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _short("tagged field", size, len(buf) - pos)
        tags[tag] = bytes(buf[pos:end])
        pos = end
    return tags, pos


def tag_overrun(size: int, remaining: int) -> ProtocolDecodeError:
    return _short("tagged field", size, remaining)


def write_tags(out: bytearray, known, unknown) -> None:
    """Write a tagged-field section.

    ``known`` is a list of ``(tag, encoded value)`` in ascending tag order
    (or None); ``unknown`` the struct's ``unknown_tagged_fields`` dict.
    """
    if unknown:
        items = sorted([*(known or ()), *unknown.items()], key=lambda kv: kv[0])
    elif known:
        items = known
    else:
        out.append(0)
        return
    write_uvarint(out, len(items))
    for tag, data in items:
        write_uvarint(out, tag)
        write_uvarint(out, len(data))
        out += data


# -- generated class helpers -------------------------------------------------------

def struct_repr(obj) -> str:
    items = []
    for name in obj.__slots__:
        v = getattr(obj, name)
        if name == "unknown_tagged_fields" and not v:
            continue
        if v.__class__ is memoryview:
            items.append(f"{name}=<{v.nbytes} bytes>")
        else:
            items.append(f"{name}={v!r}")
    return f"{obj.__class__.__name__}({', '.join(items)})"
