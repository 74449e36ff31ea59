# Generated from protocol_specs by kwire.codegen -- do not edit.
"""MetadataRequest (api key 3): versions 0-13, flexible from v9."""


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
_S_oo = _Struct('>??')
_U_oo = _S_oo.unpack_from
_P_oo = _S_oo.pack
_S_ooo = _Struct('>???')
_U_ooo = _S_ooo.unpack_from
_P_ooo = _S_ooo.pack


class MetadataRequest:
    """MetadataRequest, versions 0-13."""

    __slots__ = ('topics', 'allow_auto_topic_creation', 'include_cluster_authorized_operations', 'include_topic_authorized_operations', 'unknown_tagged_fields',)

    def __init__(self, *, topics=_MISSING, allow_auto_topic_creation=True, include_cluster_authorized_operations=False, include_topic_authorized_operations=False, unknown_tagged_fields=None):
        self.topics = [] if topics is _MISSING else topics
        self.allow_auto_topic_creation = allow_auto_topic_creation
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.include_topic_authorized_operations = include_topic_authorized_operations
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topics == other.topics
                and self.allow_auto_topic_creation == other.allow_auto_topic_creation
                and self.include_cluster_authorized_operations == other.include_cluster_authorized_operations
                and self.include_topic_authorized_operations == other.include_topic_authorized_operations
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class MetadataRequestTopic:
    """MetadataRequestTopic struct of MetadataRequest, versions 0+."""

    __slots__ = ('topic_id', 'name', 'unknown_tagged_fields',)

    def __init__(self, *, topic_id=_ZERO_UUID, name='', unknown_tagged_fields=None):
        self.topic_id = topic_id
        self.name = name
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.topic_id == other.topic_id
                and self.name == other.name
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_MetadataRequestTopic_v0(buf, pos):
    o = _new(MetadataRequestTopic)
    o.name, pos = _r_str(buf, pos)
    o.topic_id = _ZERO_UUID
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataRequestTopic_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataRequestTopic', 'tags')
    if o.name is None:
        raise _FieldVersionError('MetadataRequestTopic.Name', 'null')
    _w_str(out, o.name)


