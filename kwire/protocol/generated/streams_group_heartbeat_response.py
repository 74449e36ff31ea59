# Generated from protocol_specs by kwire.codegen -- do not edit.
"""StreamsGroupHeartbeatResponse (api key 88): versions 0-0, flexible from v0."""


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
_S_H = _Struct('>H')
_U_H = _S_H.unpack_from
_P_H = _S_H.pack
_S_b = _Struct('>b')
_U_b = _S_b.unpack_from
_P_b = _S_b.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack
_S_iiii = _Struct('>iiii')
_U_iiii = _S_iiii.unpack_from
_P_iiii = _S_iiii.pack


class StreamsGroupHeartbeatResponse:
    """StreamsGroupHeartbeatResponse, versions 0."""

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'member_id', 'member_epoch', 'heartbeat_interval_ms', 'acceptable_recovery_lag', 'task_offset_interval_ms', 'status', 'active_tasks', 'standby_tasks', 'warmup_tasks', 'endpoint_information_epoch', 'partitions_by_user_endpoint', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, member_id='', member_epoch=0, heartbeat_interval_ms=0, acceptable_recovery_lag=0, task_offset_interval_ms=0, status=_MISSING, active_tasks=None, standby_tasks=None, warmup_tasks=None, endpoint_information_epoch=0, partitions_by_user_endpoint=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.acceptable_recovery_lag = acceptable_recovery_lag
        self.task_offset_interval_ms = task_offset_interval_ms
        self.status = [] if status is _MISSING else status
        self.active_tasks = active_tasks
        self.standby_tasks = standby_tasks
        self.warmup_tasks = warmup_tasks
        self.endpoint_information_epoch = endpoint_information_epoch
        self.partitions_by_user_endpoint = partitions_by_user_endpoint
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
                and self.acceptable_recovery_lag == other.acceptable_recovery_lag
                and self.task_offset_interval_ms == other.task_offset_interval_ms
                and self.status == other.status
                and self.active_tasks == other.active_tasks
                and self.standby_tasks == other.standby_tasks
                and self.warmup_tasks == other.warmup_tasks
                and self.endpoint_information_epoch == other.endpoint_information_epoch
                and self.partitions_by_user_endpoint == other.partitions_by_user_endpoint
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class EndpointToPartitions:
    """EndpointToPartitions struct of StreamsGroupHeartbeatResponse, versions 0+."""

    __slots__ = ('user_endpoint', 'active_partitions', 'standby_partitions', 'unknown_tagged_fields',)

    def __init__(self, *, user_endpoint=None, active_partitions=None, standby_partitions=None, unknown_tagged_fields=None):
        self.user_endpoint = Endpoint() if user_endpoint is None else user_endpoint
        self.active_partitions = [] if active_partitions is None else active_partitions
        self.standby_partitions = [] if standby_partitions is None else standby_partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.user_endpoint == other.user_endpoint
                and self.active_partitions == other.active_partitions
                and self.standby_partitions == other.standby_partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicPartition:
    """TopicPartition struct of StreamsGroupHeartbeatResponse, versions 0+."""

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


