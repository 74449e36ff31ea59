# Generated from protocol_specs by kwire.codegen -- do not edit.
"""OffsetCommitRequest (api key 8): versions 2-10, flexible from v8."""


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
_S_iq = _Struct('>iq')
_U_iq = _S_iq.unpack_from
_P_iq = _S_iq.pack
_S_iqi = _Struct('>iqi')
_U_iqi = _S_iqi.unpack_from
_P_iqi = _S_iqi.pack
_S_q = _Struct('>q')
_U_q = _S_q.unpack_from
_P_q = _S_q.pack


class OffsetCommitRequest:
    """OffsetCommitRequest, versions 2-10."""

    __slots__ = ('group_id', 'generation_id_or_member_epoch', 'member_id', 'group_instance_id', 'retention_time_ms', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', generation_id_or_member_epoch=-1, member_id='', group_instance_id=None, retention_time_ms=-1, topics=None, unknown_tagged_fields=None):
        self.group_id = group_id
        self.generation_id_or_member_epoch = generation_id_or_member_epoch
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.retention_time_ms = retention_time_ms
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.generation_id_or_member_epoch == other.generation_id_or_member_epoch
                and self.member_id == other.member_id
                and self.group_instance_id == other.group_instance_id
                and self.retention_time_ms == other.retention_time_ms
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetCommitRequestTopic:
    """OffsetCommitRequestTopic struct of OffsetCommitRequest, versions 0+."""

    __slots__ = ('name', 'topic_id', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, name='', topic_id=_ZERO_UUID, partitions=None, unknown_tagged_fields=None):
        self.name = name
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.topic_id == other.topic_id
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetCommitRequestPartition:
    """OffsetCommitRequestPartition struct of OffsetCommitRequest, versions 0+."""

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


def _d_OffsetCommitRequestPartition_v2(buf, pos):
    o = _new(OffsetCommitRequestPartition)
    (o.partition_index, o.committed_offset,) = _U_iq(buf, pos)
    pos += 12
    o.committed_metadata, pos = _r_nstr(buf, pos)
    o.committed_leader_epoch = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetCommitRequestPartition_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetCommitRequestPartition', 'tags')
    out += _P_iq(o.partition_index, o.committed_offset)
    _w_nstr(out, o.committed_metadata)


def _d_OffsetCommitRequestPartition_v6(buf, pos):
    o = _new(OffsetCommitRequestPartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _U_iqi(buf, pos)
    pos += 16
    o.committed_metadata, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetCommitRequestPartition_v6(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetCommitRequestPartition', 'tags')
    out += _P_iqi(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    _w_nstr(out, o.committed_metadata)


def _d_OffsetCommitRequestPartition_v8(buf, pos):
    o = _new(OffsetCommitRequestPartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _U_iqi(buf, pos)
    pos += 16
    o.committed_metadata, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetCommitRequestPartition_v8(o, out, parts):
    out += _P_iqi(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    _w_cnstr(out, o.committed_metadata)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetCommitRequestTopic_v2(buf, pos):
    o = _new(OffsetCommitRequestTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestPartition_v2(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetCommitRequestTopic_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetCommitRequestTopic', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_OffsetCommitRequestPartition_v2(e, out, parts)


def _d_OffsetCommitRequestTopic_v6(buf, pos):
    o = _new(OffsetCommitRequestTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestPartition_v6(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetCommitRequestTopic_v6(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetCommitRequestTopic', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_OffsetCommitRequestPartition_v6(e, out, parts)


def _d_OffsetCommitRequestTopic_v8(buf, pos):
    o = _new(OffsetCommitRequestTopic)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestPartition_v8(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetCommitRequestTopic_v8(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetCommitRequestPartition_v8(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetCommitRequestTopic_v10(buf, pos):
    o = _new(OffsetCommitRequestTopic)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestPartition_v8(buf, pos)
        a.append(e)
    o.partitions = a
    o.name = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetCommitRequestTopic_v10(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetCommitRequestPartition_v8(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetCommitRequest_v2(buf, pos):
    o = _new(OffsetCommitRequest)
    o.group_id, pos = _r_str(buf, pos)
    (o.generation_id_or_member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_str(buf, pos)
    (o.retention_time_ms,) = _U_q(buf, pos)
    pos += 8
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    o.group_instance_id = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetCommitRequest_v2(o, out, parts):
    if o.group_instance_id is not None:
        raise _FieldVersionError('OffsetCommitRequest.GroupInstanceId', '7+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetCommitRequest', 'tags')
    _w_str(out, o.group_id)
    out += _P_i(o.generation_id_or_member_epoch)
    _w_str(out, o.member_id)
    out += _P_q(o.retention_time_ms)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetCommitRequestTopic_v2(e, out, parts)


def _d_OffsetCommitRequest_v5(buf, pos):
    o = _new(OffsetCommitRequest)
    o.group_id, pos = _r_str(buf, pos)
    (o.generation_id_or_member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    o.group_instance_id = None
    o.retention_time_ms = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetCommitRequest_v5(o, out, parts):
    if o.group_instance_id is not None:
        raise _FieldVersionError('OffsetCommitRequest.GroupInstanceId', '7+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetCommitRequest', 'tags')
    _w_str(out, o.group_id)
    out += _P_i(o.generation_id_or_member_epoch)
    _w_str(out, o.member_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetCommitRequestTopic_v2(e, out, parts)


def _d_OffsetCommitRequest_v6(buf, pos):
    o = _new(OffsetCommitRequest)
    o.group_id, pos = _r_str(buf, pos)
    (o.generation_id_or_member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestTopic_v6(buf, pos)
        a.append(e)
    o.topics = a
    o.group_instance_id = None
    o.retention_time_ms = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetCommitRequest_v6(o, out, parts):
    if o.group_instance_id is not None:
        raise _FieldVersionError('OffsetCommitRequest.GroupInstanceId', '7+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetCommitRequest', 'tags')
    _w_str(out, o.group_id)
    out += _P_i(o.generation_id_or_member_epoch)
    _w_str(out, o.member_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetCommitRequestTopic_v6(e, out, parts)


def _d_OffsetCommitRequest_v7(buf, pos):
    o = _new(OffsetCommitRequest)
    o.group_id, pos = _r_str(buf, pos)
    (o.generation_id_or_member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_str(buf, pos)
    o.group_instance_id, pos = _r_nstr(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestTopic_v6(buf, pos)
        a.append(e)
    o.topics = a
    o.retention_time_ms = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetCommitRequest_v7(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetCommitRequest', 'tags')
    _w_str(out, o.group_id)
    out += _P_i(o.generation_id_or_member_epoch)
    _w_str(out, o.member_id)
    _w_nstr(out, o.group_instance_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetCommitRequestTopic_v6(e, out, parts)


def _d_OffsetCommitRequest_v8(buf, pos):
    o = _new(OffsetCommitRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    (o.generation_id_or_member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_cstr(buf, pos)
    o.group_instance_id, pos = _r_cnstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestTopic_v8(buf, pos)
        a.append(e)
    o.topics = a
    o.retention_time_ms = -1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetCommitRequest_v8(o, out, parts):
    _w_cstr(out, o.group_id)
    out += _P_i(o.generation_id_or_member_epoch)
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.group_instance_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetCommitRequestTopic_v8(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetCommitRequest_v10(buf, pos):
    o = _new(OffsetCommitRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    (o.generation_id_or_member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.member_id, pos = _r_cstr(buf, pos)
    o.group_instance_id, pos = _r_cnstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetCommitRequestTopic_v10(buf, pos)
        a.append(e)
    o.topics = a
    o.retention_time_ms = -1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetCommitRequest_v10(o, out, parts):
    _w_cstr(out, o.group_id)
    out += _P_i(o.generation_id_or_member_epoch)
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.group_instance_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetCommitRequestTopic_v10(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetCommitRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_OffsetCommitRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetCommitRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetCommitRequest_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_OffsetCommitRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetCommitRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetCommitRequest_v2(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_OffsetCommitRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetCommitRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetCommitRequest_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_OffsetCommitRequest_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetCommitRequest', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetCommitRequest_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_OffsetCommitRequest_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetCommitRequest', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetCommitRequest_v7(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_OffsetCommitRequest_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetCommitRequest', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetCommitRequest_v8(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_OffsetCommitRequest_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetCommitRequest', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetCommitRequest_v8(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_OffsetCommitRequest_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetCommitRequest', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetCommitRequest_v10(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_OffsetCommitRequest_v10(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetCommitRequest', 10) from None


MESSAGE = OffsetCommitRequest
VERSIONS = range(2, 11)
FLEXIBLE_MIN = 8
DECODERS = {2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10}
ENCODERS = {2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'OffsetCommitRequest': (
        ('group_id', 'string', 0, 10, 'groupId'),
        ('generation_id_or_member_epoch', 'int32', 1, 10, None),
        ('member_id', 'string', 1, 10, None),
        ('group_instance_id', 'string', 7, 10, None),
        ('retention_time_ms', 'int64', 2, 4, None),
        ('topics', '[]OffsetCommitRequestTopic', 0, 10, None),
    ),
    'OffsetCommitRequestTopic': (
        ('name', 'string', 0, 9, 'topicName'),
        ('topic_id', 'uuid', 10, 10, None),
        ('partitions', '[]OffsetCommitRequestPartition', 0, 10, None),
    ),
    'OffsetCommitRequestPartition': (
        ('partition_index', 'int32', 0, 10, None),
        ('committed_offset', 'int64', 0, 10, None),
        ('committed_leader_epoch', 'int32', 6, 10, None),
        ('committed_metadata', 'string', 0, 10, None),
    ),
}
