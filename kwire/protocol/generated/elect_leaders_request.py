# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ElectLeadersRequest (api key 43): versions 0-2, flexible from v2."""


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
_S_b = _Struct('>b')
_U_b = _S_b.unpack_from
_P_b = _S_b.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class ElectLeadersRequest:
    """ElectLeadersRequest, versions 0-2."""

    __slots__ = ('election_type', 'topic_partitions', 'timeout_ms', 'unknown_tagged_fields',)

    def __init__(self, *, election_type=0, topic_partitions=_MISSING, timeout_ms=60000, unknown_tagged_fields=None):
        self.election_type = election_type
        self.topic_partitions = [] if topic_partitions is _MISSING else topic_partitions
        self.timeout_ms = timeout_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.election_type == other.election_type
                and self.topic_partitions == other.topic_partitions
                and self.timeout_ms == other.timeout_ms
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicPartitions:
    """TopicPartitions struct of ElectLeadersRequest, versions 0+."""

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


def _d_TopicPartitions_v0(buf, pos):
    o = _new(TopicPartitions)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TopicPartitions_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TopicPartitions', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_TopicPartitions_v2(buf, pos):
    o = _new(TopicPartitions)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicPartitions_v2(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ElectLeadersRequest_v0(buf, pos):
    o = _new(ElectLeadersRequest)
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.topic_partitions = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_TopicPartitions_v0(buf, pos)
            a.append(e)
        o.topic_partitions = a
    (o.timeout_ms,) = _U_i(buf, pos)
    pos += 4
    o.election_type = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ElectLeadersRequest_v0(o, out, parts):
    if o.election_type != 0:
        raise _FieldVersionError('ElectLeadersRequest.ElectionType', '1+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ElectLeadersRequest', 'tags')
    x = o.topic_partitions
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_TopicPartitions_v0(e, out, parts)
    out += _P_i(o.timeout_ms)


def _d_ElectLeadersRequest_v1(buf, pos):
    o = _new(ElectLeadersRequest)
    (o.election_type,) = _U_b(buf, pos)
    pos += 1
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.topic_partitions = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_TopicPartitions_v0(buf, pos)
            a.append(e)
        o.topic_partitions = a
    (o.timeout_ms,) = _U_i(buf, pos)
    pos += 4
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ElectLeadersRequest_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ElectLeadersRequest', 'tags')
    out += _P_b(o.election_type)
    x = o.topic_partitions
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_TopicPartitions_v0(e, out, parts)
    out += _P_i(o.timeout_ms)


def _d_ElectLeadersRequest_v2(buf, pos):
    o = _new(ElectLeadersRequest)
    (o.election_type,) = _U_b(buf, pos)
    pos += 1
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topic_partitions = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_TopicPartitions_v2(buf, pos)
            a.append(e)
        o.topic_partitions = a
    (o.timeout_ms,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ElectLeadersRequest_v2(o, out, parts):
    out += _P_b(o.election_type)
    x = o.topic_partitions
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_TopicPartitions_v2(e, out, parts)
    out += _P_i(o.timeout_ms)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ElectLeadersRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ElectLeadersRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ElectLeadersRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ElectLeadersRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ElectLeadersRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ElectLeadersRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ElectLeadersRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ElectLeadersRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ElectLeadersRequest', 2) from None


MESSAGE = ElectLeadersRequest
VERSIONS = range(0, 3)
FLEXIBLE_MIN = 2
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ElectLeadersRequest': (
        ('election_type', 'int8', 1, 2, None),
        ('topic_partitions', '[]TopicPartitions', 0, 2, None),
        ('timeout_ms', 'int32', 0, 2, None),
    ),
    'TopicPartitions': (
        ('topic', 'string', 0, 2, 'topicName'),
        ('partitions', '[]int32', 0, 2, None),
    ),
}
