# Generated from protocol_specs by kwire.codegen -- do not edit.
"""WriteTxnMarkersResponse (api key 27): versions 1-2, flexible from v1."""


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
_S_q = _Struct('>q')
_U_q = _S_q.unpack_from
_P_q = _S_q.pack


class WriteTxnMarkersResponse:
    """WriteTxnMarkersResponse, versions 1-2."""

    __slots__ = ('markers', 'unknown_tagged_fields',)

    def __init__(self, *, markers=None, unknown_tagged_fields=None):
        self.markers = [] if markers is None else markers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.markers == other.markers
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class WritableTxnMarkerResult:
    """WritableTxnMarkerResult struct of WriteTxnMarkersResponse, versions 0+."""

    __slots__ = ('producer_id', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, producer_id=0, topics=None, unknown_tagged_fields=None):
        self.producer_id = producer_id
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.producer_id == other.producer_id
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class WritableTxnMarkerTopicResult:
    """WritableTxnMarkerTopicResult struct of WriteTxnMarkersResponse, versions 0+."""

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


class WritableTxnMarkerPartitionResult:
    """WritableTxnMarkerPartitionResult struct of WriteTxnMarkersResponse, versions 0+."""

    __slots__ = ('partition_index', 'error_code', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, error_code=0, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.error_code == other.error_code
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_WritableTxnMarkerPartitionResult_v1(buf, pos):
    o = _new(WritableTxnMarkerPartitionResult)
    (o.partition_index, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WritableTxnMarkerPartitionResult_v1(o, out, parts):
    out += _P_ih(o.partition_index, o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WritableTxnMarkerTopicResult_v1(buf, pos):
    o = _new(WritableTxnMarkerTopicResult)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_WritableTxnMarkerPartitionResult_v1(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WritableTxnMarkerTopicResult_v1(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_WritableTxnMarkerPartitionResult_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WritableTxnMarkerResult_v1(buf, pos):
    o = _new(WritableTxnMarkerResult)
    (o.producer_id,) = _U_q(buf, pos)
    pos += 8
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_WritableTxnMarkerTopicResult_v1(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WritableTxnMarkerResult_v1(o, out, parts):
    out += _P_q(o.producer_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_WritableTxnMarkerTopicResult_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WriteTxnMarkersResponse_v1(buf, pos):
    o = _new(WriteTxnMarkersResponse)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_WritableTxnMarkerResult_v1(buf, pos)
        a.append(e)
    o.markers = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WriteTxnMarkersResponse_v1(o, out, parts):
    x = o.markers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_WritableTxnMarkerResult_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_WriteTxnMarkersResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_WriteTxnMarkersResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('WriteTxnMarkersResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_WriteTxnMarkersResponse_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_WriteTxnMarkersResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('WriteTxnMarkersResponse', 2) from None


MESSAGE = WriteTxnMarkersResponse
VERSIONS = range(1, 3)
FLEXIBLE_MIN = 1
DECODERS = {1: decode_v1, 2: decode_v2}
ENCODERS = {1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'WriteTxnMarkersResponse': (
        ('markers', '[]WritableTxnMarkerResult', 0, 2, None),
    ),
    'WritableTxnMarkerResult': (
        ('producer_id', 'int64', 0, 2, 'producerId'),
        ('topics', '[]WritableTxnMarkerTopicResult', 0, 2, None),
    ),
    'WritableTxnMarkerTopicResult': (
        ('name', 'string', 0, 2, 'topicName'),
        ('partitions', '[]WritableTxnMarkerPartitionResult', 0, 2, None),
    ),
    'WritableTxnMarkerPartitionResult': (
        ('partition_index', 'int32', 0, 2, None),
        ('error_code', 'int16', 0, 2, None),
    ),
}
