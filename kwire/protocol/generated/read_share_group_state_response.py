# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ReadShareGroupStateResponse (api key 84): versions 0-0, flexible from v0."""


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
_S_iq = _Struct('>iq')
_U_iq = _S_iq.unpack_from
_P_iq = _S_iq.pack
_S_qqbh = _Struct('>qqbh')
_U_qqbh = _S_qqbh.unpack_from
_P_qqbh = _S_qqbh.pack


class ReadShareGroupStateResponse:
    """ReadShareGroupStateResponse, versions 0."""

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


class ReadStateResult:
    """ReadStateResult struct of ReadShareGroupStateResponse, versions 0+."""

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
    """PartitionResult struct of ReadShareGroupStateResponse, versions 0+."""

    __slots__ = ('partition', 'error_code', 'error_message', 'state_epoch', 'start_offset', 'state_batches', 'unknown_tagged_fields',)

    def __init__(self, *, partition=0, error_code=0, error_message=None, state_epoch=0, start_offset=0, state_batches=None, unknown_tagged_fields=None):
        self.partition = partition
        self.error_code = error_code
        self.error_message = error_message
        self.state_epoch = state_epoch
        self.start_offset = start_offset
        self.state_batches = [] if state_batches is None else state_batches
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition == other.partition
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.state_epoch == other.state_epoch
                and self.start_offset == other.start_offset
                and self.state_batches == other.state_batches
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class StateBatch:
    """StateBatch struct of ReadShareGroupStateResponse, versions 0+."""

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


def _d_PartitionResult_v0(buf, pos):
    o = _new(PartitionResult)
    (o.partition, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.state_epoch, o.start_offset,) = _U_iq(buf, pos)
    pos += 12
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


def _e_PartitionResult_v0(o, out, parts):
    out += _P_ih(o.partition, o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_iq(o.state_epoch, o.start_offset)
    x = o.state_batches
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_StateBatch_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ReadStateResult_v0(buf, pos):
    o = _new(ReadStateResult)
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


def _e_ReadStateResult_v0(o, out, parts):
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


def _d_ReadShareGroupStateResponse_v0(buf, pos):
    o = _new(ReadShareGroupStateResponse)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ReadStateResult_v0(buf, pos)
        a.append(e)
    o.results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReadShareGroupStateResponse_v0(o, out, parts):
    x = o.results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ReadStateResult_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ReadShareGroupStateResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ReadShareGroupStateResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ReadShareGroupStateResponse', 0) from None


MESSAGE = ReadShareGroupStateResponse
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ReadShareGroupStateResponse': (
        ('results', '[]ReadStateResult', 0, 0, None),
    ),
    'ReadStateResult': (
        ('topic_id', 'uuid', 0, 0, None),
        ('partitions', '[]PartitionResult', 0, 0, None),
    ),
    'PartitionResult': (
        ('partition', 'int32', 0, 0, None),
        ('error_code', 'int16', 0, 0, None),
        ('error_message', 'string', 0, 0, None),
        ('state_epoch', 'int32', 0, 0, None),
        ('start_offset', 'int64', 0, 0, None),
        ('state_batches', '[]StateBatch', 0, 0, None),
    ),
    'StateBatch': (
        ('first_offset', 'int64', 0, 0, None),
        ('last_offset', 'int64', 0, 0, None),
        ('delivery_state', 'int8', 0, 0, None),
        ('delivery_count', 'int16', 0, 0, None),
    ),
}
