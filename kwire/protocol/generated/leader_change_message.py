# Generated from protocol_specs by kwire.codegen -- do not edit.
"""LeaderChangeMessage: versions 0-1, flexible from v0."""


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
_S_hi = _Struct('>hi')
_U_hi = _S_hi.unpack_from
_P_hi = _S_hi.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class LeaderChangeMessage:
    """LeaderChangeMessage, versions 0-1."""

    __slots__ = ('version', 'leader_id', 'voters', 'granting_voters', 'unknown_tagged_fields',)

    def __init__(self, *, version=0, leader_id=0, voters=None, granting_voters=None, unknown_tagged_fields=None):
        self.version = version
        self.leader_id = leader_id
        self.voters = [] if voters is None else voters
        self.granting_voters = [] if granting_voters is None else granting_voters
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.version == other.version
                and self.leader_id == other.leader_id
                and self.voters == other.voters
                and self.granting_voters == other.granting_voters
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Voter:
    """Voter struct of LeaderChangeMessage, versions 0+."""

    __slots__ = ('voter_id', 'voter_directory_id', 'unknown_tagged_fields',)

    def __init__(self, *, voter_id=0, voter_directory_id=_ZERO_UUID, unknown_tagged_fields=None):
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.voter_id == other.voter_id
                and self.voter_directory_id == other.voter_directory_id
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_Voter_v0(buf, pos):
    o = _new(Voter)
    (o.voter_id,) = _U_i(buf, pos)
    pos += 4
    o.voter_directory_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Voter_v0(o, out, parts):
    if o.voter_directory_id != _ZERO_UUID:
        raise _FieldVersionError('Voter.VoterDirectoryId', '1+')
    out += _P_i(o.voter_id)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_Voter_v1(buf, pos):
    o = _new(Voter)
    (o.voter_id,) = _U_i(buf, pos)
    pos += 4
    o.voter_directory_id, pos = _r_uuid(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_Voter_v1(o, out, parts):
    out += _P_i(o.voter_id)
    out += o.voter_directory_id.bytes
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_LeaderChangeMessage_v0(buf, pos):
    o = _new(LeaderChangeMessage)
    (o.version, o.leader_id,) = _U_hi(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Voter_v0(buf, pos)
        a.append(e)
    o.voters = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Voter_v0(buf, pos)
        a.append(e)
    o.granting_voters = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_LeaderChangeMessage_v0(o, out, parts):
    out += _P_hi(o.version, o.leader_id)
    x = o.voters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Voter_v0(e, out, parts)
    x = o.granting_voters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Voter_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_LeaderChangeMessage_v1(buf, pos):
    o = _new(LeaderChangeMessage)
    (o.version, o.leader_id,) = _U_hi(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Voter_v1(buf, pos)
        a.append(e)
    o.voters = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Voter_v1(buf, pos)
        a.append(e)
    o.granting_voters = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_LeaderChangeMessage_v1(o, out, parts):
    out += _P_hi(o.version, o.leader_id)
    x = o.voters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Voter_v1(e, out, parts)
    x = o.granting_voters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Voter_v1(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_LeaderChangeMessage_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_LeaderChangeMessage_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('LeaderChangeMessage', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_LeaderChangeMessage_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_LeaderChangeMessage_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('LeaderChangeMessage', 1) from None


MESSAGE = LeaderChangeMessage
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'LeaderChangeMessage': (
        ('version', 'int16', 0, 1, None),
        ('leader_id', 'int32', 0, 1, 'brokerId'),
        ('voters', '[]Voter', 0, 1, None),
        ('granting_voters', '[]Voter', 0, 1, None),
    ),
    'Voter': (
        ('voter_id', 'int32', 0, 1, None),
        ('voter_directory_id', 'uuid', 1, 1, None),
    ),
}
