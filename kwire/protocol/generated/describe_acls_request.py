# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeAclsRequest (api key 29): versions 1-3, flexible from v2."""


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
_S_bb = _Struct('>bb')
_U_bb = _S_bb.unpack_from
_P_bb = _S_bb.pack


class DescribeAclsRequest:
    """DescribeAclsRequest, versions 1-3."""

    __slots__ = ('resource_type_filter', 'resource_name_filter', 'pattern_type_filter', 'principal_filter', 'host_filter', 'operation', 'permission_type', 'unknown_tagged_fields',)

    def __init__(self, *, resource_type_filter=0, resource_name_filter='', pattern_type_filter=3, principal_filter='', host_filter='', operation=0, permission_type=0, unknown_tagged_fields=None):
        self.resource_type_filter = resource_type_filter
        self.resource_name_filter = resource_name_filter
        self.pattern_type_filter = pattern_type_filter
        self.principal_filter = principal_filter
        self.host_filter = host_filter
        self.operation = operation
        self.permission_type = permission_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.resource_type_filter == other.resource_type_filter
                and self.resource_name_filter == other.resource_name_filter
                and self.pattern_type_filter == other.pattern_type_filter
                and self.principal_filter == other.principal_filter
                and self.host_filter == other.host_filter
                and self.operation == other.operation
                and self.permission_type == other.permission_type
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeAclsRequest_v1(buf, pos):
    o = _new(DescribeAclsRequest)
    (o.resource_type_filter,) = _U_b(buf, pos)
    pos += 1
    o.resource_name_filter, pos = _r_nstr(buf, pos)
    (o.pattern_type_filter,) = _U_b(buf, pos)
    pos += 1
    o.principal_filter, pos = _r_nstr(buf, pos)
    o.host_filter, pos = _r_nstr(buf, pos)
    (o.operation, o.permission_type,) = _U_bb(buf, pos)
    pos += 2
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeAclsRequest_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeAclsRequest', 'tags')
    out += _P_b(o.resource_type_filter)
    _w_nstr(out, o.resource_name_filter)
    out += _P_b(o.pattern_type_filter)
    _w_nstr(out, o.principal_filter)
    _w_nstr(out, o.host_filter)
    out += _P_bb(o.operation, o.permission_type)


def _d_DescribeAclsRequest_v2(buf, pos):
    o = _new(DescribeAclsRequest)
    (o.resource_type_filter,) = _U_b(buf, pos)
    pos += 1
    o.resource_name_filter, pos = _r_cnstr(buf, pos)
    (o.pattern_type_filter,) = _U_b(buf, pos)
    pos += 1
    o.principal_filter, pos = _r_cnstr(buf, pos)
    o.host_filter, pos = _r_cnstr(buf, pos)
    (o.operation, o.permission_type,) = _U_bb(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeAclsRequest_v2(o, out, parts):
    out += _P_b(o.resource_type_filter)
    _w_cnstr(out, o.resource_name_filter)
    out += _P_b(o.pattern_type_filter)
    _w_cnstr(out, o.principal_filter)
    _w_cnstr(out, o.host_filter)
    out += _P_bb(o.operation, o.permission_type)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeAclsRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeAclsRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeAclsRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeAclsRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeAclsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeAclsRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeAclsRequest_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_DescribeAclsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeAclsRequest', 3) from None


MESSAGE = DescribeAclsRequest
VERSIONS = range(1, 4)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeAclsRequest': (
        ('resource_type_filter', 'int8', 0, 3, None),
        ('resource_name_filter', 'string', 0, 3, None),
        ('pattern_type_filter', 'int8', 1, 3, None),
        ('principal_filter', 'string', 0, 3, None),
        ('host_filter', 'string', 0, 3, None),
        ('operation', 'int8', 0, 3, None),
        ('permission_type', 'int8', 0, 3, None),
    ),
}
