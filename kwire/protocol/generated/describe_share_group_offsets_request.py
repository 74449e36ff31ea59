# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeShareGroupOffsetsRequest (api key 90): versions 0-1, flexible from v0."""


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


class DescribeShareGroupOffsetsRequest:
    """DescribeShareGroupOffsetsRequest, versions 0-1."""

    __slots__ = ('groups', 'unknown_tagged_fields',)

    def __init__(self, *, groups=None, unknown_tagged_fields=None):
        self.groups = [] if groups is None else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.groups == other.groups
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeShareGroupOffsetsRequestGroup:
    """DescribeShareGroupOffsetsRequestGroup struct of DescribeShareGroupOffsetsRequest, versions 0+."""

    __slots__ = ('group_id', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', topics=_MISSING, unknown_tagged_fields=None):
        self.group_id = group_id
        self.topics = [] if topics is _MISSING else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeShareGroupOffsetsRequestTopic:
    """DescribeShareGroupOffsetsRequestTopic struct of DescribeShareGroupOffsetsRequest, versions 0+."""

    __slots__ = ('topic_name', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic_name='', partitions=None, unknown_tagged_fields=None):
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_name == other.topic_name
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeShareGroupOffsetsRequestTopic_v0(buf, pos):
    o = _new(DescribeShareGroupOffsetsRequestTopic)
    o.topic_name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsRequestTopic_v0(o, out, parts):
    _w_cstr(out, o.topic_name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeShareGroupOffsetsRequestGroup_v0(buf, pos):
    o = _new(DescribeShareGroupOffsetsRequestGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_DescribeShareGroupOffsetsRequestTopic_v0(buf, pos)
            a.append(e)
        o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsRequestGroup_v0(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_DescribeShareGroupOffsetsRequestTopic_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeShareGroupOffsetsRequest_v0(buf, pos):
    o = _new(DescribeShareGroupOffsetsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeShareGroupOffsetsRequestGroup_v0(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeShareGroupOffsetsRequest_v0(o, out, parts):
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeShareGroupOffsetsRequestGroup_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeShareGroupOffsetsRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeShareGroupOffsetsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeShareGroupOffsetsRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeShareGroupOffsetsRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeShareGroupOffsetsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeShareGroupOffsetsRequest', 1) from None


MESSAGE = DescribeShareGroupOffsetsRequest
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeShareGroupOffsetsRequest': (
        ('groups', '[]DescribeShareGroupOffsetsRequestGroup', 0, 1, None),
    ),
    'DescribeShareGroupOffsetsRequestGroup': (
        ('group_id', 'string', 0, 1, 'groupId'),
        ('topics', '[]DescribeShareGroupOffsetsRequestTopic', 0, 1, None),
    ),
    'DescribeShareGroupOffsetsRequestTopic': (
        ('topic_name', 'string', 0, 1, 'topicName'),
        ('partitions', '[]int32', 0, 1, None),
    ),
}
