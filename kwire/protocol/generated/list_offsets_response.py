# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ListOffsetsResponse (api key 2): versions 1-11, flexible from v6."""


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
_S_ihqqi = _Struct('>ihqqi')
_U_ihqqi = _S_ihqqi.unpack_from
_P_ihqqi = _S_ihqqi.pack


class ListOffsetsResponse:
    """ListOffsetsResponse, versions 1-11."""

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


class ListOffsetsTopicResponse:
    """ListOffsetsTopicResponse struct of ListOffsetsResponse, versions 0+."""

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


class ListOffsetsPartitionResponse:
    """ListOffsetsPartitionResponse struct of ListOffsetsResponse, versions 0+."""

    __slots__ = ('partition_index', 'error_code', 'timestamp', 'offset', 'leader_epoch', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, error_code=0, timestamp=-1, offset=-1, leader_epoch=-1, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.timestamp = timestamp
        self.offset = offset
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.error_code == other.error_code
                and self.timestamp == other.timestamp
                and self.offset == other.offset
                and self.leader_epoch == other.leader_epoch
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ListOffsetsPartitionResponse_v1(buf, pos):
    o = _new(ListOffsetsPartitionResponse)
    (o.partition_index, o.error_code, o.timestamp, o.offset,) = _U_ihqq(buf, pos)
    pos += 22
    o.leader_epoch = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListOffsetsPartitionResponse_v1(o, out, parts):
    if o.leader_epoch != -1:
        raise _FieldVersionError('ListOffsetsPartitionResponse.LeaderEpoch', '4+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListOffsetsPartitionResponse', 'tags')
    out += _P_ihqq(o.partition_index, o.error_code, o.timestamp, o.offset)


def _d_ListOffsetsPartitionResponse_v4(buf, pos):
    o = _new(ListOffsetsPartitionResponse)
    (o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch,) = _U_ihqqi(buf, pos)
    pos += 26
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListOffsetsPartitionResponse_v4(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListOffsetsPartitionResponse', 'tags')
    out += _P_ihqqi(o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch)


def _d_ListOffsetsPartitionResponse_v6(buf, pos):
    o = _new(ListOffsetsPartitionResponse)
    (o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch,) = _U_ihqqi(buf, pos)
    pos += 26
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListOffsetsPartitionResponse_v6(o, out, parts):
    out += _P_ihqqi(o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ListOffsetsTopicResponse_v1(buf, pos):
    o = _new(ListOffsetsTopicResponse)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListOffsetsPartitionResponse_v1(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListOffsetsTopicResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListOffsetsTopicResponse', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_ListOffsetsPartitionResponse_v1(e, out, parts)


def _d_ListOffsetsTopicResponse_v4(buf, pos):
    o = _new(ListOffsetsTopicResponse)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListOffsetsPartitionResponse_v4(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListOffsetsTopicResponse_v4(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListOffsetsTopicResponse', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_ListOffsetsPartitionResponse_v4(e, out, parts)


def _d_ListOffsetsTopicResponse_v6(buf, pos):
    o = _new(ListOffsetsTopicResponse)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListOffsetsPartitionResponse_v6(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListOffsetsTopicResponse_v6(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ListOffsetsPartitionResponse_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ListOffsetsResponse_v1(buf, pos):
    o = _new(ListOffsetsResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListOffsetsTopicResponse_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.throttle_time_ms = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListOffsetsResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListOffsetsResponse', 'tags')
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_ListOffsetsTopicResponse_v1(e, out, parts)


def _d_ListOffsetsResponse_v2(buf, pos):
    o = _new(ListOffsetsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListOffsetsTopicResponse_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListOffsetsResponse_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListOffsetsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_ListOffsetsTopicResponse_v1(e, out, parts)


def _d_ListOffsetsResponse_v4(buf, pos):
    o = _new(ListOffsetsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListOffsetsTopicResponse_v4(buf, pos)
        a.append(e)
    o.topics = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ListOffsetsResponse_v4(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ListOffsetsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_ListOffsetsTopicResponse_v4(e, out, parts)


def _d_ListOffsetsResponse_v6(buf, pos):
    o = _new(ListOffsetsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ListOffsetsTopicResponse_v6(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListOffsetsResponse_v6(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ListOffsetsTopicResponse_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v4(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v6(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v6(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v6(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v6(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 10) from None


def decode_v11(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListOffsetsResponse_v6(buf, pos)


def encode_v11(obj, out, parts):
    try:
        _e_ListOffsetsResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListOffsetsResponse', 11) from None


MESSAGE = ListOffsetsResponse
VERSIONS = range(1, 12)
FLEXIBLE_MIN = 6
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10, 11: decode_v11}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10, 11: encode_v11}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ListOffsetsResponse': (
        ('throttle_time_ms', 'int32', 2, 11, None),
        ('topics', '[]ListOffsetsTopicResponse', 0, 11, None),
    ),
    'ListOffsetsTopicResponse': (
        ('name', 'string', 0, 11, 'topicName'),
        ('partitions', '[]ListOffsetsPartitionResponse', 0, 11, None),
    ),
    'ListOffsetsPartitionResponse': (
        ('partition_index', 'int32', 0, 11, None),
        ('error_code', 'int16', 0, 11, None),
        ('timestamp', 'int64', 1, 11, None),
        ('offset', 'int64', 1, 11, None),
        ('leader_epoch', 'int32', 4, 11, None),
    ),
}
