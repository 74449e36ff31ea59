# Generated from protocol_specs by kwire.codegen -- do not edit.
"""OffsetDeleteResponse (api key 47): versions 0-0, flexible never."""


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
_S_hi = _Struct('>hi')
_U_hi = _S_hi.unpack_from
_P_hi = _S_hi.pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class OffsetDeleteResponse:
    """OffsetDeleteResponse, versions 0."""

    __slots__ = ('error_code', 'throttle_time_ms', 'topics',)

    def __init__(self, *, error_code=0, throttle_time_ms=0, topics=None):
        self.error_code = error_code
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.throttle_time_ms == other.throttle_time_ms
                and self.topics == other.topics)

    __hash__ = None


class OffsetDeleteResponseTopic:
    """OffsetDeleteResponseTopic struct of OffsetDeleteResponse, versions 0+."""

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


class OffsetDeleteResponsePartition:
    """OffsetDeleteResponsePartition struct of OffsetDeleteResponse, versions 0+."""

    __slots__ = ('partition_index', 'error_code',)

    def __init__(self, *, partition_index=0, error_code=0):
        self.partition_index = partition_index
        self.error_code = error_code

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.error_code == other.error_code)

    __hash__ = None


def _d_OffsetDeleteResponsePartition_v0(buf, pos):
    o = _new(OffsetDeleteResponsePartition)
    (o.partition_index, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    return o, pos


def _e_OffsetDeleteResponsePartition_v0(o, out, parts):
    out += _P_ih(o.partition_index, o.error_code)


def _d_OffsetDeleteResponseTopic_v0(buf, pos):
    o = _new(OffsetDeleteResponseTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetDeleteResponsePartition_v0(buf, pos)
        a.append(e)
    o.partitions = a
    return o, pos


def _e_OffsetDeleteResponseTopic_v0(o, out, parts):
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_OffsetDeleteResponsePartition_v0(e, out, parts)


def _d_OffsetDeleteResponse_v0(buf, pos):
    o = _new(OffsetDeleteResponse)
    (o.error_code, o.throttle_time_ms,) = _U_hi(buf, pos)
    pos += 6
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetDeleteResponseTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    return o, pos


def _e_OffsetDeleteResponse_v0(o, out, parts):
    out += _P_hi(o.error_code, o.throttle_time_ms)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetDeleteResponseTopic_v0(e, out, parts)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetDeleteResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_OffsetDeleteResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetDeleteResponse', 0) from None


MESSAGE = OffsetDeleteResponse
VERSIONS = range(0, 1)
FLEXIBLE_MIN = None
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'OffsetDeleteResponse': (
        ('error_code', 'int16', 0, 0, None),
        ('throttle_time_ms', 'int32', 0, 0, None),
        ('topics', '[]OffsetDeleteResponseTopic', 0, 0, None),
    ),
    'OffsetDeleteResponseTopic': (
        ('name', 'string', 0, 0, 'topicName'),
        ('partitions', '[]OffsetDeleteResponsePartition', 0, 0, None),
    ),
    'OffsetDeleteResponsePartition': (
        ('partition_index', 'int32', 0, 0, None),
        ('error_code', 'int16', 0, 0, None),
    ),
}
