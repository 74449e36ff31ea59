# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DeleteRecordsResponse (api key 21): versions 0-2, flexible from v2."""


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
_S_iqh = _Struct('>iqh')
_U_iqh = _S_iqh.unpack_from
_P_iqh = _S_iqh.pack


class DeleteRecordsResponse:
    """DeleteRecordsResponse, versions 0-2."""

    __slots__ = ('throttle_time_ms', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, topics=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DeleteRecordsTopicResult:
    """DeleteRecordsTopicResult struct of DeleteRecordsResponse, versions 0+."""

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


class DeleteRecordsPartitionResult:
    """DeleteRecordsPartitionResult struct of DeleteRecordsResponse, versions 0+."""

    __slots__ = ('partition_index', 'low_watermark', 'error_code', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, low_watermark=0, error_code=0, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.low_watermark = low_watermark
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.low_watermark == other.low_watermark
                and self.error_code == other.error_code
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DeleteRecordsPartitionResult_v0(buf, pos):
    o = _new(DeleteRecordsPartitionResult)
    (o.partition_index, o.low_watermark, o.error_code,) = _U_iqh(buf, pos)
    pos += 14
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DeleteRecordsPartitionResult_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DeleteRecordsPartitionResult', 'tags')
    out += _P_iqh(o.partition_index, o.low_watermark, o.error_code)


def _d_DeleteRecordsPartitionResult_v2(buf, pos):
    o = _new(DeleteRecordsPartitionResult)
    (o.partition_index, o.low_watermark, o.error_code,) = _U_iqh(buf, pos)
    pos += 14
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeleteRecordsPartitionResult_v2(o, out, parts):
    out += _P_iqh(o.partition_index, o.low_watermark, o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DeleteRecordsTopicResult_v0(buf, pos):
    o = _new(DeleteRecordsTopicResult)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DeleteRecordsPartitionResult_v0(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DeleteRecordsTopicResult_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DeleteRecordsTopicResult', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_DeleteRecordsPartitionResult_v0(e, out, parts)


def _d_DeleteRecordsTopicResult_v2(buf, pos):
    o = _new(DeleteRecordsTopicResult)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DeleteRecordsPartitionResult_v2(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeleteRecordsTopicResult_v2(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DeleteRecordsPartitionResult_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DeleteRecordsResponse_v0(buf, pos):
    o = _new(DeleteRecordsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DeleteRecordsTopicResult_v0(buf, pos)
        a.append(e)
    o.topics = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DeleteRecordsResponse_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DeleteRecordsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_DeleteRecordsTopicResult_v0(e, out, parts)


def _d_DeleteRecordsResponse_v2(buf, pos):
    o = _new(DeleteRecordsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DeleteRecordsTopicResult_v2(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeleteRecordsResponse_v2(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DeleteRecordsTopicResult_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteRecordsResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DeleteRecordsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteRecordsResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteRecordsResponse_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DeleteRecordsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteRecordsResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteRecordsResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DeleteRecordsResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteRecordsResponse', 2) from None


MESSAGE = DeleteRecordsResponse
VERSIONS = range(0, 3)
FLEXIBLE_MIN = 2
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DeleteRecordsResponse': (
        ('throttle_time_ms', 'int32', 0, 2, None),
        ('topics', '[]DeleteRecordsTopicResult', 0, 2, None),
    ),
    'DeleteRecordsTopicResult': (
        ('name', 'string', 0, 2, 'topicName'),
        ('partitions', '[]DeleteRecordsPartitionResult', 0, 2, None),
    ),
    'DeleteRecordsPartitionResult': (
        ('partition_index', 'int32', 0, 2, None),
        ('low_watermark', 'int64', 0, 2, None),
        ('error_code', 'int16', 0, 2, None),
    ),
}
