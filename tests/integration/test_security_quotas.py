"""Client quotas: AlterClientQuotas / DescribeClientQuotas on the wire and from the Java Admin, and throttling.

A broker with ``quota.window.num=2`` and ``quota.window.size.seconds=1`` (so
that a burst measures at once):

* a ``producer_byte_rate`` quota for one client id: its produce responses
  carry ``throttle_time_ms`` and the connection is muted that long (KIP-219),
  while another client id is not throttled (requests made with kwire's codec:
  kafka-python, confluent-kafka and aiokafka have no quota admin API);
* a ``consumer_byte_rate`` quota for a client id, set and described with the
  Java Admin (tests/java/KwireQuotas.java): a raw Fetch with that client id is
  answered with ``throttle_time_ms`` > 0, one with another client id with 0;
  a confluent-kafka consumer with the client id reports the throttle
  (``throttle_cb`` and the ``throttle`` window of its statistics) and reads
  no faster than about the quota, an unlimited one reports none;
* a quota on a SASL user (entity type ``user``, Java Admin over
  SASL_PLAINTEXT, described back): that user's confluent-kafka producer is
  throttled, another user's with the same client id is not.
"""

from __future__ import annotations

import json
import time

import pytest

from clients import Wire, wait_until


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


# -- consumer_byte_rate: Fetch throttling ------------------------------------------------------
FETCH_QUOTA = 200_000  # consumer_byte_rate, bytes/s
FETCH_BATCHES, FETCH_BATCH_RECORDS, FETCH_VALUE = 20, 4, 15_000  # 20 batches of 60 kB: 1.2 MB


def _java_quotas(*args: str, timeout: float = 120) -> list[dict]:
    from javaclient import run_class

    return run_class("KwireQuotas", *args, timeout=timeout, check=True)


def _described(out: list[dict]) -> list[tuple[dict, dict]]:
    return sorted(((o["entity"], o["values"]) for o in out if o["type"] == "quota"), key=repr)


def _fill(bootstrap: str, topic: str) -> int:
    """FETCH_BATCHES batches of FETCH_BATCH_RECORDS records to partition 0; the bytes stored."""
    from kwire.protocol.generated.metadata_request import MetadataRequest, MetadataRequestTopic
    from kwire.protocol.generated.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
    from kwire.records.builder import build_batch

    w = Wire(bootstrap, client_id="filler")
    w(3, 12, MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=True))
    stored = 0
    for i in range(FETCH_BATCHES):
        batch = build_batch([(None, bytes([65 + i % 26]) * FETCH_VALUE)] * FETCH_BATCH_RECORDS)
        r = w(0, 9, ProduceRequest(transactional_id=None, acks=1, timeout_ms=10000, topic_data=[
            TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])]))
        assert r.responses[0].partition_responses[0].error_code == 0
        stored += len(batch)
    return stored


def _consume_timed(bootstrap: str, topic: str, client_id: str, n: int) -> dict:
    """Read ``n`` records of partition 0 from offset 0 with confluent-kafka, about one batch per
    fetch; what the client reported about throttling, and the time from the first record to the last."""
    from confluent_kafka import Consumer, TopicPartition

    throttles, stats = [], []
    c = Consumer({"bootstrap.servers": bootstrap, "client.id": client_id, "group.id": f"g-{client_id}",
                  "enable.auto.commit": False, "max.partition.fetch.bytes": 64000,
                  "statistics.interval.ms": 200,
                  "throttle_cb": lambda e: throttles.append(e.throttle_time),
                  "stats_cb": lambda s: stats.append(json.loads(s))})
    try:
        c.assign([TopicPartition(topic, 0, 0)])
        got, first = 0, None
        deadline = time.monotonic() + 90
        while got < n and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None and m.error() is None:
                got += 1
                first = first or time.monotonic()
        elapsed = time.monotonic() - first if first else 0.0
        end = time.monotonic() + 1.0  # one more statistics interval, then the window's maximum
        while time.monotonic() < end:
            c.poll(0.2)
    finally:
        c.close()
    stats_max = max((b["throttle"]["max"] for s in stats for b in s["brokers"].values() if b["nodeid"] >= 0),
                    default=0)
    return {"records": got, "elapsed": elapsed, "throttle_cb_max_s": max(throttles, default=0.0),
            "stats_throttle_max_ms": stats_max}


