# Generated from protocol_specs by kwire.codegen -- do not edit.
"""OffsetFetchResponse (api key 9): versions 1-10, flexible from v6."""


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
_S_iq = _Struct('>iq')
_U_iq = _S_iq.unpack_from
_P_iq = _S_iq.pack
_S_iqi = _Struct('>iqi')
_U_iqi = _S_iqi.unpack_from
_P_iqi = _S_iqi.pack


class OffsetFetchResponse:
    """OffsetFetchResponse, versions 1-10."""

    __slots__ = ('throttle_time_ms', 'topics', 'error_code', 'groups', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, topics=None, error_code=0, groups=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics
        self.error_code = error_code
        self.groups = [] if groups is None else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.topics == other.topics
                and self.error_code == other.error_code
                and self.groups == other.groups
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetFetchResponseGroup:
    """OffsetFetchResponseGroup struct of OffsetFetchResponse, versions 8+."""

    __slots__ = ('group_id', 'topics', 'error_code', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', topics=None, error_code=0, unknown_tagged_fields=None):
        self.group_id = group_id
        self.topics = [] if topics is None else topics
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.topics == other.topics
                and self.error_code == other.error_code
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetFetchResponseTopics:
    """OffsetFetchResponseTopics struct of OffsetFetchResponse, versions 8+."""

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


class OffsetFetchResponsePartitions:
    """OffsetFetchResponsePartitions struct of OffsetFetchResponse, versions 8+."""

    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'metadata', 'error_code', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, metadata='', error_code=0, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.committed_offset == other.committed_offset
                and self.committed_leader_epoch == other.committed_leader_epoch
                and self.metadata == other.metadata
                and self.error_code == other.error_code
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OffsetFetchResponseTopic:
    """OffsetFetchResponseTopic struct of OffsetFetchResponse, versions 0-7."""

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


class OffsetFetchResponsePartition:
    """OffsetFetchResponsePartition struct of OffsetFetchResponse, versions 0-7."""

    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'metadata', 'error_code', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, metadata='', error_code=0, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.committed_offset == other.committed_offset
                and self.committed_leader_epoch == other.committed_leader_epoch
                and self.metadata == other.metadata
                and self.error_code == other.error_code
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_OffsetFetchResponsePartition_v1(buf, pos):
    o = _new(OffsetFetchResponsePartition)
    (o.partition_index, o.committed_offset,) = _U_iq(buf, pos)
    pos += 12
    o.metadata, pos = _r_nstr(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.committed_leader_epoch = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchResponsePartition_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchResponsePartition', 'tags')
    out += _P_iq(o.partition_index, o.committed_offset)
    _w_nstr(out, o.metadata)
    out += _P_h(o.error_code)


def _d_OffsetFetchResponsePartition_v5(buf, pos):
    o = _new(OffsetFetchResponsePartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _U_iqi(buf, pos)
    pos += 16
    o.metadata, pos = _r_nstr(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchResponsePartition_v5(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchResponsePartition', 'tags')
    out += _P_iqi(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    _w_nstr(out, o.metadata)
    out += _P_h(o.error_code)


def _d_OffsetFetchResponsePartition_v6(buf, pos):
    o = _new(OffsetFetchResponsePartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _U_iqi(buf, pos)
    pos += 16
    o.metadata, pos = _r_cnstr(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponsePartition_v6(o, out, parts):
    out += _P_iqi(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    _w_cnstr(out, o.metadata)
    out += _P_h(o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchResponseTopic_v1(buf, pos):
    o = _new(OffsetFetchResponseTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponsePartition_v1(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchResponseTopic_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchResponseTopic', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_OffsetFetchResponsePartition_v1(e, out, parts)


def _d_OffsetFetchResponseTopic_v5(buf, pos):
    o = _new(OffsetFetchResponseTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponsePartition_v5(buf, pos)
        a.append(e)
    o.partitions = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchResponseTopic_v5(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchResponseTopic', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_OffsetFetchResponsePartition_v5(e, out, parts)


def _d_OffsetFetchResponseTopic_v6(buf, pos):
    o = _new(OffsetFetchResponseTopic)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponsePartition_v6(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponseTopic_v6(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchResponsePartition_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchResponsePartitions_v8(buf, pos):
    o = _new(OffsetFetchResponsePartitions)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _U_iqi(buf, pos)
    pos += 16
    o.metadata, pos = _r_cnstr(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponsePartitions_v8(o, out, parts):
    out += _P_iqi(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    _w_cnstr(out, o.metadata)
    out += _P_h(o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchResponseTopics_v8(buf, pos):
    o = _new(OffsetFetchResponseTopics)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponsePartitions_v8(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponseTopics_v8(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchResponsePartitions_v8(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchResponseTopics_v10(buf, pos):
    o = _new(OffsetFetchResponseTopics)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponsePartitions_v8(buf, pos)
        a.append(e)
    o.partitions = a
    o.name = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponseTopics_v10(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchResponsePartitions_v8(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchResponseGroup_v8(buf, pos):
    o = _new(OffsetFetchResponseGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponseTopics_v8(buf, pos)
        a.append(e)
    o.topics = a
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponseGroup_v8(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchResponseTopics_v8(e, out, parts)
    out += _P_h(o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchResponseGroup_v10(buf, pos):
    o = _new(OffsetFetchResponseGroup)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponseTopics_v10(buf, pos)
        a.append(e)
    o.topics = a
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponseGroup_v10(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchResponseTopics_v10(e, out, parts)
    out += _P_h(o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchResponse_v1(buf, pos):
    o = _new(OffsetFetchResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponseTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.throttle_time_ms = 0
    o.error_code = 0
    o.groups = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchResponse_v1(o, out, parts):
    if o.groups != []:
        raise _FieldVersionError('OffsetFetchResponse.Groups', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchResponse', 'tags')
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetFetchResponseTopic_v1(e, out, parts)


def _d_OffsetFetchResponse_v2(buf, pos):
    o = _new(OffsetFetchResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponseTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.throttle_time_ms = 0
    o.groups = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchResponse_v2(o, out, parts):
    if o.groups != []:
        raise _FieldVersionError('OffsetFetchResponse.Groups', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchResponse', 'tags')
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetFetchResponseTopic_v1(e, out, parts)
    out += _P_h(o.error_code)


def _d_OffsetFetchResponse_v3(buf, pos):
    o = _new(OffsetFetchResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponseTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.groups = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchResponse_v3(o, out, parts):
    if o.groups != []:
        raise _FieldVersionError('OffsetFetchResponse.Groups', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetFetchResponseTopic_v1(e, out, parts)
    out += _P_h(o.error_code)


def _d_OffsetFetchResponse_v5(buf, pos):
    o = _new(OffsetFetchResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponseTopic_v5(buf, pos)
        a.append(e)
    o.topics = a
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.groups = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OffsetFetchResponse_v5(o, out, parts):
    if o.groups != []:
        raise _FieldVersionError('OffsetFetchResponse.Groups', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OffsetFetchResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_OffsetFetchResponseTopic_v5(e, out, parts)
    out += _P_h(o.error_code)


def _d_OffsetFetchResponse_v6(buf, pos):
    o = _new(OffsetFetchResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponseTopic_v6(buf, pos)
        a.append(e)
    o.topics = a
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.groups = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponse_v6(o, out, parts):
    if o.groups != []:
        raise _FieldVersionError('OffsetFetchResponse.Groups', '8+')
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchResponseTopic_v6(e, out, parts)
    out += _P_h(o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchResponse_v8(buf, pos):
    o = _new(OffsetFetchResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponseGroup_v8(buf, pos)
        a.append(e)
    o.groups = a
    o.topics = []
    o.error_code = 0
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponse_v8(o, out, parts):
    if o.topics != []:
        raise _FieldVersionError('OffsetFetchResponse.Topics', '0-7')
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchResponseGroup_v8(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OffsetFetchResponse_v10(buf, pos):
    o = _new(OffsetFetchResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OffsetFetchResponseGroup_v10(buf, pos)
        a.append(e)
    o.groups = a
    o.topics = []
    o.error_code = 0
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OffsetFetchResponse_v10(o, out, parts):
    if o.topics != []:
        raise _FieldVersionError('OffsetFetchResponse.Topics', '0-7')
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OffsetFetchResponseGroup_v10(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v3(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v6(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v8(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v8(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_OffsetFetchResponse_v10(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_OffsetFetchResponse_v10(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('OffsetFetchResponse', 10) from None


MESSAGE = OffsetFetchResponse
VERSIONS = range(1, 11)
FLEXIBLE_MIN = 6
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'OffsetFetchResponse': (
        ('throttle_time_ms', 'int32', 3, 10, None),
        ('topics', '[]OffsetFetchResponseTopic', 0, 7, None),
        ('error_code', 'int16', 2, 7, None),
        ('groups', '[]OffsetFetchResponseGroup', 8, 10, None),
    ),
    'OffsetFetchResponseGroup': (
        ('group_id', 'string', 8, 10, 'groupId'),
        ('topics', '[]OffsetFetchResponseTopics', 8, 10, None),
        ('error_code', 'int16', 8, 10, None),
    ),
    'OffsetFetchResponseTopics': (
        ('name', 'string', 8, 9, 'topicName'),
        ('topic_id', 'uuid', 10, 10, None),
        ('partitions', '[]OffsetFetchResponsePartitions', 8, 10, None),
    ),
    'OffsetFetchResponsePartitions': (
        ('partition_index', 'int32', 8, 10, None),
        ('committed_offset', 'int64', 8, 10, None),
        ('committed_leader_epoch', 'int32', 8, 10, None),
        ('metadata', 'string', 8, 10, None),
        ('error_code', 'int16', 8, 10, None),
    ),
    'OffsetFetchResponseTopic': (
        ('name', 'string', 0, 7, 'topicName'),
        ('partitions', '[]OffsetFetchResponsePartition', 0, 7, None),
    ),
    'OffsetFetchResponsePartition': (
        ('partition_index', 'int32', 0, 7, None),
        ('committed_offset', 'int64', 0, 7, None),
        ('committed_leader_epoch', 'int32', 5, 7, None),
        ('metadata', 'string', 0, 7, None),
        ('error_code', 'int16', 0, 7, None),
    ),
}
