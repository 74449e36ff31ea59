# Generated from protocol_specs by kwire.codegen -- do not edit.
"""GetTelemetrySubscriptionsResponse (api key 71): versions 0-0, flexible from v0."""


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
_S_iio = _Struct('>ii?')
_U_iio = _S_iio.unpack_from
_P_iio = _S_iio.pack


class GetTelemetrySubscriptionsResponse:
    """GetTelemetrySubscriptionsResponse, versions 0."""

    __slots__ = ('throttle_time_ms', 'error_code', 'client_instance_id', 'subscription_id', 'accepted_compression_types', 'push_interval_ms', 'telemetry_max_bytes', 'delta_temporality', 'requested_metrics', 'unknown_tagged_fields',)

    def __init__(self, *, throttle_time_ms=0, error_code=0, client_instance_id=_ZERO_UUID, subscription_id=0, accepted_compression_types=None, push_interval_ms=0, telemetry_max_bytes=0, delta_temporality=False, requested_metrics=None, unknown_tagged_fields=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.client_instance_id = client_instance_id
        self.subscription_id = subscription_id
        self.accepted_compression_types = [] if accepted_compression_types is None else accepted_compression_types
        self.push_interval_ms = push_interval_ms
        self.telemetry_max_bytes = telemetry_max_bytes
        self.delta_temporality = delta_temporality
        self.requested_metrics = [] if requested_metrics is None else requested_metrics
        self.unknown_tagged_fields = {} if unknown_tagged_fields is None else unknown_tagged_fields

    __repr__ = _repr

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms
                and self.error_code == other.error_code
                and self.client_instance_id == other.client_instance_id
                and self.subscription_id == other.subscription_id
                and self.accepted_compression_types == other.accepted_compression_types
                and self.push_interval_ms == other.push_interval_ms
                and self.telemetry_max_bytes == other.telemetry_max_bytes
                and self.delta_temporality == other.delta_temporality
                and self.requested_metrics == other.requested_metrics
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None


def _d_GetTelemetrySubscriptionsResponse_v0(buf, pos):
    o = _new(GetTelemetrySubscriptionsResponse)
    (o.throttle_time_ms, o.error_code,) = _U_ih(buf, pos)
    pos += 6
    o.client_instance_id, pos = _r_uuid(buf, pos)
    (o.subscription_id,) = _U_i(buf, pos)
    pos += 4
    n, pos = _r_calen(buf, pos)
    o.accepted_compression_types, pos = _r_fixed(buf, pos, n, 'b')
    (o.push_interval_ms, o.telemetry_max_bytes, o.delta_temporality,) = _U_iio(buf, pos)
    pos += 9
    n, pos = _r_calen(buf, pos)
    a = []
    for _ in range(n):
        e, pos = _r_cstr(buf, pos)
        a.append(e)
    o.requested_metrics = a
    if buf[pos]:
        o.unknown_tagged_fields, pos = _r_tags(buf, pos)
    else:
        o.unknown_tagged_fields = {}
        pos += 1
    return o, pos


def _e_GetTelemetrySubscriptionsResponse_v0(o, out, parts):
    out += _P_ih(o.throttle_time_ms, o.error_code)
    out += o.client_instance_id.bytes
    out += _P_i(o.subscription_id)
    x = o.accepted_compression_types
    _w_uvarint(out, len(x) + 1)
    _w_fixed(out, 'b', x)
    out += _P_iio(o.push_interval_ms, o.telemetry_max_bytes, o.delta_temporality)
    x = o.requested_metrics
    _w_uvarint(out, len(x) + 1)
    for e in x:
        _w_cstr(out, e)
    u = o.unknown_tagged_fields
    if u:
        _w_tags(out, None, u)
    else:
        out.append(0)


def decode_v0(buf, pos=0):
    if buf.__class__ is not memoryview:
        buf = memoryview(buf)
    return _d_GetTelemetrySubscriptionsResponse_v0(buf, pos)


def encode_v0(obj, out, parts):
    try:
        _e_GetTelemetrySubscriptionsResponse_v0(obj, out, parts)
    except _FieldVersionError as exc:
        raise exc.at('GetTelemetrySubscriptionsResponse', 0) from None


MESSAGE = GetTelemetrySubscriptionsResponse
VERSIONS = range(0, 1)
FLEXIBLE_MIN = 0
DECODERS = {0: decode_v0}
ENCODERS = {0: encode_v0}


# struct -> ((attr, type, first version, last version, entity type), ...)
FIELDS = {
    'GetTelemetrySubscriptionsResponse': (
        ('throttle_time_ms', 'int32', 0, 0, None),
        ('error_code', 'int16', 0, 0, None),
        ('client_instance_id', 'uuid', 0, 0, None),
        ('subscription_id', 'int32', 0, 0, None),
        ('accepted_compression_types', '[]int8', 0, 0, None),
        ('push_interval_ms', 'int32', 0, 0, None),
        ('telemetry_max_bytes', 'int32', 0, 0, None),
        ('delta_temporality', 'bool', 0, 0, None),
        ('requested_metrics', '[]string', 0, 0, None),
    ),
}
