"""ACLs with real clients: the ACL APIs with and without an authorizer, and what a user may do.

Without ``authorizer.class.name`` CreateAcls / DescribeAcls / DeleteAcls answer
SECURITY_DISABLED (confluent-kafka's admin, kafka-python's admin) instead of
closing the connection. With it (a SASL_PLAINTEXT broker, ``User:admin`` a
super user): ACLs are created, described with filters, deleted, survive a
restart; an invalid pattern is INVALID_REQUEST and the others of the same
request are created; a user without ACLs cannot see, write or read a topic
(group consumer), with each of confluent-kafka, kafka-python, aiokafka and
kcat reporting its own TOPIC_AUTHORIZATION_FAILED (GROUP_AUTHORIZATION_FAILED
for a consumer refused at its group first), while the super user writes and
reads it with the same client and no ACL; granted ACLs let the user.
"""

from __future__ import annotations

import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import (AclBinding, AclBindingFilter, AclOperation, AclPermissionType, AdminClient,
                                   ResourcePatternType, ResourceType)

from test_security import ADMIN_PLAIN, sasl_listener

AUTHORIZER = "kafka.security.authorizer.AclAuthorizer"


def _acl(name, principal="User:alice", op=AclOperation.READ, rt=ResourceType.TOPIC,
         pt=ResourcePatternType.LITERAL, perm=AclPermissionType.ALLOW):
    return AclBinding(rt, name, pt, principal, "*", op, perm)


ANY_FILTER = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None, AclOperation.ANY,
                              AclPermissionType.ANY)


def test_acl_apis_without_authorizer_answer_security_disabled(broker):
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    # (librdkafka 2.16 drops DescribeAcls' top-level error and reports [], so it is checked below
    # with kafka-python; the broker answers it SECURITY_DISABLED all the same)
    with pytest.raises(KafkaException, match="SECURITY_DISABLED|No Authorizer"):
        admin.create_acls([_acl("t")], request_timeout=15)[_acl("t")].result(30)
    with pytest.raises(KafkaException, match="SECURITY_DISABLED|No Authorizer"):
        admin.delete_acls([ANY_FILTER], request_timeout=15)[ANY_FILTER].result(30)
    # kafka-python's admin sees the error code too, and the connection stays usable
    from kafka.admin import (ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType,
                             KafkaAdminClient, ResourcePatternFilter)
    from kafka.admin import ResourceType as KpResourceType
    from kafka.errors import SecurityDisabledError

    kp = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        with pytest.raises(SecurityDisabledError):
            kp.describe_acls(ACLFilter(None, "*", ACLOperation.ANY, ACLPermissionType.ANY,
                                       ResourcePatternFilter(KpResourceType.ANY, None, ACLResourcePatternType.ANY)))
        assert kp.list_topics() is not None
    finally:
        kp.close()


@pytest.fixture(scope="module")
def acl_broker(tmp_path_factory):
    from conftest import InProcessBroker

    d = tmp_path_factory.mktemp("kwire-acl")
    cfg = {"log.dirs": str(d), "group.initial.rebalance.delay.ms": "0", "authorizer.class.name": AUTHORIZER,
           "super.users": "User:admin", **sasl_listener()}
    b = InProcessBroker(d, cfg)
    b.cfg = cfg
    yield b
    b.stop()


def admin_of(b, user="admin", password="admin-secret") -> AdminClient:
    return AdminClient({"bootstrap.servers": b.bootstrap, **ADMIN_PLAIN, "sasl.username": user,
                        "sasl.password": password})


