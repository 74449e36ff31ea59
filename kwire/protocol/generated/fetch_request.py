# Generated from protocol_specs by kwire.codegen -- do not edit.
"""FetchRequest (api key 1): versions 4-18, flexible from v12."""


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
_S_iiibii = _Struct('>iiibii')
_U_iiibii = _S_iiibii.unpack_from
_P_iiibii = _S_iiibii.pack
_S_iiiib = _Struct('>iiiib')
_U_iiiib = _S_iiiib.unpack_from
_P_iiiib = _S_iiiib.pack
_S_iiiibii = _Struct('>iiiibii')
_U_iiiibii = _S_iiiibii.unpack_from
_P_iiiibii = _S_iiiibii.pack
_S_iiqiqi = _Struct('>iiqiqi')
_U_iiqiqi = _S_iiqiqi.unpack_from
_P_iiqiqi = _S_iiqiqi.pack
_S_iiqqi = _Struct('>iiqqi')
_U_iiqqi = _S_iiqqi.unpack_from
_P_iiqqi = _S_iiqqi.pack
_S_iq = _Struct('>iq')
_U_iq = _S_iq.unpack_from
_P_iq = _S_iq.pack
_S_iqi = _Struct('>iqi')
_U_iqi = _S_iqi.unpack_from
_P_iqi = _S_iqi.pack
_S_iqqi = _Struct('>iqqi')
_U_iqqi = _S_iqqi.unpack_from
_P_iqqi = _S_iqqi.pack
_S_q = _Struct('>q')
_U_q = _S_q.unpack_from
_P_q = _S_q.pack


class FetchRequest:
    """FetchRequest, versions 4-18."""

    __slots__ = ('cluster_id', 'replica_id', 'replica_state', 'max_wait_ms', 'min_bytes', 'max_bytes', 'isolation_level', 'session_id', 'session_epoch', 'topics', 'forgotten_topics_data', 'rack_id', 'unknown_tagged_fields',)

    def __init__(self, *, cluster_id=None, replica_id=-1, replica_state=None, max_wait_ms=0, min_bytes=0, max_bytes=2147483647, isolation_level=0, session_id=0, session_epoch=-1, topics=None, forgotten_topics_data=None, rack_id='', unknown_tagged_fields=None):
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.replica_state = ReplicaState() if replica_state is None else replica_state
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.isolation_level = isolation_level
        self.session_id = session_id
        self.session_epoch = session_epoch
        self.topics = [] if topics is None else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is None else forgotten_topics_data
        self.rack_id = rack_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.cluster_id == other.cluster_id
                and self.replica_id == other.replica_id
                and self.replica_state == other.replica_state
                and self.max_wait_ms == other.max_wait_ms
                and self.min_bytes == other.min_bytes
                and self.max_bytes == other.max_bytes
                and self.isolation_level == other.isolation_level
                and self.session_id == other.session_id
                and self.session_epoch == other.session_epoch
                and self.topics == other.topics
                and self.forgotten_topics_data == other.forgotten_topics_data
                and self.rack_id == other.rack_id
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ForgottenTopic:
    """ForgottenTopic struct of FetchRequest, versions 7+."""

    __slots__ = ('topic', 'topic_id', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic='', topic_id=_ZERO_UUID, partitions=None, unknown_tagged_fields=None):
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic == other.topic
                and self.topic_id == other.topic_id
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class FetchTopic:
    """FetchTopic struct of FetchRequest, versions 0+."""

    __slots__ = ('topic', 'topic_id', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic='', topic_id=_ZERO_UUID, partitions=None, unknown_tagged_fields=None):
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic == other.topic
                and self.topic_id == other.topic_id
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class FetchPartition:
    """FetchPartition struct of FetchRequest, versions 0+."""

    __slots__ = ('partition', 'current_leader_epoch', 'fetch_offset', 'last_fetched_epoch', 'log_start_offset', 'partition_max_bytes', 'replica_directory_id', 'high_watermark', 'unknown_tagged_fields',)

    def __init__(self, *, partition=0, current_leader_epoch=-1, fetch_offset=0, last_fetched_epoch=-1, log_start_offset=-1, partition_max_bytes=0, replica_directory_id=_ZERO_UUID, high_watermark=9223372036854775807, unknown_tagged_fields=None):
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.fetch_offset = fetch_offset
        self.last_fetched_epoch = last_fetched_epoch
        self.log_start_offset = log_start_offset
        self.partition_max_bytes = partition_max_bytes
        self.replica_directory_id = replica_directory_id
        self.high_watermark = high_watermark
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition == other.partition
                and self.current_leader_epoch == other.current_leader_epoch
                and self.fetch_offset == other.fetch_offset
                and self.last_fetched_epoch == other.last_fetched_epoch
                and self.log_start_offset == other.log_start_offset
                and self.partition_max_bytes == other.partition_max_bytes
                and self.replica_directory_id == other.replica_directory_id
                and self.high_watermark == other.high_watermark
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ReplicaState:
    """ReplicaState struct of FetchRequest, versions 15+."""

    __slots__ = ('replica_id', 'replica_epoch', 'unknown_tagged_fields',)

    def __init__(self, *, replica_id=-1, replica_epoch=-1, unknown_tagged_fields=None):
        self.replica_id = replica_id
        self.replica_epoch = replica_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.replica_id == other.replica_id
                and self.replica_epoch == other.replica_epoch
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


