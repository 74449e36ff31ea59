"""One test per entry of /work/shared/PITFALLS.md: where Kafka-compatible brokers break real clients.

Raw sockets and kwire's generated codec (helpers imported from test_faults and
test_wire_fetch) where the wire itself is the point, a real client
(confluent-kafka / librdkafka, kafka-python) where the pitfall is what a client
does with the answer. Where another test already covers a pitfall exactly (it
would fail if the pitfall happened) it is named below; "here" marks the tests in
this module (some overlap with older ones on purpose: other versions, Spark's).

Offsets
* latest = last offset + 1: here (v9, raw and real clients); also
  test_clients_python.py::test_earliest_latest_offsets, test_java_client.py::test_java_produce_consume_admin.
* by timestamp, inside batches; -1/-1 when none; -3 max timestamp: here;
  also test_clients_python.py::test_offsets_for_times,
  test_wire_fetch.py::test_list_offsets_special_timestamps_after_delete_records.
* a fetch offset inside a batch returns the whole batch:
  test_wire_fetch.py::test_fetch_version_sweep (every Fetch version v4-18).
* the first batch of a fetch even when larger than max_bytes: here.
* below the log start offset: OFFSET_OUT_OF_RANGE — after DeleteRecords
  test_wire_fetch.py::test_fetch_version_sweep and test_admin.py::test_delete_records;
  after retention test_lifecycle.py::test_retention_ms_applied_by_the_running_broker
  and ::test_retention_bytes_applied_by_the_running_broker.

Produce
* idempotent producers (InitProducerId, a retried batch deduplicated):
  test_faults.py::test_idempotent_duplicate_and_sequence_gap (and
  test_lifecycle.py::test_idempotent_producer_state_survives_kill9); here too
  at Spark's versions (InitProducerId v5, Produce v11) in the connector path.
* max.message.bytes -> MESSAGE_TOO_LARGE: test_clients_python.py::test_message_size_limit,
  test_kcat.py::test_message_too_large; here inside a multi-partition request.
* never drop the connection on a per-partition problem: here (unknown topic,
  unknown partition, too large, corrupt CRC in one request, v3/v11/v13).

Fetch
* a waiting fetch wakes on the append that satisfies min_bytes:
  test_wire_fetch.py::test_long_poll_fetch_is_woken_by_an_append and
  ::test_long_poll_waits_for_min_bytes_across_appends.
* incremental fetch sessions (KIP-227): test_wire_fetch.py::test_incremental_fetch_session.
* read_committed: last stable offset: test_wire_fetch.py::test_list_offsets_special_timestamps_after_delete_records
  (LSO == HW, ListOffsets read_committed) and test_java_client.py::test_java_produce_consume_admin (read_committed
  consumer); the aborted-transactions list at Spark's Fetch v17 and a
  read_committed librdkafka consumer: here.

Groups
* committed offset metadata round-trips: test_groups_versions.py::test_classic_lifecycle_at_join_version
  (OffsetCommit/OffsetFetch "hi"), test_groups_clients.py::test_consume_commit_close_and_resume,
  test_groups_java.py::test_commit_sync_async_metadata_and_resume.
* ConsumerGroupDescribe on a classic group is GROUP_ID_NOT_FOUND:
  tests/unit/test_coordinator_consumer.py::test_replay_rebuilds_consumer_group_and_describe and,
  through librdkafka's fallback to DescribeGroups,
  test_groups_consumer_protocol.py::test_admin_describe_list_delete.
* the first join of an empty group waits at most group.initial.rebalance.delay.ms:
  tests/unit/test_coordinator_classic.py::test_initial_delay_collects_members_and_never_waits_longer;
  with the delay at 0, test_groups_clients.py bounds join-to-first-record.

Admin and housekeeping
* CreatePartitions, DescribeConfigs (entries and sources), DeleteRecords:
  test_admin.py::test_create_partitions, ::test_describe_topic_configs_sources,
  ::test_describe_broker_configs, ::test_delete_records (CreatePartitions and
  DeleteRecords are also in the populated-request sweep here).
* GetTelemetrySubscriptions answered with "no subscription": here (raw v0 and librdkafka).
* auto-creation on Metadata when auto.create.topics.enable=true, none when false:
  here (raw Metadata and librdkafka); also test_kcat.py::test_auto_create_topic
  and ::test_no_auto_create_when_disabled.
* advertise only what is implemented: here, every advertised API key and version
  answers a default request, and every API its max version with a populated one.

Spark's connector (kafka-clients 3.9) on the wire: here, each of Produce v11,
InitProducerId v5, Metadata v12, ListOffsets v9, DescribeCluster v1,
DescribeTopicPartitions v0, Fetch v17, ApiVersions v4, GetTelemetrySubscriptions v0
in one producer -> driver -> executor path.

Also here: Metadata authorized operations (asked for: a real bitfield, not
Kafka's "omitted" -2147483648) and leader epochs, and 200 connections at once.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
import threading
import time
import uuid

import confluent_kafka
import pytest
from confluent_kafka.admin import AdminClient, OffsetSpec
from kafka import KafkaConsumer, TopicPartition as KTopicPartition

from kwire.handlers import REGISTRY
from kwire.protocol import codec
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.api_versions_request import ApiVersionsRequest
from kwire.protocol.generated.describe_cluster_request import DescribeClusterRequest
from kwire.protocol.generated.describe_topic_partitions_request import (
    DescribeTopicPartitionsRequest,
    TopicRequest,
)
from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
from kwire.protocol.generated.get_telemetry_subscriptions_request import GetTelemetrySubscriptionsRequest
from kwire.protocol.generated.init_producer_id_request import InitProducerIdRequest
from kwire.protocol.generated.list_offsets_request import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsTopic,
)
from kwire.protocol.generated.metadata_request import MetadataRequest, MetadataRequestTopic
from kwire.protocol.generated.produce_request import (
    PartitionProduceData,
    ProduceRequest,
    TopicProduceData,
)
from kwire.records.builder import build_batch

from clients import stored_batches
from test_faults import Raw, frame, raw_header, versions
from test_wire_fetch import (
    _produce_v0_2_body,
    create_topic_raw,
    fetch_request,
    partitions_of,
    produce,
    records_of,
)

pytestmark = pytest.mark.timeout(120)

PRODUCE, FETCH, LIST_OFFSETS, METADATA, API_VERSIONS, INIT_PRODUCER_ID = 0, 1, 2, 3, 18, 22
DESCRIBE_CLUSTER, GET_TELEMETRY_SUBSCRIPTIONS, DESCRIBE_TOPIC_PARTITIONS = 60, 71, 75
LATEST, EARLIEST, MAX_TIMESTAMP = -1, -2, -3
OMITTED = -2147483648  # Kafka's "authorized operations not requested"
ZERO_UUID = uuid.UUID(int=0)

#: What Spark's Kafka connector (kafka-clients 3.9) sends, per PITFALLS.md.
SPARK_VERSIONS = {PRODUCE: 11, INIT_PRODUCER_ID: 5, METADATA: 12, LIST_OFFSETS: 9, DESCRIBE_CLUSTER: 1,
                  DESCRIBE_TOPIC_PARTITIONS: 0, FETCH: 17, API_VERSIONS: 4, GET_TELEMETRY_SUBSCRIPTIONS: 0}


# -- helpers -----------------------------------------------------------------------------------

def hour_ago_ms() -> int:
    """A round timestamp an hour ago: well inside the default retention."""
    return int(time.time() * 1000) // 1000 * 1000 - 3_600_000


def list_offsets_v(r: Raw, version: int, topic: str, targets: dict[int, int], isolation_level: int = 0,
                   leader_epochs: dict[int, int] | None = None):
    """ListOffsets for {partition: timestamp} of one topic -> {partition: ListOffsetsPartitionResponse}."""
    epochs = leader_epochs or {}
    resp = r.request(LIST_OFFSETS, version, ListOffsetsRequest(
        replica_id=-1, isolation_level=isolation_level, topics=[ListOffsetsTopic(name=topic, partitions=[
            ListOffsetsPartition(partition_index=p, timestamp=ts, current_leader_epoch=epochs.get(p, -1))
            for p, ts in targets.items()])]))
    (t,) = resp.topics
    assert t.name == topic
    out = {p.partition_index: p for p in t.partitions}
    assert sorted(out) == sorted(targets), out
    return out


def metadata_v(r: Raw, version: int, topics: list[str] | None, **kw):
    req = MetadataRequest(topics=None if topics is None else [MetadataRequestTopic(name=n) for n in topics], **kw)
    return r.request(METADATA, version, req)


def kwire_warnings(caplog) -> list[str]:
    return [f"{rec.levelname} {rec.name}: {rec.getMessage()}" for rec in caplog.get_records("call")
            if rec.name.startswith("kwire") and rec.levelno >= logging.WARNING]


def confluent_produce(bs: str, topic: str, groups: list[list[tuple[bytes, bytes]]], partition: int = 0,
                      **conf) -> list[int]:
    """Produce each group of (key, value) with one flush per group (one batch each); -> offsets."""
    producer = confluent_kafka.Producer({"bootstrap.servers": bs, "linger.ms": 5000, "acks": "all",
                                         "message.timeout.ms": 15000, **conf})
    offsets: list[int] = []
    errors: list = []

    def on_delivery(err, msg):
        if err is not None:
            errors.append(err)
        else:
            offsets.append(msg.offset())

    for group in groups:
        for k, v in group:
            producer.produce(topic, key=k, value=v, partition=partition, on_delivery=on_delivery)
        assert producer.flush(20) == 0, "confluent producer did not deliver within 20 s"
    assert not errors, errors
    return offsets


def confluent_consume(bs: str, topic: str, partition: int, count: int, timeout: float = 20, **conf) -> list:
    consumer = confluent_kafka.Consumer({"bootstrap.servers": bs, "group.id": f"g-{uuid.uuid4().hex[:8]}",
                                         "enable.auto.commit": False, **conf})
    got = []
    try:
        consumer.assign([confluent_kafka.TopicPartition(topic, partition, confluent_kafka.OFFSET_BEGINNING)])
        deadline = time.monotonic() + timeout
        while len(got) < count and time.monotonic() < deadline:
            m = consumer.poll(0.5)
            if m is None:
                continue
            assert m.error() is None, m.error()
            got.append((m.offset(), m.key(), m.value()))
    finally:
        consumer.close()
    return got


# -- Offsets: ListOffsets latest ---------------------------------------------------------------

def test_list_offsets_latest_is_last_offset_plus_one_v9(broker, topic_name):
    """Several multi-record batches: latest is the last offset + 1, at Spark's ListOffsets v9."""
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name, partitions=3)
    acks = [produce(bs, topic_name, 0, build_batch([(b"k", f"p0-{n}-{i}".encode()) for i in range(size)]))
            for n, size in enumerate((5, 1, 4))]
    assert [a.base_offset for a in acks] == [0, 5, 6]
    assert produce(bs, topic_name, 1, build_batch([(None, b"a"), (None, b"b"), (None, b"c")])).base_offset == 0
    with Raw(bs) as r:
        latest = list_offsets_v(r, 9, topic_name, {0: LATEST, 1: LATEST, 2: LATEST})
        earliest = list_offsets_v(r, 9, topic_name, {0: EARLIEST, 1: EARLIEST, 2: EARLIEST})
        # the read_committed view (Spark's executors may ask it): no transactions, so the same
        committed = list_offsets_v(r, 9, topic_name, {0: LATEST, 1: LATEST, 2: LATEST}, isolation_level=1)
    for p in latest.values():
        assert (p.error_code, p.timestamp) == (E.NONE, -1) and p.leader_epoch >= 0, p
    # base offset of the last batch + 1 would be 7 and 1; the next offsets are 10 and 3
    assert {i: p.offset for i, p in latest.items()} == {0: 10, 1: 3, 2: 0}
    assert {i: p.offset for i, p in committed.items()} == {0: 10, 1: 3, 2: 0}
    assert {i: (p.error_code, p.offset) for i, p in earliest.items()} == {0: (0, 0), 1: (0, 0), 2: (0, 0)}


