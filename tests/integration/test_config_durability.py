"""Config changes and auto-created topics are answered only once durable; a failed write undoes them.

The cluster metadata write is failed with ENOSPC (``kwire.log.faults`` site
``metadata``, armed in-process for an in-process broker):

* IncrementalAlterConfigs (confluent-kafka AdminClient; kwire's client for the
  cluster-default broker resource, which librdkafka cannot name) on a TOPIC,
  on the BROKER (per-broker and cluster default) and on a GROUP, and the legacy
  AlterConfigs (kafka-python, ``incremental=False``) on a TOPIC, answer
  KAFKA_STORAGE_ERROR with the reason; DescribeConfigs shows the old values,
  the broker's own config and the partition log's settings are the old ones
  again; once the fault is cleared the same changes succeed; after a restart
  exactly the successful changes are there.
* Metadata with auto-creation of an unknown topic answers LEADER_NOT_AVAILABLE
  while the write fails, leaves no partition dir behind, and creates the topic
  once the fault is cleared; a topic that was answered is still there after
  kill -9 (subprocess broker).
"""

from __future__ import annotations

import errno
import os

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
from kwire.log import faults
from kwire.protocol.errors import ErrorCode as E

from clients import failed_with

pytestmark = pytest.mark.timeout(180)
TIMEOUT_S = 30


@pytest.fixture(autouse=True)
def _disarm():
    yield
    faults.disarm()


def incremental(admin, restype, name, **configs):
    res = ConfigResource(restype, name, incremental_configs=[
        ConfigEntry(k.replace("_", "."), v, incremental_operation=AlterConfigOpType.SET)
        for k, v in configs.items()])
    return admin.incremental_alter_configs([res])[res]


def value(admin, restype, name, key):
    res = ConfigResource(restype, name)
    return admin.describe_configs([res])[res].result(timeout=TIMEOUT_S)[key].value


def test_failed_config_writes_answer_storage_error_and_change_nothing(make_broker, tmp_path, topic_name):
    data = tmp_path / "data"
    b = make_broker(data)
    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    admin.create_topics([NewTopic(topic_name, 1, 1)])[topic_name].result(timeout=TIMEOUT_S)
    broker = b.server.broker
    plog = broker.get_log(topic_name, 0)
    before_retention = plog.config.retention_bytes

    faults.arm("metadata", errno.ENOSPC)
    refused = [
        incremental(admin, ResourceType.TOPIC, topic_name, retention_ms="1234567"),
        incremental(admin, ResourceType.BROKER, "0", log_retention_bytes="7777777"),
        incremental(admin, ResourceType.GROUP, "g-refused", consumer_session_timeout_ms="50000"),
    ]
    for fut in refused:
        err = failed_with(fut)
        assert err.code() == E.KAFKA_STORAGE_ERROR, err
        assert "No space left on device" in err.str()
    with KafkaClient(b.bootstrap, timeout=TIMEOUT_S) as kc:  # the cluster-default broker resource
        with pytest.raises(KafkaClientError) as exc:
            kc.incremental_alter_configs(4, "", set_configs={"log.cleaner.backoff.ms": "16000"})
        assert exc.value.code == E.KAFKA_STORAGE_ERROR
    kadmin = KafkaAdminClient(bootstrap_servers=b.bootstrap, request_timeout_ms=TIMEOUT_S * 1000)
    try:
        got = kadmin.alter_configs([KConfigResource(ConfigResourceType.TOPIC, topic_name,
                                                    {"segment.ms": "3600000"})], incremental=False)
        assert "KafkaStorageError" in str(got["topic"][topic_name]), got
    finally:
        kadmin.close()

    # nothing changed: described values, the broker's own config, the log's settings
    assert value(admin, ResourceType.TOPIC, topic_name, "retention.ms") == "604800000"
    assert value(admin, ResourceType.TOPIC, topic_name, "segment.ms") == "604800000"
    assert value(admin, ResourceType.BROKER, "0", "log.retention.bytes") == "-1"
    assert value(admin, ResourceType.GROUP, "g-refused", "consumer.session.timeout.ms") == "45000"
    assert broker.config["log.retention.bytes"] == -1 and broker.config["log.cleaner.backoff.ms"] == 15000
    assert "log.retention.bytes" not in broker.config.dynamic
    assert plog.config.retention_bytes == before_retention == -1
    assert broker.metadata.group_configs == {}

    faults.disarm()
    assert incremental(admin, ResourceType.TOPIC, topic_name, retention_ms="1234567").result(TIMEOUT_S) is None
    assert incremental(admin, ResourceType.BROKER, "0", log_retention_bytes="7777777").result(TIMEOUT_S) is None
    assert incremental(admin, ResourceType.GROUP, "g-kept", consumer_session_timeout_ms="50000").result(
        TIMEOUT_S) is None
    assert broker.get_log(topic_name, 0).config.retention_bytes == 7777777
    b.stop()

    b = make_broker(data)
    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    assert value(admin, ResourceType.TOPIC, topic_name, "retention.ms") == "1234567"
    assert value(admin, ResourceType.TOPIC, topic_name, "segment.ms") == "604800000"
    assert value(admin, ResourceType.BROKER, "0", "log.retention.bytes") == "7777777"
    assert value(admin, ResourceType.BROKER, "0", "log.cleaner.backoff.ms") == "15000"
    assert value(admin, ResourceType.GROUP, "g-kept", "consumer.session.timeout.ms") == "50000"
    assert value(admin, ResourceType.GROUP, "g-refused", "consumer.session.timeout.ms") == "45000"


def test_auto_created_topic_waits_for_its_metadata_write(make_broker, spawn_broker, tmp_path, topic_name):
    data = tmp_path / "inproc"
    b = make_broker(data)
    with KafkaClient(b.bootstrap, timeout=TIMEOUT_S) as c:
        faults.arm("metadata", errno.ENOSPC)
        t = c.metadata([topic_name], allow_auto_topic_creation=True).topics[topic_name]
        assert t.error_code == E.LEADER_NOT_AVAILABLE
        assert b.server.broker.metadata.topic(topic_name) is None
        assert not [n for n in os.listdir(data) if n.startswith(topic_name)]
        faults.disarm()
        t = c.metadata([topic_name], allow_auto_topic_creation=True).topics[topic_name]
        assert t.error_code == 0 and len(t.partitions) == 1

    # answered means durable: kill -9 right after the answer keeps the topic
    p = spawn_broker(tmp_path / "proc")
    names = [f"{topic_name}-{i}" for i in range(5)]
    with KafkaClient(p.bootstrap, timeout=TIMEOUT_S) as c:
        for name in names:
            assert c.metadata([name], allow_auto_topic_creation=True).topics[name].error_code == 0
    p.kill()
    p = spawn_broker(tmp_path / "proc")
    with KafkaClient(p.bootstrap, timeout=TIMEOUT_S) as c:
        topics = c.metadata(names).topics
        assert all(topics[n].error_code == 0 for n in names), topics
