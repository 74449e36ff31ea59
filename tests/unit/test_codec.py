"""Behaviour of kwire.protocol.codec beyond plain round trips.

Header version rules, the ApiSpec table, unknown tagged fields, Kafka's
ignorable-field rule, zero-copy records and records regions, and robustness:
truncated, lying or random input only ever raises ProtocolDecodeError or
UnsupportedVersionError.
"""

from __future__ import annotations

import struct
import uuid

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kwire.protocol import codec
from kwire.protocol.codec import ProtocolDecodeError, UnsupportedVersionError
from kwire.protocol.generated import api_versions_request as avreq
from kwire.protocol.generated import fetch_request as freq
from kwire.protocol.generated import fetch_response as fres
from kwire.protocol.generated import metadata_request as mreq
from kwire.protocol.generated import produce_request as preq
from kwire.protocol.primitives import ZERO_UUID, read_uvarint, write_uvarint
from fuzz_budget import examples  # full budgets in the suite, a tenth in --quick

PRODUCE, FETCH, METADATA, API_VERSIONS = 0, 1, 3, 18


def _body(frame) -> bytes:
    data = frame if isinstance(frame, (bytes, bytearray)) else b"".join(frame)
    return bytes(data[4:])


# -- tables and header rules ---------------------------------------------------------

def test_api_table():
    produce = codec.APIS[PRODUCE]
    assert (produce.name, produce.min_version, produce.max_version, produce.flexible_min_version) == (
        "Produce", 3, 13, 9)
    assert produce.request_class.__name__ == "ProduceRequest"
    assert produce.response_class.__name__ == "ProduceResponse"
    assert "broker" in produce.listeners
    assert codec.API_KEYS["Fetch"] == FETCH
    assert all("broker" in spec.listeners for spec in codec.APIS.values())
    assert codec.APIS[API_VERSIONS].supports(0) and not codec.APIS[API_VERSIONS].supports(99)


@pytest.mark.parametrize("api_key,version,req_hv,resp_hv", [
    (PRODUCE, 8, 1, 0), (PRODUCE, 9, 2, 1), (METADATA, 8, 1, 0), (METADATA, 9, 2, 1),
    (API_VERSIONS, 2, 1, 0), (API_VERSIONS, 3, 2, 0), (API_VERSIONS, 4, 2, 0),
    (7, 0, 0, 0),  # ControlledShutdown v0: header without client id
    (FETCH, 99, 2, 1),  # beyond our max: still chosen by flexibility
])
def test_header_versions(api_key, version, req_hv, resp_hv):
    assert codec.request_header_version(api_key, version) == req_hv
    assert codec.response_header_version(api_key, version) == resp_hv


def test_request_header_decodes_client_id_non_compact_in_v2():
    frame = codec.encode_request(API_VERSIONS, 3, 42, "abc", avreq.ApiVersionsRequest())
    body = frame[4:]
    # api key, version, correlation id, int16-length client id, empty tag section
    assert body[:13] == struct.pack(">hhih", 18, 3, 42, 3) + b"abc"
    assert body[13] == 0
    header, pos = codec.decode_request_header(body)
    assert (header.correlation_id, header.client_id, pos) == (42, "abc", 14)


def test_null_client_id():
    frame = codec.encode_request(METADATA, 4, 1, None, mreq.MetadataRequest(topics=None))
    header, _ = codec.decode_request_header(frame[4:])
    assert header.client_id is None


def test_api_versions_response_uses_header_v0():
    from kwire.protocol.generated.api_versions_response import ApiVersionsResponse
    chunks = codec.encode_response(API_VERSIONS, 3, 9, ApiVersionsResponse())
    body = _body(chunks)
    assert body[:4] == struct.pack(">i", 9)
    assert body[4:6] == b"\x00\x00"  # error code follows directly: no header tag section
    assert codec.decode_response(API_VERSIONS, 3, body) == (9, ApiVersionsResponse())


# -- generated object model -----------------------------------------------------------

