# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeConfigsRequest (api key 32): versions 1-4, flexible from v4."""


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
_S_oo = _Struct('>??')
_U_oo = _S_oo.unpack_from
_P_oo = _S_oo.pack
_S_b = _Struct('>b')
_U_b = _S_b.unpack_from
_P_b = _S_b.pack


class DescribeConfigsRequest:
    """DescribeConfigsRequest, versions 1-4."""

    __slots__ = ('resources', 'include_synonyms', 'include_documentation', 'unknown_tagged_fields',)

    def __init__(self, *, resources=None, include_synonyms=False, include_documentation=False, unknown_tagged_fields=None):
        self.resources = [] if resources is None else resources
        self.include_synonyms = include_synonyms
        self.include_documentation = include_documentation
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.resources == other.resources
                and self.include_synonyms == other.include_synonyms
                and self.include_documentation == other.include_documentation
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeConfigsResource:
    """DescribeConfigsResource struct of DescribeConfigsRequest, versions 0+."""

    __slots__ = ('resource_type', 'resource_name', 'configuration_keys', 'unknown_tagged_fields',)

    def __init__(self, *, resource_type=0, resource_name='', configuration_keys=_MISSING, unknown_tagged_fields=None):
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configuration_keys = [] if configuration_keys is _MISSING else configuration_keys
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.resource_type == other.resource_type
                and self.resource_name == other.resource_name
                and self.configuration_keys == other.configuration_keys
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeConfigsResource_v1(buf, pos):
    o = _new(DescribeConfigsResource)
    (o.resource_type,) = _U_b(buf, pos)
    pos += 1
    o.resource_name, pos = _r_str(buf, pos)
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.configuration_keys = None
    else:
        a = []
        for _ in range(n):
            e, pos = _r_str(buf, pos)
            a.append(e)
        o.configuration_keys = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsResource_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsResource', 'tags')
    out += _P_b(o.resource_type)
    _w_str(out, o.resource_name)
    x = o.configuration_keys
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _w_str(out, e)


def _d_DescribeConfigsResource_v4(buf, pos):
    o = _new(DescribeConfigsResource)
    (o.resource_type,) = _U_b(buf, pos)
    pos += 1
    o.resource_name, pos = _r_cstr(buf, pos)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.configuration_keys = None
    else:
        a = []
        for _ in range(n):
            e, pos = _r_cstr(buf, pos)
            a.append(e)
        o.configuration_keys = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeConfigsResource_v4(o, out, parts):
    out += _P_b(o.resource_type)
    _w_cstr(out, o.resource_name)
    x = o.configuration_keys
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _w_cstr(out, e)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeConfigsRequest_v1(buf, pos):
    o = _new(DescribeConfigsRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsResource_v1(buf, pos)
        a.append(e)
    o.resources = a
    (o.include_synonyms,) = _U_o(buf, pos)
    pos += 1
    o.include_documentation = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsRequest_v1(o, out, parts):
    if o.include_documentation != False:
        raise _FieldVersionError('DescribeConfigsRequest.IncludeDocumentation', '3+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsRequest', 'tags')
    x = o.resources
    out += _P_len(len(x))
    for e in x:
        _e_DescribeConfigsResource_v1(e, out, parts)
    out += _P_o(o.include_synonyms)


def _d_DescribeConfigsRequest_v3(buf, pos):
    o = _new(DescribeConfigsRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsResource_v1(buf, pos)
        a.append(e)
    o.resources = a
    (o.include_synonyms, o.include_documentation,) = _U_oo(buf, pos)
    pos += 2
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeConfigsRequest_v3(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeConfigsRequest', 'tags')
    x = o.resources
    out += _P_len(len(x))
    for e in x:
        _e_DescribeConfigsResource_v1(e, out, parts)
    out += _P_oo(o.include_synonyms, o.include_documentation)


def _d_DescribeConfigsRequest_v4(buf, pos):
    o = _new(DescribeConfigsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DescribeConfigsResource_v4(buf, pos)
        a.append(e)
    o.resources = a
    (o.include_synonyms, o.include_documentation,) = _U_oo(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeConfigsRequest_v4(o, out, parts):
    x = o.resources
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DescribeConfigsResource_v4(e, out, parts)
    out += _P_oo(o.include_synonyms, o.include_documentation)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeConfigsRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeConfigsRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeConfigsRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeConfigsRequest_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeConfigsRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeConfigsRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeConfigsRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_DescribeConfigsRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeConfigsRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeConfigsRequest_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_DescribeConfigsRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeConfigsRequest', 4) from None


MESSAGE = DescribeConfigsRequest
VERSIONS = range(1, 5)
FLEXIBLE_MIN = 4
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeConfigsRequest': (
        ('resources', '[]DescribeConfigsResource', 0, 4, None),
        ('include_synonyms', 'bool', 1, 4, None),
        ('include_documentation', 'bool', 3, 4, None),
    ),
    'DescribeConfigsResource': (
        ('resource_type', 'int8', 0, 4, None),
        ('resource_name', 'string', 0, 4, None),
        ('configuration_keys', '[]string', 0, 4, None),
    ),
}
