"""Kafka 4.3's whole config surface through real admin clients over TCP (issue 11).

* Every dynamic Kafka 4.3 broker config is set with IncrementalAlterConfigs
  (confluent-kafka AdminClient) on broker "0" and, when cluster-wide, on the
  cluster default "" (through kwire's own client: neither Python admin client
  accepts the empty broker name), and read back with DescribeConfigs with Kafka's source;
  every read-only one is refused with INVALID_REQUEST; names Kafka 4.x does
  not know (removed ones included) stay errors.
* Every topic config, likewise, on a topic (DYNAMIC_TOPIC_CONFIG).
* ``min.insync.replicas`` is a cluster-level dynamic default (KIP-966, ELR).
* GROUP and CLIENT_METRICS resources are described (kafka-python admin).

Values are the configs' current values (or a harmless one where the default
is null), so setting hundreds of them never changes how the broker behaves.
"""

from __future__ import annotations

import pytest
from confluent_kafka import KafkaError as CKafkaError
from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigSource,
    NewTopic,
)
from confluent_kafka.admin import ConfigResource as CConfigResource
from confluent_kafka.admin import ResourceType
from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient

from kwire.client import KafkaClient, KafkaClientError
from kwire.config import BROKER_CONFIGS, TOPIC_CONFIGS, ConfigType, kafka43
from kwire.config.definitions import GROUP_CONFIGS
from kwire.config.types import Range

from clients import failed_with

TIMEOUT_S = 30
FACTS = kafka43.load()
DYNAMIC = sorted(r[0] for r in FACTS["broker"] if r[4] != "read-only"
                 and not BROKER_CONFIGS[r[0]].read_only)
READ_ONLY = sorted(r[0] for r in FACTS["broker"] if BROKER_CONFIGS[r[0]].read_only)
TOPICS = sorted(r[0] for r in FACTS["topic"])
SPECIAL = {"max.connections.per.ip.overrides": "127.0.0.1:1000"}


def harmless_value(d, current) -> str:
    """A valid value that leaves the broker as it is: the current one, else a benign one."""
    if d.name in SPECIAL:
        return SPECIAL[d.name]
    if current is not None:
        return d.to_string(current)
    if d.type is ConfigType.PASSWORD:
        return "secret"
    if d.type in (ConfigType.INT, ConfigType.SHORT, ConfigType.LONG, ConfigType.DOUBLE):
        lo = d.validator.lo if isinstance(d.validator, Range) and d.validator.lo is not None else 1
        return d.to_string(max(lo, 1) if d.type is not ConfigType.DOUBLE else float(max(lo, 1)))
    return "" if d.type is ConfigType.LIST else "x"


def result(future):
    return future.result(timeout=TIMEOUT_S)


def incremental(admin, restype, name, entries):
    res = CConfigResource(restype, name, incremental_configs=entries)
    return admin.incremental_alter_configs([res])[res]


def op(name, value, kind=AlterConfigOpType.SET):
    return ConfigEntry(name, value, incremental_operation=kind)


def describe(admin, restype, name) -> dict:
    res = CConfigResource(restype, name)
    return result(admin.describe_configs([res])[res])


@pytest.fixture(scope="module")
def surface_broker(broker):
    return broker  # conftest's module-scoped in-process broker: this module's own


@pytest.fixture(scope="module")
def admin(surface_broker):
    return AdminClient({"bootstrap.servers": surface_broker.bootstrap})


@pytest.fixture(scope="module")
def kclient(surface_broker):
    with KafkaClient(surface_broker.bootstrap) as c:
        yield c


def cluster_default(kclient, name, value=None) -> int:
    """IncrementalAlterConfigs on the cluster-default broker resource; the error code (0 = ok)."""
    try:
        if value is None:
            kclient.incremental_alter_configs(4, "", delete_configs=[name])
        else:
            kclient.incremental_alter_configs(4, "", set_configs={name: value})
    except KafkaClientError as e:
        return e.code
    return 0


def test_facts_cover_kafka_43():
    assert len(FACTS["broker"]) > 300 and len(FACTS["topic"]) == 33 and len(FACTS["group"]) == 17
    assert kafka43.check(FACTS) == []
    # every name Kafka 4.3 defines is known to kwire, and the update modes agree
    for name, type_, _default, _valid, mode in FACTS["broker"]:
        d = BROKER_CONFIGS[name]
        assert d.type.name.lower() == type_, name
        if name not in ("listeners", "listener.security.protocol.map"):  # kwire: read-only, explained
            assert d.read_only == (mode == "read-only"), name
            assert d.per_broker == (mode == "per-broker"), name
    kwire_only = {"internal.segment.bytes", "confluent.value.schema.validation", "confluent.key.schema.validation"}
    assert set(TOPIC_CONFIGS) - kwire_only == set(TOPICS)


