"""Golden frames captured from real clients decode and re-encode byte for byte.

Every ``tests/golden/<client>/<api>_v<N>_<request|response>.bin`` is picked
up automatically (``<api>`` is the snake-case API name, e.g. ``api_versions``;
the file holds one frame without its 4-byte size prefix).  Requests are
re-encoded as header (unknown header tags kept) + body; responses as
correlation id + header + body.

Every client folder (at least kafka-python, aiokafka, confluent-kafka, java,
kcat) must hold ApiVersions, Metadata, Produce and Fetch requests, and the
record batches inside each Produce request decode with kwire's own batch
decoder (CRC checked) to the keyed, headered records the capture produced.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kwire.codegen.model import snake
from kwire.protocol import codec
from kwire.records.compression import NONE
from kwire.records.decode import decode_batches

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
_NAME = re.compile(r"^(?P<api>[a-z0-9_]+)_v(?P<version>\d+)_(?P<kind>request|response)\.bin$")
_API_BY_SNAKE = {snake(spec.name): key for key, spec in codec.APIS.items()}

FILES = sorted(GOLDEN.glob("*/*.bin"))


# Every client whose frames were captured (tests/golden/capture_frames.py, and
# capture_apiversions.py for the first ApiVersions), and what each must hold.
CLIENTS = ("kafka-python", "aiokafka", "confluent-kafka", "java", "kcat")
REQUIRED_APIS = ("api_versions", "metadata", "produce", "fetch")


def test_golden_files_present():
    folders = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    assert set(CLIENTS) <= set(folders), f"client folders in {GOLDEN}: {folders}"
    missing = []
    for client in folders:
        apis = {m["api"] for p in (GOLDEN / client).glob("*.bin")
                if (m := _NAME.match(p.name)) and m["kind"] == "request"}
        missing += [f"{client}/{api}_v*_request.bin" for api in REQUIRED_APIS if api not in apis]
    assert not missing, f"missing golden captures (tests/golden/capture_frames.py): {missing}"


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


PRODUCE_FILES = [p for p in FILES if p.name.startswith("produce_v")]


@pytest.mark.parametrize("path", PRODUCE_FILES, ids=[f"{p.parent.name}/{p.name}" for p in PRODUCE_FILES])
def test_golden_produce_records_decode(path):
    version = int(_NAME.match(path.name)["version"])
    frame = path.read_bytes()
    _, pos = codec.decode_request_header(frame)
    body = codec.decode_request(0, version, frame, pos)
    partitions = [pd for td in body.topic_data for pd in td.partition_data]
    assert partitions, f"{path.name}: no partition data"
    total = 0
    for pd in partitions:
        batches = decode_batches(bytes(pd.records))  # checks magic 2, lengths, CRC, every record
        assert batches, f"{path.name} partition {pd.index}: no record batch"
        for b in batches:
            # a client's first produce in capture_frames.py is uncompressed, CreateTime
            assert b.header.compression == NONE and b.header.timestamp_type == 0, b.header
            assert [r.offset_delta for r in b.records] == list(range(b.header.records_count))
            assert b.header.last_offset_delta == b.header.records_count - 1
            assert b.header.max_timestamp == max(r.timestamp for r in b.records)
            for r in b.records:
                assert r.key is not None and r.key.startswith(b"key-"), r
                assert r.value is not None and b"value-" in r.value, r
                assert r.headers and r.headers[0][0] == "seq", r
            total += len(b.records)
    assert total > 0
