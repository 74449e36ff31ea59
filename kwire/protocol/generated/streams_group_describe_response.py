# Generated from protocol_specs by kwire.codegen -- do not edit.
"""StreamsGroupDescribeResponse (api key 89): versions 0-0, flexible from v0."""


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
_S_o = _Struct('>?')
_U_o = _S_o.unpack_from
_P_o = _S_o.pack
_S_H = _Struct('>H')
_U_H = _S_H.unpack_from
_P_H = _S_H.pack
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack
_S_ii = _Struct('>ii')
_U_ii = _S_ii.unpack_from
_P_ii = _S_ii.pack
_S_iq = _Struct('>iq')
_U_iq = _S_iq.unpack_from
_P_iq = _S_iq.pack


class StreamsGroupDescribeResponse:
    """StreamsGroupDescribeResponse, versions 0."""

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
    """DescribedGroup struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'group_epoch', 'assignment_epoch', 'topology', 'members', 'authorized_operations', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, error_message=None, group_id='', group_state='', group_epoch=0, assignment_epoch=0, topology=None, members=None, authorized_operations=-2147483648, unknown_tagged_fields=None):
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.group_epoch = group_epoch
        self.assignment_epoch = assignment_epoch
        self.topology = topology
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
                and self.topology == other.topology
                and self.members == other.members
                and self.authorized_operations == other.authorized_operations
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Member:
    """Member struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('member_id', 'member_epoch', 'instance_id', 'rack_id', 'client_id', 'client_host', 'topology_epoch', 'process_id', 'user_endpoint', 'client_tags', 'task_offsets', 'task_end_offsets', 'assignment', 'target_assignment', 'is_classic', 'unknown_tagged_fields',)

    def __init__(self, *, member_id='', member_epoch=0, instance_id=None, rack_id=None, client_id='', client_host='', topology_epoch=0, process_id='', user_endpoint=None, client_tags=None, task_offsets=None, task_end_offsets=None, assignment=None, target_assignment=None, is_classic=False, unknown_tagged_fields=None):
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.client_id = client_id
        self.client_host = client_host
        self.topology_epoch = topology_epoch
        self.process_id = process_id
        self.user_endpoint = user_endpoint
        self.client_tags = [] if client_tags is None else client_tags
        self.task_offsets = [] if task_offsets is None else task_offsets
        self.task_end_offsets = [] if task_end_offsets is None else task_end_offsets
        self.assignment = Assignment() if assignment is None else assignment
        self.target_assignment = Assignment() if target_assignment is None else target_assignment
        self.is_classic = is_classic
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.member_id == other.member_id
                and self.member_epoch == other.member_epoch
                and self.instance_id == other.instance_id
                and self.rack_id == other.rack_id
                and self.client_id == other.client_id
                and self.client_host == other.client_host
                and self.topology_epoch == other.topology_epoch
                and self.process_id == other.process_id
                and self.user_endpoint == other.user_endpoint
                and self.client_tags == other.client_tags
                and self.task_offsets == other.task_offsets
                and self.task_end_offsets == other.task_end_offsets
                and self.assignment == other.assignment
                and self.target_assignment == other.target_assignment
                and self.is_classic == other.is_classic
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Assignment:
    """Assignment struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('active_tasks', 'standby_tasks', 'warmup_tasks', 'unknown_tagged_fields',)

    def __init__(self, *, active_tasks=None, standby_tasks=None, warmup_tasks=None, unknown_tagged_fields=None):
        self.active_tasks = [] if active_tasks is None else active_tasks
        self.standby_tasks = [] if standby_tasks is None else standby_tasks
        self.warmup_tasks = [] if warmup_tasks is None else warmup_tasks
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.active_tasks == other.active_tasks
                and self.standby_tasks == other.standby_tasks
                and self.warmup_tasks == other.warmup_tasks
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TaskIds:
    """TaskIds struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('subtopology_id', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, subtopology_id='', partitions=None, unknown_tagged_fields=None):
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.subtopology_id == other.subtopology_id
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TaskOffset:
    """TaskOffset struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('subtopology_id', 'partition', 'offset', 'unknown_tagged_fields',)

    def __init__(self, *, subtopology_id='', partition=0, offset=0, unknown_tagged_fields=None):
        self.subtopology_id = subtopology_id
        self.partition = partition
        self.offset = offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.subtopology_id == other.subtopology_id
                and self.partition == other.partition
                and self.offset == other.offset
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Endpoint:
    """Endpoint struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('host', 'port', 'unknown_tagged_fields',)

    def __init__(self, *, host='', port=0, unknown_tagged_fields=None):
        self.host = host
        self.port = port
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.host == other.host
                and self.port == other.port
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Topology:
    """Topology struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('epoch', 'subtopologies', 'unknown_tagged_fields',)

    def __init__(self, *, epoch=0, subtopologies=None, unknown_tagged_fields=None):
        self.epoch = epoch
        self.subtopologies = subtopologies
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.epoch == other.epoch
                and self.subtopologies == other.subtopologies
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Subtopology:
    """Subtopology struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('subtopology_id', 'source_topics', 'repartition_sink_topics', 'state_changelog_topics', 'repartition_source_topics', 'unknown_tagged_fields',)

    def __init__(self, *, subtopology_id='', source_topics=None, repartition_sink_topics=None, state_changelog_topics=None, repartition_source_topics=None, unknown_tagged_fields=None):
        self.subtopology_id = subtopology_id
        self.source_topics = [] if source_topics is None else source_topics
        self.repartition_sink_topics = [] if repartition_sink_topics is None else repartition_sink_topics
        self.state_changelog_topics = [] if state_changelog_topics is None else state_changelog_topics
        self.repartition_source_topics = [] if repartition_source_topics is None else repartition_source_topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.subtopology_id == other.subtopology_id
                and self.source_topics == other.source_topics
                and self.repartition_sink_topics == other.repartition_sink_topics
                and self.state_changelog_topics == other.state_changelog_topics
                and self.repartition_source_topics == other.repartition_source_topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class TopicInfo:
    """TopicInfo struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('name', 'partitions', 'replication_factor', 'topic_configs', 'unknown_tagged_fields',)

    def __init__(self, *, name='', partitions=0, replication_factor=0, topic_configs=None, unknown_tagged_fields=None):
        self.name = name
        self.partitions = partitions
        self.replication_factor = replication_factor
        self.topic_configs = [] if topic_configs is None else topic_configs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.partitions == other.partitions
                and self.replication_factor == other.replication_factor
                and self.topic_configs == other.topic_configs
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class KeyValue:
    """KeyValue struct of StreamsGroupDescribeResponse, versions 0+."""

    __slots__ = ('key', 'value', 'unknown_tagged_fields',)

    def __init__(self, *, key='', value='', unknown_tagged_fields=None):
        self.key = key
        self.value = value
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.key == other.key
                and self.value == other.value
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_KeyValue_v0(buf, pos):
    o = _new(KeyValue)
    o.key, pos = _r_cstr(buf, pos)
    o.value, pos = _r_cstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_KeyValue_v0(o, out, parts):
    _w_cstr(out, o.key)
    _w_cstr(out, o.value)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TopicInfo_v0(buf, pos):
    o = _new(TopicInfo)
    o.name, pos = _r_cstr(buf, pos)
    (o.partitions, o.replication_factor,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_KeyValue_v0(buf, pos)
        a.append(e)
    o.topic_configs = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TopicInfo_v0(o, out, parts):
    _w_cstr(out, o.name)
    out += _P_ih(o.partitions, o.replication_factor)
    x = o.topic_configs
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_KeyValue_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Subtopology_v0(buf, pos):
    o = _new(Subtopology)
    o.subtopology_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_cstr(buf, pos)
        a.append(e)
    o.source_topics = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_cstr(buf, pos)
        a.append(e)
    o.repartition_sink_topics = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicInfo_v0(buf, pos)
        a.append(e)
    o.state_changelog_topics = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TopicInfo_v0(buf, pos)
        a.append(e)
    o.repartition_source_topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Subtopology_v0(o, out, parts):
    _w_cstr(out, o.subtopology_id)
    x = o.source_topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _w_cstr(out, e)
    x = o.repartition_sink_topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _w_cstr(out, e)
    x = o.state_changelog_topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicInfo_v0(e, out, parts)
    x = o.repartition_source_topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TopicInfo_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Topology_v0(buf, pos):
    o = _new(Topology)
    (o.epoch,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.subtopologies = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_Subtopology_v0(buf, pos)
            a.append(e)
        o.subtopologies = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Topology_v0(o, out, parts):
    out += _P_i(o.epoch)
    x = o.subtopologies
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_Subtopology_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Endpoint_v0(buf, pos):
    o = _new(Endpoint)
    o.host, pos = _r_cstr(buf, pos)
    (o.port,) = _U_H(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Endpoint_v0(o, out, parts):
    _w_cstr(out, o.host)
    out += _P_H(o.port)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TaskOffset_v0(buf, pos):
    o = _new(TaskOffset)
    o.subtopology_id, pos = _r_cstr(buf, pos)
    (o.partition, o.offset,) = _U_iq(buf, pos)
    pos += 12
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TaskOffset_v0(o, out, parts):
    _w_cstr(out, o.subtopology_id)
    out += _P_iq(o.partition, o.offset)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_TaskIds_v0(buf, pos):
    o = _new(TaskIds)
    o.subtopology_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_TaskIds_v0(o, out, parts):
    _w_cstr(out, o.subtopology_id)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Assignment_v0(buf, pos):
    o = _new(Assignment)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TaskIds_v0(buf, pos)
        a.append(e)
    o.active_tasks = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TaskIds_v0(buf, pos)
        a.append(e)
    o.standby_tasks = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TaskIds_v0(buf, pos)
        a.append(e)
    o.warmup_tasks = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Assignment_v0(o, out, parts):
    x = o.active_tasks
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TaskIds_v0(e, out, parts)
    x = o.standby_tasks
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TaskIds_v0(e, out, parts)
    x = o.warmup_tasks
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TaskIds_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Member_v0(buf, pos):
    o = _new(Member)
    o.member_id, pos = _r_cstr(buf, pos)
    (o.member_epoch,) = _U_i(buf, pos)
    pos += 4
    o.instance_id, pos = _r_cnstr(buf, pos)
    o.rack_id, pos = _r_cnstr(buf, pos)
    o.client_id, pos = _r_cstr(buf, pos)
    o.client_host, pos = _r_cstr(buf, pos)
    (o.topology_epoch,) = _U_i(buf, pos)
    pos += 4
    o.process_id, pos = _r_cstr(buf, pos)
    if buf[pos] >= 0x80:
        o.user_endpoint = None
        pos += 1
    else:
        o.user_endpoint, pos = _d_Endpoint_v0(buf, pos + 1)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_KeyValue_v0(buf, pos)
        a.append(e)
    o.client_tags = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TaskOffset_v0(buf, pos)
        a.append(e)
    o.task_offsets = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_TaskOffset_v0(buf, pos)
        a.append(e)
    o.task_end_offsets = a
    o.assignment, pos = _d_Assignment_v0(buf, pos)
    o.target_assignment, pos = _d_Assignment_v0(buf, pos)
    (o.is_classic,) = _U_o(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Member_v0(o, out, parts):
    _w_cstr(out, o.member_id)
    out += _P_i(o.member_epoch)
    _w_cnstr(out, o.instance_id)
    _w_cnstr(out, o.rack_id)
    _w_cstr(out, o.client_id)
    _w_cstr(out, o.client_host)
    out += _P_i(o.topology_epoch)
    _w_cstr(out, o.process_id)
    x = o.user_endpoint
    if x is None:
        out.append(255)
    else:
        out.append(1)
        _e_Endpoint_v0(x, out, parts)
    x = o.client_tags
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_KeyValue_v0(e, out, parts)
    x = o.task_offsets
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TaskOffset_v0(e, out, parts)
    x = o.task_end_offsets
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_TaskOffset_v0(e, out, parts)
    _e_Assignment_v0(o.assignment, out, parts)
    _e_Assignment_v0(o.target_assignment, out, parts)
    out += _P_o(o.is_classic)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribedGroup_v0(buf, pos):
    o = _new(DescribedGroup)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    o.group_id, pos = _r_cstr(buf, pos)
    o.group_state, pos = _r_cstr(buf, pos)
    (o.group_epoch, o.assignment_epoch,) = _U_ii(buf, pos)
    pos += 8
    if buf[pos] >= 0x80:
        o.topology = None
        pos += 1
    else:
        o.topology, pos = _d_Topology_v0(buf, pos + 1)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Member_v0(buf, pos)
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


def _e_DescribedGroup_v0(o, out, parts):
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    _w_cstr(out, o.group_id)
    _w_cstr(out, o.group_state)
    out += _P_ii(o.group_epoch, o.assignment_epoch)
    x = o.topology
    if x is None:
        out.append(255)
    else:
        out.append(1)
        _e_Topology_v0(x, out, parts)
    x = o.members
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Member_v0(e, out, parts)
    out += _P_i(o.authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_StreamsGroupDescribeResponse_v0(buf, pos):
    o = _new(StreamsGroupDescribeResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribedGroup_v0(buf, pos)
        a.append(e)
    o.groups = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_StreamsGroupDescribeResponse_v0(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.groups
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribedGroup_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_StreamsGroupDescribeResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_StreamsGroupDescribeResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('StreamsGroupDescribeResponse', 0) from None


MESSAGE = StreamsGroupDescribeResponse
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'StreamsGroupDescribeResponse': (
        ('throttle_time_ms', 'int32', 0, 0, None),
        ('groups', '[]DescribedGroup', 0, 0, None),
    ),
    'DescribedGroup': (
        ('error_code', 'int16', 0, 0, None),
        ('error_message', 'string', 0, 0, None),
        ('group_id', 'string', 0, 0, 'groupId'),
        ('group_state', 'string', 0, 0, None),
        ('group_epoch', 'int32', 0, 0, None),
        ('assignment_epoch', 'int32', 0, 0, None),
        ('topology', 'Topology', 0, 0, None),
        ('members', '[]Member', 0, 0, None),
        ('authorized_operations', 'int32', 0, 0, None),
    ),
    'Member': (
        ('member_id', 'string', 0, 0, None),
        ('member_epoch', 'int32', 0, 0, None),
        ('instance_id', 'string', 0, 0, None),
        ('rack_id', 'string', 0, 0, None),
        ('client_id', 'string', 0, 0, None),
        ('client_host', 'string', 0, 0, None),
        ('topology_epoch', 'int32', 0, 0, None),
        ('process_id', 'string', 0, 0, None),
        ('user_endpoint', 'Endpoint', 0, 0, None),
        ('client_tags', '[]KeyValue', 0, 0, None),
        ('task_offsets', '[]TaskOffset', 0, 0, None),
        ('task_end_offsets', '[]TaskOffset', 0, 0, None),
        ('assignment', 'Assignment', 0, 0, None),
        ('target_assignment', 'Assignment', 0, 0, None),
        ('is_classic', 'bool', 0, 0, None),
    ),
    'Assignment': (
        ('active_tasks', '[]TaskIds', 0, 0, None),
        ('standby_tasks', '[]TaskIds', 0, 0, None),
        ('warmup_tasks', '[]TaskIds', 0, 0, None),
    ),
    'TaskIds': (
        ('subtopology_id', 'string', 0, 0, None),
        ('partitions', '[]int32', 0, 0, None),
    ),
    'TaskOffset': (
        ('subtopology_id', 'string', 0, 0, None),
        ('partition', 'int32', 0, 0, None),
        ('offset', 'int64', 0, 0, None),
    ),
    'Endpoint': (
        ('host', 'string', 0, 0, None),
        ('port', 'uint16', 0, 0, None),
    ),
    'Topology': (
        ('epoch', 'int32', 0, 0, None),
        ('subtopologies', '[]Subtopology', 0, 0, None),
    ),
    'Subtopology': (
        ('subtopology_id', 'string', 0, 0, None),
        ('source_topics', '[]string', 0, 0, 'topicName'),
        ('repartition_sink_topics', '[]string', 0, 0, 'topicName'),
        ('state_changelog_topics', '[]TopicInfo', 0, 0, None),
        ('repartition_source_topics', '[]TopicInfo', 0, 0, None),
    ),
    'TopicInfo': (
        ('name', 'string', 0, 0, 'topicName'),
        ('partitions', 'int32', 0, 0, None),
        ('replication_factor', 'int16', 0, 0, None),
        ('topic_configs', '[]KeyValue', 0, 0, None),
    ),
    'KeyValue': (
        ('key', 'string', 0, 0, None),
        ('value', 'string', 0, 0, None),
    ),
}
