"""Request, controller-mutation and connection-creation quotas (KIP-124, KIP-599, KIP-612).

One in-process broker with one-second quota windows (``quota.window.num=2``,
``controller.quota.window.num=2``, ``*.window.size.seconds=1``) so that a
burst measures at once; every quota is set with AlterClientQuotas on the wire
for a client id (or an ip) of its own test, so the tests do not disturb one
another.

* ``request_percentage``: a confluent-kafka producer whose client id has a
  tiny quota sees ``throttle_cb`` fire (throttle_time_ms > 0 from the broker),
  while a producer without a quota keeps its normal latency; on the wire the
  throttle is capped at one window (1000 ms);
* ``controller_mutation_rate``: CreateTopics v7 / CreatePartitions v3 /
  DeleteTopics v6 on the wire (the first request over the burst is accepted,
  the next answers THROTTLING_QUOTA_EXCEEDED per topic with throttle_time_ms;
  v5 is accepted and throttled), confluent-kafka's AdminClient, and the Java
  Admin (retryOnQuotaViolation: succeeds after the throttle; off:
  ThrottlingQuotaExceededException);
* connection creation: ``max.connection.creation.rate`` delays accepting
  (every connection is served, later), an ip's ``connection_creation_rate``
  closes the connections over it unanswered (from 127.0.0.2) while a real
  client from 127.0.0.1 is served.
"""

from __future__ import annotations

import socket
import time

import pytest

from clients import Wire, wait_until
from test_security_quotas import _alter

THROTTLING_QUOTA_EXCEEDED = 89


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    from conftest import InProcessBroker

    d = tmp_path_factory.mktemp("kwire-request-quotas")
    b = InProcessBroker(d, {"log.dirs": str(d), "listeners": "PLAINTEXT://127.0.0.1:0",
                            "quota.window.num": "2", "quota.window.size.seconds": "1",
                            "controller.quota.window.num": "2", "controller.quota.window.size.seconds": "1"})
    yield b
    b.stop()


def _admin(broker) -> Wire:
    return Wire(broker.bootstrap, client_id="quota-admin")


def _metadata(w: Wire):
    from kwire.protocol.generated.metadata_request import MetadataRequest

    return w(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=False))


# -- request_percentage (KIP-124) ------------------------------------------------------------
def test_request_percentage_throttles_only_the_client_with_the_quota(broker):
    from confluent_kafka import Producer

    admin = _admin(broker)
    assert _alter(admin, [("client-id", "busy")], [("request_percentage", 0.001)]).error_code == 0
    assert _alter(admin, [("client-id", "busy-wire")], [("request_percentage", 0.001)]).error_code == 0

    # on the wire: a request or two use more than 0.001 % of the loop (10 us a second); the
    # throttle is capped at one window
    w = Wire(broker.bootstrap, client_id="busy-wire")
    throttles = []
    while not any(throttles) and len(throttles) < 5:
        throttles.append(_metadata(w).throttle_time_ms)
    assert 0 < throttles[-1] <= 1000, throttles

    events = []
    busy = Producer({"bootstrap.servers": broker.bootstrap, "client.id": "busy", "linger.ms": 0,
                     "throttle_cb": lambda e: events.append(e.throttle_time)})
    free = Producer({"bootstrap.servers": broker.bootstrap, "client.id": "free", "linger.ms": 0,
                     "throttle_cb": lambda e: events.append(("free", e.throttle_time))})
    busy.produce("rq", b"v")
    assert busy.flush(20) == 0
    wait_until(lambda: (busy.poll(0.1), events)[1], what="a throttle_cb for 'busy'")
    assert max(t for t in events if not isinstance(t, tuple)) > 0, events

    latencies = []
    for i in range(5):
        t0 = time.monotonic()
        free.produce("rq", b"f%d" % i)
        assert free.flush(20) == 0
        latencies.append(time.monotonic() - t0)
    assert max(latencies) < 0.8, latencies  # not throttled: no second-long pauses
    free.poll(0)
    assert not [e for e in events if isinstance(e, tuple)], events
    # removing the quota lifts it
    assert _alter(admin, [("client-id", "busy-wire")], [("request_percentage", None)]).error_code == 0
    w2 = Wire(broker.bootstrap, client_id="busy-wire")
    assert _metadata(w2).throttle_time_ms == 0


