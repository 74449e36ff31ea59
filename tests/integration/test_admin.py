"""Admin APIs over TCP with real clients: kafka-python's KafkaAdminClient and
confluent-kafka's AdminClient against an in-process kwire broker.

Covers CreateTopics (validate_only, defaults, errors with Kafka's codes and
messages), DescribeConfigs (sources, synonyms, read-only flags, broker and
broker-logger resources), AlterConfigs and IncrementalAlterConfigs (applied,
validated, persisted across a restart on the same data directory),
CreatePartitions, DeleteRecords (then consuming from 0 is out of range),
DeleteTopics (by name and id), DescribeLogDirs, DescribeCluster and
DescribeTopicPartitions (paging with the cursor).
"""

from __future__ import annotations

import time
import uuid

import pytest
from confluent_kafka import KafkaError as CKafkaError
from confluent_kafka import TopicPartition as CTopicPartition
from confluent_kafka.admin import (
    AclOperation,
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource as CConfigResource,
    ConfigSource,
    NewPartitions,
    NewTopic,
    ResourceType,
)
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka import errors as Errors
from kafka.admin import ConfigResource, KafkaAdminClient

from clients import failed_with

pytestmark = pytest.mark.timeout(120)

TIMEOUT_S = 20


# -- helpers ---------------------------------------------------------------------------

@pytest.fixture
def kadmin(broker):
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap, request_timeout_ms=10_000)
    yield admin
    admin.close()


@pytest.fixture
def cadmin(broker):
    return AdminClient({"bootstrap.servers": broker.bootstrap})


def c_result(future):
    return future.result(timeout=TIMEOUT_S)


def produce(bootstrap: str, topic: str, n: int, partition: int = 0) -> None:
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=0, max_block_ms=10_000,
                             request_timeout_ms=10_000)
    try:
        futures = [producer.send(topic, value=b"v%d" % i, partition=partition) for i in range(n)]
        for f in futures:
            f.get(timeout=TIMEOUT_S)
    finally:
        producer.close(timeout=10)


def describe_topic_configs(cadmin: AdminClient, topic: str) -> dict[str, ConfigEntry]:
    res = CConfigResource(ResourceType.TOPIC, topic)
    return c_result(cadmin.describe_configs([res])[res])


def describe_broker_configs(cadmin: AdminClient, broker_id: str = "0") -> dict[str, ConfigEntry]:
    res = CConfigResource(ResourceType.BROKER, broker_id)
    return c_result(cadmin.describe_configs([res])[res])


def incremental(cadmin: AdminClient, restype, name: str, entries: list[ConfigEntry], validate_only=False):
    res = CConfigResource(restype, name, incremental_configs=entries)
    return cadmin.incremental_alter_configs([res], validate_only=validate_only)[res]


def entry(name: str, value: str | None, op: AlterConfigOpType = AlterConfigOpType.SET) -> ConfigEntry:
    return ConfigEntry(name, value, incremental_operation=op)


# -- CreateTopics ------------------------------------------------------------------------

def test_create_topics_validate_only_defaults_and_configs(kadmin, topic_name):
    res = kadmin.create_topics({topic_name: {"num_partitions": 3, "replication_factor": 1,
                                             "configs": {"retention.ms": "60000"}}},
                               validate_only=True)
    (t,) = res["topics"]
    assert t["error_code"] == 0
    assert t["num_partitions"] == 3 and t["replication_factor"] == 1
    assert t["configs"]["retention.ms"]["value"] == "60000"
    assert t["configs"]["retention.ms"]["config_source"] == "DYNAMIC_TOPIC_CONFIG"
    assert t["configs"]["cleanup.policy"]["config_source"] == "DEFAULT_CONFIG"
    assert topic_name not in kadmin.list_topics(), "validate_only must not create the topic"

    # -1 / -1: num.partitions and default.replication.factor (both 1 here)
    res = kadmin.create_topics({topic_name: {}})
    (t,) = res["topics"]
    assert t["error_code"] == 0
    assert (t["num_partitions"], t["replication_factor"]) == (1, 1)
    assert uuid.UUID(str(t["topic_id"])) != uuid.UUID(int=0)
    assert topic_name in kadmin.list_topics()
    (desc,) = kadmin.describe_topics([topic_name])
    assert len(desc["partitions"]) == 1


