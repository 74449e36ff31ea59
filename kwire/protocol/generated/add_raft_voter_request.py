# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AddRaftVoterRequest (api key 80): versions 0-1, flexible from v0."""


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
_S_H = _Struct('>H')
_U_H = _S_H.unpack_from
_P_H = _S_H.pack
_S_ii = _Struct('>ii')
_U_ii = _S_ii.unpack_from
_P_ii = _S_ii.pack


class AddRaftVoterRequest:
    """AddRaftVoterRequest, versions 0-1."""

    __slots__ = ('cluster_id', 'timeout_ms', 'voter_id', 'voter_directory_id', 'listeners', 'ack_when_committed', 'unknown_tagged_fields',)

    def __init__(self, *, cluster_id='', timeout_ms=0, voter_id=0, voter_directory_id=_ZERO_UUID, listeners=None, ack_when_committed=True, unknown_tagged_fields=None):
        self.cluster_id = cluster_id
        self.timeout_ms = timeout_ms
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.listeners = [] if listeners is None else listeners
        self.ack_when_committed = ack_when_committed
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.cluster_id == other.cluster_id
                and self.timeout_ms == other.timeout_ms
                and self.voter_id == other.voter_id
                and self.voter_directory_id == other.voter_directory_id
                and self.listeners == other.listeners
                and self.ack_when_committed == other.ack_when_committed
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class Listener:
    """Listener struct of AddRaftVoterRequest, versions 0+."""

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


def _d_Listener_v0(buf, pos):
    o = _new(Listener)
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


def _e_Listener_v0(o, out, parts):
    _w_cstr(out, o.name)
    _w_cstr(out, o.host)
    out += _P_H(o.port)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AddRaftVoterRequest_v0(buf, pos):
    o = _new(AddRaftVoterRequest)
    o.cluster_id, pos = _r_cnstr(buf, pos)
    (o.timeout_ms, o.voter_id,) = _U_ii(buf, pos)
    pos += 8
    o.voter_directory_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Listener_v0(buf, pos)
        a.append(e)
    o.listeners = a
    o.ack_when_committed = True
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddRaftVoterRequest_v0(o, out, parts):
    if o.ack_when_committed != True:
        raise _FieldVersionError('AddRaftVoterRequest.AckWhenCommitted', '1+')
    _w_cnstr(out, o.cluster_id)
    out += _P_ii(o.timeout_ms, o.voter_id)
    out += o.voter_directory_id.bytes
    x = o.listeners
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Listener_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AddRaftVoterRequest_v1(buf, pos):
    o = _new(AddRaftVoterRequest)
    o.cluster_id, pos = _r_cnstr(buf, pos)
    (o.timeout_ms, o.voter_id,) = _U_ii(buf, pos)
    pos += 8
    o.voter_directory_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_Listener_v0(buf, pos)
        a.append(e)
    o.listeners = a
    (o.ack_when_committed,) = _U_o(buf, pos)
    pos += 1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddRaftVoterRequest_v1(o, out, parts):
    _w_cnstr(out, o.cluster_id)
    out += _P_ii(o.timeout_ms, o.voter_id)
    out += o.voter_directory_id.bytes
    x = o.listeners
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_Listener_v0(e, out, parts)
    out += _P_o(o.ack_when_committed)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddRaftVoterRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AddRaftVoterRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddRaftVoterRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddRaftVoterRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AddRaftVoterRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddRaftVoterRequest', 1) from None


MESSAGE = AddRaftVoterRequest
VERSIONS = range(0, 2)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1}
ENCODERS = {0: encode_v0, 1: encode_v1}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AddRaftVoterRequest': (
        ('cluster_id', 'string', 0, 1, None),
        ('timeout_ms', 'int32', 0, 1, None),
        ('voter_id', 'int32', 0, 1, None),
        ('voter_directory_id', 'uuid', 0, 1, None),
        ('listeners', '[]Listener', 0, 1, None),
        ('ack_when_committed', 'bool', 1, 1, None),
    ),
    'Listener': (
        ('name', 'string', 0, 1, None),
        ('host', 'string', 0, 1, None),
        ('port', 'uint16', 0, 1, None),
    ),
}
