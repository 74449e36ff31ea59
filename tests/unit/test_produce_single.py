"""``kwire.protocol.produce_single`` against the generated codec, its reference.

For every Produce version: a single-partition request decodes to the fields
``codec.decode_request`` gives (records the same type and bytes); every other
shape (a transactional id, two partitions, two topics, no topic, null
records, tagged fields, truncated or malformed bytes) decodes to None, so the
generic path answers it; and the success template is byte for byte what
``codec.encode_response`` writes for the same answer.
"""

from __future__ import annotations

import uuid

import pytest

from kwire.protocol import codec, produce_single as S
from kwire.protocol.generated import produce_request as preq
from kwire.protocol.generated import produce_response as pr
from kwire.records.builder import build_batch

VERSIONS = range(S.MIN_VERSION, S.MAX_VERSION + 1)
TID = uuid.UUID("0c8f0d7e-52b1-4f0e-9d55-6a2b9e3c1f42")
BATCH = build_batch([(b"k", b"v" * 300)])


def _frame(version, req):
    """The request frame as the connection holds it: no size prefix; and the body's start."""
    frame = bytearray(codec.encode_request(0, version, 7, "client-1", req)[4:])
    _header, pos = codec.decode_request_header(frame)
    return frame, pos


def _request(version, partitions=((3, BATCH),), topics=1, tid=None, acks=-1, name="orders"):
    tds = []
    for i in range(topics):
        tds.append(preq.TopicProduceData(
            name="" if version >= 13 else (name if i == 0 else f"{name}-{i}"),
            topic_id=TID if version >= 13 else uuid.UUID(int=0),
            partition_data=[preq.PartitionProduceData(index=p, records=r) for p, r in partitions]))
    return preq.ProduceRequest(transactional_id=tid, acks=acks, timeout_ms=1500, topic_data=tds)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("acks", [-1, 0, 1, 5])
def test_single_partition_decodes_as_the_generated_decoder(version, acks):
    frame, pos = _frame(version, _request(version, acks=acks))
    want = codec.decode_request(0, version, frame, pos)
    got = S.decode(frame, pos, version)
    assert got is not None
    acks_got, timeout, topic, partition, records = got
    td = want.topic_data[0]
    pd = td.partition_data[0]
    assert (acks_got, timeout, partition) == (want.acks, want.timeout_ms, pd.index) == (acks, 1500, 3)
    assert topic == (td.topic_id if version >= 13 else td.name)
    assert type(records) is type(pd.records) and bytes(records) == bytes(pd.records) == BATCH


def _other_shapes(version):
    """Produce requests that are not the single-partition shape."""
    return [
        _request(version, tid="txn-1"),
        _request(version, partitions=((0, BATCH), (1, BATCH))),
        _request(version, topics=2),
        _request(version, topics=0),
        _request(version, partitions=()),
        _request(version, partitions=((0, None),)),
    ]



def _tagged_requests(version):
    """(level, request) with an unknown tagged field at the request, topic or partition level
    (flexible versions only; none before)."""
    if version < S.FIRST_FLEXIBLE:
        return
    for level in ("request", "topic", "partition"):
        req = _request(version)
        obj = {"request": req, "topic": req.topic_data[0],
               "partition": req.topic_data[0].partition_data[0]}[level]
        obj.unknown_tagged_fields = {99: b"x"}
        yield level, req

@pytest.mark.parametrize("version", VERSIONS)
def test_other_shapes_take_the_generic_path(version):
    for req in _other_shapes(version):
        frame, pos = _frame(version, req)
        codec.decode_request(0, version, frame, pos)  # the generic decoder takes it
        assert S.decode(frame, pos, version) is None
    for level, req in _tagged_requests(version):
        frame, pos = _frame(version, req)
        assert codec.decode_request(0, version, frame, pos) is not None
        assert S.decode(frame, pos, version) is None, level


@pytest.mark.parametrize("version", VERSIONS)
def test_truncated_or_malformed_bodies_are_left_to_the_generic_decoder(version):
    frame, pos = _frame(version, _request(version))
    for end in range(pos, len(frame) - 1, 7):
        cut = frame[:end]
        got = S.decode(cut, pos, version)
        if got is not None:  # only when the generic decoder takes the same bytes
            codec.decode_request(0, version, cut, pos)
    if version < S.FIRST_TOPIC_ID:  # a topic name that is not UTF-8
        bad = bytearray(frame)
        i = bad.index(b"orders")
        bad[i] = 0xFF
        with pytest.raises(codec.ProtocolDecodeError):
            codec.decode_request(0, version, bad, pos)
        assert S.decode(bad, pos, version) is None


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("offsets", [(0, -1, 0), (123456789012, 1_700_000_000_123, 42)])
def test_success_template_is_the_generated_encoding(version, offsets):
    base, append_time, log_start = offsets
    topic = TID if version >= 13 else "orders"
    part = pr.PartitionProduceResponse(index=3, error_code=0, base_offset=base,
                                       log_append_time_ms=append_time, log_start_offset=log_start)
    resp = pr.ProduceResponse(responses=[pr.TopicProduceResponse(
        name="" if version >= 13 else topic, topic_id=TID if version >= 13 else uuid.UUID(int=0),
        partition_responses=[part])], throttle_time_ms=0)
    want = b"".join(bytes(p) for p in codec.encode_response(0, version, 918273, resp))
    got = S.encode_ok(version, 918273, topic, 3, base, append_time, log_start)
    assert bytes(got) == want
    # a long topic name (a two-byte compact length) as well
    if version < 13:
        long_name = "t" * 200
        resp.responses[0].name = long_name
        want = b"".join(bytes(p) for p in codec.encode_response(0, version, 5, resp))
        assert bytes(S.encode_ok(version, 5, long_name, 3, base, append_time, log_start)) == want


