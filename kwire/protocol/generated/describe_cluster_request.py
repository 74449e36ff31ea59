# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeClusterRequest (api key 60): versions 0-2, flexible from v0."""


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
_S_ob = _Struct('>?b')
_U_ob = _S_ob.unpack_from
_P_ob = _S_ob.pack
_S_obo = _Struct('>?b?')
_U_obo = _S_obo.unpack_from
_P_obo = _S_obo.pack


class DescribeClusterRequest:
    """DescribeClusterRequest, versions 0-2."""

    __slots__ = ('include_cluster_authorized_operations', 'endpoint_type', 'include_fenced_brokers', 'unknown_tagged_fields',)

    def __init__(self, *, include_cluster_authorized_operations=False, endpoint_type=1, include_fenced_brokers=False, unknown_tagged_fields=None):
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.endpoint_type = endpoint_type
        self.include_fenced_brokers = include_fenced_brokers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.include_cluster_authorized_operations == other.include_cluster_authorized_operations
                and self.endpoint_type == other.endpoint_type
                and self.include_fenced_brokers == other.include_fenced_brokers
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeClusterRequest_v0(buf, pos):
    o = _new(DescribeClusterRequest)
    (o.include_cluster_authorized_operations,) = _U_o(buf, pos)
    pos += 1
    o.endpoint_type = 1
    o.include_fenced_brokers = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeClusterRequest_v0(o, out, parts):
    if o.endpoint_type != 1:
        raise _FieldVersionError('DescribeClusterRequest.EndpointType', '1+')
    if o.include_fenced_brokers != False:
        raise _FieldVersionError('DescribeClusterRequest.IncludeFencedBrokers', '2+')
    out += _P_o(o.include_cluster_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeClusterRequest_v1(buf, pos):
    o = _new(DescribeClusterRequest)
    (o.include_cluster_authorized_operations, o.endpoint_type,) = _U_ob(buf, pos)
    pos += 2
    o.include_fenced_brokers = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeClusterRequest_v1(o, out, parts):
    if o.include_fenced_brokers != False:
        raise _FieldVersionError('DescribeClusterRequest.IncludeFencedBrokers', '2+')
    out += _P_ob(o.include_cluster_authorized_operations, o.endpoint_type)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeClusterRequest_v2(buf, pos):
    o = _new(DescribeClusterRequest)
    (o.include_cluster_authorized_operations, o.endpoint_type, o.include_fenced_brokers,) = _U_obo(buf, pos)
    pos += 3
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeClusterRequest_v2(o, out, parts):
    out += _P_obo(o.include_cluster_authorized_operations, o.endpoint_type, o.include_fenced_brokers)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeClusterRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeClusterRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeClusterRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeClusterRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeClusterRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeClusterRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeClusterRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeClusterRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeClusterRequest', 2) from None


MESSAGE = DescribeClusterRequest
VERSIONS = range(0, 3)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeClusterRequest': (
        ('include_cluster_authorized_operations', 'bool', 0, 2, None),
        ('endpoint_type', 'int8', 1, 2, None),
        ('include_fenced_brokers', 'bool', 2, 2, None),
    ),
}
