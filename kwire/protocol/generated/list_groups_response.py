# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ListGroupsResponse (api key 16): versions 0-5, flexible from v3."""


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


class ListGroupsResponse:
    """ListGroupsResponse, versions 0-5."""

    __slots__ = ('throttle_time_ms', 'error_code', 'groups', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, groups=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.groups = [] if groups is None else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.groups == other.groups
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ListedGroup:
    """ListedGroup struct of ListGroupsResponse, versions 0+."""

    __slots__ = ('group_id', 'protocol_type', 'group_state', 'group_type', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', protocol_type='', group_state='', group_type='', unknown_tagged_fields=None):
        self.group_id = group_id
        self.protocol_type = protocol_type
        self.group_state = group_state
        self.group_type = group_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.protocol_type == other.protocol_type
                and self.group_state == other.group_state
                and self.group_type == other.group_type
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ListedGroup_v0(buf, pos):
    o = _new(ListedGroup)
    o.group_id, pos = _r_str(buf, pos)
    o.protocol_type, pos = _r_str(buf, pos)
    o.group_state = ''
    o.group_type = ''
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListedGroup_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListedGroup', 'tags')
    _w_str(out, o.group_id)
    _w_str(out, o.protocol_type)


def _d_ListedGroup_v3(buf, pos):
    o = _new(ListedGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    o.protocol_type, pos = _r_cstr(buf, pos)
    o.group_state = ''
    o.group_type = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListedGroup_v3(o, out, parts):
    _w_cstr(out, o.group_id)
    _w_cstr(out, o.protocol_type)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ListedGroup_v4(buf, pos):
    o = _new(ListedGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    o.protocol_type, pos = _r_cstr(buf, pos)
    o.group_state, pos = _r_cstr(buf, pos)
    o.group_type = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListedGroup_v4(o, out, parts):
    _w_cstr(out, o.group_id)
    _w_cstr(out, o.protocol_type)
    _w_cstr(out, o.group_state)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ListedGroup_v5(buf, pos):
    o = _new(ListedGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    o.protocol_type, pos = _r_cstr(buf, pos)
    o.group_state, pos = _r_cstr(buf, pos)
    o.group_type, pos = _r_cstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListedGroup_v5(o, out, parts):
    _w_cstr(out, o.group_id)
    _w_cstr(out, o.protocol_type)
    _w_cstr(out, o.group_state)
    _w_cstr(out, o.group_type)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ListGroupsResponse_v0(buf, pos):
    o = _new(ListGroupsResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListedGroup_v0(buf, pos)
        a.append(e)
    o.groups = a
    o.throttle_time_ms = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListGroupsResponse_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListGroupsResponse', 'tags')
    out += _P_h(o.error_code)
    x = o.groups
    out += _P_len(len(x))
    for e in x:
        _e_ListedGroup_v0(e, out, parts)


def _d_ListGroupsResponse_v1(buf, pos):
    o = _new(ListGroupsResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListedGroup_v0(buf, pos)
        a.append(e)
    o.groups = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListGroupsResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListGroupsResponse', 'tags')
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.groups
    out += _P_len(len(x))
    for e in x:
        _e_ListedGroup_v0(e, out, parts)


def _d_ListGroupsResponse_v3(buf, pos):
    o = _new(ListGroupsResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListedGroup_v3(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListGroupsResponse_v3(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ListedGroup_v3(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ListGroupsResponse_v4(buf, pos):
    o = _new(ListGroupsResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListedGroup_v4(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListGroupsResponse_v4(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ListedGroup_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ListGroupsResponse_v5(buf, pos):
    o = _new(ListGroupsResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListedGroup_v5(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListGroupsResponse_v5(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ListedGroup_v5(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListGroupsResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ListGroupsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListGroupsResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListGroupsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ListGroupsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListGroupsResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListGroupsResponse_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ListGroupsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListGroupsResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListGroupsResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_ListGroupsResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListGroupsResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListGroupsResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_ListGroupsResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListGroupsResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListGroupsResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_ListGroupsResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListGroupsResponse', 5) from None


MESSAGE = ListGroupsResponse
VERSIONS = range(0, 6)
FLEXIBLE_MIN = 3
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ListGroupsResponse': (
        ('throttle_time_ms', 'int32', 1, 5, None),
        ('error_code', 'int16', 0, 5, None),
        ('groups', '[]ListedGroup', 0, 5, None),
    ),
    'ListedGroup': (
        ('group_id', 'string', 0, 5, 'groupId'),
        ('protocol_type', 'string', 0, 5, None),
        ('group_state', 'string', 4, 5, None),
        ('group_type', 'string', 5, 5, None),
    ),
}
