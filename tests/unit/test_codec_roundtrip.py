"""Round trip of every broker API x version x (request, response) through codec.py.

Objects are drawn from strategies derived from the spec model, encoded into
a full frame (size prefix, header, body), decoded again and compared.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from kwire.protocol import codec
from test_codec_strategies import PAIRS, message_strategy

CASES = [
    pytest.param(msg, v, id=f"{msg.name}-v{v}")
    for pair in PAIRS
    for msg in pair
    for v in msg.versions
]

_SETTINGS = settings(max_examples=6, deadline=None, database=None,
                     suppress_health_check=list(HealthCheck))


def _frame_body(frame) -> bytes:
    data = frame if isinstance(frame, (bytes, bytearray)) else b"".join(frame)
    assert int.from_bytes(data[:4], "big", signed=True) == len(data) - 4
    return bytes(data[4:])


def test_case_count():
    assert len(CASES) > 500


@pytest.mark.parametrize("msg,v", CASES)
def test_roundtrip(msg, v):
    api_key = msg.api_key

    @_SETTINGS
    @given(message_strategy(msg, v))
    def check(obj):
        if msg.type == "request":
            wire = _frame_body(codec.encode_request(api_key, v, 123, "client-1", obj))
            header, pos = codec.decode_request_header(wire)
            assert (header.request_api_key, header.request_api_version) == (api_key, v)
            assert header.correlation_id == 123
            back = codec.decode_request(api_key, v, wire, pos)
            again = _frame_body(codec.encode_request(api_key, v, 123, "client-1", back))
        else:
            wire = _frame_body(codec.encode_response(api_key, v, 321, obj))
            cid, back = codec.decode_response(api_key, v, wire)
            assert cid == 321
            again = _frame_body(codec.encode_response(api_key, v, 321, back))
        assert back == obj
        assert again == wire

    check()
