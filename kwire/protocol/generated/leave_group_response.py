# Generated from protocol_specs by kwire.codegen -- do not edit.
"""LeaveGroupResponse (api key 13): versions 0-5, flexible from v4."""


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
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class LeaveGroupResponse:
    """LeaveGroupResponse, versions 0-5."""

    __slots__ = ('throttle_time_ms', 'error_code', 'members', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, members=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.members = [] if members is None else members
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.members == other.members
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class MemberResponse:
    """MemberResponse struct of LeaveGroupResponse, versions 3+."""

    __slots__ = ('member_id', 'group_instance_id', 'error_code', 'unknown_tagged_fields',)

    def __init__(self, *, member_id='', group_instance_id='', error_code=0, unknown_tagged_fields=None):
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.member_id == other.member_id
                and self.group_instance_id == other.group_instance_id
                and self.error_code == other.error_code
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_MemberResponse_v3(buf, pos):
    o = _new(MemberResponse)
    o.member_id, pos = _r_str(buf, pos)
    o.group_instance_id, pos = _r_nstr(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MemberResponse_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MemberResponse', 'tags')
    _w_str(out, o.member_id)
    _w_nstr(out, o.group_instance_id)
    out += _P_h(o.error_code)


def _d_MemberResponse_v4(buf, pos):
    o = _new(MemberResponse)
    o.member_id, pos = _r_cstr(buf, pos)
    o.group_instance_id, pos = _r_cnstr(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MemberResponse_v4(o, out, parts):
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.group_instance_id)
    out += _P_h(o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_LeaveGroupResponse_v0(buf, pos):
    o = _new(LeaveGroupResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.throttle_time_ms = 0
    o.members = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_LeaveGroupResponse_v0(o, out, parts):
    if o.members != []:
        raise _FieldVersionError('LeaveGroupResponse.Members', '3+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('LeaveGroupResponse', 'tags')
    out += _P_h(o.error_code)


def _d_LeaveGroupResponse_v1(buf, pos):
    o = _new(LeaveGroupResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.members = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_LeaveGroupResponse_v1(o, out, parts):
    if o.members != []:
        raise _FieldVersionError('LeaveGroupResponse.Members', '3+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('LeaveGroupResponse', 'tags')
    out += _P_ih(o.throttle_time_ms, o.error_code)


def _d_LeaveGroupResponse_v3(buf, pos):
    o = _new(LeaveGroupResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MemberResponse_v3(buf, pos)
        a.append(e)
    o.members = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_LeaveGroupResponse_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('LeaveGroupResponse', 'tags')
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.members
    out += _P_len(len(x))
    for e in x:
        _e_MemberResponse_v3(e, out, parts)


def _d_LeaveGroupResponse_v4(buf, pos):
    o = _new(LeaveGroupResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MemberResponse_v4(buf, pos)
        a.append(e)
    o.members = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_LeaveGroupResponse_v4(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.members
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MemberResponse_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_LeaveGroupResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_LeaveGroupResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('LeaveGroupResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_LeaveGroupResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_LeaveGroupResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('LeaveGroupResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_LeaveGroupResponse_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_LeaveGroupResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('LeaveGroupResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_LeaveGroupResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_LeaveGroupResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('LeaveGroupResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_LeaveGroupResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_LeaveGroupResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('LeaveGroupResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_LeaveGroupResponse_v4(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_LeaveGroupResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('LeaveGroupResponse', 5) from None


MESSAGE = LeaveGroupResponse
VERSIONS = range(0, 6)
FLEXIBLE_MIN = 4
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'LeaveGroupResponse': (
        ('throttle_time_ms', 'int32', 1, 5, None),
        ('error_code', 'int16', 0, 5, None),
        ('members', '[]MemberResponse', 3, 5, None),
    ),
    'MemberResponse': (
        ('member_id', 'string', 3, 5, None),
        ('group_instance_id', 'string', 3, 5, None),
        ('error_code', 'int16', 3, 5, None),
    ),
}
