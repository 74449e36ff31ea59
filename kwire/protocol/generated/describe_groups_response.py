# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeGroupsResponse (api key 15): versions 0-6, flexible from v5."""


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


class DescribeGroupsResponse:
    """DescribeGroupsResponse, versions 0-6."""

    __slots__ = ('throttle_time_ms', 'groups', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, groups=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is None else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.groups == other.groups
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribedGroup:
    """DescribedGroup struct of DescribeGroupsResponse, versions 0+."""

    __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'protocol_type', 'protocol_data', 'members', 'authorized_operations', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, error_message=None, group_id='', group_state='', protocol_type='', protocol_data='', members=None, authorized_operations=-2147483648, unknown_tagged_fields=None):
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.protocol_type = protocol_type
        self.protocol_data = protocol_data
        self.members = [] if members is None else members
        self.authorized_operations = authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.group_id == other.group_id
                and self.group_state == other.group_state
                and self.protocol_type == other.protocol_type
                and self.protocol_data == other.protocol_data
                and self.members == other.members
                and self.authorized_operations == other.authorized_operations
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribedGroupMember:
    """DescribedGroupMember struct of DescribeGroupsResponse, versions 0+."""

    __slots__ = ('member_id', 'group_instance_id', 'client_id', 'client_host', 'member_metadata', 'member_assignment', 'unknown_tagged_fields',)

    def __init__(self, *, member_id='', group_instance_id=None, client_id='', client_host='', member_metadata=b'', member_assignment=b'', unknown_tagged_fields=None):
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.member_metadata = member_metadata
        self.member_assignment = member_assignment
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.member_id == other.member_id
                and self.group_instance_id == other.group_instance_id
                and self.client_id == other.client_id
                and self.client_host == other.client_host
                and self.member_metadata == other.member_metadata
                and self.member_assignment == other.member_assignment
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribedGroupMember_v0(buf, pos):
    o = _new(DescribedGroupMember)
    o.member_id, pos = _r_str(buf, pos)
    o.client_id, pos = _r_str(buf, pos)
    o.client_host, pos = _r_str(buf, pos)
    o.member_metadata, pos = _r_bytes(buf, pos)
    o.member_assignment, pos = _r_bytes(buf, pos)
    o.group_instance_id = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribedGroupMember_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribedGroupMember', 'tags')
    _w_str(out, o.member_id)
    _w_str(out, o.client_id)
    _w_str(out, o.client_host)
    _w_bytes(out, o.member_metadata)
    _w_bytes(out, o.member_assignment)


