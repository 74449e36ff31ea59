# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ProduceResponse (api key 0): versions 3-13, flexible from v9."""


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
_S_ihqq = _Struct('>ihqq')
_U_ihqq = _S_ihqq.unpack_from
_P_ihqq = _S_ihqq.pack
_S_ihqqq = _Struct('>ihqqq')
_U_ihqqq = _S_ihqqq.unpack_from
_P_ihqqq = _S_ihqqq.pack
_S_ii = _Struct('>ii')
_U_ii = _S_ii.unpack_from
_P_ii = _S_ii.pack


class ProduceResponse:
    """ProduceResponse, versions 3-13."""

    __slots__ = ('responses', 'throttle_time_ms', 'node_endpoints', 'unknown_tagged_fields',)

    def __init__(self, *, responses=None, throttle_time_ms=0, node_endpoints=None, unknown_tagged_fields=None):
        self.responses = [] if responses is None else responses
        self.throttle_time_ms = throttle_time_ms
        self.node_endpoints = [] if node_endpoints is None else node_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.responses == other.responses
                and self.throttle_time_ms == other.throttle_time_ms
                and self.node_endpoints == other.node_endpoints
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class NodeEndpoint:
    """NodeEndpoint struct of ProduceResponse, versions 10+."""

    __slots__ = ('node_id', 'host', 'port', 'rack', 'unknown_tagged_fields',)

    def __init__(self, *, node_id=0, host='', port=0, rack=None, unknown_tagged_fields=None):
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.node_id == other.node_id
                and self.host == other.host
                and self.port == other.port
                and self.rack == other.rack
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicProduceResponse:
    """TopicProduceResponse struct of ProduceResponse, versions 0+."""

    __slots__ = ('name', 'topic_id', 'partition_responses', 'unknown_tagged_fields',)

    def __init__(self, *, name='', topic_id=_ZERO_UUID, partition_responses=None, unknown_tagged_fields=None):
        self.name = name
        self.topic_id = topic_id
        self.partition_responses = [] if partition_responses is None else partition_responses
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.topic_id == other.topic_id
                and self.partition_responses == other.partition_responses
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class PartitionProduceResponse:
    """PartitionProduceResponse struct of ProduceResponse, versions 0+."""

    __slots__ = ('index', 'error_code', 'base_offset', 'log_append_time_ms', 'log_start_offset', 'record_errors', 'error_message', 'current_leader', 'unknown_tagged_fields',)

    def __init__(self, *, index=0, error_code=0, base_offset=0, log_append_time_ms=-1, log_start_offset=-1, record_errors=None, error_message=None, current_leader=None, unknown_tagged_fields=None):
        self.index = index
        self.error_code = error_code
        self.base_offset = base_offset
        self.log_append_time_ms = log_append_time_ms
        self.log_start_offset = log_start_offset
        self.record_errors = [] if record_errors is None else record_errors
        self.error_message = error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is None else current_leader
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.index == other.index
                and self.error_code == other.error_code
                and self.base_offset == other.base_offset
                and self.log_append_time_ms == other.log_append_time_ms
                and self.log_start_offset == other.log_start_offset
                and self.record_errors == other.record_errors
                and self.error_message == other.error_message
                and self.current_leader == other.current_leader
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class LeaderIdAndEpoch:
    """LeaderIdAndEpoch struct of ProduceResponse, versions 10+."""

    __slots__ = ('leader_id', 'leader_epoch', 'unknown_tagged_fields',)

    def __init__(self, *, leader_id=-1, leader_epoch=-1, unknown_tagged_fields=None):
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.leader_id == other.leader_id
                and self.leader_epoch == other.leader_epoch
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class BatchIndexAndErrorMessage:
    """BatchIndexAndErrorMessage struct of ProduceResponse, versions 8+."""

    __slots__ = ('batch_index', 'batch_index_error_message', 'unknown_tagged_fields',)

    def __init__(self, *, batch_index=0, batch_index_error_message=None, unknown_tagged_fields=None):
        self.batch_index = batch_index
        self.batch_index_error_message = batch_index_error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.batch_index == other.batch_index
                and self.batch_index_error_message == other.batch_index_error_message
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


_DEF_LeaderIdAndEpoch = LeaderIdAndEpoch()


