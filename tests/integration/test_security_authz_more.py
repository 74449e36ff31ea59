"""Authorization of the KIP-848 group APIs, OffsetDelete and ListConfigResources, with real clients.

A SASL_PLAINTEXT broker with Kafka's ACL authorizer, ``User:admin`` a super
user and ``User:alice`` granted READ on the topics ``az-a`` and ``az-rx-a``
and READ on the groups prefixed ``az-`` (no ACL at all on ``az-b`` and
``az-rx-b``). Checked as Kafka 4.x's KafkaApis does them:

* ConsumerGroupHeartbeat (the Java consumer with ``group.protocol=consumer``):
  subscribing to a topic alice may not DESCRIBE fails with
  TopicAuthorizationException; a broker-side regex (``SubscriptionPattern``)
  is assigned only the matching topics she may DESCRIBE, while the super user
  gets every match;
* OffsetDelete (Java Admin ``deleteConsumerGroupOffsets``): without DELETE on
  the group every partition fails with GroupAuthorizationException; with it,
  the partitions of a topic without READ fail with TopicAuthorizationException
  and keep their committed offset, the others are deleted;
* ConsumerGroupDescribe (Java Admin ``describeConsumerGroups``): a group whose
  assignment holds a topic alice may not DESCRIBE is refused with
  TopicAuthorizationException (the super user sees it), a group without an ACL
  with GroupAuthorizationException; ShareGroupDescribe (raw wire, share groups
  of confluent-kafka ShareConsumers) the same way;
* ListConfigResources (raw wire, v0 and v1): CLUSTER_AUTHORIZATION_FAILED
  without DESCRIBE_CONFIGS on the cluster;
* on the wire, the checks a sweep of every handler against Kafka found
  missing: TxnOffsetCommit (READ per topic; a refused transactional id was an
  UNKNOWN_SERVER_ERROR), DescribeTransactions (topics filtered by DESCRIBE),
  OffsetForLeaderEpoch (CLUSTER_ACTION or DESCRIBE whatever the replica id),
  AddPartitionsToTxn v4+ (CLUSTER_ACTION), WriteTxnMarkers (ALTER or
  CLUSTER_ACTION), DeleteTopics (DESCRIBE before existence), Metadata's
  cluster authorized operations (0 without DESCRIBE), DescribeGroups.
"""

from __future__ import annotations


import pytest
from confluent_kafka.admin import (AclBinding, AclOperation, AclPermissionType, AdminClient, NewTopic,
                                   ResourcePatternType, ResourceType)

from test_security import ADMIN_PLAIN, sasl_listener

pytestmark = pytest.mark.timeout(300) if hasattr(pytest.mark, "timeout") else []

AUTHORIZER = "kafka.security.authorizer.AclAuthorizer"
TOPICS = ("az-a", "az-b", "az-rx-a", "az-rx-b")


def _java(*args: str, timeout: float = 120) -> list[dict]:
    from javaclient import run_class

    return run_class("KwireAuthz", *args, timeout=timeout)


def _conf(b, user: str) -> dict:
    return {"bootstrap.servers": b.bootstrap, **ADMIN_PLAIN, "sasl.username": user,
            "sasl.password": f"{user}-secret"}


def _acl(name, op, rt=ResourceType.TOPIC, pt=ResourcePatternType.LITERAL):
    return AclBinding(rt, name, pt, "User:alice", "*", op, AclPermissionType.ALLOW)


@pytest.fixture(scope="module")
def authz_broker(tmp_path_factory):
    from confluent_kafka import Producer
    from conftest import InProcessBroker

    d = tmp_path_factory.mktemp("kwire-authz-more")
    cfg = {"log.dirs": str(d), "group.initial.rebalance.delay.ms": "0", "authorizer.class.name": AUTHORIZER,
           "super.users": "User:admin", **sasl_listener()}
    b = InProcessBroker(d, cfg)
    admin = AdminClient(_conf(b, "admin"))
    for fut in admin.create_topics([NewTopic(t, 1, 1) for t in TOPICS]).values():
        fut.result(30)
    p = Producer({**_conf(b, "admin"), "message.timeout.ms": 30000})
    for t in TOPICS:
        for i in range(3):
            p.produce(t, f"{t}-{i}".encode())
    assert p.flush(30) == 0
    grants = [_acl("az-a", AclOperation.READ), _acl("az-rx-a", AclOperation.READ),
              _acl("az-", AclOperation.READ, ResourceType.GROUP, ResourcePatternType.PREFIXED)]
    for fut in admin.create_acls(grants).values():
        fut.result(30)
    props = {}
    for user in ("admin", "alice"):
        path = d / f"{user}.properties"
        path.write_text(f"bootstrap.servers={b.bootstrap}\n"
                        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                        f'username="{user}" password="{user}-secret";\n')
        props[user] = str(path)
    b.props = props
    yield b
    b.stop()