def test_create_topics_errors_kafka_python(kadmin, topic_name):
    kadmin.create_topics({topic_name: {"num_partitions": 1, "replication_factor": 1}})
    with pytest.raises(Errors.TopicAlreadyExistsError):
        kadmin.create_topics({topic_name: {"num_partitions": 1, "replication_factor": 1}})
    res = kadmin.create_topics({topic_name: {"num_partitions": 1}}, raise_errors=False)
    assert res["topics"][0]["error_message"] == f"Topic '{topic_name}' already exists."

    other = topic_name + "-x"
    res = kadmin.create_topics({other: {"num_partitions": 1, "replication_factor": 3}}, raise_errors=False)
    (t,) = res["topics"]
    assert t["error_code"] == Errors.InvalidReplicationFactorError.errno
    assert t["error_message"] == ("Unable to replicate the partition 3 time(s): The target replication "
                                  "factor of 3 cannot be reached because only 1 broker(s) are registered.")

    res = kadmin.create_topics({other: {"configs": {"retention.ms": "soon"}}}, raise_errors=False)
    assert res["topics"][0]["error_code"] == Errors.InvalidConfigurationError.errno
    assert "retention.ms" in res["topics"][0]["error_message"]
    res = kadmin.create_topics({other: {"configs": {"no.such.config": "1"}}}, raise_errors=False)
    assert res["topics"][0]["error_code"] == Errors.InvalidConfigurationError.errno
    assert res["topics"][0]["error_message"] == "Unknown topic config name: no.such.config"

    res = kadmin.create_topics({"bad name!": {}}, raise_errors=False)
    assert res["topics"][0]["error_code"] == Errors.InvalidTopicError.errno
    res = kadmin.create_topics({other: {"num_partitions": 0}}, raise_errors=False)
    assert res["topics"][0]["error_code"] == Errors.InvalidPartitionsError.errno

    # a manual assignment may only name this broker (0)
    res = kadmin.create_topics({other: {"assignments": {0: [1]}}}, raise_errors=False)
    assert res["topics"][0]["error_code"] == Errors.InvalidReplicationAssignmentError.errno
    res = kadmin.create_topics({other: {"assignments": {0: [0], 1: [0]}}})
    assert res["topics"][0]["num_partitions"] == 2
    assert other in kadmin.list_topics()


def test_create_topics_errors_confluent(cadmin, topic_name):
    fs = cadmin.create_topics([NewTopic(topic_name, 2, 1)], validate_only=True)
    assert c_result(fs[topic_name]) is None
    assert topic_name not in cadmin.list_topics(timeout=TIMEOUT_S).topics

    assert c_result(cadmin.create_topics([NewTopic(topic_name, 2, 1)])[topic_name]) is None
    assert len(cadmin.list_topics(timeout=TIMEOUT_S).topics[topic_name].partitions) == 2
    assert failed_with(cadmin.create_topics([NewTopic(topic_name, 2, 1)])[topic_name]).code() == \
        CKafkaError.TOPIC_ALREADY_EXISTS

    other = topic_name + "-x"
    assert failed_with(cadmin.create_topics([NewTopic(other, 1, 2)])[other]).code() == \
        CKafkaError.INVALID_REPLICATION_FACTOR
    bad = NewTopic(other, 1, 1, config={"cleanup.policy": "shred"})
    assert failed_with(cadmin.create_topics([bad])[other]).code() == CKafkaError.INVALID_CONFIG


# -- DescribeConfigs -----------------------------------------------------------------------

