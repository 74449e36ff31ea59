# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeProducersResponse (api key 61): versions 0-0, flexible from v0."""


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
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack
_S_qiiqiq = _Struct('>qiiqiq')
_U_qiiqiq = _S_qiiqiq.unpack_from
_P_qiiqiq = _S_qiiqiq.pack


class DescribeProducersResponse:
    """DescribeProducersResponse, versions 0."""

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


class TopicResponse:
    """TopicResponse struct of DescribeProducersResponse, versions 0+."""

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


class PartitionResponse:
    """PartitionResponse struct of DescribeProducersResponse, versions 0+."""

    __slots__ = ('partition_index', 'error_code', 'error_message', 'active_producers', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, error_code=0, error_message=None, active_producers=None, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.active_producers = [] if active_producers is None else active_producers
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.active_producers == other.active_producers
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ProducerState:
    """ProducerState struct of DescribeProducersResponse, versions 0+."""

    __slots__ = ('producer_id', 'producer_epoch', 'last_sequence', 'last_timestamp', 'coordinator_epoch', 'current_txn_start_offset', 'unknown_tagged_fields',)

    def __init__(self, *, producer_id=0, producer_epoch=0, last_sequence=-1, last_timestamp=-1, coordinator_epoch=0, current_txn_start_offset=-1, unknown_tagged_fields=None):
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.last_sequence = last_sequence
        self.last_timestamp = last_timestamp
        self.coordinator_epoch = coordinator_epoch
        self.current_txn_start_offset = current_txn_start_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.producer_id == other.producer_id
                and self.producer_epoch == other.producer_epoch
                and self.last_sequence == other.last_sequence
                and self.last_timestamp == other.last_timestamp
                and self.coordinator_epoch == other.coordinator_epoch
                and self.current_txn_start_offset == other.current_txn_start_offset
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ProducerState_v0(buf, pos):
    o = _new(ProducerState)
    (o.producer_id, o.producer_epoch, o.last_sequence, o.last_timestamp, o.coordinator_epoch, o.current_txn_start_offset,) = _U_qiiqiq(buf, pos)
    pos += 36
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ProducerState_v0(o, out, parts):
    out += _P_qiiqiq(o.producer_id, o.producer_epoch, o.last_sequence, o.last_timestamp, o.coordinator_epoch, o.current_txn_start_offset)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionResponse_v0(buf, pos):
    o = _new(PartitionResponse)
    (o.partition_index, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.error_message, pos = _r_cnstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ProducerState_v0(buf, pos)
        a.append(e)
    o.active_producers = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionResponse_v0(o, out, parts):
    out += _P_ih(o.partition_index, o.error_code)
    _w_cnstr(out, o.error_message)
    x = o.active_producers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ProducerState_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicResponse_v0(buf, pos):
    o = _new(TopicResponse)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionResponse_v0(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicResponse_v0(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionResponse_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeProducersResponse_v0(buf, pos):
    o = _new(DescribeProducersResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicResponse_v0(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeProducersResponse_v0(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicResponse_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeProducersResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeProducersResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeProducersResponse', 0) from None


MESSAGE = DescribeProducersResponse
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeProducersResponse': (
        ('throttle_time_ms', 'int32', 0, 0, None),
        ('topics', '[]TopicResponse', 0, 0, None),
    ),
    'TopicResponse': (
        ('name', 'string', 0, 0, 'topicName'),
        ('partitions', '[]PartitionResponse', 0, 0, None),
    ),
    'PartitionResponse': (
        ('partition_index', 'int32', 0, 0, None),
        ('error_code', 'int16', 0, 0, None),
        ('error_message', 'string', 0, 0, None),
        ('active_producers', '[]ProducerState', 0, 0, None),
    ),
    'ProducerState': (
        ('producer_id', 'int64', 0, 0, 'producerId'),
        ('producer_epoch', 'int32', 0, 0, None),
        ('last_sequence', 'int32', 0, 0, None),
        ('last_timestamp', 'int64', 0, 0, None),
        ('coordinator_epoch', 'int32', 0, 0, None),
        ('current_txn_start_offset', 'int64', 0, 0, None),
    ),
}