def test_defaults_and_names():
    r = freq.FetchRequest()
    assert r.max_wait_ms == 0 and r.replica_id == -1 and r.isolation_level == 0
    assert r.topics == [] and r.topics is not freq.FetchRequest().topics
    assert r.cluster_id is None  # nullable, default null
    t = freq.FetchTopic()
    assert t.topic_id == ZERO_UUID and t.topic == ""
    p = fres.PartitionData()
    assert p.diverging_epoch == fres.EpochEndOffset() and p.diverging_epoch.epoch == -1
    assert p.records is None and p.error_code == 0 and p.last_stable_offset == -1
    assert p.unknown_tagged_fields == {}
    assert "PartitionData(" in repr(p)
    assert p == fres.PartitionData() and p != fres.PartitionData(error_code=1)


def test_struct_default_instances_are_fresh():
    a, b = fres.PartitionData(), fres.PartitionData()
    a.current_leader.leader_id = 5
    assert b.current_leader.leader_id == -1


# -- tagged fields ----------------------------------------------------------------------

def _metadata_v12_with_unknown_tags() -> bytes:
    """MetadataRequest v12 body with unknown tags at top level and in a topic."""
    out = bytearray()
    write_uvarint(out, 2)          # one topic (compact count + 1)
    out += uuid.UUID(int=7).bytes  # topic_id
    out += b"\x02t"                # compact name "t"
    out += b"\x01\x05\x02hi"       # topic tags: 1 field, tag 5, size 2, b"hi"
    out += b"\x01\x00"             # allow_auto_topic_creation, include_topic_authorized_operations
    out += b"\x02\x03\x01X\x63\x00"  # top-level tags: tag 3 -> b"X", tag 99 -> b""
    return bytes(out)


def test_unknown_tagged_fields_preserved():
    body = _metadata_v12_with_unknown_tags()
    req = codec.decode_request(METADATA, 12, body, 0)
    assert req.unknown_tagged_fields == {3: b"X", 99: b""}
    assert req.topics[0].unknown_tagged_fields == {5: b"hi"}
    assert req.topics[0].name == "t" and req.topics[0].topic_id == uuid.UUID(int=7)
    assert codec.encode_request_body(METADATA, 12, req) == body


def test_known_and_unknown_tags_merge_in_order():
    part = fres.PartitionData(partition_index=1, diverging_epoch=fres.EpochEndOffset(epoch=4, end_offset=10),
                              snapshot_id=fres.SnapshotId(end_offset=3, epoch=2),
                              unknown_tagged_fields={1000: b"z", 1_001: b""})
    resp = fres.FetchResponse(responses=[fres.FetchableTopicResponse(topic="a", partitions=[part])])
    body = b"".join(codec.encode_response_body(FETCH, 12, resp))
    # partition tag section: 4 fields, ascending tags 0, 2 (known), 1000, 1001 (unknown)
    section = (b"\x04"
               + b"\x00\x0d" + struct.pack(">iq", 4, 10) + b"\x00"
               + b"\x02\x0d" + struct.pack(">qi", 3, 2) + b"\x00"
               + b"\xe8\x07\x01z" + b"\xe9\x07\x00")
    assert body.endswith(section + b"\x00\x00")  # then topic and top-level tag sections
    back = codec.decode_response_body(FETCH, 12, body)
    assert back == resp
    assert back.responses[0].partitions[0].unknown_tagged_fields == {1000: b"z", 1001: b""}
    assert back.responses[0].partitions[0].current_leader == fres.LeaderIdAndEpoch()  # default, not sent


def test_unknown_tags_rejected_in_non_flexible_version():
    req = mreq.MetadataRequest(topics=None, unknown_tagged_fields={9: b"x"})
    with pytest.raises(UnsupportedVersionError, match="v8"):
        codec.encode_request_body(METADATA, 8, req)


# -- Kafka's ignorable-field rule -----------------------------------------------------------

def test_ignorable_field_dropped_silently():
    tid = uuid.uuid4()
    req = preq.ProduceRequest(acks=1, topic_data=[preq.TopicProduceData(name="t", topic_id=tid)])
    old = codec.decode_request(PRODUCE, 12, codec.encode_request_body(PRODUCE, 12, req))
    assert old.topic_data[0].name == "t" and old.topic_data[0].topic_id == ZERO_UUID
    new = codec.decode_request(PRODUCE, 13, codec.encode_request_body(PRODUCE, 13, req))
    assert new.topic_data[0].name == "" and new.topic_data[0].topic_id == tid