def test_list_offsets_latest_real_clients(broker, topic_name):
    """librdkafka (watermarks, Admin list_offsets) and kafka-python agree: latest = records produced."""
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name, partitions=1)
    groups = [[(b"k%d" % i, b"batch%d-%d" % (n, i)) for i in range(size)] for n, size in enumerate((7, 1, 5))]
    offsets = confluent_produce(bs, topic_name, groups)
    assert sorted(offsets) == list(range(13))
    layout = [(b.base_offset, b.record_count) for b in stored_batches(broker.data_dir, topic_name)]
    assert layout == [(0, 7), (7, 1), (8, 5)], f"not the multi-record batches the test needs: {layout}"

    consumer = confluent_kafka.Consumer({"bootstrap.servers": bs, "group.id": f"g-{topic_name}"})
    try:
        assert consumer.get_watermark_offsets(confluent_kafka.TopicPartition(topic_name, 0), timeout=10,
                                              cached=False) == (0, 13)
    finally:
        consumer.close()
    admin = AdminClient({"bootstrap.servers": bs})
    tp = confluent_kafka.TopicPartition(topic_name, 0)
    assert admin.list_offsets({tp: OffsetSpec.latest()}, request_timeout=10)[tp].result(15).offset == 13
    assert admin.list_offsets({tp: OffsetSpec.earliest()}, request_timeout=10)[tp].result(15).offset == 0
    kc = KafkaConsumer(bootstrap_servers=bs, group_id=None, enable_auto_commit=False, request_timeout_ms=15_000)
    try:
        ktp = KTopicPartition(topic_name, 0)
        assert kc.end_offsets([ktp]) == {ktp: 13}
    finally:
        kc.close()


