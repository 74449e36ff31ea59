# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DescribeDelegationTokenRequest (api key 41): versions 1-3, flexible from v2."""


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


class DescribeDelegationTokenRequest:
    """DescribeDelegationTokenRequest, versions 1-3."""

    __slots__ = ('owners', 'unknown_tagged_fields',)

    def __init__(self, *, owners=_MISSING, unknown_tagged_fields=None):
        self.owners = [] if owners is _MISSING else owners
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.owners == other.owners
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DescribeDelegationTokenOwner:
    """DescribeDelegationTokenOwner struct of DescribeDelegationTokenRequest, versions 0+."""

    __slots__ = ('principal_type', 'principal_name', 'unknown_tagged_fields',)

    def __init__(self, *, principal_type='', principal_name='', unknown_tagged_fields=None):
        self.principal_type = principal_type
        self.principal_name = principal_name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.principal_type == other.principal_type
                and self.principal_name == other.principal_name
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DescribeDelegationTokenOwner_v1(buf, pos):
    o = _new(DescribeDelegationTokenOwner)
    o.principal_type, pos = _r_str(buf, pos)
    o.principal_name, pos = _r_str(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeDelegationTokenOwner_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeDelegationTokenOwner', 'tags')
    _w_str(out, o.principal_type)
    _w_str(out, o.principal_name)


def _d_DescribeDelegationTokenOwner_v2(buf, pos):
    o = _new(DescribeDelegationTokenOwner)
    o.principal_type, pos = _r_cstr(buf, pos)
    o.principal_name, pos = _r_cstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeDelegationTokenOwner_v2(o, out, parts):
    _w_cstr(out, o.principal_type)
    _w_cstr(out, o.principal_name)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DescribeDelegationTokenRequest_v1(buf, pos):
    o = _new(DescribeDelegationTokenRequest)
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.owners = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_DescribeDelegationTokenOwner_v1(buf, pos)
            a.append(e)
        o.owners = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DescribeDelegationTokenRequest_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DescribeDelegationTokenRequest', 'tags')
    x = o.owners
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_DescribeDelegationTokenOwner_v1(e, out, parts)


def _d_DescribeDelegationTokenRequest_v2(buf, pos):
    o = _new(DescribeDelegationTokenRequest)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.owners = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_DescribeDelegationTokenOwner_v2(buf, pos)
            a.append(e)
        o.owners = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DescribeDelegationTokenRequest_v2(o, out, parts):
    x = o.owners
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_DescribeDelegationTokenOwner_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeDelegationTokenRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DescribeDelegationTokenRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeDelegationTokenRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeDelegationTokenRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DescribeDelegationTokenRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeDelegationTokenRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DescribeDelegationTokenRequest_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_DescribeDelegationTokenRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DescribeDelegationTokenRequest', 3) from None


MESSAGE = DescribeDelegationTokenRequest
VERSIONS = range(1, 4)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DescribeDelegationTokenRequest': (
        ('owners', '[]DescribeDelegationTokenOwner', 0, 3, None),
    ),
    'DescribeDelegationTokenOwner': (
        ('principal_type', 'string', 0, 3, None),
        ('principal_name', 'string', 0, 3, None),
    ),
}
