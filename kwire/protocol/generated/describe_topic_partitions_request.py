# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeTopicPartitionsRequest (api key 75): versions 0-0, flexible from v0."""


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


class DescribeTopicPartitionsRequest:
    """DescribeTopicPartitionsRequest, versions 0."""

    __slots__ = ('topics', 'response_partition_limit', 'cursor', 'unknown_tagged_fields',)

    def __init__(self, *, topics=None, response_partition_limit=2000, cursor=None, unknown_tagged_fields=None):
        self.topics = [] if topics is None else topics
        self.response_partition_limit = response_partition_limit
        self.cursor = cursor
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topics == other.topics
                and self.response_partition_limit == other.response_partition_limit
                and self.cursor == other.cursor
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Cursor:
    """Cursor struct of DescribeTopicPartitionsRequest, versions 0+."""

    __slots__ = ('topic_name', 'partition_index', 'unknown_tagged_fields',)

    def __init__(self, *, topic_name='', partition_index=0, unknown_tagged_fields=None):
        self.topic_name = topic_name
        self.partition_index = partition_index
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_name == other.topic_name
                and self.partition_index == other.partition_index
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicRequest:
    """TopicRequest struct of DescribeTopicPartitionsRequest, versions 0+."""

    __slots__ = ('name', 'unknown_tagged_fields',)

    def __init__(self, *, name='', unknown_tagged_fields=None):
        self.name = name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_TopicRequest_v0(buf, pos):
    o = _new(TopicRequest)
    o.name, pos = _r_cstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicRequest_v0(o, out, parts):
    _w_cstr(out, o.name)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Cursor_v0(buf, pos):
    o = _new(Cursor)
    o.topic_name, pos = _r_cstr(buf, pos)
    (o.partition_index,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Cursor_v0(o, out, parts):
    _w_cstr(out, o.topic_name)
    out += _P_i(o.partition_index)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeTopicPartitionsRequest_v0(buf, pos):
    o = _new(DescribeTopicPartitionsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicRequest_v0(buf, pos)
        a.append(e)
    o.topics = a
    (o.response_partition_limit,) = _U_i(buf, pos)
    pos += 4
    if buf[pos] >= 0x80:
        o.cursor = None
        pos += 1
    else:
        o.cursor, pos = _d_Cursor_v0(buf, pos + 1)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeTopicPartitionsRequest_v0(o, out, parts):
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicRequest_v0(e, out, parts)
    out += _P_i(o.response_partition_limit)
    x = o.cursor
    if x is None:
        out.append(255)
    else:
        out.append(1)
        _e_Cursor_v0(x, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeTopicPartitionsRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeTopicPartitionsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeTopicPartitionsRequest', 0) from None


MESSAGE = DescribeTopicPartitionsRequest
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeTopicPartitionsRequest': (
        ('topics', '[]TopicRequest', 0, 0, None),
        ('response_partition_limit', 'int32', 0, 0, None),
        ('cursor', 'Cursor', 0, 0, None),
    ),
    'Cursor': (
        ('topic_name', 'string', 0, 0, 'topicName'),
        ('partition_index', 'int32', 0, 0, None),
    ),
    'TopicRequest': (
        ('name', 'string', 0, 0, 'topicName'),
    ),
}