# -- controller_mutation_rate (KIP-599) ------------------------------------------------------
def _create_topics(w: Wire, version: int, topics: list[tuple[str, int]]):
    from kwire.protocol.generated.create_topics_request import CreatableTopic, CreateTopicsRequest

    return w(19, version, CreateTopicsRequest(timeout_ms=10000, validate_only=False, topics=[
        CreatableTopic(name=n, num_partitions=p, replication_factor=1, assignments=[], configs=[])
        for n, p in topics]))


def test_controller_mutation_quota_on_the_wire(broker):
    from kwire.protocol.generated.create_partitions_request import CreatePartitionsRequest, CreatePartitionsTopic
    from kwire.protocol.generated.delete_topics_request import DeleteTopicsRequest, DeleteTopicState

    admin = _admin(broker)
    # rate 1/s, 2 windows of 1 s: a burst of 2 partitions
    for cid in ("ctl-wire", "ctl-old", "ctl-del"):
        assert _alter(admin, [("client-id", cid)], [("controller_mutation_rate", 1)]).error_code == 0
    w = Wire(broker.bootstrap, client_id="ctl-wire")
    r = _create_topics(w, 7, [("cm-a", 4), ("cm-b", 1)])  # cm-a takes the bucket to -2: accepted
    codes = {t.name: t.error_code for t in r.topics}
    assert codes == {"cm-a": 0, "cm-b": THROTTLING_QUOTA_EXCEEDED}, codes
    assert [t.error_message for t in r.topics if t.name == "cm-b"] == ["The throttling quota has been exceeded."]
    assert 1000 < r.throttle_time_ms <= 2000, r.throttle_time_ms
    # (w is muted for the throttle time) another connection of the client: the bucket is still below 0
    w = Wire(broker.bootstrap, client_id="ctl-wire")
    r = w(37, 3, CreatePartitionsRequest(topics=[CreatePartitionsTopic(name="cm-a", count=5, assignments=None)],
                                         timeout_ms=10000, validate_only=False))
    assert r.results[0].error_code == THROTTLING_QUOTA_EXCEEDED and r.throttle_time_ms > 0
    # validate_only takes nothing
    from kwire.protocol.generated.create_topics_request import CreatableTopic, CreateTopicsRequest

    r = w(19, 7, CreateTopicsRequest(timeout_ms=10000, validate_only=True, topics=[
        CreatableTopic(name="cm-v", num_partitions=50, replication_factor=1, assignments=[], configs=[])]))
    assert r.topics[0].error_code == 0
    # once the bucket refilled, the topic goes through
    wait_until(lambda: _create_topics(w, 7, [("cm-b", 1)]).topics[0].error_code == 0, timeout=20,
               what="cm-b created once the bucket refilled")
    # deletes count their partitions: cm-a's 4 go through (burst 2), then cm-b is refused
    deleter = Wire(broker.bootstrap, client_id="ctl-del")
    d = deleter(20, 6, DeleteTopicsRequest(topics=[DeleteTopicState(name="cm-a"), DeleteTopicState(name="cm-b")],
                                           timeout_ms=10000))
    assert {t.name: t.error_code for t in d.responses} == {"cm-a": 0, "cm-b": THROTTLING_QUOTA_EXCEEDED}
    # v5 (before KIP-599's strict versions): accepted, and the response throttled
    old = Wire(broker.bootstrap, client_id="ctl-old")
    r = _create_topics(old, 5, [("cm-c", 3), ("cm-d", 3)])
    assert [t.error_code for t in r.topics] == [0, 0] and r.throttle_time_ms > 0


