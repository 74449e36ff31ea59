# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AlterClientQuotasRequest (api key 49): versions 0-1, flexible from v1."""


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
_S_do = _Struct('>d?')
_U_do = _S_do.unpack_from
_P_do = _S_do.pack


class AlterClientQuotasRequest:
    """AlterClientQuotasRequest, versions 0-1."""

    __slots__ = ('entries', 'validate_only', 'unknown_tagged_fields',)

    def __init__(self, *, entries=None, validate_only=False, unknown_tagged_fields=None):
        self.entries = [] if entries is None else entries
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.entries == other.entries
                and self.validate_only == other.validate_only
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class EntryData:
    """EntryData struct of AlterClientQuotasRequest, versions 0+."""

    __slots__ = ('entity', 'ops', 'unknown_tagged_fields',)

    def __init__(self, *, entity=None, ops=None, unknown_tagged_fields=None):
        self.entity = [] if entity is None else entity
        self.ops = [] if ops is None else ops
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.entity == other.entity
                and self.ops == other.ops
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class OpData:
    """OpData struct of AlterClientQuotasRequest, versions 0+."""

    __slots__ = ('key', 'value', 'remove', 'unknown_tagged_fields',)

    def __init__(self, *, key='', value=0.0, remove=False, unknown_tagged_fields=None):
        self.key = key
        self.value = value
        self.remove = remove
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.key == other.key
                and self.value == other.value
                and self.remove == other.remove
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class EntityData:
    """EntityData struct of AlterClientQuotasRequest, versions 0+."""

    __slots__ = ('entity_type', 'entity_name', 'unknown_tagged_fields',)

    def __init__(self, *, entity_type='', entity_name='', unknown_tagged_fields=None):
        self.entity_type = entity_type
        self.entity_name = entity_name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.entity_type == other.entity_type
                and self.entity_name == other.entity_name
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_EntityData_v0(buf, pos):
    o = _new(EntityData)
    o.entity_type, pos = _r_str(buf, pos)
    o.entity_name, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_EntityData_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('EntityData', 'tags')
    _w_str(out, o.entity_type)
    _w_nstr(out, o.entity_name)


def _d_EntityData_v1(buf, pos):
    o = _new(EntityData)
    o.entity_type, pos = _r_cstr(buf, pos)
    o.entity_name, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_EntityData_v1(o, out, parts):
    _w_cstr(out, o.entity_type)
    _w_cnstr(out, o.entity_name)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_OpData_v0(buf, pos):
    o = _new(OpData)
    o.key, pos = _r_str(buf, pos)
    (o.value, o.remove,) = _U_do(buf, pos)
    pos += 9
    o.unknown_tagged_fields = {}
    return o, pos


def _e_OpData_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('OpData', 'tags')
    _w_str(out, o.key)
    out += _P_do(o.value, o.remove)


def _d_OpData_v1(buf, pos):
    o = _new(OpData)
    o.key, pos = _r_cstr(buf, pos)
    (o.value, o.remove,) = _U_do(buf, pos)
    pos += 9
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_OpData_v1(o, out, parts):
    _w_cstr(out, o.key)
    out += _P_do(o.value, o.remove)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_EntryData_v0(buf, pos):
    o = _new(EntryData)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EntityData_v0(buf, pos)
        a.append(e)
    o.entity = a
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OpData_v0(buf, pos)
        a.append(e)
    o.ops = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_EntryData_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('EntryData', 'tags')
    x = o.entity
    out += _P_len(len(x))
    for e in x:
        _e_EntityData_v0(e, out, parts)
    x = o.ops
    out += _P_len(len(x))
    for e in x:
        _e_OpData_v0(e, out, parts)


def _d_EntryData_v1(buf, pos):
    o = _new(EntryData)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EntityData_v1(buf, pos)
        a.append(e)
    o.entity = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_OpData_v1(buf, pos)
        a.append(e)
    o.ops = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_EntryData_v1(o, out, parts):
    x = o.entity
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_EntityData_v1(e, out, parts)
    x = o.ops
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_OpData_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterClientQuotasRequest_v0(buf, pos):
    o = _new(AlterClientQuotasRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EntryData_v0(buf, pos)
        a.append(e)
    o.entries = a
    (o.validate_only,) = _U_o(buf, pos)
    pos += 1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AlterClientQuotasRequest_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AlterClientQuotasRequest', 'tags')
    x = o.entries
    out += _P_len(len(x))
    for e in x:
        _e_EntryData_v0(e, out, parts)
    out += _P_o(o.validate_only)


def _d_AlterClientQuotasRequest_v1(buf, pos):
    o = _new(AlterClientQuotasRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EntryData_v1(buf, pos)
        a.append(e)
    o.entries = a
    (o.validate_only,) = _U_o(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterClientQuotasRequest_v1(o, out, parts):
    x = o.entries
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_EntryData_v1(e, out, parts)
    out += _P_o(o.validate_only)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterClientQuotasRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AlterClientQuotasRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterClientQuotasRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterClientQuotasRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AlterClientQuotasRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterClientQuotasRequest', 1) from None


MESSAGE = AlterClientQuotasRequest
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 1
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AlterClientQuotasRequest': (
        ('entries', '[]EntryData', 0, 1, None),
        ('validate_only', 'bool', 0, 1, None),
    ),
    'EntryData': (
        ('entity', '[]EntityData', 0, 1, None),
        ('ops', '[]OpData', 0, 1, None),
    ),
    'OpData': (
        ('key', 'string', 0, 1, None),
        ('value', 'float64', 0, 1, None),
        ('remove', 'bool', 0, 1, None),
    ),
    'EntityData': (
        ('entity_type', 'string', 0, 1, None),
        ('entity_name', 'string', 0, 1, None),
    ),
}