# -- Offsets: ListOffsets by timestamp ---------------------------------------------------------

@pytest.mark.parametrize("version", [1, 7, 9, 11])
def test_list_offsets_by_timestamp_searches_inside_batches(broker, topic_name, version):
    """The first record whose timestamp >= target, found inside a batch, not at its base timestamp."""
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name, partitions=2)  # partition 1 stays empty
    base = hour_ago_ms()
    # batch A: offsets 0-3, 1 s apart; batch B (gzip: the search must decompress it): offsets 4-6,
    # out of order (the max, +9 s, is at 5)
    produce(bs, topic_name, 0, build_batch([(b"a%d" % i, b"v", [], base + 1000 * i) for i in range(4)]))
    produce(bs, topic_name, 0, build_batch([(b"b4", b"v", [], base + 5000), (b"b5", b"v", [], base + 9000),
                                            (b"b6", b"v", [], base + 6000)], compression=1))
    cases = [
        (base - 1, (0, base)),
        (base, (0, base)),
        (base + 1, (1, base + 1000)),          # between records 0 and 1 of batch A
        (base + 2500, (3, base + 3000)),       # A's base timestamp is far below the target
        (base + 3000, (3, base + 3000)),
        (base + 3001, (4, base + 5000)),       # into batch B
        (base + 5500, (5, base + 9000)),       # the first record >= target, not the closest timestamp
        (base + 9000, (5, base + 9000)),
        (base + 9001, (-1, -1)),               # none: -1 with timestamp -1
    ]
    with Raw(bs) as r:
        for target, want in cases:
            p = list_offsets_v(r, version, topic_name, {0: target})[0]
            assert p.error_code == E.NONE, p
            assert (p.offset, p.timestamp) == want, f"v{version} target base{target - base:+d}: {p}"
        empty = list_offsets_v(r, version, topic_name, {1: base})[1]
        assert (empty.error_code, empty.offset, empty.timestamp) == (E.NONE, -1, -1), empty
        if version >= 7:  # KIP-734
            got = list_offsets_v(r, version, topic_name, {0: MAX_TIMESTAMP, 1: MAX_TIMESTAMP})
            assert (got[0].error_code, got[0].offset, got[0].timestamp) == (E.NONE, 5, base + 9000), got[0]
            assert (got[1].error_code, got[1].offset, got[1].timestamp) == (E.NONE, -1, -1), got[1]


# -- Offsets: the first batch of a fetch is returned whole -------------------------------------

def whole(records, batch: bytes) -> bool:
    """``records`` is exactly ``batch`` as stored: the broker rewrote only its base offset (here 0 either
    way) and partition leader epoch (bytes 12-16, outside the CRC)."""
    got = bytes(records)
    return len(got) == len(batch) and got[:12] == batch[:12] and got[16:] == batch[16:]


@pytest.mark.parametrize("version", [4, 11, 17])
def test_first_batch_returned_even_when_larger_than_fetch_limits(broker, topic_name, version):
    bs = broker.bootstrap
    tid = create_topic_raw(bs, topic_name, partitions=2)
    big0 = build_batch([(b"big0", b"x" * 60_000)])
    small0 = build_batch([(b"small0", b"y")])
    big1 = build_batch([(b"big1", b"z" * 40_000)])
    produce(bs, topic_name, 0, big0)
    produce(bs, topic_name, 0, small0)
    produce(bs, topic_name, 1, big1)
    limit = 1000
    assert len(small0) < limit < len(big1) < len(big0)

    with Raw(bs, timeout=15) as r:
        def fetch(offsets, max_bytes, partition_max_bytes):
            resp = r.request(FETCH, version, fetch_request(version, topic_name, tid, offsets, max_bytes=max_bytes,
                                                           partition_max_bytes=partition_max_bytes))
            assert resp.error_code == E.NONE
            parts = partitions_of(resp, version, topic_name, tid)
            assert all(p.error_code == E.NONE for p in parts.values()), parts
            return parts

        # both limits below the first batch: that batch comes back whole, and nothing after it
        parts = fetch({0: 0, 1: 0}, limit, limit)
        assert whole(parts[0].records, big0), f"got {len(parts[0].records)} bytes, the batch is {len(big0)}"
        assert not parts[1].records, "the response was already over max_bytes: no second partition"
        assert (parts[0].high_watermark, parts[1].high_watermark) == (2, 1)

        # the first partition with data may be the second one asked for
        parts = fetch({0: 2, 1: 0}, limit, limit)
        assert not parts[0].records
        assert whole(parts[1].records, big1)

        # max_bytes is large, partition_max_bytes is not: still the whole first batch, only it
        parts = fetch({0: 0}, 16 << 20, limit)
        assert whole(parts[0].records, big0)

        # an offset inside the limits: the small batch alone fits
        parts = fetch({0: 1}, limit, limit)
        assert [o for o, *_ in records_of(parts[0])] == [1]