def _d_MetadataRequestTopic_v9(buf, pos):
    o = _new(MetadataRequestTopic)
    o.name, pos = _r_cstr(buf, pos)
    o.topic_id = _ZERO_UUID
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataRequestTopic_v9(o, out, parts):
    if o.name is None:
        raise _FieldVersionError('MetadataRequestTopic.Name', 'null')
    _w_cstr(out, o.name)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataRequestTopic_v10(buf, pos):
    o = _new(MetadataRequestTopic)
    o.topic_id, pos = _r_uuid(buf, pos)
    o.name, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataRequestTopic_v10(o, out, parts):
    out += o.topic_id.bytes
    _w_cnstr(out, o.name)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataRequest_v0(buf, pos):
    o = _new(MetadataRequest)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_MetadataRequestTopic_v0(buf, pos)
        a.append(e)
    o.topics = a
    o.allow_auto_topic_creation = True
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataRequest_v0(o, out, parts):
    if o.allow_auto_topic_creation != True:
        raise _FieldVersionError('MetadataRequest.AllowAutoTopicCreation', '4+')
    if o.include_cluster_authorized_operations != False:
        raise _FieldVersionError('MetadataRequest.IncludeClusterAuthorizedOperations', '8-10')
    if o.include_topic_authorized_operations != False:
        raise _FieldVersionError('MetadataRequest.IncludeTopicAuthorizedOperations', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataRequest', 'tags')
    if o.topics is None:
        raise _FieldVersionError('MetadataRequest.Topics', 'null')
    x = o.topics
    out += _P_len(len(x))
    for e in x:
        _e_MetadataRequestTopic_v0(e, out, parts)


def _d_MetadataRequest_v1(buf, pos):
    o = _new(MetadataRequest)
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_MetadataRequestTopic_v0(buf, pos)
            a.append(e)
        o.topics = a
    o.allow_auto_topic_creation = True
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataRequest_v1(o, out, parts):
    if o.allow_auto_topic_creation != True:
        raise _FieldVersionError('MetadataRequest.AllowAutoTopicCreation', '4+')
    if o.include_cluster_authorized_operations != False:
        raise _FieldVersionError('MetadataRequest.IncludeClusterAuthorizedOperations', '8-10')
    if o.include_topic_authorized_operations != False:
        raise _FieldVersionError('MetadataRequest.IncludeTopicAuthorizedOperations', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataRequest', 'tags')
    x = o.topics
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_MetadataRequestTopic_v0(e, out, parts)


def _d_MetadataRequest_v4(buf, pos):
    o = _new(MetadataRequest)
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_MetadataRequestTopic_v0(buf, pos)
            a.append(e)
        o.topics = a
    (o.allow_auto_topic_creation,) = _U_o(buf, pos)
    pos += 1
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataRequest_v4(o, out, parts):
    if o.include_cluster_authorized_operations != False:
        raise _FieldVersionError('MetadataRequest.IncludeClusterAuthorizedOperations', '8-10')
    if o.include_topic_authorized_operations != False:
        raise _FieldVersionError('MetadataRequest.IncludeTopicAuthorizedOperations', '8+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataRequest', 'tags')
    x = o.topics
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_MetadataRequestTopic_v0(e, out, parts)
    out += _P_o(o.allow_auto_topic_creation)


def _d_MetadataRequest_v8(buf, pos):
    o = _new(MetadataRequest)
    n, pos = _r_nalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_MetadataRequestTopic_v0(buf, pos)
            a.append(e)
        o.topics = a
    (o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations,) = _U_ooo(buf, pos)
    pos += 3
    o.unknown_tagged_fields = {}
    return o, pos


def _e_MetadataRequest_v8(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('MetadataRequest', 'tags')
    x = o.topics
    if x is None:
        out += b'\xff\xff\xff\xff'
    else:
        out += _P_len(len(x))
        for e in x:
            _e_MetadataRequestTopic_v0(e, out, parts)
    out += _P_ooo(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations)


def _d_MetadataRequest_v9(buf, pos):
    o = _new(MetadataRequest)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_MetadataRequestTopic_v9(buf, pos)
            a.append(e)
        o.topics = a
    (o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations,) = _U_ooo(buf, pos)
    pos += 3
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataRequest_v9(o, out, parts):
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_MetadataRequestTopic_v9(e, out, parts)
    out += _P_ooo(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataRequest_v10(buf, pos):
    o = _new(MetadataRequest)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_MetadataRequestTopic_v10(buf, pos)
            a.append(e)
        o.topics = a
    (o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations,) = _U_ooo(buf, pos)
    pos += 3
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataRequest_v10(o, out, parts):
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_MetadataRequestTopic_v10(e, out, parts)
    out += _P_ooo(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_MetadataRequest_v11(buf, pos):
    o = _new(MetadataRequest)
    n, pos = _r_cnalen(buf, pos)
    if n is None:
        o.topics = None
    else:
        a = []
        for _ in range(n):
            e, pos = _d_MetadataRequestTopic_v10(buf, pos)
            a.append(e)
        o.topics = a
    (o.allow_auto_topic_creation, o.include_topic_authorized_operations,) = _U_oo(buf, pos)
    pos += 2
    o.include_cluster_authorized_operations = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_MetadataRequest_v11(o, out, parts):
    if o.include_cluster_authorized_operations != False:
        raise _FieldVersionError('MetadataRequest.IncludeClusterAuthorizedOperations', '8-10')
    x = o.topics
    if x is None:
        out.append(0)
    else:
        _w_uvarint(out, len(x) + 1)
        for e in x:
            _e_MetadataRequestTopic_v10(e, out, parts)
    out += _P_oo(o.allow_auto_topic_creation, o.include_topic_authorized_operations)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_MetadataRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_MetadataRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v1(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_MetadataRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v1(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_MetadataRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_MetadataRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v4(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_MetadataRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v4(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_MetadataRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 6) from None


def decode_v7(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v4(buf, pos)


def encode_v7(obj, out, parts):
    try:
        _e_MetadataRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 7) from None


def decode_v8(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v8(buf, pos)


def encode_v8(obj, out, parts):
    try:
        _e_MetadataRequest_v8(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 8) from None


def decode_v9(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v9(buf, pos)


def encode_v9(obj, out, parts):
    try:
        _e_MetadataRequest_v9(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 9) from None


def decode_v10(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v10(buf, pos)


def encode_v10(obj, out, parts):
    try:
        _e_MetadataRequest_v10(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 10) from None


def decode_v11(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v11(buf, pos)


def encode_v11(obj, out, parts):
    try:
        _e_MetadataRequest_v11(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 11) from None


def decode_v12(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v11(buf, pos)


def encode_v12(obj, out, parts):
    try:
        _e_MetadataRequest_v11(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 12) from None


def decode_v13(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_MetadataRequest_v11(buf, pos)


def encode_v13(obj, out, parts):
    try:
        _e_MetadataRequest_v11(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('MetadataRequest', 13) from None


MESSAGE = MetadataRequest
VERSIONS = range(0, 14)
FLEXIBLE_MIN = 9
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6, 7: decode_v7, 8: decode_v8, 9: decode_v9, 10: decode_v10, 11: decode_v11, 12: decode_v12, 13: decode_v13}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6, 7: encode_v7, 8: encode_v8, 9: encode_v9, 10: encode_v10, 11: encode_v11, 12: encode_v12, 13: encode_v13}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'MetadataRequest': (
        ('topics', '[]MetadataRequestTopic', 0, 13, None),
        ('allow_auto_topic_creation', 'bool', 4, 13, None),
        ('include_cluster_authorized_operations', 'bool', 8, 10, None),
        ('include_topic_authorized_operations', 'bool', 8, 13, None),
    ),
    'MetadataRequestTopic': (
        ('topic_id', 'uuid', 10, 13, None),
        ('name', 'string', 0, 13, 'topicName'),
    ),
}
