# Generated from protocol_specs by kwire.codegen -- do not edit.
"""WriteTxnMarkersRequest (api key 27): versions 1-2, flexible from v1."""


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
_S_ib = _Struct('>ib')
_U_ib = _S_ib.unpack_from
_P_ib = _S_ib.pack
_S_qho = _Struct('>qh?')
_U_qho = _S_qho.unpack_from
_P_qho = _S_qho.pack


class WriteTxnMarkersRequest:
    """WriteTxnMarkersRequest, versions 1-2."""

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


class WritableTxnMarker:
    """WritableTxnMarker struct of WriteTxnMarkersRequest, versions 0+."""

    __slots__ = ('producer_id', 'producer_epoch', 'transaction_result', 'topics', 'coordinator_epoch', 'transaction_version', 'unknown_tagged_fields',)

    def __init__(self, *, producer_id=0, producer_epoch=0, transaction_result=False, topics=None, coordinator_epoch=0, transaction_version=0, unknown_tagged_fields=None):
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.transaction_result = transaction_result
        self.topics = [] if topics is None else topics
        self.coordinator_epoch = coordinator_epoch
        self.transaction_version = transaction_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.producer_id == other.producer_id
                and self.producer_epoch == other.producer_epoch
                and self.transaction_result == other.transaction_result
                and self.topics == other.topics
                and self.coordinator_epoch == other.coordinator_epoch
                and self.transaction_version == other.transaction_version
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class WritableTxnMarkerTopic:
    """WritableTxnMarkerTopic struct of WriteTxnMarkersRequest, versions 0+."""

    __slots__ = ('name', 'partition_indexes', 'unknown_tagged_fields',)

    def __init__(self, *, name='', partition_indexes=None, unknown_tagged_fields=None):
        self.name = name
        self.partition_indexes = [] if partition_indexes is None else partition_indexes
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.partition_indexes == other.partition_indexes
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_WritableTxnMarkerTopic_v1(buf, pos):
    o = _new(WritableTxnMarkerTopic)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partition_indexes, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WritableTxnMarkerTopic_v1(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partition_indexes
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WritableTxnMarker_v1(buf, pos):
    o = _new(WritableTxnMarker)
    (o.producer_id, o.producer_epoch, o.transaction_result,) = _U_qho(buf, pos)
    pos += 11
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_WritableTxnMarkerTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    (o.coordinator_epoch,) = _U_i(buf, pos)
    pos += 4
    o.transaction_version = 0
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WritableTxnMarker_v1(o, out, parts):
    out += _P_qho(o.producer_id, o.producer_epoch, o.transaction_result)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_WritableTxnMarkerTopic_v1(e, out, parts)
    out += _P_i(o.coordinator_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WritableTxnMarker_v2(buf, pos):
    o = _new(WritableTxnMarker)
    (o.producer_id, o.producer_epoch, o.transaction_result,) = _U_qho(buf, pos)
    pos += 11
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_WritableTxnMarkerTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    (o.coordinator_epoch, o.transaction_version,) = _U_ib(buf, pos)
    pos += 5
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WritableTxnMarker_v2(o, out, parts):
    out += _P_qho(o.producer_id, o.producer_epoch, o.transaction_result)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_WritableTxnMarkerTopic_v1(e, out, parts)
    out += _P_ib(o.coordinator_epoch, o.transaction_version)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WriteTxnMarkersRequest_v1(buf, pos):
    o = _new(WriteTxnMarkersRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_WritableTxnMarker_v1(buf, pos)
        a.append(e)
    o.markers = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WriteTxnMarkersRequest_v1(o, out, parts):
    x = o.markers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_WritableTxnMarker_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_WriteTxnMarkersRequest_v2(buf, pos):
    o = _new(WriteTxnMarkersRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_WritableTxnMarker_v2(buf, pos)
        a.append(e)
    o.markers = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_WriteTxnMarkersRequest_v2(o, out, parts):
    x = o.markers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_WritableTxnMarker_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_WriteTxnMarkersRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_WriteTxnMarkersRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('WriteTxnMarkersRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_WriteTxnMarkersRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_WriteTxnMarkersRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('WriteTxnMarkersRequest', 2) from None


MESSAGE = WriteTxnMarkersRequest
VERSIONS = range(1, 3)
FLEXIBLE_MIN = 1
DECODERS = {1: decode_v1, 2: decode_v2}
ENCODERS = {1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'WriteTxnMarkersRequest': (
        ('markers', '[]WritableTxnMarker', 0, 2, None),
    ),
    'WritableTxnMarker': (
        ('producer_id', 'int64', 0, 2, 'producerId'),
        ('producer_epoch', 'int16', 0, 2, None),
        ('transaction_result', 'bool', 0, 2, None),
        ('topics', '[]WritableTxnMarkerTopic', 0, 2, None),
        ('coordinator_epoch', 'int32', 0, 2, None),
        ('transaction_version', 'int8', 2, 2, None),
    ),
    'WritableTxnMarkerTopic': (
        ('name', 'string', 0, 2, 'topicName'),
        ('partition_indexes', '[]int32', 0, 2, None),
    ),
}