def _d_DescribedGroupMember_v4(buf, pos):
    o = _new(DescribedGroupMember)
    o.member_id, pos = _r_str(buf, pos)
    o.group_instance_id, pos = _r_nstr(buf, pos)
    o.client_id, pos = _r_str(buf, pos)
    o.client_host, pos = _r_str(buf, pos)
    o.member_metadata, pos = _r_bytes(buf, pos)
    o.member_assignment, pos = _r_bytes(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribedGroupMember_v4(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribedGroupMember', 'tags')
    _w_str(out, o.member_id)
    _w_nstr(out, o.group_instance_id)
    _w_str(out, o.client_id)
    _w_str(out, o.client_host)
    _w_bytes(out, o.member_metadata)
    _w_bytes(out, o.member_assignment)


def _d_DescribedGroupMember_v5(buf, pos):
    o = _new(DescribedGroupMember)
    o.member_id, pos = _r_cstr(buf, pos)
    o.group_instance_id, pos = _r_cnstr(buf, pos)
    o.client_id, pos = _r_cstr(buf, pos)
    o.client_host, pos = _r_cstr(buf, pos)
    o.member_metadata, pos = _r_cbytes(buf, pos)
    o.member_assignment, pos = _r_cbytes(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribedGroupMember_v5(o, out, parts):
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.group_instance_id)
    _w_cstr(out, o.client_id)
    _w_cstr(out, o.client_host)
    _w_cbytes(out, o.member_metadata)
    _w_cbytes(out, o.member_assignment)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribedGroup_v0(buf, pos):
    o = _new(DescribedGroup)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.group_id, pos = _r_str(buf, pos)
    o.group_state, pos = _r_str(buf, pos)
    o.protocol_type, pos = _r_str(buf, pos)
    o.protocol_data, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroupMember_v0(buf, pos)
        a.append(e)
    o.members = a
    o.error_message = None
    o.authorized_operations = -2147483648
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribedGroup_v0(o, out, parts):
    if o.error_message is not None:
        raise _FieldVersionError('DescribedGroup.ErrorMessage', '6+')
    if o.authorized_operations != -2147483648:
        raise _FieldVersionError('DescribedGroup.AuthorizedOperations', '3+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribedGroup', 'tags')
    out += _P_h(o.error_code)
    _w_str(out, o.group_id)
    _w_str(out, o.group_state)
    _w_str(out, o.protocol_type)
    _w_str(out, o.protocol_data)
    x = o.members
    out += _P_len(len(x))
    for e in x:
        _e_DescribedGroupMember_v0(e, out, parts)


def _d_DescribedGroup_v3(buf, pos):
    o = _new(DescribedGroup)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.group_id, pos = _r_str(buf, pos)
    o.group_state, pos = _r_str(buf, pos)
    o.protocol_type, pos = _r_str(buf, pos)
    o.protocol_data, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroupMember_v0(buf, pos)
        a.append(e)
    o.members = a
    (o.authorized_operations,) = _U_i(buf, pos)
    pos += 4
    o.error_message = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribedGroup_v3(o, out, parts):
    if o.error_message is not None:
        raise _FieldVersionError('DescribedGroup.ErrorMessage', '6+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribedGroup', 'tags')
    out += _P_h(o.error_code)
    _w_str(out, o.group_id)
    _w_str(out, o.group_state)
    _w_str(out, o.protocol_type)
    _w_str(out, o.protocol_data)
    x = o.members
    out += _P_len(len(x))
    for e in x:
        _e_DescribedGroupMember_v0(e, out, parts)
    out += _P_i(o.authorized_operations)


def _d_DescribedGroup_v4(buf, pos):
    o = _new(DescribedGroup)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.group_id, pos = _r_str(buf, pos)
    o.group_state, pos = _r_str(buf, pos)
    o.protocol_type, pos = _r_str(buf, pos)
    o.protocol_data, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroupMember_v4(buf, pos)
        a.append(e)
    o.members = a
    (o.authorized_operations,) = _U_i(buf, pos)
    pos += 4
    o.error_message = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribedGroup_v4(o, out, parts):
    if o.error_message is not None:
        raise _FieldVersionError('DescribedGroup.ErrorMessage', '6+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribedGroup', 'tags')
    out += _P_h(o.error_code)
    _w_str(out, o.group_id)
    _w_str(out, o.group_state)
    _w_str(out, o.protocol_type)
    _w_str(out, o.protocol_data)
    x = o.members
    out += _P_len(len(x))
    for e in x:
        _e_DescribedGroupMember_v4(e, out, parts)
    out += _P_i(o.authorized_operations)


def _d_DescribedGroup_v5(buf, pos):
    o = _new(DescribedGroup)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.group_id, pos = _r_cstr(buf, pos)
    o.group_state, pos = _r_cstr(buf, pos)
    o.protocol_type, pos = _r_cstr(buf, pos)
    o.protocol_data, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroupMember_v5(buf, pos)
        a.append(e)
    o.members = a
    (o.authorized_operations,) = _U_i(buf, pos)
    pos += 4
    o.error_message = None
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribedGroup_v5(o, out, parts):
    if o.error_message is not None:
        raise _FieldVersionError('DescribedGroup.ErrorMessage', '6+')
    out += _P_h(o.error_code)
    _w_cstr(out, o.group_id)
    _w_cstr(out, o.group_state)
    _w_cstr(out, o.protocol_type)
    _w_cstr(out, o.protocol_data)
    x = o.members
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribedGroupMember_v5(e, out, parts)
    out += _P_i(o.authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribedGroup_v6(buf, pos):
    o = _new(DescribedGroup)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    o.group_id, pos = _r_cstr(buf, pos)
    o.group_state, pos = _r_cstr(buf, pos)
    o.protocol_type, pos = _r_cstr(buf, pos)
    o.protocol_data, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroupMember_v5(buf, pos)
        a.append(e)
    o.members = a
    (o.authorized_operations,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribedGroup_v6(o, out, parts):
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    _w_cstr(out, o.group_id)
    _w_cstr(out, o.group_state)
    _w_cstr(out, o.protocol_type)
    _w_cstr(out, o.protocol_data)
    x = o.members
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribedGroupMember_v5(e, out, parts)
    out += _P_i(o.authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeGroupsResponse_v0(buf, pos):
    o = _new(DescribeGroupsResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroup_v0(buf, pos)
        a.append(e)
    o.groups = a
    o.throttle_time_ms = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeGroupsResponse_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeGroupsResponse', 'tags')
    x = o.groups
    out += _P_len(len(x))
    for e in x:
        _e_DescribedGroup_v0(e, out, parts)


def _d_DescribeGroupsResponse_v1(buf, pos):
    o = _new(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroup_v0(buf, pos)
        a.append(e)
    o.groups = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeGroupsResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeGroupsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    out += _P_len(len(x))
    for e in x:
        _e_DescribedGroup_v0(e, out, parts)


def _d_DescribeGroupsResponse_v3(buf, pos):
    o = _new(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroup_v3(buf, pos)
        a.append(e)
    o.groups = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeGroupsResponse_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeGroupsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    out += _P_len(len(x))
    for e in x:
        _e_DescribedGroup_v3(e, out, parts)


def _d_DescribeGroupsResponse_v4(buf, pos):
    o = _new(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroup_v4(buf, pos)
        a.append(e)
    o.groups = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeGroupsResponse_v4(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeGroupsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    out += _P_len(len(x))
    for e in x:
        _e_DescribedGroup_v4(e, out, parts)


def _d_DescribeGroupsResponse_v5(buf, pos):
    o = _new(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroup_v5(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeGroupsResponse_v5(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribedGroup_v5(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeGroupsResponse_v6(buf, pos):
    o = _new(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroup_v6(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeGroupsResponse_v6(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribedGroup_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeGroupsResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeGroupsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeGroupsResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeGroupsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeGroupsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeGroupsResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeGroupsResponse_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeGroupsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeGroupsResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeGroupsResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_DescribeGroupsResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeGroupsResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeGroupsResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_DescribeGroupsResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeGroupsResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeGroupsResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_DescribeGroupsResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeGroupsResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeGroupsResponse_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_DescribeGroupsResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeGroupsResponse', 6) from None


MESSAGE = DescribeGroupsResponse
VERSIONS = range(0, 7)
FLEXIBLE_MIN = 5
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeGroupsResponse': (
        ('throttle_time_ms', 'int32', 1, 6, None),
        ('groups', '[]DescribedGroup', 0, 6, None),
    ),
    'DescribedGroup': (
        ('error_code', 'int16', 0, 6, None),
        ('error_message', 'string', 6, 6, None),
        ('group_id', 'string', 0, 6, 'groupId'),
        ('group_state', 'string', 0, 6, None),
        ('protocol_type', 'string', 0, 6, None),
        ('protocol_data', 'string', 0, 6, None),
        ('members', '[]DescribedGroupMember', 0, 6, None),
        ('authorized_operations', 'int32', 3, 6, None),
    ),
    'DescribedGroupMember': (
        ('member_id', 'string', 0, 6, None),
        ('group_instance_id', 'string', 4, 6, None),
        ('client_id', 'string', 0, 6, None),
        ('client_host', 'string', 0, 6, None),
        ('member_metadata', 'bytes', 0, 6, None),
        ('member_assignment', 'bytes', 0, 6, None),
    ),
}