def _login(b, user: str):
    from clients import Wire
    from kwire.protocol.generated.sasl_authenticate_request import SaslAuthenticateRequest
    from kwire.protocol.generated.sasl_handshake_request import SaslHandshakeRequest

    w = Wire(b.bootstrap)
    assert w(17, 1, SaslHandshakeRequest(mechanism="PLAIN")).error_code == 0
    assert w(36, 2, SaslAuthenticateRequest(auth_bytes=f"\0{user}\0{user}-secret".encode())).error_code == 0
    return w


def test_consumer_group_heartbeat_needs_describe_on_subscribed_topics(authz_broker):
    import uuid

    from kwire.protocol.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest

    alice, admin = authz_broker.props["alice"], authz_broker.props["admin"]
    # the Java consumer is refused already by Metadata; the heartbeat itself, on the wire:
    w = _login(authz_broker, "alice")
    try:
        def join(group, topics):
            return w(68, 1, ConsumerGroupHeartbeatRequest(
                group_id=group, member_id=str(uuid.uuid4()), member_epoch=0, rebalance_timeout_ms=30000,
                subscribed_topic_names=topics, topic_partitions=[]))

        r = join("az-hb-1", ["az-a", "az-b"])
        assert (r.error_code, r.member_id, r.assignment) == (29, None, None)  # TOPIC_AUTHORIZATION_FAILED
        assert join("other-hb", ["az-a"]).error_code == 30  # GROUP_AUTHORIZATION_FAILED: no group ACL
        r = join("az-hb-1", ["az-a"])
        assert r.error_code == 0 and r.member_epoch == 1
    finally:
        w.close()
    out = _java("consume", alice, "az-hb-1b", "az-a,az-b", "1", "20000")
    assert out and out[-1]["type"] == "error" and out[-1]["error"] == "TopicAuthorizationException", out
    out = _java("consume", alice, "az-hb-2", "az-a", "3", "30000")
    assert out and out[-1] == {"type": "done", "consumed": 3, "topics": ["az-a"]}, out
    # a broker-side regex: alice is assigned only the matches she may DESCRIBE, the super user all
    out = _java("consume", alice, "az-hb-3", "re:az-rx-.*", "3", "30000")
    assert out and out[-1] == {"type": "done", "consumed": 3, "topics": ["az-rx-a"]}, out
    assert all("az-rx-b" not in line.get("topics", []) for line in out), out
    out = _java("consume", admin, "az-hb-4", "re:az-rx-.*", "6", "30000")
    assert out and out[-1] == {"type": "done", "consumed": 6, "topics": ["az-rx-a", "az-rx-b"]}, out


def _committed(b, group: str) -> dict:
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({**_conf(b, "admin"), "group.id": group})
    try:
        got = c.committed([TopicPartition("az-a", 0), TopicPartition("az-b", 0)], timeout=30)
        return {tp.topic: tp.offset for tp in got}
    finally:
        c.close()


