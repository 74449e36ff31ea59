# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ShareFetchResponse (api key 78): versions 1-2, flexible from v1."""


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
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack
_S_ii = _Struct('>ii')
_U_ii = _S_ii.unpack_from
_P_ii = _S_ii.pack
_S_qqh = _Struct('>qqh')
_U_qqh = _S_qqh.unpack_from
_P_qqh = _S_qqh.pack


class ShareFetchResponse:
    """ShareFetchResponse, versions 1-2."""

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'acquisition_lock_timeout_ms', 'responses', 'node_endpoints', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, acquisition_lock_timeout_ms=0, responses=None, node_endpoints=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.acquisition_lock_timeout_ms = acquisition_lock_timeout_ms
        self.responses = [] if responses is None else responses
        self.node_endpoints = [] if node_endpoints is None else node_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.acquisition_lock_timeout_ms == other.acquisition_lock_timeout_ms
                and self.responses == other.responses
                and self.node_endpoints == other.node_endpoints
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class NodeEndpoint:
    """NodeEndpoint struct of ShareFetchResponse, versions 0+."""

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


class ShareFetchableTopicResponse:
    """ShareFetchableTopicResponse struct of ShareFetchResponse, versions 0+."""

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


class PartitionData:
    """PartitionData struct of ShareFetchResponse, versions 0+."""

    __slots__ = ('partition_index', 'error_code', 'error_message', 'acknowledge_error_code', 'acknowledge_error_message', 'current_leader', 'records', 'acquired_records', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, error_code=0, error_message=None, acknowledge_error_code=0, acknowledge_error_message=None, current_leader=None, records=None, acquired_records=None, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.acknowledge_error_code = acknowledge_error_code
        self.acknowledge_error_message = acknowledge_error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is None else current_leader
        self.records = records
        self.acquired_records = [] if acquired_records is None else acquired_records
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.acknowledge_error_code == other.acknowledge_error_code
                and self.acknowledge_error_message == other.acknowledge_error_message
                and self.current_leader == other.current_leader
                and self.records == other.records
                and self.acquired_records == other.acquired_records
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AcquiredRecords:
    """AcquiredRecords struct of ShareFetchResponse, versions 0+."""

    __slots__ = ('first_offset', 'last_offset', 'delivery_count', 'unknown_tagged_fields',)

    def __init__(self, *, first_offset=0, last_offset=0, delivery_count=0, unknown_tagged_fields=None):
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.delivery_count = delivery_count
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.first_offset == other.first_offset
                and self.last_offset == other.last_offset
                and self.delivery_count == other.delivery_count
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class LeaderIdAndEpoch:
    """LeaderIdAndEpoch struct of ShareFetchResponse, versions 0+."""

    __slots__ = ('leader_id', 'leader_epoch', 'unknown_tagged_fields',)

    def __init__(self, *, leader_id=0, leader_epoch=0, unknown_tagged_fields=None):
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


def _d_LeaderIdAndEpoch_v1(buf, pos):
    o = _new(LeaderIdAndEpoch)
    (o.leader_id, o.leader_epoch,) = _U_ii(buf, pos)
    pos += 8
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_LeaderIdAndEpoch_v1(o, out, parts):
    out += _P_ii(o.leader_id, o.leader_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AcquiredRecords_v1(buf, pos):
    o = _new(AcquiredRecords)
    (o.first_offset, o.last_offset, o.delivery_count,) = _U_qqh(buf, pos)
    pos += 18
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AcquiredRecords_v1(o, out, parts):
    out += _P_qqh(o.first_offset, o.last_offset, o.delivery_count)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionData_v1(buf, pos):
    o = _new(PartitionData)
    (o.partition_index, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.acknowledge_error_code,) = _U_h(buf, pos)
    pos += 2
    o.acknowledge_error_message, pos = _r_cnstr(buf, pos)
    o.current_leader, pos = _d_LeaderIdAndEpoch_v1(buf, pos)
    o.records, pos = _r_crecords(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AcquiredRecords_v1(buf, pos)
        a.append(e)
    o.acquired_records = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionData_v1(o, out, parts):
    out += _P_ih(o.partition_index, o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_h(o.acknowledge_error_code)
    _w_cnstr(out, o.acknowledge_error_message)
    _e_LeaderIdAndEpoch_v1(o.current_leader, out, parts)
    _w_crecords(out, parts, o.records)
    x = o.acquired_records
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AcquiredRecords_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ShareFetchableTopicResponse_v1(buf, pos):
    o = _new(ShareFetchableTopicResponse)
    o.topic_id, pos = _r_uuid(buf, pos)
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


def _e_ShareFetchableTopicResponse_v1(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionData_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_NodeEndpoint_v1(buf, pos):
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


def _e_NodeEndpoint_v1(o, out, parts):
    out += _P_i(o.node_id)
    _w_cstr(out, o.host)
    out += _P_i(o.port)
    _w_cnstr(out, o.rack)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ShareFetchResponse_v1(buf, pos):
    o = _new(ShareFetchResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.acquisition_lock_timeout_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ShareFetchableTopicResponse_v1(buf, pos)
        a.append(e)
    o.responses = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_NodeEndpoint_v1(buf, pos)
        a.append(e)
    o.node_endpoints = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ShareFetchResponse_v1(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_i(o.acquisition_lock_timeout_ms)
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ShareFetchableTopicResponse_v1(e, out, parts)
    x = o.node_endpoints
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_NodeEndpoint_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ShareFetchResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ShareFetchResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ShareFetchResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ShareFetchResponse_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ShareFetchResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ShareFetchResponse', 2) from None


MESSAGE = ShareFetchResponse
VERSIONS = range(1, 3)
FLEXIBLE_MIN = 1
DECODERS = {1: decode_v1, 2: decode_v2}
ENCODERS = {1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ShareFetchResponse': (
        ('throttle_time_ms', 'int32', 0, 2, None),
        ('error_code', 'int16', 0, 2, None),
        ('error_message', 'string', 0, 2, None),
        ('acquisition_lock_timeout_ms', 'int32', 1, 2, None),
        ('responses', '[]ShareFetchableTopicResponse', 0, 2, None),
        ('node_endpoints', '[]NodeEndpoint', 0, 2, None),
    ),
    'NodeEndpoint': (
        ('node_id', 'int32', 0, 2, 'brokerId'),
        ('host', 'string', 0, 2, None),
        ('port', 'int32', 0, 2, None),
        ('rack', 'string', 0, 2, None),
    ),
    'ShareFetchableTopicResponse': (
        ('topic_id', 'uuid', 0, 2, None),
        ('partitions', '[]PartitionData', 0, 2, None),
    ),
    'PartitionData': (
        ('partition_index', 'int32', 0, 2, None),
        ('error_code', 'int16', 0, 2, None),
        ('error_message', 'string', 0, 2, None),
        ('acknowledge_error_code', 'int16', 0, 2, None),
        ('acknowledge_error_message', 'string', 0, 2, None),
        ('current_leader', 'LeaderIdAndEpoch', 0, 2, None),
        ('records', 'records', 0, 2, None),
        ('acquired_records', '[]AcquiredRecords', 0, 2, None),
    ),
    'AcquiredRecords': (
        ('first_offset', 'int64', 0, 2, None),
        ('last_offset', 'int64', 0, 2, None),
        ('delivery_count', 'int16', 0, 2, None),
    ),
    'LeaderIdAndEpoch': (
        ('leader_id', 'int32', 0, 2, None),
        ('leader_epoch', 'int32', 0, 2, None),
    ),
}
