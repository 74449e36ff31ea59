# Generated from protocol_specs by kwire.codegen -- do not edit.
"""UpdateFeaturesRequest (api key 57): versions 0-2, flexible from v0."""


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
_S_ho = _Struct('>h?')
_U_ho = _S_ho.unpack_from
_P_ho = _S_ho.pack
_S_hb = _Struct('>hb')
_U_hb = _S_hb.unpack_from
_P_hb = _S_hb.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class UpdateFeaturesRequest:
    """UpdateFeaturesRequest, versions 0-2."""

    __slots__ = ('timeout_ms', 'feature_updates', 'validate_only', 'unknown_tagged_fields',)

    def __init__(self, *, timeout_ms=60000, feature_updates=None, validate_only=False, unknown_tagged_fields=None):
        self.timeout_ms = timeout_ms
        self.feature_updates = [] if feature_updates is None else feature_updates
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.timeout_ms == other.timeout_ms
                and self.feature_updates == other.feature_updates
                and self.validate_only == other.validate_only
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class FeatureUpdateKey:
    """FeatureUpdateKey struct of UpdateFeaturesRequest, versions 0+."""

    __slots__ = ('feature', 'max_version_level', 'allow_downgrade', 'upgrade_type', 'unknown_tagged_fields',)

    def __init__(self, *, feature='', max_version_level=0, allow_downgrade=False, upgrade_type=1, unknown_tagged_fields=None):
        self.feature = feature
        self.max_version_level = max_version_level
        self.allow_downgrade = allow_downgrade
        self.upgrade_type = upgrade_type
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.feature == other.feature
                and self.max_version_level == other.max_version_level
                and self.allow_downgrade == other.allow_downgrade
                and self.upgrade_type == other.upgrade_type
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_FeatureUpdateKey_v0(buf, pos):
    o = _new(FeatureUpdateKey)
    o.feature, pos = _r_cstr(buf, pos)
    (o.max_version_level, o.allow_downgrade,) = _U_ho(buf, pos)
    pos += 3
    o.upgrade_type = 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FeatureUpdateKey_v0(o, out, parts):
    if o.upgrade_type != 1:
        raise _FieldVersionError('FeatureUpdateKey.UpgradeType', '1+')
    _w_cstr(out, o.feature)
    out += _P_ho(o.max_version_level, o.allow_downgrade)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FeatureUpdateKey_v1(buf, pos):
    o = _new(FeatureUpdateKey)
    o.feature, pos = _r_cstr(buf, pos)
    (o.max_version_level, o.upgrade_type,) = _U_hb(buf, pos)
    pos += 3
    o.allow_downgrade = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FeatureUpdateKey_v1(o, out, parts):
    if o.allow_downgrade != False:
        raise _FieldVersionError('FeatureUpdateKey.AllowDowngrade', '0')
    _w_cstr(out, o.feature)
    out += _P_hb(o.max_version_level, o.upgrade_type)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_UpdateFeaturesRequest_v0(buf, pos):
    o = _new(UpdateFeaturesRequest)
    (o.timeout_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FeatureUpdateKey_v0(buf, pos)
        a.append(e)
    o.feature_updates = a
    o.validate_only = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_UpdateFeaturesRequest_v0(o, out, parts):
    if o.validate_only != False:
        raise _FieldVersionError('UpdateFeaturesRequest.ValidateOnly', '1+')
    out += _P_i(o.timeout_ms)
    x = o.feature_updates
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FeatureUpdateKey_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_UpdateFeaturesRequest_v1(buf, pos):
    o = _new(UpdateFeaturesRequest)
    (o.timeout_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_FeatureUpdateKey_v1(buf, pos)
        a.append(e)
    o.feature_updates = a
    (o.validate_only,) = _U_o(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_UpdateFeaturesRequest_v1(o, out, parts):
    out += _P_i(o.timeout_ms)
    x = o.feature_updates
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_FeatureUpdateKey_v1(e, out, parts)
    out += _P_o(o.validate_only)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_UpdateFeaturesRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_UpdateFeaturesRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('UpdateFeaturesRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_UpdateFeaturesRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_UpdateFeaturesRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('UpdateFeaturesRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_UpdateFeaturesRequest_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_UpdateFeaturesRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('UpdateFeaturesRequest', 2) from None


MESSAGE = UpdateFeaturesRequest
VERSIONS = range(0, 3)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'UpdateFeaturesRequest': (
        ('timeout_ms', 'int32', 0, 2, None),
        ('feature_updates', '[]FeatureUpdateKey', 0, 2, None),
        ('validate_only', 'bool', 1, 2, None),
    ),
    'FeatureUpdateKey': (
        ('feature', 'string', 0, 2, None),
        ('max_version_level', 'int16', 0, 2, None),
        ('allow_downgrade', 'bool', 0, 0, None),
        ('upgrade_type', 'int8', 1, 2, None),
    ),
}
