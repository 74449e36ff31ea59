# Generated from protocol_specs by kwire.codegen -- do not edit.
"""VotersRecord: versions 0-0, flexible from v0."""


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
_S_H = _Struct('>H')
_U_H = _S_H.unpack_from
_P_H = _S_H.pack
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_hh = _Struct('>hh')
_U_hh = _S_hh.unpack_from
_P_hh = _S_hh.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class VotersRecord:
    """VotersRecord, versions 0."""

    __slots__ = ('version', 'voters', 'unknown_tagged_fields',)

    def __init__(self, *, version=0, voters=None, unknown_tagged_fields=None):
        self.version = version
        self.voters = [] if voters is None else voters
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.version == other.version
                and self.voters == other.voters
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Voter:
    """Voter struct of VotersRecord, versions 0+."""

    __slots__ = ('voter_id', 'voter_directory_id', 'endpoints', 'k_raft_version_feature', 'unknown_tagged_fields',)

    def __init__(self, *, voter_id=0, voter_directory_id=_ZERO_UUID, endpoints=None, k_raft_version_feature=None, unknown_tagged_fields=None):
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.endpoints = [] if endpoints is None else endpoints
        self.k_raft_version_feature = KRaftVersionFeature() if k_raft_version_feature is None else k_raft_version_feature
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.voter_id == other.voter_id
                and self.voter_directory_id == other.voter_directory_id
                and self.endpoints == other.endpoints
                and self.k_raft_version_feature == other.k_raft_version_feature
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class KRaftVersionFeature:
    """KRaftVersionFeature struct of VotersRecord, versions 0+."""

    __slots__ = ('min_supported_version', 'max_supported_version', 'unknown_tagged_fields',)

    def __init__(self, *, min_supported_version=0, max_supported_version=0, unknown_tagged_fields=None):
        self.min_supported_version = min_supported_version
        self.max_supported_version = max_supported_version
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.min_supported_version == other.min_supported_version
                and self.max_supported_version == other.max_supported_version
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Endpoint:
    """Endpoint struct of VotersRecord, versions 0+."""

    __slots__ = ('name', 'host', 'port', 'unknown_tagged_fields',)

    def __init__(self, *, name='', host='', port=0, unknown_tagged_fields=None):
        self.name = name
        self.host = host
        self.port = port
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.host == other.host
                and self.port == other.port
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_Endpoint_v0(buf, pos):
    o = _new(Endpoint)
    o.name, pos = _r_cstr(buf, pos)
    o.host, pos = _r_cstr(buf, pos)
    (o.port,) = _U_H(buf, pos)
    pos += 2
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Endpoint_v0(o, out, parts):
    _w_cstr(out, o.name)
    _w_cstr(out, o.host)
    out += _P_H(o.port)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_KRaftVersionFeature_v0(buf, pos):
    o = _new(KRaftVersionFeature)
    (o.min_supported_version, o.max_supported_version,) = _U_hh(buf, pos)
    pos += 4
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_KRaftVersionFeature_v0(o, out, parts):
    out += _P_hh(o.min_supported_version, o.max_supported_version)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Voter_v0(buf, pos):
    o = _new(Voter)
    (o.voter_id,) = _U_i(buf, pos)
    pos += 4
    o.voter_directory_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Endpoint_v0(buf, pos)
        a.append(e)
    o.endpoints = a
    o.k_raft_version_feature, pos = _d_KRaftVersionFeature_v0(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Voter_v0(o, out, parts):
    out += _P_i(o.voter_id)
    out += o.voter_directory_id.bytes
    x = o.endpoints
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Endpoint_v0(e, out, parts)
    _e_KRaftVersionFeature_v0(o.k_raft_version_feature, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_VotersRecord_v0(buf, pos):
    o = _new(VotersRecord)
    (o.version,) = _U_h(buf, pos)
    pos += 2
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Voter_v0(buf, pos)
        a.append(e)
    o.voters = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_VotersRecord_v0(o, out, parts):
    out += _P_h(o.version)
    x = o.voters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Voter_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_VotersRecord_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_VotersRecord_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('VotersRecord', 0) from None


MESSAGE = VotersRecord
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'VotersRecord': (
        ('version', 'int16', 0, 0, None),
        ('voters', '[]Voter', 0, 0, None),
    ),
    'Voter': (
        ('voter_id', 'int32', 0, 0, 'brokerId'),
        ('voter_directory_id', 'uuid', 0, 0, None),
        ('endpoints', '[]Endpoint', 0, 0, None),
        ('k_raft_version_feature', 'KRaftVersionFeature', 0, 0, None),
    ),
    'KRaftVersionFeature': (
        ('min_supported_version', 'int16', 0, 0, None),
        ('max_supported_version', 'int16', 0, 0, None),
    ),
    'Endpoint': (
        ('name', 'string', 0, 0, None),
        ('host', 'string', 0, 0, None),
        ('port', 'uint16', 0, 0, None),
    ),
}
