# Generated from protocol_specs by kwire.codegen -- do not edit.
"""JoinGroupRequest (api key 11): versions 0-9, flexible from v6."""


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
_S_ii = _Struct('>ii')
_U_ii = _S_ii.unpack_from
_P_ii = _S_ii.pack


class JoinGroupRequest:
    """JoinGroupRequest, versions 0-9."""

    __slots__ = ('group_id', 'session_timeout_ms', 'rebalance_timeout_ms', 'member_id', 'group_instance_id', 'protocol_type', 'protocols', 'reason', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', session_timeout_ms=0, rebalance_timeout_ms=-1, member_id='', group_instance_id=None, protocol_type='', protocols=None, reason=None, unknown_tagged_fields=None):
        self.group_id = group_id
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocols = [] if protocols is None else protocols
        self.reason = reason
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.session_timeout_ms == other.session_timeout_ms
                and self.rebalance_timeout_ms == other.rebalance_timeout_ms
                and self.member_id == other.member_id
                and self.group_instance_id == other.group_instance_id
                and self.protocol_type == other.protocol_type
                and self.protocols == other.protocols
                and self.reason == other.reason
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class JoinGroupRequestProtocol:
    """JoinGroupRequestProtocol struct of JoinGroupRequest, versions 0+."""

    __slots__ = ('name', 'metadata', 'unknown_tagged_fields',)

    def __init__(self, *, name='', metadata=b'', unknown_tagged_fields=None):
        self.name = name
        self.metadata = metadata
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.metadata == other.metadata
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_JoinGroupRequestProtocol_v0(buf, pos):
    o = _new(JoinGroupRequestProtocol)
    o.name, pos = _r_str(buf, pos)
    o.metadata, pos = _r_bytes(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_JoinGroupRequestProtocol_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('JoinGroupRequestProtocol', 'tags')
    _w_str(out, o.name)
    _w_bytes(out, o.metadata)


def _d_JoinGroupRequestProtocol_v6(buf, pos):
    o = _new(JoinGroupRequestProtocol)
    o.name, pos = _r_cstr(buf, pos)
    o.metadata, pos = _r_cbytes(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_JoinGroupRequestProtocol_v6(o, out, parts):
    _w_cstr(out, o.name)
    _w_cbytes(out, o.metadata)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_JoinGroupRequest_v0(buf, pos):
    o = _new(JoinGroupRequest)
    o.group_id, pos = _r_str(buf, pos)
    (o.session_timeout_ms,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_str(buf, pos)
    o.protocol_type, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupRequestProtocol_v0(buf, pos)
        a.append(e)
    o.protocols = a
    o.rebalance_timeout_ms = -1
    o.group_instance_id = None
    o.reason = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_JoinGroupRequest_v0(o, out, parts):
    if o.group_instance_id is not None:
        raise _FieldVersionError('JoinGroupRequest.GroupInstanceId', '5+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('JoinGroupRequest', 'tags')
    _w_str(out, o.group_id)
    out += _P_i(o.session_timeout_ms)
    _w_str(out, o.member_id)
    _w_str(out, o.protocol_type)
    x = o.protocols
    out += _P_len(len(x))
    for e in x:
        _e_JoinGroupRequestProtocol_v0(e, out, parts)


def _d_JoinGroupRequest_v1(buf, pos):
    o = _new(JoinGroupRequest)
    o.group_id, pos = _r_str(buf, pos)
    (o.session_timeout_ms, o.rebalance_timeout_ms,) = _U_ii(buf, pos)
    pos += 8
    o.member_id, pos = _r_str(buf, pos)
    o.protocol_type, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupRequestProtocol_v0(buf, pos)
        a.append(e)
    o.protocols = a
    o.group_instance_id = None
    o.reason = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_JoinGroupRequest_v1(o, out, parts):
    if o.group_instance_id is not None:
        raise _FieldVersionError('JoinGroupRequest.GroupInstanceId', '5+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('JoinGroupRequest', 'tags')
    _w_str(out, o.group_id)
    out += _P_ii(o.session_timeout_ms, o.rebalance_timeout_ms)
    _w_str(out, o.member_id)
    _w_str(out, o.protocol_type)
    x = o.protocols
    out += _P_len(len(x))
    for e in x:
        _e_JoinGroupRequestProtocol_v0(e, out, parts)


def _d_JoinGroupRequest_v5(buf, pos):
    o = _new(JoinGroupRequest)
    o.group_id, pos = _r_str(buf, pos)
    (o.session_timeout_ms, o.rebalance_timeout_ms,) = _U_ii(buf, pos)
    pos += 8
    o.member_id, pos = _r_str(buf, pos)
    o.group_instance_id, pos = _r_nstr(buf, pos)
    o.protocol_type, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupRequestProtocol_v0(buf, pos)
        a.append(e)
    o.protocols = a
    o.reason = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_JoinGroupRequest_v5(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('JoinGroupRequest', 'tags')
    _w_str(out, o.group_id)
    out += _P_ii(o.session_timeout_ms, o.rebalance_timeout_ms)
    _w_str(out, o.member_id)
    _w_nstr(out, o.group_instance_id)
    _w_str(out, o.protocol_type)
    x = o.protocols
    out += _P_len(len(x))
    for e in x:
        _e_JoinGroupRequestProtocol_v0(e, out, parts)


def _d_JoinGroupRequest_v6(buf, pos):
    o = _new(JoinGroupRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    (o.session_timeout_ms, o.rebalance_timeout_ms,) = _U_ii(buf, pos)
    pos += 8
    o.member_id, pos = _r_cstr(buf, pos)
    o.group_instance_id, pos = _r_cnstr(buf, pos)
    o.protocol_type, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupRequestProtocol_v6(buf, pos)
        a.append(e)
    o.protocols = a
    o.reason = None
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_JoinGroupRequest_v6(o, out, parts):
    _w_cstr(out, o.group_id)
    out += _P_ii(o.session_timeout_ms, o.rebalance_timeout_ms)
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.group_instance_id)
    _w_cstr(out, o.protocol_type)
    x = o.protocols
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_JoinGroupRequestProtocol_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_JoinGroupRequest_v8(buf, pos):
    o = _new(JoinGroupRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    (o.session_timeout_ms, o.rebalance_timeout_ms,) = _U_ii(buf, pos)
    pos += 8
    o.member_id, pos = _r_cstr(buf, pos)
    o.group_instance_id, pos = _r_cnstr(buf, pos)
    o.protocol_type, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_JoinGroupRequestProtocol_v6(buf, pos)
        a.append(e)
    o.protocols = a
    o.reason, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_JoinGroupRequest_v8(o, out, parts):
    _w_cstr(out, o.group_id)
    out += _P_ii(o.session_timeout_ms, o.rebalance_timeout_ms)
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.group_instance_id)
    _w_cstr(out, o.protocol_type)
    x = o.protocols
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_JoinGroupRequestProtocol_v6(e, out, parts)
    _w_cnstr(out, o.reason)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_JoinGroupRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_JoinGroupRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_JoinGroupRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v1(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_JoinGroupRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v1(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_JoinGroupRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_JoinGroupRequest_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_JoinGroupRequest_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v6(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_JoinGroupRequest_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v8(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_JoinGroupRequest_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_JoinGroupRequest_v8(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_JoinGroupRequest_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('JoinGroupRequest', 9) from None


MESSAGE = JoinGroupRequest
VERSIONS = range(0, 10)
FLEXIBLE_MIN = 6
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'JoinGroupRequest': (
        ('group_id', 'string', 0, 9, 'groupId'),
        ('session_timeout_ms', 'int32', 0, 9, None),
        ('rebalance_timeout_ms', 'int32', 1, 9, None),
        ('member_id', 'string', 0, 9, None),
        ('group_instance_id', 'string', 5, 9, None),
        ('protocol_type', 'string', 0, 9, None),
        ('protocols', '[]JoinGroupRequestProtocol', 0, 9, None),
        ('reason', 'string', 8, 9, None),
    ),
    'JoinGroupRequestProtocol': (
        ('name', 'string', 0, 9, None),
        ('metadata', 'bytes', 0, 9, None),
    ),
}
