# Generated from protocol_specs by kwire.codegen -- do not edit.
"""FetchResponse (api key 1): versions 4-18, flexible from v12."""


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
_S_ihi = _Struct('>ihi')
_U_ihi = _S_ihi.unpack_from
_P_ihi = _S_ihi.pack
_S_ihqq = _Struct('>ihqq')
_U_ihqq = _S_ihqq.unpack_from
_P_ihqq = _S_ihqq.pack
_S_ihqqq = _Struct('>ihqqq')
_U_ihqqq = _S_ihqqq.unpack_from
_P_ihqqq = _S_ihqqq.pack
_S_ii = _Struct('>ii')
_U_ii = _S_ii.unpack_from
_P_ii = _S_ii.pack
_S_iq = _Struct('>iq')
_U_iq = _S_iq.unpack_from
_P_iq = _S_iq.pack
_S_qi = _Struct('>qi')
_U_qi = _S_qi.unpack_from
_P_qi = _S_qi.pack
_S_qq = _Struct('>qq')
_U_qq = _S_qq.unpack_from
_P_qq = _S_qq.pack


class FetchResponse:
    """FetchResponse, versions 4-18."""

    __slots__ = ('throttle_time_ms', 'error_code', 'session_id', 'responses', 'node_endpoints', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, session_id=0, responses=None, node_endpoints=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.session_id = session_id
        self.responses = [] if responses is None else responses
        self.node_endpoints = [] if node_endpoints is None else node_endpoints
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.session_id == other.session_id
                and self.responses == other.responses
                and self.node_endpoints == other.node_endpoints
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class NodeEndpoint:
    """NodeEndpoint struct of FetchResponse, versions 16+."""

    __slots__ = ('node_id', 'host', 'port', 'rack', 'unknown_tagged_fields',)

    def __init__(self, *, node_id=0, host='', port=0, rack=None, unknown_tagged_fields=None):
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.node_id == other.node_id
                and self.host == other.host
                and self.port == other.port
                and self.rack == other.rack
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class FetchableTopicResponse:
    """FetchableTopicResponse struct of FetchResponse, versions 0+."""

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


class PartitionData:
    """PartitionData struct of FetchResponse, versions 0+."""

    __slots__ = ('partition_index', 'error_code', 'high_watermark', 'last_stable_offset', 'log_start_offset', 'diverging_epoch', 'current_leader', 'snapshot_id', 'aborted_transactions', 'preferred_read_replica', 'records', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, error_code=0, high_watermark=0, last_stable_offset=-1, log_start_offset=-1, diverging_epoch=None, current_leader=None, snapshot_id=None, aborted_transactions=_MISSING, preferred_read_replica=-1, records=None, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.high_watermark = high_watermark
        self.last_stable_offset = last_stable_offset
        self.log_start_offset = log_start_offset
        self.diverging_epoch = EpochEndOffset() if diverging_epoch is None else diverging_epoch
        self.current_leader = LeaderIdAndEpoch() if current_leader is None else current_leader
        self.snapshot_id = SnapshotId() if snapshot_id is None else snapshot_id
        self.aborted_transactions = [] if aborted_transactions is _MISSING else aborted_transactions
        self.preferred_read_replica = preferred_read_replica
        self.records = records
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.error_code == other.error_code
                and self.high_watermark == other.high_watermark
                and self.last_stable_offset == other.last_stable_offset
                and self.log_start_offset == other.log_start_offset
                and self.diverging_epoch == other.diverging_epoch
                and self.current_leader == other.current_leader
                and self.snapshot_id == other.snapshot_id
                and self.aborted_transactions == other.aborted_transactions
                and self.preferred_read_replica == other.preferred_read_replica
                and self.records == other.records
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AbortedTransaction:
    """AbortedTransaction struct of FetchResponse, versions 4+."""

    __slots__ = ('producer_id', 'first_offset', 'unknown_tagged_fields',)

    def __init__(self, *, producer_id=0, first_offset=0, unknown_tagged_fields=None):
        self.producer_id = producer_id
        self.first_offset = first_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.producer_id == other.producer_id
                and self.first_offset == other.first_offset
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class SnapshotId:
    """SnapshotId struct of FetchResponse, versions 12+."""

    __slots__ = ('end_offset', 'epoch', 'unknown_tagged_fields',)

    def __init__(self, *, end_offset=-1, epoch=-1, unknown_tagged_fields=None):
        self.end_offset = end_offset
        self.epoch = epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.end_offset == other.end_offset
                and self.epoch == other.epoch
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class LeaderIdAndEpoch:
    """LeaderIdAndEpoch struct of FetchResponse, versions 12+."""

    __slots__ = ('leader_id', 'leader_epoch', 'unknown_tagged_fields',)

    def __init__(self, *, leader_id=-1, leader_epoch=-1, unknown_tagged_fields=None):
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.leader_id == other.leader_id
                and self.leader_epoch == other.leader_epoch
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class EpochEndOffset:
    """EpochEndOffset struct of FetchResponse, versions 12+."""

    __slots__ = ('epoch', 'end_offset', 'unknown_tagged_fields',)

    def __init__(self, *, epoch=-1, end_offset=-1, unknown_tagged_fields=None):
        self.epoch = epoch
        self.end_offset = end_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.epoch == other.epoch
                and self.end_offset == other.end_offset
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


_DEF_EpochEndOffset = EpochEndOffset()
_DEF_LeaderIdAndEpoch = LeaderIdAndEpoch()
_DEF_SnapshotId = SnapshotId()


def _d_EpochEndOffset_v12(buf, pos):
    o = _new(EpochEndOffset)
    (o.epoch, o.end_offset,) = _U_iq(buf, pos)
    pos += 12
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_EpochEndOffset_v12(o, out, parts):
    out += _P_iq(o.epoch, o.end_offset)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_LeaderIdAndEpoch_v12(buf, pos):
    o = _new(LeaderIdAndEpoch)
    (o.leader_id, o.leader_epoch,) = _U_ii(buf, pos)
    pos += 8
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_LeaderIdAndEpoch_v12(o, out, parts):
    out += _P_ii(o.leader_id, o.leader_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_SnapshotId_v12(buf, pos):
    o = _new(SnapshotId)
    (o.end_offset, o.epoch,) = _U_qi(buf, pos)
    pos += 12
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_SnapshotId_v12(o, out, parts):
    out += _P_qi(o.end_offset, o.epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AbortedTransaction_v4(buf, pos):
    o = _new(AbortedTransaction)
    (o.producer_id, o.first_offset,) = _U_qq(buf, pos)
    pos += 16
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AbortedTransaction_v4(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AbortedTransaction', 'tags')
    out += _P_qq(o.producer_id, o.first_offset)


def _d_AbortedTransaction_v12(buf, pos):
    o = _new(AbortedTransaction)
    (o.producer_id, o.first_offset,) = _U_qq(buf, pos)
    pos += 16
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AbortedTransaction_v12(o, out, parts):
    out += _P_qq(o.producer_id, o.first_offset)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_PartitionData_v4(buf, pos):
    o = _new(PartitionData)
    (o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset,) = _U_ihqq(buf, pos)
    pos += 22
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.aborted_transactions = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_AbortedTransaction_v4(buf, pos)
            a.append(e)
        o.aborted_transactions = a
    o.records, pos = _r_records(buf, pos)
    o.log_start_offset = -1
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    o.preferred_read_replica = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_PartitionData_v4(o, out, parts):
    if o.diverging_epoch is not _DEF_EpochEndOffset and o.diverging_epoch != _DEF_EpochEndOffset:
        raise _FieldVersionError('PartitionData.DivergingEpoch', '12+')
    if o.current_leader is not _DEF_LeaderIdAndEpoch and o.current_leader != _DEF_LeaderIdAndEpoch:
        raise _FieldVersionError('PartitionData.CurrentLeader', '12+')
    if o.snapshot_id is not _DEF_SnapshotId and o.snapshot_id != _DEF_SnapshotId:
        raise _FieldVersionError('PartitionData.SnapshotId', '12+')
    if o.preferred_read_replica != -1:
        raise _FieldVersionError('PartitionData.PreferredReadReplica', '11+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('PartitionData', 'tags')
    out += _P_ihqq(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset)
    x = o.aborted_transactions
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_AbortedTransaction_v4(e, out, parts)
    _w_records(out, parts, o.records)


def _d_PartitionData_v5(buf, pos):
    o = _new(PartitionData)
    (o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset,) = _U_ihqqq(buf, pos)
    pos += 30
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.aborted_transactions = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_AbortedTransaction_v4(buf, pos)
            a.append(e)
        o.aborted_transactions = a
    o.records, pos = _r_records(buf, pos)
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    o.preferred_read_replica = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_PartitionData_v5(o, out, parts):
    if o.diverging_epoch is not _DEF_EpochEndOffset and o.diverging_epoch != _DEF_EpochEndOffset:
        raise _FieldVersionError('PartitionData.DivergingEpoch', '12+')
    if o.current_leader is not _DEF_LeaderIdAndEpoch and o.current_leader != _DEF_LeaderIdAndEpoch:
        raise _FieldVersionError('PartitionData.CurrentLeader', '12+')
    if o.snapshot_id is not _DEF_SnapshotId and o.snapshot_id != _DEF_SnapshotId:
        raise _FieldVersionError('PartitionData.SnapshotId', '12+')
    if o.preferred_read_replica != -1:
        raise _FieldVersionError('PartitionData.PreferredReadReplica', '11+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('PartitionData', 'tags')
    out += _P_ihqqq(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    x = o.aborted_transactions
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_AbortedTransaction_v4(e, out, parts)
    _w_records(out, parts, o.records)


def _d_PartitionData_v11(buf, pos):
    o = _new(PartitionData)
    (o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset,) = _U_ihqqq(buf, pos)
    pos += 30
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.aborted_transactions = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_AbortedTransaction_v4(buf, pos)
            a.append(e)
        o.aborted_transactions = a
    (o.preferred_read_replica,) = _U_i(buf, pos)
    pos += 4
    o.records, pos = _r_records(buf, pos)
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    o.unknown_tagged_fields = {}
    return o, pos


def _e_PartitionData_v11(o, out, parts):
    if o.diverging_epoch is not _DEF_EpochEndOffset and o.diverging_epoch != _DEF_EpochEndOffset:
        raise _FieldVersionError('PartitionData.DivergingEpoch', '12+')
    if o.current_leader is not _DEF_LeaderIdAndEpoch and o.current_leader != _DEF_LeaderIdAndEpoch:
        raise _FieldVersionError('PartitionData.CurrentLeader', '12+')
    if o.snapshot_id is not _DEF_SnapshotId and o.snapshot_id != _DEF_SnapshotId:
        raise _FieldVersionError('PartitionData.SnapshotId', '12+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('PartitionData', 'tags')
    out += _P_ihqqq(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    x = o.aborted_transactions
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_AbortedTransaction_v4(e, out, parts)
    out += _P_i(o.preferred_read_replica)
    _w_records(out, parts, o.records)


def _d_PartitionData_v12(buf, pos):
    o = _new(PartitionData)
    (o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset,) = _U_ihqqq(buf, pos)
    pos += 30
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.aborted_transactions = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_AbortedTransaction_v12(buf, pos)
            a.append(e)
        o.aborted_transactions = a
    (o.preferred_read_replica,) = _U_i(buf, pos)
    pos += 4
    o.records, pos = _r_crecords(buf, pos)
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
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
            o.diverging_epoch, pos = _d_EpochEndOffset_v12(sub, pos)
        elif tag == 1:
            sub = buf[:end]
            o.current_leader, pos = _d_LeaderIdAndEpoch_v12(sub, pos)
        elif tag == 2:
            sub = buf[:end]
            o.snapshot_id, pos = _d_SnapshotId_v12(sub, pos)
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_PartitionData_v12(o, out, parts):
    out += _P_ihqqq(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    x = o.aborted_transactions
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_AbortedTransaction_v12(e, out, parts)
    out += _P_i(o.preferred_read_replica)
    _w_crecords(out, parts, o.records)
    t = []
    x = o.diverging_epoch
    if x is not _DEF_EpochEndOffset and x != _DEF_EpochEndOffset:
        b = bytearray()
        _e_EpochEndOffset_v12(x, b, parts)
        t.append((0, b))
    x = o.current_leader
    if x is not _DEF_LeaderIdAndEpoch and x != _DEF_LeaderIdAndEpoch:
        b = bytearray()
        _e_LeaderIdAndEpoch_v12(x, b, parts)
        t.append((1, b))
    x = o.snapshot_id
    if x is not _DEF_SnapshotId and x != _DEF_SnapshotId:
        b = bytearray()
        _e_SnapshotId_v12(x, b, parts)
        t.append((2, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_FetchableTopicResponse_v4(buf, pos):
    o = _new(FetchableTopicResponse)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionData_v4(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchableTopicResponse_v4(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchableTopicResponse', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_PartitionData_v4(e, out, parts)


def _d_FetchableTopicResponse_v5(buf, pos):
    o = _new(FetchableTopicResponse)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionData_v5(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchableTopicResponse_v5(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchableTopicResponse', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_PartitionData_v5(e, out, parts)


def _d_FetchableTopicResponse_v11(buf, pos):
    o = _new(FetchableTopicResponse)
    o.topic, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionData_v11(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchableTopicResponse_v11(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchableTopicResponse', 'tags')
    _w_str(out, o.topic)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_PartitionData_v11(e, out, parts)


def _d_FetchableTopicResponse_v12(buf, pos):
    o = _new(FetchableTopicResponse)
    o.topic, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionData_v12(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FetchableTopicResponse_v12(o, out, parts):
    _w_cstr(out, o.topic)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionData_v12(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchableTopicResponse_v13(buf, pos):
    o = _new(FetchableTopicResponse)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionData_v12(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FetchableTopicResponse_v13(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionData_v12(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_NodeEndpoint_v16(buf, pos):
    o = _new(NodeEndpoint)
    (o.node_id,) = _U_i(buf, pos)
    pos += 4
    o.host, pos = _r_cstr(buf, pos)
    (o.port,) = _U_i(buf, pos)
    pos += 4
    o.rack, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_NodeEndpoint_v16(o, out, parts):
    out += _P_i(o.node_id)
    _w_cstr(out, o.host)
    out += _P_i(o.port)
    _w_cnstr(out, o.rack)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchResponse_v4(buf, pos):
    o = _new(FetchResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchableTopicResponse_v4(buf, pos)
        a.append(e)
    o.responses = a
    o.error_code = 0
    o.session_id = 0
    o.node_endpoints = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchResponse_v4(o, out, parts):
    if o.session_id != 0:
        raise _FieldVersionError('FetchResponse.SessionId', '7+')
    if o.node_endpoints != []:
        raise _FieldVersionError('FetchResponse.NodeEndpoints', '16+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.responses
    out += _P_len(len(x))
    for e in x:
        _e_FetchableTopicResponse_v4(e, out, parts)


def _d_FetchResponse_v5(buf, pos):
    o = _new(FetchResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchableTopicResponse_v5(buf, pos)
        a.append(e)
    o.responses = a
    o.error_code = 0
    o.session_id = 0
    o.node_endpoints = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchResponse_v5(o, out, parts):
    if o.session_id != 0:
        raise _FieldVersionError('FetchResponse.SessionId', '7+')
    if o.node_endpoints != []:
        raise _FieldVersionError('FetchResponse.NodeEndpoints', '16+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.responses
    out += _P_len(len(x))
    for e in x:
        _e_FetchableTopicResponse_v5(e, out, parts)


def _d_FetchResponse_v7(buf, pos):
    o = _new(FetchResponse)
    (o.throttle_time_ms, o.error_code, o.session_id,) = _U_ihi(buf, pos)
    pos += 10
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchableTopicResponse_v5(buf, pos)
        a.append(e)
    o.responses = a
    o.node_endpoints = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchResponse_v7(o, out, parts):
    if o.node_endpoints != []:
        raise _FieldVersionError('FetchResponse.NodeEndpoints', '16+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchResponse', 'tags')
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.session_id)
    x = o.responses
    out += _P_len(len(x))
    for e in x:
        _e_FetchableTopicResponse_v5(e, out, parts)


def _d_FetchResponse_v11(buf, pos):
    o = _new(FetchResponse)
    (o.throttle_time_ms, o.error_code, o.session_id,) = _U_ihi(buf, pos)
    pos += 10
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchableTopicResponse_v11(buf, pos)
        a.append(e)
    o.responses = a
    o.node_endpoints = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_FetchResponse_v11(o, out, parts):
    if o.node_endpoints != []:
        raise _FieldVersionError('FetchResponse.NodeEndpoints', '16+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('FetchResponse', 'tags')
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.session_id)
    x = o.responses
    out += _P_len(len(x))
    for e in x:
        _e_FetchableTopicResponse_v11(e, out, parts)


def _d_FetchResponse_v12(buf, pos):
    o = _new(FetchResponse)
    (o.throttle_time_ms, o.error_code, o.session_id,) = _U_ihi(buf, pos)
    pos += 10
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchableTopicResponse_v12(buf, pos)
        a.append(e)
    o.responses = a
    o.node_endpoints = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FetchResponse_v12(o, out, parts):
    if o.node_endpoints != []:
        raise _FieldVersionError('FetchResponse.NodeEndpoints', '16+')
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.session_id)
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchableTopicResponse_v12(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchResponse_v13(buf, pos):
    o = _new(FetchResponse)
    (o.throttle_time_ms, o.error_code, o.session_id,) = _U_ihi(buf, pos)
    pos += 10
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchableTopicResponse_v13(buf, pos)
        a.append(e)
    o.responses = a
    o.node_endpoints = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FetchResponse_v13(o, out, parts):
    if o.node_endpoints != []:
        raise _FieldVersionError('FetchResponse.NodeEndpoints', '16+')
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.session_id)
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchableTopicResponse_v13(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FetchResponse_v16(buf, pos):
    o = _new(FetchResponse)
    (o.throttle_time_ms, o.error_code, o.session_id,) = _U_ihi(buf, pos)
    pos += 10
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FetchableTopicResponse_v13(buf, pos)
        a.append(e)
    o.responses = a
    o.node_endpoints = []
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
            n, pos = _r_calen(sub, pos)
            a = []
            for _ in range(n):
                e, pos = _d_NodeEndpoint_v16(sub, pos)
                a.append(e)
            o.node_endpoints = a
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_FetchResponse_v16(o, out, parts):
    out += _P_ihi(o.throttle_time_ms, o.error_code, o.session_id)
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FetchableTopicResponse_v13(e, out, parts)
    t = []
    x = o.node_endpoints
    if x != []:
        b = bytearray()
        _w_uvarint(b, len(x) + 1)
        for e in x:
            _e_NodeEndpoint_v16(e, b, parts)
        t.append((0, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_FetchResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_FetchResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v5(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_FetchResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v7(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_FetchResponse_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v7(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_FetchResponse_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v7(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_FetchResponse_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v7(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_FetchResponse_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 10) from None


def decode_v11(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v11(buf, pos)


def encode_v11(obj, out, parts):
    try:
        _e_FetchResponse_v11(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 11) from None


def decode_v12(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v12(buf, pos)


def encode_v12(obj, out, parts):
    try:
        _e_FetchResponse_v12(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 12) from None


def decode_v13(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v13(buf, pos)


def encode_v13(obj, out, parts):
    try:
        _e_FetchResponse_v13(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 13) from None


def decode_v14(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v13(buf, pos)


def encode_v14(obj, out, parts):
    try:
        _e_FetchResponse_v13(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 14) from None


def decode_v15(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v13(buf, pos)


def encode_v15(obj, out, parts):
    try:
        _e_FetchResponse_v13(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 15) from None


def decode_v16(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v16(buf, pos)


def encode_v16(obj, out, parts):
    try:
        _e_FetchResponse_v16(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 16) from None


def decode_v17(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v16(buf, pos)


def encode_v17(obj, out, parts):
    try:
        _e_FetchResponse_v16(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 17) from None


def decode_v18(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_FetchResponse_v16(buf, pos)


def encode_v18(obj, out, parts):
    try:
        _e_FetchResponse_v16(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('FetchResponse', 18) from None


MESSAGE = FetchResponse
VERSIONS = range(4, 19)
FLEXIBLE_MIN = 12
DECODERS = {4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10, 11: decode_v11, 12: decode_v12, 13: decode_v13, 14: decode_v14, 15: decode_v15, 16: decode_v16, 17: decode_v17, 18: decode_v18}
ENCODERS = {4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10, 11: encode_v11, 12: encode_v12, 13: encode_v13, 14: encode_v14, 15: encode_v15, 16: encode_v16, 17: encode_v17, 18: encode_v18}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'FetchResponse': (
        ('throttle_time_ms', 'int32', 1, 18, None),
        ('error_code', 'int16', 7, 18, None),
        ('session_id', 'int32', 7, 18, None),
        ('responses', '[]FetchableTopicResponse', 0, 18, None),
        ('node_endpoints', '[]NodeEndpoint', 16, 18, None),
    ),
    'NodeEndpoint': (
        ('node_id', 'int32', 16, 18, 'brokerId'),
        ('host', 'string', 16, 18, None),
        ('port', 'int32', 16, 18, None),
        ('rack', 'string', 16, 18, None),
    ),
    'FetchableTopicResponse': (
        ('topic', 'string', 0, 12, 'topicName'),
        ('topic_id', 'uuid', 13, 18, None),
        ('partitions', '[]PartitionData', 0, 18, None),
    ),
    'PartitionData': (
        ('partition_index', 'int32', 0, 18, None),
        ('error_code', 'int16', 0, 18, None),
        ('high_watermark', 'int64', 0, 18, None),
        ('last_stable_offset', 'int64', 4, 18, None),
        ('log_start_offset', 'int64', 5, 18, None),
        ('diverging_epoch', 'EpochEndOffset', 12, 18, None),
        ('current_leader', 'LeaderIdAndEpoch', 12, 18, None),
        ('snapshot_id', 'SnapshotId', 12, 18, None),
        ('aborted_transactions', '[]AbortedTransaction', 4, 18, None),
        ('preferred_read_replica', 'int32', 11, 18, 'brokerId'),
        ('records', 'records', 0, 18, None),
    ),
    'AbortedTransaction': (
        ('producer_id', 'int64', 4, 18, 'producerId'),
        ('first_offset', 'int64', 4, 18, None),
    ),
    'SnapshotId': (
        ('end_offset', 'int64', 0, 18, None),
        ('epoch', 'int32', 0, 18, None),
    ),
    'LeaderIdAndEpoch': (
        ('leader_id', 'int32', 12, 18, 'brokerId'),
        ('leader_epoch', 'int32', 12, 18, None),
    ),
    'EpochEndOffset': (
        ('epoch', 'int32', 12, 18, None),
        ('end_offset', 'int64', 12, 18, None),
    ),
}
