# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeClusterResponse (api key 60): versions 0-2, flexible from v0."""


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
_S_o = _Struct('>?')
_U_o = _S_o.unpack_from
_P_o = _S_o.pack
_S_b = _Struct('>b')
_U_b = _S_b.unpack_from
_P_b = _S_b.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class DescribeClusterResponse:
    """DescribeClusterResponse, versions 0-2."""

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'endpoint_type', 'cluster_id', 'controller_id', 'brokers', 'cluster_authorized_operations', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, endpoint_type=1, cluster_id='', controller_id=-1, brokers=None, cluster_authorized_operations=-2147483648, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.endpoint_type = endpoint_type
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.brokers = [] if brokers is None else brokers
        self.cluster_authorized_operations = cluster_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.endpoint_type == other.endpoint_type
                and self.cluster_id == other.cluster_id
                and self.controller_id == other.controller_id
                and self.brokers == other.brokers
                and self.cluster_authorized_operations == other.cluster_authorized_operations
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeClusterBroker:
    """DescribeClusterBroker struct of DescribeClusterResponse, versions 0+."""

    __slots__ = ('broker_id', 'host', 'port', 'rack', 'is_fenced', 'unknown_tagged_fields',)

    def __init__(self, *, broker_id=0, host='', port=0, rack=None, is_fenced=False, unknown_tagged_fields=None):
        self.broker_id = broker_id
        self.host = host
        self.port = port
        self.rack = rack
        self.is_fenced = is_fenced
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.broker_id == other.broker_id
                and self.host == other.host
                and self.port == other.port
                and self.rack == other.rack
                and self.is_fenced == other.is_fenced
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeClusterBroker_v0(buf, pos):
    o = _new(DescribeClusterBroker)
    (o.broker_id,) = _U_i(buf, pos)
    pos += 4
    o.host, pos = _r_cstr(buf, pos)
    (o.port,) = _U_i(buf, pos)
    pos += 4
    o.rack, pos = _r_cnstr(buf, pos)
    o.is_fenced = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeClusterBroker_v0(o, out, parts):
    if o.is_fenced != False:
        raise _FieldVersionError('DescribeClusterBroker.IsFenced', '2+')
    out += _P_i(o.broker_id)
    _w_cstr(out, o.host)
    out += _P_i(o.port)
    _w_cnstr(out, o.rack)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeClusterBroker_v2(buf, pos):
    o = _new(DescribeClusterBroker)
    (o.broker_id,) = _U_i(buf, pos)
    pos += 4
    o.host, pos = _r_cstr(buf, pos)
    (o.port,) = _U_i(buf, pos)
    pos += 4
    o.rack, pos = _r_cnstr(buf, pos)
    (o.is_fenced,) = _U_o(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeClusterBroker_v2(o, out, parts):
    out += _P_i(o.broker_id)
    _w_cstr(out, o.host)
    out += _P_i(o.port)
    _w_cnstr(out, o.rack)
    out += _P_o(o.is_fenced)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeClusterResponse_v0(buf, pos):
    o = _new(DescribeClusterResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    o.cluster_id, pos = _r_cstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeClusterBroker_v0(buf, pos)
        a.append(e)
    o.brokers = a
    (o.cluster_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    o.endpoint_type = 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeClusterResponse_v0(o, out, parts):
    if o.endpoint_type != 1:
        raise _FieldVersionError('DescribeClusterResponse.EndpointType', '1+')
    out += _P_ih(o.throttle_time_ms, o.error_code)
    _w_cnstr(out, o.error_message)
    _w_cstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.brokers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeClusterBroker_v0(e, out, parts)
    out += _P_i(o.cluster_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeClusterResponse_v1(buf, pos):
    o = _new(DescribeClusterResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.endpoint_type,) = _U_b(buf, pos)
    pos += 1
    o.cluster_id, pos = _r_cstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeClusterBroker_v0(buf, pos)
        a.append(e)
    o.brokers = a
    (o.cluster_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeClusterResponse_v1(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_b(o.endpoint_type)
    _w_cstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.brokers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeClusterBroker_v0(e, out, parts)
    out += _P_i(o.cluster_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeClusterResponse_v2(buf, pos):
    o = _new(DescribeClusterResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.endpoint_type,) = _U_b(buf, pos)
    pos += 1
    o.cluster_id, pos = _r_cstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeClusterBroker_v2(buf, pos)
        a.append(e)
    o.brokers = a
    (o.cluster_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeClusterResponse_v2(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_b(o.endpoint_type)
    _w_cstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.brokers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeClusterBroker_v2(e, out, parts)
    out += _P_i(o.cluster_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeClusterResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeClusterResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeClusterResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeClusterResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeClusterResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeClusterResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeClusterResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeClusterResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeClusterResponse', 2) from None


MESSAGE = DescribeClusterResponse
VERSIONS = range(0, 3)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeClusterResponse': (
        ('throttle_time_ms', 'int32', 0, 2, None),
        ('error_code', 'int16', 0, 2, None),
        ('error_message', 'string', 0, 2, None),
        ('endpoint_type', 'int8', 1, 2, None),
        ('cluster_id', 'string', 0, 2, None),
        ('controller_id', 'int32', 0, 2, 'brokerId'),
        ('brokers', '[]DescribeClusterBroker', 0, 2, None),
        ('cluster_authorized_operations', 'int32', 0, 2, None),
    ),
    'DescribeClusterBroker': (
        ('broker_id', 'int32', 0, 2, 'brokerId'),
        ('host', 'string', 0, 2, None),
        ('port', 'int32', 0, 2, None),
        ('rack', 'string', 0, 2, None),
        ('is_fenced', 'bool', 2, 2, None),
    ),
}