def test_create_describe_delete_acls(acl_broker):
    admin = admin_of(acl_broker)
    acls = [_acl("orders"), _acl("pay", pt=ResourcePatternType.PREFIXED, op=AclOperation.WRITE),
            _acl("g1", rt=ResourceType.GROUP)]
    for fut in admin.create_acls(acls, request_timeout=15).values():
        assert fut.result(30) is None
    got = admin.describe_acls(AclBindingFilter(ResourceType.TOPIC, None, ResourcePatternType.ANY, None, None,
                                               AclOperation.ANY, AclPermissionType.ANY)).result(30)
    assert sorted(a.name for a in got) == ["orders", "pay"]
    got = admin.describe_acls(AclBindingFilter(ResourceType.TOPIC, "payments", ResourcePatternType.MATCH,
                                               None, None, AclOperation.ANY, AclPermissionType.ANY)).result(30)
    assert [(a.name, a.resource_pattern_type) for a in got] == [("pay", ResourcePatternType.PREFIXED)]
    # an invalid ACL (CLUSTER resource not named kafka-cluster) fails alone
    bad, good = _acl("not-the-cluster", rt=ResourceType.BROKER), _acl("audit")
    futs = admin.create_acls([bad, good], request_timeout=15)
    with pytest.raises(KafkaException, match="INVALID_REQUEST|kafka-cluster"):
        futs[bad].result(30)
    assert futs[good].result(30) is None
    f = AclBindingFilter(ResourceType.TOPIC, "audit", ResourcePatternType.LITERAL, None, None,
                         AclOperation.ANY, AclPermissionType.ANY)
    deleted = admin.delete_acls([f])[f].result(30)
    assert [a.name for a in deleted] == ["audit"]
    names = sorted(a.name for a in admin.describe_acls(ANY_FILTER).result(30))
    assert names == ["g1", "orders", "pay"]
    # non-super users may not manage ACLs
    alice = admin_of(acl_broker, "alice", "alice-secret")
    with pytest.raises(KafkaException, match="CLUSTER_AUTHORIZATION_FAILED|uthoriz"):
        alice.create_acls([_acl("mine")])[_acl("mine")].result(30)
    for fut in admin.delete_acls([ANY_FILTER]).values():
        fut.result(30)
    assert admin.describe_acls(ANY_FILTER).result(30) == []


def _conf(b, user, password) -> dict:
    return {"bootstrap.servers": b.bootstrap, **ADMIN_PLAIN, "sasl.username": user, "sasl.password": password}


def _produce(conf: dict, topic: str, n: int = 3) -> list:
    from confluent_kafka import Producer

    errors = []
    p = Producer({**conf, "message.timeout.ms": 10000, "topic.metadata.refresh.interval.ms": 500})
    for i in range(n):
        p.produce(topic, f"v{i}".encode(), on_delivery=lambda err, msg: errors.append(err))
    p.flush(30)
    return errors


def _consume(conf: dict, topic: str, group: str, n: int, timeout: float = 30):
    """(values, first error) consuming ``topic`` in ``group`` from the beginning."""
    import time

    from confluent_kafka import Consumer

    c = Consumer({**conf, "group.id": group, "auto.offset.reset": "earliest"})
    c.subscribe([topic])
    got, error = [], None
    deadline = time.monotonic() + timeout
    while len(got) < n and error is None and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is None:
            continue
        if m.error():
            if not m.error().code() == m.error()._PARTITION_EOF:
                error = m.error()
            continue
        got.append(m.value())
    c.close()
    return got, error


def _sec(user: str, password: str) -> dict:
    return {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN", "sasl.username": user,
            "sasl.password": password}


def _listed(client: str, b, sec: dict) -> set[str]:
    """The topics ``client`` sees when it lists them all (Metadata for every topic)."""
    import asyncio

    from test_security import aiokafka_kw, kafka_python_kw, kcat_x

    if client == "confluent":
        return set(AdminClient({"bootstrap.servers": b.bootstrap, **sec}).list_topics(timeout=15).topics)
    if client == "kafka-python":
        from kafka import KafkaConsumer

        c = KafkaConsumer(bootstrap_servers=b.bootstrap, **kafka_python_kw(sec))
        try:
            return set(c.topics())
        finally:
            c.close()
    if client == "aiokafka":
        from aiokafka import AIOKafkaConsumer

        async def topics() -> set[str]:
            c = AIOKafkaConsumer(bootstrap_servers=b.bootstrap, **aiokafka_kw(sec))
            await c.start()
            try:
                return set(await c.topics())
            finally:
                await c.stop()
        return asyncio.run(topics())
    from clients import kcat

    r = kcat("-b", b.bootstrap, *[a for x in kcat_x(sec) for a in ("-X", x)], "-L", "-J", timeout=60)
    assert r.returncode == 0, r.stderr
    import json

    return {t["topic"] for t in json.loads(r.stdout)["topics"]}


_KCAT_ERRORS = {"Topic authorization failed": 29, "Group authorization failed": 30}