def test_controller_mutation_quota_confluent_admin(broker):
    """librdkafka sends CreateTopics below v6 (KIP-599's first strict version): as Kafka, every topic is
    created and the response is throttled (its throttle_cb fires)."""
    from confluent_kafka.admin import AdminClient, NewTopic

    assert _alter(_admin(broker), [("client-id", "ctl-ck")], [("controller_mutation_rate", 1)]).error_code == 0
    events = []
    a = AdminClient({"bootstrap.servers": broker.bootstrap, "client.id": "ctl-ck",
                     "throttle_cb": lambda e: events.append(e.throttle_time)})
    fs = a.create_topics([NewTopic("ck-a", 4, 1), NewTopic("ck-b", 1, 1)], request_timeout=20)
    assert fs["ck-a"].result(20) is None and fs["ck-b"].result(20) is None
    wait_until(lambda: (a.poll(0.1), events)[1], what="AdminClient throttle_cb")
    assert max(events) > 1.0, events  # seconds: 3 partitions over the burst at 1/s


def _java(*args: str, timeout: float = 120) -> list[dict]:
    from javaclient import run_class

    return run_class("KwireQuotas", *args, timeout=timeout, check=True)


def test_controller_mutation_quota_java_admin_retries_or_fails(broker):
    admin = _admin(broker)
    for cid in ("ctl-java-retry", "ctl-java-noretry"):
        assert _alter(admin, [("client-id", cid)], [("controller_mutation_rate", 1)]).error_code == 0
    out = _java("create-topics", broker.bootstrap, "ctl-java-noretry", "false", "jn-a:4", "jn-b:1")
    errors = {o["name"]: o["error"] for o in out if o["type"] == "topic"}
    assert errors == {"jn-a": "none", "jn-b": "ThrottlingQuotaExceededException"}, out
    out = _java("create-topics", broker.bootstrap, "ctl-java-retry", "true", "jr-a:4", "jr-b:1")
    errors = {o["name"]: o["error"] for o in out if o["type"] == "topic"}
    assert errors == {"jr-a": "none", "jr-b": "none"}, out  # jr-b retried after the throttle time
    done = [o for o in out if o["type"] == "done"][0]
    assert done["ms"] >= 1000, done  # it did wait for the bucket


# -- connection creation rate (KIP-612) ----------------------------------------------------
def _served(bootstrap: str, source: str | None = None) -> bool:
    """A new connection answers one ApiVersions request (False: closed unanswered)."""
    from kwire.protocol import codec
    from kwire.protocol.generated.api_versions_request import ApiVersionsRequest

    host, port = bootstrap.rsplit(":", 1)
    s = socket.socket()
    try:
        if source:
            s.bind((source, 0))
        s.settimeout(20)
        s.connect((host, int(port)))
        s.sendall(codec.encode_request(18, 3, 1, "conn-rate", ApiVersionsRequest(
            client_software_name="t", client_software_version="1")))
        return len(s.recv(4)) == 4
    except OSError:
        return False
    finally:
        s.close()


def test_ip_connection_creation_rate_closes_connections_over_it(broker):
    from confluent_kafka import Producer

    assert _alter(_admin(broker), [("ip", "127.0.0.2")], [("connection_creation_rate", 2)]).error_code == 0
    t0 = time.monotonic()
    results = [_served(broker.bootstrap, "127.0.0.2") for _ in range(5)]
    assert results[:2] == [True, True] and not any(results[2:]), results
    # a client from another address is not affected
    p = Producer({"bootstrap.servers": broker.bootstrap, "client.id": "conn-rate-other"})
    p.produce("conn-rate", b"x")
    assert p.flush(20) == 0
    # the rate falls below the quota again
    wait_until(lambda: _served(broker.bootstrap, "127.0.0.2"), timeout=20, interval=0.2,
               what="127.0.0.2 served again")
    assert time.monotonic() - t0 < 20


def test_max_connection_creation_rate_delays_accepting(tmp_path):
    from conftest import InProcessBroker

    b = InProcessBroker(tmp_path, {"log.dirs": str(tmp_path), "listeners": "PLAINTEXT://127.0.0.1:0",
                                   "quota.window.num": "2", "quota.window.size.seconds": "1",
                                   "max.connection.creation.rate": "5"})
    try:
        t0 = time.monotonic()
        assert all(_served(b.bootstrap) for _ in range(12))  # none refused
        assert time.monotonic() - t0 >= 1.0  # 12 at 5/s: accepting waited
    finally:
        b.stop()
