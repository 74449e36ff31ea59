# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AlterPartitionReassignmentsRequest (api key 45): versions 0-1, flexible from v0."""


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
_S_io = _Struct('>i?')
_U_io = _S_io.unpack_from
_P_io = _S_io.pack


class AlterPartitionReassignmentsRequest:
    """AlterPartitionReassignmentsRequest, versions 0-1."""

    __slots__ = ('timeout_ms', 'allow_replication_factor_change', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, timeout_ms=60000, allow_replication_factor_change=True, topics=None, unknown_tagged_fields=None):
        self.timeout_ms = timeout_ms
        self.allow_replication_factor_change = allow_replication_factor_change
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.timeout_ms == other.timeout_ms
                and self.allow_replication_factor_change == other.allow_replication_factor_change
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ReassignableTopic:
    """ReassignableTopic struct of AlterPartitionReassignmentsRequest, versions 0+."""

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


class ReassignablePartition:
    """ReassignablePartition struct of AlterPartitionReassignmentsRequest, versions 0+."""

    __slots__ = ('partition_index', 'replicas', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, replicas=None, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.replicas = replicas
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.replicas == other.replicas
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ReassignablePartition_v0(buf, pos):
    o = _new(ReassignablePartition)
    (o.partition_index,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.replicas = None
    else:
        o.replicas, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReassignablePartition_v0(o, out, parts):
    out += _P_i(o.partition_index)
    x = o.replicas
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReassignableTopic_v0(buf, pos):
    o = _new(ReassignableTopic)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReassignablePartition_v0(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReassignableTopic_v0(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReassignablePartition_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterPartitionReassignmentsRequest_v0(buf, pos):
    o = _new(AlterPartitionReassignmentsRequest)
    (o.timeout_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReassignableTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    o.allow_replication_factor_change = True
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterPartitionReassignmentsRequest_v0(o, out, parts):
    if o.allow_replication_factor_change != True:
        raise _FieldVersionError('AlterPartitionReassignmentsRequest.AllowReplicationFactorChange', '1+')
    out += _P_i(o.timeout_ms)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReassignableTopic_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterPartitionReassignmentsRequest_v1(buf, pos):
    o = _new(AlterPartitionReassignmentsRequest)
    (o.timeout_ms, o.allow_replication_factor_change,) = _U_io(buf, pos)
    pos += 5
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReassignableTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterPartitionReassignmentsRequest_v1(o, out, parts):
    out += _P_io(o.timeout_ms, o.allow_replication_factor_change)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReassignableTopic_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterPartitionReassignmentsRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AlterPartitionReassignmentsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterPartitionReassignmentsRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterPartitionReassignmentsRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AlterPartitionReassignmentsRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterPartitionReassignmentsRequest', 1) from None


MESSAGE = AlterPartitionReassignmentsRequest
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AlterPartitionReassignmentsRequest': (
        ('timeout_ms', 'int32', 0, 1, None),
        ('allow_replication_factor_change', 'bool', 1, 1, None),
        ('topics', '[]ReassignableTopic', 0, 1, None),
    ),
    'ReassignableTopic': (
        ('name', 'string', 0, 1, 'topicName'),
        ('partitions', '[]ReassignablePartition', 0, 1, None),
    ),
    'ReassignablePartition': (
        ('partition_index', 'int32', 0, 1, None),
        ('replicas', '[]int32', 0, 1, 'brokerId'),
    ),
}
