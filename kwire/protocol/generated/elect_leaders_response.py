# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ElectLeadersResponse (api key 43): versions 0-2, flexible from v2."""


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
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class ElectLeadersResponse:
    """ElectLeadersResponse, versions 0-2."""

    __slots__ = ('throttle_time_ms', 'error_code', 'replica_election_results', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, replica_election_results=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.replica_election_results = [] if replica_election_results is None else replica_election_results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.replica_election_results == other.replica_election_results
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ReplicaElectionResult:
    """ReplicaElectionResult struct of ElectLeadersResponse, versions 0+."""

    __slots__ = ('topic', 'partition_result', 'unknown_tagged_fields',)

    def __init__(self, *, topic='', partition_result=None, unknown_tagged_fields=None):
        self.topic = topic
        self.partition_result = [] if partition_result is None else partition_result
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic == other.topic
                and self.partition_result == other.partition_result
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class PartitionResult:
    """PartitionResult struct of ElectLeadersResponse, versions 0+."""

    __slots__ = ('partition_id', 'error_code', 'error_message', 'unknown_tagged_fields',)

    def __init__(self, *, partition_id=0, error_code=0, error_message='', unknown_tagged_fields=None):
        self.partition_id = partition_id
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_id == other.partition_id
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_PartitionResult_v0(buf, pos):
    o = _new(PartitionResult)
    (o.partition_id, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_PartitionResult_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('PartitionResult', 'tags')
    out += _P_ih(o.partition_id, o.error_code)
    _w_nstr(out, o.error_message)


def _d_PartitionResult_v2(buf, pos):
    o = _new(PartitionResult)
    (o.partition_id, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionResult_v2(o, out, parts):
    out += _P_ih(o.partition_id, o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReplicaElectionResult_v0(buf, pos):
    o = _new(ReplicaElectionResult)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionResult_v0(buf, pos)
        a.append(e)
    o.partition_result = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ReplicaElectionResult_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ReplicaElectionResult', 'tags')
    _w_str(out, o.topic)
    x = o.partition_result
    out += _P_len(len(x))
    for e in x:
        _e_PartitionResult_v0(e, out, parts)


def _d_ReplicaElectionResult_v2(buf, pos):
    o = _new(ReplicaElectionResult)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionResult_v2(buf, pos)
        a.append(e)
    o.partition_result = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReplicaElectionResult_v2(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partition_result
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionResult_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ElectLeadersResponse_v0(buf, pos):
    o = _new(ElectLeadersResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReplicaElectionResult_v0(buf, pos)
        a.append(e)
    o.replica_election_results = a
    o.error_code = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ElectLeadersResponse_v0(o, out, parts):
    if o.error_code != 0:
        raise _FieldVersionError('ElectLeadersResponse.ErrorCode', '1+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ElectLeadersResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.replica_election_results
    out += _P_len(len(x))
    for e in x:
        _e_ReplicaElectionResult_v0(e, out, parts)


def _d_ElectLeadersResponse_v1(buf, pos):
    o = _new(ElectLeadersResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReplicaElectionResult_v0(buf, pos)
        a.append(e)
    o.replica_election_results = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ElectLeadersResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ElectLeadersResponse', 'tags')
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.replica_election_results
    out += _P_len(len(x))
    for e in x:
        _e_ReplicaElectionResult_v0(e, out, parts)


def _d_ElectLeadersResponse_v2(buf, pos):
    o = _new(ElectLeadersResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReplicaElectionResult_v2(buf, pos)
        a.append(e)
    o.replica_election_results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ElectLeadersResponse_v2(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.replica_election_results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReplicaElectionResult_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ElectLeadersResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ElectLeadersResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ElectLeadersResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ElectLeadersResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ElectLeadersResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ElectLeadersResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ElectLeadersResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ElectLeadersResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ElectLeadersResponse', 2) from None


MESSAGE = ElectLeadersResponse
VERSIONS = range(0, 3)
FLEXIBLE_MIN = 2
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ElectLeadersResponse': (
        ('throttle_time_ms', 'int32', 0, 2, None),
        ('error_code', 'int16', 1, 2, None),
        ('replica_election_results', '[]ReplicaElectionResult', 0, 2, None),
    ),
    'ReplicaElectionResult': (
        ('topic', 'string', 0, 2, 'topicName'),
        ('partition_result', '[]PartitionResult', 0, 2, None),
    ),
    'PartitionResult': (
        ('partition_id', 'int32', 0, 2, None),
        ('error_code', 'int16', 0, 2, None),
        ('error_message', 'string', 0, 2, None),
    ),
}
