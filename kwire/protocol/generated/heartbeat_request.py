# Generated from protocol_specs by kwire.codegen -- do not edit.
"""HeartbeatRequest (api key 12): versions 0-4, flexible from v4."""


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
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class HeartbeatRequest:
    """HeartbeatRequest, versions 0-4."""

    __slots__ = ('group_id', 'generation_id', 'member_id', 'group_instance_id', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', generation_id=0, member_id='', group_instance_id=None, unknown_tagged_fields=None):
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.generation_id == other.generation_id
                and self.member_id == other.member_id
                and self.group_instance_id == other.group_instance_id
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_HeartbeatRequest_v0(buf, pos):
    o = _new(HeartbeatRequest)
    o.group_id, pos = _r_str(buf, pos)
    (o.generation_id,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_str(buf, pos)
    o.group_instance_id = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_HeartbeatRequest_v0(o, out, parts):
    if o.group_instance_id is not None:
        raise _FieldVersionError('HeartbeatRequest.GroupInstanceId', '3+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('HeartbeatRequest', 'tags')
    _w_str(out, o.group_id)
    out += _P_i(o.generation_id)
    _w_str(out, o.member_id)


def _d_HeartbeatRequest_v3(buf, pos):
    o = _new(HeartbeatRequest)
    o.group_id, pos = _r_str(buf, pos)
    (o.generation_id,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_str(buf, pos)
    o.group_instance_id, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_HeartbeatRequest_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('HeartbeatRequest', 'tags')
    _w_str(out, o.group_id)
    out += _P_i(o.generation_id)
    _w_str(out, o.member_id)
    _w_nstr(out, o.group_instance_id)


def _d_HeartbeatRequest_v4(buf, pos):
    o = _new(HeartbeatRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    (o.generation_id,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_cstr(buf, pos)
    o.group_instance_id, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_HeartbeatRequest_v4(o, out, parts):
    _w_cstr(out, o.group_id)
    out += _P_i(o.generation_id)
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.group_instance_id)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_HeartbeatRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_HeartbeatRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('HeartbeatRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_HeartbeatRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_HeartbeatRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('HeartbeatRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_HeartbeatRequest_v0(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_HeartbeatRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('HeartbeatRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_HeartbeatRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_HeartbeatRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('HeartbeatRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_HeartbeatRequest_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_HeartbeatRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('HeartbeatRequest', 4) from None


MESSAGE = HeartbeatRequest
VERSIONS = range(0, 5)
FLEXIBLE_MIN = 4
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'HeartbeatRequest': (
        ('group_id', 'string', 0, 4, 'groupId'),
        ('generation_id', 'int32', 0, 4, None),
        ('member_id', 'string', 0, 4, None),
        ('group_instance_id', 'string', 3, 4, None),
    ),
}
