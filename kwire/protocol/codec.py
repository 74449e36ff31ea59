"""Public codec API: request/response headers, bodies and framing.

This is the only module the broker needs from the protocol layer.  It is
sans-I/O and imports a generated message module lazily, the first time an
API is used, so importing it stays cheap.

Usage::

    from kwire.protocol import codec

    # broker side: one frame (without its 4-byte size prefix) from the socket
    header, pos = codec.decode_request_header(frame)
    req = codec.decode_request(header.request_api_key, header.request_api_version, frame, pos)
    resp = codec.APIS[header.request_api_key].response_class(throttle_time_ms=0)
    chunks = codec.encode_response(header.request_api_key, header.request_api_version,
                                   header.correlation_id, resp)
    transport.writelines(chunks)   # bytes-like chunks; a non-bytes chunk is a
                                   # records "region" (anything with __len__)

    # client side (tests, replica fetcher)
    from kwire.protocol.generated.metadata_request import MetadataRequest
    wire = codec.encode_request(3, 12, correlation_id=1, client_id="me",
                                obj=MetadataRequest(topics=None))
    ...
    correlation_id, metadata = codec.decode_response(3, 12, frame_without_size)

Frames: ``encode_request`` returns ``bytes`` and ``encode_response`` a list,
both starting with the int32 size prefix; decoders take the frame *without*
that prefix.  Records fields decode to ``memoryview`` slices of the given
buffer (writable when it is a ``bytearray``) and are never parsed here.

Errors: malformed or truncated input always raises
:class:`ProtocolDecodeError`; an unknown API key or a version outside the
schema's ``validVersions`` raises :class:`UnsupportedVersionError`; so does
encoding a non-default, non-ignorable field into a version that lacks it.

The response a broker sends when a handler fails (the error in every error
field, the request's items mirrored) is built by
``kwire.protocol.error_response`` from the generated ``FIELDS`` tables.

Header versions follow Kafka: a flexible request uses request header v2,
otherwise v1 (v0 only for ControlledShutdown v0); a flexible response uses
response header v1, otherwise v0, except that ApiVersions responses always
use v0 so that clients can parse them before they know our versions.
"""

from __future__ import annotations

from importlib import import_module
from struct import Struct, error as _StructError, pack_into as _pack_into

from .generated import APIS as _API_INDEX, DATA as DATA_SCHEMAS, REQUEST_FLEXIBLE_MIN
from .primitives import (
    ProtocolDecodeError,
    ProtocolError,
    UnsupportedVersionError,
    read_tags,
    write_nullable_string,
)

__all__ = [
    "APIS", "API_KEYS", "ApiSpec", "DATA_SCHEMAS",
    "ProtocolError", "ProtocolDecodeError", "UnsupportedVersionError",
    "request_header_version", "response_header_version",
    "decode_request_header", "decode_request", "encode_request", "encode_request_body",
    "encode_response", "encode_response_body", "decode_response", "decode_response_body",
    "message_module", "SelfEncoding",
]


class SelfEncoding:
    """A response object that writes its own body: ``encode_body(version, out, parts)`` in
    place of the generated encoder (the Metadata handler splices cached per-topic blocks
    this way, see ``kwire.handlers.metadata_blocks``). It must write exactly what the
    generated encoder would."""

    __slots__ = ()

    def encode_body(self, version: int, out: bytearray, parts: list) -> None:
        raise NotImplementedError

_GENERATED = "kwire.protocol.generated."
_API_VERSIONS = 18
_CONTROLLED_SHUTDOWN = 7

_HH = Struct(">hh")
_HHI = Struct(">hhi")
_I32 = Struct(">i")

# Everything a generated decoder can raise on bad input.
_DECODE_ERRORS = (_StructError, IndexError, ValueError, TypeError, OverflowError)


def message_module(module_name: str):
    """Import (once) and return ``kwire.protocol.generated.<module_name>``."""
    return import_module(_GENERATED + module_name)


