# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AddOffsetsToTxnResponse (api key 25): versions 0-4, flexible from v3."""


from struct import Struct as _Struct

from kwire.protocol.primitives import (
    FieldVersionError as _FieldVersionError,
    ZERO_UUID as _ZERO_UUID,
    read_array_len as _r_alen,
    read_bytes as _r_bytes,
    read_compact_array_len as _r_calen,
    read_compact_bytes as _r_cbytes,
    read_compact_nullable_array_len as _r_cnalen,
    read_compact_nullable_bytes as _r_cnbytes,
    read_compact_nullable_string as _r_cnstr,
    read_compact_records as _r_crecords,
    read_compact_string as _r_cstr,
    read_fixed_array as _r_fixed,
    read_nullable_array_len as _r_nalen,
    read_nullable_bytes as _r_nbytes,
    read_nullable_string as _r_nstr,
    read_records as _r_records,
    read_string as _r_str,
    read_tags as _r_tags,
    read_uuid as _r_uuid,
    read_uvarint as _r_uvarint,
    struct_repr as _repr,
    tag_overrun as _tag_overrun,
    write_bytes as _w_bytes,
    write_compact_bytes as _w_cbytes,
    write_compact_nullable_bytes as _w_cnbytes,
    write_compact_nullable_string as _w_cnstr,
    write_compact_records as _w_crecords,
    write_compact_string as _w_cstr,
    write_fixed_array as _w_fixed,
    write_nullable_bytes as _w_nbytes,
    write_nullable_string as _w_nstr,
    write_records as _w_records,
    write_string as _w_str,
    write_tags as _w_tags,
    write_uvarint as _w_uvarint,
)

_new = object.__new__
_MISSING = object()
_P_len = _Struct(">i").pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class AddOffsetsToTxnResponse:
    """AddOffsetsToTxnResponse, versions 0-4."""

    __slots__ = ('throttle_time_ms', 'error_code', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_AddOffsetsToTxnResponse_v0(buf, pos):
    o = _new(AddOffsetsToTxnResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AddOffsetsToTxnResponse_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AddOffsetsToTxnResponse', 'tags')
    out += _P_ih(o.throttle_time_ms, o.error_code)


def _d_AddOffsetsToTxnResponse_v3(buf, pos):
    o = _new(AddOffsetsToTxnResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddOffsetsToTxnResponse_v3(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddOffsetsToTxnResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AddOffsetsToTxnResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddOffsetsToTxnResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddOffsetsToTxnResponse_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AddOffsetsToTxnResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddOffsetsToTxnResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddOffsetsToTxnResponse_v0(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_AddOffsetsToTxnResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddOffsetsToTxnResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddOffsetsToTxnResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_AddOffsetsToTxnResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddOffsetsToTxnResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddOffsetsToTxnResponse_v3(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_AddOffsetsToTxnResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddOffsetsToTxnResponse', 4) from None


MESSAGE = AddOffsetsToTxnResponse
VERSIONS = range(0, 5)
FLEXIBLE_MIN = 3
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AddOffsetsToTxnResponse': (
        ('throttle_time_ms', 'int32', 0, 4, None),
        ('error_code', 'int16', 0, 4, None),
    ),
}
