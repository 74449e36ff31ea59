"""A handler failure is answered with an error response and never closes the connection.

The failure is injected in-process: ``failing(api_key, exc)`` swaps the API's
entry in ``kwire.handlers.REGISTRY`` for one whose handler raises (directly,
or from the coroutine it returns) and puts the real one back afterwards. The
broker is a real one on a loopback port, driven by kafka-python,
confluent-kafka and raw requests.

* every API x every advertised version: a request naming two items at every
  level gets a response (encoded by the broker, decoded here) whose every
  error code is UNKNOWN_SERVER_ERROR, with the request's items mirrored, and
  the same connection then answers the next request;
* OSError -> KAFKA_STORAGE_ERROR with a message where the version has one;
  a ``KafkaError`` keeps its code; the traceback is logged once; a handler
  response that does not encode counts as a failure too;
* clients see the error and carry on over the same connection; other
  connections are unaffected; acks=0 produce is the exception (Kafka closes
  the connection, there is no response to carry the error), for a handler
  failure and for a partition error alike.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import uuid

import pytest

from kwire.handlers import REGISTRY
from kwire.protocol import codec
from kwire.protocol.error_response import _plan_for as error_response_plan
from kwire.protocol.errors import ErrorCode, KafkaError

from clients import Wire, wait_until
from test_groups_support import create_topic

SCALAR_TYPES = {"bool", "int8", "int16", "int32", "int64", "uint16", "uint32", "float64",
                "string", "bytes", "uuid", "records"}
PARTITIONS = {"partition", "partition_index", "partition_id", "index"}
UUID = uuid.UUID("12345678-1234-5678-1234-567812345678")


# -- injecting failures ---------------------------------------------------------------

@contextlib.contextmanager
def failing(api_key: int, exc: Exception, *, from_coroutine: bool = False):
    """Make the handler of ``api_key`` raise ``exc`` until the block ends."""
    real = REGISTRY[api_key]

    def handle(ctx, request):
        if from_coroutine:
            async def later():
                raise exc
            return later()
        raise exc

    REGISTRY[api_key] = dataclasses.replace(real, handle=handle)
    try:
        yield
    finally:
        REGISTRY[api_key] = real


# -- raw requests -------------------------------------------------------------------

class Raw(Wire):
    def __init__(self, bootstrap: str) -> None:
        super().__init__(bootstrap, client_id="raw")


@pytest.fixture
def raw(broker):
    conns: list[Raw] = []

    def make() -> Raw:
        conns.append(Raw(broker.bootstrap))
        return conns[-1]

    yield make
    for c in conns:
        c.close()


def sample(module, struct_name: str, version: int, tag: str = "a"):
    """An instance naming two items in every array, from the generated FIELDS table."""
    cls = getattr(module, struct_name)
    obj = cls()
    for attr, typ, lo, hi, _ in module.FIELDS[struct_name]:
        if not lo <= version <= hi:
            continue
        if typ.startswith("[]"):
            elem = typ[2:]
            if elem in SCALAR_TYPES:
                values = {"string": [f"{attr}-1", f"{attr}-2"], "int32": [1, 2], "uuid": [UUID, UUID]}
                if elem in values:
                    setattr(obj, attr, values[elem])
            else:
                setattr(obj, attr, [sample(module, elem, version, tag + str(i)) for i in (1, 2)])
        elif typ == "string":
            setattr(obj, attr, f"{attr}-{tag}")
        elif typ == "int32" and attr in PARTITIONS:
            setattr(obj, attr, 7)
        elif typ == "uuid":
            setattr(obj, attr, UUID)
        elif typ not in SCALAR_TYPES:
            setattr(obj, attr, sample(module, typ, version, tag))
    if struct_name == "ProduceRequest":
        obj.acks = -1
    return obj


def error_fields(module, version: int, obj, path="") -> list[tuple[str, str, object]]:
    """(path, attr, value) of every error_code / error_message the version has in a response."""
    out = []
    for attr, typ, lo, hi, _ in module.FIELDS[type(obj).__name__]:
        if not lo <= version <= hi:
            continue
        value = getattr(obj, attr)
        if attr in ("error_code", "error_message"):
            out.append((path, attr, value))
        elif attr == "partition_error_code":  # AddPartitionsToTxn v0-3's per-partition error
            out.append((path, "error_code", value))
        elif typ.startswith("[]") and typ[2:] not in SCALAR_TYPES:
            for i, item in enumerate(value or ()):
                out += error_fields(module, version, item, f"{path}.{attr}[{i}]")
        elif typ not in SCALAR_TYPES and not typ.startswith("[]") and value is not None:
            out += error_fields(module, version, value, f"{path}.{attr}")
    return out


CASES = [pytest.param(key, v, id=f"{codec.APIS[key].name}-v{v}")
         for key, entry in sorted(REGISTRY.items())
         for v in range(entry.min_version, entry.max_version + 1)]

# Kafka's own error responses to these carry no error field (DescribeLogDirs < v3).
NO_ERROR_FIELD = {(35, 1), (35, 2)}


@pytest.mark.parametrize("api_key,version", CASES)
def test_every_api_version_answers_a_failure_and_keeps_the_connection(broker, raw, api_key, version):
    spec = codec.APIS[api_key]
    request = sample(spec.request_module, spec.request_class.__name__, version)
    conn = raw()
    with failing(api_key, RuntimeError("injected")):
        resp = conn.call(api_key, version, request)
    fields = error_fields(spec.response_module, version, resp)
    codes = [v for _, a, v in fields if a == "error_code"]
    messages = [v for _, a, v in fields if a == "error_message"]
    assert all(c == ErrorCode.UNKNOWN_SERVER_ERROR for c in codes), fields
    assert codes or (api_key, version) in NO_ERROR_FIELD, f"no error code in {resp!r}"
    assert all(m and "unexpected error" in m for m in messages), fields
    # the request's items come back: two per level (four where the request nests them)
    for r_attr, path, _, _ in error_response_plan(api_key, version)[3]:
        assert len(getattr(resp, r_attr)) == 2 ** len(path), (r_attr, resp)
    # the same connection serves the next request
    follow = 3 if api_key == 18 else 18
    from kwire.protocol.generated.api_versions_request import ApiVersionsRequest
    from kwire.protocol.generated.metadata_request import MetadataRequest

    nxt = conn.call(follow, 4 if follow == 18 else 12,
                    ApiVersionsRequest(client_software_name="t", client_software_version="1")
                    if follow == 18 else MetadataRequest(topics=[]))
    assert getattr(nxt, "error_code", 0) == 0


def test_case_count():
    assert len(CASES) > 150 and {k for k, _ in (c.values for c in CASES)} == set(REGISTRY)


# -- what the error responses say --------------------------------------------------------

def _produce_request(version: int, topic: str, partitions=(0, 1), acks: int = -1):
    from kwire.protocol.generated.produce_request import (
        PartitionProduceData, ProduceRequest, TopicProduceData)

    return ProduceRequest(acks=acks, timeout_ms=5000, topic_data=[
        TopicProduceData(name=topic, partition_data=[
            PartitionProduceData(index=p, records=None) for p in partitions])])


@pytest.mark.parametrize("version", [3, 7, 8, 12])
def test_produce_errors_are_per_partition_with_message(broker, raw, version):
    conn = raw()
    with failing(0, OSError(28, "No space left on device")):
        resp = conn.call(0, version, _produce_request(version, "disk-full", (0, 2)))
    [topic] = resp.responses
    assert topic.name == "disk-full"
    assert [(p.index, p.error_code) for p in topic.partition_responses] == [
        (0, ErrorCode.KAFKA_STORAGE_ERROR), (2, ErrorCode.KAFKA_STORAGE_ERROR)]
    if version >= 8:
        assert all("No space left on device" in p.error_message for p in topic.partition_responses)
    assert [p.base_offset for p in topic.partition_responses] == [-1, -1]


def test_kafka_error_keeps_its_code(broker, raw):
    from kwire.protocol.generated.list_offsets_request import (
        ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic)

    req = ListOffsetsRequest(replica_id=-1, topics=[ListOffsetsTopic(name="lo", partitions=[
        ListOffsetsPartition(partition_index=4, timestamp=-1)])])
    conn = raw()
    with failing(2, KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER, "moved")):
        resp = conn.call(2, 7, req)
    [t] = resp.topics
    assert (t.name, t.partitions[0].partition_index, t.partitions[0].error_code) == (
        "lo", 4, ErrorCode.NOT_LEADER_OR_FOLLOWER)


def test_failure_in_a_waiting_handler_is_answered_in_order(broker, raw):
    """A coroutine handler that raises is answered too, and pipelined requests keep their order."""
    from kwire.protocol.generated.metadata_request import MetadataRequest

    conn = raw()
    with failing(0, RuntimeError("late"), from_coroutine=True):
        c1 = conn.send(0, 9, _produce_request(9, "late", (1,)))
        c2 = conn.send(3, 12, MetadataRequest(topics=[]))
        r1 = conn.receive(0, 9, c1)
        r2 = conn.receive(3, 12, c2)
    assert r1.responses[0].partition_responses[0].error_code == ErrorCode.UNKNOWN_SERVER_ERROR
    assert r2.brokers


def test_failure_is_logged_once_with_traceback(broker, raw, caplog):
    conn = raw()
    with caplog.at_level(logging.ERROR, logger="kwire.server"):
        with failing(10, ValueError("boom-once")):
            conn.call(10, 3, sample(codec.APIS[10].request_module, "FindCoordinatorRequest", 3))
        wait_until(lambda: any("boom-once" in str(r.exc_info and r.exc_info[1])
                               for r in caplog.records))
    hits = [r for r in caplog.records if r.exc_info and "boom-once" in str(r.exc_info[1])]
    assert len(hits) == 1
    assert "error code -1" in hits[0].getMessage()


def test_unencodable_handler_response_is_a_handler_failure(broker, raw):
    """A handler's response that does not encode is answered like an exception, not a close."""
    from kwire.protocol.generated.metadata_request import MetadataRequest
    from kwire.protocol.generated.metadata_response import MetadataResponse

    real = REGISTRY[3]
    REGISTRY[3] = dataclasses.replace(real, handle=lambda ctx, req: MetadataResponse(topics=[None]))
    try:
        conn = raw()
        assert conn.call(3, 13, MetadataRequest(topics=None)).error_code == -1
    finally:
        REGISTRY[3] = real
    assert conn.call(3, 13, MetadataRequest(topics=[])).error_code == 0