class ApiSpec:
    """What the schemas say about one API; message modules load on first use."""

    __slots__ = ("api_key", "name", "min_version", "max_version", "flexible_min_version",
                 "listeners", "latest_version_unstable", "request_module_name",
                 "request_class_name", "response_module_name", "response_class_name",
                 "_req", "_resp")

    def __init__(self, api_key, name, req_mod, req_cls, resp_mod, resp_cls, lo, hi, flex_min,
                 listeners, unstable):
        self.api_key = api_key
        self.name = name
        self.request_module_name = req_mod
        self.request_class_name = req_cls
        self.response_module_name = resp_mod
        self.response_class_name = resp_cls
        self.min_version = lo
        self.max_version = hi
        self.flexible_min_version = flex_min
        self.listeners = listeners
        self.latest_version_unstable = unstable
        self._req = None
        self._resp = None

    @property
    def request_module(self):
        if self._req is None:
            self._req = message_module(self.request_module_name)
        return self._req

    @property
    def response_module(self):
        if self._resp is None:
            self._resp = message_module(self.response_module_name)
        return self._resp

    @property
    def request_class(self):
        return self.request_module.MESSAGE

    @property
    def response_class(self):
        return self.response_module.MESSAGE

    def supports(self, version: int) -> bool:
        return self.min_version <= version <= self.max_version

    def is_flexible(self, version: int) -> bool:
        return self.flexible_min_version is not None and version >= self.flexible_min_version

    def __repr__(self) -> str:
        return (f"ApiSpec({self.api_key}, {self.name!r}, v{self.min_version}-{self.max_version}, "
                f"flexible_min={self.flexible_min_version})")


#: api key -> ApiSpec, for every API whose request lists the ``broker`` listener.
APIS: dict[int, ApiSpec] = {key: ApiSpec(key, *row) for key, row in _API_INDEX.items()}
#: API name (e.g. ``"Produce"``) -> api key.
API_KEYS: dict[str, int] = {spec.name: key for key, spec in APIS.items()}


def _spec(api_key: int, api_version: int) -> ApiSpec:
    spec = APIS.get(api_key)
    if spec is None:
        raise UnsupportedVersionError(f"unknown or non-broker api key {api_key}")
    if not spec.min_version <= api_version <= spec.max_version:
        raise UnsupportedVersionError(
            f"{spec.name} v{api_version} is outside the supported versions "
            f"{spec.min_version}-{spec.max_version}")
    return spec


# -- headers -------------------------------------------------------------------------

def request_header_version(api_key: int, api_version: int) -> int:
    if api_key == _CONTROLLED_SHUTDOWN and api_version == 0:
        return 0
    flex_min = REQUEST_FLEXIBLE_MIN.get(api_key)
    return 2 if flex_min is not None and api_version >= flex_min else 1


def response_header_version(api_key: int, api_version: int) -> int:
    if api_key == _API_VERSIONS:
        return 0
    flex_min = REQUEST_FLEXIBLE_MIN.get(api_key)
    return 1 if flex_min is not None and api_version >= flex_min else 0


_header_decoders = None


def decode_request_header(buf):
    """Decode a request header from the start of ``buf`` -> ``(RequestHeader, pos)``.

    The header version follows from the api key and version alone, so it is
    chosen even for versions newer than we support (the broker still has to
    answer those, e.g. an ApiVersions request from a newer client).  An api
    key absent from the schemas raises :class:`ProtocolDecodeError`.
    """
    global _header_decoders
    if _header_decoders is None:
        _header_decoders = message_module("request_header").DECODERS
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    try:
        api_key, api_version = _HH.unpack_from(buf, 0)
    except _StructError:
        raise ProtocolDecodeError(f"request header truncated ({len(buf)} bytes)") from None
    if api_key not in REQUEST_FLEXIBLE_MIN:
        raise ProtocolDecodeError(f"unknown api key {api_key}")
    try:
        return _header_decoders[request_header_version(api_key, api_version)](buf, 0)
    except ProtocolDecodeError:
        raise
    except _DECODE_ERRORS as exc:
        raise ProtocolDecodeError(f"malformed request header: {exc}") from exc


# -- bodies ------------------------------------------------------------------------------

