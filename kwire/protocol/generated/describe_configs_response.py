# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeConfigsResponse (api key 32): versions 1-4, flexible from v4."""


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
_S_b = _Struct('>b')
_U_b = _S_b.unpack_from
_P_b = _S_b.pack
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class DescribeConfigsResponse:
    """DescribeConfigsResponse, versions 1-4."""

    __slots__ = ('throttle_time_ms', 'results', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, results=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is None else results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.results == other.results
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeConfigsResult:
    """DescribeConfigsResult struct of DescribeConfigsResponse, versions 0+."""

    __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', 'configs', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, error_message='', resource_type=0, resource_name='', configs=None, unknown_tagged_fields=None):
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is None else configs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.resource_type == other.resource_type
                and self.resource_name == other.resource_name
                and self.configs == other.configs
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeConfigsResourceResult:
    """DescribeConfigsResourceResult struct of DescribeConfigsResponse, versions 0+."""

    __slots__ = ('name', 'value', 'read_only', 'config_source', 'is_sensitive', 'synonyms', 'config_type', 'documentation', 'unknown_tagged_fields',)

    def __init__(self, *, name='', value='', read_only=False, config_source=-1, is_sensitive=False, synonyms=None, config_type=0, documentation='', unknown_tagged_fields=None):
        self.name = name
        self.value = value
        self.read_only = read_only
        self.config_source = config_source
        self.is_sensitive = is_sensitive
        self.synonyms = [] if synonyms is None else synonyms
        self.config_type = config_type
        self.documentation = documentation
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
                and self.synonyms == other.synonyms
                and self.config_type == other.config_type
                and self.documentation == other.documentation
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeConfigsSynonym:
    """DescribeConfigsSynonym struct of DescribeConfigsResponse, versions 1+."""

    __slots__ = ('name', 'value', 'source', 'unknown_tagged_fields',)

    def __init__(self, *, name='', value='', source=0, unknown_tagged_fields=None):
        self.name = name
        self.value = value
        self.source = source
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.value == other.value
                and self.source == other.source
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeConfigsSynonym_v1(buf, pos):
    o = _new(DescribeConfigsSynonym)
    o.name, pos = _r_str(buf, pos)
    o.value, pos = _r_nstr(buf, pos)
    (o.source,) = _U_b(buf, pos)
    pos += 1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsSynonym_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsSynonym', 'tags')
    _w_str(out, o.name)
    _w_nstr(out, o.value)
    out += _P_b(o.source)


def _d_DescribeConfigsSynonym_v4(buf, pos):
    o = _new(DescribeConfigsSynonym)
    o.name, pos = _r_cstr(buf, pos)
    o.value, pos = _r_cnstr(buf, pos)
    (o.source,) = _U_b(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeConfigsSynonym_v4(o, out, parts):
    _w_cstr(out, o.name)
    _w_cnstr(out, o.value)
    out += _P_b(o.source)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeConfigsResourceResult_v1(buf, pos):
    o = _new(DescribeConfigsResourceResult)
    o.name, pos = _r_str(buf, pos)
    o.value, pos = _r_nstr(buf, pos)
    (o.read_only, o.config_source, o.is_sensitive,) = _U_obo(buf, pos)
    pos += 3
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsSynonym_v1(buf, pos)
        a.append(e)
    o.synonyms = a
    o.config_type = 0
    o.documentation = ''
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsResourceResult_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsResourceResult', 'tags')
    _w_str(out, o.name)
    _w_nstr(out, o.value)
    out += _P_obo(o.read_only, o.config_source, o.is_sensitive)
    x = o.synonyms
    out += _P_len(len(x))
    for e in x:
        _e_DescribeConfigsSynonym_v1(e, out, parts)


def _d_DescribeConfigsResourceResult_v3(buf, pos):
    o = _new(DescribeConfigsResourceResult)
    o.name, pos = _r_str(buf, pos)
    o.value, pos = _r_nstr(buf, pos)
    (o.read_only, o.config_source, o.is_sensitive,) = _U_obo(buf, pos)
    pos += 3
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsSynonym_v1(buf, pos)
        a.append(e)
    o.synonyms = a
    (o.config_type,) = _U_b(buf, pos)
    pos += 1
    o.documentation, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsResourceResult_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsResourceResult', 'tags')
    _w_str(out, o.name)
    _w_nstr(out, o.value)
    out += _P_obo(o.read_only, o.config_source, o.is_sensitive)
    x = o.synonyms
    out += _P_len(len(x))
    for e in x:
        _e_DescribeConfigsSynonym_v1(e, out, parts)
    out += _P_b(o.config_type)
    _w_nstr(out, o.documentation)


def _d_DescribeConfigsResourceResult_v4(buf, pos):
    o = _new(DescribeConfigsResourceResult)
    o.name, pos = _r_cstr(buf, pos)
    o.value, pos = _r_cnstr(buf, pos)
    (o.read_only, o.config_source, o.is_sensitive,) = _U_obo(buf, pos)
    pos += 3
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsSynonym_v4(buf, pos)
        a.append(e)
    o.synonyms = a
    (o.config_type,) = _U_b(buf, pos)
    pos += 1
    o.documentation, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeConfigsResourceResult_v4(o, out, parts):
    _w_cstr(out, o.name)
    _w_cnstr(out, o.value)
    out += _P_obo(o.read_only, o.config_source, o.is_sensitive)
    x = o.synonyms
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeConfigsSynonym_v4(e, out, parts)
    out += _P_b(o.config_type)
    _w_cnstr(out, o.documentation)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeConfigsResult_v1(buf, pos):
    o = _new(DescribeConfigsResult)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_nstr(buf, pos)
    (o.resource_type,) = _U_b(buf, pos)
    pos += 1
    o.resource_name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsResourceResult_v1(buf, pos)
        a.append(e)
    o.configs = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsResult_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsResult', 'tags')
    out += _P_h(o.error_code)
    _w_nstr(out, o.error_message)
    out += _P_b(o.resource_type)
    _w_str(out, o.resource_name)
    x = o.configs
    out += _P_len(len(x))
    for e in x:
        _e_DescribeConfigsResourceResult_v1(e, out, parts)


def _d_DescribeConfigsResult_v3(buf, pos):
    o = _new(DescribeConfigsResult)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_nstr(buf, pos)
    (o.resource_type,) = _U_b(buf, pos)
    pos += 1
    o.resource_name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsResourceResult_v3(buf, pos)
        a.append(e)
    o.configs = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsResult_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsResult', 'tags')
    out += _P_h(o.error_code)
    _w_nstr(out, o.error_message)
    out += _P_b(o.resource_type)
    _w_str(out, o.resource_name)
    x = o.configs
    out += _P_len(len(x))
    for e in x:
        _e_DescribeConfigsResourceResult_v3(e, out, parts)


def _d_DescribeConfigsResult_v4(buf, pos):
    o = _new(DescribeConfigsResult)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    (o.resource_type,) = _U_b(buf, pos)
    pos += 1
    o.resource_name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsResourceResult_v4(buf, pos)
        a.append(e)
    o.configs = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeConfigsResult_v4(o, out, parts):
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    out += _P_b(o.resource_type)
    _w_cstr(out, o.resource_name)
    x = o.configs
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeConfigsResourceResult_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeConfigsResponse_v1(buf, pos):
    o = _new(DescribeConfigsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsResult_v1(buf, pos)
        a.append(e)
    o.results = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.results
    out += _P_len(len(x))
    for e in x:
        _e_DescribeConfigsResult_v1(e, out, parts)


def _d_DescribeConfigsResponse_v3(buf, pos):
    o = _new(DescribeConfigsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsResult_v3(buf, pos)
        a.append(e)
    o.results = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsResponse_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.results
    out += _P_len(len(x))
    for e in x:
        _e_DescribeConfigsResult_v3(e, out, parts)


def _d_DescribeConfigsResponse_v4(buf, pos):
    o = _new(DescribeConfigsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsResult_v4(buf, pos)
        a.append(e)
    o.results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeConfigsResponse_v4(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeConfigsResult_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeConfigsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeConfigsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeConfigsResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeConfigsResponse_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeConfigsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeConfigsResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeConfigsResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_DescribeConfigsResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeConfigsResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeConfigsResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_DescribeConfigsResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeConfigsResponse', 4) from None


MESSAGE = DescribeConfigsResponse
VERSIONS = range(1, 5)
FLEXIBLE_MIN = 4
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeConfigsResponse': (
        ('throttle_time_ms', 'int32', 0, 4, None),
        ('results', '[]DescribeConfigsResult', 0, 4, None),
    ),
    'DescribeConfigsResult': (
        ('error_code', 'int16', 0, 4, None),
        ('error_message', 'string', 0, 4, None),
        ('resource_type', 'int8', 0, 4, None),
        ('resource_name', 'string', 0, 4, None),
        ('configs', '[]DescribeConfigsResourceResult', 0, 4, None),
    ),
    'DescribeConfigsResourceResult': (
        ('name', 'string', 0, 4, None),
        ('value', 'string', 0, 4, None),
        ('read_only', 'bool', 0, 4, None),
        ('config_source', 'int8', 1, 4, None),
        ('is_sensitive', 'bool', 0, 4, None),
        ('synonyms', '[]DescribeConfigsSynonym', 1, 4, None),
        ('config_type', 'int8', 3, 4, None),
        ('documentation', 'string', 3, 4, None),
    ),
    'DescribeConfigsSynonym': (
        ('name', 'string', 1, 4, None),
        ('value', 'string', 1, 4, None),
        ('source', 'int8', 1, 4, None),
    ),
}
