# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DeleteShareGroupOffsetsRequest (api key 92): versions 0-0, flexible from v0."""


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


class DeleteShareGroupOffsetsRequest:
    """DeleteShareGroupOffsetsRequest, versions 0."""

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


class DeleteShareGroupOffsetsRequestTopic:
    """DeleteShareGroupOffsetsRequestTopic struct of DeleteShareGroupOffsetsRequest, versions 0+."""

    __slots__ = ('topic_name', 'unknown_tagged_fields',)

    def __init__(self, *, topic_name='', unknown_tagged_fields=None):
        self.topic_name = topic_name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_name == other.topic_name
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DeleteShareGroupOffsetsRequestTopic_v0(buf, pos):
    o = _new(DeleteShareGroupOffsetsRequestTopic)
    o.topic_name, pos = _r_cstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeleteShareGroupOffsetsRequestTopic_v0(o, out, parts):
    _w_cstr(out, o.topic_name)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DeleteShareGroupOffsetsRequest_v0(buf, pos):
    o = _new(DeleteShareGroupOffsetsRequest)
    o.group_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DeleteShareGroupOffsetsRequestTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeleteShareGroupOffsetsRequest_v0(o, out, parts):
    _w_cstr(out, o.group_id)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DeleteShareGroupOffsetsRequestTopic_v0(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteShareGroupOffsetsRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_DeleteShareGroupOffsetsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteShareGroupOffsetsRequest', 0) from None


MESSAGE = DeleteShareGroupOffsetsRequest
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DeleteShareGroupOffsetsRequest': (
        ('group_id', 'string', 0, 0, 'groupId'),
        ('topics', '[]DeleteShareGroupOffsetsRequestTopic', 0, 0, None),
    ),
    'DeleteShareGroupOffsetsRequestTopic': (
        ('topic_name', 'string', 0, 0, 'topicName'),
    ),
}