def test_acks0_produce_failure_closes_the_connection_as_kafka_does(broker, raw):
    conn = raw()
    with failing(0, RuntimeError("no response to carry this")):
        conn.send(0, 9, _produce_request(9, "acks0", acks=0))
        assert conn.closed_by_peer()


def test_acks0_produce_partition_error_closes_the_connection_as_kafka_does(broker, raw):
    """No response carries an acks=0 produce's UNKNOWN_TOPIC_OR_PARTITION (or NOT_LEADER...):
    KafkaApis closes the connection so the producer refreshes its metadata; so does kwire."""
    from kwire.protocol.generated.metadata_request import MetadataRequest

    conn = raw()
    conn.send(0, 9, _produce_request(9, "acks0-no-such-topic", acks=0))
    assert conn.closed_by_peer()
    assert raw().call(3, 12, MetadataRequest(topics=[])).brokers  # the broker itself is fine


def test_other_connections_are_unaffected(broker, raw):
    from kwire.protocol.generated.metadata_request import MetadataRequest

    bystander, victim = raw(), raw()
    assert bystander.call(3, 12, MetadataRequest(topics=[])).brokers
    with failing(3, RuntimeError("metadata broken")):
        for _ in range(3):
            assert victim.call(3, 13, MetadataRequest(topics=None)).error_code == -1
    assert bystander.call(3, 12, MetadataRequest(topics=[])).brokers
    assert victim.call(3, 13, MetadataRequest(topics=[])).error_code == 0


