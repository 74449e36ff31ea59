# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeTransactionsResponse (api key 65): versions 0-0, flexible from v0."""


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
_S_iqqh = _Struct('>iqqh')
_U_iqqh = _S_iqqh.unpack_from
_P_iqqh = _S_iqqh.pack


class DescribeTransactionsResponse:
    """DescribeTransactionsResponse, versions 0."""

    __slots__ = ('throttle_time_ms', 'transaction_states', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, transaction_states=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.transaction_states = [] if transaction_states is None else transaction_states
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.transaction_states == other.transaction_states
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TransactionState:
    """TransactionState struct of DescribeTransactionsResponse, versions 0+."""

    __slots__ = ('error_code', 'transactional_id', 'transaction_state', 'transaction_timeout_ms', 'transaction_start_time_ms', 'producer_id', 'producer_epoch', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, transactional_id='', transaction_state='', transaction_timeout_ms=0, transaction_start_time_ms=0, producer_id=0, producer_epoch=0, topics=None, unknown_tagged_fields=None):
        self.error_code = error_code
        self.transactional_id = transactional_id
        self.transaction_state = transaction_state
        self.transaction_timeout_ms = transaction_timeout_ms
        self.transaction_start_time_ms = transaction_start_time_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.transactional_id == other.transactional_id
                and self.transaction_state == other.transaction_state
                and self.transaction_timeout_ms == other.transaction_timeout_ms
                and self.transaction_start_time_ms == other.transaction_start_time_ms
                and self.producer_id == other.producer_id
                and self.producer_epoch == other.producer_epoch
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicData:
    """TopicData struct of DescribeTransactionsResponse, versions 0+."""

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


def _d_TopicData_v0(buf, pos):
    o = _new(TopicData)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicData_v0(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TransactionState_v0(buf, pos):
    o = _new(TransactionState)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.transactional_id, pos = _r_cstr(buf, pos)
    o.transaction_state, pos = _r_cstr(buf, pos)
    (o.transaction_timeout_ms, o.transaction_start_time_ms, o.producer_id, o.producer_epoch,) = _U_iqqh(buf, pos)
    pos += 22
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicData_v0(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TransactionState_v0(o, out, parts):
    out += _P_h(o.error_code)
    _w_cstr(out, o.transactional_id)
    _w_cstr(out, o.transaction_state)
    out += _P_iqqh(o.transaction_timeout_ms, o.transaction_start_time_ms, o.producer_id, o.producer_epoch)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicData_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeTransactionsResponse_v0(buf, pos):
    o = _new(DescribeTransactionsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TransactionState_v0(buf, pos)
        a.append(e)
    o.transaction_states = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeTransactionsResponse_v0(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.transaction_states
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TransactionState_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeTransactionsResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeTransactionsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeTransactionsResponse', 0) from None


MESSAGE = DescribeTransactionsResponse
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeTransactionsResponse': (
        ('throttle_time_ms', 'int32', 0, 0, None),
        ('transaction_states', '[]TransactionState', 0, 0, None),
    ),
    'TransactionState': (
        ('error_code', 'int16', 0, 0, None),
        ('transactional_id', 'string', 0, 0, 'transactionalId'),
        ('transaction_state', 'string', 0, 0, None),
        ('transaction_timeout_ms', 'int32', 0, 0, None),
        ('transaction_start_time_ms', 'int64', 0, 0, None),
        ('producer_id', 'int64', 0, 0, 'producerId'),
        ('producer_epoch', 'int16', 0, 0, None),
        ('topics', '[]TopicData', 0, 0, None),
    ),
    'TopicData': (
        ('topic', 'string', 0, 0, 'topicName'),
        ('partitions', '[]int32', 0, 0, None),
    ),
}
