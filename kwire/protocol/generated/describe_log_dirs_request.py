# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeLogDirsRequest (api key 35): versions 1-5, flexible from v2."""


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


class DescribeLogDirsRequest:
    """DescribeLogDirsRequest, versions 1-5."""

    __slots__ = ('topics', 'unknown_tagged_fields',)

    def __init__(self, *, topics=_MISSING, unknown_tagged_fields=None):
        self.topics = [] if topics is _MISSING else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribableLogDirTopic:
    """DescribableLogDirTopic struct of DescribeLogDirsRequest, versions 0+."""

    __slots__ = ('topic', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic='', partitions=None, unknown_tagged_fields=None):
        self.topic = topic
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic == other.topic
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribableLogDirTopic_v1(buf, pos):
    o = _new(DescribableLogDirTopic)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribableLogDirTopic_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribableLogDirTopic', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_DescribableLogDirTopic_v2(buf, pos):
    o = _new(DescribableLogDirTopic)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribableLogDirTopic_v2(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeLogDirsRequest_v1(buf, pos):
    o = _new(DescribeLogDirsRequest)
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_DescribableLogDirTopic_v1(buf, pos)
            a.append(e)
        o.topics = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeLogDirsRequest_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeLogDirsRequest', 'tags')
    x = o.topics
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_DescribableLogDirTopic_v1(e, out, parts)


def _d_DescribeLogDirsRequest_v2(buf, pos):
    o = _new(DescribeLogDirsRequest)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_DescribableLogDirTopic_v2(buf, pos)
            a.append(e)
        o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeLogDirsRequest_v2(o, out, parts):
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_DescribableLogDirTopic_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeLogDirsRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeLogDirsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsRequest_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_DescribeLogDirsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsRequest_v2(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_DescribeLogDirsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeLogDirsRequest_v2(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_DescribeLogDirsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeLogDirsRequest', 5) from None


MESSAGE = DescribeLogDirsRequest
VERSIONS = range(1, 6)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeLogDirsRequest': (
        ('topics', '[]DescribableLogDirTopic', 0, 5, None),
    ),
    'DescribableLogDirTopic': (
        ('topic', 'string', 0, 5, 'topicName'),
        ('partitions', '[]int32', 0, 5, None),
    ),
}
