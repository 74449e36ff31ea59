# Generated from protocol_specs by kwire.codegen -- do not edit.
"""MetadataResponse (api key 3): versions 0-13, flexible from v9."""


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
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_hii = _Struct('>hii')
_U_hii = _S_hii.unpack_from
_P_hii = _S_hii.pack
_S_hiii = _Struct('>hiii')
_U_hiii = _S_hiii.unpack_from
_P_hiii = _S_hiii.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class MetadataResponse:
    """MetadataResponse, versions 0-13."""

    __slots__ = ('throttle_time_ms', 'brokers', 'cluster_id', 'controller_id', 'topics', 'cluster_authorized_operations', 'error_code', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, brokers=None, cluster_id=None, controller_id=-1, topics=None, cluster_authorized_operations=-2147483648, error_code=0, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.brokers = [] if brokers is None else brokers
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.topics = [] if topics is None else topics
        self.cluster_authorized_operations = cluster_authorized_operations
        self.error_code = error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.brokers == other.brokers
                and self.cluster_id == other.cluster_id
                and self.controller_id == other.controller_id
                and self.topics == other.topics
                and self.cluster_authorized_operations == other.cluster_authorized_operations
                and self.error_code == other.error_code
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class MetadataResponseTopic:
    """MetadataResponseTopic struct of MetadataResponse, versions 0+."""

    __slots__ = ('error_code', 'name', 'topic_id', 'is_internal', 'partitions', 'topic_authorized_operations', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, name='', topic_id=_ZERO_UUID, is_internal=False, partitions=None, topic_authorized_operations=-2147483648, unknown_tagged_fields=None):
        self.error_code = error_code
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = [] if partitions is None else partitions
        self.topic_authorized_operations = topic_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.name == other.name
                and self.topic_id == other.topic_id
                and self.is_internal == other.is_internal
                and self.partitions == other.partitions
                and self.topic_authorized_operations == other.topic_authorized_operations
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class MetadataResponsePartition:
    """MetadataResponsePartition struct of MetadataResponse, versions 0+."""

    __slots__ = ('error_code', 'partition_index', 'leader_id', 'leader_epoch', 'replica_nodes', 'isr_nodes', 'offline_replicas', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, partition_index=0, leader_id=0, leader_epoch=-1, replica_nodes=None, isr_nodes=None, offline_replicas=None, unknown_tagged_fields=None):
        self.error_code = error_code
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replica_nodes = [] if replica_nodes is None else replica_nodes
        self.isr_nodes = [] if isr_nodes is None else isr_nodes
        self.offline_replicas = [] if offline_replicas is None else offline_replicas
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.partition_index == other.partition_index
                and self.leader_id == other.leader_id
                and self.leader_epoch == other.leader_epoch
                and self.replica_nodes == other.replica_nodes
                and self.isr_nodes == other.isr_nodes
                and self.offline_replicas == other.offline_replicas
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class MetadataResponseBroker:
    """MetadataResponseBroker struct of MetadataResponse, versions 0+."""

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


def _d_MetadataResponseBroker_v0(buf, pos):
    o = _new(MetadataResponseBroker)
    (o.node_id,) = _U_i(buf, pos)
    pos += 4
    o.host, pos = _r_str(buf, pos)
    (o.port,) = _U_i(buf, pos)
    pos += 4
    o.rack = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponseBroker_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponseBroker', 'tags')
    out += _P_i(o.node_id)
    _w_str(out, o.host)
    out += _P_i(o.port)


def _d_MetadataResponseBroker_v1(buf, pos):
    o = _new(MetadataResponseBroker)
    (o.node_id,) = _U_i(buf, pos)
    pos += 4
    o.host, pos = _r_str(buf, pos)
    (o.port,) = _U_i(buf, pos)
    pos += 4
    o.rack, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponseBroker_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponseBroker', 'tags')
    out += _P_i(o.node_id)
    _w_str(out, o.host)
    out += _P_i(o.port)
    _w_nstr(out, o.rack)


def _d_MetadataResponseBroker_v9(buf, pos):
    o = _new(MetadataResponseBroker)
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


def _e_MetadataResponseBroker_v9(o, out, parts):
    out += _P_i(o.node_id)
    _w_cstr(out, o.host)
    out += _P_i(o.port)
    _w_cnstr(out, o.rack)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataResponsePartition_v0(buf, pos):
    o = _new(MetadataResponsePartition)
    (o.error_code, o.partition_index, o.leader_id,) = _U_hii(buf, pos)
    pos += 10
    n, pos = _r_alen(buf, pos)
    o.replica_nodes, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_alen(buf, pos)
    o.isr_nodes, pos = _r_fixed(buf, pos, n, 'i')
    o.leader_epoch = -1
    o.offline_replicas = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponsePartition_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponsePartition', 'tags')
    out += _P_hii(o.error_code, o.partition_index, o.leader_id)
    x = o.replica_nodes
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)
    x = o.isr_nodes
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_MetadataResponsePartition_v5(buf, pos):
    o = _new(MetadataResponsePartition)
    (o.error_code, o.partition_index, o.leader_id,) = _U_hii(buf, pos)
    pos += 10
    n, pos = _r_alen(buf, pos)
    o.replica_nodes, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_alen(buf, pos)
    o.isr_nodes, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_alen(buf, pos)
    o.offline_replicas, pos = _r_fixed(buf, pos, n, 'i')
    o.leader_epoch = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponsePartition_v5(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponsePartition', 'tags')
    out += _P_hii(o.error_code, o.partition_index, o.leader_id)
    x = o.replica_nodes
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)
    x = o.isr_nodes
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)
    x = o.offline_replicas
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_MetadataResponsePartition_v7(buf, pos):
    o = _new(MetadataResponsePartition)
    (o.error_code, o.partition_index, o.leader_id, o.leader_epoch,) = _U_hiii(buf, pos)
    pos += 14
    n, pos = _r_alen(buf, pos)
    o.replica_nodes, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_alen(buf, pos)
    o.isr_nodes, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_alen(buf, pos)
    o.offline_replicas, pos = _r_fixed(buf, pos, n, 'i')
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponsePartition_v7(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponsePartition', 'tags')
    out += _P_hiii(o.error_code, o.partition_index, o.leader_id, o.leader_epoch)
    x = o.replica_nodes
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)
    x = o.isr_nodes
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)
    x = o.offline_replicas
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_MetadataResponsePartition_v9(buf, pos):
    o = _new(MetadataResponsePartition)
    (o.error_code, o.partition_index, o.leader_id, o.leader_epoch,) = _U_hiii(buf, pos)
    pos += 14
    n, pos = _r_calen(buf, pos)
    o.replica_nodes, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_calen(buf, pos)
    o.isr_nodes, pos = _r_fixed(buf, pos, n, 'i')
    n, pos = _r_calen(buf, pos)
    o.offline_replicas, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataResponsePartition_v9(o, out, parts):
    out += _P_hiii(o.error_code, o.partition_index, o.leader_id, o.leader_epoch)
    x = o.replica_nodes
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    x = o.isr_nodes
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    x = o.offline_replicas
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataResponseTopic_v0(buf, pos):
    o = _new(MetadataResponseTopic)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponsePartition_v0(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.is_internal = False
    o.topic_authorized_operations = -2147483648
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponseTopic_v0(o, out, parts):
    if o.topic_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponseTopic.TopicAuthorizedOperations', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponseTopic', 'tags')
    out += _P_h(o.error_code)
    if o.name is None:
        raise _FieldVersionError('MetadataResponseTopic.Name', 'null')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponsePartition_v0(e, out, parts)


