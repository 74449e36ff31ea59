# Generated from protocol_specs by kwire.codegen -- do not edit.
"""CreateAclsResponse (api key 30): versions 1-3, flexible from v2."""


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
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class CreateAclsResponse:
    """CreateAclsResponse, versions 1-3."""

    __slots__ = ('throttle_time_ms', 'results', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, results=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is None else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.results == other.results
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AclCreationResult:
    """AclCreationResult struct of CreateAclsResponse, versions 0+."""

    __slots__ = ('error_code', 'error_message', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, error_message='', unknown_tagged_fields=None):
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_AclCreationResult_v1(buf, pos):
    o = _new(AclCreationResult)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AclCreationResult_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AclCreationResult', 'tags')
    out += _P_h(o.error_code)
    _w_nstr(out, o.error_message)


def _d_AclCreationResult_v2(buf, pos):
    o = _new(AclCreationResult)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AclCreationResult_v2(o, out, parts):
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreateAclsResponse_v1(buf, pos):
    o = _new(CreateAclsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AclCreationResult_v1(buf, pos)
        a.append(e)
    o.results = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreateAclsResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreateAclsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.results
    out += _P_len(len(x))
    for e in x:
        _e_AclCreationResult_v1(e, out, parts)


def _d_CreateAclsResponse_v2(buf, pos):
    o = _new(CreateAclsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AclCreationResult_v2(buf, pos)
        a.append(e)
    o.results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreateAclsResponse_v2(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AclCreationResult_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateAclsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_CreateAclsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateAclsResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateAclsResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_CreateAclsResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateAclsResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateAclsResponse_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_CreateAclsResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateAclsResponse', 3) from None


MESSAGE = CreateAclsResponse
VERSIONS = range(1, 4)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'CreateAclsResponse': (
        ('throttle_time_ms', 'int32', 0, 3, None),
        ('results', '[]AclCreationResult', 0, 3, None),
    ),
    'AclCreationResult': (
        ('error_code', 'int16', 0, 3, None),
        ('error_message', 'string', 0, 3, None),
    ),
}
