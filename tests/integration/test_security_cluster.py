"""Security metadata in a ZooKeeper cluster: SCRAM credentials, ACLs and quotas in Kafka's znodes.

Two ``kwire serve`` brokers on one ZooKeeper chroot, an authorizer on and
``User:ANONYMOUS`` a super user (the PLAINTEXT listener, also the
inter-broker one). A credential, ACLs and a quota made through broker 1
(confluent-kafka's admin and kwire's codec) are stored where Kafka 3.x keeps
them (``/config/users/<user>``, ``/kafka-acl/Topic/<name>``,
``/kafka-acl-extended/prefixed/...``, ``/config/clients/<id>``, with change
notifications) and reach broker 2 through its watches; deleting them there
removes them from broker 1. An acks=all produce to a replicated topic shows the
replica fetchers still get through the authorizer.
"""

from __future__ import annotations

import json
import time

import pytest
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)

from clients import Wire

confluent_kafka = pytest.importorskip("confluent_kafka")
from confluent_kafka.admin import (AclBinding, AclBindingFilter, AclOperation, AclPermissionType,  # noqa: E402
                                   AdminClient, ResourcePatternType, ResourceType, ScramCredentialInfo,
                                   ScramMechanism, UserScramCredentialDeletion, UserScramCredentialUpsertion)

AUTHZ = {"authorizer.class.name": "kafka.security.authorizer.AclAuthorizer", "super.users": "User:ANONYMOUS"}


def _eventually(fn, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            out = fn()
            if out:
                return out
        except Exception:
            if time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.2)


def _zk(cluster):
    from kazoo.client import KazooClient

    zk = KazooClient(cluster.connect, timeout=10)
    zk.start(10)
    return zk


def test_credentials_acls_and_quotas_live_in_zookeeper(make_cluster):
    c = make_cluster(2, overrides=AUTHZ)
    b1, b2 = c.broker(1).bootstrap, c.broker(2).bootstrap
    a1, a2 = AdminClient({"bootstrap.servers": b1}), AdminClient({"bootstrap.servers": b2})
    up = UserScramCredentialUpsertion("zoe", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), b"pw")
    a1.alter_user_scram_credentials([up])["zoe"].result(30)
    lit = AclBinding(ResourceType.TOPIC, "orders", ResourcePatternType.LITERAL, "User:zoe", "*",
                     AclOperation.READ, AclPermissionType.ALLOW)
    pre = AclBinding(ResourceType.GROUP, "app-", ResourcePatternType.PREFIXED, "User:zoe", "*",
                     AclOperation.ALL, AclPermissionType.DENY)
    for fut in a1.create_acls([lit, pre]).values():
        fut.result(30)
    from kwire.protocol.generated.alter_client_quotas_request import (AlterClientQuotasRequest, EntityData,
                                                                      EntryData, OpData)
    r = Wire(b1)(49, 1, AlterClientQuotasRequest(entries=[EntryData(
        entity=[EntityData(entity_type="client-id", entity_name="batch")],
        ops=[OpData(key="producer_byte_rate", value=1048576.0, remove=False)])]))
    assert r.entries[0].error_code == 0

    # replication works with the authorizer on (the fetchers' principal is a super user)
    from confluent_kafka import Producer
    from confluent_kafka.admin import NewTopic

    a1.create_topics([NewTopic("replicated", 1, 2)])["replicated"].result(30)
    p = Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "message.timeout.ms": 30000})
    delivered = []
    p.produce("replicated", b"v", on_delivery=lambda err, msg: delivered.append(err))
    p.flush(40)
    assert delivered == [None]

    # Kafka's znodes
    zk = _zk(c)
    try:
        user = json.loads(zk.get("/config/users/zoe")[0])
        assert user["version"] == 1 and user["config"]["SCRAM-SHA-256"].startswith("salt=")
        assert "iterations=4096" in user["config"]["SCRAM-SHA-256"]
        assert json.loads(zk.get("/kafka-acl/Topic/orders")[0])["acls"] == [
            {"principal": "User:zoe", "permissionType": "Allow", "operation": "Read", "host": "*"}]
        assert json.loads(zk.get("/kafka-acl-extended/prefixed/Group/app-")[0])["acls"][0]["operation"] == "All"
        assert json.loads(zk.get("/config/clients/batch")[0])["config"] == {"producer_byte_rate": "1048576"}
        assert zk.get_children("/kafka-acl-changes") and zk.get_children("/config/changes")
    finally:
        zk.stop()

    # broker 2 sees them through its watches
    desc = _eventually(lambda: a2.describe_user_scram_credentials(["zoe"])["zoe"].result(10))
    assert [(i.mechanism, i.iterations) for i in desc.scram_credential_infos] == [(ScramMechanism.SCRAM_SHA_256, 4096)]
    any_filter = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None, AclOperation.ANY,
                                  AclPermissionType.ANY)
    got = _eventually(lambda: a2.describe_acls(any_filter).result(10))
    assert sorted((a.name, a.resource_pattern_type) for a in got) == [
        ("app-", ResourcePatternType.PREFIXED), ("orders", ResourcePatternType.LITERAL)]

    # deleted through broker 2: gone from broker 1 and from ZooKeeper
    a2.alter_user_scram_credentials([UserScramCredentialDeletion("zoe", ScramMechanism.SCRAM_SHA_256)])[
        "zoe"].result(30)
    for fut in a2.delete_acls([any_filter]).values():
        fut.result(30)
    _eventually(lambda: a1.describe_acls(any_filter).result(10) == [])
    from confluent_kafka import KafkaException

    def zoe_gone() -> bool:
        try:
            a1.describe_user_scram_credentials(["zoe"])["zoe"].result(10)
        except KafkaException as e:
            return "RESOURCE_NOT_FOUND" in str(e) or "does not exist" in str(e)
        return False
    _eventually(zoe_gone)
    zk = _zk(c)
    try:
        assert not zk.exists("/kafka-acl/Topic/orders")
        assert "SCRAM-SHA-256" not in json.loads(zk.get("/config/users/zoe")[0])["config"]
    finally:
        zk.stop()
