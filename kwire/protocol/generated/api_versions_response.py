# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ApiVersionsResponse (api key 18): versions 0-4, flexible from v3."""


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
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_hh = _Struct('>hh')
_U_hh = _S_hh.unpack_from
_P_hh = _S_hh.pack
_S_hhh = _Struct('>hhh')
_U_hhh = _S_hhh.unpack_from
_P_hhh = _S_hhh.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack
_S_q = _Struct('>q')
_U_q = _S_q.unpack_from
_P_q = _S_q.pack


class ApiVersionsResponse:
    """ApiVersionsResponse, versions 0-4."""

    __slots__ = ('error_code', 'api_keys', 'throttle_time_ms', 'supported_features', 'finalized_features_epoch', 'finalized_features', 'zk_migration_ready', 'unknown_tagged_fields',)

    def __init__(self, *, error_code=0, api_keys=None, throttle_time_ms=0, supported_features=None, finalized_features_epoch=-1, finalized_features=None, zk_migration_ready=False, unknown_tagged_fields=None):
        self.error_code = error_code
        self.api_keys = [] if api_keys is None else api_keys
        self.throttle_time_ms = throttle_time_ms
        self.supported_features = [] if supported_features is None else supported_features
        self.finalized_features_epoch = finalized_features_epoch
        self.finalized_features = [] if finalized_features is None else finalized_features
        self.zk_migration_ready = zk_migration_ready
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.error_code == other.error_code
                and self.api_keys == other.api_keys
                and self.throttle_time_ms == other.throttle_time_ms
                and self.supported_features == other.supported_features
                and self.finalized_features_epoch == other.finalized_features_epoch
                and self.finalized_features == other.finalized_features
                and self.zk_migration_ready == other.zk_migration_ready
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class FinalizedFeatureKey:
    """FinalizedFeatureKey struct of ApiVersionsResponse, versions 3+."""

    __slots__ = ('name', 'max_version_level', 'min_version_level', 'unknown_tagged_fields',)

    def __init__(self, *, name='', max_version_level=0, min_version_level=0, unknown_tagged_fields=None):
        self.name = name
        self.max_version_level = max_version_level
        self.min_version_level = min_version_level
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.max_version_level == other.max_version_level
                and self.min_version_level == other.min_version_level
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class SupportedFeatureKey:
    """SupportedFeatureKey struct of ApiVersionsResponse, versions 3+."""

    __slots__ = ('name', 'min_version', 'max_version', 'unknown_tagged_fields',)

    def __init__(self, *, name='', min_version=0, max_version=0, unknown_tagged_fields=None):
        self.name = name
        self.min_version = min_version
        self.max_version = max_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.min_version == other.min_version
                and self.max_version == other.max_version
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ApiVersion:
    """ApiVersion struct of ApiVersionsResponse, versions 0+."""

    __slots__ = ('api_key', 'min_version', 'max_version', 'unknown_tagged_fields',)

    def __init__(self, *, api_key=0, min_version=0, max_version=0, unknown_tagged_fields=None):
        self.api_key = api_key
        self.min_version = min_version
        self.max_version = max_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.api_key == other.api_key
                and self.min_version == other.min_version
                and self.max_version == other.max_version
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ApiVersion_v0(buf, pos):
    o = _new(ApiVersion)
    (o.api_key, o.min_version, o.max_version,) = _U_hhh(buf, pos)
    pos += 6
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ApiVersion_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ApiVersion', 'tags')
    out += _P_hhh(o.api_key, o.min_version, o.max_version)