def _denied(client: str, b, sec: dict, topic: str, op: str) -> int:
    """The Kafka error code ``client`` reports when it produces to (op "produce") or consumes
    (op "consume": in a group, kcat without one) ``topic``; fails if it succeeds."""
    import asyncio

    from test_security import aiokafka_kw, kafka_python_kw, kcat_x

    group = f"{client}-{topic}-group"
    if client == "confluent":
        conf = {"bootstrap.servers": b.bootstrap, **sec}
        if op == "produce":
            errors = _produce(conf, topic, 1)
            assert errors and errors[0] is not None, errors
            return errors[0].code()
        got, error = _consume(conf, topic, group, 1)
        assert got == [] and error is not None
        return error.code()
    if client == "kafka-python":
        from kafka import KafkaConsumer, KafkaProducer
        from kafka.errors import BrokerResponseError

        if op == "produce":
            p = KafkaProducer(bootstrap_servers=b.bootstrap, max_block_ms=20000, **kafka_python_kw(sec))
            try:
                with pytest.raises(BrokerResponseError) as e:
                    p.send(topic, b"v").get(30)
            finally:
                p.close(5)
            return e.value.errno
        c = KafkaConsumer(bootstrap_servers=b.bootstrap, group_id=group, **kafka_python_kw(sec))
        try:
            c.subscribe([topic])
            with pytest.raises(BrokerResponseError) as e:
                for _ in range(40):
                    c.poll(500)
        finally:
            c.close()
        return e.value.errno
    if client == "aiokafka":
        from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
        from aiokafka.errors import BrokerResponseError

        async def run() -> int:
            if op == "produce":
                p = AIOKafkaProducer(bootstrap_servers=b.bootstrap, request_timeout_ms=20000, **aiokafka_kw(sec))
                await p.start()
                try:
                    with pytest.raises(BrokerResponseError) as e:
                        await asyncio.wait_for(p.send_and_wait(topic, b"v"), 30)
                finally:
                    await p.stop()
                return e.value.errno
            c = AIOKafkaConsumer(topic, bootstrap_servers=b.bootstrap, group_id=group, **aiokafka_kw(sec))
            try:
                with pytest.raises(BrokerResponseError) as e:  # from start() (its Metadata) or getone()
                    await c.start()
                    await asyncio.wait_for(c.getone(), 30)
            finally:
                await c.stop()
            return e.value.errno
        return asyncio.run(run())
    from clients import kcat

    xs = [a for x in kcat_x(sec) for a in ("-X", x)]
    if op == "produce":
        r = kcat("-b", b.bootstrap, *xs, "-P", "-t", topic, input="v\n", timeout=60)
    else:
        # (kcat's own consumer: with -G it prints the broker's FindCoordinator message, not an error name)
        r = kcat("-b", b.bootstrap, *xs, "-C", "-t", topic, "-o", "beginning", "-c", "1", "-e", timeout=60)
    assert r.returncode != 0, r.stdout
    codes = {code for text, code in _KCAT_ERRORS.items() if text in r.stderr}
    assert len(codes) == 1, r.stderr
    return codes.pop()


@pytest.mark.parametrize("client", ["confluent", "kafka-python", "aiokafka", "kcat"])
def test_user_without_acls_is_denied_and_the_super_user_is_not(acl_broker, client):
    from confluent_kafka import KafkaError
    from confluent_kafka.admin import NewTopic
    from test_security import roundtrip

    topic = f"secret-{client}"
    admin = admin_of(acl_broker)
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    # the super user writes and reads back without any ACL
    roundtrip(client, acl_broker.bootstrap, topic, _sec("admin", "admin-secret"))
    assert topic in _listed(client, acl_broker, _sec("admin", "admin-secret"))
    # a user without ACLs does not see the topic and may neither write it nor read it
    alice = _sec("alice", "alice-secret")
    assert topic not in _listed(client, acl_broker, alice)
    assert _denied(client, acl_broker, alice, topic, "produce") == KafkaError.TOPIC_AUTHORIZATION_FAILED
    assert _denied(client, acl_broker, alice, topic, "consume") in (KafkaError.TOPIC_AUTHORIZATION_FAILED,
                                                                    KafkaError.GROUP_AUTHORIZATION_FAILED)
    assert acl_broker.server.broker.metadata.image.acls == set()