def decode_request(api_key: int, api_version: int, buf, pos: int = 0):
    """Decode a request body starting at ``pos`` (trailing bytes are ignored)."""
    spec = _spec(api_key, api_version)
    decode = spec.request_module.DECODERS[api_version]
    try:
        return decode(buf, pos)[0]
    except ProtocolDecodeError:
        raise
    except _DECODE_ERRORS as exc:
        raise ProtocolDecodeError(f"malformed {spec.name} v{api_version} request: {exc}") from exc


def decode_response_body(api_key: int, api_version: int, buf, pos: int = 0):
    spec = _spec(api_key, api_version)
    decode = spec.response_module.DECODERS[api_version]
    try:
        return decode(buf, pos)[0]
    except ProtocolDecodeError:
        raise
    except _DECODE_ERRORS as exc:
        raise ProtocolDecodeError(f"malformed {spec.name} v{api_version} response: {exc}") from exc


def decode_response(api_key: int, api_version: int, buf):
    """Decode a response frame (no size prefix) -> ``(correlation_id, obj)``."""
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    _spec(api_key, api_version)
    try:
        (correlation_id,) = _I32.unpack_from(buf, 0)
        pos = 4
        if response_header_version(api_key, api_version) >= 1:
            _, pos = read_tags(buf, pos)
    except ProtocolDecodeError:
        raise
    except _DECODE_ERRORS as exc:
        raise ProtocolDecodeError(f"malformed response header: {exc}") from exc
    return correlation_id, decode_response_body(api_key, api_version, buf, pos)


def encode_request_body(api_key: int, api_version: int, obj) -> bytes:
    out = bytearray()
    parts: list = []
    _spec(api_key, api_version).request_module.ENCODERS[api_version](obj, out, parts)
    return _join(parts, out)


def encode_response_body(api_key: int, api_version: int, obj) -> list:
    """Response body alone as a list of chunks (bytes-like or regions)."""
    out = bytearray()
    parts: list = []
    if isinstance(obj, SelfEncoding):
        obj.encode_body(api_version, out, parts)
    else:
        _spec(api_key, api_version).response_module.ENCODERS[api_version](obj, out, parts)
    if out or not parts:
        parts.append(out)
    return parts


def _join(parts: list, out: bytearray) -> bytes:
    if not parts:
        return bytes(out)
    for p in parts:
        if not isinstance(p, (bytes, bytearray, memoryview)):
            raise TypeError("records regions are only supported in responses (encode_response)")
    return b"".join([*parts, out])


def encode_request(api_key: int, api_version: int, correlation_id: int, client_id, obj) -> bytes:
    """A complete request frame: int32 size, request header, body."""
    spec = _spec(api_key, api_version)
    encode = spec.request_module.ENCODERS[api_version]
    header_version = request_header_version(api_key, api_version)
    out = bytearray(4)
    out += _HHI.pack(api_key, api_version, correlation_id)
    if header_version >= 1:
        write_nullable_string(out, client_id)
    if header_version >= 2:
        out.append(0)  # no tagged fields in the header
    parts: list = []
    encode(obj, out, parts)
    frame = bytearray(_join(parts, out)) if parts else out
    _pack_into(">i", frame, 0, len(frame) - 4)
    return bytes(frame)


def encode_response(api_key: int, api_version: int, correlation_id: int, obj) -> list:
    """A complete response frame as a list of chunks.

    The first chunk starts with the int32 size prefix, which counts every
    chunk (``len()`` of region objects included).  Without records regions
    the list holds a single ``bytearray``.
    """
    spec = _spec(api_key, api_version)
    encode = spec.response_module.ENCODERS[api_version]
    out = bytearray(4)
    out += _I32.pack(correlation_id)
    if response_header_version(api_key, api_version) >= 1:
        out.append(0)
    parts: list = []
    if isinstance(obj, SelfEncoding):
        obj.encode_body(api_version, out, parts)
    else:
        encode(obj, out, parts)
    if not parts:
        _pack_into(">i", out, 0, len(out) - 4)
        return [out]
    if out:
        parts.append(out)
    _pack_into(">i", parts[0], 0, sum(len(p) for p in parts) - 4)
    return parts
