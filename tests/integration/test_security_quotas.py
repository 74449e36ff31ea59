"""Client quotas: AlterClientQuotas / DescribeClientQuotas on the wire, and produce throttling.

A broker with ``quota.window.num=2`` and ``quota.window.size.seconds=1`` (so
that a burst measures at once); a ``producer_byte_rate`` quota for one
client id: its produce responses carry ``throttle_time_ms`` and the
connection is muted that long (KIP-219), while another client id is not
throttled. (kafka-python, confluent-kafka and aiokafka have no quota admin API:
the requests are made with kwire's codec.)
"""

from __future__ import annotations

import time

import pytest

from clients import Wire


@pytest.fixture(scope="module")
def quota_broker(tmp_path_factory):
    from conftest import InProcessBroker

    d = tmp_path_factory.mktemp("kwire-quotas")
    b = InProcessBroker(d, {"log.dirs": str(d), "listeners": "PLAINTEXT://127.0.0.1:0",
                            "quota.window.num": "2", "quota.window.size.seconds": "1"})
    yield b
    b.stop()


def _alter(w, entity: list[tuple[str, str | None]], ops: list[tuple[str, float | None]], validate_only=False):
    from kwire.protocol.generated.alter_client_quotas_request import (AlterClientQuotasRequest, EntityData,
                                                                      EntryData, OpData)

    req = AlterClientQuotasRequest(validate_only=validate_only, entries=[EntryData(
        entity=[EntityData(entity_type=t, entity_name=n) for t, n in entity],
        ops=[OpData(key=k, value=v or 0.0, remove=v is None) for k, v in ops])])
    return w(49, 1, req).entries[0]


def _produce(w, topic: str, nbytes: int):
    from kwire.protocol.generated.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
    from kwire.records.builder import build_batch

    batch = build_batch([(None, b"x" * nbytes)])
    return w(0, 9, ProduceRequest(transactional_id=None, acks=1, timeout_ms=10000, topic_data=[
        TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])]))


def test_quotas_are_altered_described_and_enforced(quota_broker):
    from kwire.protocol.generated.describe_client_quotas_request import ComponentData, DescribeClientQuotasRequest
    from kwire.protocol.generated.metadata_request import MetadataRequest, MetadataRequestTopic

    admin = Wire(quota_broker.bootstrap, client_id="admin")
    admin(3, 12, MetadataRequest(topics=[MetadataRequestTopic(name="q")], allow_auto_topic_creation=True))
    assert _alter(admin, [("client-id", "slow")], [("producer_byte_rate", 50_000)]).error_code == 0
    assert _alter(admin, [("user", None)], [("consumer_byte_rate", 1e9)]).error_code == 0
    bad = _alter(admin, [("client-id", "slow")], [("no_such_quota", 1)])
    assert bad.error_code == 42 and "no_such_quota" in bad.error_message  # INVALID_REQUEST
    assert _alter(admin, [("ip", "1.2.3.4")], [("producer_byte_rate", 1)]).error_code == 42
    assert _alter(admin, [("client-id", "x")], [("producer_byte_rate", 5)], validate_only=True).error_code == 0
    r = admin(48, 1, DescribeClientQuotasRequest(components=[ComponentData(entity_type="client-id", match_type=0,
                                                                            match="slow")], strict=False))
    assert [(e.entity[0].entity_name, [(v.key, v.value) for v in e.values]) for e in r.entries] == [
        ("slow", [("producer_byte_rate", 50000.0)])]
    r = admin(48, 1, DescribeClientQuotasRequest(components=[ComponentData(entity_type="user", match_type=1)],
                                                 strict=True))
    assert [e.entity[0].entity_name for e in r.entries] == [None]

    slow, fast = Wire(quota_broker.bootstrap, client_id="slow"), Wire(quota_broker.bootstrap, client_id="fast")
    assert _produce(fast, "q", 200_000).throttle_time_ms == 0
    resp = _produce(slow, "q", 200_000)
    assert resp.responses[0].partition_responses[0].error_code == 0
    throttle = resp.throttle_time_ms
    assert throttle > 500, throttle  # 200 kB in under a second against 50 kB/s
    t0 = time.monotonic()
    slow(3, 12, MetadataRequest(topics=[], allow_auto_topic_creation=False))  # muted meanwhile
    assert time.monotonic() - t0 >= throttle / 1000 * 0.8
    assert _produce(fast, "q", 1000).throttle_time_ms == 0
    # removing the quota lifts it
    assert _alter(admin, [("client-id", "slow")], [("producer_byte_rate", None)]).error_code == 0
    assert _produce(slow, "q", 200_000).throttle_time_ms == 0