# -- real clients ----------------------------------------------------------------------

def _connections(broker) -> set:
    return set(broker.server.connections)


def test_kafka_python_producer_sees_the_error_and_keeps_its_connection(broker, topic_name):
    import kafka.errors as E
    from kafka import KafkaProducer

    create_topic(broker.bootstrap, topic_name, 1)
    p = KafkaProducer(bootstrap_servers=broker.bootstrap, acks=-1, retries=0,
                      request_timeout_ms=15000, max_block_ms=15000, linger_ms=0)
    try:
        p.send(topic_name, b"warm-up").get(timeout=20)
        before = _connections(broker)
        with failing(0, RuntimeError("produce broken")):
            with pytest.raises(E.KafkaError) as err:
                p.send(topic_name, b"lost").get(timeout=20)
        assert getattr(err.value, "errno", None) == -1, repr(err.value)
        md = p.send(topic_name, b"after").get(timeout=20)
        assert md.offset == 1  # the failed batch was not stored
        assert before <= _connections(broker)  # the producer's connections survived
    finally:
        p.close(timeout=5)


def test_confluent_admin_create_topics_error_then_success(broker, topic_name, caplog):
    from confluent_kafka import KafkaError as CKError
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.list_topics(timeout=20)
    caplog.set_level(logging.WARNING, logger="kwire.server")
    with failing(19, RuntimeError("create broken")):
        fut = admin.create_topics([NewTopic(topic_name, 1, 1)], request_timeout=15)[topic_name]
        err = fut.exception(timeout=20)
    assert err is not None and err.args[0].code() == CKError.UNKNOWN, err
    assert admin.create_topics([NewTopic(topic_name, 1, 1)],
                               request_timeout=15)[topic_name].result(timeout=20) is None
    # librdkafka retires its bootstrap connection on its own; the broker closed none
    assert not [r for r in caplog.records if "closing connection" in r.getMessage()]


def test_kafka_python_find_coordinator_error_then_success(broker):
    import kafka.errors as E
    from kafka import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap, request_timeout_ms=15000)
    try:
        admin.list_topics()
        before = _connections(broker)
        with failing(10, RuntimeError("coordinator broken")):
            with pytest.raises(E.KafkaError):
                admin.describe_groups(["hg-group"])
        described = admin.describe_groups(["hg-group"])
        assert "hg-group" in repr(described)
        assert before <= _connections(broker)
    finally:
        admin.close()


def test_kafka_python_offset_commit_error(broker, topic_name):
    import kafka.errors as E
    from kafka import KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata

    create_topic(broker.bootstrap, topic_name, 1)
    c = KafkaConsumer(bootstrap_servers=broker.bootstrap, group_id=f"g-{topic_name}",
                      enable_auto_commit=False, request_timeout_ms=15000)
    try:
        tp = TopicPartition(topic_name, 0)
        with failing(8, RuntimeError("commit broken")):
            with pytest.raises(E.KafkaError) as err:
                c.commit({tp: OffsetAndMetadata(3, "", -1)})
        assert getattr(err.value, "errno", None) == -1, repr(err.value)
        c.commit({tp: OffsetAndMetadata(3, "", -1)})
        assert c.committed(tp) == 3
    finally:
        c.close()