def _d_ApiVersion_v3(buf, pos):
    o = _new(ApiVersion)
    (o.api_key, o.min_version, o.max_version,) = _U_hhh(buf, pos)
    pos += 6
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ApiVersion_v3(o, out, parts):
    out += _P_hhh(o.api_key, o.min_version, o.max_version)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_SupportedFeatureKey_v3(buf, pos):
    o = _new(SupportedFeatureKey)
    o.name, pos = _r_cstr(buf, pos)
    (o.min_version, o.max_version,) = _U_hh(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_SupportedFeatureKey_v3(o, out, parts):
    _w_cstr(out, o.name)
    out += _P_hh(o.min_version, o.max_version)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_FinalizedFeatureKey_v3(buf, pos):
    o = _new(FinalizedFeatureKey)
    o.name, pos = _r_cstr(buf, pos)
    (o.max_version_level, o.min_version_level,) = _U_hh(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_FinalizedFeatureKey_v3(o, out, parts):
    _w_cstr(out, o.name)
    out += _P_hh(o.max_version_level, o.min_version_level)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ApiVersionsResponse_v0(buf, pos):
    o = _new(ApiVersionsResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ApiVersion_v0(buf, pos)
        a.append(e)
    o.api_keys = a
    o.throttle_time_ms = 0
    o.supported_features = []
    o.finalized_features_epoch = -1
    o.finalized_features = []
    o.zk_migration_ready = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ApiVersionsResponse_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ApiVersionsResponse', 'tags')
    out += _P_h(o.error_code)
    x = o.api_keys
    out += _P_len(len(x))
    for e in x:
        _e_ApiVersion_v0(e, out, parts)


def _d_ApiVersionsResponse_v1(buf, pos):
    o = _new(ApiVersionsResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ApiVersion_v0(buf, pos)
        a.append(e)
    o.api_keys = a
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.supported_features = []
    o.finalized_features_epoch = -1
    o.finalized_features = []
    o.zk_migration_ready = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_ApiVersionsResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('ApiVersionsResponse', 'tags')
    out += _P_h(o.error_code)
    x = o.api_keys
    out += _P_len(len(x))
    for e in x:
        _e_ApiVersion_v0(e, out, parts)
    out += _P_i(o.throttle_time_ms)


def _d_ApiVersionsResponse_v3(buf, pos):
    o = _new(ApiVersionsResponse)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ApiVersion_v3(buf, pos)
        a.append(e)
    o.api_keys = a
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    o.supported_features = []
    o.finalized_features_epoch = -1
    o.finalized_features = []
    o.zk_migration_ready = False
    u = None
    nt, pos = _r_uvarint(buf, pos)
    for _ in range(nt):
        tag, pos = _r_uvarint(buf, pos)
        size, pos = _r_uvarint(buf, pos)
        end = pos + size
        if end > len(buf):
            raise _tag_overrun(size, len(buf) - pos)
        if tag == 0:
            sub = buf[:end]
            n, pos = _r_calen(sub, pos)
            a = []
            for _ in range(n):
                e, pos = _d_SupportedFeatureKey_v3(sub, pos)
                a.append(e)
            o.supported_features = a
        elif tag == 1:
            sub = buf[:end]
            (o.finalized_features_epoch,) = _U_q(sub, pos)
            pos += 8
        elif tag == 2:
            sub = buf[:end]
            n, pos = _r_calen(sub, pos)
            a = []
            for _ in range(n):
                e, pos = _d_FinalizedFeatureKey_v3(sub, pos)
                a.append(e)
            o.finalized_features = a
        elif tag == 3:
            sub = buf[:end]
            (o.zk_migration_ready,) = _U_o(sub, pos)
            pos += 1
        else:
            if u is None:
                u = {}
            u[tag] = bytes(buf[pos:end])
        pos = end
    o.unknown_tagged_fields = {} if u is None else u
    return o, pos


def _e_ApiVersionsResponse_v3(o, out, parts):
    out += _P_h(o.error_code)
    x = o.api_keys
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ApiVersion_v3(e, out, parts)
    out += _P_i(o.throttle_time_ms)
    t = []
    x = o.supported_features
    if x != []:
        b = bytearray()
        _w_uvarint(b, len(x) + 1)
        for e in x:
            _e_SupportedFeatureKey_v3(e, b, parts)
        t.append((0, b))
    x = o.finalized_features_epoch
    if x != -1:
        b = bytearray()
        b += _P_q(x)
        t.append((1, b))
    x = o.finalized_features
    if x != []:
        b = bytearray()
        _w_uvarint(b, len(x) + 1)
        for e in x:
            _e_FinalizedFeatureKey_v3(e, b, parts)
        t.append((2, b))
    x = o.zk_migration_ready
    if x != False:
        b = bytearray()
        b += _P_o(x)
        t.append((3, b))
    _w_tags(out, t, o.unknown_tagged_fields)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ApiVersionsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ApiVersionsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsResponse_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ApiVersionsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_ApiVersionsResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ApiVersionsResponse_v3(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_ApiVersionsResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ApiVersionsResponse', 4) from None


MESSAGE = ApiVersionsResponse
VERSIONS = range(0, 5)
FLEXIBLE_MIN = 3
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ApiVersionsResponse': (
        ('error_code', 'int16', 0, 4, None),
        ('api_keys', '[]ApiVersion', 0, 4, None),
        ('throttle_time_ms', 'int32', 1, 4, None),
        ('supported_features', '[]SupportedFeatureKey', 3, 4, None),
        ('finalized_features_epoch', 'int64', 3, 4, None),
        ('finalized_features', '[]FinalizedFeatureKey', 3, 4, None),
        ('zk_migration_ready', 'bool', 3, 4, None),
    ),
    'FinalizedFeatureKey': (
        ('name', 'string', 3, 4, None),
        ('max_version_level', 'int16', 3, 4, None),
        ('min_version_level', 'int16', 3, 4, None),
    ),
    'SupportedFeatureKey': (
        ('name', 'string', 3, 4, None),
        ('min_version', 'int16', 3, 4, None),
        ('max_version', 'int16', 3, 4, None),
    ),
    'ApiVersion': (
        ('api_key', 'int16', 0, 4, None),
        ('min_version', 'int16', 0, 4, None),
        ('max_version', 'int16', 0, 4, None),
    ),
}