def test_describe_topic_configs_sources(cadmin, kadmin, topic_name):
    kadmin.create_topics({topic_name: {"num_partitions": 1, "configs": {"retention.ms": "120000"}}})
    configs = describe_topic_configs(cadmin, topic_name)
    assert len(configs) > 25  # every topic config, not only the overrides
    r = configs["retention.ms"]
    assert r.value == "120000"
    assert r.source == ConfigSource.DYNAMIC_TOPIC_CONFIG.value
    assert not r.is_read_only and not r.is_default
    c = configs["cleanup.policy"]
    assert (c.value, c.source, c.is_default) == ("delete", ConfigSource.DEFAULT_CONFIG.value, True)
    assert configs["max.message.bytes"].value == "1048588"

    # synonyms: the override first, then the broker config it hides
    res = ConfigResource("TOPIC", topic_name)
    desc = kadmin.describe_configs([res], include_synonyms=True, config_filter="all")
    topic = desc["topic"][topic_name]
    syn = [(s["name"], s["source"]) for s in topic["retention.ms"]["synonyms"]]
    assert syn[0] == ("retention.ms", "DYNAMIC_TOPIC_CONFIG")
    assert ("log.retention.hours", "DEFAULT_CONFIG") in syn
    # the key filter: only what was asked
    desc = kadmin.describe_configs([ConfigResource("TOPIC", topic_name, {"segment.ms": None})],
                                   config_filter="all")
    assert list(desc["topic"][topic_name]) == ["segment.ms"]


def test_describe_configs_unknown_topic(cadmin, topic_name):
    res = CConfigResource(ResourceType.TOPIC, topic_name + "-missing")
    assert failed_with(cadmin.describe_configs([res])[res]).code() == CKafkaError.UNKNOWN_TOPIC_OR_PART


def test_describe_broker_configs(cadmin, kadmin, broker):
    configs = describe_broker_configs(cadmin)
    assert len(configs) > 50
    log_dirs = configs["log.dirs"]
    assert log_dirs.value == broker.data_dir
    assert log_dirs.source == ConfigSource.STATIC_BROKER_CONFIG.value and log_dirs.is_read_only
    # a broker started without a properties file runs Kafka's shipped server.properties
    np_ = configs["num.partitions"]
    assert (np_.value, np_.source) == ("1", ConfigSource.STATIC_BROKER_CONFIG.value)
    fetch = configs["fetch.max.bytes"]
    assert (fetch.value, fetch.source) == ("57671680", ConfigSource.DEFAULT_CONFIG.value)
    assert not configs["log.retention.ms"].is_read_only  # dynamically alterable
    # kafka-python's view, with synonyms (Kafka lists those from the described name on)
    desc = kadmin.describe_configs([ConfigResource("BROKER", "0", {"log.retention.hours": None,
                                                                   "log.dirs": None})],
                                   include_synonyms=True, config_filter="all")
    hours = desc["broker"]["0"]["log.retention.hours"]
    assert (hours["value"], hours["read_only"]) == ("168", True)
    assert [(s["name"], s["source"]) for s in hours["synonyms"]] == \
        [("log.retention.hours", "STATIC_BROKER_CONFIG"), ("log.retention.hours", "DEFAULT_CONFIG")]
    assert [(s["name"], s["value"], s["source"]) for s in desc["broker"]["0"]["log.dirs"]["synonyms"]] == \
        [("log.dirs", broker.data_dir, "STATIC_BROKER_CONFIG")]


def test_describe_and_alter_broker_loggers(kadmin):
    res = ConfigResource("BROKER_LOGGER", "0")
    loggers = kadmin.describe_configs([res], config_filter="all")["broker_logger"]["0"]
    assert "root" in loggers
    assert loggers["root"]["config_source"] == "DYNAMIC_BROKER_LOGGER_CONFIG"
    assert loggers["root"]["value"] in ("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL")
    name = "kwire.handlers.alter_configs"
    assert name in loggers
    try:
        out = kadmin.alter_configs([ConfigResource("BROKER_LOGGER", "0", {name: "TRACE"})], incremental=True)
        assert out["broker_logger"]["0"] == "OK"
        now = kadmin.describe_configs([ConfigResource("BROKER_LOGGER", "0", {name: None})],
                                      config_filter="all")["broker_logger"]["0"]
        assert now[name]["value"] == "TRACE"
        out = kadmin.alter_configs([ConfigResource("BROKER_LOGGER", "0", {name: "LOUD"})], incremental=True)
        assert "InvalidConfigurationError" in out["broker_logger"]["0"]
    finally:
        kadmin.reset_configs([ConfigResource("BROKER_LOGGER", "0", [name])])


