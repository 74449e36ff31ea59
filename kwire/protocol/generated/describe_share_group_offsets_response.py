# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeShareGroupOffsetsResponse (api key 90): versions 0-1, flexible from v0."""


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
_S_iqih = _Struct('>iqih')
_U_iqih = _S_iqih.unpack_from
_P_iqih = _S_iqih.pack
_S_iqiqh = _Struct('>iqiqh')
_U_iqiqh = _S_iqiqh.unpack_from
_P_iqiqh = _S_iqiqh.pack


class DescribeShareGroupOffsetsResponse:
    """DescribeShareGroupOffsetsResponse, versions 0-1."""

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


class DescribeShareGroupOffsetsResponseGroup:
    """DescribeShareGroupOffsetsResponseGroup struct of DescribeShareGroupOffsetsResponse, versions 0+."""

    __slots__ = ('group_id', 'topics', 'error_code', 'error_message', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', topics=None, error_code=0, error_message=None, unknown_tagged_fields=None):
        self.group_id = group_id
        self.topics = [] if topics is None else topics
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.topics == other.topics
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeShareGroupOffsetsResponseTopic:
    """DescribeShareGroupOffsetsResponseTopic struct of DescribeShareGroupOffsetsResponse, versions 0+."""

    __slots__ = ('topic_name', 'topic_id', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic_name='', topic_id=_ZERO_UUID, partitions=None, unknown_tagged_fields=None):
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_name == other.topic_name
                and self.topic_id == other.topic_id
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeShareGroupOffsetsResponsePartition:
    """DescribeShareGroupOffsetsResponsePartition struct of DescribeShareGroupOffsetsResponse, versions 0+."""

    __slots__ = ('partition_index', 'start_offset', 'leader_epoch', 'lag', 'error_code', 'error_message', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, start_offset=0, leader_epoch=0, lag=-1, error_code=0, error_message=None, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.start_offset = start_offset
        self.leader_epoch = leader_epoch
        self.lag = lag
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.start_offset == other.start_offset
                and self.leader_epoch == other.leader_epoch
                and self.lag == other.lag
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeShareGroupOffsetsResponsePartition_v0(buf, pos):
    o = _new(DescribeShareGroupOffsetsResponsePartition)
    (o.partition_index, o.start_offset, o.leader_epoch, o.error_code,) = _U_iqih(buf, pos)
    pos += 18
    o.error_message, pos = _r_cnstr(buf, pos)
    o.lag = -1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsResponsePartition_v0(o, out, parts):
    out += _P_iqih(o.partition_index, o.start_offset, o.leader_epoch, o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeShareGroupOffsetsResponsePartition_v1(buf, pos):
    o = _new(DescribeShareGroupOffsetsResponsePartition)
    (o.partition_index, o.start_offset, o.leader_epoch, o.lag, o.error_code,) = _U_iqiqh(buf, pos)
    pos += 26
    o.error_message, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsResponsePartition_v1(o, out, parts):
    out += _P_iqiqh(o.partition_index, o.start_offset, o.leader_epoch, o.lag, o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeShareGroupOffsetsResponseTopic_v0(buf, pos):
    o = _new(DescribeShareGroupOffsetsResponseTopic)
    o.topic_name, pos = _r_cstr(buf, pos)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeShareGroupOffsetsResponsePartition_v0(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsResponseTopic_v0(o, out, parts):
    _w_cstr(out, o.topic_name)
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeShareGroupOffsetsResponsePartition_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeShareGroupOffsetsResponseTopic_v1(buf, pos):
    o = _new(DescribeShareGroupOffsetsResponseTopic)
    o.topic_name, pos = _r_cstr(buf, pos)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeShareGroupOffsetsResponsePartition_v1(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsResponseTopic_v1(o, out, parts):
    _w_cstr(out, o.topic_name)
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeShareGroupOffsetsResponsePartition_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeShareGroupOffsetsResponseGroup_v0(buf, pos):
    o = _new(DescribeShareGroupOffsetsResponseGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeShareGroupOffsetsResponseTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsResponseGroup_v0(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeShareGroupOffsetsResponseTopic_v0(e, out, parts)
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeShareGroupOffsetsResponseGroup_v1(buf, pos):
    o = _new(DescribeShareGroupOffsetsResponseGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeShareGroupOffsetsResponseTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsResponseGroup_v1(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeShareGroupOffsetsResponseTopic_v1(e, out, parts)
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeShareGroupOffsetsResponse_v0(buf, pos):
    o = _new(DescribeShareGroupOffsetsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeShareGroupOffsetsResponseGroup_v0(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsResponse_v0(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeShareGroupOffsetsResponseGroup_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeShareGroupOffsetsResponse_v1(buf, pos):
    o = _new(DescribeShareGroupOffsetsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeShareGroupOffsetsResponseGroup_v1(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsResponse_v1(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeShareGroupOffsetsResponseGroup_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeShareGroupOffsetsResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeShareGroupOffsetsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeShareGroupOffsetsResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeShareGroupOffsetsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeShareGroupOffsetsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeShareGroupOffsetsResponse', 1) from None


MESSAGE = DescribeShareGroupOffsetsResponse
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeShareGroupOffsetsResponse': (
        ('throttle_time_ms', 'int32', 0, 1, None),
        ('groups', '[]DescribeShareGroupOffsetsResponseGroup', 0, 1, None),
    ),
    'DescribeShareGroupOffsetsResponseGroup': (
        ('group_id', 'string', 0, 1, 'groupId'),
        ('topics', '[]DescribeShareGroupOffsetsResponseTopic', 0, 1, None),
        ('error_code', 'int16', 0, 1, None),
        ('error_message', 'string', 0, 1, None),
    ),
    'DescribeShareGroupOffsetsResponseTopic': (
        ('topic_name', 'string', 0, 1, 'topicName'),
        ('topic_id', 'uuid', 0, 1, None),
        ('partitions', '[]DescribeShareGroupOffsetsResponsePartition', 0, 1, None),
    ),
    'DescribeShareGroupOffsetsResponsePartition': (
        ('partition_index', 'int32', 0, 1, None),
        ('start_offset', 'int64', 0, 1, None),
        ('leader_epoch', 'int32', 0, 1, None),
        ('lag', 'int64', 1, 1, None),
        ('error_code', 'int16', 0, 1, None),
        ('error_message', 'string', 0, 1, None),
    ),
}
