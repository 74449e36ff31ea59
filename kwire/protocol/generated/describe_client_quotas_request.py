# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeClientQuotasRequest (api key 48): versions 0-1, flexible from v1."""


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


class DescribeClientQuotasRequest:
    """DescribeClientQuotasRequest, versions 0-1."""

    __slots__ = ('components', 'strict', 'unknown_tagged_fields',)

    def __init__(self, *, components=None, strict=False, unknown_tagged_fields=None):
        self.components = [] if components is None else components
        self.strict = strict
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.components == other.components
                and self.strict == other.strict
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ComponentData:
    """ComponentData struct of DescribeClientQuotasRequest, versions 0+."""

    __slots__ = ('entity_type', 'match_type', 'match', 'unknown_tagged_fields',)

    def __init__(self, *, entity_type='', match_type=0, match='', unknown_tagged_fields=None):
        self.entity_type = entity_type
        self.match_type = match_type
        self.match = match
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.entity_type == other.entity_type
                and self.match_type == other.match_type
                and self.match == other.match
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ComponentData_v0(buf, pos):
    o = _new(ComponentData)
    o.entity_type, pos = _r_str(buf, pos)
    (o.match_type,) = _U_b(buf, pos)
    pos += 1
    o.match, pos = _r_nstr(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ComponentData_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ComponentData', 'tags')
    _w_str(out, o.entity_type)
    out += _P_b(o.match_type)
    _w_nstr(out, o.match)


def _d_ComponentData_v1(buf, pos):
    o = _new(ComponentData)
    o.entity_type, pos = _r_cstr(buf, pos)
    (o.match_type,) = _U_b(buf, pos)
    pos += 1
    o.match, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ComponentData_v1(o, out, parts):
    _w_cstr(out, o.entity_type)
    out += _P_b(o.match_type)
    _w_cnstr(out, o.match)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeClientQuotasRequest_v0(buf, pos):
    o = _new(DescribeClientQuotasRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ComponentData_v0(buf, pos)
        a.append(e)
    o.components = a
    (o.strict,) = _U_o(buf, pos)
    pos += 1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeClientQuotasRequest_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeClientQuotasRequest', 'tags')
    x = o.components
    out += _P_len(len(x))
    for e in x:
        _e_ComponentData_v0(e, out, parts)
    out += _P_o(o.strict)


def _d_DescribeClientQuotasRequest_v1(buf, pos):
    o = _new(DescribeClientQuotasRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ComponentData_v1(buf, pos)
        a.append(e)
    o.components = a
    (o.strict,) = _U_o(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeClientQuotasRequest_v1(o, out, parts):
    x = o.components
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ComponentData_v1(e, out, parts)
    out += _P_o(o.strict)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeClientQuotasRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DescribeClientQuotasRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeClientQuotasRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeClientQuotasRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeClientQuotasRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeClientQuotasRequest', 1) from None


MESSAGE = DescribeClientQuotasRequest
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 1
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeClientQuotasRequest': (
        ('components', '[]ComponentData', 0, 1, None),
        ('strict', 'bool', 0, 1, None),
    ),
    'ComponentData': (
        ('entity_type', 'string', 0, 1, None),
        ('match_type', 'int8', 0, 1, None),
        ('match', 'string', 0, 1, None),
    ),
}