class Endpoint:
    """Endpoint struct of StreamsGroupHeartbeatResponse, versions 0+."""

    __slots__ = ('host', 'port', 'unknown_tagged_fields',)

    def __init__(self, *, host='', port=0, unknown_tagged_fields=None):
        self.host = host
        self.port = port
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.host == other.host
                and self.port == other.port
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TaskIds:
    """TaskIds struct of StreamsGroupHeartbeatResponse, versions 0+."""

    __slots__ = ('subtopology_id', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, subtopology_id='', partitions=None, unknown_tagged_fields=None):
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.subtopology_id == other.subtopology_id
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Status:
    """Status struct of StreamsGroupHeartbeatResponse, versions 0+."""

    __slots__ = ('status_code', 'status_detail', 'unknown_tagged_fields',)

    def __init__(self, *, status_code=0, status_detail='', unknown_tagged_fields=None):
        self.status_code = status_code
        self.status_detail = status_detail
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.status_code == other.status_code
                and self.status_detail == other.status_detail
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_Status_v0(buf, pos):
    o = _new(Status)
    (o.status_code,) = _U_b(buf, pos)
    pos += 1
    o.status_detail, pos = _r_cstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Status_v0(o, out, parts):
    out += _P_b(o.status_code)
    _w_cstr(out, o.status_detail)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TaskIds_v0(buf, pos):
    o = _new(TaskIds)
    o.subtopology_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TaskIds_v0(o, out, parts):
    _w_cstr(out, o.subtopology_id)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Endpoint_v0(buf, pos):
    o = _new(Endpoint)
    o.host, pos = _r_cstr(buf, pos)
    (o.port,) = _U_H(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Endpoint_v0(o, out, parts):
    _w_cstr(out, o.host)
    out += _P_H(o.port)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicPartition_v0(buf, pos):
    o = _new(TopicPartition)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicPartition_v0(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_EndpointToPartitions_v0(buf, pos):
    o = _new(EndpointToPartitions)
    o.user_endpoint, pos = _d_Endpoint_v0(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicPartition_v0(buf, pos)
        a.append(e)
    o.active_partitions = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicPartition_v0(buf, pos)
        a.append(e)
    o.standby_partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_EndpointToPartitions_v0(o, out, parts):
    _e_Endpoint_v0(o.user_endpoint, out, parts)
    x = o.active_partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicPartition_v0(e, out, parts)
    x = o.standby_partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicPartition_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_StreamsGroupHeartbeatResponse_v0(buf, pos):
    o = _new(StreamsGroupHeartbeatResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    o.member_id, pos = _r_cstr(buf, pos)
    (o.member_epoch, o.heartbeat_interval_ms, o.acceptable_recovery_lag, o.task_offset_interval_ms,) = _U_iiii(buf, pos)
    pos += 16
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.status = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_Status_v0(buf, pos)
            a.append(e)
        o.status = a
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.active_tasks = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_TaskIds_v0(buf, pos)
            a.append(e)
        o.active_tasks = a
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.standby_tasks = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_TaskIds_v0(buf, pos)
            a.append(e)
        o.standby_tasks = a
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.warmup_tasks = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_TaskIds_v0(buf, pos)
            a.append(e)
        o.warmup_tasks = a
    (o.endpoint_information_epoch,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.partitions_by_user_endpoint = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_EndpointToPartitions_v0(buf, pos)
            a.append(e)
        o.partitions_by_user_endpoint = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_StreamsGroupHeartbeatResponse_v0(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    _w_cnstr(out, o.error_message)
    _w_cstr(out, o.member_id)
    out += _P_iiii(o.member_epoch, o.heartbeat_interval_ms, o.acceptable_recovery_lag, o.task_offset_interval_ms)
    x = o.status
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_Status_v0(e, out, parts)
    x = o.active_tasks
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_TaskIds_v0(e, out, parts)
    x = o.standby_tasks
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_TaskIds_v0(e, out, parts)
    x = o.warmup_tasks
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_TaskIds_v0(e, out, parts)
    out += _P_i(o.endpoint_information_epoch)
    x = o.partitions_by_user_endpoint
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_EndpointToPartitions_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_StreamsGroupHeartbeatResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_StreamsGroupHeartbeatResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('StreamsGroupHeartbeatResponse', 0) from None


MESSAGE = StreamsGroupHeartbeatResponse
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'StreamsGroupHeartbeatResponse': (
        ('throttle_time_ms', 'int32', 0, 0, None),
        ('error_code', 'int16', 0, 0, None),
        ('error_message', 'string', 0, 0, None),
        ('member_id', 'string', 0, 0, None),
        ('member_epoch', 'int32', 0, 0, None),
        ('heartbeat_interval_ms', 'int32', 0, 0, None),
        ('acceptable_recovery_lag', 'int32', 0, 0, None),
        ('task_offset_interval_ms', 'int32', 0, 0, None),
        ('status', '[]Status', 0, 0, None),
        ('active_tasks', '[]TaskIds', 0, 0, None),
        ('standby_tasks', '[]TaskIds', 0, 0, None),
        ('warmup_tasks', '[]TaskIds', 0, 0, None),
        ('endpoint_information_epoch', 'int32', 0, 0, None),
        ('partitions_by_user_endpoint', '[]EndpointToPartitions', 0, 0, None),
    ),
    'EndpointToPartitions': (
        ('user_endpoint', 'Endpoint', 0, 0, None),
        ('active_partitions', '[]TopicPartition', 0, 0, None),
        ('standby_partitions', '[]TopicPartition', 0, 0, None),
    ),
    'TopicPartition': (
        ('topic', 'string', 0, 0, 'topicName'),
        ('partitions', '[]int32', 0, 0, None),
    ),
    'Endpoint': (
        ('host', 'string', 0, 0, None),
        ('port', 'uint16', 0, 0, None),
    ),
    'TaskIds': (
        ('subtopology_id', 'string', 0, 0, None),
        ('partitions', '[]int32', 0, 0, None),
    ),
    'Status': (
        ('status_code', 'int8', 0, 0, None),
        ('status_detail', 'string', 0, 0, None),
    ),
}
