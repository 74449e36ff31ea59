# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ShareGroupHeartbeatResponse (api key 76): versions 1-1, flexible from v1."""


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
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack
_S_ii = _Struct('>ii')
_U_ii = _S_ii.unpack_from
_P_ii = _S_ii.pack


class ShareGroupHeartbeatResponse:
    """ShareGroupHeartbeatResponse, versions 1."""

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'member_id', 'member_epoch', 'heartbeat_interval_ms', 'assignment', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, member_id=None, member_epoch=0, heartbeat_interval_ms=0, assignment=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.assignment = assignment
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.member_id == other.member_id
                and self.member_epoch == other.member_epoch
                and self.heartbeat_interval_ms == other.heartbeat_interval_ms
                and self.assignment == other.assignment
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Assignment:
    """Assignment struct of ShareGroupHeartbeatResponse, versions 0+."""

    __slots__ = ('topic_partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic_partitions=None, unknown_tagged_fields=None):
        self.topic_partitions = [] if topic_partitions is None else topic_partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_partitions == other.topic_partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicPartitions:
    """TopicPartitions struct of ShareGroupHeartbeatResponse, versions 0+."""

    __slots__ = ('topic_id', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic_id=_ZERO_UUID, partitions=None, unknown_tagged_fields=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_id == other.topic_id
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_TopicPartitions_v1(buf, pos):
    o = _new(TopicPartitions)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicPartitions_v1(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Assignment_v1(buf, pos):
    o = _new(Assignment)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicPartitions_v1(buf, pos)
        a.append(e)
    o.topic_partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Assignment_v1(o, out, parts):
    x = o.topic_partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicPartitions_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ShareGroupHeartbeatResponse_v1(buf, pos):
    o = _new(ShareGroupHeartbeatResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    o.member_id, pos = _r_cnstr(buf, pos)
    (o.member_epoch, o.heartbeat_interval_ms,) = _U_ii(buf, pos)
    pos += 8
    if buf[pos] >= 0x80:
        o.assignment = None
        pos += 1
    else:
        o.assignment, pos = _d_Assignment_v1(buf, pos + 1)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ShareGroupHeartbeatResponse_v1(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    _w_cnstr(out, o.error_message)
    _w_cnstr(out, o.member_id)
    out += _P_ii(o.member_epoch, o.heartbeat_interval_ms)
    x = o.assignment
    if x is None:
        out.append(255)
    else:
        out.append(1)
        _e_Assignment_v1(x, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ShareGroupHeartbeatResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ShareGroupHeartbeatResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ShareGroupHeartbeatResponse', 1) from None


MESSAGE = ShareGroupHeartbeatResponse
VERSIONS = range(1, 2)
FLEXIBLE_MIN = 1
DECODERS = {1: decode_v1}
ENCODERS = {1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ShareGroupHeartbeatResponse': (
        ('throttle_time_ms', 'int32', 0, 1, None),
        ('error_code', 'int16', 0, 1, None),
        ('error_message', 'string', 0, 1, None),
        ('member_id', 'string', 0, 1, None),
        ('member_epoch', 'int32', 0, 1, None),
        ('heartbeat_interval_ms', 'int32', 0, 1, None),
        ('assignment', 'Assignment', 0, 1, None),
    ),
    'Assignment': (
        ('topic_partitions', '[]TopicPartitions', 0, 1, None),
    ),
    'TopicPartitions': (
        ('topic_id', 'uuid', 0, 1, None),
        ('partitions', '[]int32', 0, 1, None),
    ),
}