def test_librdkafka_consumes_a_record_larger_than_its_fetch_limits(broker, topic_name):
    """confluent-kafka with fetch.max.bytes and max.partition.fetch.bytes below the record size."""
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    big = b"B" * 200_000
    offsets = confluent_produce(bs, topic_name, [[(b"big", big)], [(b"after", b"small")]])
    assert offsets == [0, 1]
    got = confluent_consume(bs, topic_name, 0, 2, **{
        "fetch.max.bytes": 1000, "max.partition.fetch.bytes": 1000, "message.max.bytes": 1000,
        "fetch.wait.max.ms": 100})
    assert got == [(0, b"big", big), (1, b"after", b"small")], \
        f"consumer stalled or lost records: {[(o, k, len(v)) for o, k, v in got]}"
    # kafka-python with the same small limits
    kc = KafkaConsumer(bootstrap_servers=bs, group_id=None, enable_auto_commit=False, request_timeout_ms=15_000,
                       fetch_max_bytes=1000, max_partition_fetch_bytes=1000, fetch_max_wait_ms=100)
    try:
        tp = KTopicPartition(topic_name, 0)
        kc.assign([tp])
        kc.seek_to_beginning(tp)
        seen = []
        deadline = time.monotonic() + 20
        while len(seen) < 2 and time.monotonic() < deadline:
            for msgs in kc.poll(timeout_ms=300).values():
                seen += [(m.offset, m.key, m.value) for m in msgs]
    finally:
        kc.close()
    assert seen == [(0, b"big", big), (1, b"after", b"small")], [(o, k, len(v)) for o, k, v in seen]


# -- Produce: per-partition problems never drop the connection ---------------------------------

@pytest.mark.parametrize("version", [3, 11, 13])
def test_per_partition_produce_errors_keep_the_connection(broker, topic_name, version):
    bs = broker.bootstrap
    tid = create_topic_raw(bs, topic_name, partitions=4, configs={"max.message.bytes": "10000"})
    good0 = build_batch([(b"g0", b"a"), (b"g1", b"b")])
    too_large = build_batch([(b"big", b"x" * 20_000)])
    corrupt = bytearray(build_batch([(b"c", b"c" * 200)] * 2))
    corrupt[80] ^= 0xFF  # inside the records: the CRC-32C no longer matches
    good3 = build_batch([(b"g3", b"d"), (b"g4", b"e")])
    by_id = version >= 13

    def topic(name, topic_id, parts):
        data = [PartitionProduceData(index=i, records=rec) for i, rec in parts]
        return TopicProduceData(topic_id=topic_id, partition_data=data) if by_id else \
            TopicProduceData(name=name, partition_data=data)

    missing_name, missing_id = f"{topic_name}-missing", uuid.uuid4()
    req = ProduceRequest(transactional_id=None, acks=-1, timeout_ms=10_000, topic_data=[
        topic(topic_name, tid, [(0, good0), (1, too_large), (2, bytes(corrupt)), (3, good3), (9, good0)]),
        topic(missing_name, missing_id, [(0, good0)]),
    ])
    with Raw(bs) as r:
        resp = r.request(PRODUCE, version, req)
        assert len(resp.responses) == 2, resp
        mine, other = resp.responses
        if by_id:
            assert (mine.topic_id, other.topic_id) == (tid, missing_id)
        else:
            assert (mine.name, other.name) == (topic_name, missing_name)
        got = {p.index: (p.error_code, p.base_offset) for p in mine.partition_responses}
        assert got == {0: (E.NONE, 0), 1: (E.MESSAGE_TOO_LARGE, -1), 2: (E.CORRUPT_MESSAGE, -1),
                       3: (E.NONE, 0), 9: (E.UNKNOWN_TOPIC_OR_PARTITION, -1)}, got
        (p,) = other.partition_responses
        assert p.error_code == (E.UNKNOWN_TOPIC_ID if by_id else E.UNKNOWN_TOPIC_OR_PARTITION), p

        # the same socket keeps serving: Metadata, then a produce to the refused partitions
        md = metadata_v(r, 12, [topic_name], allow_auto_topic_creation=False)
        assert md.topics[0].error_code == E.NONE and len(md.topics[0].partitions) == 4
        resp = r.request(PRODUCE, version, ProduceRequest(transactional_id=None, acks=-1, timeout_ms=10_000,
                                                          topic_data=[topic(topic_name, tid, [
                                                              (1, build_batch([(b"ok1", b"1")])),
                                                              (2, build_batch([(b"ok2", b"2")]))])]))
        assert {p.index: (p.error_code, p.base_offset) for p in resp.responses[0].partition_responses} == \
            {1: (E.NONE, 0), 2: (E.NONE, 0)}, "a refused batch left records behind"
        latest = list_offsets_v(r, 9, topic_name, {p: LATEST for p in range(4)})
    assert {i: p.offset for i, p in latest.items()} == {0: 2, 1: 1, 2: 1, 3: 2}
    assert broker.server.broker.metadata.topic(missing_name) is None, "a refused produce created a topic"


# -- Fetch: read_committed at Spark's Fetch v17 ------------------------------------------------

