# Generated from protocol_specs by kwire.codegen -- do not edit.
"""JoinGroupResponse (api key 11): versions 0-9, flexible from v6."""


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
_S_hi = _Struct('>hi')
_U_hi = _S_hi.unpack_from
_P_hi = _S_hi.pack
_S_ihi = _Struct('>ihi')
_U_ihi = _S_ihi.unpack_from
_P_ihi = _S_ihi.pack


class JoinGroupResponse:
    """JoinGroupResponse, versions 0-9."""

    __slots__ = ('throttle_time_ms', 'error_code', 'generation_id', 'protocol_type', 'protocol_name', 'leader', 'skip_assignment', 'member_id', 'members', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, generation_id=-1, protocol_type=None, protocol_name='', leader='', skip_assignment=False, member_id='', members=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.generation_id = generation_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.leader = leader
        self.skip_assignment = skip_assignment
        self.member_id = member_id
        self.members = [] if members is None else members
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.generation_id == other.generation_id
                and self.protocol_type == other.protocol_type
                and self.protocol_name == other.protocol_name
                and self.leader == other.leader
                and self.skip_assignment == other.skip_assignment
                and self.member_id == other.member_id
                and self.members == other.members
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class JoinGroupResponseMember:
    """JoinGroupResponseMember struct of JoinGroupResponse, versions 0+."""

    __slots__ = ('member_id', 'group_instance_id', 'metadata', 'unknown_tagged_fields',)

    def __init__(self, *, member_id='', group_instance_id=None, metadata=b'', unknown_tagged_fields=None):
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.metadata = metadata
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.member_id == other.member_id
                and self.group_instance_id == other.group_instance_id
                and self.metadata == other.metadata
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_JoinGroupResponseMember_v0(buf, pos):
    o = _new(JoinGroupResponseMember)
    o.member_id, pos = _r_str(buf, pos)
    o.metadata, pos = _r_bytes(buf, pos)
    o.group_instance_id = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_JoinGroupResponseMember_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('JoinGroupResponseMember', 'tags')
    _w_str(out, o.member_id)
    _w_bytes(out, o.metadata)


def _d_JoinGroupResponseMember_v5(buf, pos):
    o = _new(JoinGroupResponseMember)
    o.member_id, pos = _r_str(buf, pos)
    o.group_instance_id, pos = _r_nstr(buf, pos)
    o.metadata, pos = _r_bytes(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_JoinGroupResponseMember_v5(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('JoinGroupResponseMember', 'tags')
    _w_str(out, o.member_id)
    _w_nstr(out, o.group_instance_id)
    _w_bytes(out, o.metadata)


def _d_JoinGroupResponseMember_v6(buf, pos):
    o = _new(JoinGroupResponseMember)
    o.member_id, pos = _r_cstr(buf, pos)
    o.group_instance_id, pos = _r_cnstr(buf, pos)
    o.metadata, pos = _r_cbytes(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_JoinGroupResponseMember_v6(o, out, parts):
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.group_instance_id)
    _w_cbytes(out, o.metadata)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_JoinGroupResponse_v0(buf, pos):
    o = _new(JoinGroupResponse)
    (o.error_code, o.generation_id,) = _U_hi(buf, pos)
    pos += 6
    o.protocol_name, pos = _r_str(buf, pos)
    o.leader, pos = _r_str(buf, pos)
    o.member_id, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupResponseMember_v0(buf, pos)
        a.append(e)
    o.members = a
    o.throttle_time_ms = 0
    o.protocol_type = None
    o.skip_assignment = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_JoinGroupResponse_v0(o, out, parts):
    if o.skip_assignment != False:
        raise _FieldVersionError('JoinGroupResponse.SkipAssignment', '9+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('JoinGroupResponse', 'tags')
    out += _P_hi(o.error_code, o.generation_id)
    if o.protocol_name is None:
        raise _FieldVersionError('JoinGroupResponse.ProtocolName', 'null')
    _w_str(out, o.protocol_name)
    _w_str(out, o.leader)
    _w_str(out, o.member_id)
    x = o.members
    out += _P_len(len(x))
    for e in x:
        _e_JoinGroupResponseMember_v0(e, out, parts)


def _d_JoinGroupResponse_v2(buf, pos):
    o = _new(JoinGroupResponse)
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _U_ihi(buf, pos)
    pos += 10
    o.protocol_name, pos = _r_str(buf, pos)
    o.leader, pos = _r_str(buf, pos)
    o.member_id, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupResponseMember_v0(buf, pos)
        a.append(e)
    o.members = a
    o.protocol_type = None
    o.skip_assignment = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_JoinGroupResponse_v2(o, out, parts):
    if o.skip_assignment != False:
        raise _FieldVersionError('JoinGroupResponse.SkipAssignment', '9+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('JoinGroupResponse', 'tags')
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.generation_id)
    if o.protocol_name is None:
        raise _FieldVersionError('JoinGroupResponse.ProtocolName', 'null')
    _w_str(out, o.protocol_name)
    _w_str(out, o.leader)
    _w_str(out, o.member_id)
    x = o.members
    out += _P_len(len(x))
    for e in x:
        _e_JoinGroupResponseMember_v0(e, out, parts)


def _d_JoinGroupResponse_v5(buf, pos):
    o = _new(JoinGroupResponse)
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _U_ihi(buf, pos)
    pos += 10
    o.protocol_name, pos = _r_str(buf, pos)
    o.leader, pos = _r_str(buf, pos)
    o.member_id, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupResponseMember_v5(buf, pos)
        a.append(e)
    o.members = a
    o.protocol_type = None
    o.skip_assignment = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_JoinGroupResponse_v5(o, out, parts):
    if o.skip_assignment != False:
        raise _FieldVersionError('JoinGroupResponse.SkipAssignment', '9+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('JoinGroupResponse', 'tags')
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.generation_id)
    if o.protocol_name is None:
        raise _FieldVersionError('JoinGroupResponse.ProtocolName', 'null')
    _w_str(out, o.protocol_name)
    _w_str(out, o.leader)
    _w_str(out, o.member_id)
    x = o.members
    out += _P_len(len(x))
    for e in x:
        _e_JoinGroupResponseMember_v5(e, out, parts)


def _d_JoinGroupResponse_v6(buf, pos):
    o = _new(JoinGroupResponse)
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _U_ihi(buf, pos)
    pos += 10
    o.protocol_name, pos = _r_cstr(buf, pos)
    o.leader, pos = _r_cstr(buf, pos)
    o.member_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupResponseMember_v6(buf, pos)
        a.append(e)
    o.members = a
    o.protocol_type = None
    o.skip_assignment = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_JoinGroupResponse_v6(o, out, parts):
    if o.skip_assignment != False:
        raise _FieldVersionError('JoinGroupResponse.SkipAssignment', '9+')
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.generation_id)
    if o.protocol_name is None:
        raise _FieldVersionError('JoinGroupResponse.ProtocolName', 'null')
    _w_cstr(out, o.protocol_name)
    _w_cstr(out, o.leader)
    _w_cstr(out, o.member_id)
    x = o.members
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_JoinGroupResponseMember_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_JoinGroupResponse_v7(buf, pos):
    o = _new(JoinGroupResponse)
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _U_ihi(buf, pos)
    pos += 10
    o.protocol_type, pos = _r_cnstr(buf, pos)
    o.protocol_name, pos = _r_cnstr(buf, pos)
    o.leader, pos = _r_cstr(buf, pos)
    o.member_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupResponseMember_v6(buf, pos)
        a.append(e)
    o.members = a
    o.skip_assignment = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_JoinGroupResponse_v7(o, out, parts):
    if o.skip_assignment != False:
        raise _FieldVersionError('JoinGroupResponse.SkipAssignment', '9+')
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.generation_id)
    _w_cnstr(out, o.protocol_type)
    _w_cnstr(out, o.protocol_name)
    _w_cstr(out, o.leader)
    _w_cstr(out, o.member_id)
    x = o.members
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_JoinGroupResponseMember_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_JoinGroupResponse_v9(buf, pos):
    o = _new(JoinGroupResponse)
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _U_ihi(buf, pos)
    pos += 10
    o.protocol_type, pos = _r_cnstr(buf, pos)
    o.protocol_name, pos = _r_cnstr(buf, pos)
    o.leader, pos = _r_cstr(buf, pos)
    (o.skip_assignment,) = _U_o(buf, pos)
    pos += 1
    o.member_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupResponseMember_v6(buf, pos)
        a.append(e)
    o.members = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_JoinGroupResponse_v9(o, out, parts):
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.generation_id)
    _w_cnstr(out, o.protocol_type)
    _w_cnstr(out, o.protocol_name)
    _w_cstr(out, o.leader)
    out += _P_o(o.skip_assignment)
    _w_cstr(out, o.member_id)
    x = o.members
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_JoinGroupResponseMember_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_JoinGroupResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_JoinGroupResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_JoinGroupResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_JoinGroupResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v2(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_JoinGroupResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_JoinGroupResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_JoinGroupResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v7(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_JoinGroupResponse_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v7(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_JoinGroupResponse_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupResponse_v9(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_JoinGroupResponse_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupResponse', 9) from None


MESSAGE = JoinGroupResponse
VERSIONS = range(0, 10)
FLEXIBLE_MIN = 6
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'JoinGroupResponse': (
        ('throttle_time_ms', 'int32', 2, 9, None),
        ('error_code', 'int16', 0, 9, None),
        ('generation_id', 'int32', 0, 9, None),
        ('protocol_type', 'string', 7, 9, None),
        ('protocol_name', 'string', 0, 9, None),
        ('leader', 'string', 0, 9, None),
        ('skip_assignment', 'bool', 9, 9, None),
        ('member_id', 'string', 0, 9, None),
        ('members', '[]JoinGroupResponseMember', 0, 9, None),
    ),
    'JoinGroupResponseMember': (
        ('member_id', 'string', 0, 9, None),
        ('group_instance_id', 'string', 5, 9, None),
        ('metadata', 'bytes', 0, 9, None),
    ),
}
