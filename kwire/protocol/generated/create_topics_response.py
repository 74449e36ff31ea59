# Generated from protocol_specs by kwire.codegen -- do not edit.
"""CreateTopicsResponse (api key 19): versions 2-7, flexible from v5."""


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
_S_obo = _Struct('>?b?')
_U_obo = _S_obo.unpack_from
_P_obo = _S_obo.pack
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class CreateTopicsResponse:
    """CreateTopicsResponse, versions 2-7."""

    __slots__ = ('throttle_time_ms', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, topics=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class CreatableTopicResult:
    """CreatableTopicResult struct of CreateTopicsResponse, versions 0+."""

    __slots__ = ('name', 'topic_id', 'error_code', 'error_message', 'topic_config_error_code', 'num_partitions', 'replication_factor', 'configs', 'unknown_tagged_fields',)

    def __init__(self, *, name='', topic_id=_ZERO_UUID, error_code=0, error_message='', topic_config_error_code=0, num_partitions=-1, replication_factor=-1, configs=_MISSING, unknown_tagged_fields=None):
        self.name = name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message
        self.topic_config_error_code = topic_config_error_code
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.configs = [] if configs is _MISSING else configs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.topic_id == other.topic_id
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.topic_config_error_code == other.topic_config_error_code
                and self.num_partitions == other.num_partitions
                and self.replication_factor == other.replication_factor
                and self.configs == other.configs
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class CreatableTopicConfigs:
    """CreatableTopicConfigs struct of CreateTopicsResponse, versions 5+."""

    __slots__ = ('name', 'value', 'read_only', 'config_source', 'is_sensitive', 'unknown_tagged_fields',)

    def __init__(self, *, name='', value='', read_only=False, config_source=-1, is_sensitive=False, unknown_tagged_fields=None):
        self.name = name
        self.value = value
        self.read_only = read_only
        self.config_source = config_source
        self.is_sensitive = is_sensitive
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.value == other.value
                and self.read_only == other.read_only
                and self.config_source == other.config_source
                and self.is_sensitive == other.is_sensitive
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_CreatableTopicConfigs_v5(buf, pos):
    o = _new(CreatableTopicConfigs)
    o.name, pos = _r_cstr(buf, pos)
    o.value, pos = _r_cnstr(buf, pos)
    (o.read_only, o.config_source, o.is_sensitive,) = _U_obo(buf, pos)
    pos += 3
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreatableTopicConfigs_v5(o, out, parts):
    _w_cstr(out, o.name)
    _w_cnstr(out, o.value)
    out += _P_obo(o.read_only, o.config_source, o.is_sensitive)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreatableTopicResult_v2(buf, pos):
    o = _new(CreatableTopicResult)
    o.name, pos = _r_str(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_nstr(buf, pos)
    o.topic_id = _ZERO_UUID
    o.topic_config_error_code = 0
    o.num_partitions = -1
    o.replication_factor = -1
    o.configs = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreatableTopicResult_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreatableTopicResult', 'tags')
    _w_str(out, o.name)
    out += _P_h(o.error_code)
    _w_nstr(out, o.error_message)


def _d_CreatableTopicResult_v5(buf, pos):
    o = _new(CreatableTopicResult)
    o.name, pos = _r_cstr(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.num_partitions, o.replication_factor,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.configs = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_CreatableTopicConfigs_v5(buf, pos)
            a.append(e)
        o.configs = a
    o.topic_id = _ZERO_UUID
    o.topic_config_error_code = 0
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
            (o.topic_config_error_code,) = _U_h(sub, pos)
            pos += 2
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_CreatableTopicResult_v5(o, out, parts):
    _w_cstr(out, o.name)
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_ih(o.num_partitions, o.replication_factor)
    x = o.configs
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_CreatableTopicConfigs_v5(e, out, parts)
    t = []
    x = o.topic_config_error_code
    if x != 0:
        b = bytearray()
        b += _P_h(x)
        t.append((0, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_CreatableTopicResult_v7(buf, pos):
    o = _new(CreatableTopicResult)
    o.name, pos = _r_cstr(buf, pos)
    o.topic_id, pos = _r_uuid(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.num_partitions, o.replication_factor,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.configs = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_CreatableTopicConfigs_v5(buf, pos)
            a.append(e)
        o.configs = a
    o.topic_config_error_code = 0
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
            (o.topic_config_error_code,) = _U_h(sub, pos)
            pos += 2
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_CreatableTopicResult_v7(o, out, parts):
    _w_cstr(out, o.name)
    out += o.topic_id.bytes
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_ih(o.num_partitions, o.replication_factor)
    x = o.configs
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_CreatableTopicConfigs_v5(e, out, parts)
    t = []
    x = o.topic_config_error_code
    if x != 0:
        b = bytearray()
        b += _P_h(x)
        t.append((0, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def _d_CreateTopicsResponse_v2(buf, pos):
    o = _new(CreateTopicsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableTopicResult_v2(buf, pos)
        a.append(e)
    o.topics = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreateTopicsResponse_v2(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreateTopicsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_CreatableTopicResult_v2(e, out, parts)


def _d_CreateTopicsResponse_v5(buf, pos):
    o = _new(CreateTopicsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableTopicResult_v5(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreateTopicsResponse_v5(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_CreatableTopicResult_v5(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreateTopicsResponse_v7(buf, pos):
    o = _new(CreateTopicsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableTopicResult_v7(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreateTopicsResponse_v7(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_CreatableTopicResult_v7(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_CreateTopicsResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsResponse_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_CreateTopicsResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsResponse_v2(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_CreateTopicsResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_CreateTopicsResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsResponse_v5(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_CreateTopicsResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsResponse', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateTopicsResponse_v7(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_CreateTopicsResponse_v7(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateTopicsResponse', 7) from None


MESSAGE = CreateTopicsResponse
VERSIONS = range(2, 8)
FLEXIBLE_MIN = 5
DECODERS = {2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7}
ENCODERS = {2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'CreateTopicsResponse': (
        ('throttle_time_ms', 'int32', 2, 7, None),
        ('topics', '[]CreatableTopicResult', 0, 7, None),
    ),
    'CreatableTopicResult': (
        ('name', 'string', 0, 7, 'topicName'),
        ('topic_id', 'uuid', 7, 7, None),
        ('error_code', 'int16', 0, 7, None),
        ('error_message', 'string', 1, 7, None),
        ('topic_config_error_code', 'int16', 5, 7, None),
        ('num_partitions', 'int32', 5, 7, None),
        ('replication_factor', 'int16', 5, 7, None),
        ('configs', '[]CreatableTopicConfigs', 5, 7, None),
    ),
    'CreatableTopicConfigs': (
        ('name', 'string', 5, 7, None),
        ('value', 'string', 5, 7, None),
        ('read_only', 'bool', 5, 7, None),
        ('config_source', 'int8', 5, 7, None),
        ('is_sensitive', 'bool', 5, 7, None),
    ),
}
