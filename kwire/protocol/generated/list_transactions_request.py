# Generated from protocol_specs by kwire.codegen -- do not edit.
"""ListTransactionsRequest (api key 66): versions 0-2, flexible from v0."""


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
_S_q = _Struct('>q')
_U_q = _S_q.unpack_from
_P_q = _S_q.pack


class ListTransactionsRequest:
    """ListTransactionsRequest, versions 0-2."""

    __slots__ = ('state_filters', 'producer_id_filters', 'duration_filter', 'transactional_id_pattern', 'unknown_tagged_fields',)

    def __init__(self, *, state_filters=None, producer_id_filters=None, duration_filter=-1, transactional_id_pattern=None, unknown_tagged_fields=None):
        self.state_filters = [] if state_filters is None else state_filters
        self.producer_id_filters = [] if producer_id_filters is None else producer_id_filters
        self.duration_filter = duration_filter
        self.transactional_id_pattern = transactional_id_pattern
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.state_filters == other.state_filters
                and self.producer_id_filters == other.producer_id_filters
                and self.duration_filter == other.duration_filter
                and self.transactional_id_pattern == other.transactional_id_pattern
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_ListTransactionsRequest_v0(buf, pos):
    o = _new(ListTransactionsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_cstr(buf, pos)
        a.append(e)
    o.state_filters = a
    n, pos = _r_calen(buf, pos)
    o.producer_id_filters, pos = _r_fixed(buf, pos, n, 'q')
    o.duration_filter = -1
    o.transactional_id_pattern = None
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListTransactionsRequest_v0(o, out, parts):
    if o.duration_filter != -1:
        raise _FieldVersionError('ListTransactionsRequest.DurationFilter', '1+')
    if o.transactional_id_pattern is not None:
        raise _FieldVersionError('ListTransactionsRequest.TransactionalIdPattern', '2+')
    x = o.state_filters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _w_cstr(out, e)
    x = o.producer_id_filters
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'q', x)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ListTransactionsRequest_v1(buf, pos):
    o = _new(ListTransactionsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_cstr(buf, pos)
        a.append(e)
    o.state_filters = a
    n, pos = _r_calen(buf, pos)
    o.producer_id_filters, pos = _r_fixed(buf, pos, n, 'q')
    (o.duration_filter,) = _U_q(buf, pos)
    pos += 8
    o.transactional_id_pattern = None
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListTransactionsRequest_v1(o, out, parts):
    if o.transactional_id_pattern is not None:
        raise _FieldVersionError('ListTransactionsRequest.TransactionalIdPattern', '2+')
    x = o.state_filters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _w_cstr(out, e)
    x = o.producer_id_filters
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'q', x)
    out += _P_q(o.duration_filter)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def _d_ListTransactionsRequest_v2(buf, pos):
    o = _new(ListTransactionsRequest)
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_cstr(buf, pos)
        a.append(e)
    o.state_filters = a
    n, pos = _r_calen(buf, pos)
    o.producer_id_filters, pos = _r_fixed(buf, pos, n, 'q')
    (o.duration_filter,) = _U_q(buf, pos)
    pos += 8
    o.transactional_id_pattern, pos = _r_cnstr(buf, pos)
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_ListTransactionsRequest_v2(o, out, parts):
    x = o.state_filters
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _w_cstr(out, e)
    x = o.producer_id_filters
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'q', x)
    out += _P_q(o.duration_filter)
    _w_cnstr(out, o.transactional_id_pattern)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListTransactionsRequest_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_ListTransactionsRequest_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListTransactionsRequest', 0) from None


def decode_v1(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListTransactionsRequest_v1(buf, pos)


def encode_v1(obj, out, parts):
    try:
        _e_ListTransactionsRequest_v1(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListTransactionsRequest', 1) from None


def decode_v2(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_ListTransactionsRequest_v2(buf, pos)


def encode_v2(obj, out, parts):
    try:
        _e_ListTransactionsRequest_v2(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('ListTransactionsRequest', 2) from None


MESSAGE = ListTransactionsRequest
VERSIONS = range(0, 3)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0, 1: decode_v1, 2: decode_v2}
ENCODERS = {0: encode_v0, 1: encode_v1, 2: encode_v2}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'ListTransactionsRequest': (
        ('state_filters', '[]string', 0, 2, None),
        ('producer_id_filters', '[]int64', 0, 2, 'producerId'),
        ('duration_filter', 'int64', 1, 2, None),
        ('transactional_id_pattern', 'string', 2, 2, None),
    ),
}
