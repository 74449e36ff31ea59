"""Round trip of every broker API x version x (request, response) through codec.py.

One test per message: each Hypothesis example is drawn once for all the message's versions
(``all_versions_strategy``) and projected onto every version (``at_version``); each projection
is encoded into a full frame (size prefix, header, body), decoded again and compared. A failure
names the version (``naming_version``). Drawing per version instead cost ~4x the CPU for the
same examples per version (the draws, not the codec, are the cost).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from kwire.protocol import codec
from test_codec_strategies import PAIRS, all_versions_strategy, at_version, naming_version

MESSAGES = [msg for pair in PAIRS for msg in pair]

_SETTINGS = settings(max_examples=6, deadline=None, database=None,
                     suppress_health_check=list(HealthCheck))


def _frame_body(frame) -> bytes:
    data = frame if isinstance(frame, (bytes, bytearray)) else b"".join(frame)
    assert int.from_bytes(data[:4], "big", signed=True) == len(data) - 4
    return bytes(data[4:])


def test_case_count():
    assert len(MESSAGES) >= 150
    assert sum(len(msg.versions) for msg in MESSAGES) > 500


def _roundtrip(msg, v, obj) -> None:
    api_key = msg.api_key
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


@pytest.mark.parametrize("msg", [pytest.param(m, id=m.name) for m in MESSAGES])
def test_roundtrip(msg):
    @_SETTINGS
    @given(all_versions_strategy(msg))
    def check(obj):
        for v in msg.versions:
            with naming_version(msg, v):
                _roundtrip(msg, v, at_version(msg, obj, v))

    check()
