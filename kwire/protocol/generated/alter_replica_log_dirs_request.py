# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AlterReplicaLogDirsRequest (api key 34): versions 1-2, flexible from v2."""


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


class AlterReplicaLogDirsRequest:
    """AlterReplicaLogDirsRequest, versions 1-2."""

    __slots__ = ('dirs', 'unknown_tagged_fields',)

    def __init__(self, *, dirs=None, unknown_tagged_fields=None):
        self.dirs = [] if dirs is None else dirs
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.dirs == other.dirs
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AlterReplicaLogDir:
    """AlterReplicaLogDir struct of AlterReplicaLogDirsRequest, versions 0+."""

    __slots__ = ('path', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, path='', topics=None, unknown_tagged_fields=None):
        self.path = path
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.path == other.path
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AlterReplicaLogDirTopic:
    """AlterReplicaLogDirTopic struct of AlterReplicaLogDirsRequest, versions 0+."""

    __slots__ = ('name', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, name='', partitions=None, unknown_tagged_fields=None):
        self.name = name
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_AlterReplicaLogDirTopic_v1(buf, pos):
    o = _new(AlterReplicaLogDirTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AlterReplicaLogDirTopic_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AlterReplicaLogDirTopic', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_AlterReplicaLogDirTopic_v2(buf, pos):
    o = _new(AlterReplicaLogDirTopic)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterReplicaLogDirTopic_v2(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterReplicaLogDir_v1(buf, pos):
    o = _new(AlterReplicaLogDir)
    o.path, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AlterReplicaLogDirTopic_v1(buf, pos)
        a.append(e)
    o.topics = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AlterReplicaLogDir_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AlterReplicaLogDir', 'tags')
    _w_str(out, o.path)
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_AlterReplicaLogDirTopic_v1(e, out, parts)


def _d_AlterReplicaLogDir_v2(buf, pos):
    o = _new(AlterReplicaLogDir)
    o.path, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AlterReplicaLogDirTopic_v2(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterReplicaLogDir_v2(o, out, parts):
    _w_cstr(out, o.path)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AlterReplicaLogDirTopic_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AlterReplicaLogDirsRequest_v1(buf, pos):
    o = _new(AlterReplicaLogDirsRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AlterReplicaLogDir_v1(buf, pos)
        a.append(e)
    o.dirs = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AlterReplicaLogDirsRequest_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AlterReplicaLogDirsRequest', 'tags')
    x = o.dirs
    out += _P_len(len(x))
    for e in x:
        _e_AlterReplicaLogDir_v1(e, out, parts)


def _d_AlterReplicaLogDirsRequest_v2(buf, pos):
    o = _new(AlterReplicaLogDirsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AlterReplicaLogDir_v2(buf, pos)
        a.append(e)
    o.dirs = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AlterReplicaLogDirsRequest_v2(o, out, parts):
    x = o.dirs
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AlterReplicaLogDir_v2(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterReplicaLogDirsRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AlterReplicaLogDirsRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterReplicaLogDirsRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AlterReplicaLogDirsRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_AlterReplicaLogDirsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AlterReplicaLogDirsRequest', 2) from None


MESSAGE = AlterReplicaLogDirsRequest
VERSIONS = range(1, 3)
FLEXIBLE_MIN = 2
DECODERS = {1: decode_v1, 2: decode_v2}
ENCODERS = {1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AlterReplicaLogDirsRequest': (
        ('dirs', '[]AlterReplicaLogDir', 0, 2, None),
    ),
    'AlterReplicaLogDir': (
        ('path', 'string', 0, 2, None),
        ('topics', '[]AlterReplicaLogDirTopic', 0, 2, None),
    ),
    'AlterReplicaLogDirTopic': (
        ('name', 'string', 0, 2, 'topicName'),
        ('partitions', '[]int32', 0, 2, None),
    ),
}
