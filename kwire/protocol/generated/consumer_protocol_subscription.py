# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ConsumerProtocolSubscription: versions 0-3, flexible never."""


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


class ConsumerProtocolSubscription:
    """ConsumerProtocolSubscription, versions 0-3."""

    __slots__ = ('topics', 'user_data', 'owned_partitions', 'generation_id', 'rack_id',)

    def __init__(self, *, topics=None, user_data=None, owned_partitions=None, generation_id=-1, rack_id=None):
        self.topics = [] if topics is None else topics
        self.user_data = user_data
        self.owned_partitions = [] if owned_partitions is None else owned_partitions
        self.generation_id = generation_id
        self.rack_id = rack_id

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topics == other.topics
                and self.user_data == other.user_data
                and self.owned_partitions == other.owned_partitions
                and self.generation_id == other.generation_id
                and self.rack_id == other.rack_id)

    __hash__ = None


class TopicPartition:
    """TopicPartition struct of ConsumerProtocolSubscription, versions 1+."""

    __slots__ = ('topic', 'partitions',)

    def __init__(self, *, topic='', partitions=None):
        self.topic = topic
        self.partitions = [] if partitions is None else partitions

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic == other.topic
                and self.partitions == other.partitions)

    __hash__ = None


def _d_TopicPartition_v1(buf, pos):
    o = _new(TopicPartition)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    return o, pos


def _e_TopicPartition_v1(o, out, parts):
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_ConsumerProtocolSubscription_v0(buf, pos):
    o = _new(ConsumerProtocolSubscription)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_str(buf, pos)
        a.append(e)
    o.topics = a
    o.user_data, pos = _r_nbytes(buf, pos)
    o.owned_partitions = []
    o.generation_id = -1
    o.rack_id = None
    return o, pos


def _e_ConsumerProtocolSubscription_v0(o, out, parts):
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _w_str(out, e)
    _w_nbytes(out, o.user_data)


def _d_ConsumerProtocolSubscription_v1(buf, pos):
    o = _new(ConsumerProtocolSubscription)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_str(buf, pos)
        a.append(e)
    o.topics = a
    o.user_data, pos = _r_nbytes(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicPartition_v1(buf, pos)
        a.append(e)
    o.owned_partitions = a
    o.generation_id = -1
    o.rack_id = None
    return o, pos


def _e_ConsumerProtocolSubscription_v1(o, out, parts):
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _w_str(out, e)
    _w_nbytes(out, o.user_data)
    x = o.owned_partitions
    out += _P_len(len(x))
    for e in x:
        _e_TopicPartition_v1(e, out, parts)


def _d_ConsumerProtocolSubscription_v2(buf, pos):
    o = _new(ConsumerProtocolSubscription)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_str(buf, pos)
        a.append(e)
    o.topics = a
    o.user_data, pos = _r_nbytes(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicPartition_v1(buf, pos)
        a.append(e)
    o.owned_partitions = a
    (o.generation_id,) = _U_i(buf, pos)
    pos += 4
    o.rack_id = None
    return o, pos


def _e_ConsumerProtocolSubscription_v2(o, out, parts):
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _w_str(out, e)
    _w_nbytes(out, o.user_data)
    x = o.owned_partitions
    out += _P_len(len(x))
    for e in x:
        _e_TopicPartition_v1(e, out, parts)
    out += _P_i(o.generation_id)


def _d_ConsumerProtocolSubscription_v3(buf, pos):
    o = _new(ConsumerProtocolSubscription)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_str(buf, pos)
        a.append(e)
    o.topics = a
    o.user_data, pos = _r_nbytes(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicPartition_v1(buf, pos)
        a.append(e)
    o.owned_partitions = a
    (o.generation_id,) = _U_i(buf, pos)
    pos += 4
    o.rack_id, pos = _r_nstr(buf, pos)
    return o, pos


def _e_ConsumerProtocolSubscription_v3(o, out, parts):
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _w_str(out, e)
    _w_nbytes(out, o.user_data)
    x = o.owned_partitions
    out += _P_len(len(x))
    for e in x:
        _e_TopicPartition_v1(e, out, parts)
    out += _P_i(o.generation_id)
    _w_nstr(out, o.rack_id)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerProtocolSubscription_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ConsumerProtocolSubscription_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerProtocolSubscription', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerProtocolSubscription_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ConsumerProtocolSubscription_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerProtocolSubscription', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerProtocolSubscription_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ConsumerProtocolSubscription_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerProtocolSubscription', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerProtocolSubscription_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_ConsumerProtocolSubscription_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerProtocolSubscription', 3) from None


MESSAGE = ConsumerProtocolSubscription
VERSIONS = range(0, 4)
FLEXIBLE_MIN = None
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ConsumerProtocolSubscription': (
        ('topics', '[]string', 0, 3, None),
        ('user_data', 'bytes', 0, 3, None),
        ('owned_partitions', '[]TopicPartition', 1, 3, None),
        ('generation_id', 'int32', 2, 3, None),
        ('rack_id', 'string', 3, 3, None),
    ),
    'TopicPartition': (
        ('topic', 'string', 1, 3, 'topicName'),
        ('partitions', '[]int32', 1, 3, None),
    ),
}
