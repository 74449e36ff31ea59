# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ShareGroupDescribeResponse (api key 77): versions 1-1, flexible from v1."""


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
_S_ii = _Struct('>ii')
_U_ii = _S_ii.unpack_from
_P_ii = _S_ii.pack


class ShareGroupDescribeResponse:
    """ShareGroupDescribeResponse, versions 1."""

    __slots__ = ('throttle_time_ms', 'groups', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, groups=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is None else groups
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.groups == other.groups
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribedGroup:
    """DescribedGroup struct of ShareGroupDescribeResponse, versions 0+."""

    __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'group_epoch', 'assignment_epoch', 'assignor_name', 'members', 'authorized_operations', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, error_message=None, group_id='', group_state='', group_epoch=0, assignment_epoch=0, assignor_name='', members=None, authorized_operations=-2147483648, unknown_tagged_fields=None):
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.group_epoch = group_epoch
        self.assignment_epoch = assignment_epoch
        self.assignor_name = assignor_name
        self.members = [] if members is None else members
        self.authorized_operations = authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.group_id == other.group_id
                and self.group_state == other.group_state
                and self.group_epoch == other.group_epoch
                and self.assignment_epoch == other.assignment_epoch
                and self.assignor_name == other.assignor_name
                and self.members == other.members
                and self.authorized_operations == other.authorized_operations
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Member:
    """Member struct of ShareGroupDescribeResponse, versions 0+."""

    __slots__ = ('member_id', 'rack_id', 'member_epoch', 'client_id', 'client_host', 'subscribed_topic_names', 'assignment', 'unknown_tagged_fields',)

    def __init__(self, *, member_id='', rack_id=None, member_epoch=0, client_id='', client_host='', subscribed_topic_names=None, assignment=None, unknown_tagged_fields=None):
        self.member_id = member_id
        self.rack_id = rack_id
        self.member_epoch = member_epoch
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is None else subscribed_topic_names
        self.assignment = Assignment() if assignment is None else assignment
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.member_id == other.member_id
                and self.rack_id == other.rack_id
                and self.member_epoch == other.member_epoch
                and self.client_id == other.client_id
                and self.client_host == other.client_host
                and self.subscribed_topic_names == other.subscribed_topic_names
                and self.assignment == other.assignment
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Assignment:
    """Assignment struct of ShareGroupDescribeResponse, versions 0+."""

    __slots__ = ('topic_partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic_partitions=None, unknown_tagged_fields=None):
        self.topic_partitions = [] if topic_partitions is None else topic_partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_partitions == other.topic_partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicPartitions:
    """TopicPartitions struct of ShareGroupDescribeResponse, versions 0+."""

    __slots__ = ('topic_id', 'topic_name', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic_id=_ZERO_UUID, topic_name='', partitions=None, unknown_tagged_fields=None):
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_id == other.topic_id
                and self.topic_name == other.topic_name
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_TopicPartitions_v1(buf, pos):
    o = _new(TopicPartitions)
    o.topic_id, pos = _r_uuid(buf, pos)
    o.topic_name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicPartitions_v1(o, out, parts):
    out += o.topic_id.bytes
    _w_cstr(out, o.topic_name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Assignment_v1(buf, pos):
    o = _new(Assignment)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicPartitions_v1(buf, pos)
        a.append(e)
    o.topic_partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Assignment_v1(o, out, parts):
    x = o.topic_partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicPartitions_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Member_v1(buf, pos):
    o = _new(Member)
    o.member_id, pos = _r_cstr(buf, pos)
    o.rack_id, pos = _r_cnstr(buf, pos)
    (o.member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.client_id, pos = _r_cstr(buf, pos)
    o.client_host, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_cstr(buf, pos)
        a.append(e)
    o.subscribed_topic_names = a
    o.assignment, pos = _d_Assignment_v1(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Member_v1(o, out, parts):
    _w_cstr(out, o.member_id)
    _w_cnstr(out, o.rack_id)
    out += _P_i(o.member_epoch)
    _w_cstr(out, o.client_id)
    _w_cstr(out, o.client_host)
    x = o.subscribed_topic_names
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _w_cstr(out, e)
    _e_Assignment_v1(o.assignment, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribedGroup_v1(buf, pos):
    o = _new(DescribedGroup)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    o.group_id, pos = _r_cstr(buf, pos)
    o.group_state, pos = _r_cstr(buf, pos)
    (o.group_epoch, o.assignment_epoch,) = _U_ii(buf, pos)
    pos += 8
    o.assignor_name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Member_v1(buf, pos)
        a.append(e)
    o.members = a
    (o.authorized_operations,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribedGroup_v1(o, out, parts):
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    _w_cstr(out, o.group_id)
    _w_cstr(out, o.group_state)
    out += _P_ii(o.group_epoch, o.assignment_epoch)
    _w_cstr(out, o.assignor_name)
    x = o.members
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Member_v1(e, out, parts)
    out += _P_i(o.authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ShareGroupDescribeResponse_v1(buf, pos):
    o = _new(ShareGroupDescribeResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroup_v1(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ShareGroupDescribeResponse_v1(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribedGroup_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ShareGroupDescribeResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ShareGroupDescribeResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ShareGroupDescribeResponse', 1) from None


MESSAGE = ShareGroupDescribeResponse
VERSIONS = range(1, 2)
FLEXIBLE_MIN = 1
DECODERS = {1: decode_v1}
ENCODERS = {1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ShareGroupDescribeResponse': (
        ('throttle_time_ms', 'int32', 0, 1, None),
        ('groups', '[]DescribedGroup', 0, 1, None),
    ),
    'DescribedGroup': (
        ('error_code', 'int16', 0, 1, None),
        ('error_message', 'string', 0, 1, None),
        ('group_id', 'string', 0, 1, 'groupId'),
        ('group_state', 'string', 0, 1, None),
        ('group_epoch', 'int32', 0, 1, None),
        ('assignment_epoch', 'int32', 0, 1, None),
        ('assignor_name', 'string', 0, 1, None),
        ('members', '[]Member', 0, 1, None),
        ('authorized_operations', 'int32', 0, 1, None),
    ),
    'Member': (
        ('member_id', 'string', 0, 1, None),
        ('rack_id', 'string', 0, 1, None),
        ('member_epoch', 'int32', 0, 1, None),
        ('client_id', 'string', 0, 1, None),
        ('client_host', 'string', 0, 1, None),
        ('subscribed_topic_names', '[]string', 0, 1, 'topicName'),
        ('assignment', 'Assignment', 0, 1, None),
    ),
    'Assignment': (
        ('topic_partitions', '[]TopicPartitions', 0, 1, None),
    ),
    'TopicPartitions': (
        ('topic_id', 'uuid', 0, 1, None),
        ('topic_name', 'string', 0, 1, 'topicName'),
        ('partitions', '[]int32', 0, 1, None),
    ),
}
