# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeQuorumResponse (api key 55): versions 0-2, flexible from v0."""


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
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack
_S_ihiiq = _Struct('>ihiiq')
_U_ihiiq = _S_ihiiq.unpack_from
_P_ihiiq = _S_ihiiq.pack
_S_iiq = _Struct('>iiq')
_U_iiq = _S_iiq.unpack_from
_P_iiq = _S_iiq.pack
_S_iq = _Struct('>iq')
_U_iq = _S_iq.unpack_from
_P_iq = _S_iq.pack
_S_iqqq = _Struct('>iqqq')
_U_iqqq = _S_iqqq.unpack_from
_P_iqqq = _S_iqqq.pack
_S_qqq = _Struct('>qqq')
_U_qqq = _S_qqq.unpack_from
_P_qqq = _S_qqq.pack


class DescribeQuorumResponse:
    """DescribeQuorumResponse, versions 0-2."""

    __slots__ = ('error_code', 'error_message', 'topics', 'nodes', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, error_message='', topics=None, nodes=None, unknown_tagged_fields=None):
        self.error_code = error_code
        self.error_message = error_message
        self.topics = [] if topics is None else topics
        self.nodes = [] if nodes is None else nodes
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.topics == other.topics
                and self.nodes == other.nodes
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Node:
    """Node struct of DescribeQuorumResponse, versions 2+."""

    __slots__ = ('node_id', 'listeners', 'unknown_tagged_fields',)

    def __init__(self, *, node_id=0, listeners=None, unknown_tagged_fields=None):
        self.node_id = node_id
        self.listeners = [] if listeners is None else listeners
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.node_id == other.node_id
                and self.listeners == other.listeners
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Listener:
    """Listener struct of DescribeQuorumResponse, versions 2+."""

    __slots__ = ('name', 'host', 'port', 'unknown_tagged_fields',)

    def __init__(self, *, name='', host='', port=0, unknown_tagged_fields=None):
        self.name = name
        self.host = host
        self.port = port
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.host == other.host
                and self.port == other.port
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicData:
    """TopicData struct of DescribeQuorumResponse, versions 0+."""

    __slots__ = ('topic_name', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic_name='', partitions=None, unknown_tagged_fields=None):
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_name == other.topic_name
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class PartitionData:
    """PartitionData struct of DescribeQuorumResponse, versions 0+."""

    __slots__ = ('partition_index', 'error_code', 'error_message', 'leader_id', 'leader_epoch', 'high_watermark', 'current_voters', 'observers', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, error_code=0, error_message='', leader_id=0, leader_epoch=0, high_watermark=0, current_voters=None, observers=None, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.high_watermark = high_watermark
        self.current_voters = [] if current_voters is None else current_voters
        self.observers = [] if observers is None else observers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.leader_id == other.leader_id
                and self.leader_epoch == other.leader_epoch
                and self.high_watermark == other.high_watermark
                and self.current_voters == other.current_voters
                and self.observers == other.observers
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ReplicaState:
    """ReplicaState struct of DescribeQuorumResponse, versions 0+."""

    __slots__ = ('replica_id', 'replica_directory_id', 'log_end_offset', 'last_fetch_timestamp', 'last_caught_up_timestamp', 'unknown_tagged_fields',)

    def __init__(self, *, replica_id=0, replica_directory_id=_ZERO_UUID, log_end_offset=0, last_fetch_timestamp=-1, last_caught_up_timestamp=-1, unknown_tagged_fields=None):
        self.replica_id = replica_id
        self.replica_directory_id = replica_directory_id
        self.log_end_offset = log_end_offset
        self.last_fetch_timestamp = last_fetch_timestamp
        self.last_caught_up_timestamp = last_caught_up_timestamp
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.replica_id == other.replica_id
                and self.replica_directory_id == other.replica_directory_id
                and self.log_end_offset == other.log_end_offset
                and self.last_fetch_timestamp == other.last_fetch_timestamp
                and self.last_caught_up_timestamp == other.last_caught_up_timestamp
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ReplicaState_v0(buf, pos):
    o = _new(ReplicaState)
    (o.replica_id, o.log_end_offset,) = _U_iq(buf, pos)
    pos += 12
    o.replica_directory_id = _ZERO_UUID
    o.last_fetch_timestamp = -1
    o.last_caught_up_timestamp = -1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReplicaState_v0(o, out, parts):
    if o.replica_directory_id != _ZERO_UUID:
        raise _FieldVersionError('ReplicaState.ReplicaDirectoryId', '2+')
    out += _P_iq(o.replica_id, o.log_end_offset)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReplicaState_v1(buf, pos):
    o = _new(ReplicaState)
    (o.replica_id, o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp,) = _U_iqqq(buf, pos)
    pos += 28
    o.replica_directory_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReplicaState_v1(o, out, parts):
    if o.replica_directory_id != _ZERO_UUID:
        raise _FieldVersionError('ReplicaState.ReplicaDirectoryId', '2+')
    out += _P_iqqq(o.replica_id, o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReplicaState_v2(buf, pos):
    o = _new(ReplicaState)
    (o.replica_id,) = _U_i(buf, pos)
    pos += 4
    o.replica_directory_id, pos = _r_uuid(buf, pos)
    (o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp,) = _U_qqq(buf, pos)
    pos += 24
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReplicaState_v2(o, out, parts):
    out += _P_i(o.replica_id)
    out += o.replica_directory_id.bytes
    out += _P_qqq(o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionData_v0(buf, pos):
    o = _new(PartitionData)
    (o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark,) = _U_ihiiq(buf, pos)
    pos += 22
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReplicaState_v0(buf, pos)
        a.append(e)
    o.current_voters = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReplicaState_v0(buf, pos)
        a.append(e)
    o.observers = a
    o.error_message = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionData_v0(o, out, parts):
    out += _P_ihiiq(o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark)
    x = o.current_voters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReplicaState_v0(e, out, parts)
    x = o.observers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReplicaState_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionData_v1(buf, pos):
    o = _new(PartitionData)
    (o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark,) = _U_ihiiq(buf, pos)
    pos += 22
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReplicaState_v1(buf, pos)
        a.append(e)
    o.current_voters = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReplicaState_v1(buf, pos)
        a.append(e)
    o.observers = a
    o.error_message = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionData_v1(o, out, parts):
    out += _P_ihiiq(o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark)
    x = o.current_voters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReplicaState_v1(e, out, parts)
    x = o.observers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReplicaState_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionData_v2(buf, pos):
    o = _new(PartitionData)
    (o.partition_index, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.leader_id, o.leader_epoch, o.high_watermark,) = _U_iiq(buf, pos)
    pos += 16
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReplicaState_v2(buf, pos)
        a.append(e)
    o.current_voters = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReplicaState_v2(buf, pos)
        a.append(e)
    o.observers = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionData_v2(o, out, parts):
    out += _P_ih(o.partition_index, o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_iiq(o.leader_id, o.leader_epoch, o.high_watermark)
    x = o.current_voters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReplicaState_v2(e, out, parts)
    x = o.observers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReplicaState_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicData_v0(buf, pos):
    o = _new(TopicData)
    o.topic_name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionData_v0(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicData_v0(o, out, parts):
    _w_cstr(out, o.topic_name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionData_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicData_v1(buf, pos):
    o = _new(TopicData)
    o.topic_name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionData_v1(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicData_v1(o, out, parts):
    _w_cstr(out, o.topic_name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionData_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicData_v2(buf, pos):
    o = _new(TopicData)
    o.topic_name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionData_v2(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicData_v2(o, out, parts):
    _w_cstr(out, o.topic_name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionData_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Listener_v2(buf, pos):
    o = _new(Listener)
    o.name, pos = _r_cstr(buf, pos)
    o.host, pos = _r_cstr(buf, pos)
    (o.port,) = _U_H(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Listener_v2(o, out, parts):
    _w_cstr(out, o.name)
    _w_cstr(out, o.host)
    out += _P_H(o.port)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Node_v2(buf, pos):
    o = _new(Node)
    (o.node_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Listener_v2(buf, pos)
        a.append(e)
    o.listeners = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Node_v2(o, out, parts):
    out += _P_i(o.node_id)
    x = o.listeners
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Listener_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeQuorumResponse_v0(buf, pos):
    o = _new(DescribeQuorumResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicData_v0(buf, pos)
        a.append(e)
    o.topics = a
    o.error_message = ''
    o.nodes = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeQuorumResponse_v0(o, out, parts):
    if o.nodes != []:
        raise _FieldVersionError('DescribeQuorumResponse.Nodes', '2+')
    out += _P_h(o.error_code)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicData_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeQuorumResponse_v1(buf, pos):
    o = _new(DescribeQuorumResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicData_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.error_message = ''
    o.nodes = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeQuorumResponse_v1(o, out, parts):
    if o.nodes != []:
        raise _FieldVersionError('DescribeQuorumResponse.Nodes', '2+')
    out += _P_h(o.error_code)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicData_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeQuorumResponse_v2(buf, pos):
    o = _new(DescribeQuorumResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicData_v2(buf, pos)
        a.append(e)
    o.topics = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Node_v2(buf, pos)
        a.append(e)
    o.nodes = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeQuorumResponse_v2(o, out, parts):
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicData_v2(e, out, parts)
    x = o.nodes
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Node_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeQuorumResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeQuorumResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeQuorumResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeQuorumResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeQuorumResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeQuorumResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeQuorumResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeQuorumResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeQuorumResponse', 2) from None


MESSAGE = DescribeQuorumResponse
VERSIONS = range(0, 3)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeQuorumResponse': (
        ('error_code', 'int16', 0, 2, None),
        ('error_message', 'string', 2, 2, None),
        ('topics', '[]TopicData', 0, 2, None),
        ('nodes', '[]Node', 2, 2, None),
    ),
    'Node': (
        ('node_id', 'int32', 2, 2, 'brokerId'),
        ('listeners', '[]Listener', 2, 2, None),
    ),
    'Listener': (
        ('name', 'string', 2, 2, None),
        ('host', 'string', 2, 2, None),
        ('port', 'uint16', 2, 2, None),
    ),
    'TopicData': (
        ('topic_name', 'string', 0, 2, 'topicName'),
        ('partitions', '[]PartitionData', 0, 2, None),
    ),
    'PartitionData': (
        ('partition_index', 'int32', 0, 2, None),
        ('error_code', 'int16', 0, 2, None),
        ('error_message', 'string', 2, 2, None),
        ('leader_id', 'int32', 0, 2, 'brokerId'),
        ('leader_epoch', 'int32', 0, 2, None),
        ('high_watermark', 'int64', 0, 2, None),
        ('current_voters', '[]ReplicaState', 0, 2, None),
        ('observers', '[]ReplicaState', 0, 2, None),
    ),
    'ReplicaState': (
        ('replica_id', 'int32', 0, 2, 'brokerId'),
        ('replica_directory_id', 'uuid', 2, 2, None),
        ('log_end_offset', 'int64', 0, 2, None),
        ('last_fetch_timestamp', 'int64', 1, 2, None),
        ('last_caught_up_timestamp', 'int64', 1, 2, None),
    ),
}
