# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ConsumerProtocolAssignment: versions 0-3, flexible never."""


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


class ConsumerProtocolAssignment:
    """ConsumerProtocolAssignment, versions 0-3."""

    __slots__ = ('assigned_partitions', 'user_data',)

    def __init__(self, *, assigned_partitions=None, user_data=None):
        self.assigned_partitions = [] if assigned_partitions is None else assigned_partitions
        self.user_data = user_data

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.assigned_partitions == other.assigned_partitions
                and self.user_data == other.user_data)

    __hash__ = None


class TopicPartition:
    """TopicPartition struct of ConsumerProtocolAssignment, versions 0+."""

    __slots__ = ('topic', 'partitions',)

    def __init__(self, *, topic='', partitions=None):
        self.topic = topic
        self.partitions = [] if partitions is None else partitions

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic == other.topic
                and self.partitions == other.partitions)

    __hash__ = None


def _d_TopicPartition_v0(buf, pos):
    o = _new(TopicPartition)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    return o, pos


def _e_TopicPartition_v0(o, out, parts):
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_ConsumerProtocolAssignment_v0(buf, pos):
    o = _new(ConsumerProtocolAssignment)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicPartition_v0(buf, pos)
        a.append(e)
    o.assigned_partitions = a
    o.user_data, pos = _r_nbytes(buf, pos)
    return o, pos


def _e_ConsumerProtocolAssignment_v0(o, out, parts):
    x = o.assigned_partitions
    out += _P_len(len(x))
    for e in x:
        _e_TopicPartition_v0(e, out, parts)
    _w_nbytes(out, o.user_data)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerProtocolAssignment_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ConsumerProtocolAssignment_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerProtocolAssignment', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerProtocolAssignment_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ConsumerProtocolAssignment_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerProtocolAssignment', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerProtocolAssignment_v0(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ConsumerProtocolAssignment_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerProtocolAssignment', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerProtocolAssignment_v0(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_ConsumerProtocolAssignment_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerProtocolAssignment', 3) from None


MESSAGE = ConsumerProtocolAssignment
VERSIONS = range(0, 4)
FLEXIBLE_MIN = None
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ConsumerProtocolAssignment': (
        ('assigned_partitions', '[]TopicPartition', 0, 3, None),
        ('user_data', 'bytes', 0, 3, None),
    ),
    'TopicPartition': (
        ('topic', 'string', 0, 3, 'topicName'),
        ('partitions', '[]int32', 0, 3, None),
    ),
}