def test_non_ignorable_field_raises_naming_field_and_version():
    resp = fres.FetchResponse(responses=[fres.FetchableTopicResponse(
        topic="t", partitions=[fres.PartitionData(preferred_read_replica=3)])])
    with pytest.raises(UnsupportedVersionError, match=r"PreferredReadReplica.*") as info:
        codec.encode_response(FETCH, 10, 1, resp)
    assert "v10" in str(info.value)
    codec.encode_response(FETCH, 11, 1, resp)  # present from v11
    # the default value is fine in any version
    codec.encode_response(FETCH, 10, 1, fres.FetchResponse(
        responses=[fres.FetchableTopicResponse(topic="t", partitions=[fres.PartitionData()])]))


def test_version_out_of_range():
    with pytest.raises(UnsupportedVersionError):
        codec.decode_request(PRODUCE, 2, b"", 0)
    with pytest.raises(UnsupportedVersionError):
        codec.encode_response(PRODUCE, 14, 1, preq.ProduceRequest())
    with pytest.raises(UnsupportedVersionError):
        codec.decode_request(9999, 0, b"", 0)


# -- records --------------------------------------------------------------------------------

def _produce_frame(records=b"RECORDS!") -> bytes:
    req = preq.ProduceRequest(acks=-1, timeout_ms=5, topic_data=[preq.TopicProduceData(
        name="t", partition_data=[preq.PartitionProduceData(index=0, records=records)])])
    return codec.encode_request(PRODUCE, 9, 1, "c", req)[4:]


def test_records_are_zero_copy_and_patchable():
    buf = bytearray(_produce_frame())
    header, pos = codec.decode_request_header(buf)
    req = codec.decode_request(PRODUCE, 9, buf, pos)
    view = req.topic_data[0].partition_data[0].records
    assert isinstance(view, memoryview) and bytes(view) == b"RECORDS!" and not view.readonly
    view[0:2] = b"rr"  # e.g. the broker assigning base offsets in place
    assert b"rrCORDS!" in buf


def test_records_from_bytes_are_readonly_views():
    frame = _produce_frame()
    header, pos = codec.decode_request_header(frame)
    view = codec.decode_request(PRODUCE, 9, frame, pos).topic_data[0].partition_data[0].records
    assert isinstance(view, memoryview) and view.readonly


def test_null_records():
    frame = _produce_frame(None)
    _, pos = codec.decode_request_header(frame)
    assert codec.decode_request(PRODUCE, 9, frame, pos).topic_data[0].partition_data[0].records is None


class Region:
    """Stand-in for a file region sent with sendfile."""

    def __init__(self, data: bytes):
        self.data = data

    def __len__(self):
        return len(self.data)


@pytest.mark.parametrize("version", [4, 11, 12, 16])
def test_records_regions_in_responses(version):
    def response(r1, r2):
        return fres.FetchResponse(responses=[fres.FetchableTopicResponse(
            topic="t" if version < 13 else "", topic_id=ZERO_UUID, partitions=[
                fres.PartitionData(partition_index=0, records=r1),
                fres.PartitionData(partition_index=1, records=r2)])])

    chunks = codec.encode_response(FETCH, version, 77, response(Region(b"A" * 50), Region(b"B" * 7)))
    kinds = [type(c).__name__ for c in chunks]
    # non-flexible versions end with the records, flexible ones with tag sections
    assert kinds[:4] == ["bytearray", "Region", "bytearray", "Region"]
    assert kinds[4:] == ([] if version < 12 else ["bytearray"])
    size = struct.unpack(">i", chunks[0][:4])[0]
    assert size == sum(len(c) for c in chunks) - 4
    flat = b"".join(c.data if isinstance(c, Region) else bytes(c) for c in chunks)
    expected = b"".join(codec.encode_response(FETCH, version, 77, response(b"A" * 50, b"B" * 7)))
    assert flat == expected
    cid, back = codec.decode_response(FETCH, version, flat[4:])
    assert cid == 77 and bytes(back.responses[0].partitions[1].records) == b"B" * 7


