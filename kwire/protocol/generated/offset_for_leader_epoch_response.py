# Generated from protocol_specs by kwire.codegen -- do not edit.
"""OffsetForLeaderEpochResponse (api key 23): versions 2-4, flexible from v4."""


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
_S_hiiq = _Struct('>hiiq')
_U_hiiq = _S_hiiq.unpack_from
_P_hiiq = _S_hiiq.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class OffsetForLeaderEpochResponse:
    """OffsetForLeaderEpochResponse, versions 2-4."""

    __slots__ = ('throttle_time_ms', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, topics=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetForLeaderTopicResult:
    """OffsetForLeaderTopicResult struct of OffsetForLeaderEpochResponse, versions 0+."""

    __slots__ = ('topic', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic='', partitions=None, unknown_tagged_fields=None):
        self.topic = topic
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic == other.topic
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class EpochEndOffset:
    """EpochEndOffset struct of OffsetForLeaderEpochResponse, versions 0+."""

    __slots__ = ('error_code', 'partition', 'leader_epoch', 'end_offset', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, partition=0, leader_epoch=-1, end_offset=-1, unknown_tagged_fields=None):
        self.error_code = error_code
        self.partition = partition
        self.leader_epoch = leader_epoch
        self.end_offset = end_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.partition == other.partition
                and self.leader_epoch == other.leader_epoch
                and self.end_offset == other.end_offset
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_EpochEndOffset_v2(buf, pos):
    o = _new(EpochEndOffset)
    (o.error_code, o.partition, o.leader_epoch, o.end_offset,) = _U_hiiq(buf, pos)
    pos += 18
    o.unknown_tagged_fields = {}
    return o, pos


def _e_EpochEndOffset_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('EpochEndOffset', 'tags')
    out += _P_hiiq(o.error_code, o.partition, o.leader_epoch, o.end_offset)


def _d_EpochEndOffset_v4(buf, pos):
    o = _new(EpochEndOffset)
    (o.error_code, o.partition, o.leader_epoch, o.end_offset,) = _U_hiiq(buf, pos)
    pos += 18
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_EpochEndOffset_v4(o, out, parts):
    out += _P_hiiq(o.error_code, o.partition, o.leader_epoch, o.end_offset)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetForLeaderTopicResult_v2(buf, pos):
    o = _new(OffsetForLeaderTopicResult)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EpochEndOffset_v2(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetForLeaderTopicResult_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetForLeaderTopicResult', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_EpochEndOffset_v2(e, out, parts)


def _d_OffsetForLeaderTopicResult_v4(buf, pos):
    o = _new(OffsetForLeaderTopicResult)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EpochEndOffset_v4(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetForLeaderTopicResult_v4(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_EpochEndOffset_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetForLeaderEpochResponse_v2(buf, pos):
    o = _new(OffsetForLeaderEpochResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetForLeaderTopicResult_v2(buf, pos)
        a.append(e)
    o.topics = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetForLeaderEpochResponse_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetForLeaderEpochResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetForLeaderTopicResult_v2(e, out, parts)


def _d_OffsetForLeaderEpochResponse_v4(buf, pos):
    o = _new(OffsetForLeaderEpochResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetForLeaderTopicResult_v4(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetForLeaderEpochResponse_v4(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetForLeaderTopicResult_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetForLeaderEpochResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_OffsetForLeaderEpochResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetForLeaderEpochResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetForLeaderEpochResponse_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_OffsetForLeaderEpochResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetForLeaderEpochResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetForLeaderEpochResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_OffsetForLeaderEpochResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetForLeaderEpochResponse', 4) from None


MESSAGE = OffsetForLeaderEpochResponse
VERSIONS = range(2, 5)
FLEXIBLE_MIN = 4
DECODERS = {2: decode_v2, 3: decode_v3, 4: decode_v4}
ENCODERS = {2: encode_v2, 3: encode_v3, 4: encode_v4}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'OffsetForLeaderEpochResponse': (
        ('throttle_time_ms', 'int32', 2, 4, None),
        ('topics', '[]OffsetForLeaderTopicResult', 0, 4, None),
    ),
    'OffsetForLeaderTopicResult': (
        ('topic', 'string', 0, 4, 'topicName'),
        ('partitions', '[]EpochEndOffset', 0, 4, None),
    ),
    'EpochEndOffset': (
        ('error_code', 'int16', 0, 4, None),
        ('partition', 'int32', 0, 4, None),
        ('leader_epoch', 'int32', 1, 4, None),
        ('end_offset', 'int64', 0, 4, None),
    ),
}
