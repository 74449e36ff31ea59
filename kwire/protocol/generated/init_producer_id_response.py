# Generated from protocol_specs by kwire.codegen -- do not edit.
"""InitProducerIdResponse (api key 22): versions 0-6, flexible from v2."""


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
_S_ihqh = _Struct('>ihqh')
_U_ihqh = _S_ihqh.unpack_from
_P_ihqh = _S_ihqh.pack
_S_ihqhqh = _Struct('>ihqhqh')
_U_ihqhqh = _S_ihqhqh.unpack_from
_P_ihqhqh = _S_ihqhqh.pack


class InitProducerIdResponse:
    """InitProducerIdResponse, versions 0-6."""

    __slots__ = ('throttle_time_ms', 'error_code', 'producer_id', 'producer_epoch', 'ongoing_txn_producer_id', 'ongoing_txn_producer_epoch', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, producer_id=-1, producer_epoch=0, ongoing_txn_producer_id=-1, ongoing_txn_producer_epoch=-1, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.ongoing_txn_producer_id = ongoing_txn_producer_id
        self.ongoing_txn_producer_epoch = ongoing_txn_producer_epoch
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.producer_id == other.producer_id
                and self.producer_epoch == other.producer_epoch
                and self.ongoing_txn_producer_id == other.ongoing_txn_producer_id
                and self.ongoing_txn_producer_epoch == other.ongoing_txn_producer_epoch
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_InitProducerIdResponse_v0(buf, pos):
    o = _new(InitProducerIdResponse)
    (o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch,) = _U_ihqh(buf, pos)
    pos += 16
    o.ongoing_txn_producer_id = -1
    o.ongoing_txn_producer_epoch = -1
    o.unknown_tagged_fields = {}
    return o, pos


def _e_InitProducerIdResponse_v0(o, out, parts):
    if o.ongoing_txn_producer_id != -1:
        raise _FieldVersionError('InitProducerIdResponse.OngoingTxnProducerId', '6+')
    if o.ongoing_txn_producer_epoch != -1:
        raise _FieldVersionError('InitProducerIdResponse.OngoingTxnProducerEpoch', '6+')
    if o.unknown_tagged_fields:
        raise _FieldVersionError('InitProducerIdResponse', 'tags')
    out += _P_ihqh(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch)


def _d_InitProducerIdResponse_v2(buf, pos):
    o = _new(InitProducerIdResponse)
    (o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch,) = _U_ihqh(buf, pos)
    pos += 16
    o.ongoing_txn_producer_id = -1
    o.ongoing_txn_producer_epoch = -1
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_InitProducerIdResponse_v2(o, out, parts):
    if o.ongoing_txn_producer_id != -1:
        raise _FieldVersionError('InitProducerIdResponse.OngoingTxnProducerId', '6+')
    if o.ongoing_txn_producer_epoch != -1:
        raise _FieldVersionError('InitProducerIdResponse.OngoingTxnProducerEpoch', '6+')
    out += _P_ihqh(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_InitProducerIdResponse_v6(buf, pos):
    o = _new(InitProducerIdResponse)
    (o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch, o.ongoing_txn_producer_id, o.ongoing_txn_producer_epoch,) = _U_ihqhqh(buf, pos)
    pos += 26
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_InitProducerIdResponse_v6(o, out, parts):
    out += _P_ihqhqh(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch, o.ongoing_txn_producer_id, o.ongoing_txn_producer_epoch)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_InitProducerIdResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdResponse', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdResponse_v0(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_InitProducerIdResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdResponse', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdResponse_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_InitProducerIdResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdResponse', 2) from None


def decode_v3(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdResponse_v2(buf, pos)


def encode_v3(obj, out, parts):
    try:
        _e_InitProducerIdResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdResponse', 3) from None


def decode_v4(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdResponse_v2(buf, pos)


def encode_v4(obj, out, parts):
    try:
        _e_InitProducerIdResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdResponse', 4) from None


def decode_v5(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdResponse_v2(buf, pos)


def encode_v5(obj, out, parts):
    try:
        _e_InitProducerIdResponse_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdResponse', 5) from None


def decode_v6(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_InitProducerIdResponse_v6(buf, pos)


def encode_v6(obj, out, parts):
    try:
        _e_InitProducerIdResponse_v6(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('InitProducerIdResponse', 6) from None


MESSAGE = InitProducerIdResponse
VERSIONS = range(0, 7)
FLEXIBLE_MIN = 2
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2, 3: decode_v3, 4: decode_v4, 5: decode_v5, 6: decode_v6}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2, 3: encode_v3, 4: encode_v4, 5: encode_v5, 6: encode_v6}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'InitProducerIdResponse': (
        ('throttle_time_ms', 'int32', 0, 6, None),
        ('error_code', 'int16', 0, 6, None),
        ('producer_id', 'int64', 0, 6, 'producerId'),
        ('producer_epoch', 'int16', 0, 6, None),
        ('ongoing_txn_producer_id', 'int64', 6, 6, 'producerId'),
        ('ongoing_txn_producer_epoch', 'int16', 6, 6, None),
    ),
}
