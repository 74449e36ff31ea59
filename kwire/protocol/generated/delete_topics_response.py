# Generated from protocol_specs by kwire.codegen -- do not edit.
"""DeleteTopicsResponse (api key 20): versions 1-6, flexible from v4."""


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
_S_h = _Struct('>h')
_U_h = _S_h.unpack_from
_P_h = _S_h.pack
_S_i = _Struct('>i')
_U_i = _S_i.unpack_from
_P_i = _S_i.pack


class DeleteTopicsResponse:
    """DeleteTopicsResponse, versions 1-6."""

    __slots__ = ('throttle_time_ms', 'responses', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, responses=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is None else responses
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.responses == other.responses
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class DeletableTopicResult:
    """DeletableTopicResult struct of DeleteTopicsResponse, versions 0+."""

    __slots__ = ('name', 'topic_id', 'error_code', 'error_message', 'unknown_tagged_fields',)

    def __init__(self, *, name='', topic_id=_ZERO_UUID, error_code=0, error_message=None, unknown_tagged_fields=None):
        self.name = name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.topic_id == other.topic_id
                and self.error_code == other.error_code
                and self.error_message == other.error_message
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_DeletableTopicResult_v1(buf, pos):
    o = _new(DeletableTopicResult)
    o.name, pos = _r_str(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.topic_id = _ZERO_UUID
    o.error_message = None
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DeletableTopicResult_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DeletableTopicResult', 'tags')
    if o.name is None:
        raise _FieldVersionError('DeletableTopicResult.Name', 'null')
    _w_str(out, o.name)
    out += _P_h(o.error_code)


def _d_DeletableTopicResult_v4(buf, pos):
    o = _new(DeletableTopicResult)
    o.name, pos = _r_cstr(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.topic_id = _ZERO_UUID
    o.error_message = None
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeletableTopicResult_v4(o, out, parts):
    if o.name is None:
        raise _FieldVersionError('DeletableTopicResult.Name', 'null')
    _w_cstr(out, o.name)
    out += _P_h(o.error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DeletableTopicResult_v5(buf, pos):
    o = _new(DeletableTopicResult)
    o.name, pos = _r_cstr(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeletableTopicResult_v5(o, out, parts):
    if o.name is None:
        raise _FieldVersionError('DeletableTopicResult.Name', 'null')
    _w_cstr(out, o.name)
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DeletableTopicResult_v6(buf, pos):
    o = _new(DeletableTopicResult)
    o.name, pos = _r_cnstr(buf, pos)
    o.topic_id, pos = _r_uuid(buf, pos)
    (o.error_code,) = _U_h(buf, pos)
    pos += 2
    o.error_message, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeletableTopicResult_v6(o, out, parts):
    _w_cnstr(out, o.name)
    out += o.topic_id.bytes
    out += _P_h(o.error_code)
    _w_cnstr(out, o.error_message)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DeleteTopicsResponse_v1(buf, pos):
    o = _new(DeleteTopicsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DeletableTopicResult_v1(buf, pos)
        a.append(e)
    o.responses = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_DeleteTopicsResponse_v1(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('DeleteTopicsResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.responses
    out += _P_len(len(x))
    for e in x:
        _e_DeletableTopicResult_v1(e, out, parts)


def _d_DeleteTopicsResponse_v4(buf, pos):
    o = _new(DeleteTopicsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DeletableTopicResult_v4(buf, pos)
        a.append(e)
    o.responses = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeleteTopicsResponse_v4(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DeletableTopicResult_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DeleteTopicsResponse_v5(buf, pos):
    o = _new(DeleteTopicsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DeletableTopicResult_v5(buf, pos)
        a.append(e)
    o.responses = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeleteTopicsResponse_v5(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DeletableTopicResult_v5(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_DeleteTopicsResponse_v6(buf, pos):
    o = _new(DeleteTopicsResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_DeletableTopicResult_v6(buf, pos)
        a.append(e)
    o.responses = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_DeleteTopicsResponse_v6(o, out, parts):
    out += _P_i(o.throttle_time_ms)
    x = o.responses
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_DeletableTopicResult_v6(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteTopicsResponse_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_DeleteTopicsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteTopicsResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteTopicsResponse_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_DeleteTopicsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteTopicsResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteTopicsResponse_v1(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_DeleteTopicsResponse_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteTopicsResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteTopicsResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_DeleteTopicsResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteTopicsResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteTopicsResponse_v5(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_DeleteTopicsResponse_v5(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteTopicsResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_DeleteTopicsResponse_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_DeleteTopicsResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('DeleteTopicsResponse', 6) from None


MESSAGE = DeleteTopicsResponse
VERSIONS = range(1, 7)
FLEXIBLE_MIN = 4
DECODERS = {1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6}
ENCODERS = {1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'DeleteTopicsResponse': (
        ('throttle_time_ms', 'int32', 1, 6, None),
        ('responses', '[]DeletableTopicResult', 0, 6, None),
    ),
    'DeletableTopicResult': (
        ('name', 'string', 0, 6, 'topicName'),
        ('topic_id', 'uuid', 6, 6, None),
        ('error_code', 'int16', 0, 6, None),
        ('error_message', 'string', 5, 6, None),
    ),
}