def test_read_committed_fetch_v17_and_librdkafka(broker, topic_name):
    """No transactions: LSO == HW, no aborted transactions, and a read_committed consumer reads all."""
    bs = broker.bootstrap
    tid = create_topic_raw(bs, topic_name)
    produce(bs, topic_name, 0, build_batch([(b"k%d" % i, b"v%d" % i) for i in range(3)]))
    produce(bs, topic_name, 0, build_batch([(b"k3", b"v3")]))
    with Raw(bs) as r:
        resp = r.request(FETCH, 17, fetch_request(17, topic_name, tid, {0: 0}, isolation_level=1))
    p = partitions_of(resp, 17, topic_name, tid)[0]
    assert (p.error_code, p.high_watermark, p.last_stable_offset, p.log_start_offset) == (E.NONE, 4, 4, 0), p
    assert not p.aborted_transactions, p.aborted_transactions  # null or empty: nothing to filter
    assert [(o, k) for o, _, k, _, _ in records_of(p)] == [(i, b"k%d" % i) for i in range(4)]
    got = confluent_consume(bs, topic_name, 0, 4, **{"isolation.level": "read_committed"})
    assert [(o, k, v) for o, k, v in got] == [(i, b"k%d" % i, b"v%d" % i) for i in range(4)]


# -- Admin: GetTelemetrySubscriptions ---------------------------------------------------------------

def test_get_telemetry_subscriptions_v0_no_subscription(broker):
    """KIP-714 "no metrics wanted": error 0, an empty requested-metrics list, a push interval, an id."""
    bs = broker.bootstrap
    lo, hi = versions(bs)[GET_TELEMETRY_SUBSCRIPTIONS]
    assert lo <= 0 <= hi
    with Raw(bs) as r:
        first = r.request(GET_TELEMETRY_SUBSCRIPTIONS, 0,
                          GetTelemetrySubscriptionsRequest(client_instance_id=ZERO_UUID))
        assert first.error_code == E.NONE, first
        # an empty list means "no metrics"; [""] would mean "every metric" (and pushes would follow)
        assert first.requested_metrics == [], first
        assert first.client_instance_id != ZERO_UUID, "the broker must assign an instance id for the zero uuid"
        assert first.push_interval_ms > 0 and first.telemetry_max_bytes > 0, first
        assert first.throttle_time_ms == 0
        # the client sends the id it was given: the same id comes back, still no metrics
        again = r.request(GET_TELEMETRY_SUBSCRIPTIONS, 0,
                          GetTelemetrySubscriptionsRequest(client_instance_id=first.client_instance_id))
        assert (again.error_code, again.client_instance_id, again.requested_metrics) == \
            (E.NONE, first.client_instance_id, []), again
        assert r.request(API_VERSIONS, 4, ApiVersionsRequest(client_software_name="t", client_software_version="1")
                         ).error_code == E.NONE


def test_librdkafka_asks_for_telemetry_and_keeps_working(broker, topic_name, monkeypatch, caplog):
    """librdkafka 2.x sends GetTelemetrySubscriptions after ApiVersions; the answer must not disturb it."""
    asked = threading.Event()
    answers = []
    entry = REGISTRY[GET_TELEMETRY_SUBSCRIPTIONS]

    def spy(ctx, req):
        resp = entry.handle(ctx, req)
        answers.append((ctx.client_id, resp))
        asked.set()
        return resp

    monkeypatch.setitem(REGISTRY, GET_TELEMETRY_SUBSCRIPTIONS, dataclasses.replace(entry, handle=spy))
    create_topic_raw(broker.bootstrap, topic_name)
    delivered = []
    producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap, "message.timeout.ms": 15000})
    producer.produce(topic_name, key=b"k", value=b"v", partition=0,
                     on_delivery=lambda err, msg: delivered.append((err, msg.offset())))
    assert producer.flush(20) == 0 and delivered == [(None, 0)], delivered
    # the request comes from librdkafka's main thread once a broker is up: wait with the client alive
    assert asked.wait(15), "librdkafka never sent GetTelemetrySubscriptions"
    assert all(resp.error_code == 0 and resp.requested_metrics == [] for _, resp in answers), answers
    producer.produce(topic_name, key=b"k2", value=b"v2", partition=0,
                     on_delivery=lambda err, msg: delivered.append((err, msg.offset())))
    assert producer.flush(20) == 0 and delivered[1:] == [(None, 1)], "the producer stopped working"
    del producer
    assert confluent_consume(broker.bootstrap, topic_name, 0, 2) == [(0, b"k", b"v"), (1, b"k2", b"v2")]
    closed = [w for w in kwire_warnings(caplog) if "closing connection" in w]
    assert not closed, closed


# -- Admin: auto-creation on Metadata ---------------------------------------------------------------

def test_metadata_auto_creates_topics_when_enabled(make_broker, topic_name):
    b = make_broker(overrides={"auto.create.topics.enable": "true", "num.partitions": "3"})
    bs = b.bootstrap
    refused, created = topic_name + "-refused", topic_name + "-meta"
    with Raw(bs) as r:
        md = metadata_v(r, 12, [refused], allow_auto_topic_creation=False)  # the client said no
        assert md.topics[0].error_code == E.UNKNOWN_TOPIC_OR_PARTITION, md.topics[0]
        md = metadata_v(r, 12, [created], allow_auto_topic_creation=True)
    (t,) = md.topics
    assert (t.error_code, t.name) == (E.NONE, created), t
    assert t.topic_id != ZERO_UUID
    assert [(p.error_code, p.partition_index) for p in t.partitions] == [(0, 0), (0, 1), (0, 2)]
    assert all(p.leader_id == md.brokers[0].node_id and p.leader_epoch >= 0 for p in t.partitions), t
    assert b.server.broker.metadata.topic(refused) is None

    # librdkafka's producer (allow.auto.create.topics defaults to true for producers)
    auto = topic_name + "-rdkafka"
    assert confluent_produce(bs, auto, [[(b"k", b"v")]], partition=2) == [0]
    t = b.server.broker.metadata.topic(auto)
    assert t is not None and len(t.partitions) == 3
    assert confluent_consume(bs, auto, 2, 1) == [(0, b"k", b"v")]


