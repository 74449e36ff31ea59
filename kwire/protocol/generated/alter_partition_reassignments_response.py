# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AlterPartitionReassignmentsResponse (api key 45): versions 0-1, flexible from v0."""


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
_S_ioh = _Struct('>i?h')
_U_ioh = _S_ioh.unpack_from
_P_ioh = _S_ioh.pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class AlterPartitionReassignmentsResponse:
    """AlterPartitionReassignmentsResponse, versions 0-1."""

    __slots__ = ('throttle_time_ms', 'allow_replication_factor_change', 'error_code', 'error_message', 'responses', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, allow_replication_factor_change=True, error_code=0, error_message='', responses=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.allow_replication_factor_change = allow_replication_factor_change
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is None else responses
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.allow_replication_factor_change == other.allow_replication_factor_change
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.responses == other.responses
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ReassignableTopicResponse:
    """ReassignableTopicResponse struct of AlterPartitionReassignmentsResponse, versions 0+."""

    __slots__ = ('name', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, name='', partitions=None, unknown_tagged_fields=None):
        self.name = name
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ReassignablePartitionResponse:
    """ReassignablePartitionResponse struct of AlterPartitionReassignmentsResponse, versions 0+."""

    __slots__ = ('partition_index', 'error_code', 'error_message', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, error_code=0, error_message='', unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ReassignablePartitionResponse_v0(buf, pos):
    o = _new(ReassignablePartitionResponse)
    (o.partition_index, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReassignablePartitionResponse_v0(o, out, parts):
    out += _P_ih(o.partition_index, o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReassignableTopicResponse_v0(buf, pos):
    o = _new(ReassignableTopicResponse)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReassignablePartitionResponse_v0(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReassignableTopicResponse_v0(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReassignablePartitionResponse_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterPartitionReassignmentsResponse_v0(buf, pos):
    o = _new(AlterPartitionReassignmentsResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReassignableTopicResponse_v0(buf, pos)
        a.append(e)
    o.responses = a
    o.allow_replication_factor_change = True
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterPartitionReassignmentsResponse_v0(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    _w_cnstr(out, o.error_message)
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReassignableTopicResponse_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterPartitionReassignmentsResponse_v1(buf, pos):
    o = _new(AlterPartitionReassignmentsResponse)
    (o.throttle_time_ms, o.allow_replication_factor_change, o.error_code,) = _U_ioh(buf, pos)
    pos += 7
    o.error_message, pos = _r_cnstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReassignableTopicResponse_v0(buf, pos)
        a.append(e)
    o.responses = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterPartitionReassignmentsResponse_v1(o, out, parts):
    out += _P_ioh(o.throttle_time_ms, o.allow_replication_factor_change, o.error_code)
    _w_cnstr(out, o.error_message)
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReassignableTopicResponse_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterPartitionReassignmentsResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AlterPartitionReassignmentsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterPartitionReassignmentsResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterPartitionReassignmentsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AlterPartitionReassignmentsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterPartitionReassignmentsResponse', 1) from None


MESSAGE = AlterPartitionReassignmentsResponse
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AlterPartitionReassignmentsResponse': (
        ('throttle_time_ms', 'int32', 0, 1, None),
        ('allow_replication_factor_change', 'bool', 1, 1, None),
        ('error_code', 'int16', 0, 1, None),
        ('error_message', 'string', 0, 1, None),
        ('responses', '[]ReassignableTopicResponse', 0, 1, None),
    ),
    'ReassignableTopicResponse': (
        ('name', 'string', 0, 1, 'topicName'),
        ('partitions', '[]ReassignablePartitionResponse', 0, 1, None),
    ),
    'ReassignablePartitionResponse': (
        ('partition_index', 'int32', 0, 1, None),
        ('error_code', 'int16', 0, 1, None),
        ('error_message', 'string', 0, 1, None),
    ),
}
