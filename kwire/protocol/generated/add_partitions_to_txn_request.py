# Generated from protocol_specs by kwire.codegen -- do not edit.
"""AddPartitionsToTxnRequest (api key 24): versions 0-5, flexible from v3."""


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
_S_qh = _Struct('>qh')
_U_qh = _S_qh.unpack_from
_P_qh = _S_qh.pack
_S_qho = _Struct('>qh?')
_U_qho = _S_qho.unpack_from
_P_qho = _S_qho.pack


class AddPartitionsToTxnRequest:
    """AddPartitionsToTxnRequest, versions 0-5."""

    __slots__ = ('transactions', 'v3_and_below_transactional_id', 'v3_and_below_producer_id', 'v3_and_below_producer_epoch', 'v3_and_below_topics', 'unknown_tagged_fields',)

    def __init__(self, *, transactions=None, v3_and_below_transactional_id='', v3_and_below_producer_id=0, v3_and_below_producer_epoch=0, v3_and_below_topics=None, unknown_tagged_fields=None):
        self.transactions = [] if transactions is None else transactions
        self.v3_and_below_transactional_id = v3_and_below_transactional_id
        self.v3_and_below_producer_id = v3_and_below_producer_id
        self.v3_and_below_producer_epoch = v3_and_below_producer_epoch
        self.v3_and_below_topics = [] if v3_and_below_topics is None else v3_and_below_topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.transactions == other.transactions
                and self.v3_and_below_transactional_id == other.v3_and_below_transactional_id
                and self.v3_and_below_producer_id == other.v3_and_below_producer_id
                and self.v3_and_below_producer_epoch == other.v3_and_below_producer_epoch
                and self.v3_and_below_topics == other.v3_and_below_topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AddPartitionsToTxnTransaction:
    """AddPartitionsToTxnTransaction struct of AddPartitionsToTxnRequest, versions 4+."""

    __slots__ = ('transactional_id', 'producer_id', 'producer_epoch', 'verify_only', 'topics', 'unknown_tagged_fields',)

    def __init__(self, *, transactional_id='', producer_id=0, producer_epoch=0, verify_only=False, topics=None, unknown_tagged_fields=None):
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.verify_only = verify_only
        self.topics = [] if topics is None else topics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.transactional_id == other.transactional_id
                and self.producer_id == other.producer_id
                and self.producer_epoch == other.producer_epoch
                and self.verify_only == other.verify_only
                and self.topics == other.topics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


class AddPartitionsToTxnTopic:
    """AddPartitionsToTxnTopic struct of AddPartitionsToTxnRequest, versions 0+."""

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


def _d_AddPartitionsToTxnTopic_v0(buf, pos):
    o = _new(AddPartitionsToTxnTopic)
    o.name, pos = _r_str(buf, pos)
    n, pos = _r_alen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AddPartitionsToTxnTopic_v0(o, out, parts):
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AddPartitionsToTxnTopic', 'tags')
    _w_str(out, o.name)
    x = o.partitions
    out += _P_len(len(x))
    _w_fixed(out, 'i', x)


