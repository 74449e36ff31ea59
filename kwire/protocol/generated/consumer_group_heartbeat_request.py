# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ConsumerGroupHeartbeatRequest (api key 68): versions 0-1, flexible from v0."""


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


class ConsumerGroupHeartbeatRequest:
    """ConsumerGroupHeartbeatRequest, versions 0-1."""

    __slots__ = ('group_id', 'member_id', 'member_epoch', 'instance_id', 'rack_id', 'rebalance_timeout_ms', 'subscribed_topic_names', 'subscribed_topic_regex', 'server_assignor', 'topic_partitions', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', member_id='', member_epoch=0, instance_id=None, rack_id=None, rebalance_timeout_ms=-1, subscribed_topic_names=None, subscribed_topic_regex=None, server_assignor=None, topic_partitions=None, unknown_tagged_fields=None):
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.subscribed_topic_names = subscribed_topic_names
        self.subscribed_topic_regex = subscribed_topic_regex
        self.server_assignor = server_assignor
        self.topic_partitions = topic_partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.member_id == other.member_id
                and self.member_epoch == other.member_epoch
                and self.instance_id == other.instance_id
                and self.rack_id == other.rack_id
                and self.rebalance_timeout_ms == other.rebalance_timeout_ms
                and self.subscribed_topic_names == other.subscribed_topic_names
                and self.subscribed_topic_regex == other.subscribed_topic_regex
                and self.server_assignor == other.server_assignor
                and self.topic_partitions == other.topic_partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicPartitions:
    """TopicPartitions struct of ConsumerGroupHeartbeatRequest, versions 0+."""

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


def _d_TopicPartitions_v0(buf, pos):
    o = _new(TopicPartitions)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicPartitions_v0(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ConsumerGroupHeartbeatRequest_v0(buf, pos):
    o = _new(ConsumerGroupHeartbeatRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    o.member_id, pos = _r_cstr(buf, pos)
    (o.member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.instance_id, pos = _r_cnstr(buf, pos)
    o.rack_id, pos = _r_cnstr(buf, pos)
    (o.rebalance_timeout_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.subscribed_topic_names = None
    else:
        a = []
        for _ in range(n):
            e, pos = _r_cstr(buf, pos)
            a.append(e)
        o.subscribed_topic_names = a
    o.server_assignor, pos = _r_cnstr(buf, pos)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topic_partitions = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_TopicPartitions_v0(buf, pos)
            a.append(e)
        o.topic_partitions = a
    o.subscribed_topic_regex = None
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ConsumerGroupHeartbeatRequest_v0(o, out, parts):
    if o.subscribed_topic_regex is not None:
        raise _FieldVersionError('ConsumerGroupHeartbeatRequest.SubscribedTopicRegex', '1+')
    _w_cstr(out, o.group_id)
    _w_cstr(out, o.member_id)
    out += _P_i(o.member_epoch)
    _w_cnstr(out, o.instance_id)
    _w_cnstr(out, o.rack_id)
    out += _P_i(o.rebalance_timeout_ms)
    x = o.subscribed_topic_names
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _w_cstr(out, e)
    _w_cnstr(out, o.server_assignor)
    x = o.topic_partitions
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_TopicPartitions_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ConsumerGroupHeartbeatRequest_v1(buf, pos):
    o = _new(ConsumerGroupHeartbeatRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    o.member_id, pos = _r_cstr(buf, pos)
    (o.member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.instance_id, pos = _r_cnstr(buf, pos)
    o.rack_id, pos = _r_cnstr(buf, pos)
    (o.rebalance_timeout_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.subscribed_topic_names = None
    else:
        a = []
        for _ in range(n):
            e, pos = _r_cstr(buf, pos)
            a.append(e)
        o.subscribed_topic_names = a
    o.subscribed_topic_regex, pos = _r_cnstr(buf, pos)
    o.server_assignor, pos = _r_cnstr(buf, pos)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topic_partitions = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_TopicPartitions_v0(buf, pos)
            a.append(e)
        o.topic_partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ConsumerGroupHeartbeatRequest_v1(o, out, parts):
    _w_cstr(out, o.group_id)
    _w_cstr(out, o.member_id)
    out += _P_i(o.member_epoch)
    _w_cnstr(out, o.instance_id)
    _w_cnstr(out, o.rack_id)
    out += _P_i(o.rebalance_timeout_ms)
    x = o.subscribed_topic_names
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _w_cstr(out, e)
    _w_cnstr(out, o.subscribed_topic_regex)
    _w_cnstr(out, o.server_assignor)
    x = o.topic_partitions
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_TopicPartitions_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerGroupHeartbeatRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ConsumerGroupHeartbeatRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerGroupHeartbeatRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ConsumerGroupHeartbeatRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ConsumerGroupHeartbeatRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ConsumerGroupHeartbeatRequest', 1) from None


MESSAGE = ConsumerGroupHeartbeatRequest
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ConsumerGroupHeartbeatRequest': (
        ('group_id', 'string', 0, 1, 'groupId'),
        ('member_id', 'string', 0, 1, None),
        ('member_epoch', 'int32', 0, 1, None),
        ('instance_id', 'string', 0, 1, None),
        ('rack_id', 'string', 0, 1, None),
        ('rebalance_timeout_ms', 'int32', 0, 1, None),
        ('subscribed_topic_names', '[]string', 0, 1, 'topicName'),
        ('subscribed_topic_regex', 'string', 1, 1, None),
        ('server_assignor', 'string', 0, 1, None),
        ('topic_partitions', '[]TopicPartitions', 0, 1, None),
    ),
    'TopicPartitions': (
        ('topic_id', 'uuid', 0, 1, None),
        ('partitions', '[]int32', 0, 1, None),
    ),
}