def test_regions_not_allowed_in_request_frames():
    with pytest.raises(TypeError):
        codec.encode_request(PRODUCE, 9, 1, "c", preq.ProduceRequest(topic_data=[preq.TopicProduceData(
            partition_data=[preq.PartitionProduceData(records=Region(b"x"))])]))


# -- malformed input -----------------------------------------------------------------------------

def test_every_truncation_raises_decode_error():
    req = freq.FetchRequest(max_wait_ms=500, topics=[freq.FetchTopic(
        topic_id=uuid.uuid4(), partitions=[freq.FetchPartition(partition=1, fetch_offset=5)])],
        rack_id="r1", cluster_id="c")
    body = codec.encode_request(FETCH, 15, 3, "cli", req)[4:]
    header, pos = codec.decode_request_header(body)
    assert codec.decode_request(FETCH, 15, body, pos) == req
    for cut in range(len(body)):
        with pytest.raises(ProtocolDecodeError):
            h, p = codec.decode_request_header(body[:cut])
            codec.decode_request(FETCH, 15, body[:cut], p)


@pytest.mark.parametrize("body", [
    b"",
    b"\x00",
    struct.pack(">hhih", 3, 4, 1, 30000) + b"abc",              # client id longer than the frame
    struct.pack(">hhih", 3, 4, 1, -2),                          # negative non-null length
    struct.pack(">hhih", 3, 4, 1, 0) + b"\x7f\xff\xff\xff",     # 2**31-1 topics, no bytes
    struct.pack(">hhih", 3, 12, 1, 0) + b"\x00" + b"\xff\xff\xff\xff\x0f",  # huge compact count
    struct.pack(">hhih", 3, 12, 1, 0) + b"\x00" + b"\xff\xff\xff\xff\xff\x01",  # over-long varint
    struct.pack(">hhih", 3, 12, 1, 0) + b"\x00\x02" + bytes(16) + b"\x02\xff\xfe",  # bad utf-8
    struct.pack(">hhih", 4242, 0, 1, 0),                        # unknown api key
])
def test_bad_frames(body):
    with pytest.raises(ProtocolDecodeError):
        header, pos = codec.decode_request_header(body)
        codec.decode_request(header.request_api_key, header.request_api_version, body, pos)


def test_lying_tag_size():
    body = bytearray(codec.encode_request_body(METADATA, 12, mreq.MetadataRequest(topics=None)))
    body[-1:] = b"\x01\x05\x7f"  # one tag claiming 127 bytes, none present
    with pytest.raises(ProtocolDecodeError):
        codec.decode_request(METADATA, 12, bytes(body), 0)


_API_VERSION_PAIRS = [(k, v) for k, s in codec.APIS.items() for v in range(s.min_version, s.max_version + 1)]


@settings(max_examples=examples(400), deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(_API_VERSION_PAIRS), st.binary(max_size=64))
def test_fuzz_random_bodies(api, data):
    api_key, version = api
    try:
        codec.decode_request(api_key, version, data, 0)
    except (ProtocolDecodeError, UnsupportedVersionError):
        pass
    try:
        codec.decode_response(api_key, version, data)
    except (ProtocolDecodeError, UnsupportedVersionError):
        pass


@settings(max_examples=examples(300), deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=80))
def test_fuzz_random_frames(data):
    try:
        header, pos = codec.decode_request_header(data)
        codec.decode_request(header.request_api_key, header.request_api_version, data, pos)
    except (ProtocolDecodeError, UnsupportedVersionError):
        pass


@settings(max_examples=examples(300), deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_fuzz_mutated_valid_frames(data):
    frame = bytearray(_produce_frame())
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(frame) - 1))
        frame[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(frame)))
    frame = frame[:cut]
    try:
        header, pos = codec.decode_request_header(frame)
        codec.decode_request(header.request_api_key, header.request_api_version, frame, pos)
    except (ProtocolDecodeError, UnsupportedVersionError):
        pass


# -- primitives ---------------------------------------------------------------------------------

@given(st.integers(0, 2**32 - 1))
def test_uvarint_roundtrip(n):
    out = bytearray()
    write_uvarint(out, n)
    assert read_uvarint(out, 0) == (n, len(out))
