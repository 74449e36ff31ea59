# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ProduceRequest (api key 0): versions 3-13, flexible from v9."""


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
_S_hi = _Struct('>hi')
_U_hi = _S_hi.unpack_from
_P_hi = _S_hi.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class ProduceRequest:
    """ProduceRequest, versions 3-13."""

    __slots__ = ('transactional_id', 'acks', 'timeout_ms', 'topic_data', 'unknown_tagged_fields',)

    def __init__(self, *, transactional_id=None, acks=0, timeout_ms=0, topic_data=None, unknown_tagged_fields=None):
        self.transactional_id = transactional_id
        self.acks = acks
        self.timeout_ms = timeout_ms
        self.topic_data = [] if topic_data is None else topic_data
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.transactional_id == other.transactional_id
                and self.acks == other.acks
                and self.timeout_ms == other.timeout_ms
                and self.topic_data == other.topic_data
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicProduceData:
    """TopicProduceData struct of ProduceRequest, versions 0+."""

    __slots__ = ('name', 'topic_id', 'partition_data', 'unknown_tagged_fields',)

    def __init__(self, *, name='', topic_id=_ZERO_UUID, partition_data=None, unknown_tagged_fields=None):
        self.name = name
        self.topic_id = topic_id
        self.partition_data = [] if partition_data is None else partition_data
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.topic_id == other.topic_id
                and self.partition_data == other.partition_data
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class PartitionProduceData:
    """PartitionProduceData struct of ProduceRequest, versions 0+."""

    __slots__ = ('index', 'records', 'unknown_tagged_fields',)

    def __init__(self, *, index=0, records=None, unknown_tagged_fields=None):
        self.index = index
        self.records = records
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.index == other.index
                and self.records == other.records
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_PartitionProduceData_v3(buf, pos):
    o = _new(PartitionProduceData)
    (o.index,) = _U_i(buf, pos)
    pos += 4
    o.records, pos = _r_records(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_PartitionProduceData_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('PartitionProduceData', 'tags')
    out += _P_i(o.index)
    _w_records(out, parts, o.records)


def _d_PartitionProduceData_v9(buf, pos):
    o = _new(PartitionProduceData)
    (o.index,) = _U_i(buf, pos)
    pos += 4
    o.records, pos = _r_crecords(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionProduceData_v9(o, out, parts):
    out += _P_i(o.index)
    _w_crecords(out, parts, o.records)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicProduceData_v3(buf, pos):
    o = _new(TopicProduceData)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionProduceData_v3(buf, pos)
        a.append(e)
    o.partition_data = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TopicProduceData_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TopicProduceData', 'tags')
    _w_str(out, o.name)
    x = o.partition_data
    out += _P_len(len(x))
    for e in x:
        _e_PartitionProduceData_v3(e, out, parts)


def _d_TopicProduceData_v9(buf, pos):
    o = _new(TopicProduceData)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionProduceData_v9(buf, pos)
        a.append(e)
    o.partition_data = a
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicProduceData_v9(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partition_data
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionProduceData_v9(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicProduceData_v13(buf, pos):
    o = _new(TopicProduceData)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionProduceData_v9(buf, pos)
        a.append(e)
    o.partition_data = a
    o.name = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicProduceData_v13(o, out, parts):
    out += o.topic_id.bytes
    x = o.partition_data
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionProduceData_v9(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ProduceRequest_v3(buf, pos):
    o = _new(ProduceRequest)
    o.transactional_id, pos = _r_nstr(buf, pos)
    (o.acks, o.timeout_ms,) = _U_hi(buf, pos)
    pos += 6
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicProduceData_v3(buf, pos)
        a.append(e)
    o.topic_data = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ProduceRequest_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ProduceRequest', 'tags')
    _w_nstr(out, o.transactional_id)
    out += _P_hi(o.acks, o.timeout_ms)
    x = o.topic_data
    out += _P_len(len(x))
    for e in x:
        _e_TopicProduceData_v3(e, out, parts)


def _d_ProduceRequest_v9(buf, pos):
    o = _new(ProduceRequest)
    o.transactional_id, pos = _r_cnstr(buf, pos)
    (o.acks, o.timeout_ms,) = _U_hi(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicProduceData_v9(buf, pos)
        a.append(e)
    o.topic_data = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ProduceRequest_v9(o, out, parts):
    _w_cnstr(out, o.transactional_id)
    out += _P_hi(o.acks, o.timeout_ms)
    x = o.topic_data
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicProduceData_v9(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ProduceRequest_v13(buf, pos):
    o = _new(ProduceRequest)
    o.transactional_id, pos = _r_cnstr(buf, pos)
    (o.acks, o.timeout_ms,) = _U_hi(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicProduceData_v13(buf, pos)
        a.append(e)
    o.topic_data = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ProduceRequest_v13(o, out, parts):
    _w_cnstr(out, o.transactional_id)
    out += _P_hi(o.acks, o.timeout_ms)
    x = o.topic_data
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicProduceData_v13(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_ProduceRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v3(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_ProduceRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v3(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_ProduceRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v3(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_ProduceRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v3(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_ProduceRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v3(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_ProduceRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v9(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_ProduceRequest_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v9(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_ProduceRequest_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 10) from None


def decode_v11(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v9(buf, pos)


def encode_v11(obj, out, parts):
    try:
        _e_ProduceRequest_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 11) from None


def decode_v12(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v9(buf, pos)


def encode_v12(obj, out, parts):
    try:
        _e_ProduceRequest_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 12) from None


def decode_v13(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ProduceRequest_v13(buf, pos)


def encode_v13(obj, out, parts):
    try:
        _e_ProduceRequest_v13(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ProduceRequest', 13) from None


MESSAGE = ProduceRequest
VERSIONS = range(3, 14)
FLEXIBLE_MIN = 9
DECODERS = {3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10, 11: decode_v11, 12: decode_v12, 13: decode_v13}
ENCODERS = {3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10, 11: encode_v11, 12: encode_v12, 13: encode_v13}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ProduceRequest': (
        ('transactional_id', 'string', 3, 13, 'transactionalId'),
        ('acks', 'int16', 0, 13, None),
        ('timeout_ms', 'int32', 0, 13, None),
        ('topic_data', '[]TopicProduceData', 0, 13, None),
    ),
    'TopicProduceData': (
        ('name', 'string', 0, 12, 'topicName'),
        ('topic_id', 'uuid', 13, 13, None),
        ('partition_data', '[]PartitionProduceData', 0, 13, None),
    ),
    'PartitionProduceData': (
        ('index', 'int32', 0, 13, None),
        ('records', 'records', 0, 13, None),
    ),
}