_DEF_ReplicaState = ReplicaState()


def _d_ReplicaState_v15(buf, pos):
    o = _new(ReplicaState)
    (o.replica_id, o.replica_epoch,) = _U_iq(buf, pos)
    pos += 12
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ReplicaState_v15(o, out, parts):
    out += _P_iq(o.replica_id, o.replica_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchPartition_v4(buf, pos):
    o = _new(FetchPartition)
    (o.partition, o.fetch_offset, o.partition_max_bytes,) = _U_iqi(buf, pos)
    pos += 16
    o.current_leader_epoch = -1
    o.last_fetched_epoch = -1
    o.log_start_offset = -1
    o.replica_directory_id = _ZERO_UUID
    o.high_watermark = 9223372036854775807
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchPartition_v4(o, out, parts):
    if o.last_fetched_epoch != -1:
        raise _FieldVersionError('FetchPartition.LastFetchedEpoch', '12+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchPartition', 'tags')
    out += _P_iqi(o.partition, o.fetch_offset, o.partition_max_bytes)


def _d_FetchPartition_v5(buf, pos):
    o = _new(FetchPartition)
    (o.partition, o.fetch_offset, o.log_start_offset, o.partition_max_bytes,) = _U_iqqi(buf, pos)
    pos += 24
    o.current_leader_epoch = -1
    o.last_fetched_epoch = -1
    o.replica_directory_id = _ZERO_UUID
    o.high_watermark = 9223372036854775807
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchPartition_v5(o, out, parts):
    if o.last_fetched_epoch != -1:
        raise _FieldVersionError('FetchPartition.LastFetchedEpoch', '12+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchPartition', 'tags')
    out += _P_iqqi(o.partition, o.fetch_offset, o.log_start_offset, o.partition_max_bytes)


def _d_FetchPartition_v9(buf, pos):
    o = _new(FetchPartition)
    (o.partition, o.current_leader_epoch, o.fetch_offset, o.log_start_offset, o.partition_max_bytes,) = _U_iiqqi(buf, pos)
    pos += 28
    o.last_fetched_epoch = -1
    o.replica_directory_id = _ZERO_UUID
    o.high_watermark = 9223372036854775807
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchPartition_v9(o, out, parts):
    if o.last_fetched_epoch != -1:
        raise _FieldVersionError('FetchPartition.LastFetchedEpoch', '12+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchPartition', 'tags')
    out += _P_iiqqi(o.partition, o.current_leader_epoch, o.fetch_offset, o.log_start_offset, o.partition_max_bytes)


def _d_FetchPartition_v12(buf, pos):
    o = _new(FetchPartition)
    (o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes,) = _U_iiqiqi(buf, pos)
    pos += 32
    o.replica_directory_id = _ZERO_UUID
    o.high_watermark = 9223372036854775807
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FetchPartition_v12(o, out, parts):
    out += _P_iiqiqi(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchPartition_v17(buf, pos):
    o = _new(FetchPartition)
    (o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes,) = _U_iiqiqi(buf, pos)
    pos += 32
    o.high_watermark = 9223372036854775807
    o.replica_directory_id = _ZERO_UUID
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            o.replica_directory_id, pos = _r_uuid(sub, pos)
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_FetchPartition_v17(o, out, parts):
    out += _P_iiqiqi(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes)
    t = []
    x = o.replica_directory_id
    if x != _ZERO_UUID:
        b = bytearray()
        b += x.bytes
        t.append((0, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_FetchPartition_v18(buf, pos):
    o = _new(FetchPartition)
    (o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes,) = _U_iiqiqi(buf, pos)
    pos += 32
    o.replica_directory_id = _ZERO_UUID
    o.high_watermark = 9223372036854775807
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            o.replica_directory_id, pos = _r_uuid(sub, pos)
        elif tag == 1:
            sub = buf[:end]
            (o.high_watermark,) = _U_q(sub, pos)
            pos += 8
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_FetchPartition_v18(o, out, parts):
    out += _P_iiqiqi(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes)
    t = []
    x = o.replica_directory_id
    if x != _ZERO_UUID:
        b = bytearray()
        b += x.bytes
        t.append((0, b))
    x = o.high_watermark
    if x != 9223372036854775807:
        b = bytearray()
        b += _P_q(x)
        t.append((1, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_FetchTopic_v4(buf, pos):
    o = _new(FetchTopic)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchPartition_v4(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchTopic_v4(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchTopic', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_FetchPartition_v4(e, out, parts)


def _d_FetchTopic_v5(buf, pos):
    o = _new(FetchTopic)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchPartition_v5(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchTopic_v5(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchTopic', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_FetchPartition_v5(e, out, parts)


def _d_FetchTopic_v9(buf, pos):
    o = _new(FetchTopic)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchPartition_v9(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchTopic_v9(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchTopic', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_FetchPartition_v9(e, out, parts)


def _d_FetchTopic_v12(buf, pos):
    o = _new(FetchTopic)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchPartition_v12(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FetchTopic_v12(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchPartition_v12(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchTopic_v13(buf, pos):
    o = _new(FetchTopic)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchPartition_v12(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FetchTopic_v13(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchPartition_v12(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchTopic_v17(buf, pos):
    o = _new(FetchTopic)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchPartition_v17(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FetchTopic_v17(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchPartition_v17(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchTopic_v18(buf, pos):
    o = _new(FetchTopic)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchPartition_v18(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FetchTopic_v18(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchPartition_v18(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ForgottenTopic_v7(buf, pos):
    o = _new(ForgottenTopic)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ForgottenTopic_v7(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ForgottenTopic', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_ForgottenTopic_v12(buf, pos):
    o = _new(ForgottenTopic)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ForgottenTopic_v12(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ForgottenTopic_v13(buf, pos):
    o = _new(ForgottenTopic)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    o.topic = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ForgottenTopic_v13(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchRequest_v4(buf, pos):
    o = _new(FetchRequest)
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level,) = _U_iiiib(buf, pos)
    pos += 17
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v4(buf, pos)
        a.append(e)
    o.topics = a
    o.cluster_id = None
    o.replica_state = ReplicaState()
    o.session_id = 0
    o.session_epoch = -1
    o.forgotten_topics_data = []
    o.rack_id = ''
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchRequest_v4(o, out, parts):
    if o.replica_state is not _DEF_ReplicaState and o.replica_state != _DEF_ReplicaState:
        raise _FieldVersionError('FetchRequest.ReplicaState', '15+')
    if o.forgotten_topics_data != []:
        raise _FieldVersionError('FetchRequest.ForgottenTopicsData', '7+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchRequest', 'tags')
    out += _P_iiiib(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_FetchTopic_v4(e, out, parts)


def _d_FetchRequest_v5(buf, pos):
    o = _new(FetchRequest)
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level,) = _U_iiiib(buf, pos)
    pos += 17
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v5(buf, pos)
        a.append(e)
    o.topics = a
    o.cluster_id = None
    o.replica_state = ReplicaState()
    o.session_id = 0
    o.session_epoch = -1
    o.forgotten_topics_data = []
    o.rack_id = ''
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchRequest_v5(o, out, parts):
    if o.replica_state is not _DEF_ReplicaState and o.replica_state != _DEF_ReplicaState:
        raise _FieldVersionError('FetchRequest.ReplicaState', '15+')
    if o.forgotten_topics_data != []:
        raise _FieldVersionError('FetchRequest.ForgottenTopicsData', '7+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchRequest', 'tags')
    out += _P_iiiib(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_FetchTopic_v5(e, out, parts)


def _d_FetchRequest_v7(buf, pos):
    o = _new(FetchRequest)
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _U_iiiibii(buf, pos)
    pos += 25
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v5(buf, pos)
        a.append(e)
    o.topics = a
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ForgottenTopic_v7(buf, pos)
        a.append(e)
    o.forgotten_topics_data = a
    o.cluster_id = None
    o.replica_state = ReplicaState()
    o.rack_id = ''
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchRequest_v7(o, out, parts):
    if o.replica_state is not _DEF_ReplicaState and o.replica_state != _DEF_ReplicaState:
        raise _FieldVersionError('FetchRequest.ReplicaState', '15+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchRequest', 'tags')
    out += _P_iiiibii(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_FetchTopic_v5(e, out, parts)
    x = o.forgotten_topics_data
    out += _P_len(len(x))
    for e in x:
        _e_ForgottenTopic_v7(e, out, parts)


def _d_FetchRequest_v9(buf, pos):
    o = _new(FetchRequest)
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _U_iiiibii(buf, pos)
    pos += 25
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v9(buf, pos)
        a.append(e)
    o.topics = a
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ForgottenTopic_v7(buf, pos)
        a.append(e)
    o.forgotten_topics_data = a
    o.cluster_id = None
    o.replica_state = ReplicaState()
    o.rack_id = ''
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchRequest_v9(o, out, parts):
    if o.replica_state is not _DEF_ReplicaState and o.replica_state != _DEF_ReplicaState:
        raise _FieldVersionError('FetchRequest.ReplicaState', '15+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchRequest', 'tags')
    out += _P_iiiibii(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_FetchTopic_v9(e, out, parts)
    x = o.forgotten_topics_data
    out += _P_len(len(x))
    for e in x:
        _e_ForgottenTopic_v7(e, out, parts)


def _d_FetchRequest_v11(buf, pos):
    o = _new(FetchRequest)
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _U_iiiibii(buf, pos)
    pos += 25
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v9(buf, pos)
        a.append(e)
    o.topics = a
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ForgottenTopic_v7(buf, pos)
        a.append(e)
    o.forgotten_topics_data = a
    o.rack_id, pos = _r_str(buf, pos)
    o.cluster_id = None
    o.replica_state = ReplicaState()
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchRequest_v11(o, out, parts):
    if o.replica_state is not _DEF_ReplicaState and o.replica_state != _DEF_ReplicaState:
        raise _FieldVersionError('FetchRequest.ReplicaState', '15+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchRequest', 'tags')
    out += _P_iiiibii(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_FetchTopic_v9(e, out, parts)
    x = o.forgotten_topics_data
    out += _P_len(len(x))
    for e in x:
        _e_ForgottenTopic_v7(e, out, parts)
    _w_str(out, o.rack_id)


def _d_FetchRequest_v12(buf, pos):
    o = _new(FetchRequest)
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _U_iiiibii(buf, pos)
    pos += 25
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v12(buf, pos)
        a.append(e)
    o.topics = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ForgottenTopic_v12(buf, pos)
        a.append(e)
    o.forgotten_topics_data = a
    o.rack_id, pos = _r_cstr(buf, pos)
    o.replica_state = ReplicaState()
    o.cluster_id = None
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            o.cluster_id, pos = _r_cnstr(sub, pos)
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_FetchRequest_v12(o, out, parts):
    if o.replica_state is not _DEF_ReplicaState and o.replica_state != _DEF_ReplicaState:
        raise _FieldVersionError('FetchRequest.ReplicaState', '15+')
    out += _P_iiiibii(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchTopic_v12(e, out, parts)
    x = o.forgotten_topics_data
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ForgottenTopic_v12(e, out, parts)
    _w_cstr(out, o.rack_id)
    t = []
    x = o.cluster_id
    if x is not None:
        b = bytearray()
        _w_cnstr(b, x)
        t.append((0, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_FetchRequest_v13(buf, pos):
    o = _new(FetchRequest)
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _U_iiiibii(buf, pos)
    pos += 25
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v13(buf, pos)
        a.append(e)
    o.topics = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ForgottenTopic_v13(buf, pos)
        a.append(e)
    o.forgotten_topics_data = a
    o.rack_id, pos = _r_cstr(buf, pos)
    o.replica_state = ReplicaState()
    o.cluster_id = None
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            o.cluster_id, pos = _r_cnstr(sub, pos)
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_FetchRequest_v13(o, out, parts):
    if o.replica_state is not _DEF_ReplicaState and o.replica_state != _DEF_ReplicaState:
        raise _FieldVersionError('FetchRequest.ReplicaState', '15+')
    out += _P_iiiibii(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchTopic_v13(e, out, parts)
    x = o.forgotten_topics_data
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ForgottenTopic_v13(e, out, parts)
    _w_cstr(out, o.rack_id)
    t = []
    x = o.cluster_id
    if x is not None:
        b = bytearray()
        _w_cnstr(b, x)
        t.append((0, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_FetchRequest_v15(buf, pos):
    o = _new(FetchRequest)
    (o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _U_iiibii(buf, pos)
    pos += 21
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v13(buf, pos)
        a.append(e)
    o.topics = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ForgottenTopic_v13(buf, pos)
        a.append(e)
    o.forgotten_topics_data = a
    o.rack_id, pos = _r_cstr(buf, pos)
    o.replica_id = -1
    o.cluster_id = None
    o.replica_state = ReplicaState()
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            o.cluster_id, pos = _r_cnstr(sub, pos)
        elif tag == 1:
            sub = buf[:end]
            o.replica_state, pos = _d_ReplicaState_v15(sub, pos)
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_FetchRequest_v15(o, out, parts):
    if o.replica_id != -1:
        raise _FieldVersionError('FetchRequest.ReplicaId', '0-14')
    out += _P_iiibii(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchTopic_v13(e, out, parts)
    x = o.forgotten_topics_data
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ForgottenTopic_v13(e, out, parts)
    _w_cstr(out, o.rack_id)
    t = []
    x = o.cluster_id
    if x is not None:
        b = bytearray()
        _w_cnstr(b, x)
        t.append((0, b))
    x = o.replica_state
    if x is not _DEF_ReplicaState and x != _DEF_ReplicaState:
        b = bytearray()
        _e_ReplicaState_v15(x, b, parts)
        t.append((1, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_FetchRequest_v17(buf, pos):
    o = _new(FetchRequest)
    (o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _U_iiibii(buf, pos)
    pos += 21
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v17(buf, pos)
        a.append(e)
    o.topics = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ForgottenTopic_v13(buf, pos)
        a.append(e)
    o.forgotten_topics_data = a
    o.rack_id, pos = _r_cstr(buf, pos)
    o.replica_id = -1
    o.cluster_id = None
    o.replica_state = ReplicaState()
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            o.cluster_id, pos = _r_cnstr(sub, pos)
        elif tag == 1:
            sub = buf[:end]
            o.replica_state, pos = _d_ReplicaState_v15(sub, pos)
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_FetchRequest_v17(o, out, parts):
    if o.replica_id != -1:
        raise _FieldVersionError('FetchRequest.ReplicaId', '0-14')
    out += _P_iiibii(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchTopic_v17(e, out, parts)
    x = o.forgotten_topics_data
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ForgottenTopic_v13(e, out, parts)
    _w_cstr(out, o.rack_id)
    t = []
    x = o.cluster_id
    if x is not None:
        b = bytearray()
        _w_cnstr(b, x)
        t.append((0, b))
    x = o.replica_state
    if x is not _DEF_ReplicaState and x != _DEF_ReplicaState:
        b = bytearray()
        _e_ReplicaState_v15(x, b, parts)
        t.append((1, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_FetchRequest_v18(buf, pos):
    o = _new(FetchRequest)
    (o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _U_iiibii(buf, pos)
    pos += 21
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchTopic_v18(buf, pos)
        a.append(e)
    o.topics = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ForgottenTopic_v13(buf, pos)
        a.append(e)
    o.forgotten_topics_data = a
    o.rack_id, pos = _r_cstr(buf, pos)
    o.replica_id = -1
    o.cluster_id = None
    o.replica_state = ReplicaState()
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            o.cluster_id, pos = _r_cnstr(sub, pos)
        elif tag == 1:
            sub = buf[:end]
            o.replica_state, pos = _d_ReplicaState_v15(sub, pos)
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_FetchRequest_v18(o, out, parts):
    if o.replica_id != -1:
        raise _FieldVersionError('FetchRequest.ReplicaId', '0-14')
    out += _P_iiibii(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchTopic_v18(e, out, parts)
    x = o.forgotten_topics_data
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ForgottenTopic_v13(e, out, parts)
    _w_cstr(out, o.rack_id)
    t = []
    x = o.cluster_id
    if x is not None:
        b = bytearray()
        _w_cnstr(b, x)
        t.append((0, b))
    x = o.replica_state
    if x is not _DEF_ReplicaState and x != _DEF_ReplicaState:
        b = bytearray()
        _e_ReplicaState_v15(x, b, parts)
        t.append((1, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_FetchRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_FetchRequest_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v5(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_FetchRequest_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v7(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_FetchRequest_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v7(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_FetchRequest_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v9(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_FetchRequest_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v9(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_FetchRequest_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 10) from None


def decode_v11(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v11(buf, pos)


def encode_v11(obj, out, parts):
    try:
        _e_FetchRequest_v11(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 11) from None


def decode_v12(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v12(buf, pos)


def encode_v12(obj, out, parts):
    try:
        _e_FetchRequest_v12(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 12) from None


def decode_v13(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v13(buf, pos)


def encode_v13(obj, out, parts):
    try:
        _e_FetchRequest_v13(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 13) from None


def decode_v14(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v13(buf, pos)


def encode_v14(obj, out, parts):
    try:
        _e_FetchRequest_v13(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 14) from None


def decode_v15(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v15(buf, pos)


def encode_v15(obj, out, parts):
    try:
        _e_FetchRequest_v15(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 15) from None


def decode_v16(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v15(buf, pos)


def encode_v16(obj, out, parts):
    try:
        _e_FetchRequest_v15(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 16) from None


def decode_v17(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v17(buf, pos)


def encode_v17(obj, out, parts):
    try:
        _e_FetchRequest_v17(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 17) from None


def decode_v18(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchRequest_v18(buf, pos)


def encode_v18(obj, out, parts):
    try:
        _e_FetchRequest_v18(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchRequest', 18) from None


MESSAGE = FetchRequest
VERSIONS = range(4, 19)
FLEXIBLE_MIN = 12
DECODERS = {4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10, 11: decode_v11, 12: decode_v12, 13: decode_v13, 14: decode_v14, 15: decode_v15, 16: decode_v16, 17: decode_v17, 18: decode_v18}
ENCODERS = {4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10, 11: encode_v11, 12: encode_v12, 13: encode_v13, 14: encode_v14, 15: encode_v15, 16: encode_v16, 17: encode_v17, 18: encode_v18}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'FetchRequest': (
        ('cluster_id', 'string', 12, 18, None),
        ('replica_id', 'int32', 0, 14, 'brokerId'),
        ('replica_state', 'ReplicaState', 15, 18, None),
        ('max_wait_ms', 'int32', 0, 18, None),
        ('min_bytes', 'int32', 0, 18, None),
        ('max_bytes', 'int32', 3, 18, None),
        ('isolation_level', 'int8', 4, 18, None),
        ('session_id', 'int32', 7, 18, None),
        ('session_epoch', 'int32', 7, 18, None),
        ('topics', '[]FetchTopic', 0, 18, None),
        ('forgotten_topics_data', '[]ForgottenTopic', 7, 18, None),
        ('rack_id', 'string', 11, 18, None),
    ),
    'ForgottenTopic': (
        ('topic', 'string', 7, 12, 'topicName'),
        ('topic_id', 'uuid', 13, 18, None),
        ('partitions', '[]int32', 7, 18, None),
    ),
    'FetchTopic': (
        ('topic', 'string', 0, 12, 'topicName'),
        ('topic_id', 'uuid', 13, 18, None),
        ('partitions', '[]FetchPartition', 0, 18, None),
    ),
    'FetchPartition': (
        ('partition', 'int32', 0, 18, None),
        ('current_leader_epoch', 'int32', 9, 18, None),
        ('fetch_offset', 'int64', 0, 18, None),
        ('last_fetched_epoch', 'int32', 12, 18, None),
        ('log_start_offset', 'int64', 5, 18, None),
        ('partition_max_bytes', 'int32', 0, 18, None),
        ('replica_directory_id', 'uuid', 17, 18, None),
        ('high_watermark', 'int64', 18, 18, None),
    ),
    'ReplicaState': (
        ('replica_id', 'int32', 15, 18, 'brokerId'),
        ('replica_epoch', 'int64', 15, 18, None),
    ),
}