def test_offset_delete_needs_group_delete_and_topic_read(authz_broker):
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({**_conf(authz_broker, "admin"), "group.id": "az-del"})
    c.commit(offsets=[TopicPartition("az-a", 0, 1), TopicPartition("az-b", 0, 2)], asynchronous=False)
    c.close()
    assert _committed(authz_broker, "az-del") == {"az-a": 1, "az-b": 2}
    alice = authz_broker.props["alice"]
    out = _java("delete-offsets", alice, "az-del", "az-a:0,az-b:0")
    assert out and out[-1] == {"type": "deleted", "results": {
        "az-a-0": "GroupAuthorizationException", "az-b-0": "GroupAuthorizationException"}}, out
    admin = AdminClient(_conf(authz_broker, "admin"))
    grant = _acl("az-del", AclOperation.DELETE, ResourceType.GROUP)
    admin.create_acls([grant])[grant].result(30)
    out = _java("delete-offsets", alice, "az-del", "az-a:0,az-b:0")
    assert out and out[-1] == {"type": "deleted", "results": {
        "az-a-0": "ok", "az-b-0": "TopicAuthorizationException"}}, out
    assert _committed(authz_broker, "az-del") == {"az-a": -1001, "az-b": 2}  # only az-a's was deleted


def test_consumer_group_describe_hides_groups_with_topics_the_principal_cannot_see(authz_broker):
    import time

    from confluent_kafka import Consumer

    c = Consumer({**_conf(authz_broker, "admin"), "group.id": "az-desc", "group.protocol": "consumer",
                  "auto.offset.reset": "earliest"})
    try:
        c.subscribe(["az-b"])
        deadline = time.monotonic() + 60
        while not c.assignment() and time.monotonic() < deadline:
            c.poll(0.2)
        assert c.assignment(), "the super user's consumer got no assignment"
        out = _java("describe", authz_broker.props["admin"], "az-desc")
        assert out and out[-1] == {"type": "group", "state": "Stable", "members": 1, "topics": ["az-b"]}, out
        out = _java("describe", authz_broker.props["alice"], "az-desc")
        assert out and out[-1]["type"] == "error" and out[-1]["error"] == "TopicAuthorizationException", out
        # a group without any ACL for alice (not prefixed az-)
        out = _java("describe", authz_broker.props["alice"], "other-desc")
        assert out and out[-1]["type"] == "error" and out[-1]["error"] == "GroupAuthorizationException", out
    finally:
        c.close()


def test_share_group_describe_hides_groups_with_topics_the_principal_cannot_see(authz_broker):
    """Two share groups of the super user's confluent-kafka ShareConsumers, on az-b (alice may
    not DESCRIBE it) and az-a: alice's ShareGroupDescribe gets the first as
    TOPIC_AUTHORIZATION_FAILED with Kafka's message and no members, the second whole."""
    import time

    from confluent_kafka import ShareConsumer

    from kwire.protocol.generated.share_group_describe_request import ShareGroupDescribeRequest

    groups = {"az-sdesc-b": "az-b", "az-sdesc-a": "az-a"}
    consumers = []
    alice, admin = _login(authz_broker, "alice"), _login(authz_broker, "admin")

    def described(w):
        r = w(77, 1, ShareGroupDescribeRequest(group_ids=list(groups), include_authorized_operations=False))
        return {g.group_id: g for g in r.groups}

    def topics(g):
        return sorted({tp.topic_name for m in g.members for tp in m.assignment.topic_partitions})

    try:
        for group, topic in groups.items():
            c = ShareConsumer({**_conf(authz_broker, "admin"), "group.id": group})
            c.subscribe([topic])
            consumers.append(c)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            for c in consumers:
                c.poll(0.1)
            seen = described(admin)
            if all(topics(seen[g]) == [t] for g, t in groups.items()):
                break
        assert all(topics(seen[g]) == [t] for g, t in groups.items()), seen
        mine = described(alice)
        hidden = mine["az-sdesc-b"]
        assert (hidden.error_code, hidden.error_message, hidden.members) == (
            29, "The group has described topic(s) that the client is not authorized to describe.", [])
        assert mine["az-sdesc-a"].error_code == 0 and topics(mine["az-sdesc-a"]) == ["az-a"]
    finally:
        for c in consumers:
            c.close()
        alice.close()
        admin.close()