# -- AlterConfigs / IncrementalAlterConfigs -------------------------------------------------------

def test_alter_configs_persist_across_restart(make_broker, tmp_path, topic_name):
    data = tmp_path / "restart-data"
    b = make_broker(data_dir=data)
    cadmin = AdminClient({"bootstrap.servers": b.bootstrap})
    kadmin = KafkaAdminClient(bootstrap_servers=b.bootstrap, request_timeout_ms=10_000)
    try:
        kadmin.create_topics({topic_name: {"num_partitions": 1}})
        # legacy AlterConfigs: the request's set replaces the topic's overrides
        res = CConfigResource(ResourceType.TOPIC, topic_name, set_config={"retention.ms": "1234",
                                                                           "segment.ms": "7200000"})
        with pytest.warns(DeprecationWarning):
            fs = cadmin.alter_configs([res])
        assert c_result(fs[res]) is None
        res = CConfigResource(ResourceType.TOPIC, topic_name, set_config={"retention.ms": "4321"})
        with pytest.warns(DeprecationWarning):
            assert c_result(cadmin.alter_configs([res])[res]) is None
        configs = describe_topic_configs(cadmin, topic_name)
        assert configs["retention.ms"].value == "4321"
        assert configs["segment.ms"].source == ConfigSource.DEFAULT_CONFIG.value, "full replace"

        # incremental: SET, APPEND to a list, DELETE
        f = incremental(cadmin, ResourceType.TOPIC, topic_name, [
            entry("cleanup.policy", "compact", AlterConfigOpType.APPEND),
            entry("max.message.bytes", "2000000"),
        ])
        assert c_result(f) is None
        # validate_only changes nothing
        assert c_result(incremental(cadmin, ResourceType.TOPIC, topic_name,
                                    [entry("max.message.bytes", "10")], validate_only=True)) is None
        # kafka-python's incremental path
        out = kadmin.alter_configs([ConfigResource("TOPIC", topic_name, {"flush.messages": "5"})],
                                   incremental=True)
        assert out["topic"][topic_name] == "OK"

        # a dynamic broker default, inherited by topics without an override
        assert c_result(incremental(cadmin, ResourceType.BROKER, "0",
                                    [entry("log.cleaner.delete.retention.ms", "3600000")])) is None
        broker_cfg = describe_broker_configs(cadmin)
        d = broker_cfg["log.cleaner.delete.retention.ms"]
        assert (d.value, d.source) == ("3600000", ConfigSource.DYNAMIC_BROKER_CONFIG.value)
        inherited = describe_topic_configs(cadmin, topic_name)["delete.retention.ms"]
        assert (inherited.value, inherited.source) == ("3600000", ConfigSource.DYNAMIC_BROKER_CONFIG.value)
    finally:
        kadmin.close()
    b.stop()

    b2 = make_broker(data_dir=data)
    cadmin = AdminClient({"bootstrap.servers": b2.bootstrap})
    configs = describe_topic_configs(cadmin, topic_name)
    assert (configs["retention.ms"].value, configs["retention.ms"].source) == \
        ("4321", ConfigSource.DYNAMIC_TOPIC_CONFIG.value)
    assert configs["cleanup.policy"].value == "delete,compact"
    assert configs["max.message.bytes"].value == "2000000"
    assert configs["flush.messages"].value == "5"
    d = describe_broker_configs(cadmin)["log.cleaner.delete.retention.ms"]
    assert (d.value, d.source) == ("3600000", ConfigSource.DYNAMIC_BROKER_CONFIG.value)


