# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ConsumerGroupDescribeRequest (api key 69): versions 0-1, flexible from v0."""


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


class ConsumerGroupDescribeRequest:
    """ConsumerGroupDescribeRequest, versions 0-1."""

    __slots__ = ('group_ids', 'include_authorized_operations', 'unknown_tagged_fields',)

    def __init__(self, *, group_ids=None, include_authorized_operations=False, unknown_tagged_fields=None):
        self.group_ids = [] if group_ids is None else group_ids
        self.include_authorized_operations = include_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_ids == other.group_ids
                and self.include_authorized_operations == other.include_authorized_operations
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ConsumerGroupDescribeRequest_v0(buf, pos):
    o = _new(ConsumerGroupDescribeRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_cstr(buf, pos)
        a.append(e)
    o.group_ids = a
    (o.include_authorized_operations,) = _U_o(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ConsumerGroupDescribeRequest_v0(o, out, parts):
    x = o.group_ids
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _w_cstr(out, e)
    out += _P_o(o.include_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerGroupDescribeRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ConsumerGroupDescribeRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerGroupDescribeRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerGroupDescribeRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ConsumerGroupDescribeRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerGroupDescribeRequest', 1) from None


MESSAGE = ConsumerGroupDescribeRequest
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ConsumerGroupDescribeRequest': (
        ('group_ids', '[]string', 0, 1, 'groupId'),
        ('include_authorized_operations', 'bool', 0, 1, None),
    ),
}