def _d_AddPartitionsToTxnTopic_v3(buf, pos):
    o = _new(AddPartitionsToTxnTopic)
    o.name, pos = _r_cstr(buf, pos)
    n, pos = _r_calen(buf, pos)
    o.partitions, pos = _r_fixed(buf, pos, n, 'i')
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddPartitionsToTxnTopic_v3(o, out, parts):
    _w_cstr(out, o.name)
    x = o.partitions
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'i', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AddPartitionsToTxnTransaction_v4(buf, pos):
    o = _new(AddPartitionsToTxnTransaction)
    o.transactional_id, pos = _r_cstr(buf, pos)
    (o.producer_id, o.producer_epoch, o.verify_only,) = _U_qho(buf, pos)
    pos += 11
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnTopic_v3(buf, pos)
        a.append(e)
    o.topics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddPartitionsToTxnTransaction_v4(o, out, parts):
    _w_cstr(out, o.transactional_id)
    out += _P_qho(o.producer_id, o.producer_epoch, o.verify_only)
    x = o.topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AddPartitionsToTxnTopic_v3(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AddPartitionsToTxnRequest_v0(buf, pos):
    o = _new(AddPartitionsToTxnRequest)
    o.v3_and_below_transactional_id, pos = _r_str(buf, pos)
    (o.v3_and_below_producer_id, o.v3_and_below_producer_epoch,) = _U_qh(buf, pos)
    pos += 10
    n, pos = _r_alen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnTopic_v0(buf, pos)
        a.append(e)
    o.v3_and_below_topics = a
    o.transactions = []
    o.unknown_tagged_fields = {}
    return o, pos


def _e_AddPartitionsToTxnRequest_v0(o, out, parts):
    if o.transactions != []:
        raise _FieldVersionError('AddPartitionsToTxnRequest.Transactions', '4+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('AddPartitionsToTxnRequest', 'tags')
    _w_str(out, o.v3_and_below_transactional_id)
    out += _P_qh(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch)
    x = o.v3_and_below_topics
    out += _P_len(len(x))
    for e in x:
        _e_AddPartitionsToTxnTopic_v0(e, out, parts)


def _d_AddPartitionsToTxnRequest_v3(buf, pos):
    o = _new(AddPartitionsToTxnRequest)
    o.v3_and_below_transactional_id, pos = _r_cstr(buf, pos)
    (o.v3_and_below_producer_id, o.v3_and_below_producer_epoch,) = _U_qh(buf, pos)
    pos += 10
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnTopic_v3(buf, pos)
        a.append(e)
    o.v3_and_below_topics = a
    o.transactions = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddPartitionsToTxnRequest_v3(o, out, parts):
    if o.transactions != []:
        raise _FieldVersionError('AddPartitionsToTxnRequest.Transactions', '4+')
    _w_cstr(out, o.v3_and_below_transactional_id)
    out += _P_qh(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch)
    x = o.v3_and_below_topics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AddPartitionsToTxnTopic_v3(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_AddPartitionsToTxnRequest_v4(buf, pos):
    o = _new(AddPartitionsToTxnRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _d_AddPartitionsToTxnTransaction_v4(buf, pos)
        a.append(e)
    o.transactions = a
    o.v3_and_below_transactional_id = ''
    o.v3_and_below_producer_id = 0
    o.v3_and_below_producer_epoch = 0
    o.v3_and_below_topics = []
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_AddPartitionsToTxnRequest_v4(o, out, parts):
    if o.v3_and_below_transactional_id != '':
        raise _FieldVersionError('AddPartitionsToTxnRequest.V3AndBelowTransactionalId', '0-3')
    if o.v3_and_below_producer_id != 0:
        raise _FieldVersionError('AddPartitionsToTxnRequest.V3AndBelowProducerId', '0-3')
    if o.v3_and_below_producer_epoch != 0:
        raise _FieldVersionError('AddPartitionsToTxnRequest.V3AndBelowProducerEpoch', '0-3')
    if o.v3_and_below_topics != []:
        raise _FieldVersionError('AddPartitionsToTxnRequest.V3AndBelowTopics', '0-3')
    x = o.transactions
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _e_AddPartitionsToTxnTransaction_v4(e, out, parts)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_AddPartitionsToTxnRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_AddPartitionsToTxnRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnRequest_v0(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_AddPartitionsToTxnRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_AddPartitionsToTxnRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnRequest_v4(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_AddPartitionsToTxnRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_AddPartitionsToTxnRequest_v4(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_AddPartitionsToTxnRequest_v4(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('AddPartitionsToTxnRequest', 5) from None


MESSAGE = AddPartitionsToTxnRequest
VERSIONS = range(0, 6)
FLEXIBLE_MIN = 3
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'AddPartitionsToTxnRequest': (
        ('transactions', '[]AddPartitionsToTxnTransaction', 4, 5, None),
        ('v3_and_below_transactional_id', 'string', 0, 3, 'transactionalId'),
        ('v3_and_below_producer_id', 'int64', 0, 3, 'producerId'),
        ('v3_and_below_producer_epoch', 'int16', 0, 3, None),
        ('v3_and_below_topics', '[]AddPartitionsToTxnTopic', 0, 3, None),
    ),
    'AddPartitionsToTxnTransaction': (
        ('transactional_id', 'string', 4, 5, 'transactionalId'),
        ('producer_id', 'int64', 4, 5, 'producerId'),
        ('producer_epoch', 'int16', 4, 5, None),
        ('verify_only', 'bool', 4, 5, None),
        ('topics', '[]AddPartitionsToTxnTopic', 4, 5, None),
    ),
    'AddPartitionsToTxnTopic': (
        ('name', 'string', 0, 5, 'topicName'),
        ('partitions', '[]int32', 0, 5, None),
    ),
}
