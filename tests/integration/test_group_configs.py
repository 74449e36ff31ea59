"""GROUP (KIP-848) and CLIENT_METRICS (KIP-714) config resources through real admin clients.

* confluent-kafka's AdminClient sets group configs with IncrementalAlterConfigs
  (ConfigResource GROUP) and describes them with source GROUP_CONFIG (unset
  ones DEFAULT_CONFIG with the broker's value); kafka-python creates a client
  metrics subscription (source CLIENT_METRICS_CONFIG) and lists both with
  ListConfigResources (v0, ListClientMetricsResources, lists the subscription).
  A subprocess broker killed with SIGKILL and restarted still has them;
  DELETE of a group config and of a subscription's configs removes them.
* Values Kafka refuses are refused with its codes and nothing is stored:
  group configs outside the broker's group.consumer.min/max.* bounds, unknown
  names and unparsable values INVALID_CONFIG; a client metrics push interval
  outside 100..3600000 and an unknown key INVALID_REQUEST, an illegal match
  pattern INVALID_CONFIG; validate_only stores nothing.
* The KIP-848 coordinator answers a group's ConsumerGroupHeartbeat with the
  group's own ``consumer.heartbeat.interval.ms``, others with the broker's.
"""

from __future__ import annotations

import uuid

import pytest
from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    NewTopic,
    ResourceType,
)
from kafka.admin import ConfigResource as KConfigResource
from kafka.admin import ConfigResourceType, KafkaAdminClient

from kwire.client import KafkaClient, KafkaClientError
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from kwire.protocol.generated.list_config_resources_request import ListConfigResourcesRequest

from clients import failed_with

pytestmark = pytest.mark.timeout(180)
TIMEOUT_S = 30
GROUP_CONFIG, DEFAULT_CONFIG, CLIENT_METRICS_CONFIG = 8, 5, 7
SET, DELETE = AlterConfigOpType.SET, AlterConfigOpType.DELETE


def alter_group(admin, group, *entries, validate_only=False):
    res = ConfigResource(ResourceType.GROUP, group, incremental_configs=[
        ConfigEntry(name, value, incremental_operation=kind) for name, value, kind in entries])
    return admin.incremental_alter_configs([res], validate_only=validate_only)[res]


def describe_group(admin, group) -> dict:
    res = ConfigResource(ResourceType.GROUP, group)
    return {k: (e.value, e.source) for k, e in admin.describe_configs([res])[res].result(TIMEOUT_S).items()}


def kadmin(bootstrap) -> KafkaAdminClient:
    return KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=TIMEOUT_S * 1000)


def client_metrics(bootstrap, name) -> dict:
    with KafkaClient(bootstrap, timeout=TIMEOUT_S) as c:
        return {e.name: (e.value, e.source) for e in c.describe_configs(16, name)}


def listed(bootstrap) -> dict:
    k = kadmin(bootstrap)
    try:
        return k.list_config_resources()
    finally:
        k.close()


def test_group_and_client_metrics_configs_are_described_listed_and_survive_kill9(spawn_broker, tmp_path):
    data = tmp_path / "data"
    p = spawn_broker(data)
    admin = AdminClient({"bootstrap.servers": p.bootstrap})
    assert alter_group(admin, "g1", ("consumer.session.timeout.ms", "50000", SET),
                       ("consumer.heartbeat.interval.ms", "6000", SET)).result(TIMEOUT_S) is None
    assert alter_group(admin, "g2", ("share.delivery.count.limit", "3", SET),
                       ("share.auto.offset.reset", "earliest", SET)).result(TIMEOUT_S) is None
    k = kadmin(p.bootstrap)
    try:
        got = k.alter_configs([KConfigResource(ConfigResourceType.CLIENT_METRICS, "sub1", {
            "metrics": "org.apache.kafka.producer.", "interval.ms": "1000",
            "match": "client_software_name=apache-kafka-java"})], incremental=True, raise_on_unknown=False)
        assert got == {"client_metrics": {"sub1": "OK"}}, got
    finally:
        k.close()

    def check() -> None:
        g1 = describe_group(admin, "g1")
        assert g1["consumer.session.timeout.ms"] == ("50000", GROUP_CONFIG)
        assert g1["consumer.heartbeat.interval.ms"] == ("6000", GROUP_CONFIG)
        assert g1["share.session.timeout.ms"] == ("45000", DEFAULT_CONFIG)
        g2 = describe_group(admin, "g2")
        assert g2["share.delivery.count.limit"] == ("3", GROUP_CONFIG)
        assert g2["share.auto.offset.reset"] == ("earliest", GROUP_CONFIG)
        assert g2["consumer.session.timeout.ms"] == ("45000", DEFAULT_CONFIG)
        assert client_metrics(p.bootstrap, "sub1") == {
            "metrics": ("org.apache.kafka.producer.", CLIENT_METRICS_CONFIG),
            "interval.ms": ("1000", CLIENT_METRICS_CONFIG),
            "match": ("client_software_name=apache-kafka-java", CLIENT_METRICS_CONFIG)}
        names = listed(p.bootstrap)
        assert sorted(names["group"]) == ["g1", "g2"] and names["client_metrics"] == ["sub1"]
        with KafkaClient(p.bootstrap, timeout=TIMEOUT_S) as c:  # v0: ListClientMetricsResources
            v0 = c.request(74, ListConfigResourcesRequest(resource_types=[]), version=0)
        assert v0.error_code == 0 and [r.resource_name for r in v0.config_resources] == ["sub1"]

    check()
    p.kill()
    p = spawn_broker(data)
    admin = AdminClient({"bootstrap.servers": p.bootstrap})
    check()

    # DELETE: back to the default; a group or subscription with nothing left is gone
    assert alter_group(admin, "g1", ("consumer.heartbeat.interval.ms", None, DELETE)).result(TIMEOUT_S) is None
    assert describe_group(admin, "g1")["consumer.heartbeat.interval.ms"] == ("5000", DEFAULT_CONFIG)
    assert alter_group(admin, "g2", ("share.delivery.count.limit", None, DELETE),
                       ("share.auto.offset.reset", None, DELETE)).result(TIMEOUT_S) is None
    with KafkaClient(p.bootstrap, timeout=TIMEOUT_S) as c:
        c.incremental_alter_configs(16, "sub1", delete_configs=["metrics", "interval.ms", "match"])
    p.kill()
    p = spawn_broker(data)
    admin = AdminClient({"bootstrap.servers": p.bootstrap})
    assert describe_group(admin, "g1")["consumer.session.timeout.ms"] == ("50000", GROUP_CONFIG)
    assert describe_group(admin, "g1")["consumer.heartbeat.interval.ms"] == ("5000", DEFAULT_CONFIG)
    assert client_metrics(p.bootstrap, "sub1") == {}
    names = listed(p.bootstrap)
    assert names.get("group") == ["g1"] and not names.get("client_metrics")


