# Generated from protocol_specs by kwire.codegen -- do not edit.
"""FindCoordinatorRequest (api key 10): versions 0-6, flexible from v3."""


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
_S_b = _Struct('>b')
_U_b = _S_b.unpack_from
_P_b = _S_b.pack


class FindCoordinatorRequest:
    """FindCoordinatorRequest, versions 0-6."""

    __slots__ = ('key', 'key_type', 'coordinator_keys', 'unknown_tagged_fields',)

    def __init__(self, *, key='', key_type=0, coordinator_keys=None, unknown_tagged_fields=None):
        self.key = key
        self.key_type = key_type
        self.coordinator_keys = [] if coordinator_keys is None else coordinator_keys
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.key == other.key
                and self.key_type == other.key_type
                and self.coordinator_keys == other.coordinator_keys
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_FindCoordinatorRequest_v0(buf, pos):
    o = _new(FindCoordinatorRequest)
    o.key, pos = _r_str(buf, pos)
    o.key_type = 0
    o.coordinator_keys = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FindCoordinatorRequest_v0(o, out, parts):
    if o.key_type != 0:
        raise _FieldVersionError('FindCoordinatorRequest.KeyType', '1+')
    if o.coordinator_keys != []:
        raise _FieldVersionError('FindCoordinatorRequest.CoordinatorKeys', '4+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FindCoordinatorRequest', 'tags')
    _w_str(out, o.key)


def _d_FindCoordinatorRequest_v1(buf, pos):
    o = _new(FindCoordinatorRequest)
    o.key, pos = _r_str(buf, pos)
    (o.key_type,) = _U_b(buf, pos)
    pos += 1
    o.coordinator_keys = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FindCoordinatorRequest_v1(o, out, parts):
    if o.coordinator_keys != []:
        raise _FieldVersionError('FindCoordinatorRequest.CoordinatorKeys', '4+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FindCoordinatorRequest', 'tags')
    _w_str(out, o.key)
    out += _P_b(o.key_type)


def _d_FindCoordinatorRequest_v3(buf, pos):
    o = _new(FindCoordinatorRequest)
    o.key, pos = _r_cstr(buf, pos)
    (o.key_type,) = _U_b(buf, pos)
    pos += 1
    o.coordinator_keys = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FindCoordinatorRequest_v3(o, out, parts):
    if o.coordinator_keys != []:
        raise _FieldVersionError('FindCoordinatorRequest.CoordinatorKeys', '4+')
    _w_cstr(out, o.key)
    out += _P_b(o.key_type)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FindCoordinatorRequest_v4(buf, pos):
    o = _new(FindCoordinatorRequest)
    (o.key_type,) = _U_b(buf, pos)
    pos += 1
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_cstr(buf, pos)
        a.append(e)
    o.coordinator_keys = a
    o.key = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FindCoordinatorRequest_v4(o, out, parts):
    if o.key != '':
        raise _FieldVersionError('FindCoordinatorRequest.Key', '0-3')
    out += _P_b(o.key_type)
    x = o.coordinator_keys
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _w_cstr(out, e)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_FindCoordinatorRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_FindCoordinatorRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorRequest_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_FindCoordinatorRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_FindCoordinatorRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorRequest_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_FindCoordinatorRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorRequest_v4(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_FindCoordinatorRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorRequest', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorRequest_v4(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_FindCoordinatorRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorRequest', 6) from None


MESSAGE = FindCoordinatorRequest
VERSIONS = range(0, 7)
FLEXIBLE_MIN = 3
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'FindCoordinatorRequest': (
        ('key', 'string', 0, 3, None),
        ('key_type', 'int8', 1, 6, None),
        ('coordinator_keys', '[]string', 4, 6, None),
    ),
}
