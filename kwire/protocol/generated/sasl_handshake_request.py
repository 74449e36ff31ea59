# Generated from protocol_specs by kwire.codegen -- do not edit.
"""SaslHandshakeRequest (api key 17): versions 0-1, flexible never."""


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


class SaslHandshakeRequest:
    """SaslHandshakeRequest, versions 0-1."""

    __slots__ = ('mechanism',)

    def __init__(self, *, mechanism=''):
        self.mechanism = mechanism

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.mechanism == other.mechanism)

    __hash__ = None


def _d_SaslHandshakeRequest_v0(buf, pos):
    o = _new(SaslHandshakeRequest)
    o.mechanism, pos = _r_str(buf, pos)
    return o, pos


def _e_SaslHandshakeRequest_v0(o, out, parts):
    _w_str(out, o.mechanism)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_SaslHandshakeRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_SaslHandshakeRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('SaslHandshakeRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_SaslHandshakeRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_SaslHandshakeRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('SaslHandshakeRequest', 1) from None


MESSAGE = SaslHandshakeRequest
VERSIONS = range(0, 2)
FLEXIBLE_MIN = None
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'SaslHandshakeRequest': (
        ('mechanism', 'string', 0, 1, None),
    ),
}