@pytest.mark.parametrize("entry, code", [
    (("consumer.session.timeout.ms", "1000"), E.INVALID_CONFIG),        # < group.consumer.min.session.timeout.ms
    (("consumer.session.timeout.ms", "60001"), E.INVALID_CONFIG),       # > group.consumer.max.session.timeout.ms
    (("consumer.heartbeat.interval.ms", "4999"), E.INVALID_CONFIG),     # < group.consumer.min.heartbeat...
    (("consumer.heartbeat.interval.ms", "15001"), E.INVALID_CONFIG),    # > group.consumer.max.heartbeat...
    (("consumer.heartbeat.interval.ms", "abc"), E.INVALID_CONFIG),
    (("share.record.lock.duration.ms", "10000"), E.INVALID_CONFIG),     # < group.share.min.record.lock...
    (("streams.num.standby.replicas", "3"), E.INVALID_CONFIG),          # > group.streams.max.standby.replicas
    (("share.isolation.level", "none"), E.INVALID_CONFIG),
    (("consumer.no.such.config", "1"), E.INVALID_CONFIG),
], ids=lambda x: "-".join(x) if isinstance(x, tuple) else None)
def test_invalid_group_configs_are_refused_and_nothing_is_stored(broker, entry, code):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    group = f"bad-{uuid.uuid4().hex[:8]}"
    name, value = entry
    assert failed_with(alter_group(admin, group, (name, value, SET))).code() == code
    assert group not in broker.server.broker.metadata.group_configs
    assert all(source == DEFAULT_CONFIG for _, source in describe_group(admin, group).values())


def test_group_validate_only_and_client_metrics_refusals(broker):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    assert alter_group(admin, "only-validated", ("consumer.session.timeout.ms", "50000", SET),
                       validate_only=True).result(TIMEOUT_S) is None
    assert describe_group(admin, "only-validated")["consumer.session.timeout.ms"] == ("45000", DEFAULT_CONFIG)
    with KafkaClient(broker.bootstrap, timeout=TIMEOUT_S) as c:
        for configs, code in (({"interval.ms": "10"}, E.INVALID_REQUEST),
                              ({"interval.ms": "3600001"}, E.INVALID_REQUEST),
                              ({"no.such": "1"}, E.INVALID_REQUEST),
                              ({"match": "10"}, E.INVALID_CONFIG),
                              ({"match": "client_os=linux"}, E.INVALID_CONFIG)):
            with pytest.raises(KafkaClientError) as exc:
                c.incremental_alter_configs(16, "refused-sub", set_configs=configs)
            assert exc.value.code == code, (configs, exc.value)
        with pytest.raises(KafkaClientError) as exc:
            c.incremental_alter_configs(32, "", set_configs={"consumer.session.timeout.ms": "50000"})
        assert exc.value.code == E.INVALID_REQUEST
    assert client_metrics(broker.bootstrap, "refused-sub") == {}
    assert "refused-sub" not in broker.server.broker.metadata.client_metrics


def test_group_heartbeat_interval_override_is_answered_by_the_coordinator(make_broker, topic_name):
    b = make_broker()
    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    admin.create_topics([NewTopic(topic_name, 2, 1)])[topic_name].result(timeout=TIMEOUT_S)
    assert alter_group(admin, "hb-set", ("consumer.heartbeat.interval.ms", "7000", SET)).result(TIMEOUT_S) is None

    def first_heartbeat(group: str) -> int:
        with KafkaClient(b.bootstrap, timeout=TIMEOUT_S) as c:
            coordinator = c.find_coordinator(group)
            req = ConsumerGroupHeartbeatRequest(group_id=group, member_id=uuid.uuid4().hex, member_epoch=0,
                                                rebalance_timeout_ms=30000, subscribed_topic_names=[topic_name],
                                                topic_partitions=[])
            resp = c.request(68, req, node=coordinator, version=1)
            assert resp.error_code == 0, resp
            return resp.heartbeat_interval_ms

    assert first_heartbeat("hb-set") == 7000
    assert first_heartbeat("hb-default") == 5000
