# Generated from protocol_specs by kwire.codegen -- do not edit.
"""InitProducerIdRequest (api key 22): versions 0-6, flexible from v2."""


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
_S_iqh = _Struct('>iqh')
_U_iqh = _S_iqh.unpack_from
_P_iqh = _S_iqh.pack
_S_iqhoo = _Struct('>iqh??')
_U_iqhoo = _S_iqhoo.unpack_from
_P_iqhoo = _S_iqhoo.pack


class InitProducerIdRequest:
    """InitProducerIdRequest, versions 0-6."""

    __slots__ = ('transactional_id', 'transaction_timeout_ms', 'producer_id', 'producer_epoch', 'enable2_pc', 'keep_prepared_txn', 'unknown_tagged_fields',)

    def __init__(self, *, transactional_id='', transaction_timeout_ms=0, producer_id=-1, producer_epoch=-1, enable2_pc=False, keep_prepared_txn=False, unknown_tagged_fields=None):
        self.transactional_id = transactional_id
        self.transaction_timeout_ms = transaction_timeout_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.enable2_pc = enable2_pc
        self.keep_prepared_txn = keep_prepared_txn
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.transactional_id == other.transactional_id
                and self.transaction_timeout_ms == other.transaction_timeout_ms
                and self.producer_id == other.producer_id
                and self.producer_epoch == other.producer_epoch
                and self.enable2_pc == other.enable2_pc
                and self.keep_prepared_txn == other.keep_prepared_txn
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_InitProducerIdRequest_v0(buf, pos):
    o = _new(InitProducerIdRequest)
    o.transactional_id, pos = _r_nstr(buf, pos)
    (o.transaction_timeout_ms,) = _U_i(buf, pos)
    pos += 4
    o.producer_id = -1
    o.producer_epoch = -1
    o.enable2_pc = False
    o.keep_prepared_txn = False
    o.unknown_tagged_fields = {}
    return o, pos


def _e_InitProducerIdRequest_v0(o, out, parts):
    if o.producer_id != -1:
        raise _FieldVersionError('InitProducerIdRequest.ProducerId', '3+')
    if o.producer_epoch != -1:
        raise _FieldVersionError('InitProducerIdRequest.ProducerEpoch', '3+')
    if o.enable2_pc != False:
        raise _FieldVersionError('InitProducerIdRequest.Enable2Pc', '6+')
    if o.keep_prepared_txn != False:
        raise _FieldVersionError('InitProducerIdRequest.KeepPreparedTxn', '6+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('InitProducerIdRequest', 'tags')
    _w_nstr(out, o.transactional_id)
    out += _P_i(o.transaction_timeout_ms)


def _d_InitProducerIdRequest_v2(buf, pos):
    o = _new(InitProducerIdRequest)
    o.transactional_id, pos = _r_cnstr(buf, pos)
    (o.transaction_timeout_ms,) = _U_i(buf, pos)
    pos += 4
    o.producer_id = -1
    o.producer_epoch = -1
    o.enable2_pc = False
    o.keep_prepared_txn = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_InitProducerIdRequest_v2(o, out, parts):
    if o.producer_id != -1:
        raise _FieldVersionError('InitProducerIdRequest.ProducerId', '3+')
    if o.producer_epoch != -1:
        raise _FieldVersionError('InitProducerIdRequest.ProducerEpoch', '3+')
    if o.enable2_pc != False:
        raise _FieldVersionError('InitProducerIdRequest.Enable2Pc', '6+')
    if o.keep_prepared_txn != False:
        raise _FieldVersionError('InitProducerIdRequest.KeepPreparedTxn', '6+')
    _w_cnstr(out, o.transactional_id)
    out += _P_i(o.transaction_timeout_ms)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_InitProducerIdRequest_v3(buf, pos):
    o = _new(InitProducerIdRequest)
    o.transactional_id, pos = _r_cnstr(buf, pos)
    (o.transaction_timeout_ms, o.producer_id, o.producer_epoch,) = _U_iqh(buf, pos)
    pos += 14
    o.enable2_pc = False
    o.keep_prepared_txn = False
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_InitProducerIdRequest_v3(o, out, parts):
    if o.enable2_pc != False:
        raise _FieldVersionError('InitProducerIdRequest.Enable2Pc', '6+')
    if o.keep_prepared_txn != False:
        raise _FieldVersionError('InitProducerIdRequest.KeepPreparedTxn', '6+')
    _w_cnstr(out, o.transactional_id)
    out += _P_iqh(o.transaction_timeout_ms, o.producer_id, o.producer_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_InitProducerIdRequest_v6(buf, pos):
    o = _new(InitProducerIdRequest)
    o.transactional_id, pos = _r_cnstr(buf, pos)
    (o.transaction_timeout_ms, o.producer_id, o.producer_epoch, o.enable2_pc, o.keep_prepared_txn,) = _U_iqhoo(buf, pos)
    pos += 16
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_InitProducerIdRequest_v6(o, out, parts):
    _w_cnstr(out, o.transactional_id)
    out += _P_iqhoo(o.transaction_timeout_ms, o.producer_id, o.producer_epoch, o.enable2_pc, o.keep_prepared_txn)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_InitProducerIdRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdRequest_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_InitProducerIdRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_InitProducerIdRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdRequest', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdRequest_v3(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_InitProducerIdRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdRequest', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdRequest_v3(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_InitProducerIdRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdRequest', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdRequest_v3(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_InitProducerIdRequest_v3(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdRequest', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdRequest_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_InitProducerIdRequest_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdRequest', 6) from None


MESSAGE = InitProducerIdRequest
VERSIONS = range(0, 7)
FLEXIBLE_MIN = 2
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'InitProducerIdRequest': (
        ('transactional_id', 'string', 0, 6, 'transactionalId'),
        ('transaction_timeout_ms', 'int32', 0, 6, None),
        ('producer_id', 'int64', 3, 6, 'producerId'),
        ('producer_epoch', 'int16', 3, 6, None),
        ('enable2_pc', 'bool', 6, 6, None),
        ('keep_prepared_txn', 'bool', 6, 6, None),
    ),
}
