# Generated from protocol_specs by kwire.codegen -- do not edit.
"""CreatePartitionsRequest (api key 37): versions 0-3, flexible from v2."""


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
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack
_S_io = _Struct('>i?')
_U_io = _S_io.unpack_from
_P_io = _S_io.pack


class CreatePartitionsRequest:
    """CreatePartitionsRequest, versions 0-3."""

    __slots__ = ('topics', 'timeout_ms', 'validate_only', 'unknown_tagged_fields',)

    def __init__(self, *, topics=None, timeout_ms=0, validate_only=False, unknown_tagged_fields=None):
        self.topics = [] if topics is None else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topics == other.topics
                and self.timeout_ms == other.timeout_ms
                and self.validate_only == other.validate_only
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class CreatePartitionsTopic:
    """CreatePartitionsTopic struct of CreatePartitionsRequest, versions 0+."""

    __slots__ = ('name', 'count', 'assignments', 'unknown_tagged_fields',)

    def __init__(self, *, name='', count=0, assignments=_MISSING, unknown_tagged_fields=None):
        self.name = name
        self.count = count
        self.assignments = [] if assignments is _MISSING else assignments
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.count == other.count
                and self.assignments == other.assignments
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class CreatePartitionsAssignment:
    """CreatePartitionsAssignment struct of CreatePartitionsRequest, versions 0+."""

    __slots__ = ('broker_ids', 'unknown_tagged_fields',)

    def __init__(self, *, broker_ids=None, unknown_tagged_fields=None):
        self.broker_ids = [] if broker_ids is None else broker_ids
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.broker_ids == other.broker_ids
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_CreatePartitionsAssignment_v0(buf, pos):
    o = _new(CreatePartitionsAssignment)
    n, pos = _r_alen(buf, pos)
    o.broker_ids, pos = _r_fixed(buf, pos, n, 'i')
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreatePartitionsAssignment_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreatePartitionsAssignment', 'tags')
    x = o.broker_ids
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_CreatePartitionsAssignment_v2(buf, pos):
    o = _new(CreatePartitionsAssignment)
    n, pos = _r_calen(buf, pos)
    o.broker_ids, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreatePartitionsAssignment_v2(o, out, parts):
    x = o.broker_ids
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreatePartitionsTopic_v0(buf, pos):
    o = _new(CreatePartitionsTopic)
    o.name, pos = _r_str(buf, pos)
    (o.count,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.assignments = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_CreatePartitionsAssignment_v0(buf, pos)
            a.append(e)
        o.assignments = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreatePartitionsTopic_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreatePartitionsTopic', 'tags')
    _w_str(out, o.name)
    out += _P_i(o.count)
    x = o.assignments
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_CreatePartitionsAssignment_v0(e, out, parts)


def _d_CreatePartitionsTopic_v2(buf, pos):
    o = _new(CreatePartitionsTopic)
    o.name, pos = _r_cstr(buf, pos)
    (o.count,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.assignments = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_CreatePartitionsAssignment_v2(buf, pos)
            a.append(e)
        o.assignments = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreatePartitionsTopic_v2(o, out, parts):
    _w_cstr(out, o.name)
    out += _P_i(o.count)
    x = o.assignments
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_CreatePartitionsAssignment_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_CreatePartitionsRequest_v0(buf, pos):
    o = _new(CreatePartitionsRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatePartitionsTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    (o.timeout_ms, o.validate_only,) = _U_io(buf, pos)
    pos += 5
    o.unknown_tagged_fields = {}
    return o, pos


def _e_CreatePartitionsRequest_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('CreatePartitionsRequest', 'tags')
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_CreatePartitionsTopic_v0(e, out, parts)
    out += _P_io(o.timeout_ms, o.validate_only)


def _d_CreatePartitionsRequest_v2(buf, pos):
    o = _new(CreatePartitionsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_CreatePartitionsTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    (o.timeout_ms, o.validate_only,) = _U_io(buf, pos)
    pos += 5
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_CreatePartitionsRequest_v2(o, out, parts):
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_CreatePartitionsTopic_v2(e, out, parts)
    out += _P_io(o.timeout_ms, o.validate_only)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreatePartitionsRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_CreatePartitionsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreatePartitionsRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreatePartitionsRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_CreatePartitionsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreatePartitionsRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreatePartitionsRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_CreatePartitionsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreatePartitionsRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_CreatePartitionsRequest_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_CreatePartitionsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('CreatePartitionsRequest', 3) from None


MESSAGE = CreatePartitionsRequest
VERSIONS = range(0, 4)
FLEXIBLE_MIN = 2
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'CreatePartitionsRequest': (
        ('topics', '[]CreatePartitionsTopic', 0, 3, None),
        ('timeout_ms', 'int32', 0, 3, None),
        ('validate_only', 'bool', 0, 3, None),
    ),
    'CreatePartitionsTopic': (
        ('name', 'string', 0, 3, 'topicName'),
        ('count', 'int32', 0, 3, None),
        ('assignments', '[]CreatePartitionsAssignment', 0, 3, None),
    ),
    'CreatePartitionsAssignment': (
        ('broker_ids', '[]int32', 0, 3, 'brokerId'),
    ),
}
