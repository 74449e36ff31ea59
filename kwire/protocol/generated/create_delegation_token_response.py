# Generated from protocol_specs by kwire.codegen -- do not edit.
"""CreateDelegationTokenResponse (api key 38): versions 1-3, flexible from v2."""


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
_S_qqq = _Struct('>qqq')
_U_qqq = _S_qqq.unpack_from
_P_qqq = _S_qqq.pack


class CreateDelegationTokenResponse:
    """CreateDelegationTokenResponse, versions 1-3."""

    __slots__ = ('error_code', 'principal_type', 'principal_name', 'token_requester_principal_type', 'token_requester_principal_name', 'issue_timestamp_ms', 'expiry_timestamp_ms', 'max_timestamp_ms', 'token_id', 'hmac', 'throttle_time_ms', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, principal_type='', principal_name='', token_requester_principal_type='', token_requester_principal_name='', issue_timestamp_ms=0, expiry_timestamp_ms=0, max_timestamp_ms=0, token_id='', hmac=b'', throttle_time_ms=0, unknown_tagged_fields=None):
        self.error_code = error_code
        self.principal_type = principal_type
        self.principal_name = principal_name
        self.token_requester_principal_type = token_requester_principal_type
        self.token_requester_principal_name = token_requester_principal_name
        self.issue_timestamp_ms = issue_timestamp_ms
        self.expiry_timestamp_ms = expiry_timestamp_ms
        self.max_timestamp_ms = max_timestamp_ms
        self.token_id = token_id
        self.hmac = hmac
        self.throttle_time_ms = throttle_time_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.principal_type == other.principal_type
                and self.principal_name == other.principal_name
                and self.token_requester_principal_type == other.token_requester_principal_type
                and self.token_requester_principal_name == other.token_requester_principal_name
                and self.issue_timestamp_ms == other.issue_timestamp_ms
                and self.expiry_timestamp_ms == other.expiry_timestamp_ms
                and self.max_timestamp_ms == other.max_timestamp_ms
                and self.token_id == other.token_id
                and self.hmac == other.hmac
                and self.throttle_time_ms == other.throttle_time_ms
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_CreateDelegationTokenResponse_v1(buf, pos):
    o = _new(CreateDelegationTokenResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.principal_type, pos = _r_str(buf, pos)
    o.principal_name, pos = _r_str(buf, pos)
    (o.issue_timestamp_ms, o.expiry_timestamp_ms, o.max_timestamp_ms,) = _U_qqq(buf, pos)
    pos += 24
    o.token_id, pos = _r_str(buf, pos)
    o.hmac, pos = _r_bytes(buf, pos)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.token_requester_principal_type = ''
    o.token_requester_principal_name = ''
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreateDelegationTokenResponse_v1(o, out, parts):
    if o.token_requester_principal_type != '':
        raise _FieldVersionError('CreateDelegationTokenResponse.TokenRequesterPrincipalType', '3+')
    if o.token_requester_principal_name != '':
        raise _FieldVersionError('CreateDelegationTokenResponse.TokenRequesterPrincipalName', '3+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreateDelegationTokenResponse', 'tags')
    out += _P_h(o.error_code)
    _w_str(out, o.principal_type)
    _w_str(out, o.principal_name)
    out += _P_qqq(o.issue_timestamp_ms, o.expiry_timestamp_ms, o.max_timestamp_ms)
    _w_str(out, o.token_id)
    _w_bytes(out, o.hmac)
    out += _P_i(o.throttle_time_ms)


def _d_CreateDelegationTokenResponse_v2(buf, pos):
    o = _new(CreateDelegationTokenResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.principal_type, pos = _r_cstr(buf, pos)
    o.principal_name, pos = _r_cstr(buf, pos)
    (o.issue_timestamp_ms, o.expiry_timestamp_ms, o.max_timestamp_ms,) = _U_qqq(buf, pos)
    pos += 24
    o.token_id, pos = _r_cstr(buf, pos)
    o.hmac, pos = _r_cbytes(buf, pos)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.token_requester_principal_type = ''
    o.token_requester_principal_name = ''
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreateDelegationTokenResponse_v2(o, out, parts):
    if o.token_requester_principal_type != '':
        raise _FieldVersionError('CreateDelegationTokenResponse.TokenRequesterPrincipalType', '3+')
    if o.token_requester_principal_name != '':
        raise _FieldVersionError('CreateDelegationTokenResponse.TokenRequesterPrincipalName', '3+')
    out += _P_h(o.error_code)
    _w_cstr(out, o.principal_type)
    _w_cstr(out, o.principal_name)
    out += _P_qqq(o.issue_timestamp_ms, o.expiry_timestamp_ms, o.max_timestamp_ms)
    _w_cstr(out, o.token_id)
    _w_cbytes(out, o.hmac)
    out += _P_i(o.throttle_time_ms)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreateDelegationTokenResponse_v3(buf, pos):
    o = _new(CreateDelegationTokenResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.principal_type, pos = _r_cstr(buf, pos)
    o.principal_name, pos = _r_cstr(buf, pos)
    o.token_requester_principal_type, pos = _r_cstr(buf, pos)
    o.token_requester_principal_name, pos = _r_cstr(buf, pos)
    (o.issue_timestamp_ms, o.expiry_timestamp_ms, o.max_timestamp_ms,) = _U_qqq(buf, pos)
    pos += 24
    o.token_id, pos = _r_cstr(buf, pos)
    o.hmac, pos = _r_cbytes(buf, pos)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreateDelegationTokenResponse_v3(o, out, parts):
    out += _P_h(o.error_code)
    _w_cstr(out, o.principal_type)
    _w_cstr(out, o.principal_name)
    _w_cstr(out, o.token_requester_principal_type)
    _w_cstr(out, o.token_requester_principal_name)
    out += _P_qqq(o.issue_timestamp_ms, o.expiry_timestamp_ms, o.max_timestamp_ms)
    _w_cstr(out, o.token_id)
    _w_cbytes(out, o.hmac)
    out += _P_i(o.throttle_time_ms)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateDelegationTokenResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_CreateDelegationTokenResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateDelegationTokenResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateDelegationTokenResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_CreateDelegationTokenResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateDelegationTokenResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreateDelegationTokenResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_CreateDelegationTokenResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreateDelegationTokenResponse', 3) from None


MESSAGE = CreateDelegationTokenResponse
VERSIONS = range(1, 4)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'CreateDelegationTokenResponse': (
        ('error_code', 'int16', 0, 3, None),
        ('principal_type', 'string', 0, 3, None),
        ('principal_name', 'string', 0, 3, None),
        ('token_requester_principal_type', 'string', 3, 3, None),
        ('token_requester_principal_name', 'string', 3, 3, None),
        ('issue_timestamp_ms', 'int64', 0, 3, None),
        ('expiry_timestamp_ms', 'int64', 0, 3, None),
        ('max_timestamp_ms', 'int64', 0, 3, None),
        ('token_id', 'string', 0, 3, None),
        ('hmac', 'bytes', 0, 3, None),
        ('throttle_time_ms', 'int32', 0, 3, None),
    ),
}
