# Generated from protocol_specs by kwire.codegen -- do not edit.
"""CreateAclsRequest (api key 30): versions 1-3, flexible from v2."""


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
_S_b = _Struct('>b')
_U_b = _S_b.unpack_from
_P_b = _S_b.pack
_S_bb = _Struct('>bb')
_U_bb = _S_bb.unpack_from
_P_bb = _S_bb.pack


class CreateAclsRequest:
    """CreateAclsRequest, versions 1-3."""

    __slots__ = ('creations', 'unknown_tagged_fields',)

    def __init__(self, *, creations=None, unknown_tagged_fields=None):
        self.creations = [] if creations is None else creations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.creations == other.creations
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AclCreation:
    """AclCreation struct of CreateAclsRequest, versions 0+."""

    __slots__ = ('resource_type', 'resource_name', 'resource_pattern_type', 'principal', 'host', 'operation', 'permission_type', 'unknown_tagged_fields',)

    def __init__(self, *, resource_type=0, resource_name='', resource_pattern_type=3, principal='', host='', operation=0, permission_type=0, unknown_tagged_fields=None):
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.resource_pattern_type = resource_pattern_type
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.resource_type == other.resource_type
                and self.resource_name == other.resource_name
                and self.resource_pattern_type == other.resource_pattern_type
                and self.principal == other.principal
                and self.host == other.host
                and self.operation == other.operation
                and self.permission_type == other.permission_type
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_AclCreation_v1(buf, pos):
    o = _new(AclCreation)
    (o.resource_type,) = _U_b(buf, pos)
    pos += 1
    o.resource_name, pos = _r_str(buf, pos)
    (o.resource_pattern_type,) = _U_b(buf, pos)
    pos += 1
    o.principal, pos = _r_str(buf, pos)
    o.host, pos = _r_str(buf, pos)
    (o.operation, o.permission_type,) = _U_bb(buf, pos)
    pos += 2
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AclCreation_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AclCreation', 'tags')
    out += _P_b(o.resource_type)
    _w_str(out, o.resource_name)
    out += _P_b(o.resource_pattern_type)
    _w_str(out, o.principal)
    _w_str(out, o.host)
    out += _P_bb(o.operation, o.permission_type)


def _d_AclCreation_v2(buf, pos):
    o = _new(AclCreation)
    (o.resource_type,) = _U_b(buf, pos)
    pos += 1
    o.resource_name, pos = _r_cstr(buf, pos)
    (o.resource_pattern_type,) = _U_b(buf, pos)
    pos += 1
    o.principal, pos = _r_cstr(buf, pos)
    o.host, pos = _r_cstr(buf, pos)
    (o.operation, o.permission_type,) = _U_bb(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AclCreation_v2(o, out, parts):
    out += _P_b(o.resource_type)
    _w_cstr(out, o.resource_name)
    out += _P_b(o.resource_pattern_type)
    _w_cstr(out, o.principal)
    _w_cstr(out, o.host)
    out += _P_bb(o.operation, o.permission_type)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreateAclsRequest_v1(buf, pos):
    o = _new(CreateAclsRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AclCreation_v1(buf, pos)
        a.append(e)
    o.creations = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreateAclsRequest_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreateAclsRequest', 'tags')
    x = o.creations
    out += _P_len(len(x))
    for e in x:
        _e_AclCreation_v1(e, out, parts)


def _d_CreateAclsRequest_v2(buf, pos):
    o = _new(CreateAclsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AclCreation_v2(buf, pos)
        a.append(e)
    o.creations = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreateAclsRequest_v2(o, out, parts):
    x = o.creations
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AclCreation_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateAclsRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_CreateAclsRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateAclsRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateAclsRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_CreateAclsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateAclsRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateAclsRequest_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_CreateAclsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateAclsRequest', 3) from None


MESSAGE = CreateAclsRequest
VERSIONS = range(1, 4)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'CreateAclsRequest': (
        ('creations', '[]AclCreation', 0, 3, None),
    ),
    'AclCreation': (
        ('resource_type', 'int8', 0, 3, None),
        ('resource_name', 'string', 0, 3, None),
        ('resource_pattern_type', 'int8', 1, 3, None),
        ('principal', 'string', 0, 3, None),
        ('host', 'string', 0, 3, None),
        ('operation', 'int8', 0, 3, None),
        ('permission_type', 'int8', 0, 3, None),
    ),
}
