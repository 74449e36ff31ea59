# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AddPartitionsToTxnResponse (api key 24): versions 0-5, flexible from v3."""


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
_S_ih = _Struct('>ih')
_U_ih = _S_ih.unpack_from
_P_ih = _S_ih.pack


class AddPartitionsToTxnResponse:
    """AddPartitionsToTxnResponse, versions 0-5."""

    __slots__ = ('throttle_time_ms', 'error_code', 'results_by_transaction', 'results_by_topic_v3_and_below', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, results_by_transaction=None, results_by_topic_v3_and_below=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results_by_transaction = [] if results_by_transaction is None else results_by_transaction
        self.results_by_topic_v3_and_below = [] if results_by_topic_v3_and_below is None else results_by_topic_v3_and_below
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.results_by_transaction == other.results_by_transaction
                and self.results_by_topic_v3_and_below == other.results_by_topic_v3_and_below
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AddPartitionsToTxnResult:
    """AddPartitionsToTxnResult struct of AddPartitionsToTxnResponse, versions 4+."""

    __slots__ = ('transactional_id', 'topic_results', 'unknown_tagged_fields',)

    def __init__(self, *, transactional_id='', topic_results=None, unknown_tagged_fields=None):
        self.transactional_id = transactional_id
        self.topic_results = [] if topic_results is None else topic_results
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.transactional_id == other.transactional_id
                and self.topic_results == other.topic_results
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AddPartitionsToTxnTopicResult:
    """AddPartitionsToTxnTopicResult struct of AddPartitionsToTxnResponse, versions 0+."""

    __slots__ = ('name', 'results_by_partition', 'unknown_tagged_fields',)

    def __init__(self, *, name='', results_by_partition=None, unknown_tagged_fields=None):
        self.name = name
        self.results_by_partition = [] if results_by_partition is None else results_by_partition
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name
                and self.results_by_partition == other.results_by_partition
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AddPartitionsToTxnPartitionResult:
    """AddPartitionsToTxnPartitionResult struct of AddPartitionsToTxnResponse, versions 0+."""

    __slots__ = ('partition_index', 'partition_error_code', 'unknown_tagged_fields',)

    def __init__(self, *, partition_index=0, partition_error_code=0, unknown_tagged_fields=None):
        self.partition_index = partition_index
        self.partition_error_code = partition_error_code
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.partition_index == other.partition_index
                and self.partition_error_code == other.partition_error_code
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_AddPartitionsToTxnPartitionResult_v0(buf, pos):
    o = _new(AddPartitionsToTxnPartitionResult)
    (o.partition_index, o.partition_error_code,) = _U_ih(buf, pos)
    pos += 6
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AddPartitionsToTxnPartitionResult_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AddPartitionsToTxnPartitionResult', 'tags')
    out += _P_ih(o.partition_index, o.partition_error_code)


def _d_AddPartitionsToTxnPartitionResult_v3(buf, pos):
    o = _new(AddPartitionsToTxnPartitionResult)
    (o.partition_index, o.partition_error_code,) = _U_ih(buf, pos)
    pos += 6
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddPartitionsToTxnPartitionResult_v3(o, out, parts):
    out += _P_ih(o.partition_index, o.partition_error_code)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AddPartitionsToTxnTopicResult_v0(buf, pos):
    o = _new(AddPartitionsToTxnTopicResult)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnPartitionResult_v0(buf, pos)
        a.append(e)
    o.results_by_partition = a
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AddPartitionsToTxnTopicResult_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AddPartitionsToTxnTopicResult', 'tags')
    _w_str(out, o.name)
    x = o.results_by_partition
    out += _P_len(len(x))
    for e in x:
        _e_AddPartitionsToTxnPartitionResult_v0(e, out, parts)


def _d_AddPartitionsToTxnTopicResult_v3(buf, pos):
    o = _new(AddPartitionsToTxnTopicResult)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnPartitionResult_v3(buf, pos)
        a.append(e)
    o.results_by_partition = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddPartitionsToTxnTopicResult_v3(o, out, parts):
    _w_cstr(out, o.name)
    x = o.results_by_partition
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AddPartitionsToTxnPartitionResult_v3(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AddPartitionsToTxnResult_v4(buf, pos):
    o = _new(AddPartitionsToTxnResult)
    o.transactional_id, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnTopicResult_v3(buf, pos)
        a.append(e)
    o.topic_results = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddPartitionsToTxnResult_v4(o, out, parts):
    _w_cstr(out, o.transactional_id)
    x = o.topic_results
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AddPartitionsToTxnTopicResult_v3(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AddPartitionsToTxnResponse_v0(buf, pos):
    o = _new(AddPartitionsToTxnResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnTopicResult_v0(buf, pos)
        a.append(e)
    o.results_by_topic_v3_and_below = a
    o.error_code = 0
    o.results_by_transaction = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AddPartitionsToTxnResponse_v0(o, out, parts):
    if o.results_by_transaction != []:
        raise _FieldVersionError('AddPartitionsToTxnResponse.ResultsByTransaction', '4+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AddPartitionsToTxnResponse', 'tags')
    out += _P_i(o.throttle_time_ms)
    x = o.results_by_topic_v3_and_below
    out += _P_len(len(x))
    for e in x:
        _e_AddPartitionsToTxnTopicResult_v0(e, out, parts)


def _d_AddPartitionsToTxnResponse_v3(buf, pos):
    o = _new(AddPartitionsToTxnResponse)
    (o.throttle_time_ms,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnTopicResult_v3(buf, pos)
        a.append(e)
    o.results_by_topic_v3_and_below = a
    o.error_code = 0
    o.results_by_transaction = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddPartitionsToTxnResponse_v3(o, out, parts):
    if o.results_by_transaction != []:
        raise _FieldVersionError('AddPartitionsToTxnResponse.ResultsByTransaction', '4+')
    out += _P_i(o.throttle_time_ms)
    x = o.results_by_topic_v3_and_below
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AddPartitionsToTxnTopicResult_v3(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AddPartitionsToTxnResponse_v4(buf, pos):
    o = _new(AddPartitionsToTxnResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnResult_v4(buf, pos)
        a.append(e)
    o.results_by_transaction = a
    o.results_by_topic_v3_and_below = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddPartitionsToTxnResponse_v4(o, out, parts):
    if o.results_by_topic_v3_and_below != []:
        raise _FieldVersionError('AddPartitionsToTxnResponse.ResultsByTopicV3AndBelow', '0-3')
    out += _P_ih(o.throttle_time_ms, o.error_code)
    x = o.results_by_transaction
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AddPartitionsToTxnResult_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AddPartitionsToTxnResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnResponse_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AddPartitionsToTxnResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnResponse_v0(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_AddPartitionsToTxnResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnResponse_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_AddPartitionsToTxnResponse_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnResponse_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_AddPartitionsToTxnResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnResponse_v4(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_AddPartitionsToTxnResponse_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnResponse', 5) from None


MESSAGE = AddPartitionsToTxnResponse
VERSIONS = range(0, 6)
FLEXIBLE_MIN = 3
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AddPartitionsToTxnResponse': (
        ('throttle_time_ms', 'int32', 0, 5, None),
        ('error_code', 'int16', 4, 5, None),
        ('results_by_transaction', '[]AddPartitionsToTxnResult', 4, 5, None),
        ('results_by_topic_v3_and_below', '[]AddPartitionsToTxnTopicResult', 0, 3, None),
    ),
    'AddPartitionsToTxnResult': (
        ('transactional_id', 'string', 4, 5, 'transactionalId'),
        ('topic_results', '[]AddPartitionsToTxnTopicResult', 4, 5, None),
    ),
    'AddPartitionsToTxnTopicResult': (
        ('name', 'string', 0, 5, 'topicName'),
        ('results_by_partition', '[]AddPartitionsToTxnPartitionResult', 0, 5, None),
    ),
    'AddPartitionsToTxnPartitionResult': (
        ('partition_index', 'int32', 0, 5, None),
        ('partition_error_code', 'int16', 0, 5, None),
    ),
}
