# Generated from protocol_specs by kwire.codegen -- do not edit.
"""CreateTopicsRequest (api key 19): versions 2-7, flexible from v5."""


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
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class CreateTopicsRequest:
    """CreateTopicsRequest, versions 2-7."""

    __slots__ = ('topics', 'timeout_ms', 'validate_only', 'unknown_tagged_fields',)

    def __init__(self, *, topics=None, timeout_ms=60000, validate_only=False, unknown_tagged_fields=None):
        self.topics = [] if topics is None else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topics == other.topics
                and self.timeout_ms == other.timeout_ms
                and self.validate_only == other.validate_only
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class CreatableTopic:
    """CreatableTopic struct of CreateTopicsRequest, versions 0+."""

    __slots__ = ('name', 'num_partitions', 'replication_factor', 'assignments', 'configs', 'unknown_tagged_fields',)

    def __init__(self, *, name='', num_partitions=0, replication_factor=0, assignments=None, configs=None, unknown_tagged_fields=None):
        self.name = name
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.assignments = [] if assignments is None else assignments
        self.configs = [] if configs is None else configs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.num_partitions == other.num_partitions
                and self.replication_factor == other.replication_factor
                and self.assignments == other.assignments
                and self.configs == other.configs
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class CreatableTopicConfig:
    """CreatableTopicConfig struct of CreateTopicsRequest, versions 0+."""

    __slots__ = ('name', 'value', 'unknown_tagged_fields',)

    def __init__(self, *, name='', value='', unknown_tagged_fields=None):
        self.name = name
        self.value = value
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.value == other.value
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class CreatableReplicaAssignment:
    """CreatableReplicaAssignment struct of CreateTopicsRequest, versions 0+."""

    __slots__ = ('partition_index', 'broker_ids', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, broker_ids=None, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.broker_ids = [] if broker_ids is None else broker_ids
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.broker_ids == other.broker_ids
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_CreatableReplicaAssignment_v2(buf, pos):
    o = _new(CreatableReplicaAssignment)
    (o.partition_index,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    o.broker_ids, pos = _r_fixed(buf, pos, n, 'i')
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreatableReplicaAssignment_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreatableReplicaAssignment', 'tags')
    out += _P_i(o.partition_index)
    x = o.broker_ids
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_CreatableReplicaAssignment_v5(buf, pos):
    o = _new(CreatableReplicaAssignment)
    (o.partition_index,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    o.broker_ids, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreatableReplicaAssignment_v5(o, out, parts):
    out += _P_i(o.partition_index)
    x = o.broker_ids
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreatableTopicConfig_v2(buf, pos):
    o = _new(CreatableTopicConfig)
    o.name, pos = _r_str(buf, pos)
    o.value, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreatableTopicConfig_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreatableTopicConfig', 'tags')
    _w_str(out, o.name)
    _w_nstr(out, o.value)


def _d_CreatableTopicConfig_v5(buf, pos):
    o = _new(CreatableTopicConfig)
    o.name, pos = _r_cstr(buf, pos)
    o.value, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreatableTopicConfig_v5(o, out, parts):
    _w_cstr(out, o.name)
    _w_cnstr(out, o.value)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreatableTopic_v2(buf, pos):
    o = _new(CreatableTopic)
    o.name, pos = _r_str(buf, pos)
    (o.num_partitions, o.replication_factor,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableReplicaAssignment_v2(buf, pos)
        a.append(e)
    o.assignments = a
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableTopicConfig_v2(buf, pos)
        a.append(e)
    o.configs = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreatableTopic_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreatableTopic', 'tags')
    _w_str(out, o.name)
    out += _P_ih(o.num_partitions, o.replication_factor)
    x = o.assignments
    out += _P_len(len(x))
    for e in x:
        _e_CreatableReplicaAssignment_v2(e, out, parts)
    x = o.configs
    out += _P_len(len(x))
    for e in x:
        _e_CreatableTopicConfig_v2(e, out, parts)


def _d_CreatableTopic_v5(buf, pos):
    o = _new(CreatableTopic)
    o.name, pos = _r_cstr(buf, pos)
    (o.num_partitions, o.replication_factor,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableReplicaAssignment_v5(buf, pos)
        a.append(e)
    o.assignments = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableTopicConfig_v5(buf, pos)
        a.append(e)
    o.configs = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreatableTopic_v5(o, out, parts):
    _w_cstr(out, o.name)
    out += _P_ih(o.num_partitions, o.replication_factor)
    x = o.assignments
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_CreatableReplicaAssignment_v5(e, out, parts)
    x = o.configs
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_CreatableTopicConfig_v5(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreateTopicsRequest_v2(buf, pos):
    o = _new(CreateTopicsRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    (o.timeout_ms, o.validate_only,) = _U_io(buf, pos)
    pos += 5
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreateTopicsRequest_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreateTopicsRequest', 'tags')
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_CreatableTopic_v2(e, out, parts)
    out += _P_io(o.timeout_ms, o.validate_only)


def _d_CreateTopicsRequest_v5(buf, pos):
    o = _new(CreateTopicsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableTopic_v5(buf, pos)
        a.append(e)
    o.topics = a
    (o.timeout_ms, o.validate_only,) = _U_io(buf, pos)
    pos += 5
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreateTopicsRequest_v5(o, out, parts):
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_CreatableTopic_v5(e, out, parts)
    out += _P_io(o.timeout_ms, o.validate_only)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_CreateTopicsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsRequest_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_CreateTopicsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsRequest_v2(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_CreateTopicsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsRequest_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_CreateTopicsRequest_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsRequest', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsRequest_v5(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_CreateTopicsRequest_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsRequest', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsRequest_v5(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_CreateTopicsRequest_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsRequest', 7) from None


MESSAGE = CreateTopicsRequest
VERSIONS = range(2, 8)
FLEXIBLE_MIN = 5
DECODERS = {2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7}
ENCODERS = {2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'CreateTopicsRequest': (
        ('topics', '[]CreatableTopic', 0, 7, None),
        ('timeout_ms', 'int32', 0, 7, None),
        ('validate_only', 'bool', 1, 7, None),
    ),
    'CreatableTopic': (
        ('name', 'string', 0, 7, 'topicName'),
        ('num_partitions', 'int32', 0, 7, None),
        ('replication_factor', 'int16', 0, 7, None),
        ('assignments', '[]CreatableReplicaAssignment', 0, 7, None),
        ('configs', '[]CreatableTopicConfig', 0, 7, None),
    ),
    'CreatableTopicConfig': (
        ('name', 'string', 0, 7, None),
        ('value', 'string', 0, 7, None),
    ),
    'CreatableReplicaAssignment': (
        ('partition_index', 'int32', 0, 7, None),
        ('broker_ids', '[]int32', 0, 7, 'brokerId'),
    ),
}