def test_alter_broker_configs_replace_and_validate_only(make_broker):
    b = make_broker()
    cadmin = AdminClient({"bootstrap.servers": b.bootstrap})
    res = CConfigResource(ResourceType.BROKER, "0", set_config={"log.cleaner.threads": "2"})
    with pytest.warns(DeprecationWarning):
        assert c_result(cadmin.alter_configs([res], validate_only=True)[res]) is None
    assert describe_broker_configs(cadmin)["log.cleaner.threads"].source == ConfigSource.DEFAULT_CONFIG.value
    with pytest.warns(DeprecationWarning):
        assert c_result(cadmin.alter_configs([res])[res]) is None
    threads = describe_broker_configs(cadmin)["log.cleaner.threads"]
    assert (threads.value, threads.source) == ("2", ConfigSource.DYNAMIC_BROKER_CONFIG.value)
    # legacy AlterConfigs replaces the whole dynamic set: naming another key drops this one
    res = CConfigResource(ResourceType.BROKER, "0", set_config={"log.cleaner.backoff.ms": "1000"})
    with pytest.warns(DeprecationWarning):
        assert c_result(cadmin.alter_configs([res])[res]) is None
    configs = describe_broker_configs(cadmin)
    assert configs["log.cleaner.threads"].source == ConfigSource.DEFAULT_CONFIG.value
    assert configs["log.cleaner.backoff.ms"].value == "1000"
    res = CConfigResource(ResourceType.BROKER, "0", set_config={"log.dirs": "/elsewhere"})
    with pytest.warns(DeprecationWarning):
        err = failed_with(cadmin.alter_configs([res])[res])
    assert err.code() == CKafkaError.INVALID_REQUEST


def test_incremental_alter_configs_errors(cadmin, kadmin, topic_name):
    kadmin.create_topics({topic_name: {"num_partitions": 1}})
    err = failed_with(incremental(cadmin, ResourceType.TOPIC, topic_name, [entry("retention.ms", "soon")]))
    assert err.code() == CKafkaError.INVALID_CONFIG
    err = failed_with(incremental(cadmin, ResourceType.TOPIC, topic_name,
                              [entry("retention.ms", "5", AlterConfigOpType.APPEND)]))
    assert err.code() == CKafkaError.INVALID_CONFIG
    assert "because its type is not LIST" in err.str()
    err = failed_with(incremental(cadmin, ResourceType.TOPIC, topic_name + "-missing",
                              [entry("retention.ms", "5")]))
    assert err.code() == CKafkaError.UNKNOWN_TOPIC_OR_PART
    # a static broker config cannot change at run time
    err = failed_with(incremental(cadmin, ResourceType.BROKER, "0", [entry("log.dirs", "/elsewhere")]))
    assert err.code() == CKafkaError.INVALID_REQUEST
    assert "Cannot update these configs dynamically: [log.dirs]" in err.str()
    # nothing of the above changed anything
    configs = describe_topic_configs(cadmin, topic_name)
    # from log.retention.hours of the dev broker's shipped server.properties, not the topic
    assert configs["retention.ms"].source == ConfigSource.STATIC_BROKER_CONFIG.value


# -- CreatePartitions -------------------------------------------------------------------------

def test_create_partitions(broker, cadmin, kadmin, topic_name):
    kadmin.create_topics({topic_name: {"num_partitions": 1}})
    kadmin.create_partitions({topic_name: 3}, validate_only=True)
    assert len(kadmin.describe_topics([topic_name])[0]["partitions"]) == 1
    kadmin.create_partitions({topic_name: 3})
    assert len(kadmin.describe_topics([topic_name])[0]["partitions"]) == 3
    with pytest.raises(Errors.InvalidPartitionsError):
        kadmin.create_partitions({topic_name: 2})
    with pytest.raises(Errors.InvalidPartitionsError):
        kadmin.create_partitions({topic_name: 3})
    with pytest.raises(Errors.UnknownTopicOrPartitionError):
        kadmin.create_partitions({topic_name + "-missing": 2})
    with pytest.raises(Errors.InvalidReplicationAssignmentError):
        kadmin.create_partitions({topic_name: {"count": 4, "assignments": [[3]]}})

    assert c_result(cadmin.create_partitions([NewPartitions(topic_name, 5)])[topic_name]) is None
    assert len(cadmin.list_topics(timeout=TIMEOUT_S).topics[topic_name].partitions) == 5
    produce(broker.bootstrap, topic_name, 3, partition=4)


