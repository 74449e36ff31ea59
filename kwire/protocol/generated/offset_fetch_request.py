# Generated from protocol_specs by kwire.codegen -- do not edit.
"""OffsetFetchRequest (api key 9): versions 1-10, flexible from v6."""


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
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class OffsetFetchRequest:
    """OffsetFetchRequest, versions 1-10."""

    __slots__ = ('group_id', 'topics', 'groups', 'require_stable', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', topics=_MISSING, groups=None, require_stable=False, unknown_tagged_fields=None):
        self.group_id = group_id
        self.topics = [] if topics is _MISSING else topics
        self.groups = [] if groups is None else groups
        self.require_stable = require_stable
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.topics == other.topics
                and self.groups == other.groups
                and self.require_stable == other.require_stable
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetFetchRequestGroup:
    """OffsetFetchRequestGroup struct of OffsetFetchRequest, versions 8+."""

    __slots__ = ('group_id', 'member_id', 'member_epoch', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', member_id=None, member_epoch=-1, topics=_MISSING, unknown_tagged_fields=None):
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.topics = [] if topics is _MISSING else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.member_id == other.member_id
                and self.member_epoch == other.member_epoch
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetFetchRequestTopics:
    """OffsetFetchRequestTopics struct of OffsetFetchRequest, versions 8+."""

    __slots__ = ('name', 'topic_id', 'partition_indexes', 'unknown_tagged_fields',)

    def __init__(self, *, name='', topic_id=_ZERO_UUID, partition_indexes=None, unknown_tagged_fields=None):
        self.name = name
        self.topic_id = topic_id
        self.partition_indexes = [] if partition_indexes is None else partition_indexes
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.topic_id == other.topic_id
                and self.partition_indexes == other.partition_indexes
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetFetchRequestTopic:
    """OffsetFetchRequestTopic struct of OffsetFetchRequest, versions 0-7."""

    __slots__ = ('name', 'partition_indexes', 'unknown_tagged_fields',)

    def __init__(self, *, name='', partition_indexes=None, unknown_tagged_fields=None):
        self.name = name
        self.partition_indexes = [] if partition_indexes is None else partition_indexes
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.partition_indexes == other.partition_indexes
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_OffsetFetchRequestTopic_v1(buf, pos):
    o = _new(OffsetFetchRequestTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    o.partition_indexes, pos = _r_fixed(buf, pos, n, 'i')
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchRequestTopic_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchRequestTopic', 'tags')
    _w_str(out, o.name)
    x = o.partition_indexes
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_OffsetFetchRequestTopic_v6(buf, pos):
    o = _new(OffsetFetchRequestTopic)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partition_indexes, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequestTopic_v6(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partition_indexes
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequestTopics_v8(buf, pos):
    o = _new(OffsetFetchRequestTopics)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partition_indexes, pos = _r_fixed(buf, pos, n, 'i')
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequestTopics_v8(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partition_indexes
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequestTopics_v10(buf, pos):
    o = _new(OffsetFetchRequestTopics)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partition_indexes, pos = _r_fixed(buf, pos, n, 'i')
    o.name = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequestTopics_v10(o, out, parts):
    out += o.topic_id.bytes
    x = o.partition_indexes
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequestGroup_v8(buf, pos):
    o = _new(OffsetFetchRequestGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_OffsetFetchRequestTopics_v8(buf, pos)
            a.append(e)
        o.topics = a
    o.member_id = None
    o.member_epoch = -1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequestGroup_v8(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_OffsetFetchRequestTopics_v8(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequestGroup_v9(buf, pos):
    o = _new(OffsetFetchRequestGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    o.member_id, pos = _r_cnstr(buf, pos)
    (o.member_epoch,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_OffsetFetchRequestTopics_v8(buf, pos)
            a.append(e)
        o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequestGroup_v9(o, out, parts):
    _w_cstr(out, o.group_id)
    _w_cnstr(out, o.member_id)
    out += _P_i(o.member_epoch)
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_OffsetFetchRequestTopics_v8(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequestGroup_v10(buf, pos):
    o = _new(OffsetFetchRequestGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    o.member_id, pos = _r_cnstr(buf, pos)
    (o.member_epoch,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_OffsetFetchRequestTopics_v10(buf, pos)
            a.append(e)
        o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequestGroup_v10(o, out, parts):
    _w_cstr(out, o.group_id)
    _w_cnstr(out, o.member_id)
    out += _P_i(o.member_epoch)
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_OffsetFetchRequestTopics_v10(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequest_v1(buf, pos):
    o = _new(OffsetFetchRequest)
    o.group_id, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchRequestTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.groups = []
    o.require_stable = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchRequest_v1(o, out, parts):
    if o.groups != []:
        raise _FieldVersionError('OffsetFetchRequest.Groups', '8+')
    if o.require_stable != False:
        raise _FieldVersionError('OffsetFetchRequest.RequireStable', '7+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchRequest', 'tags')
    _w_str(out, o.group_id)
    if o.topics is None:
        raise _FieldVersionError('OffsetFetchRequest.Topics', 'null')
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetFetchRequestTopic_v1(e, out, parts)


def _d_OffsetFetchRequest_v2(buf, pos):
    o = _new(OffsetFetchRequest)
    o.group_id, pos = _r_str(buf, pos)
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_OffsetFetchRequestTopic_v1(buf, pos)
            a.append(e)
        o.topics = a
    o.groups = []
    o.require_stable = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchRequest_v2(o, out, parts):
    if o.groups != []:
        raise _FieldVersionError('OffsetFetchRequest.Groups', '8+')
    if o.require_stable != False:
        raise _FieldVersionError('OffsetFetchRequest.RequireStable', '7+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchRequest', 'tags')
    _w_str(out, o.group_id)
    x = o.topics
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_OffsetFetchRequestTopic_v1(e, out, parts)


def _d_OffsetFetchRequest_v6(buf, pos):
    o = _new(OffsetFetchRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_OffsetFetchRequestTopic_v6(buf, pos)
            a.append(e)
        o.topics = a
    o.groups = []
    o.require_stable = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequest_v6(o, out, parts):
    if o.groups != []:
        raise _FieldVersionError('OffsetFetchRequest.Groups', '8+')
    if o.require_stable != False:
        raise _FieldVersionError('OffsetFetchRequest.RequireStable', '7+')
    _w_cstr(out, o.group_id)
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_OffsetFetchRequestTopic_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequest_v7(buf, pos):
    o = _new(OffsetFetchRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_OffsetFetchRequestTopic_v6(buf, pos)
            a.append(e)
        o.topics = a
    (o.require_stable,) = _U_o(buf, pos)
    pos += 1
    o.groups = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequest_v7(o, out, parts):
    if o.groups != []:
        raise _FieldVersionError('OffsetFetchRequest.Groups', '8+')
    _w_cstr(out, o.group_id)
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_OffsetFetchRequestTopic_v6(e, out, parts)
    out += _P_o(o.require_stable)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequest_v8(buf, pos):
    o = _new(OffsetFetchRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchRequestGroup_v8(buf, pos)
        a.append(e)
    o.groups = a
    (o.require_stable,) = _U_o(buf, pos)
    pos += 1
    o.group_id = ''
    o.topics = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequest_v8(o, out, parts):
    if o.group_id != '':
        raise _FieldVersionError('OffsetFetchRequest.GroupId', '0-7')
    if o.topics != []:
        raise _FieldVersionError('OffsetFetchRequest.Topics', '0-7')
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchRequestGroup_v8(e, out, parts)
    out += _P_o(o.require_stable)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequest_v9(buf, pos):
    o = _new(OffsetFetchRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchRequestGroup_v9(buf, pos)
        a.append(e)
    o.groups = a
    (o.require_stable,) = _U_o(buf, pos)
    pos += 1
    o.group_id = ''
    o.topics = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequest_v9(o, out, parts):
    if o.group_id != '':
        raise _FieldVersionError('OffsetFetchRequest.GroupId', '0-7')
    if o.topics != []:
        raise _FieldVersionError('OffsetFetchRequest.Topics', '0-7')
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchRequestGroup_v9(e, out, parts)
    out += _P_o(o.require_stable)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchRequest_v10(buf, pos):
    o = _new(OffsetFetchRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchRequestGroup_v10(buf, pos)
        a.append(e)
    o.groups = a
    (o.require_stable,) = _U_o(buf, pos)
    pos += 1
    o.group_id = ''
    o.topics = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchRequest_v10(o, out, parts):
    if o.group_id != '':
        raise _FieldVersionError('OffsetFetchRequest.GroupId', '0-7')
    if o.topics != []:
        raise _FieldVersionError('OffsetFetchRequest.Topics', '0-7')
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchRequestGroup_v10(e, out, parts)
    out += _P_o(o.require_stable)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v2(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v2(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v7(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v8(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v9(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchRequest_v10(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_OffsetFetchRequest_v10(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchRequest', 10) from None


MESSAGE = OffsetFetchRequest
VERSIONS = range(1, 11)
FLEXIBLE_MIN = 6
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'OffsetFetchRequest': (
        ('group_id', 'string', 0, 7, 'groupId'),
        ('topics', '[]OffsetFetchRequestTopic', 0, 7, None),
        ('groups', '[]OffsetFetchRequestGroup', 8, 10, None),
        ('require_stable', 'bool', 7, 10, None),
    ),
    'OffsetFetchRequestGroup': (
        ('group_id', 'string', 8, 10, 'groupId'),
        ('member_id', 'string', 9, 10, None),
        ('member_epoch', 'int32', 9, 10, None),
        ('topics', '[]OffsetFetchRequestTopics', 8, 10, None),
    ),
    'OffsetFetchRequestTopics': (
        ('name', 'string', 8, 9, 'topicName'),
        ('topic_id', 'uuid', 10, 10, None),
        ('partition_indexes', '[]int32', 8, 10, None),
    ),
    'OffsetFetchRequestTopic': (
        ('name', 'string', 0, 7, 'topicName'),
        ('partition_indexes', '[]int32', 0, 7, None),
    ),
}