def _d_MetadataResponseTopic_v1(buf, pos):
    o = _new(MetadataResponseTopic)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.name, pos = _r_str(buf, pos)
    (o.is_internal,) = _U_o(buf, pos)
    pos += 1
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponsePartition_v0(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.topic_authorized_operations = -2147483648
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponseTopic_v1(o, out, parts):
    if o.topic_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponseTopic.TopicAuthorizedOperations', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponseTopic', 'tags')
    out += _P_h(o.error_code)
    if o.name is None:
        raise _FieldVersionError('MetadataResponseTopic.Name', 'null')
    _w_str(out, o.name)
    out += _P_o(o.is_internal)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponsePartition_v0(e, out, parts)


def _d_MetadataResponseTopic_v5(buf, pos):
    o = _new(MetadataResponseTopic)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.name, pos = _r_str(buf, pos)
    (o.is_internal,) = _U_o(buf, pos)
    pos += 1
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponsePartition_v5(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.topic_authorized_operations = -2147483648
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponseTopic_v5(o, out, parts):
    if o.topic_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponseTopic.TopicAuthorizedOperations', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponseTopic', 'tags')
    out += _P_h(o.error_code)
    if o.name is None:
        raise _FieldVersionError('MetadataResponseTopic.Name', 'null')
    _w_str(out, o.name)
    out += _P_o(o.is_internal)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponsePartition_v5(e, out, parts)


