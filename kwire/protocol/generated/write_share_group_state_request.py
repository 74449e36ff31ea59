# Generated from protocol_specs by kwire.codegen -- do not edit.
"""WriteShareGroupStateRequest (api key 85): versions 0-1, flexible from v0."""


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
_S_iiiq = _Struct('>iiiq')
_U_iiiq = _S_iiiq.unpack_from
_P_iiiq = _S_iiiq.pack
_S_iiiqi = _Struct('>iiiqi')
_U_iiiqi = _S_iiiqi.unpack_from
_P_iiiqi = _S_iiiqi.pack
_S_qqbh = _Struct('>qqbh')
_U_qqbh = _S_qqbh.unpack_from
_P_qqbh = _S_qqbh.pack


class WriteShareGroupStateRequest:
    """WriteShareGroupStateRequest, versions 0-1."""

    __slots__ = ('group_id', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', topics=None, unknown_tagged_fields=None):
        self.group_id = group_id
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class WriteStateData:
    """WriteStateData struct of WriteShareGroupStateRequest, versions 0+."""

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
    """PartitionData struct of WriteShareGroupStateRequest, versions 0+."""

    __slots__ = ('partition', 'state_epoch', 'leader_epoch', 'start_offset', 'delivery_complete_count', 'state_batches', 'unknown_tagged_fields',)

    def __init__(self, *, partition=0, state_epoch=0, leader_epoch=0, start_offset=0, delivery_complete_count=-1, state_batches=None, unknown_tagged_fields=None):
        self.partition = partition
        self.state_epoch = state_epoch
        self.leader_epoch = leader_epoch
        self.start_offset = start_offset
        self.delivery_complete_count = delivery_complete_count
        self.state_batches = [] if state_batches is None else state_batches
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition == other.partition
                and self.state_epoch == other.state_epoch
                and self.leader_epoch == other.leader_epoch
                and self.start_offset == other.start_offset
                and self.delivery_complete_count == other.delivery_complete_count
                and self.state_batches == other.state_batches
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class StateBatch:
    """StateBatch struct of WriteShareGroupStateRequest, versions 0+."""

    __slots__ = ('first_offset', 'last_offset', 'delivery_state', 'delivery_count', 'unknown_tagged_fields',)

    def __init__(self, *, first_offset=0, last_offset=0, delivery_state=0, delivery_count=0, unknown_tagged_fields=None):
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.delivery_state = delivery_state
        self.delivery_count = delivery_count
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.first_offset == other.first_offset
                and self.last_offset == other.last_offset
                and self.delivery_state == other.delivery_state
                and self.delivery_count == other.delivery_count
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_StateBatch_v0(buf, pos):
    o = _new(StateBatch)
    (o.first_offset, o.last_offset, o.delivery_state, o.delivery_count,) = _U_qqbh(buf, pos)
    pos += 19
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_StateBatch_v0(o, out, parts):
    out += _P_qqbh(o.first_offset, o.last_offset, o.delivery_state, o.delivery_count)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionData_v0(buf, pos):
    o = _new(PartitionData)
    (o.partition, o.state_epoch, o.leader_epoch, o.start_offset,) = _U_iiiq(buf, pos)
    pos += 20
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_StateBatch_v0(buf, pos)
        a.append(e)
    o.state_batches = a
    o.delivery_complete_count = -1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionData_v0(o, out, parts):
    out += _P_iiiq(o.partition, o.state_epoch, o.leader_epoch, o.start_offset)
    x = o.state_batches
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_StateBatch_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionData_v1(buf, pos):
    o = _new(PartitionData)
    (o.partition, o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count,) = _U_iiiqi(buf, pos)
    pos += 24
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_StateBatch_v0(buf, pos)
        a.append(e)
    o.state_batches = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionData_v1(o, out, parts):
    out += _P_iiiqi(o.partition, o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count)
    x = o.state_batches
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_StateBatch_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WriteStateData_v0(buf, pos):
    o = _new(WriteStateData)
    o.topic_id, pos = _r_uuid(buf, pos)
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


def _e_WriteStateData_v0(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionData_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WriteStateData_v1(buf, pos):
    o = _new(WriteStateData)
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


def _e_WriteStateData_v1(o, out, parts):
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


def _d_WriteShareGroupStateRequest_v0(buf, pos):
    o = _new(WriteShareGroupStateRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_WriteStateData_v0(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WriteShareGroupStateRequest_v0(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_WriteStateData_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WriteShareGroupStateRequest_v1(buf, pos):
    o = _new(WriteShareGroupStateRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_WriteStateData_v1(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WriteShareGroupStateRequest_v1(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_WriteStateData_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_WriteShareGroupStateRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_WriteShareGroupStateRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('WriteShareGroupStateRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_WriteShareGroupStateRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_WriteShareGroupStateRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('WriteShareGroupStateRequest', 1) from None


MESSAGE = WriteShareGroupStateRequest
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'WriteShareGroupStateRequest': (
        ('group_id', 'string', 0, 1, None),
        ('topics', '[]WriteStateData', 0, 1, None),
    ),
    'WriteStateData': (
        ('topic_id', 'uuid', 0, 1, None),
        ('partitions', '[]PartitionData', 0, 1, None),
    ),
    'PartitionData': (
        ('partition', 'int32', 0, 1, None),
        ('state_epoch', 'int32', 0, 1, None),
        ('leader_epoch', 'int32', 0, 1, None),
        ('start_offset', 'int64', 0, 1, None),
        ('delivery_complete_count', 'int32', 1, 1, None),
        ('state_batches', '[]StateBatch', 0, 1, None),
    ),
    'StateBatch': (
        ('first_offset', 'int64', 0, 1, None),
        ('last_offset', 'int64', 0, 1, None),
        ('delivery_state', 'int8', 0, 1, None),
        ('delivery_count', 'int16', 0, 1, None),
    ),
}
