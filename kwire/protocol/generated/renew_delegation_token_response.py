# Generated from protocol_specs by kwire.codegen -- do not edit.
"""RenewDelegationTokenResponse (api key 39): versions 1-2, flexible from v2."""


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
_S_hqi = _Struct('>hqi')
_U_hqi = _S_hqi.unpack_from
_P_hqi = _S_hqi.pack


class RenewDelegationTokenResponse:
    """RenewDelegationTokenResponse, versions 1-2."""

    __slots__ = ('error_code', 'expiry_timestamp_ms', 'throttle_time_ms', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, expiry_timestamp_ms=0, throttle_time_ms=0, unknown_tagged_fields=None):
        self.error_code = error_code
        self.expiry_timestamp_ms = expiry_timestamp_ms
        self.throttle_time_ms = throttle_time_ms
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.expiry_timestamp_ms == other.expiry_timestamp_ms
                and self.throttle_time_ms == other.throttle_time_ms
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_RenewDelegationTokenResponse_v1(buf, pos):
    o = _new(RenewDelegationTokenResponse)
    (o.error_code, o.expiry_timestamp_ms, o.throttle_time_ms,) = _U_hqi(buf, pos)
    pos += 14
    o.unknown_tagged_fields = {}
    return o, pos


def _e_RenewDelegationTokenResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('RenewDelegationTokenResponse', 'tags')
    out += _P_hqi(o.error_code, o.expiry_timestamp_ms, o.throttle_time_ms)


def _d_RenewDelegationTokenResponse_v2(buf, pos):
    o = _new(RenewDelegationTokenResponse)
    (o.error_code, o.expiry_timestamp_ms, o.throttle_time_ms,) = _U_hqi(buf, pos)
    pos += 14
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_RenewDelegationTokenResponse_v2(o, out, parts):
    out += _P_hqi(o.error_code, o.expiry_timestamp_ms, o.throttle_time_ms)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_RenewDelegationTokenResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_RenewDelegationTokenResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('RenewDelegationTokenResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_RenewDelegationTokenResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_RenewDelegationTokenResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('RenewDelegationTokenResponse', 2) from None


MESSAGE = RenewDelegationTokenResponse
VERSIONS = range(1, 3)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2}
ENCODERS = {1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'RenewDelegationTokenResponse': (
        ('error_code', 'int16', 0, 2, None),
        ('expiry_timestamp_ms', 'int64', 0, 2, None),
        ('throttle_time_ms', 'int32', 0, 2, None),
    ),
}
