# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeLogDirsResponse (api key 35): versions 1-5, flexible from v2."""


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
_S_iqqo = _Struct('>iqq?')
_U_iqqo = _S_iqqo.unpack_from
_P_iqqo = _S_iqqo.pack
_S_qq = _Struct('>qq')
_U_qq = _S_qq.unpack_from
_P_qq = _S_qq.pack
_S_qqo = _Struct('>qq?')
_U_qqo = _S_qqo.unpack_from
_P_qqo = _S_qqo.pack


class DescribeLogDirsResponse:
    """DescribeLogDirsResponse, versions 1-5."""

    __slots__ = ('throttle_time_ms', 'error_code', 'results', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, results=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results = [] if results is None else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.results == other.results
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeLogDirsResult:
    """DescribeLogDirsResult struct of DescribeLogDirsResponse, versions 0+."""

    __slots__ = ('error_code', 'log_dir', 'topics', 'total_bytes', 'usable_bytes', 'is_cordoned', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, log_dir='', topics=None, total_bytes=-1, usable_bytes=-1, is_cordoned=False, unknown_tagged_fields=None):
        self.error_code = error_code
        self.log_dir = log_dir
        self.topics = [] if topics is None else topics
        self.total_bytes = total_bytes
        self.usable_bytes = usable_bytes
        self.is_cordoned = is_cordoned
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.log_dir == other.log_dir
                and self.topics == other.topics
                and self.total_bytes == other.total_bytes
                and self.usable_bytes == other.usable_bytes
                and self.is_cordoned == other.is_cordoned
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeLogDirsTopic:
    """DescribeLogDirsTopic struct of DescribeLogDirsResponse, versions 0+."""

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


class DescribeLogDirsPartition:
    """DescribeLogDirsPartition struct of DescribeLogDirsResponse, versions 0+."""

    __slots__ = ('partition_index', 'partition_size', 'offset_lag', 'is_future_key', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, partition_size=0, offset_lag=0, is_future_key=False, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.partition_size = partition_size
        self.offset_lag = offset_lag
        self.is_future_key = is_future_key
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.partition_size == other.partition_size
                and self.offset_lag == other.offset_lag
                and self.is_future_key == other.is_future_key
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeLogDirsPartition_v1(buf, pos):
    o = _new(DescribeLogDirsPartition)
    (o.partition_index, o.partition_size, o.offset_lag, o.is_future_key,) = _U_iqqo(buf, pos)
    pos += 21
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeLogDirsPartition_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeLogDirsPartition', 'tags')
    out += _P_iqqo(o.partition_index, o.partition_size, o.offset_lag, o.is_future_key)


def _d_DescribeLogDirsPartition_v2(buf, pos):
    o = _new(DescribeLogDirsPartition)
    (o.partition_index, o.partition_size, o.offset_lag, o.is_future_key,) = _U_iqqo(buf, pos)
    pos += 21
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsPartition_v2(o, out, parts):
    out += _P_iqqo(o.partition_index, o.partition_size, o.offset_lag, o.is_future_key)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeLogDirsTopic_v1(buf, pos):
    o = _new(DescribeLogDirsTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsPartition_v1(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeLogDirsTopic_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeLogDirsTopic', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_DescribeLogDirsPartition_v1(e, out, parts)


def _d_DescribeLogDirsTopic_v2(buf, pos):
    o = _new(DescribeLogDirsTopic)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsPartition_v2(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsTopic_v2(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeLogDirsPartition_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeLogDirsResult_v1(buf, pos):
    o = _new(DescribeLogDirsResult)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.log_dir, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.total_bytes = -1
    o.usable_bytes = -1
    o.is_cordoned = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeLogDirsResult_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeLogDirsResult', 'tags')
    out += _P_h(o.error_code)
    _w_str(out, o.log_dir)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_DescribeLogDirsTopic_v1(e, out, parts)


def _d_DescribeLogDirsResult_v2(buf, pos):
    o = _new(DescribeLogDirsResult)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.log_dir, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    o.total_bytes = -1
    o.usable_bytes = -1
    o.is_cordoned = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsResult_v2(o, out, parts):
    out += _P_h(o.error_code)
    _w_cstr(out, o.log_dir)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeLogDirsTopic_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeLogDirsResult_v4(buf, pos):
    o = _new(DescribeLogDirsResult)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.log_dir, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    (o.total_bytes, o.usable_bytes,) = _U_qq(buf, pos)
    pos += 16
    o.is_cordoned = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsResult_v4(o, out, parts):
    out += _P_h(o.error_code)
    _w_cstr(out, o.log_dir)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeLogDirsTopic_v2(e, out, parts)
    out += _P_qq(o.total_bytes, o.usable_bytes)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeLogDirsResult_v5(buf, pos):
    o = _new(DescribeLogDirsResult)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.log_dir, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    (o.total_bytes, o.usable_bytes, o.is_cordoned,) = _U_qqo(buf, pos)
    pos += 17
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsResult_v5(o, out, parts):
    out += _P_h(o.error_code)
    _w_cstr(out, o.log_dir)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeLogDirsTopic_v2(e, out, parts)
    out += _P_qqo(o.total_bytes, o.usable_bytes, o.is_cordoned)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeLogDirsResponse_v1(buf, pos):
    o = _new(DescribeLogDirsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsResult_v1(buf, pos)
        a.append(e)
    o.results = a
    o.error_code = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeLogDirsResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeLogDirsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.results
    out += _P_len(len(x))
    for e in x:
        _e_DescribeLogDirsResult_v1(e, out, parts)


def _d_DescribeLogDirsResponse_v2(buf, pos):
    o = _new(DescribeLogDirsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsResult_v2(buf, pos)
        a.append(e)
    o.results = a
    o.error_code = 0
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsResponse_v2(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeLogDirsResult_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeLogDirsResponse_v3(buf, pos):
    o = _new(DescribeLogDirsResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsResult_v2(buf, pos)
        a.append(e)
    o.results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsResponse_v3(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeLogDirsResult_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeLogDirsResponse_v4(buf, pos):
    o = _new(DescribeLogDirsResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsResult_v4(buf, pos)
        a.append(e)
    o.results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsResponse_v4(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeLogDirsResult_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeLogDirsResponse_v5(buf, pos):
    o = _new(DescribeLogDirsResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeLogDirsResult_v5(buf, pos)
        a.append(e)
    o.results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsResponse_v5(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeLogDirsResult_v5(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeLogDirsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeLogDirsResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_DescribeLogDirsResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_DescribeLogDirsResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_DescribeLogDirsResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsResponse', 5) from None


MESSAGE = DescribeLogDirsResponse
VERSIONS = range(1, 6)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeLogDirsResponse': (
        ('throttle_time_ms', 'int32', 0, 5, None),
        ('error_code', 'int16', 3, 5, None),
        ('results', '[]DescribeLogDirsResult', 0, 5, None),
    ),
    'DescribeLogDirsResult': (
        ('error_code', 'int16', 0, 5, None),
        ('log_dir', 'string', 0, 5, None),
        ('topics', '[]DescribeLogDirsTopic', 0, 5, None),
        ('total_bytes', 'int64', 4, 5, None),
        ('usable_bytes', 'int64', 4, 5, None),
        ('is_cordoned', 'bool', 5, 5, None),
    ),
    'DescribeLogDirsTopic': (
        ('name', 'string', 0, 5, 'topicName'),
        ('partitions', '[]DescribeLogDirsPartition', 0, 5, None),
    ),
    'DescribeLogDirsPartition': (
        ('partition_index', 'int32', 0, 5, None),
        ('partition_size', 'int64', 0, 5, None),
        ('offset_lag', 'int64', 0, 5, None),
        ('is_future_key', 'bool', 0, 5, None),
    ),
}
