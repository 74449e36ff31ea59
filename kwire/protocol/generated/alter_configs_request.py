# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AlterConfigsRequest (api key 33): versions 0-2, flexible from v2."""


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
_S_b = _Struct('>b')
_U_b = _S_b.unpack_from
_P_b = _S_b.pack


class AlterConfigsRequest:
    """AlterConfigsRequest, versions 0-2."""

    __slots__ = ('resources', 'validate_only', 'unknown_tagged_fields',)

    def __init__(self, *, resources=None, validate_only=False, unknown_tagged_fields=None):
        self.resources = [] if resources is None else resources
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.resources == other.resources
                and self.validate_only == other.validate_only
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AlterConfigsResource:
    """AlterConfigsResource struct of AlterConfigsRequest, versions 0+."""

    __slots__ = ('resource_type', 'resource_name', 'configs', 'unknown_tagged_fields',)

    def __init__(self, *, resource_type=0, resource_name='', configs=None, unknown_tagged_fields=None):
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is None else configs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.resource_type == other.resource_type
                and self.resource_name == other.resource_name
                and self.configs == other.configs
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AlterableConfig:
    """AlterableConfig struct of AlterConfigsRequest, versions 0+."""

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


def _d_AlterableConfig_v0(buf, pos):
    o = _new(AlterableConfig)
    o.name, pos = _r_str(buf, pos)
    o.value, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AlterableConfig_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AlterableConfig', 'tags')
    _w_str(out, o.name)
    _w_nstr(out, o.value)


def _d_AlterableConfig_v2(buf, pos):
    o = _new(AlterableConfig)
    o.name, pos = _r_cstr(buf, pos)
    o.value, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterableConfig_v2(o, out, parts):
    _w_cstr(out, o.name)
    _w_cnstr(out, o.value)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterConfigsResource_v0(buf, pos):
    o = _new(AlterConfigsResource)
    (o.resource_type,) = _U_b(buf, pos)
    pos += 1
    o.resource_name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AlterableConfig_v0(buf, pos)
        a.append(e)
    o.configs = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AlterConfigsResource_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AlterConfigsResource', 'tags')
    out += _P_b(o.resource_type)
    _w_str(out, o.resource_name)
    x = o.configs
    out += _P_len(len(x))
    for e in x:
        _e_AlterableConfig_v0(e, out, parts)


def _d_AlterConfigsResource_v2(buf, pos):
    o = _new(AlterConfigsResource)
    (o.resource_type,) = _U_b(buf, pos)
    pos += 1
    o.resource_name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AlterableConfig_v2(buf, pos)
        a.append(e)
    o.configs = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterConfigsResource_v2(o, out, parts):
    out += _P_b(o.resource_type)
    _w_cstr(out, o.resource_name)
    x = o.configs
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AlterableConfig_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterConfigsRequest_v0(buf, pos):
    o = _new(AlterConfigsRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AlterConfigsResource_v0(buf, pos)
        a.append(e)
    o.resources = a
    (o.validate_only,) = _U_o(buf, pos)
    pos += 1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AlterConfigsRequest_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AlterConfigsRequest', 'tags')
    x = o.resources
    out += _P_len(len(x))
    for e in x:
        _e_AlterConfigsResource_v0(e, out, parts)
    out += _P_o(o.validate_only)


def _d_AlterConfigsRequest_v2(buf, pos):
    o = _new(AlterConfigsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AlterConfigsResource_v2(buf, pos)
        a.append(e)
    o.resources = a
    (o.validate_only,) = _U_o(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterConfigsRequest_v2(o, out, parts):
    x = o.resources
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AlterConfigsResource_v2(e, out, parts)
    out += _P_o(o.validate_only)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterConfigsRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AlterConfigsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterConfigsRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterConfigsRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AlterConfigsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterConfigsRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterConfigsRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_AlterConfigsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterConfigsRequest', 2) from None


MESSAGE = AlterConfigsRequest
VERSIONS = range(0, 3)
FLEXIBLE_MIN = 2
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AlterConfigsRequest': (
        ('resources', '[]AlterConfigsResource', 0, 2, None),
        ('validate_only', 'bool', 0, 2, None),
    ),
    'AlterConfigsResource': (
        ('resource_type', 'int8', 0, 2, None),
        ('resource_name', 'string', 0, 2, None),
        ('configs', '[]AlterableConfig', 0, 2, None),
    ),
    'AlterableConfig': (
        ('name', 'string', 0, 2, None),
        ('value', 'string', 0, 2, None),
    ),
}