def test_metadata_does_not_create_topics_when_disabled(make_broker, topic_name):
    b = make_broker(overrides={"auto.create.topics.enable": "false"})
    with Raw(b.bootstrap) as r:
        for version in (1, 3, 4, 12, 13):  # v1-3 always allow creation on the client's side
            md = metadata_v(r, version, [topic_name])
            assert [(t.name, t.error_code) for t in md.topics] == [(topic_name, E.UNKNOWN_TOPIC_OR_PARTITION)], \
                f"v{version}: {md.topics}"
        everything = metadata_v(r, 12, None)
    assert topic_name not in {t.name for t in everything.topics}
    assert b.server.broker.metadata.topic(topic_name) is None


# -- Admin: advertise only what is implemented -------------------------------------------------------

def _top_level_error(resp) -> int:
    return getattr(resp, "error_code", E.NONE)


def _ask(r: Raw, api_key: int, version: int, obj) -> object:
    """Send one request; the broker must answer it (right correlation id), not close the connection."""
    corr = r.next_corr()
    r.send(codec.encode_request(api_key, version, corr, "pitfalls", obj))
    data = r.answer_or_close()
    name = codec.APIS[api_key].name
    assert data is not None, f"{name} v{version}: the broker closed the connection instead of answering"
    got_corr, resp = codec.decode_response(api_key, version, data)
    assert got_corr == corr, f"{name} v{version}: correlation id {got_corr}, sent {corr}"
    assert _top_level_error(resp) not in (E.UNSUPPORTED_VERSION, E.UNKNOWN_SERVER_ERROR), f"{name} v{version}: {resp}"
    return resp


def test_every_advertised_version_answers_a_default_request(make_broker, caplog):
    """Every (API, version) in ApiVersions answers a request built from the schema's defaults.

    Produce's defaults say acks=0 (no response by design), so acks=-1 is set.
    The one advertised range that is not served is Produce v0-2, advertised like
    Kafka 4 does for old librdkafka (KAFKA-18659) and closed like Kafka 4 does:
    checked here, not skipped.
    """
    b = make_broker()
    bs = b.bootstrap
    advertised = versions(bs)
    assert advertised, "ApiVersions listed nothing"
    overrides = {PRODUCE: {"acks": -1, "timeout_ms": 1000}}
    asked = 0
    for api_key, (lo, hi) in sorted(advertised.items()):
        assert api_key in codec.APIS, f"api key {api_key} advertised but unknown to Kafka's broker schemas"
        spec = codec.APIS[api_key]
        assert hi <= spec.max_version, f"{spec.name}: v{hi} advertised, Kafka's schema stops at v{spec.max_version}"
        with Raw(bs) as r:
            for version in range(lo, hi + 1):
                if api_key == PRODUCE and version < 3:
                    continue  # advertised, not served: checked below
                _ask(r, api_key, version, spec.request_class(**overrides.get(api_key, {})))
                asked += 1
            # still open after all of them
            assert _ask(r, API_VERSIONS, 3, ApiVersionsRequest()).error_code == E.NONE
    core = {PRODUCE, FETCH, LIST_OFFSETS, METADATA, API_VERSIONS, INIT_PRODUCER_ID}
    assert core <= set(advertised), f"core APIs missing from ApiVersions: {core - set(advertised)}"
    assert asked > len(advertised), asked
    for version in (0, 1, 2):  # advertised for KAFKA-18659, refused as by Kafka 4: closed, never half-answered
        assert advertised[PRODUCE][0] <= version
        with Raw(bs) as r:
            r.send(frame(raw_header(PRODUCE, version, 7, flexible=False) + _produce_v0_2_body("t", 0, b"")))
            assert r.closed_by_broker() == b"", f"Produce v{version}"
    bad = [w for w in kwire_warnings(caplog) if not re.search(r"unsupported version [012] of API produce\b", w)]
    assert not bad, "\n".join(bad)


def _populated_request(api_key: int, version: int, topic: str, topic_id: uuid.UUID):
    """The request with one element in every array, naming a real topic, partition 0, a group..."""
    schema = _request_schemas()[api_key]
    mod = codec.APIS[api_key].request_module

    def value(f, t):
        name = f.name.lower()
        if f.entity_type == "topicName" or (t == "string" and "topic" in name):
            return topic
        if f.entity_type == "groupId":
            return "pitfalls-group"
        if f.entity_type == "transactionalId":
            return None if f.nullable(version) else "pitfalls-txn"
        if t == "string":
            return topic if "resourcename" in name else "pitfalls"
        if t == "uuid":
            return topic_id if "topic" in name else ZERO_UUID
        if t == "records":
            return build_batch([(b"k", b"v")])
        if t == "bytes":
            return b""
        if t == "bool":
            return False
        if t == "float64":
            return 0.0
        if name == "acks":
            return -1
        if "timeout" in name:
            return 1000
        if "resourcetype" in name:
            return 2  # TOPIC
        if "maxbytes" in name:
            return 1 << 20
        d = f.python_default()
        return d if isinstance(d, int) else 0

    def build(st):
        kw = {}
        for f in st.fields:
            if not f.present(version):
                continue
            if f.is_struct_array:
                kw[f.attr] = [build(f.struct)]
            elif f.is_array:
                kw[f.attr] = [value(f, f.elem_type)]
            elif f.is_struct:
                kw[f.attr] = build(f.struct)
            else:
                kw[f.attr] = value(f, f.type)
        return getattr(mod, st.name)(**kw)

    return build(schema.root)


@functools.lru_cache(maxsize=1)
def _request_schemas() -> dict:
    """api key -> the request's schema model (kwire.codegen.model, from protocol_specs/)."""
    from kwire.codegen.model import load_all

    return {m.api_key: m for m in load_all().values() if m.type == "request"}