@pytest.mark.parametrize("version", VERSIONS)
def test_whole_frame_decodes_with_its_header(version):
    frame, pos = _frame(version, _request(version))
    header, _ = codec.decode_request_header(frame)
    got = S.decode_frame(frame)
    assert got is not None
    assert got[:3] == (version, header.correlation_id, header.client_id) == (version, 7, "client-1")
    assert got[3:] == S.decode(frame, pos, version)
    # a null client id, and a header that is not a single-partition Produce v3-13
    nul = bytearray(codec.encode_request(0, version, 8, None, _request(version))[4:])
    assert S.decode_frame(nul)[:3] == (version, 8, None)
    other = bytearray(codec.encode_request(0, version, 9, "c", _request(version, topics=2))[4:])
    assert S.decode_frame(other) is None
    assert S.decode_frame(frame[:10]) is None
    wrong_key = bytearray(frame)
    wrong_key[1] = 1
    assert S.decode_frame(wrong_key) is None
    if version >= S.FIRST_FLEXIBLE:  # header tagged fields: the generic path
        tagged = bytearray(frame)
        tagged[pos - 1] = 1
        assert S.decode_frame(tagged) is None


def test_versions_outside_the_range_are_left_to_the_generic_path():
    frame, _ = _frame(3, _request(3))
    for v in (0, 1, 2, S.MAX_VERSION + 1):
        f = bytearray(frame)
        f[2:4] = v.to_bytes(2, "big")
        assert S.decode_frame(f) is None


# -- the compiled twin: kwire.records._scan.produce_frame ------------------------------------

from kwire.protocol.primitives import UUID_CACHE, read_uuid  # noqa: E402
from kwire.records import scan  # noqa: E402


def _both(frame):
    """decode_frame and the compiled produce_frame on the same bytes: the same answer."""
    py = S.decode_frame(frame)
    c = scan.c_produce_frame(frame, UUID_CACHE, read_uuid)
    assert c == py, (bytes(frame)[:60], c, py)
    if py is not None:
        assert type(c[7]) is type(py[7]) is memoryview and c[7].readonly == py[7].readonly
        assert type(c[5]) is type(py[5])
    return py


def test_the_compiled_frame_reader_is_built():
    """The test environment builds the C helper (pip install -e . with gcc): its absence fails."""
    assert scan.c_produce_frame is not None
    assert scan.produce_frame is (scan.c_produce_frame if scan.IMPLEMENTATION == "c" else None)


@pytest.mark.parametrize("version", VERSIONS)
def test_compiled_frame_reader_matches_the_python_one(version):
    reqs = [_request(version, acks=a) for a in (-1, 0, 1, 5)] + _other_shapes(version) + [
        _request(version, partitions=((2**31 - 1, b""),)),
        _request(version, name="t" * 200),  # a two-byte compact length
        _request(version, name="tøpic-ü"),
    ]
    for req in reqs:
        for client in ("client-1", None, ""):
            frame = bytearray(codec.encode_request(0, version, -5, client, req)[4:])
            _both(frame)
            _both(bytes(frame))  # read-only input: a read-only view of it, as the Python reader
    frame, pos = _frame(version, _request(version))
    assert _both(frame) is not None
    for end in range(len(frame) + 1):  # every truncation
        _both(frame[:end])
    for i in range(min(len(frame), pos + 80)):  # every header and body byte flipped two ways
        for value in (0x00, 0xFF, 0x80, 0x02):
            bad = bytearray(frame)
            bad[i] = value
            _both(bad)
    for _level, req in _tagged_requests(version):
        assert _both(_frame(version, req)[0]) is None


def test_compiled_frame_reader_topic_ids_cached_or_not():
    """v13: a topic id not yet cached is made by read_uuid (and cached); the zero id is the
    shared ZERO_UUID; either way the same object as the Python reader hands out."""
    fresh = uuid.uuid4()
    req = _request(13)
    req.topic_data[0].topic_id = fresh
    frame = bytearray(codec.encode_request(0, 13, 1, "c", req)[4:])
    UUID_CACHE.pop(fresh.bytes, None)
    got = scan.c_produce_frame(frame, UUID_CACHE, read_uuid)
    assert got[5] == fresh and UUID_CACHE[fresh.bytes] is got[5]
    assert _both(frame)[5] is got[5]
    req.topic_data[0].topic_id = uuid.UUID(int=0)
    zero = bytearray(codec.encode_request(0, 13, 1, "c", req)[4:])
    assert _both(zero)[5] is scan.c_produce_frame(zero, UUID_CACHE, read_uuid)[5]
    with pytest.raises(TypeError):
        scan.c_produce_frame(frame, [], read_uuid)