@pytest.mark.parametrize("name", DYNAMIC)
def test_dynamic_broker_config_round_trip(admin, kclient, surface_broker, name):
    d = BROKER_CONFIGS[name]
    before = describe(admin, ResourceType.BROKER, "0")[name]
    value = harmless_value(d, surface_broker.server.broker.config[name])
    expect = None if d.sensitive else d.to_string(d.parse(value))
    if name == "min.insync.replicas":
        # KIP-966 (ELR on, as in new 4.1+ clusters): cluster level only
        assert before.source == ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.value
        err = failed_with(incremental(admin, ResourceType.BROKER, "0", [op(name, value)]))
        assert err.code() == CKafkaError.INVALID_CONFIG
    else:
        assert before.source in (ConfigSource.DEFAULT_CONFIG.value, ConfigSource.STATIC_BROKER_CONFIG.value)
        assert result(incremental(admin, ResourceType.BROKER, "0", [op(name, value)])) is None
        got = describe(admin, ResourceType.BROKER, "0")[name]
        assert (got.value, got.source, got.is_read_only, got.is_sensitive) == \
            (expect, ConfigSource.DYNAMIC_BROKER_CONFIG.value, False, d.sensitive)
        assert result(incremental(admin, ResourceType.BROKER, "0",
                                  [op(name, None, AlterConfigOpType.DELETE)])) is None
    if d.per_broker:
        assert cluster_default(kclient, name, value) == CKafkaError.INVALID_REQUEST
        assert describe(admin, ResourceType.BROKER, "0")[name].source == before.source
        return
    assert cluster_default(kclient, name, value) == 0
    got = describe(admin, ResourceType.BROKER, "0")[name]
    assert (got.value, got.source) == (expect, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.value)
    assert name in {e.name for e in kclient.describe_configs(4, "")}
    if name == "min.insync.replicas":
        assert cluster_default(kclient, name) == CKafkaError.INVALID_CONFIG
    else:
        assert cluster_default(kclient, name) == 0
        assert describe(admin, ResourceType.BROKER, "0")[name].source == before.source


def test_read_only_broker_configs_refused(admin):
    described = describe(admin, ResourceType.BROKER, "0")
    for name in READ_ONLY:
        assert described[name].is_read_only, name
    for name in ("sasl.kerberos.kinit.cmd", "log.dirs", "num.partitions", "node.id"):
        if name in READ_ONLY:
            err = failed_with(incremental(admin, ResourceType.BROKER, "0", [op(name, "1")]))
            assert err.code() == CKafkaError.INVALID_REQUEST
            assert "Cannot update these configs dynamically" in err.str()


def test_zookeeper_configs_are_read_only(admin):
    """ZooKeeper mode's configs (issue 12) are read-only, as in Kafka 3.x."""
    for name in ("zookeeper.connect", "zookeeper.session.timeout.ms", "controlled.shutdown.enable"):
        err = failed_with(incremental(admin, ResourceType.BROKER, "0", [op(name, "1")]))
        assert err.code() == CKafkaError.INVALID_REQUEST, name
        assert "Cannot update these configs dynamically" in err.str(), name


@pytest.mark.parametrize("name", ["message.format.version", "message.downconversion.enable",
                                  "no.such.config", "log.message.format.version"])
def test_names_kafka_4_does_not_know_are_errors(admin, name):
    err = failed_with(incremental(admin, ResourceType.BROKER, "0", [op(name, "1")]))
    assert err.code() == CKafkaError.INVALID_REQUEST
    assert "Unknown broker config name" in err.str()


def test_every_topic_config_round_trip(admin, surface_broker):
    topic = "config-surface-topic"
    result(admin.create_topics([NewTopic(topic, 1, 1)])[topic])
    for name in TOPICS:
        d = TOPIC_CONFIGS[name]
        value = d.to_string(d.default) or ""
        assert result(incremental(admin, ResourceType.TOPIC, topic, [op(name, value)])) is None, name
        got = describe(admin, ResourceType.TOPIC, topic)[name]
        assert (got.value, got.source) == (d.to_string(d.parse(value)),
                                           ConfigSource.DYNAMIC_TOPIC_CONFIG.value), name
    err = failed_with(incremental(admin, ResourceType.TOPIC, topic, [op("message.format.version", "3.0")]))
    assert err.code() == CKafkaError.INVALID_CONFIG


def test_topic_min_insync_replicas_is_a_cluster_level_dynamic_default(admin):
    topic = "config-surface-min-isr"
    result(admin.create_topics([NewTopic(topic, 1, 1)])[topic])
    entry = describe(admin, ResourceType.TOPIC, topic)["min.insync.replicas"]
    assert (entry.value, entry.source) == ("1", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.value)
    assert "min.insync.replicas" in describe(admin, ResourceType.BROKER, "0")


def test_group_and_client_metrics_resources(surface_broker):
    kadmin = KafkaAdminClient(bootstrap_servers=surface_broker.bootstrap, request_timeout_ms=30000)
    try:
        out = kadmin.describe_configs([ConfigResource(ConfigResourceType.GROUP, "some-group"),
                                       ConfigResource(ConfigResourceType.CLIENT_METRICS, "sub")],
                                      config_filter="all")
        configs = out["group"]["some-group"]
        assert set(configs) == set(GROUP_CONFIGS)
        session = configs["consumer.session.timeout.ms"]
        assert session["value"] == "45000" and session["config_source"] in (5, "DEFAULT_CONFIG")
        assert out["client_metrics"]["sub"] == {}
    finally:
        kadmin.close()


def test_unacted_configs_are_logged(admin, caplog):
    import logging

    with caplog.at_level(logging.INFO, logger="kwire.handlers.alter_configs"):
        assert result(incremental(admin, ResourceType.BROKER, "0",
                                  [op("sasl.kerberos.min.time.before.relogin", "120000")])) is None
    assert any("sasl.kerberos.min.time.before.relogin" in r.getMessage() and "does not act" in r.getMessage()
               for r in caplog.records)
    got = describe(admin, ResourceType.BROKER, "0")["sasl.kerberos.min.time.before.relogin"]
    assert (got.value, got.source) == ("120000", ConfigSource.DYNAMIC_BROKER_CONFIG.value)