def test_list_config_resources_needs_cluster_describe_configs(authz_broker):
    from kwire.protocol.generated.list_config_resources_request import ListConfigResourcesRequest

    alice, admin = _login(authz_broker, "alice"), _login(authz_broker, "admin")
    try:
        for v in (0, 1):
            r = alice(74, v, ListConfigResourcesRequest(resource_types=[2] if v else []))
            assert (r.error_code, r.config_resources) == (31, [])  # CLUSTER_AUTHORIZATION_FAILED
        r = admin(74, 1, ListConfigResourcesRequest(resource_types=[2]))
        assert r.error_code == 0 and set(TOPICS) <= {c.resource_name for c in r.config_resources}
        grant = _acl("kafka-cluster", AclOperation.DESCRIBE_CONFIGS, ResourceType.BROKER)
        admin_client = AdminClient(_conf(authz_broker, "admin"))
        admin_client.create_acls([grant])[grant].result(30)
        r = alice(74, 1, ListConfigResourcesRequest(resource_types=[2]))
        assert r.error_code == 0 and set(TOPICS) <= {c.resource_name for c in r.config_resources}
    finally:
        alice.close()
        admin.close()


def test_checks_fixed_in_the_sweep_on_the_wire(authz_broker):
    """TxnOffsetCommit, DescribeTransactions, OffsetForLeaderEpoch, WriteTxnMarkers, AddPartitionsToTxn
    v4, DeleteTopics, Metadata's cluster authorized operations and DescribeGroups, as Kafka checks them."""
    from confluent_kafka import Producer

    from kwire.protocol.generated import (add_partitions_to_txn_request as apt, delete_topics_request as dtr,
                                          describe_groups_request as dg, describe_transactions_request as dt,
                                          metadata_request as mr,
                                          offset_for_leader_epoch_request as ofl, txn_offset_commit_request as toc,
                                          write_txn_markers_request as wtm)

    admin_client = AdminClient(_conf(authz_broker, "admin"))
    for name in ("az-tx", "az-tx2"):
        grant = AclBinding(ResourceType.TRANSACTIONAL_ID, name, ResourcePatternType.LITERAL, "User:alice", "*",
                           AclOperation.WRITE, AclPermissionType.ALLOW)
        admin_client.create_acls([grant])[grant].result(30)
    # an open transaction of the super user over az-a and az-b
    p = Producer({**_conf(authz_broker, "admin"), "transactional.id": "az-tx2"})
    p.init_transactions(30)
    p.begin_transaction()
    p.produce("az-a", b"t")
    p.produce("az-b", b"t")
    assert p.flush(30) == 0
    w = _login(authz_broker, "alice")
    try:
        # TxnOffsetCommit: no WRITE on the transactional id (was an UNKNOWN_SERVER_ERROR), then per topic READ
        def commit(tid):
            r = w(28, 3, toc.TxnOffsetCommitRequest(
                transactional_id=tid, group_id="az-txg", producer_id=1, producer_epoch=0, topics=[
                    toc.TxnOffsetCommitRequestTopic(name=t, partitions=[
                        toc.TxnOffsetCommitRequestPartition(partition_index=0, committed_offset=1)])
                    for t in ("az-a", "az-b")]))
            return {t.name: t.partitions[0].error_code for t in r.topics}

        assert commit("az-none") == {"az-a": 53, "az-b": 53}  # TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        got = commit("az-tx")
        assert got["az-b"] == 29 and got["az-a"] not in (29, 53, -1), got
        # DescribeTransactions lists only the topics alice may DESCRIBE (WRITE on the id implies DESCRIBE)
        r = w(65, 0, dt.DescribeTransactionsRequest(transactional_ids=["az-tx2"]))
        state = r.transaction_states[0]
        assert state.error_code == 0 and [t.topic for t in state.topics] == ["az-a"]
        # OffsetForLeaderEpoch: DESCRIBE on the topic is enough whatever the replica id (KIP-320)
        r = w(23, 4, ofl.OffsetForLeaderEpochRequest(replica_id=1, topics=[ofl.OffsetForLeaderTopic(
            topic=t, partitions=[ofl.OffsetForLeaderPartition(partition=0, leader_epoch=0)])
            for t in ("az-a", "az-b")]))
        assert {t.topic: t.partitions[0].error_code for t in r.topics} == {"az-a": 0, "az-b": 29}
        # AddPartitionsToTxn v4+ is broker to broker: CLUSTER_ACTION, else the top-level error
        r = w(24, 4, apt.AddPartitionsToTxnRequest(transactions=[apt.AddPartitionsToTxnTransaction(
            transactional_id="az-tx", producer_id=1, producer_epoch=0, verify_only=True,
            topics=[apt.AddPartitionsToTxnTopic(name="az-a", partitions=[0])])]))
        assert (r.error_code, r.results_by_transaction) == (31, [])
        # WriteTxnMarkers: ALTER or CLUSTER_ACTION on the cluster
        markers = wtm.WriteTxnMarkersRequest(markers=[wtm.WritableTxnMarker(
            producer_id=99, producer_epoch=0, coordinator_epoch=0,
            topics=[wtm.WritableTxnMarkerTopic(name="az-none", partition_indexes=[0])])])
        assert w(27, 1, markers).markers[0].topics[0].partitions[0].error_code == 31
        # cluster authorized operations: 0 without DESCRIBE on the cluster
        r = w(3, 10, mr.MetadataRequest(topics=[], include_cluster_authorized_operations=True))
        assert r.cluster_authorized_operations == 0
        # DeleteTopics: a name alice may not DESCRIBE is refused whether it exists or not (Kafka's
        # ControllerApis); one she may describe but not delete too
        r = w(20, 6, dtr.DeleteTopicsRequest(topics=[dtr.DeleteTopicState(name=n)
                                                     for n in ("az-b", "az-missing", "az-a")], timeout_ms=5000))
        assert {t.name: t.error_code for t in r.responses} == {"az-b": 29, "az-missing": 29, "az-a": 29}
        # DescribeGroups: no authorized operations for a group answered with an error
        r = w(15, 5, dg.DescribeGroupsRequest(groups=["other-dg"], include_authorized_operations=True))
        assert (r.groups[0].error_code, r.groups[0].authorized_operations) == (30, -2147483648)
        alter = AclBinding(ResourceType.BROKER, "kafka-cluster", ResourcePatternType.LITERAL, "User:alice", "*",
                           AclOperation.ALTER, AclPermissionType.ALLOW)
        admin_client.create_acls([alter])[alter].result(30)
        assert w(27, 1, markers).markers[0].topics[0].partitions[0].error_code == 3  # UNKNOWN_TOPIC_OR_PARTITION
        r = w(3, 10, mr.MetadataRequest(topics=[], include_cluster_authorized_operations=True))
        assert r.cluster_authorized_operations & (1 << 8)  # ALTER implies DESCRIBE
    finally:
        w.close()
        p.abort_transaction(30)