def _d_BatchIndexAndErrorMessage_v8(buf, pos):
    o = _new(BatchIndexAndErrorMessage)
    (o.batch_index,) = _U_i(buf, pos)
    pos += 4
    o.batch_index_error_message, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_BatchIndexAndErrorMessage_v8(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('BatchIndexAndErrorMessage', 'tags')
    out += _P_i(o.batch_index)
    _w_nstr(out, o.batch_index_error_message)


def _d_BatchIndexAndErrorMessage_v9(buf, pos):
    o = _new(BatchIndexAndErrorMessage)
    (o.batch_index,) = _U_i(buf, pos)
    pos += 4
    o.batch_index_error_message, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_BatchIndexAndErrorMessage_v9(o, out, parts):
    out += _P_i(o.batch_index)
    _w_cnstr(out, o.batch_index_error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_LeaderIdAndEpoch_v10(buf, pos):
    o = _new(LeaderIdAndEpoch)
    (o.leader_id, o.leader_epoch,) = _U_ii(buf, pos)
    pos += 8
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_LeaderIdAndEpoch_v10(o, out, parts):
    out += _P_ii(o.leader_id, o.leader_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionProduceResponse_v3(buf, pos):
    o = _new(PartitionProduceResponse)
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms,) = _U_ihqq(buf, pos)
    pos += 22
    o.log_start_offset = -1
    o.record_errors = []
    o.error_message = None
    o.current_leader = LeaderIdAndEpoch()
    o.unknown_tagged_fields = {}
    return o, pos


def _e_PartitionProduceResponse_v3(o, out, parts):
    if o.current_leader is not _DEF_LeaderIdAndEpoch and o.current_leader != _DEF_LeaderIdAndEpoch:
        raise _FieldVersionError('PartitionProduceResponse.CurrentLeader', '10+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('PartitionProduceResponse', 'tags')
    out += _P_ihqq(o.index, o.error_code, o.base_offset, o.log_append_time_ms)


def _d_PartitionProduceResponse_v5(buf, pos):
    o = _new(PartitionProduceResponse)
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset,) = _U_ihqqq(buf, pos)
    pos += 30
    o.record_errors = []
    o.error_message = None
    o.current_leader = LeaderIdAndEpoch()
    o.unknown_tagged_fields = {}
    return o, pos


def _e_PartitionProduceResponse_v5(o, out, parts):
    if o.current_leader is not _DEF_LeaderIdAndEpoch and o.current_leader != _DEF_LeaderIdAndEpoch:
        raise _FieldVersionError('PartitionProduceResponse.CurrentLeader', '10+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('PartitionProduceResponse', 'tags')
    out += _P_ihqqq(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)


def _d_PartitionProduceResponse_v8(buf, pos):
    o = _new(PartitionProduceResponse)
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset,) = _U_ihqqq(buf, pos)
    pos += 30
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_BatchIndexAndErrorMessage_v8(buf, pos)
        a.append(e)
    o.record_errors = a
    o.error_message, pos = _r_nstr(buf, pos)
    o.current_leader = LeaderIdAndEpoch()
    o.unknown_tagged_fields = {}
    return o, pos


def _e_PartitionProduceResponse_v8(o, out, parts):
    if o.current_leader is not _DEF_LeaderIdAndEpoch and o.current_leader != _DEF_LeaderIdAndEpoch:
        raise _FieldVersionError('PartitionProduceResponse.CurrentLeader', '10+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('PartitionProduceResponse', 'tags')
    out += _P_ihqqq(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)
    x = o.record_errors
    out += _P_len(len(x))
    for e in x:
        _e_BatchIndexAndErrorMessage_v8(e, out, parts)
    _w_nstr(out, o.error_message)


def _d_PartitionProduceResponse_v9(buf, pos):
    o = _new(PartitionProduceResponse)
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset,) = _U_ihqqq(buf, pos)
    pos += 30
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_BatchIndexAndErrorMessage_v9(buf, pos)
        a.append(e)
    o.record_errors = a
    o.error_message, pos = _r_cnstr(buf, pos)
    o.current_leader = LeaderIdAndEpoch()
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionProduceResponse_v9(o, out, parts):
    if o.current_leader is not _DEF_LeaderIdAndEpoch and o.current_leader != _DEF_LeaderIdAndEpoch:
        raise _FieldVersionError('PartitionProduceResponse.CurrentLeader', '10+')
    out += _P_ihqqq(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)
    x = o.record_errors
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_BatchIndexAndErrorMessage_v9(e, out, parts)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionProduceResponse_v10(buf, pos):
    o = _new(PartitionProduceResponse)
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset,) = _U_ihqqq(buf, pos)
    pos += 30
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_BatchIndexAndErrorMessage_v9(buf, pos)
        a.append(e)
    o.record_errors = a
    o.error_message, pos = _r_cnstr(buf, pos)
    o.current_leader = LeaderIdAndEpoch()
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            o.current_leader, pos = _d_LeaderIdAndEpoch_v10(sub, pos)
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_PartitionProduceResponse_v10(o, out, parts):
    out += _P_ihqqq(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)
    x = o.record_errors
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_BatchIndexAndErrorMessage_v9(e, out, parts)
    _w_cnstr(out, o.error_message)
    t = []
    x = o.current_leader
    if x is not _DEF_LeaderIdAndEpoch and x != _DEF_LeaderIdAndEpoch:
        b = bytearray()
        _e_LeaderIdAndEpoch_v10(x, b, parts)
        t.append((0, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_TopicProduceResponse_v3(buf, pos):
    o = _new(TopicProduceResponse)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionProduceResponse_v3(buf, pos)
        a.append(e)
    o.partition_responses = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TopicProduceResponse_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TopicProduceResponse', 'tags')
    _w_str(out, o.name)
    x = o.partition_responses
    out += _P_len(len(x))
    for e in x:
        _e_PartitionProduceResponse_v3(e, out, parts)


def _d_TopicProduceResponse_v5(buf, pos):
    o = _new(TopicProduceResponse)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionProduceResponse_v5(buf, pos)
        a.append(e)
    o.partition_responses = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TopicProduceResponse_v5(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TopicProduceResponse', 'tags')
    _w_str(out, o.name)
    x = o.partition_responses
    out += _P_len(len(x))
    for e in x:
        _e_PartitionProduceResponse_v5(e, out, parts)


def _d_TopicProduceResponse_v8(buf, pos):
    o = _new(TopicProduceResponse)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionProduceResponse_v8(buf, pos)
        a.append(e)
    o.partition_responses = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TopicProduceResponse_v8(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TopicProduceResponse', 'tags')
    _w_str(out, o.name)
    x = o.partition_responses
    out += _P_len(len(x))
    for e in x:
        _e_PartitionProduceResponse_v8(e, out, parts)


def _d_TopicProduceResponse_v9(buf, pos):
    o = _new(TopicProduceResponse)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionProduceResponse_v9(buf, pos)
        a.append(e)
    o.partition_responses = a
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicProduceResponse_v9(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partition_responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionProduceResponse_v9(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicProduceResponse_v10(buf, pos):
    o = _new(TopicProduceResponse)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionProduceResponse_v10(buf, pos)
        a.append(e)
    o.partition_responses = a
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicProduceResponse_v10(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partition_responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionProduceResponse_v10(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicProduceResponse_v13(buf, pos):
    o = _new(TopicProduceResponse)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionProduceResponse_v10(buf, pos)
        a.append(e)
    o.partition_responses = a
    o.name = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicProduceResponse_v13(o, out, parts):
    out += o.topic_id.bytes
    x = o.partition_responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionProduceResponse_v10(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_NodeEndpoint_v10(buf, pos):
    o = _new(NodeEndpoint)
    (o.node_id,) = _U_i(buf, pos)
    pos += 4
    o.host, pos = _r_cstr(buf, pos)
    (o.port,) = _U_i(buf, pos)
    pos += 4
    o.rack, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_NodeEndpoint_v10(o, out, parts):
    out += _P_i(o.node_id)
    _w_cstr(out, o.host)
    out += _P_i(o.port)
    _w_cnstr(out, o.rack)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ProduceResponse_v3(buf, pos):
    o = _new(ProduceResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicProduceResponse_v3(buf, pos)
        a.append(e)
    o.responses = a
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.node_endpoints = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ProduceResponse_v3(o, out, parts):
    if o.node_endpoints != []:
        raise _FieldVersionError('ProduceResponse.NodeEndpoints', '10+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ProduceResponse', 'tags')
    x = o.responses
    out += _P_len(len(x))
    for e in x:
        _e_TopicProduceResponse_v3(e, out, parts)
    out += _P_i(o.throttle_time_ms)


def _d_ProduceResponse_v5(buf, pos):
    o = _new(ProduceResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicProduceResponse_v5(buf, pos)
        a.append(e)
    o.responses = a
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.node_endpoints = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ProduceResponse_v5(o, out, parts):
    if o.node_endpoints != []:
        raise _FieldVersionError('ProduceResponse.NodeEndpoints', '10+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ProduceResponse', 'tags')
    x = o.responses
    out += _P_len(len(x))
    for e in x:
        _e_TopicProduceResponse_v5(e, out, parts)
    out += _P_i(o.throttle_time_ms)


def _d_ProduceResponse_v8(buf, pos):
    o = _new(ProduceResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicProduceResponse_v8(buf, pos)
        a.append(e)
    o.responses = a
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.node_endpoints = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ProduceResponse_v8(o, out, parts):
    if o.node_endpoints != []:
        raise _FieldVersionError('ProduceResponse.NodeEndpoints', '10+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ProduceResponse', 'tags')
    x = o.responses
    out += _P_len(len(x))
    for e in x:
        _e_TopicProduceResponse_v8(e, out, parts)
    out += _P_i(o.throttle_time_ms)


def _d_ProduceResponse_v9(buf, pos):
    o = _new(ProduceResponse)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicProduceResponse_v9(buf, pos)
        a.append(e)
    o.responses = a
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.node_endpoints = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ProduceResponse_v9(o, out, parts):
    if o.node_endpoints != []:
        raise _FieldVersionError('ProduceResponse.NodeEndpoints', '10+')
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicProduceResponse_v9(e, out, parts)
    out += _P_i(o.throttle_time_ms)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ProduceResponse_v10(buf, pos):
    o = _new(ProduceResponse)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicProduceResponse_v10(buf, pos)
        a.append(e)
    o.responses = a
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.node_endpoints = []
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            n, pos = _r_calen(sub, pos)
            a = []
            for _ in range(n):
                e, pos = _d_NodeEndpoint_v10(sub, pos)
                a.append(e)
            o.node_endpoints = a
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_ProduceResponse_v10(o, out, parts):
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicProduceResponse_v10(e, out, parts)
    out += _P_i(o.throttle_time_ms)
    t = []
    x = o.node_endpoints
    if x != []:
        b = bytearray()
        _w_uvarint(b, len(x) + 1)
        for e in x:
            _e_NodeEndpoint_v10(e, b, parts)
        t.append((0, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_ProduceResponse_v13(buf, pos):
    o = _new(ProduceResponse)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicProduceResponse_v13(buf, pos)
        a.append(e)
    o.responses = a
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.node_endpoints = []
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            n, pos = _r_calen(sub, pos)
            a = []
            for _ in range(n):
                e, pos = _d_NodeEndpoint_v10(sub, pos)
                a.append(e)
            o.node_endpoints = a
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_ProduceResponse_v13(o, out, parts):
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicProduceResponse_v13(e, out, parts)
    out += _P_i(o.throttle_time_ms)
    t = []
    x = o.node_endpoints
    if x != []:
        b = bytearray()
        _w_uvarint(b, len(x) + 1)
        for e in x:
            _e_NodeEndpoint_v10(e, b, parts)
        t.append((0, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_ProduceResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v3(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_ProduceResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_ProduceResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v5(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_ProduceResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v5(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_ProduceResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v8(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_ProduceResponse_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v9(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_ProduceResponse_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v10(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_ProduceResponse_v10(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 10) from None


def decode_v11(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v10(buf, pos)


def encode_v11(obj, out, parts):
    try:
        _e_ProduceResponse_v10(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 11) from None


def decode_v12(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v10(buf, pos)


def encode_v12(obj, out, parts):
    try:
        _e_ProduceResponse_v10(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 12) from None


def decode_v13(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceResponse_v13(buf, pos)


def encode_v13(obj, out, parts):
    try:
        _e_ProduceResponse_v13(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceResponse', 13) from None


MESSAGE = ProduceResponse
VERSIONS = range(3, 14)
FLEXIBLE_MIN = 9
DECODERS = {3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10, 11: decode_v11, 12: decode_v12, 13: decode_v13}
ENCODERS = {3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10, 11: encode_v11, 12: encode_v12, 13: encode_v13}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ProduceResponse': (
        ('responses', '[]TopicProduceResponse', 0, 13, None),
        ('throttle_time_ms', 'int32', 1, 13, None),
        ('node_endpoints', '[]NodeEndpoint', 10, 13, None),
    ),
    'NodeEndpoint': (
        ('node_id', 'int32', 10, 13, 'brokerId'),
        ('host', 'string', 10, 13, None),
        ('port', 'int32', 10, 13, None),
        ('rack', 'string', 10, 13, None),
    ),
    'TopicProduceResponse': (
        ('name', 'string', 0, 12, 'topicName'),
        ('topic_id', 'uuid', 13, 13, None),
        ('partition_responses', '[]PartitionProduceResponse', 0, 13, None),
    ),
    'PartitionProduceResponse': (
        ('index', 'int32', 0, 13, None),
        ('error_code', 'int16', 0, 13, None),
        ('base_offset', 'int64', 0, 13, None),
        ('log_append_time_ms', 'int64', 2, 13, None),
        ('log_start_offset', 'int64', 5, 13, None),
        ('record_errors', '[]BatchIndexAndErrorMessage', 8, 13, None),
        ('error_message', 'string', 8, 13, None),
        ('current_leader', 'LeaderIdAndEpoch', 10, 13, None),
    ),
    'LeaderIdAndEpoch': (
        ('leader_id', 'int32', 10, 13, 'brokerId'),
        ('leader_epoch', 'int32', 10, 13, None),
    ),
    'BatchIndexAndErrorMessage': (
        ('batch_index', 'int32', 8, 13, None),
        ('batch_index_error_message', 'string', 8, 13, None),
    ),
}
