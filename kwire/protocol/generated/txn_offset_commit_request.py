# Generated from protocol_specs by kwire.codegen -- do not edit.
"""TxnOffsetCommitRequest (api key 28): versions 0-5, flexible from v3."""


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
_S_iq = _Struct('>iq')
_U_iq = _S_iq.unpack_from
_P_iq = _S_iq.pack
_S_iqi = _Struct('>iqi')
_U_iqi = _S_iqi.unpack_from
_P_iqi = _S_iqi.pack
_S_qh = _Struct('>qh')
_U_qh = _S_qh.unpack_from
_P_qh = _S_qh.pack
_S_qhi = _Struct('>qhi')
_U_qhi = _S_qhi.unpack_from
_P_qhi = _S_qhi.pack


class TxnOffsetCommitRequest:
    """TxnOffsetCommitRequest, versions 0-5."""

    __slots__ = ('transactional_id', 'group_id', 'producer_id', 'producer_epoch', 'generation_id', 'member_id', 'group_instance_id', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, transactional_id='', group_id='', producer_id=0, producer_epoch=0, generation_id=-1, member_id='', group_instance_id=None, topics=None, unknown_tagged_fields=None):
        self.transactional_id = transactional_id
        self.group_id = group_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.transactional_id == other.transactional_id
                and self.group_id == other.group_id
                and self.producer_id == other.producer_id
                and self.producer_epoch == other.producer_epoch
                and self.generation_id == other.generation_id
                and self.member_id == other.member_id
                and self.group_instance_id == other.group_instance_id
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TxnOffsetCommitRequestTopic:
    """TxnOffsetCommitRequestTopic struct of TxnOffsetCommitRequest, versions 0+."""

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


class TxnOffsetCommitRequestPartition:
    """TxnOffsetCommitRequestPartition struct of TxnOffsetCommitRequest, versions 0+."""

    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'committed_metadata', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, committed_metadata='', unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.committed_metadata = committed_metadata
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.committed_offset == other.committed_offset
                and self.committed_leader_epoch == other.committed_leader_epoch
                and self.committed_metadata == other.committed_metadata
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_TxnOffsetCommitRequestPartition_v0(buf, pos):
    o = _new(TxnOffsetCommitRequestPartition)
    (o.partition_index, o.committed_offset,) = _U_iq(buf, pos)
    pos += 12
    o.committed_metadata, pos = _r_nstr(buf, pos)
    o.committed_leader_epoch = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TxnOffsetCommitRequestPartition_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TxnOffsetCommitRequestPartition', 'tags')
    out += _P_iq(o.partition_index, o.committed_offset)
    _w_nstr(out, o.committed_metadata)


