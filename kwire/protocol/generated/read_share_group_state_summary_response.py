# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ReadShareGroupStateSummaryResponse (api key 87): versions 0-1, flexible from v0."""


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
_S_iiq = _Struct('>iiq')
_U_iiq = _S_iiq.unpack_from
_P_iiq = _S_iiq.pack
_S_iiqi = _Struct('>iiqi')
_U_iiqi = _S_iiqi.unpack_from
_P_iiqi = _S_iiqi.pack


class ReadShareGroupStateSummaryResponse:
    """ReadShareGroupStateSummaryResponse, versions 0-1."""

    __slots__ = ('results', 'unknown_tagged_fields',)

    def __init__(self, *, results=None, unknown_tagged_fields=None):
        self.results = [] if results is None else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.results == other.results
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ReadStateSummaryResult:
    """ReadStateSummaryResult struct of ReadShareGroupStateSummaryResponse, versions 0+."""

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


class PartitionResult:
    """PartitionResult struct of ReadShareGroupStateSummaryResponse, versions 0+."""

    __slots__ = ('partition', 'error_code', 'error_message', 'state_epoch', 'leader_epoch', 'start_offset', 'delivery_complete_count', 'unknown_tagged_fields',)

    def __init__(self, *, partition=0, error_code=0, error_message=None, state_epoch=0, leader_epoch=0, start_offset=0, delivery_complete_count=-1, unknown_tagged_fields=None):
        self.partition = partition
        self.error_code = error_code
        self.error_message = error_message
        self.state_epoch = state_epoch
        self.leader_epoch = leader_epoch
        self.start_offset = start_offset
        self.delivery_complete_count = delivery_complete_count
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition == other.partition
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.state_epoch == other.state_epoch
                and self.leader_epoch == other.leader_epoch
                and self.start_offset == other.start_offset
                and self.delivery_complete_count == other.delivery_complete_count
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_PartitionResult_v0(buf, pos):
    o = _new(PartitionResult)
    (o.partition, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.state_epoch, o.leader_epoch, o.start_offset,) = _U_iiq(buf, pos)
    pos += 16
    o.delivery_complete_count = -1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionResult_v0(o, out, parts):
    out += _P_ih(o.partition, o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_iiq(o.state_epoch, o.leader_epoch, o.start_offset)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionResult_v1(buf, pos):
    o = _new(PartitionResult)
    (o.partition, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count,) = _U_iiqi(buf, pos)
    pos += 20
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionResult_v1(o, out, parts):
    out += _P_ih(o.partition, o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_iiqi(o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReadStateSummaryResult_v0(buf, pos):
    o = _new(ReadStateSummaryResult)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionResult_v0(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReadStateSummaryResult_v0(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionResult_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReadStateSummaryResult_v1(buf, pos):
    o = _new(ReadStateSummaryResult)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionResult_v1(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReadStateSummaryResult_v1(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionResult_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReadShareGroupStateSummaryResponse_v0(buf, pos):
    o = _new(ReadShareGroupStateSummaryResponse)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReadStateSummaryResult_v0(buf, pos)
        a.append(e)
    o.results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReadShareGroupStateSummaryResponse_v0(o, out, parts):
    x = o.results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReadStateSummaryResult_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReadShareGroupStateSummaryResponse_v1(buf, pos):
    o = _new(ReadShareGroupStateSummaryResponse)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReadStateSummaryResult_v1(buf, pos)
        a.append(e)
    o.results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReadShareGroupStateSummaryResponse_v1(o, out, parts):
    x = o.results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReadStateSummaryResult_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ReadShareGroupStateSummaryResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ReadShareGroupStateSummaryResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ReadShareGroupStateSummaryResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ReadShareGroupStateSummaryResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ReadShareGroupStateSummaryResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ReadShareGroupStateSummaryResponse', 1) from None


MESSAGE = ReadShareGroupStateSummaryResponse
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ReadShareGroupStateSummaryResponse': (
        ('results', '[]ReadStateSummaryResult', 0, 1, None),
    ),
    'ReadStateSummaryResult': (
        ('topic_id', 'uuid', 0, 1, None),
        ('partitions', '[]PartitionResult', 0, 1, None),
    ),
    'PartitionResult': (
        ('partition', 'int32', 0, 1, None),
        ('error_code', 'int16', 0, 1, None),
        ('error_message', 'string', 0, 1, None),
        ('state_epoch', 'int32', 0, 1, None),
        ('leader_epoch', 'int32', 0, 1, None),
        ('start_offset', 'int64', 0, 1, None),
        ('delivery_complete_count', 'int32', 1, 1, None),
    ),
}