def test_every_advertised_api_answers_a_populated_request_at_its_max_version(make_broker, caplog):
    """One element in every array (a real topic and partition): the handlers' per-item paths answer too.

    Refusals with an error code are fine (unknown group, unknown config...);
    what must not happen is a closed connection or an internal error.
    Destructive requests (DeleteTopics, DeleteRecords) act on this broker's own topic.
    """
    b = make_broker()
    bs = b.bootstrap
    topic = "pitfalls-populated"
    tid = create_topic_raw(bs, topic, partitions=2)
    for api_key, (_, hi) in sorted(versions(bs).items()):
        req = _populated_request(api_key, hi, topic, tid)
        with Raw(bs) as r:
            _ask(r, api_key, hi, req)
            assert _ask(r, API_VERSIONS, 3, ApiVersionsRequest()).error_code == E.NONE
    bad = kwire_warnings(caplog)
    assert not bad, "\n".join(bad)


# -- Spark's connector on the wire --------------------------------------------------------------------

def test_spark_versions_are_advertised(broker):
    with Raw(broker.bootstrap) as r:
        resp = r.request(API_VERSIONS, 4, ApiVersionsRequest(client_software_name="apache-kafka-java",
                                                             client_software_version="3.9.0"))
    assert resp.error_code == E.NONE
    ranges = {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys}
    missing = {codec.APIS[k].name: v for k, v in SPARK_VERSIONS.items()
               if not (k in ranges and ranges[k][0] <= v <= ranges[k][1])}
    assert not missing, f"Spark's versions not advertised: {missing} (have {ranges})"


def test_spark_connector_path(broker, topic_name):
    """Producer, driver and executor of Spark's Kafka connector, request by request at its versions."""
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name, partitions=2)
    base = hour_ago_ms()
    v = SPARK_VERSIONS

    # -- producer (idempotent, acks=all) ---------------------------------------------------------
    with Raw(bs) as r:
        assert r.request(API_VERSIONS, v[API_VERSIONS], ApiVersionsRequest(
            client_software_name="apache-kafka-java", client_software_version="3.9.0")).error_code == E.NONE
        tel = r.request(GET_TELEMETRY_SUBSCRIPTIONS, v[GET_TELEMETRY_SUBSCRIPTIONS], GetTelemetrySubscriptionsRequest())
        assert tel.error_code == E.NONE and tel.requested_metrics == []
        md = metadata_v(r, v[METADATA], [topic_name], allow_auto_topic_creation=True)
        (t,) = md.topics
        assert t.error_code == E.NONE and [p.partition_index for p in t.partitions] == [0, 1]
        tid = t.topic_id
        ipid = r.request(INIT_PRODUCER_ID, v[INIT_PRODUCER_ID], InitProducerIdRequest(
            transactional_id=None, transaction_timeout_ms=60_000, producer_id=-1, producer_epoch=-1))
        assert ipid.error_code == E.NONE and ipid.producer_id >= 0 and ipid.producer_epoch == 0, ipid
        pid, epoch = ipid.producer_id, ipid.producer_epoch

        def batch(seq, first, n):
            return build_batch([(b"k%d" % i, b"spark-%d" % i, [("h", b"%d" % i)], base + 10 * i)
                                for i in range(first, first + n)],
                               producer_id=pid, producer_epoch=epoch, base_sequence=seq)

        def send(parts):
            resp = r.request(PRODUCE, v[PRODUCE], ProduceRequest(
                transactional_id=None, acks=-1, timeout_ms=30_000, topic_data=[TopicProduceData(
                    name=topic_name, partition_data=[PartitionProduceData(index=p, records=rec) for p, rec in parts])]))
            (tr,) = resp.responses
            return {p.index: (p.error_code, p.base_offset) for p in tr.partition_responses}

        first0 = batch(0, 0, 3)
        assert send([(0, first0), (1, batch(0, 100, 2))]) == {0: (E.NONE, 0), 1: (E.NONE, 0)}
        assert send([(0, batch(3, 3, 2))]) == {0: (E.NONE, 3)}
        assert send([(0, first0)]) == {0: (E.NONE, 0)}, "a retried batch must be deduplicated"

    # -- driver (Admin): cluster, topic partitions, offsets --------------------------------------------
    with Raw(bs) as r:
        dc = r.request(DESCRIBE_CLUSTER, v[DESCRIBE_CLUSTER], DescribeClusterRequest(
            include_cluster_authorized_operations=False, endpoint_type=1))
        assert dc.error_code == E.NONE, dc
        assert dc.cluster_id == md.cluster_id and dc.controller_id == md.controller_id
        assert [(x.broker_id, x.host, x.port) for x in dc.brokers] == \
            [(x.node_id, x.host, x.port) for x in md.brokers]
        dtp = r.request(DESCRIBE_TOPIC_PARTITIONS, v[DESCRIBE_TOPIC_PARTITIONS], DescribeTopicPartitionsRequest(
            topics=[TopicRequest(name=topic_name)], response_partition_limit=2000))
        (dt,) = dtp.topics
        assert (dt.error_code, dt.name, dt.topic_id) == (E.NONE, topic_name, tid), dt
        assert [(p.error_code, p.partition_index, p.leader_id) for p in dt.partitions] == \
            [(0, 0, md.brokers[0].node_id), (0, 1, md.brokers[0].node_id)]
        assert all(p.leader_epoch >= 0 for p in dt.partitions)
        earliest = list_offsets_v(r, v[LIST_OFFSETS], topic_name, {0: EARLIEST, 1: EARLIEST})
        latest = list_offsets_v(r, v[LIST_OFFSETS], topic_name, {0: LATEST, 1: LATEST})
        by_time = list_offsets_v(r, v[LIST_OFFSETS], topic_name, {0: base + 15, 1: base + 10_000})
    assert {p: x.offset for p, x in earliest.items()} == {0: 0, 1: 0}
    assert {p: x.offset for p, x in latest.items()} == {0: 5, 1: 2}
    assert {p: (x.offset, x.timestamp) for p, x in by_time.items()} == {0: (2, base + 20), 1: (-1, -1)}

    # -- executor: assign, seek to earliest, poll (the Java consumer: a fetch session, leader epochs) -----
    epochs = {p.partition_index: p.leader_epoch for p in t.partitions}
    assert all(e >= 0 for e in epochs.values()), epochs

    def executor_fetch(r, offsets, session_id, session_epoch):
        req = FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=52_428_800, isolation_level=0,
                           session_id=session_id, session_epoch=session_epoch, rack_id="",
                           forgotten_topics_data=[], topics=[FetchTopic(topic_id=tid, partitions=[
                               FetchPartition(partition=p, current_leader_epoch=epochs[p], fetch_offset=o,
                                              last_fetched_epoch=-1, log_start_offset=-1,
                                              partition_max_bytes=1_048_576)
                               for p, o in offsets.items()])] if offsets else [])
        resp = r.request(FETCH, v[FETCH], req)
        assert resp.error_code == E.NONE, resp
        return resp, partitions_of(resp, v[FETCH], topic_name, tid)

    def expected(ids, first_offset=0):
        return [(first_offset + n, base + 10 * i, b"k%d" % i, b"spark-%d" % i, [("h", b"%d" % i)])
                for n, i in enumerate(ids)]

    with Raw(bs) as r:
        # the consumer's seekToBeginning / seekToEnd: ListOffsets v9 with the current leader epochs
        ends = list_offsets_v(r, v[LIST_OFFSETS], topic_name, {0: LATEST, 1: LATEST}, leader_epochs=epochs)
        assert {p: (x.error_code, x.offset) for p, x in ends.items()} == {0: (E.NONE, 5), 1: (E.NONE, 2)}
        resp, parts = executor_fetch(r, {0: earliest[0].offset, 1: earliest[1].offset}, 0, 0)  # opens a session
        session = resp.session_id
        assert session != 0, "a full fetch with epoch 0 must open a fetch session"
        for p, ids in {0: range(0, 5), 1: range(100, 102)}.items():
            part = parts[p]
            assert (part.error_code, part.high_watermark, part.last_stable_offset, part.log_start_offset) == \
                (E.NONE, latest[p].offset, latest[p].offset, 0), part
            assert records_of(part) == expected(ids)
        # positions moved to the end: the next (incremental) fetch has nothing to say
        resp, parts = executor_fetch(r, {0: 5, 1: 2}, session, 1)
        assert resp.session_id == session and parts == {}, parts
        # the producer appends to partition 1 (its next sequence); only that partition comes back
        with Raw(bs) as producer:
            ack = producer.request(PRODUCE, v[PRODUCE], ProduceRequest(
                transactional_id=None, acks=-1, timeout_ms=30_000, topic_data=[TopicProduceData(
                    name=topic_name, partition_data=[PartitionProduceData(index=1, records=batch(2, 102, 1))])]))
        assert ack.responses[0].partition_responses[0].error_code == E.NONE
        resp, parts = executor_fetch(r, {}, session, 2)
        assert sorted(parts) == [1] and records_of(parts[1]) == expected([102], first_offset=2), parts


