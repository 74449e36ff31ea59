# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeTopicPartitionsResponse (api key 75): versions 0-0, flexible from v0."""


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
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_hiii = _Struct('>hiii')
_U_hiii = _S_hiii.unpack_from
_P_hiii = _S_hiii.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class DescribeTopicPartitionsResponse:
    """DescribeTopicPartitionsResponse, versions 0."""

    __slots__ = ('throttle_time_ms', 'topics', 'next_cursor', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, topics=None, next_cursor=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics
        self.next_cursor = next_cursor
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.topics == other.topics
                and self.next_cursor == other.next_cursor
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Cursor:
    """Cursor struct of DescribeTopicPartitionsResponse, versions 0+."""

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


class DescribeTopicPartitionsResponseTopic:
    """DescribeTopicPartitionsResponseTopic struct of DescribeTopicPartitionsResponse, versions 0+."""

    __slots__ = ('error_code', 'name', 'topic_id', 'is_internal', 'partitions', 'topic_authorized_operations', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, name='', topic_id=_ZERO_UUID, is_internal=False, partitions=None, topic_authorized_operations=-2147483648, unknown_tagged_fields=None):
        self.error_code = error_code
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = [] if partitions is None else partitions
        self.topic_authorized_operations = topic_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.name == other.name
                and self.topic_id == other.topic_id
                and self.is_internal == other.is_internal
                and self.partitions == other.partitions
                and self.topic_authorized_operations == other.topic_authorized_operations
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeTopicPartitionsResponsePartition:
    """DescribeTopicPartitionsResponsePartition struct of DescribeTopicPartitionsResponse, versions 0+."""

    __slots__ = ('error_code', 'partition_index', 'leader_id', 'leader_epoch', 'replica_nodes', 'isr_nodes', 'eligible_leader_replicas', 'last_known_elr', 'offline_replicas', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, partition_index=0, leader_id=0, leader_epoch=-1, replica_nodes=None, isr_nodes=None, eligible_leader_replicas=None, last_known_elr=None, offline_replicas=None, unknown_tagged_fields=None):
        self.error_code = error_code
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replica_nodes = [] if replica_nodes is None else replica_nodes
        self.isr_nodes = [] if isr_nodes is None else isr_nodes
        self.eligible_leader_replicas = eligible_leader_replicas
        self.last_known_elr = last_known_elr
        self.offline_replicas = [] if offline_replicas is None else offline_replicas
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.partition_index == other.partition_index
                and self.leader_id == other.leader_id
                and self.leader_epoch == other.leader_epoch
                and self.replica_nodes == other.replica_nodes
                and self.isr_nodes == other.isr_nodes
                and self.eligible_leader_replicas == other.eligible_leader_replicas
                and self.last_known_elr == other.last_known_elr
                and self.offline_replicas == other.offline_replicas
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeTopicPartitionsResponsePartition_v0(buf, pos):
    o = _new(DescribeTopicPartitionsResponsePartition)
    (o.error_code, o.partition_index, o.leader_id, o.leader_epoch,) = _U_hiii(buf, pos)
    pos += 14
    n, pos = _r_calen(buf, pos)
    o.replica_nodes, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_calen(buf, pos)
    o.isr_nodes, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.eligible_leader_replicas = None
    else:
        o.eligible_leader_replicas, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.last_known_elr = None
    else:
        o.last_known_elr, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_calen(buf, pos)
    o.offline_replicas, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeTopicPartitionsResponsePartition_v0(o, out, parts):
    out += _P_hiii(o.error_code, o.partition_index, o.leader_id, o.leader_epoch)
    x = o.replica_nodes
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    x = o.isr_nodes
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    x = o.eligible_leader_replicas
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        _w_fixed(out, 'i', x)
    x = o.last_known_elr
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        _w_fixed(out, 'i', x)
    x = o.offline_replicas
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeTopicPartitionsResponseTopic_v0(buf, pos):
    o = _new(DescribeTopicPartitionsResponseTopic)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.name, pos = _r_cnstr(buf, pos)
    o.topic_id, pos = _r_uuid(buf, pos)
    (o.is_internal,) = _U_o(buf, pos)
    pos += 1
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeTopicPartitionsResponsePartition_v0(buf, pos)
        a.append(e)
    o.partitions = a
    (o.topic_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeTopicPartitionsResponseTopic_v0(o, out, parts):
    out += _P_h(o.error_code)
    _w_cnstr(out, o.name)
    out += o.topic_id.bytes
    out += _P_o(o.is_internal)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeTopicPartitionsResponsePartition_v0(e, out, parts)
    out += _P_i(o.topic_authorized_operations)
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


def _d_DescribeTopicPartitionsResponse_v0(buf, pos):
    o = _new(DescribeTopicPartitionsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeTopicPartitionsResponseTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos] >= 0x80:
        o.next_cursor = None
        pos += 1
    else:
        o.next_cursor, pos = _d_Cursor_v0(buf, pos + 1)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeTopicPartitionsResponse_v0(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeTopicPartitionsResponseTopic_v0(e, out, parts)
    x = o.next_cursor
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
    return _d_DescribeTopicPartitionsResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeTopicPartitionsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeTopicPartitionsResponse', 0) from None


MESSAGE = DescribeTopicPartitionsResponse
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeTopicPartitionsResponse': (
        ('throttle_time_ms', 'int32', 0, 0, None),
        ('topics', '[]DescribeTopicPartitionsResponseTopic', 0, 0, None),
        ('next_cursor', 'Cursor', 0, 0, None),
    ),
    'Cursor': (
        ('topic_name', 'string', 0, 0, 'topicName'),
        ('partition_index', 'int32', 0, 0, None),
    ),
    'DescribeTopicPartitionsResponseTopic': (
        ('error_code', 'int16', 0, 0, None),
        ('name', 'string', 0, 0, 'topicName'),
        ('topic_id', 'uuid', 0, 0, None),
        ('is_internal', 'bool', 0, 0, None),
        ('partitions', '[]DescribeTopicPartitionsResponsePartition', 0, 0, None),
        ('topic_authorized_operations', 'int32', 0, 0, None),
    ),
    'DescribeTopicPartitionsResponsePartition': (
        ('error_code', 'int16', 0, 0, None),
        ('partition_index', 'int32', 0, 0, None),
        ('leader_id', 'int32', 0, 0, 'brokerId'),
        ('leader_epoch', 'int32', 0, 0, None),
        ('replica_nodes', '[]int32', 0, 0, 'brokerId'),
        ('isr_nodes', '[]int32', 0, 0, 'brokerId'),
        ('eligible_leader_replicas', '[]int32', 0, 0, 'brokerId'),
        ('last_known_elr', '[]int32', 0, 0, 'brokerId'),
        ('offline_replicas', '[]int32', 0, 0, 'brokerId'),
    ),
}
