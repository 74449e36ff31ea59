# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ShareAcknowledgeRequest (api key 79): versions 1-2, flexible from v1."""


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
_S_io = _Struct('>i?')
_U_io = _S_io.unpack_from
_P_io = _S_io.pack
_S_qq = _Struct('>qq')
_U_qq = _S_qq.unpack_from
_P_qq = _S_qq.pack


class ShareAcknowledgeRequest:
    """ShareAcknowledgeRequest, versions 1-2."""

    __slots__ = ('group_id', 'member_id', 'share_session_epoch', 'is_renew_ack', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, group_id=None, member_id='', share_session_epoch=0, is_renew_ack=False, topics=None, unknown_tagged_fields=None):
        self.group_id = group_id
        self.member_id = member_id
        self.share_session_epoch = share_session_epoch
        self.is_renew_ack = is_renew_ack
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.member_id == other.member_id
                and self.share_session_epoch == other.share_session_epoch
                and self.is_renew_ack == other.is_renew_ack
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AcknowledgeTopic:
    """AcknowledgeTopic struct of ShareAcknowledgeRequest, versions 0+."""

    __slots__ = ('topic_id', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic_id=_ZERO_UUID, partitions=None, unknown_tagged_fields=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_id == other.topic_id
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AcknowledgePartition:
    """AcknowledgePartition struct of ShareAcknowledgeRequest, versions 0+."""

    __slots__ = ('partition_index', 'acknowledgement_batches', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, acknowledgement_batches=None, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.acknowledgement_batches = [] if acknowledgement_batches is None else acknowledgement_batches
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.acknowledgement_batches == other.acknowledgement_batches
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AcknowledgementBatch:
    """AcknowledgementBatch struct of ShareAcknowledgeRequest, versions 0+."""

    __slots__ = ('first_offset', 'last_offset', 'acknowledge_types', 'unknown_tagged_fields',)

    def __init__(self, *, first_offset=0, last_offset=0, acknowledge_types=None, unknown_tagged_fields=None):
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.acknowledge_types = [] if acknowledge_types is None else acknowledge_types
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.first_offset == other.first_offset
                and self.last_offset == other.last_offset
                and self.acknowledge_types == other.acknowledge_types
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_AcknowledgementBatch_v1(buf, pos):
    o = _new(AcknowledgementBatch)
    (o.first_offset, o.last_offset,) = _U_qq(buf, pos)
    pos += 16
    n, pos = _r_calen(buf, pos)
    o.acknowledge_types, pos = _r_fixed(buf, pos, n, 'b')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AcknowledgementBatch_v1(o, out, parts):
    out += _P_qq(o.first_offset, o.last_offset)
    x = o.acknowledge_types
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'b', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AcknowledgePartition_v1(buf, pos):
    o = _new(AcknowledgePartition)
    (o.partition_index,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AcknowledgementBatch_v1(buf, pos)
        a.append(e)
    o.acknowledgement_batches = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AcknowledgePartition_v1(o, out, parts):
    out += _P_i(o.partition_index)
    x = o.acknowledgement_batches
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AcknowledgementBatch_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AcknowledgeTopic_v1(buf, pos):
    o = _new(AcknowledgeTopic)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AcknowledgePartition_v1(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AcknowledgeTopic_v1(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AcknowledgePartition_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ShareAcknowledgeRequest_v1(buf, pos):
    o = _new(ShareAcknowledgeRequest)
    o.group_id, pos = _r_cnstr(buf, pos)
    o.member_id, pos = _r_cnstr(buf, pos)
    (o.share_session_epoch,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AcknowledgeTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.is_renew_ack = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ShareAcknowledgeRequest_v1(o, out, parts):
    if o.is_renew_ack != False:
        raise _FieldVersionError('ShareAcknowledgeRequest.IsRenewAck', '2+')
    _w_cnstr(out, o.group_id)
    _w_cnstr(out, o.member_id)
    out += _P_i(o.share_session_epoch)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AcknowledgeTopic_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ShareAcknowledgeRequest_v2(buf, pos):
    o = _new(ShareAcknowledgeRequest)
    o.group_id, pos = _r_cnstr(buf, pos)
    o.member_id, pos = _r_cnstr(buf, pos)
    (o.share_session_epoch, o.is_renew_ack,) = _U_io(buf, pos)
    pos += 5
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AcknowledgeTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ShareAcknowledgeRequest_v2(o, out, parts):
    _w_cnstr(out, o.group_id)
    _w_cnstr(out, o.member_id)
    out += _P_io(o.share_session_epoch, o.is_renew_ack)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AcknowledgeTopic_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ShareAcknowledgeRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ShareAcknowledgeRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ShareAcknowledgeRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ShareAcknowledgeRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ShareAcknowledgeRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ShareAcknowledgeRequest', 2) from None


MESSAGE = ShareAcknowledgeRequest
VERSIONS = range(1, 3)
FLEXIBLE_MIN = 1
DECODERS = {1: decode_v1, 2: decode_v2}
ENCODERS = {1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ShareAcknowledgeRequest': (
        ('group_id', 'string', 0, 2, 'groupId'),
        ('member_id', 'string', 0, 2, None),
        ('share_session_epoch', 'int32', 0, 2, None),
        ('is_renew_ack', 'bool', 2, 2, None),
        ('topics', '[]AcknowledgeTopic', 0, 2, None),
    ),
    'AcknowledgeTopic': (
        ('topic_id', 'uuid', 0, 2, None),
        ('partitions', '[]AcknowledgePartition', 0, 2, None),
    ),
    'AcknowledgePartition': (
        ('partition_index', 'int32', 0, 2, None),
        ('acknowledgement_batches', '[]AcknowledgementBatch', 0, 2, None),
    ),
    'AcknowledgementBatch': (
        ('first_offset', 'int64', 0, 2, None),
        ('last_offset', 'int64', 0, 2, None),
        ('acknowledge_types', '[]int8', 0, 2, None),
    ),
}
