# Generated from protocol_specs by kwire.codegen -- do not edit.
"""InitializeShareGroupStateRequest (api key 83): versions 0-0, flexible from v0."""


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
_S_iiq = _Struct('>iiq')
_U_iiq = _S_iiq.unpack_from
_P_iiq = _S_iiq.pack


class InitializeShareGroupStateRequest:
    """InitializeShareGroupStateRequest, versions 0."""

    __slots__ = ('group_id', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, group_id='', topics=None, unknown_tagged_fields=None):
        self.group_id = group_id
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.group_id == other.group_id
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class InitializeStateData:
    """InitializeStateData struct of InitializeShareGroupStateRequest, versions 0+."""

    __slots__ = ('topic_id', 'partitions', 'unknown_tagged_fields',)

    def __init__(self, *, topic_id=_ZERO_UUID, partitions=None, unknown_tagged_fields=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_id == other.topic_id
                and self.partitions == other.partitions
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class PartitionData:
    """PartitionData struct of InitializeShareGroupStateRequest, versions 0+."""

    __slots__ = ('partition', 'state_epoch', 'start_offset', 'unknown_tagged_fields',)

    def __init__(self, *, partition=0, state_epoch=0, start_offset=0, unknown_tagged_fields=None):
        self.partition = partition
        self.state_epoch = state_epoch
        self.start_offset = start_offset
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition == other.partition
                and self.state_epoch == other.state_epoch
                and self.start_offset == other.start_offset
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_PartitionData_v0(buf, pos):
    o = _new(PartitionData)
    (o.partition, o.state_epoch, o.start_offset,) = _U_iiq(buf, pos)
    pos += 16
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_PartitionData_v0(o, out, parts):
    out += _P_iiq(o.partition, o.state_epoch, o.start_offset)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_InitializeStateData_v0(buf, pos):
    o = _new(InitializeStateData)
    o.topic_id, pos = _r_uuid(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_PartitionData_v0(buf, pos)
        a.append(e)
    o.partitions = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_InitializeStateData_v0(o, out, parts):
    out += o.topic_id.bytes
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_PartitionData_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_InitializeShareGroupStateRequest_v0(buf, pos):
    o = _new(InitializeShareGroupStateRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_InitializeStateData_v0(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_InitializeShareGroupStateRequest_v0(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_InitializeStateData_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitializeShareGroupStateRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_InitializeShareGroupStateRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitializeShareGroupStateRequest', 0) from None


MESSAGE = InitializeShareGroupStateRequest
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'InitializeShareGroupStateRequest': (
        ('group_id', 'string', 0, 0, None),
        ('topics', '[]InitializeStateData', 0, 0, None),
    ),
    'InitializeStateData': (
        ('topic_id', 'uuid', 0, 0, None),
        ('partitions', '[]PartitionData', 0, 0, None),
    ),
    'PartitionData': (
        ('partition', 'int32', 0, 0, None),
        ('state_epoch', 'int32', 0, 0, None),
        ('start_offset', 'int64', 0, 0, None),
    ),
}
