"""Golden frames captured from real clients decode and re-encode byte for byte.

Every ``tests/golden/<client>/<api>_v<N>_<request|response>.bin`` is picked
up automatically (``<api>`` is the snake-case API name, e.g. ``api_versions``;
the file holds one frame without its 4-byte size prefix).  Requests are
re-encoded as header (unknown header tags kept) + body; responses as
correlation id + header + body.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kwire.codegen.model import snake
from kwire.protocol import codec

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
_NAME = re.compile(r"^(?P<api>[a-z0-9_]+)_v(?P<version>\d+)_(?P<kind>request|response)\.bin$")
_API_BY_SNAKE = {snake(spec.name): key for key, spec in codec.APIS.items()}

FILES = sorted(GOLDEN.glob("*/*.bin"))


def test_golden_files_present():
    clients = {p.parent.name for p in FILES if p.name.startswith("api_versions_")}
    assert {"kafka-python", "aiokafka", "confluent-kafka"} <= clients


def _reencode_request(api_key: int, version: int, frame: bytes) -> tuple[object, bytes]:
    header, pos = codec.decode_request_header(frame)
    assert (header.request_api_key, header.request_api_version) == (api_key, version)
    body = codec.decode_request(api_key, version, frame, pos)
    header_module = codec.message_module("request_header")
    out = bytearray()
    header_module.ENCODERS[codec.request_header_version(api_key, version)](header, out, [])
    out += codec.encode_request_body(api_key, version, body)
    if not header.unknown_tagged_fields:
        # the public framing helper must produce the same bytes
        full = codec.encode_request(api_key, version, header.correlation_id, header.client_id, body)
        assert full[4:] == bytes(out)
    return body, bytes(out)


def _reencode_response(api_key: int, version: int, frame: bytes) -> tuple[object, bytes]:
    correlation_id, body = codec.decode_response(api_key, version, frame)
    chunks = codec.encode_response(api_key, version, correlation_id, body)
    return body, b"".join(chunks)[4:]


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_golden_roundtrip(path):
    m = _NAME.match(path.name)
    assert m, f"golden file name must be <api>_v<N>_<request|response>.bin: {path.name}"
    api = m["api"]
    assert api in _API_BY_SNAKE, f"unknown api {api!r}"
    api_key, version = _API_BY_SNAKE[api], int(m["version"])
    frame = path.read_bytes()
    if m["kind"] == "request":
        body, again = _reencode_request(api_key, version, frame)
    else:
        body, again = _reencode_response(api_key, version, frame)
    assert again == frame, f"{path.name}: decoded {body!r}"