# -- DeleteRecords ---------------------------------------------------------------------------

def test_delete_records(broker, cadmin, kadmin, topic_name):
    kadmin.create_topics({topic_name: {"num_partitions": 1}})
    produce(broker.bootstrap, topic_name, 10)
    tp = TopicPartition(topic_name, 0)
    out = kadmin.delete_records({tp: 4})
    assert out[tp]["low_watermark"] == 4

    # fetching from 0 is now out of range; an "earliest" consumer starts at 4
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, auto_offset_reset="none",
                             enable_auto_commit=False, consumer_timeout_ms=5000)
    try:
        consumer.assign([tp])
        consumer.seek(tp, 0)
        with pytest.raises(Errors.OffsetOutOfRangeError):
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                consumer.poll(timeout_ms=500)
    finally:
        consumer.close()
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap, auto_offset_reset="earliest",
                             enable_auto_commit=False)
    try:
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        assert consumer.position(tp) == 4
        got = []
        deadline = time.monotonic() + 10
        while len(got) < 6 and time.monotonic() < deadline:
            for recs in consumer.poll(timeout_ms=500).values():
                got.extend(r.offset for r in recs)
        assert got == list(range(4, 10))
    finally:
        consumer.close()

    # beyond the high watermark: OFFSET_OUT_OF_RANGE; -1 means "up to the high watermark"
    fs = cadmin.delete_records([CTopicPartition(topic_name, 0, 11)])
    err = failed_with(next(iter(fs.values())))
    assert err.code() == CKafkaError.OFFSET_OUT_OF_RANGE
    fs = cadmin.delete_records([CTopicPartition(topic_name, 0, -1)])
    assert c_result(next(iter(fs.values()))).low_watermark == 10
    # below the current start: nothing changes
    fs = cadmin.delete_records([CTopicPartition(topic_name, 0, 2)])
    assert c_result(next(iter(fs.values()))).low_watermark == 10


def test_delete_records_compacted_topic_is_refused(cadmin, kadmin, topic_name):
    kadmin.create_topics({topic_name: {"num_partitions": 1, "configs": {"cleanup.policy": "compact"}}})
    fs = cadmin.delete_records([CTopicPartition(topic_name, 0, 0)])
    assert failed_with(next(iter(fs.values()))).code() == CKafkaError.POLICY_VIOLATION


# -- DeleteTopics -------------------------------------------------------------------------------

def test_delete_topics_by_name_and_id(broker, cadmin, kadmin, topic_name):
    a, b = topic_name + "-a", topic_name + "-b"
    res = kadmin.create_topics({a: {"num_partitions": 2}, b: {"num_partitions": 1}})
    ids = {t["name"]: uuid.UUID(str(t["topic_id"])) for t in res["topics"]}
    produce(broker.bootstrap, a, 3)

    kadmin.delete_topics([a])
    kadmin.delete_topics([ids[b]])
    topics = kadmin.list_topics()
    assert a not in topics and b not in topics
    with pytest.raises(Errors.UnknownTopicOrPartitionError):
        kadmin.delete_topics([a])
    with pytest.raises(Errors.UnknownTopicIdError):
        kadmin.delete_topics([ids[b]])
    assert failed_with(cadmin.delete_topics([a])[a]).code() == CKafkaError.UNKNOWN_TOPIC_OR_PART

    # the name is free again, with a new id and no old records
    res = kadmin.create_topics({a: {"num_partitions": 1}})
    assert uuid.UUID(str(res["topics"][0]["topic_id"])) not in (ids[a], uuid.UUID(int=0))
    offsets = kadmin.list_partition_offsets({TopicPartition(a, 0): -1})
    assert offsets[TopicPartition(a, 0)].offset == 0


