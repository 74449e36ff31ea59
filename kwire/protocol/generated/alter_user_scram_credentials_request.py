# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AlterUserScramCredentialsRequest (api key 51): versions 0-0, flexible from v0."""


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
_S_b = _Struct('>b')
_U_b = _S_b.unpack_from
_P_b = _S_b.pack
_S_bi = _Struct('>bi')
_U_bi = _S_bi.unpack_from
_P_bi = _S_bi.pack


class AlterUserScramCredentialsRequest:
    """AlterUserScramCredentialsRequest, versions 0."""

    __slots__ = ('deletions', 'upsertions', 'unknown_tagged_fields',)

    def __init__(self, *, deletions=None, upsertions=None, unknown_tagged_fields=None):
        self.deletions = [] if deletions is None else deletions
        self.upsertions = [] if upsertions is None else upsertions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.deletions == other.deletions
                and self.upsertions == other.upsertions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ScramCredentialUpsertion:
    """ScramCredentialUpsertion struct of AlterUserScramCredentialsRequest, versions 0+."""

    __slots__ = ('name', 'mechanism', 'iterations', 'salt', 'salted_password', 'unknown_tagged_fields',)

    def __init__(self, *, name='', mechanism=0, iterations=0, salt=b'', salted_password=b'', unknown_tagged_fields=None):
        self.name = name
        self.mechanism = mechanism
        self.iterations = iterations
        self.salt = salt
        self.salted_password = salted_password
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.mechanism == other.mechanism
                and self.iterations == other.iterations
                and self.salt == other.salt
                and self.salted_password == other.salted_password
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class ScramCredentialDeletion:
    """ScramCredentialDeletion struct of AlterUserScramCredentialsRequest, versions 0+."""

    __slots__ = ('name', 'mechanism', 'unknown_tagged_fields',)

    def __init__(self, *, name='', mechanism=0, unknown_tagged_fields=None):
        self.name = name
        self.mechanism = mechanism
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.mechanism == other.mechanism
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ScramCredentialDeletion_v0(buf, pos):
    o = _new(ScramCredentialDeletion)
    o.name, pos = _r_cstr(buf, pos)
    (o.mechanism,) = _U_b(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ScramCredentialDeletion_v0(o, out, parts):
    _w_cstr(out, o.name)
    out += _P_b(o.mechanism)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ScramCredentialUpsertion_v0(buf, pos):
    o = _new(ScramCredentialUpsertion)
    o.name, pos = _r_cstr(buf, pos)
    (o.mechanism, o.iterations,) = _U_bi(buf, pos)
    pos += 5
    o.salt, pos = _r_cbytes(buf, pos)
    o.salted_password, pos = _r_cbytes(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ScramCredentialUpsertion_v0(o, out, parts):
    _w_cstr(out, o.name)
    out += _P_bi(o.mechanism, o.iterations)
    _w_cbytes(out, o.salt)
    _w_cbytes(out, o.salted_password)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterUserScramCredentialsRequest_v0(buf, pos):
    o = _new(AlterUserScramCredentialsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ScramCredentialDeletion_v0(buf, pos)
        a.append(e)
    o.deletions = a
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_ScramCredentialUpsertion_v0(buf, pos)
        a.append(e)
    o.upsertions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterUserScramCredentialsRequest_v0(o, out, parts):
    x = o.deletions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ScramCredentialDeletion_v0(e, out, parts)
    x = o.upsertions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_ScramCredentialUpsertion_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterUserScramCredentialsRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AlterUserScramCredentialsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterUserScramCredentialsRequest', 0) from None


MESSAGE = AlterUserScramCredentialsRequest
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AlterUserScramCredentialsRequest': (
        ('deletions', '[]ScramCredentialDeletion', 0, 0, None),
        ('upsertions', '[]ScramCredentialUpsertion', 0, 0, None),
    ),
    'ScramCredentialUpsertion': (
        ('name', 'string', 0, 0, None),
        ('mechanism', 'int8', 0, 0, None),
        ('iterations', 'int32', 0, 0, None),
        ('salt', 'bytes', 0, 0, None),
        ('salted_password', 'bytes', 0, 0, None),
    ),
    'ScramCredentialDeletion': (
        ('name', 'string', 0, 0, None),
        ('mechanism', 'int8', 0, 0, None),
    ),
}
