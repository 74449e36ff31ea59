# Generated from protocol_specs by kwire.codegen -- do not edit.
"""CreateDelegationTokenRequest (api key 38): versions 1-3, flexible from v2."""


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
_S_q = _Struct('>q')
_U_q = _S_q.unpack_from
_P_q = _S_q.pack


class CreateDelegationTokenRequest:
    """CreateDelegationTokenRequest, versions 1-3."""

    __slots__ = ('owner_principal_type', 'owner_principal_name', 'renewers', 'max_lifetime_ms', 'unknown_tagged_fields',)

    def __init__(self, *, owner_principal_type='', owner_principal_name='', renewers=None, max_lifetime_ms=0, unknown_tagged_fields=None):
        self.owner_principal_type = owner_principal_type
        self.owner_principal_name = owner_principal_name
        self.renewers = [] if renewers is None else renewers
        self.max_lifetime_ms = max_lifetime_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.owner_principal_type == other.owner_principal_type
                and self.owner_principal_name == other.owner_principal_name
                and self.renewers == other.renewers
                and self.max_lifetime_ms == other.max_lifetime_ms
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class CreatableRenewers:
    """CreatableRenewers struct of CreateDelegationTokenRequest, versions 0+."""

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


def _d_CreatableRenewers_v1(buf, pos):
    o = _new(CreatableRenewers)
    o.principal_type, pos = _r_str(buf, pos)
    o.principal_name, pos = _r_str(buf, pos)
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreatableRenewers_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreatableRenewers', 'tags')
    _w_str(out, o.principal_type)
    _w_str(out, o.principal_name)


def _d_CreatableRenewers_v2(buf, pos):
    o = _new(CreatableRenewers)
    o.principal_type, pos = _r_cstr(buf, pos)
    o.principal_name, pos = _r_cstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreatableRenewers_v2(o, out, parts):
    _w_cstr(out, o.principal_type)
    _w_cstr(out, o.principal_name)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreateDelegationTokenRequest_v1(buf, pos):
    o = _new(CreateDelegationTokenRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableRenewers_v1(buf, pos)
        a.append(e)
    o.renewers = a
    (o.max_lifetime_ms,) = _U_q(buf, pos)
    pos += 8
    o.owner_principal_type = ''
    o.owner_principal_name = ''
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreateDelegationTokenRequest_v1(o, out, parts):
    if o.owner_principal_type != '':
        raise _FieldVersionError('CreateDelegationTokenRequest.OwnerPrincipalType', '3+')
    if o.owner_principal_name != '':
        raise _FieldVersionError('CreateDelegationTokenRequest.OwnerPrincipalName', '3+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreateDelegationTokenRequest', 'tags')
    x = o.renewers
    out += _P_len(len(x))
    for e in x:
        _e_CreatableRenewers_v1(e, out, parts)
    out += _P_q(o.max_lifetime_ms)


def _d_CreateDelegationTokenRequest_v2(buf, pos):
    o = _new(CreateDelegationTokenRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableRenewers_v2(buf, pos)
        a.append(e)
    o.renewers = a
    (o.max_lifetime_ms,) = _U_q(buf, pos)
    pos += 8
    o.owner_principal_type = ''
    o.owner_principal_name = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreateDelegationTokenRequest_v2(o, out, parts):
    if o.owner_principal_type != '':
        raise _FieldVersionError('CreateDelegationTokenRequest.OwnerPrincipalType', '3+')
    if o.owner_principal_name != '':
        raise _FieldVersionError('CreateDelegationTokenRequest.OwnerPrincipalName', '3+')
    x = o.renewers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_CreatableRenewers_v2(e, out, parts)
    out += _P_q(o.max_lifetime_ms)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreateDelegationTokenRequest_v3(buf, pos):
    o = _new(CreateDelegationTokenRequest)
    o.owner_principal_type, pos = _r_cnstr(buf, pos)
    o.owner_principal_name, pos = _r_cnstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatableRenewers_v2(buf, pos)
        a.append(e)
    o.renewers = a
    (o.max_lifetime_ms,) = _U_q(buf, pos)
    pos += 8
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreateDelegationTokenRequest_v3(o, out, parts):
    _w_cnstr(out, o.owner_principal_type)
    _w_cnstr(out, o.owner_principal_name)
    x = o.renewers
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_CreatableRenewers_v2(e, out, parts)
    out += _P_q(o.max_lifetime_ms)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateDelegationTokenRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_CreateDelegationTokenRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateDelegationTokenRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateDelegationTokenRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_CreateDelegationTokenRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateDelegationTokenRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateDelegationTokenRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_CreateDelegationTokenRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateDelegationTokenRequest', 3) from None


MESSAGE = CreateDelegationTokenRequest
VERSIONS = range(1, 4)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'CreateDelegationTokenRequest': (
        ('owner_principal_type', 'string', 3, 3, None),
        ('owner_principal_name', 'string', 3, 3, None),
        ('renewers', '[]CreatableRenewers', 0, 3, None),
        ('max_lifetime_ms', 'int64', 0, 3, None),
    ),
    'CreatableRenewers': (
        ('principal_type', 'string', 0, 3, None),
        ('principal_name', 'string', 0, 3, None),
    ),
}