def _d_MetadataResponseTopic_v7(buf, pos):
    o = _new(MetadataResponseTopic)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.name, pos = _r_str(buf, pos)
    (o.is_internal,) = _U_o(buf, pos)
    pos += 1
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponsePartition_v7(buf, pos)
        a.append(e)
    o.partitions = a
    o.topic_id = _ZERO_UUID
    o.topic_authorized_operations = -2147483648
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponseTopic_v7(o, out, parts):
    if o.topic_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponseTopic.TopicAuthorizedOperations', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponseTopic', 'tags')
    out += _P_h(o.error_code)
    if o.name is None:
        raise _FieldVersionError('MetadataResponseTopic.Name', 'null')
    _w_str(out, o.name)
    out += _P_o(o.is_internal)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponsePartition_v7(e, out, parts)


def _d_MetadataResponseTopic_v8(buf, pos):
    o = _new(MetadataResponseTopic)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.name, pos = _r_str(buf, pos)
    (o.is_internal,) = _U_o(buf, pos)
    pos += 1
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponsePartition_v7(buf, pos)
        a.append(e)
    o.partitions = a
    (o.topic_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponseTopic_v8(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponseTopic', 'tags')
    out += _P_h(o.error_code)
    if o.name is None:
        raise _FieldVersionError('MetadataResponseTopic.Name', 'null')
    _w_str(out, o.name)
    out += _P_o(o.is_internal)
    x = o.partitions
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponsePartition_v7(e, out, parts)
    out += _P_i(o.topic_authorized_operations)


def _d_MetadataResponseTopic_v9(buf, pos):
    o = _new(MetadataResponseTopic)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.name, pos = _r_cstr(buf, pos)
    (o.is_internal,) = _U_o(buf, pos)
    pos += 1
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponsePartition_v9(buf, pos)
        a.append(e)
    o.partitions = a
    (o.topic_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataResponseTopic_v9(o, out, parts):
    out += _P_h(o.error_code)
    if o.name is None:
        raise _FieldVersionError('MetadataResponseTopic.Name', 'null')
    _w_cstr(out, o.name)
    out += _P_o(o.is_internal)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponsePartition_v9(e, out, parts)
    out += _P_i(o.topic_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataResponseTopic_v10(buf, pos):
    o = _new(MetadataResponseTopic)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.name, pos = _r_cstr(buf, pos)
    o.topic_id, pos = _r_uuid(buf, pos)
    (o.is_internal,) = _U_o(buf, pos)
    pos += 1
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponsePartition_v9(buf, pos)
        a.append(e)
    o.partitions = a
    (o.topic_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataResponseTopic_v10(o, out, parts):
    out += _P_h(o.error_code)
    if o.name is None:
        raise _FieldVersionError('MetadataResponseTopic.Name', 'null')
    _w_cstr(out, o.name)
    out += o.topic_id.bytes
    out += _P_o(o.is_internal)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponsePartition_v9(e, out, parts)
    out += _P_i(o.topic_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataResponseTopic_v12(buf, pos):
    o = _new(MetadataResponseTopic)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.name, pos = _r_cnstr(buf, pos)
    o.topic_id, pos = _r_uuid(buf, pos)
    (o.is_internal,) = _U_o(buf, pos)
    pos += 1
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponsePartition_v9(buf, pos)
        a.append(e)
    o.partitions = a
    (o.topic_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataResponseTopic_v12(o, out, parts):
    out += _P_h(o.error_code)
    _w_cnstr(out, o.name)
    out += o.topic_id.bytes
    out += _P_o(o.is_internal)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponsePartition_v9(e, out, parts)
    out += _P_i(o.topic_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataResponse_v0(buf, pos):
    o = _new(MetadataResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v0(buf, pos)
        a.append(e)
    o.brokers = a
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    o.throttle_time_ms = 0
    o.cluster_id = None
    o.controller_id = -1
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponse_v0(o, out, parts):
    if o.cluster_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponse.ClusterAuthorizedOperations', '8-10')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponse', 'tags')
    x = o.brokers
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseBroker_v0(e, out, parts)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseTopic_v0(e, out, parts)


def _d_MetadataResponse_v1(buf, pos):
    o = _new(MetadataResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v1(buf, pos)
        a.append(e)
    o.brokers = a
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.throttle_time_ms = 0
    o.cluster_id = None
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponse_v1(o, out, parts):
    if o.cluster_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponse.ClusterAuthorizedOperations', '8-10')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponse', 'tags')
    x = o.brokers
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseBroker_v1(e, out, parts)
    out += _P_i(o.controller_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseTopic_v1(e, out, parts)


def _d_MetadataResponse_v2(buf, pos):
    o = _new(MetadataResponse)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v1(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_nstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.throttle_time_ms = 0
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponse_v2(o, out, parts):
    if o.cluster_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponse.ClusterAuthorizedOperations', '8-10')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponse', 'tags')
    x = o.brokers
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseBroker_v1(e, out, parts)
    _w_nstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseTopic_v1(e, out, parts)


def _d_MetadataResponse_v3(buf, pos):
    o = _new(MetadataResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v1(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_nstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponse_v3(o, out, parts):
    if o.cluster_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponse.ClusterAuthorizedOperations', '8-10')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.brokers
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseBroker_v1(e, out, parts)
    _w_nstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseTopic_v1(e, out, parts)


def _d_MetadataResponse_v5(buf, pos):
    o = _new(MetadataResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v1(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_nstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v5(buf, pos)
        a.append(e)
    o.topics = a
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponse_v5(o, out, parts):
    if o.cluster_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponse.ClusterAuthorizedOperations', '8-10')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.brokers
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseBroker_v1(e, out, parts)
    _w_nstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseTopic_v5(e, out, parts)


def _d_MetadataResponse_v7(buf, pos):
    o = _new(MetadataResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v1(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_nstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v7(buf, pos)
        a.append(e)
    o.topics = a
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponse_v7(o, out, parts):
    if o.cluster_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponse.ClusterAuthorizedOperations', '8-10')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.brokers
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseBroker_v1(e, out, parts)
    _w_nstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseTopic_v7(e, out, parts)


def _d_MetadataResponse_v8(buf, pos):
    o = _new(MetadataResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v1(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_nstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v8(buf, pos)
        a.append(e)
    o.topics = a
    (o.cluster_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    o.error_code = 0
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataResponse_v8(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.brokers
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseBroker_v1(e, out, parts)
    _w_nstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_MetadataResponseTopic_v8(e, out, parts)
    out += _P_i(o.cluster_authorized_operations)


def _d_MetadataResponse_v9(buf, pos):
    o = _new(MetadataResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v9(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_cnstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v9(buf, pos)
        a.append(e)
    o.topics = a
    (o.cluster_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    o.error_code = 0
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataResponse_v9(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.brokers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseBroker_v9(e, out, parts)
    _w_cnstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseTopic_v9(e, out, parts)
    out += _P_i(o.cluster_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataResponse_v10(buf, pos):
    o = _new(MetadataResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v9(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_cnstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v10(buf, pos)
        a.append(e)
    o.topics = a
    (o.cluster_authorized_operations,) = _U_i(buf, pos)
    pos += 4
    o.error_code = 0
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataResponse_v10(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.brokers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseBroker_v9(e, out, parts)
    _w_cnstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseTopic_v10(e, out, parts)
    out += _P_i(o.cluster_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataResponse_v11(buf, pos):
    o = _new(MetadataResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v9(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_cnstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v10(buf, pos)
        a.append(e)
    o.topics = a
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataResponse_v11(o, out, parts):
    if o.cluster_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponse.ClusterAuthorizedOperations', '8-10')
    out += _P_i(o.throttle_time_ms)
    x = o.brokers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseBroker_v9(e, out, parts)
    _w_cnstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseTopic_v10(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataResponse_v12(buf, pos):
    o = _new(MetadataResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v9(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_cnstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v12(buf, pos)
        a.append(e)
    o.topics = a
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataResponse_v12(o, out, parts):
    if o.cluster_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponse.ClusterAuthorizedOperations', '8-10')
    out += _P_i(o.throttle_time_ms)
    x = o.brokers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseBroker_v9(e, out, parts)
    _w_cnstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseTopic_v12(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataResponse_v13(buf, pos):
    o = _new(MetadataResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseBroker_v9(buf, pos)
        a.append(e)
    o.brokers = a
    o.cluster_id, pos = _r_cnstr(buf, pos)
    (o.controller_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataResponseTopic_v12(buf, pos)
        a.append(e)
    o.topics = a
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.cluster_authorized_operations = -2147483648
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataResponse_v13(o, out, parts):
    if o.cluster_authorized_operations != -2147483648:
        raise _FieldVersionError('MetadataResponse.ClusterAuthorizedOperations', '8-10')
    out += _P_i(o.throttle_time_ms)
    x = o.brokers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseBroker_v9(e, out, parts)
    _w_cnstr(out, o.cluster_id)
    out += _P_i(o.controller_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_MetadataResponseTopic_v12(e, out, parts)
    out += _P_h(o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_MetadataResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_MetadataResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_MetadataResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_MetadataResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v3(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_MetadataResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_MetadataResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v5(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_MetadataResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v7(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_MetadataResponse_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v8(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_MetadataResponse_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v9(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_MetadataResponse_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v10(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_MetadataResponse_v10(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 10) from None


def decode_v11(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v11(buf, pos)


def encode_v11(obj, out, parts):
    try:
        _e_MetadataResponse_v11(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 11) from None


def decode_v12(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v12(buf, pos)


def encode_v12(obj, out, parts):
    try:
        _e_MetadataResponse_v12(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 12) from None


def decode_v13(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataResponse_v13(buf, pos)


def encode_v13(obj, out, parts):
    try:
        _e_MetadataResponse_v13(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataResponse', 13) from None


MESSAGE = MetadataResponse
VERSIONS = range(0, 14)
FLEXIBLE_MIN = 9
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10, 11: decode_v11, 12: decode_v12, 13: decode_v13}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10, 11: encode_v11, 12: encode_v12, 13: encode_v13}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'MetadataResponse': (
        ('throttle_time_ms', 'int32', 3, 13, None),
        ('brokers', '[]MetadataResponseBroker', 0, 13, None),
        ('cluster_id', 'string', 2, 13, None),
        ('controller_id', 'int32', 1, 13, 'brokerId'),
        ('topics', '[]MetadataResponseTopic', 0, 13, None),
        ('cluster_authorized_operations', 'int32', 8, 10, None),
        ('error_code', 'int16', 13, 13, None),
    ),
    'MetadataResponseTopic': (
        ('error_code', 'int16', 0, 13, None),
        ('name', 'string', 0, 13, 'topicName'),
        ('topic_id', 'uuid', 10, 13, None),
        ('is_internal', 'bool', 1, 13, None),
        ('partitions', '[]MetadataResponsePartition', 0, 13, None),
        ('topic_authorized_operations', 'int32', 8, 13, None),
    ),
    'MetadataResponsePartition': (
        ('error_code', 'int16', 0, 13, None),
        ('partition_index', 'int32', 0, 13, None),
        ('leader_id', 'int32', 0, 13, 'brokerId'),
        ('leader_epoch', 'int32', 7, 13, None),
        ('replica_nodes', '[]int32', 0, 13, 'brokerId'),
        ('isr_nodes', '[]int32', 0, 13, 'brokerId'),
        ('offline_replicas', '[]int32', 5, 13, 'brokerId'),
    ),
    'MetadataResponseBroker': (
        ('node_id', 'int32', 0, 13, 'brokerId'),
        ('host', 'string', 0, 13, None),
        ('port', 'int32', 0, 13, None),
        ('rack', 'string', 1, 13, None),
    ),
}
