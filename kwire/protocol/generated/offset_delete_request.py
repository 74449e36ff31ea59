# Generated from protocol_specs by kwire.codegen -- do not edit.
"""OffsetDeleteRequest (api key 47): versions 0-0, flexible never."""


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


class OffsetDeleteRequest:
    """OffsetDeleteRequest, versions 0."""

    __slots__ = ('group_id', 'topics',)

    def __init__(self, *, group_id='', topics=None):
        self.group_id = group_id
        self.topics = [] if topics is None else topics

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.topics == other.topics)

    __hash__ = None


class OffsetDeleteRequestTopic:
    """OffsetDeleteRequestTopic struct of OffsetDeleteRequest, versions 0+."""

    __slots__ = ('name', 'partitions',)

    def __init__(self, *, name='', partitions=None):
        self.name = name
        self.partitions = [] if partitions is None else partitions

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.partitions == other.partitions)

    __hash__ = None


class OffsetDeleteRequestPartition:
    """OffsetDeleteRequestPartition struct of OffsetDeleteRequest, versions 0+."""

    __slots__ = ('partition_index',)

    def __init__(self, *, partition_index=0):
        self.partition_index = partition_index

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index)

    __hash__ = None


def _d_OffsetDeleteRequestPartition_v0(buf, pos):
    o = _new(OffsetDeleteRequestPartition)
    (o.partition_index,) = _U_i(buf, pos)
    pos += 4
    return o, pos


def _e_OffsetDeleteRequestPartition_v0(o, out, parts):
    out += _P_i(o.partition_index)


def _d_OffsetDeleteRequestTopic_v0(buf, pos):
    o = _new(OffsetDeleteRequestTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetDeleteRequestPartition_v0(buf, pos)
        a.append(e)
    o.partitions = a
    return o, pos


def _e_OffsetDeleteRequestTopic_v0(o, out, parts):
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_OffsetDeleteRequestPartition_v0(e, out, parts)


def _d_OffsetDeleteRequest_v0(buf, pos):
    o = _new(OffsetDeleteRequest)
    o.group_id, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetDeleteRequestTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    return o, pos


def _e_OffsetDeleteRequest_v0(o, out, parts):
    _w_str(out, o.group_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetDeleteRequestTopic_v0(e, out, parts)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetDeleteRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_OffsetDeleteRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetDeleteRequest', 0) from None


MESSAGE = OffsetDeleteRequest
VERSIONS = range(0, 1)
FLEXIBLE_MIN = None
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'OffsetDeleteRequest': (
        ('group_id', 'string', 0, 0, 'groupId'),
        ('topics', '[]OffsetDeleteRequestTopic', 0, 0, None),
    ),
    'OffsetDeleteRequestTopic': (
        ('name', 'string', 0, 0, 'topicName'),
        ('partitions', '[]OffsetDeleteRequestPartition', 0, 0, None),
    ),
    'OffsetDeleteRequestPartition': (
        ('partition_index', 'int32', 0, 0, None),
    ),
}