def test_delete_topics_disabled(make_broker, topic_name):
    b = make_broker(overrides={"delete.topic.enable": "false"})
    admin = KafkaAdminClient(bootstrap_servers=b.bootstrap, request_timeout_ms=10_000)
    try:
        admin.create_topics({topic_name: {"num_partitions": 1}})
        with pytest.raises(Errors.TopicDeletionDisabledError):
            admin.delete_topics([topic_name])
        assert topic_name in admin.list_topics()
    finally:
        admin.close()


# -- DescribeLogDirs ------------------------------------------------------------------------------

def test_describe_log_dirs(broker, kadmin, topic_name):
    kadmin.create_topics({topic_name: {"num_partitions": 2}})
    produce(broker.bootstrap, topic_name, 5, partition=1)
    (per_broker,) = kadmin.describe_log_dirs()
    assert per_broker["broker"] == 0
    (d,) = per_broker["log_dirs"]
    assert d["error_code"] == 0
    assert d["log_dir"] == broker.data_dir
    assert d["total_bytes"] > 0 and 0 <= d["usable_bytes"] <= d["total_bytes"]
    (t,) = [t for t in d["topics"] if t["name"] == topic_name]
    sizes = {p["partition_index"]: p["partition_size"] for p in t["partitions"]}
    assert sizes[0] == 0 and sizes[1] > 0
    assert all(p["offset_lag"] == 0 and not p["is_future_key"] for p in t["partitions"])

    (per_broker,) = kadmin.describe_log_dirs({topic_name: [1]})
    (t,) = per_broker["log_dirs"][0]["topics"]
    assert [p["partition_index"] for p in t["partitions"]] == [1]


# -- DescribeCluster / DescribeTopicPartitions ------------------------------------------------------

def test_describe_cluster(cadmin, kadmin, broker):
    desc = c_result(cadmin.describe_cluster(include_authorized_operations=True))
    host, port = broker.bootstrap.rsplit(":", 1)
    assert [(n.id, n.host, n.port) for n in desc.nodes] == [(0, host, int(port))]
    assert desc.controller.id == 0
    assert desc.cluster_id and desc.cluster_id == kadmin.describe_cluster()["cluster_id"]
    assert set(desc.authorized_operations) == {
        AclOperation.CREATE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS,
        AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER,
        AclOperation.DESCRIBE,
    }
    plain = c_result(cadmin.describe_cluster())
    assert plain.authorized_operations is None


def test_describe_topic_partitions_paging(kadmin, topic_name):
    a, b = topic_name + "-a", topic_name + "-b"
    kadmin.create_topics({a: {"num_partitions": 3}, b: {"num_partitions": 2}})
    missing = topic_name + "-c"

    res = kadmin.describe_topic_partitions([b, a, missing], response_partition_limit=2)
    assert [t["name"] for t in res["topics"]] == [a]
    assert [p["partition_index"] for p in res["topics"][0]["partitions"]] == [0, 1]
    assert res["next_cursor"] == {"topic_name": a, "partition_index": 2}

    res = kadmin.describe_topic_partitions([a, b, missing], response_partition_limit=2,
                                           cursor=res["next_cursor"])
    assert [(t["name"], [p["partition_index"] for p in t["partitions"]]) for t in res["topics"]] == \
        [(a, [2]), (b, [0])]
    assert res["next_cursor"] == {"topic_name": b, "partition_index": 1}

    res = kadmin.describe_topic_partitions([a, b, missing], cursor=res["next_cursor"])
    assert [t["name"] for t in res["topics"]] == [b, missing]
    assert res["topics"][1]["error_code"] == Errors.UnknownTopicOrPartitionError.errno
    assert res["next_cursor"] is None
    t = res["topics"][0]
    assert t["error_code"] == 0 and not t["is_internal"]
    assert uuid.UUID(str(t["topic_id"])) != uuid.UUID(int=0)
    (p,) = t["partitions"]
    assert (p["leader_id"], p["replica_nodes"], p["isr_nodes"]) == (0, [0], [0])
    assert not p["eligible_leader_replicas"] and not p["last_known_elr"] and not p["offline_replicas"]
    assert t["topic_authorized_operations"] == sum(1 << op for op in (3, 4, 5, 6, 7, 8, 10, 11))
