# Generated from protocol_specs by kwire.codegen -- do not edit.
"""OffsetForLeaderEpochRequest (api key 23): versions 2-4, flexible from v4."""


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
_S_iii = _Struct('>iii')
_U_iii = _S_iii.unpack_from
_P_iii = _S_iii.pack


class OffsetForLeaderEpochRequest:
    """OffsetForLeaderEpochRequest, versions 2-4."""

    __slots__ = ('replica_id', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, replica_id=-2, topics=None, unknown_tagged_fields=None):
        self.replica_id = replica_id
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.replica_id == other.replica_id
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetForLeaderTopic:
    """OffsetForLeaderTopic struct of OffsetForLeaderEpochRequest, versions 0+."""

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


class OffsetForLeaderPartition:
    """OffsetForLeaderPartition struct of OffsetForLeaderEpochRequest, versions 0+."""

    __slots__ = ('partition', 'current_leader_epoch', 'leader_epoch', 'unknown_tagged_fields',)

    def __init__(self, *, partition=0, current_leader_epoch=-1, leader_epoch=0, unknown_tagged_fields=None):
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition == other.partition
                and self.current_leader_epoch == other.current_leader_epoch
                and self.leader_epoch == other.leader_epoch
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_OffsetForLeaderPartition_v2(buf, pos):
    o = _new(OffsetForLeaderPartition)
    (o.partition, o.current_leader_epoch, o.leader_epoch,) = _U_iii(buf, pos)
    pos += 12
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetForLeaderPartition_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetForLeaderPartition', 'tags')
    out += _P_iii(o.partition, o.current_leader_epoch, o.leader_epoch)


def _d_OffsetForLeaderPartition_v4(buf, pos):
    o = _new(OffsetForLeaderPartition)
    (o.partition, o.current_leader_epoch, o.leader_epoch,) = _U_iii(buf, pos)
    pos += 12
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetForLeaderPartition_v4(o, out, parts):
    out += _P_iii(o.partition, o.current_leader_epoch, o.leader_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetForLeaderTopic_v2(buf, pos):
    o = _new(OffsetForLeaderTopic)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetForLeaderPartition_v2(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetForLeaderTopic_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetForLeaderTopic', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_OffsetForLeaderPartition_v2(e, out, parts)


def _d_OffsetForLeaderTopic_v4(buf, pos):
    o = _new(OffsetForLeaderTopic)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetForLeaderPartition_v4(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetForLeaderTopic_v4(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetForLeaderPartition_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetForLeaderEpochRequest_v2(buf, pos):
    o = _new(OffsetForLeaderEpochRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetForLeaderTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    o.replica_id = -2
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetForLeaderEpochRequest_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetForLeaderEpochRequest', 'tags')
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetForLeaderTopic_v2(e, out, parts)


def _d_OffsetForLeaderEpochRequest_v3(buf, pos):
    o = _new(OffsetForLeaderEpochRequest)
    (o.replica_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetForLeaderTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetForLeaderEpochRequest_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetForLeaderEpochRequest', 'tags')
    out += _P_i(o.replica_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetForLeaderTopic_v2(e, out, parts)


def _d_OffsetForLeaderEpochRequest_v4(buf, pos):
    o = _new(OffsetForLeaderEpochRequest)
    (o.replica_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetForLeaderTopic_v4(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetForLeaderEpochRequest_v4(o, out, parts):
    out += _P_i(o.replica_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetForLeaderTopic_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetForLeaderEpochRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_OffsetForLeaderEpochRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetForLeaderEpochRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetForLeaderEpochRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_OffsetForLeaderEpochRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetForLeaderEpochRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetForLeaderEpochRequest_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_OffsetForLeaderEpochRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetForLeaderEpochRequest', 4) from None


MESSAGE = OffsetForLeaderEpochRequest
VERSIONS = range(2, 5)
FLEXIBLE_MIN = 4
DECODERS = {2: decode_v2, 3: decode_v3, 4: decode_v4}
ENCODERS = {2: encode_v2, 3: encode_v3, 4: encode_v4}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'OffsetForLeaderEpochRequest': (
        ('replica_id', 'int32', 3, 4, 'brokerId'),
        ('topics', '[]OffsetForLeaderTopic', 0, 4, None),
    ),
    'OffsetForLeaderTopic': (
        ('topic', 'string', 0, 4, 'topicName'),
        ('partitions', '[]OffsetForLeaderPartition', 0, 4, None),
    ),
    'OffsetForLeaderPartition': (
        ('partition', 'int32', 0, 4, None),
        ('current_leader_epoch', 'int32', 2, 4, None),
        ('leader_epoch', 'int32', 0, 4, None),
    ),
}