def test_create_topics_hides_configs_without_describe_configs(authz_broker):
    """CreateTopics: a topic alice may CREATE but not DESCRIBE_CONFIGS is created, answered with
    topic_config_error_code TOPIC_AUTHORIZATION_FAILED and neither layout nor configs (Kafka's
    ControllerApis); with DESCRIBE_CONFIGS she gets them; without CREATE the topic is refused."""
    from kwire.protocol.generated import create_topics_request as ctr

    admin_client = AdminClient(_conf(authz_broker, "admin"))
    grants = [_acl("az-new-1", AclOperation.CREATE), _acl("az-new-2", AclOperation.CREATE),
              _acl("az-new-2", AclOperation.DESCRIBE_CONFIGS)]
    for fut in admin_client.create_acls(grants).values():
        fut.result(30)
    w = _login(authz_broker, "alice")
    try:
        r = w(19, 7, ctr.CreateTopicsRequest(topics=[
            ctr.CreatableTopic(name=n, num_partitions=2, replication_factor=1, assignments=[], configs=[])
            for n in ("az-new-1", "az-new-2", "az-new-3")], timeout_ms=10000))
        got = {t.name: t for t in r.topics}
        hidden, shown, refused = got["az-new-1"], got["az-new-2"], got["az-new-3"]
        assert (hidden.error_code, hidden.topic_config_error_code) == (0, 29)
        assert (hidden.num_partitions, hidden.replication_factor, hidden.configs) == (-1, -1, [])
        assert (shown.error_code, shown.topic_config_error_code, shown.num_partitions) == (0, 0, 2)
        assert any(c.name == "cleanup.policy" for c in shown.configs)
        assert refused.error_code == 29
    finally:
        w.close()
    md = admin_client.list_topics(timeout=30).topics  # the hidden one was really created
    assert len(md["az-new-1"].partitions) == 2 and "az-new-3" not in md
