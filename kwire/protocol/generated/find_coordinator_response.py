# Generated from protocol_specs by kwire.codegen -- do not edit.
"""FindCoordinatorResponse (api key 10): versions 0-6, flexible from v3."""


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
_S_hi = _Struct('>hi')
_U_hi = _S_hi.unpack_from
_P_hi = _S_hi.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class FindCoordinatorResponse:
    """FindCoordinatorResponse, versions 0-6."""

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'node_id', 'host', 'port', 'coordinators', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', node_id=0, host='', port=0, coordinators=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.node_id = node_id
        self.host = host
        self.port = port
        self.coordinators = [] if coordinators is None else coordinators
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.node_id == other.node_id
                and self.host == other.host
                and self.port == other.port
                and self.coordinators == other.coordinators
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Coordinator:
    """Coordinator struct of FindCoordinatorResponse, versions 4+."""

    __slots__ = ('key', 'node_id', 'host', 'port', 'error_code', 'error_message', 'unknown_tagged_fields',)

    def __init__(self, *, key='', node_id=0, host='', port=0, error_code=0, error_message='', unknown_tagged_fields=None):
        self.key = key
        self.node_id = node_id
        self.host = host
        self.port = port
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.key == other.key
                and self.node_id == other.node_id
                and self.host == other.host
                and self.port == other.port
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_Coordinator_v4(buf, pos):
    o = _new(Coordinator)
    o.key, pos = _r_cstr(buf, pos)
    (o.node_id,) = _U_i(buf, pos)
    pos += 4
    o.host, pos = _r_cstr(buf, pos)
    (o.port, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Coordinator_v4(o, out, parts):
    _w_cstr(out, o.key)
    out += _P_i(o.node_id)
    _w_cstr(out, o.host)
    out += _P_ih(o.port, o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FindCoordinatorResponse_v0(buf, pos):
    o = _new(FindCoordinatorResponse)
    (o.error_code, o.node_id,) = _U_hi(buf, pos)
    pos += 6
    o.host, pos = _r_str(buf, pos)
    (o.port,) = _U_i(buf, pos)
    pos += 4
    o.throttle_time_ms = 0
    o.error_message = ''
    o.coordinators = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FindCoordinatorResponse_v0(o, out, parts):
    if o.coordinators != []:
        raise _FieldVersionError('FindCoordinatorResponse.Coordinators', '4+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FindCoordinatorResponse', 'tags')
    out += _P_hi(o.error_code, o.node_id)
    _w_str(out, o.host)
    out += _P_i(o.port)


def _d_FindCoordinatorResponse_v1(buf, pos):
    o = _new(FindCoordinatorResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_nstr(buf, pos)
    (o.node_id,) = _U_i(buf, pos)
    pos += 4
    o.host, pos = _r_str(buf, pos)
    (o.port,) = _U_i(buf, pos)
    pos += 4
    o.coordinators = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FindCoordinatorResponse_v1(o, out, parts):
    if o.coordinators != []:
        raise _FieldVersionError('FindCoordinatorResponse.Coordinators', '4+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FindCoordinatorResponse', 'tags')
    out += _P_ih(o.throttle_time_ms, o.error_code)
    _w_nstr(out, o.error_message)
    out += _P_i(o.node_id)
    _w_str(out, o.host)
    out += _P_i(o.port)


def _d_FindCoordinatorResponse_v3(buf, pos):
    o = _new(FindCoordinatorResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.node_id,) = _U_i(buf, pos)
    pos += 4
    o.host, pos = _r_cstr(buf, pos)
    (o.port,) = _U_i(buf, pos)
    pos += 4
    o.coordinators = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FindCoordinatorResponse_v3(o, out, parts):
    if o.coordinators != []:
        raise _FieldVersionError('FindCoordinatorResponse.Coordinators', '4+')
    out += _P_ih(o.throttle_time_ms, o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_i(o.node_id)
    _w_cstr(out, o.host)
    out += _P_i(o.port)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FindCoordinatorResponse_v4(buf, pos):
    o = _new(FindCoordinatorResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Coordinator_v4(buf, pos)
        a.append(e)
    o.coordinators = a
    o.error_code = 0
    o.error_message = ''
    o.node_id = 0
    o.host = ''
    o.port = 0
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FindCoordinatorResponse_v4(o, out, parts):
    if o.error_code != 0:
        raise _FieldVersionError('FindCoordinatorResponse.ErrorCode', '0-3')
    if o.node_id != 0:
        raise _FieldVersionError('FindCoordinatorResponse.NodeId', '0-3')
    if o.host != '':
        raise _FieldVersionError('FindCoordinatorResponse.Host', '0-3')
    if o.port != 0:
        raise _FieldVersionError('FindCoordinatorResponse.Port', '0-3')
    out += _P_i(o.throttle_time_ms)
    x = o.coordinators
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Coordinator_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_FindCoordinatorResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_FindCoordinatorResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorResponse_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_FindCoordinatorResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_FindCoordinatorResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_FindCoordinatorResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorResponse_v4(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_FindCoordinatorResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FindCoordinatorResponse_v4(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_FindCoordinatorResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FindCoordinatorResponse', 6) from None


MESSAGE = FindCoordinatorResponse
VERSIONS = range(0, 7)
FLEXIBLE_MIN = 3
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'FindCoordinatorResponse': (
        ('throttle_time_ms', 'int32', 1, 6, None),
        ('error_code', 'int16', 0, 3, None),
        ('error_message', 'string', 1, 3, None),
        ('node_id', 'int32', 0, 3, 'brokerId'),
        ('host', 'string', 0, 3, None),
        ('port', 'int32', 0, 3, None),
        ('coordinators', '[]Coordinator', 4, 6, None),
    ),
    'Coordinator': (
        ('key', 'string', 4, 6, None),
        ('node_id', 'int32', 4, 6, 'brokerId'),
        ('host', 'string', 4, 6, None),
        ('port', 'int32', 4, 6, None),
        ('error_code', 'int16', 4, 6, None),
        ('error_message', 'string', 4, 6, None),
    ),
}