# -- Metadata authorized operations ----------------------------------------------------------------------

TOPIC_OPS = sum(1 << op for op in (3, 4, 5, 6, 7, 8, 10, 11))  # Kafka's AclEntry.supportedOperations(TOPIC)
CLUSTER_OPS = sum(1 << op for op in (5, 7, 8, 9, 10, 11, 12))  # ... (CLUSTER)


@pytest.mark.parametrize("version", [8, 9, 10, 11, 12, 13])
def test_metadata_authorized_operations_and_leader_epochs(broker, topic_name, version):
    bs = broker.bootstrap
    tid = create_topic_raw(bs, topic_name, partitions=2)
    ask_cluster = {"include_cluster_authorized_operations": True} if version <= 10 else {}
    with Raw(bs) as r:
        md = metadata_v(r, version, [topic_name], allow_auto_topic_creation=False,
                        include_topic_authorized_operations=True, **ask_cluster)
        plain = metadata_v(r, version, [topic_name], allow_auto_topic_creation=False)
    (t,) = md.topics
    assert t.error_code == E.NONE and t.topic_id == (tid if version >= 10 else ZERO_UUID)
    assert t.topic_authorized_operations != OMITTED, "asked for, answered as if not requested"
    assert t.topic_authorized_operations == TOPIC_OPS, bin(t.topic_authorized_operations)
    if version <= 10:
        assert md.cluster_authorized_operations == CLUSTER_OPS, bin(md.cluster_authorized_operations)
        assert plain.cluster_authorized_operations == OMITTED
    assert plain.topics[0].topic_authorized_operations == OMITTED
    assert [p.partition_index for p in t.partitions] == [0, 1]
    assert all(p.leader_epoch >= 0 and p.leader_id >= 0 for p in t.partitions), t.partitions


# -- many connections at once ----------------------------------------------------------------------------

def test_200_concurrent_connections_then_a_real_client(broker, topic_name):
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    n = 200
    av = ApiVersionsRequest(client_software_name="many", client_software_version="1")
    md = MetadataRequest(topics=[MetadataRequestTopic(name=topic_name)], allow_auto_topic_creation=False)
    conns: list[Raw] = []
    try:
        for _ in range(n):  # all open at once
            conns.append(Raw(bs, timeout=30))
        for i, c in enumerate(conns):  # pipelined: ApiVersions then Metadata, on every connection
            c.send(codec.encode_request(API_VERSIONS, 3, 2 * i, "many", av)
                   + codec.encode_request(METADATA, 12, 2 * i + 1, "many", md))
        for i, c in enumerate(conns):
            corr, a = codec.decode_response(API_VERSIONS, 3, c.read_frame())
            assert (corr, a.error_code) == (2 * i, E.NONE)
            corr, m = codec.decode_response(METADATA, 12, c.read_frame())
            assert corr == 2 * i + 1
            assert [(t.name, t.error_code) for t in m.topics] == [(topic_name, E.NONE)]
        # with all of them still open, a real client produces and consumes
        assert confluent_produce(bs, topic_name, [[(b"k%d" % i, b"v%d" % i) for i in range(10)]]) == list(range(10))
        assert confluent_consume(bs, topic_name, 0, 10) == [(i, b"k%d" % i, b"v%d" % i) for i in range(10)]
        # and every old connection still answers
        for c in conns[::20]:
            assert c.request(API_VERSIONS, 3, av).error_code == E.NONE
    finally:
        for c in conns:
            c.close()