def test_consumer_byte_rate_throttles_fetches(quota_broker):
    from test_wire_fetch import fetch_request

    b = quota_broker.bootstrap
    stored = _fill(b, "fetch-q")
    # a default-user quota (left by the test above) would take precedence over a client-id one, as
    # in Kafka (default user before client id): removing it (the Java Admin's default entity) first
    _java_quotas("alter-quotas", b, "-", "user=", "consumer_byte_rate=")
    for cid in ("slow-fetch", "slow-fetch-wire"):
        _java_quotas("alter-quotas", b, "-", f"client-id={cid}", f"consumer_byte_rate={FETCH_QUOTA}")
    assert _described(_java_quotas("describe-quotas", b, "-", "client-id", "slow-fetch")) == [
        ({"client-id": "slow-fetch"}, {"consumer_byte_rate": float(FETCH_QUOTA)})]

    # on the wire: one fetch of the whole partition (1.2 MB against 200 kB/s) is throttled,
    # capped at the two windows; the same fetch by a client id without a quota is not
    def fetch(client_id: str):
        r = Wire(b, client_id=client_id)(1, 12, fetch_request(12, "fetch-q", None, {0: 0}))
        return r, len(bytes(r.responses[0].partitions[0].records or b""))
    r, n = fetch("slow-fetch-wire")
    assert n == stored
    assert 0 < r.throttle_time_ms <= 2000, r.throttle_time_ms
    r, n = fetch("free-fetch-wire")
    assert n == stored and r.throttle_time_ms == 0

    # a real consumer: the client reports the broker's throttle and reads at about the quota
    total = FETCH_BATCHES * FETCH_BATCH_RECORDS
    slow = _consume_timed(b, "fetch-q", "slow-fetch", total)
    assert slow["records"] == total, slow
    assert slow["throttle_cb_max_s"] > 0 and slow["stats_throttle_max_ms"] > 0, slow
    # after the first batch the rest comes at most at twice the quota (two one-second windows
    # let a burst through; a slower machine only lowers the rate)
    rate = (stored - stored / FETCH_BATCHES) / slow["elapsed"]
    assert rate < 2 * FETCH_QUOTA, (rate, slow)
    free = _consume_timed(b, "fetch-q", "free-fetch", total)
    assert free["records"] == total, free
    assert free["throttle_cb_max_s"] == 0 and free["stats_throttle_max_ms"] == 0, free
    print(f"consumer_byte_rate={FETCH_QUOTA}: throttled consumer read {stored} B at {rate / 1000:.0f} kB/s "
          f"({slow}); unlimited: {free}")


# -- a quota on a SASL user ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sasl_quota_broker(tmp_path_factory):
    from conftest import InProcessBroker
    from test_security import sasl_listener

    d = tmp_path_factory.mktemp("kwire-sasl-quotas")
    b = InProcessBroker(d, {"log.dirs": str(d), "quota.window.num": "2", "quota.window.size.seconds": "1",
                            **sasl_listener(mechanisms="PLAIN")})
    yield b
    b.stop()


def test_user_quota_over_sasl(sasl_quota_broker, tmp_path):
    from confluent_kafka import Producer

    b = sasl_quota_broker.bootstrap
    props = tmp_path / "admin.properties"
    props.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                     "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                     'username="admin" password="admin-secret";\n')
    _java_quotas("alter-quotas", b, str(props), "user=alice", "producer_byte_rate=50000")
    assert _described(_java_quotas("describe-quotas", b, str(props), "user")) == [
        ({"user": "alice"}, {"producer_byte_rate": 50000.0})]

    def produce_as(user: str, password: str, throttled: bool) -> list[float]:
        """300 kB from a producer with the same client id for both users; its throttle_cb events (s)."""
        events = []
        p = Producer({"bootstrap.servers": b, "client.id": "shared-app", "security.protocol": "SASL_PLAINTEXT",
                      "sasl.mechanism": "PLAIN", "sasl.username": user, "sasl.password": password,
                      "throttle_cb": lambda e: events.append(e.throttle_time)})
        for _ in range(10):
            p.produce("user-quota", b"u" * 30_000)
        assert p.flush(60) == 0
        if throttled:
            wait_until(lambda: (p.poll(0.1), events)[1], what=f"{user}'s throttle_cb")
        else:
            p.poll(1.0)  # a throttle event, had there been one, is served by now
        return events

    events = produce_as("alice", "alice-secret", throttled=True)
    assert max(events) > 0, events  # 300 kB against 50 kB/s
    assert produce_as("admin", "admin-secret", throttled=False) == []  # same client id, another user
    # removed with the Java Admin, it is gone
    _java_quotas("alter-quotas", b, str(props), "user=alice", "producer_byte_rate=")
    assert _described(_java_quotas("describe-quotas", b, str(props), "user")) == []
