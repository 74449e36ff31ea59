# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ApiVersionsRequest (api key 18): versions 0-4, flexible from v3."""


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


class ApiVersionsRequest:
    """ApiVersionsRequest, versions 0-4."""

    __slots__ = ('client_software_name', 'client_software_version', 'unknown_tagged_fields',)

    def __init__(self, *, client_software_name='', client_software_version='', unknown_tagged_fields=None):
        self.client_software_name = client_software_name
        self.client_software_version = client_software_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.client_software_name == other.client_software_name
                and self.client_software_version == other.client_software_version
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ApiVersionsRequest_v0(buf, pos):
    o = _new(ApiVersionsRequest)
    o.client_software_name = ''
    o.client_software_version = ''
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ApiVersionsRequest_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ApiVersionsRequest', 'tags')


def _d_ApiVersionsRequest_v3(buf, pos):
    o = _new(ApiVersionsRequest)
    o.client_software_name, pos = _r_cstr(buf, pos)
    o.client_software_version, pos = _r_cstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ApiVersionsRequest_v3(o, out, parts):
    _w_cstr(out, o.client_software_name)
    _w_cstr(out, o.client_software_version)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ApiVersionsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ApiVersionsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsRequest_v0(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ApiVersionsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_ApiVersionsRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsRequest_v3(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_ApiVersionsRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsRequest', 4) from None


MESSAGE = ApiVersionsRequest
VERSIONS = range(0, 5)
FLEXIBLE_MIN = 3
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ApiVersionsRequest': (
        ('client_software_name', 'string', 3, 4, None),
        ('client_software_version', 'string', 3, 4, None),
    ),
}