def _d_TxnOffsetCommitRequestPartition_v2(buf, pos):
    o = _new(TxnOffsetCommitRequestPartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _U_iqi(buf, pos)
    pos += 16
    o.committed_metadata, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TxnOffsetCommitRequestPartition_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TxnOffsetCommitRequestPartition', 'tags')
    out += _P_iqi(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    _w_nstr(out, o.committed_metadata)


def _d_TxnOffsetCommitRequestPartition_v3(buf, pos):
    o = _new(TxnOffsetCommitRequestPartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _U_iqi(buf, pos)
    pos += 16
    o.committed_metadata, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TxnOffsetCommitRequestPartition_v3(o, out, parts):
    out += _P_iqi(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    _w_cnstr(out, o.committed_metadata)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TxnOffsetCommitRequestTopic_v0(buf, pos):
    o = _new(TxnOffsetCommitRequestTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TxnOffsetCommitRequestPartition_v0(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TxnOffsetCommitRequestTopic_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TxnOffsetCommitRequestTopic', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_TxnOffsetCommitRequestPartition_v0(e, out, parts)


def _d_TxnOffsetCommitRequestTopic_v2(buf, pos):
    o = _new(TxnOffsetCommitRequestTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TxnOffsetCommitRequestPartition_v2(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TxnOffsetCommitRequestTopic_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TxnOffsetCommitRequestTopic', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_TxnOffsetCommitRequestPartition_v2(e, out, parts)


def _d_TxnOffsetCommitRequestTopic_v3(buf, pos):
    o = _new(TxnOffsetCommitRequestTopic)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TxnOffsetCommitRequestPartition_v3(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TxnOffsetCommitRequestTopic_v3(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TxnOffsetCommitRequestPartition_v3(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TxnOffsetCommitRequest_v0(buf, pos):
    o = _new(TxnOffsetCommitRequest)
    o.transactional_id, pos = _r_str(buf, pos)
    o.group_id, pos = _r_str(buf, pos)
    (o.producer_id, o.producer_epoch,) = _U_qh(buf, pos)
    pos += 10
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TxnOffsetCommitRequestTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    o.generation_id = -1
    o.member_id = ''
    o.group_instance_id = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TxnOffsetCommitRequest_v0(o, out, parts):
    if o.generation_id != -1:
        raise _FieldVersionError('TxnOffsetCommitRequest.GenerationId', '3+')
    if o.member_id != '':
        raise _FieldVersionError('TxnOffsetCommitRequest.MemberId', '3+')
    if o.group_instance_id is not None:
        raise _FieldVersionError('TxnOffsetCommitRequest.GroupInstanceId', '3+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TxnOffsetCommitRequest', 'tags')
    _w_str(out, o.transactional_id)
    _w_str(out, o.group_id)
    out += _P_qh(o.producer_id, o.producer_epoch)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_TxnOffsetCommitRequestTopic_v0(e, out, parts)


def _d_TxnOffsetCommitRequest_v2(buf, pos):
    o = _new(TxnOffsetCommitRequest)
    o.transactional_id, pos = _r_str(buf, pos)
    o.group_id, pos = _r_str(buf, pos)
    (o.producer_id, o.producer_epoch,) = _U_qh(buf, pos)
    pos += 10
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TxnOffsetCommitRequestTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    o.generation_id = -1
    o.member_id = ''
    o.group_instance_id = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_TxnOffsetCommitRequest_v2(o, out, parts):
    if o.generation_id != -1:
        raise _FieldVersionError('TxnOffsetCommitRequest.GenerationId', '3+')
    if o.member_id != '':
        raise _FieldVersionError('TxnOffsetCommitRequest.MemberId', '3+')
    if o.group_instance_id is not None:
        raise _FieldVersionError('TxnOffsetCommitRequest.GroupInstanceId', '3+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('TxnOffsetCommitRequest', 'tags')
    _w_str(out, o.transactional_id)
    _w_str(out, o.group_id)
    out += _P_qh(o.producer_id, o.producer_epoch)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_TxnOffsetCommitRequestTopic_v2(e, out, parts)


def _d_TxnOffsetCommitRequest_v3(buf, pos):
    o = _new(TxnOffsetCommitRequest)
    o.transactional_id, pos = _r_cstr(buf, pos)
    o.group_id, pos = _r_cstr(buf, pos)
    (o.producer_id, o.producer_epoch, o.generation_id,) = _U_qhi(buf, pos)
    pos += 14
    o.member_id, pos = _r_cstr(buf, pos)
    o.group_instance_id, pos = _r_cnstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TxnOffsetCommitRequestTopic_v3(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TxnOffsetCommitRequest_v3(o, out, parts):
    _w_cstr(out, o.transactional_id)
    _w_cstr(out, o.group_id)
    out += _P_qhi(o.producer_id, o.producer_epoch, o.generation_id)
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.group_instance_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TxnOffsetCommitRequestTopic_v3(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_TxnOffsetCommitRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_TxnOffsetCommitRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('TxnOffsetCommitRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_TxnOffsetCommitRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_TxnOffsetCommitRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('TxnOffsetCommitRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_TxnOffsetCommitRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_TxnOffsetCommitRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('TxnOffsetCommitRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_TxnOffsetCommitRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_TxnOffsetCommitRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('TxnOffsetCommitRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_TxnOffsetCommitRequest_v3(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_TxnOffsetCommitRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('TxnOffsetCommitRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_TxnOffsetCommitRequest_v3(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_TxnOffsetCommitRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('TxnOffsetCommitRequest', 5) from None


MESSAGE = TxnOffsetCommitRequest
VERSIONS = range(0, 6)
FLEXIBLE_MIN = 3
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'TxnOffsetCommitRequest': (
        ('transactional_id', 'string', 0, 5, 'transactionalId'),
        ('group_id', 'string', 0, 5, 'groupId'),
        ('producer_id', 'int64', 0, 5, 'producerId'),
        ('producer_epoch', 'int16', 0, 5, None),
        ('generation_id', 'int32', 3, 5, None),
        ('member_id', 'string', 3, 5, None),
        ('group_instance_id', 'string', 3, 5, None),
        ('topics', '[]TxnOffsetCommitRequestTopic', 0, 5, None),
    ),
    'TxnOffsetCommitRequestTopic': (
        ('name', 'string', 0, 5, 'topicName'),
        ('partitions', '[]TxnOffsetCommitRequestPartition', 0, 5, None),
    ),
    'TxnOffsetCommitRequestPartition': (
        ('partition_index', 'int32', 0, 5, None),
        ('committed_offset', 'int64', 0, 5, None),
        ('committed_leader_epoch', 'int32', 2, 5, None),
        ('committed_metadata', 'string', 0, 5, None),
    ),
}