def test_granted_acls_let_a_user_see_read_write_and_join(acl_broker):
    from confluent_kafka import KafkaError
    from confluent_kafka.admin import NewTopic

    admin = admin_of(acl_broker)
    admin.create_topics([NewTopic("secret", 1, 1)])["secret"].result(30)
    assert _produce(_conf(acl_broker, "admin", "admin-secret"), "secret") == [None] * 3  # super user
    alice = _conf(acl_broker, "alice", "alice-secret")
    # before any grant (each client's denial: the test above)
    errors = _produce(alice, "secret", 1)
    assert errors and errors[0] is not None and errors[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    # granted: READ and WRITE on the topic (DESCRIBE implied), READ on the group
    grants = [_acl("secret", op=AclOperation.READ), _acl("secret", op=AclOperation.WRITE),
              _acl("alice-group", rt=ResourceType.GROUP, op=AclOperation.READ)]
    for fut in admin.create_acls(grants).values():
        fut.result(30)
    assert "secret" in AdminClient(alice).list_topics(timeout=15).topics
    assert _produce(alice, "secret", 2) == [None, None]
    got, error = _consume(alice, "secret", "alice-group", 5)
    assert error is None and got == [b"v0", b"v1", b"v2", b"v0", b"v1"]
    # a DENY wins over the ALLOW
    deny = _acl("secret", op=AclOperation.WRITE, perm=AclPermissionType.DENY)
    admin.create_acls([deny])[deny].result(30)
    errors = _produce(alice, "secret", 1)
    assert errors[0] is not None and errors[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    for fut in admin.delete_acls([ANY_FILTER]).values():
        fut.result(30)


def test_acls_survive_a_restart(tmp_path):
    from conftest import InProcessBroker

    cfg = {"log.dirs": str(tmp_path), "authorizer.class.name": AUTHORIZER, "super.users": "User:admin",
           **sasl_listener()}
    b = InProcessBroker(tmp_path, cfg)
    try:
        admin = admin_of(b)
        admin.create_acls([_acl("kept")])[_acl("kept")].result(30)
        from confluent_kafka.admin import ScramCredentialInfo, ScramMechanism, UserScramCredentialUpsertion

        up = UserScramCredentialUpsertion("carol", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), b"pw")
        admin.alter_user_scram_credentials([up])["carol"].result(30)
    finally:
        b.stop()
    b = InProcessBroker(tmp_path, cfg)
    try:
        image = b.server.broker.metadata.image
        assert [a[1] for a in image.acls] == ["kept"]
        assert image.scram_credentials["carol"]["SCRAM-SHA-256"]["iterations"] == 8192
    finally:
        b.stop()


def test_kwire_acls_cli(acl_broker, tmp_path):
    from test_security import _kwire

    conf = tmp_path / "admin.properties"
    conf.write_text("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.username=admin\n"
                    "sasl.password=admin-secret\n")
    b = ["--bootstrap-server", acl_broker.bootstrap, "--command-config", str(conf)]
    r = _kwire("acls", "add", "--allow-principal", "User:alice", "--operation", "Read", "--operation", "Describe",
               "--topic", "logs", "--resource-pattern-type", "prefixed", *b)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("Added") == 2
    r = _kwire("acls", "list", "--topic", "logs-app", "--resource-pattern-type", "match", *b)
    assert r.returncode == 0, r.stderr
    assert sorted(line.split("\t")[5] for line in r.stdout.splitlines()) == ["DESCRIBE", "READ"]
    r = _kwire("acls", "add", "--allow-principal", "alice", "--operation", "Read", "--topic", "x", *b)
    assert r.returncode == 1 and "INVALID_REQUEST" in r.stderr  # a principal needs its type
    r = _kwire("acls", "remove", "--topic", "logs", "--resource-pattern-type", "prefixed", *b)
    assert r.returncode == 0 and r.stdout.count("Removed") == 2, r.stderr
    r = _kwire("acls", "list", *b)
    assert r.returncode == 0 and r.stdout == ""


def test_authorized_operations_and_describe_topic_partitions(acl_broker):
    from confluent_kafka import TopicCollection
    from confluent_kafka.admin import NewTopic

    admin = admin_of(acl_broker)
    admin.create_topics([NewTopic("ops-a", 1, 1), NewTopic("ops-b", 1, 1)])["ops-a"].result(30)
    read = _acl("ops-a", op=AclOperation.READ)
    admin.create_acls([read])[read].result(30)
    try:
        alice = AdminClient(_conf(acl_broker, "alice", "alice-secret"))
        desc = alice.describe_topics(TopicCollection(["ops-a"]), include_authorized_operations=True)["ops-a"].result(30)
        assert set(desc.authorized_operations) == {AclOperation.READ, AclOperation.DESCRIBE}
        full = admin.describe_topics(TopicCollection(["ops-a"]), include_authorized_operations=True)["ops-a"].result(30)
        assert AclOperation.WRITE in set(full.authorized_operations)  # the super user may do everything
        # DescribeTopicPartitions (what Java 4.x admin clients use): hidden when listing, refused when named
        from clients import Wire
        from kwire.protocol.generated.describe_topic_partitions_request import (DescribeTopicPartitionsRequest,
                                                                                TopicRequest)
        from kwire.protocol.generated.sasl_authenticate_request import SaslAuthenticateRequest
        from kwire.protocol.generated.sasl_handshake_request import SaslHandshakeRequest

        w = Wire(acl_broker.bootstrap)
        assert w(17, 1, SaslHandshakeRequest(mechanism="PLAIN")).error_code == 0
        assert w(36, 2, SaslAuthenticateRequest(auth_bytes=b"\0alice\0alice-secret")).error_code == 0
        r = w(75, 0, DescribeTopicPartitionsRequest(topics=[], response_partition_limit=100, cursor=None))
        assert [t.name for t in r.topics] == ["ops-a"]
        r = w(75, 0, DescribeTopicPartitionsRequest(topics=[TopicRequest(name="ops-b")],
                                                    response_partition_limit=100, cursor=None))
        assert [(t.name, t.error_code) for t in r.topics] == [("ops-b", 29)]
    finally:
        for fut in admin.delete_acls([ANY_FILTER]).values():
            fut.result(30)


def test_transactional_producer_needs_transactional_id_acls(acl_broker):
    from confluent_kafka import KafkaError, Producer
    from confluent_kafka.admin import NewTopic

    admin = admin_of(acl_broker)
    admin.create_topics([NewTopic("txn-out", 1, 1)])["txn-out"].result(30)
    conf = {**_conf(acl_broker, "alice", "alice-secret"), "transactional.id": "alice-tx"}
    with pytest.raises(KafkaException) as e:
        Producer(conf).init_transactions(20)
    assert e.value.args[0].code() == KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    grants = [_acl("alice-tx", rt=ResourceType.TRANSACTIONAL_ID, op=AclOperation.WRITE),
              _acl("txn-out", op=AclOperation.WRITE)]
    for fut in admin.create_acls(grants).values():
        fut.result(30)
    try:
        p = Producer(conf)
        p.init_transactions(30)
        p.begin_transaction()
        p.produce("txn-out", b"committed")
        p.commit_transaction(30)
        # an idempotent producer needs only WRITE on some topic (KIP-679), no IdempotentWrite
        errors = _produce({**_conf(acl_broker, "alice", "alice-secret"), "enable.idempotence": True}, "txn-out", 2)
        assert errors == [None, None]
    finally:
        for fut in admin.delete_acls([ANY_FILTER]).values():
            fut.result(30)


def test_create_acls_with_an_invalid_pattern_type(acl_broker, caplog):
    import logging

    from clients import Wire
    from kwire.protocol.generated.create_acls_request import AclCreation, CreateAclsRequest
    from kwire.protocol.generated.sasl_authenticate_request import SaslAuthenticateRequest
    from kwire.protocol.generated.sasl_handshake_request import SaslHandshakeRequest

    w = Wire(acl_broker.bootstrap)
    assert w(17, 1, SaslHandshakeRequest(mechanism="PLAIN")).error_code == 0
    assert w(36, 2, SaslAuthenticateRequest(auth_bytes=b"\0admin\0admin-secret")).error_code == 0
    creations = [AclCreation(resource_type=2, resource_name="t", resource_pattern_type=pt, principal="User:x",
                             host="*", operation=3, permission_type=3) for pt in (1, 2, 0)]  # ANY, MATCH, UNKNOWN
    with caplog.at_level(logging.WARNING, logger="kwire.authorizer"):
        r = w(30, 3, CreateAclsRequest(creations=creations))
    assert [x.error_code for x in r.results] == [42, 42, 42]  # INVALID_REQUEST, each
    assert all("pattern type" in x.error_message for x in r.results)
    assert sum("refused to create ACL" in rec.getMessage() for rec in caplog.records) == 3
    assert acl_broker.server.broker.metadata.image.acls == set()
