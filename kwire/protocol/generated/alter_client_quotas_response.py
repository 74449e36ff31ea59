# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AlterClientQuotasResponse (api key 49): versions 0-1, flexible from v1."""


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


class AlterClientQuotasResponse:
    """AlterClientQuotasResponse, versions 0-1."""

    __slots__ = ('throttle_time_ms', 'entries', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, entries=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.entries = [] if entries is None else entries
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.entries == other.entries
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class EntryData:
    """EntryData struct of AlterClientQuotasResponse, versions 0+."""

    __slots__ = ('error_code', 'error_message', 'entity', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, error_message='', entity=None, unknown_tagged_fields=None):
        self.error_code = error_code
        self.error_message = error_message
        self.entity = [] if entity is None else entity
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.entity == other.entity
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class EntityData:
    """EntityData struct of AlterClientQuotasResponse, versions 0+."""

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


def _d_EntryData_v0(buf, pos):
    o = _new(EntryData)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_nstr(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EntityData_v0(buf, pos)
        a.append(e)
    o.entity = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_EntryData_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('EntryData', 'tags')
    out += _P_h(o.error_code)
    _w_nstr(out, o.error_message)
    x = o.entity
    out += _P_len(len(x))
    for e in x:
        _e_EntityData_v0(e, out, parts)


def _d_EntryData_v1(buf, pos):
    o = _new(EntryData)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EntityData_v1(buf, pos)
        a.append(e)
    o.entity = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_EntryData_v1(o, out, parts):
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    x = o.entity
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_EntityData_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterClientQuotasResponse_v0(buf, pos):
    o = _new(AlterClientQuotasResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EntryData_v0(buf, pos)
        a.append(e)
    o.entries = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AlterClientQuotasResponse_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AlterClientQuotasResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.entries
    out += _P_len(len(x))
    for e in x:
        _e_EntryData_v0(e, out, parts)


def _d_AlterClientQuotasResponse_v1(buf, pos):
    o = _new(AlterClientQuotasResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_EntryData_v1(buf, pos)
        a.append(e)
    o.entries = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterClientQuotasResponse_v1(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.entries
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_EntryData_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterClientQuotasResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AlterClientQuotasResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterClientQuotasResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterClientQuotasResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AlterClientQuotasResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterClientQuotasResponse', 1) from None


MESSAGE = AlterClientQuotasResponse
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 1
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AlterClientQuotasResponse': (
        ('throttle_time_ms', 'int32', 0, 1, None),
        ('entries', '[]EntryData', 0, 1, None),
    ),
    'EntryData': (
        ('error_code', 'int16', 0, 1, None),
        ('error_message', 'string', 0, 1, None),
        ('entity', '[]EntityData', 0, 1, None),
    ),
    'EntityData': (
        ('entity_type', 'string', 0, 1, None),
        ('entity_name', 'string', 0, 1, None),
    ),
}
