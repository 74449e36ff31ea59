"""A replicated cluster whose only listener is SASL_SSL: brokers talk to each other over it.

Three ``kwire serve`` brokers on one ZooKeeper chroot, each with one SASL_SSL listener
(TLS with ``ssl.client.auth=required``: the brokers present their keystores as client
certificates to each other; SASL PLAIN), ``inter.broker.listener.name=SASL_SSL``,
``sasl.mechanism.inter.broker.protocol=PLAIN`` and the broker's own login in
``listener.name.sasl_ssl.plain.sasl.jaas.config`` (``username``/``password``), an
authorizer on and ``User:admin`` (the brokers' principal) a super user, as Kafka asks of
the inter-broker principal (CLUSTER_ACTION). A replication-factor-3 topic gets a full ISR
and identical logs, acks=all records written with confluent-kafka over SASL_SSL survive a
kill -9 of the leader; a broker whose inter-broker password is wrong never joins the ISR,
holds nothing, and the leader logs the refused login. A transaction over partitions led by
all three brokers commits (transaction markers and AddPartitionsToTxn verification between
brokers), and the group coordinator exports the lag of partitions led elsewhere (their high
watermarks asked over the inter-broker listener). With SCRAM-SHA-512 between brokers, the
followers log in once the brokers' credential exists. A brokers' principal that is not a
super user fetches only once it holds ClusterAction.
"""

from __future__ import annotations

import glob
import os
import time

import pytest
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from test_security import Certs

from clients import read_values

confluent_kafka = pytest.importorskip("confluent_kafka")

TOPIC = "secure"


def _jaas(password: str) -> str:
    return ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
            f'password="{password}" user_admin="admin-secret" user_alice="alice-secret";')


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return Certs(tmp_path_factory.mktemp("ib-certs"))


def _overrides(certs) -> dict:
    return {"inter.broker.listener.name": "SASL_SSL", "sasl.mechanism.inter.broker.protocol": "PLAIN",
            "sasl.enabled.mechanisms": "PLAIN",
            "listener.name.sasl_ssl.plain.sasl.jaas.config": _jaas("admin-secret"),
            "ssl.keystore.type": "PEM", "ssl.keystore.location": certs.server_pem,
            "ssl.truststore.type": "PEM", "ssl.truststore.location": certs.ca,
            "ssl.client.auth": "required",
            "authorizer.class.name": "kafka.security.authorizer.AclAuthorizer", "super.users": "User:admin",
            "replica.lag.time.max.ms": "4000"}


def _client_conf(certs) -> dict:
    return {"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN", "sasl.username": "admin",
            "sasl.password": "admin-secret", "ssl.ca.location": certs.ca,
            "ssl.certificate.location": certs.client_cert, "ssl.key.location": certs.client_key}


def _cluster(make_cluster, certs, per_broker=None):
    from kwire.security.client import ClientSecurity

    sec = ClientSecurity.from_properties({**_client_conf(certs)})
    return make_cluster(3, overrides=_overrides(certs), listener="SASL_SSL", client_security=sec,
                        per_broker=per_broker)


def _produce(c, certs, values: list[bytes]) -> None:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": c.live_bootstrap, "acks": "all", "enable.idempotence": True,
                  "message.timeout.ms": 60000, **_client_conf(certs)})
    errors = []
    for v in values:
        p.produce(TOPIC, v, partition=0, on_delivery=lambda err, msg: err and errors.append(err))
    assert p.flush(90) == 0 and not errors, errors


def _log_bytes(broker) -> bytes:
    """The partition's segment files on one broker, concatenated (replicas are byte-identical)."""
    files = sorted(glob.glob(os.path.join(broker.data_dir, f"{TOPIC}-0", "*.log")))
    return b"".join(open(f, "rb").read() for f in files)


def _eventually(fn, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not fn():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.2)


def test_sasl_ssl_cluster_replicates_and_survives_leader_kill(make_cluster, certs):
    c = _cluster(make_cluster, certs)
    c.create_topic(TOPIC, 1, 3, configs={"min.insync.replicas": 2})
    c.wait_until(lambda md: sorted(md.topics[TOPIC].partitions[0].isr) == [1, 2, 3], 60,
                 "a full ISR over the SASL_SSL inter-broker listener", topics=[TOPIC])
    sent = [f"r-{i}".encode() for i in range(300)]
    _produce(c, certs, sent)
    _eventually(lambda: len({_log_bytes(b) for b in c.brokers}) == 1 and _log_bytes(c.brokers[0]),
                60, "identical, non-empty logs on all three brokers")

    leader = c.leader_of(TOPIC, 0)
    c.broker(leader).kill()
    md = c.wait_until(lambda md: md.topics[TOPIC].partitions[0].leader not in (-1, leader), 60,
                      "a new leader after kill -9", topics=[TOPIC])
    assert md.topics[TOPIC].partitions[0].leader in (1, 2, 3)
    more = [f"after-{i}".encode() for i in range(50)]
    _produce(c, certs, more)  # acks=all with the two survivors (min.insync.replicas=2)
    got = read_values(c.live_bootstrap, TOPIC, len(sent) + len(more), timeout=60, conf=_client_conf(certs))
    assert got == sent + more


def test_wrong_inter_broker_password_never_joins_the_isr(make_cluster, certs):
    c = _cluster(make_cluster, certs,
                 per_broker={3: {"listener.name.sasl_ssl.plain.sasl.jaas.config": _jaas("wrong-password")}})
    c.create_topic(TOPIC, 1, 3, assignment={0: [1, 2, 3]}, configs={"min.insync.replicas": 2})
    # broker 3 cannot log in to the leader: the ISR shrinks to the two that fetch
    c.wait_until(lambda md: sorted(md.topics[TOPIC].partitions[0].isr) == [1, 2], 60,
                 "broker 3 out of the ISR", topics=[TOPIC])
    leader = c.leader_of(TOPIC, 0)
    assert leader in (1, 2)
    sent = [f"v-{i}".encode() for i in range(100)]
    _produce(c, certs, sent)
    _eventually(lambda: _log_bytes(c.broker(1)) == _log_bytes(c.broker(2)) != b"", 60,
                "brokers 1 and 2 with the same records")
    # the leader logs each refused login of broker 3's fetcher; broker 3 says why it cannot fetch
    _eventually(lambda: any("SASL PLAIN authentication failed" in line and "Invalid username or password" in line
                            for line in list(c.broker(leader).lines)), 30, "the leader logging the refused login")
    _eventually(lambda: any("SASL PLAIN authentication with" in line for line in list(c.broker(3).lines)), 30,
                "broker 3 logging its failed login")
    # several replica.lag.time.max.ms later: still out, and it holds none of the records
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        assert 3 not in c.describe(TOPIC).partitions[0].isr
        time.sleep(0.5)
    assert _log_bytes(c.broker(3)) == b""
    assert read_values(c.live_bootstrap, TOPIC, len(sent), timeout=60, conf=_client_conf(certs)) == sent


def test_transaction_markers_and_verification_cross_the_sasl_ssl_listener(make_cluster, certs):
    """A transaction over partitions led by all three brokers commits: the coordinator's
    WriteTxnMarkers to the other leaders and their AddPartitionsToTxn verification with the
    coordinator go over the SASL_SSL inter-broker listener (as the brokers' super user)."""
    from confluent_kafka import Consumer, Producer, TopicPartition

    c = _cluster(make_cluster, certs)
    c.create_topic("txn", 3, 3, assignment={0: [1, 2, 3], 1: [2, 3, 1], 2: [3, 1, 2]})
    assert {c.leader_of("txn", p) for p in range(3)} == {1, 2, 3}
    p = Producer({"bootstrap.servers": c.live_bootstrap, "transactional.id": "ib-txn",
                  "transaction.timeout.ms": 60000, **_client_conf(certs)})
    p.init_transactions(60)
    p.begin_transaction()
    sent = {(part, f"t-{part}-{i}".encode()) for part in range(3) for i in range(20)}
    for part, v in sorted(sent):
        p.produce("txn", v, partition=part)
    p.commit_transaction(60)  # returns once every leader wrote its COMMIT marker

    cons = Consumer({"bootstrap.servers": c.live_bootstrap, "group.id": "ib-reader",
                     "isolation.level": "read_committed", "enable.auto.commit": False, **_client_conf(certs)})
    try:
        cons.assign([TopicPartition("txn", part, 0) for part in range(3)])
        got = set()
        deadline = time.monotonic() + 60
        while len(got) < len(sent) and time.monotonic() < deadline:
            m = cons.poll(0.5)
            if m is not None and not m.error():
                got.add((m.partition(), m.value()))
    finally:
        cons.close()
    assert got == sent


def test_metrics_lag_of_partitions_led_elsewhere_over_sasl_ssl(make_cluster, certs):
    """The group coordinator's kafka_consumergroup_lag for partitions other brokers lead: their
    high watermarks are asked of those leaders over the SASL_SSL inter-broker listener."""
    from confluent_kafka import Consumer, Producer, TopicPartition

    from cluster_fixtures import free_port
    from kwire.security.client import ClientSecurity
    from test_metrics import scrape

    ports = {i: free_port() for i in (1, 2, 3)}
    c = make_cluster(3, overrides=_overrides(certs), listener="SASL_SSL",
                     client_security=ClientSecurity.from_properties(_client_conf(certs)),
                     per_broker={i: {"metrics.port": m} for i, m in ports.items()})
    topic, group = "lag", "ib-lag"
    c.create_topic(topic, 3, 3, assignment={0: [1, 2, 3], 1: [2, 3, 1], 2: [3, 1, 2]})
    p = Producer({"bootstrap.servers": c.live_bootstrap, "acks": "all", **_client_conf(certs)})
    produced = {0: 4, 1: 6, 2: 8}
    for part, n in produced.items():
        for i in range(n):
            p.produce(topic, b"x", partition=part)
    assert p.flush(60) == 0
    cons = Consumer({"bootstrap.servers": c.live_bootstrap, "group.id": group, **_client_conf(certs)})
    try:
        cons.commit(offsets=[TopicPartition(topic, part, 1) for part in produced], asynchronous=False)
    finally:
        cons.close()
    want = {part: n - 1 for part, n in produced.items()}

    def lags(addr) -> dict:
        m = scrape(addr)
        return {part: m.get(("kafka_consumergroup_lag", frozenset({("consumergroup", group), ("topic", topic),
                                                                    ("partition", str(part))})))
                for part in produced}

    # only the coordinator exports the group; it leads one partition, the other two are asked
    _eventually(lambda: any(lags(("127.0.0.1", port)) == want for port in ports.values()), 60,
                f"a coordinator exporting lag {want} for all three partitions")


def test_scram_inter_broker_login_once_the_credential_exists(make_cluster, certs):
    """SCRAM-SHA-512 between brokers: the brokers' credential lives in ZooKeeper like any other,
    so the followers' logins fail until it is created (through PLAIN, also enabled), then the
    ISR fills."""
    from test_security import add_scram_user

    from kwire.security.client import ClientSecurity

    overrides = {**_overrides(certs), "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-512",
                 "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-512",
                 "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config":
                     ('org.apache.kafka.common.security.scram.ScramLoginModule required '
                      'username="broker" password="broker-secret";'),
                 "super.users": "User:admin;User:broker"}
    c = make_cluster(3, overrides=overrides, listener="SASL_SSL",
                     client_security=ClientSecurity.from_properties(_client_conf(certs)))
    c.create_topic(TOPIC, 1, 3, assignment={0: [1, 2, 3]})
    c.wait_until(lambda md: sorted(md.topics[TOPIC].partitions[0].isr) == [1], 60,
                 "the ISR to shrink to the leader (no SCRAM credential for the brokers yet)", topics=[TOPIC])
    _eventually(lambda: any("SASL SCRAM-SHA-512 authentication failed" in line for line in list(c.broker(1).lines)),
                30, "the leader logging the refused SCRAM login")
    add_scram_user(c.live_bootstrap, "broker", "broker-secret", client_conf=_client_conf(certs))
    c.wait_until(lambda md: sorted(md.topics[TOPIC].partitions[0].isr) == [1, 2, 3], 60,
                 "a full ISR once the brokers' SCRAM credential exists", topics=[TOPIC])
    sent = [f"s-{i}".encode() for i in range(50)]
    _produce(c, certs, sent)
    _eventually(lambda: len({_log_bytes(b) for b in c.brokers}) == 1, 60, "identical logs on all three brokers")


def test_brokers_principal_needs_cluster_action(make_cluster, certs):
    """With an authorizer, a brokers' principal that is neither a super user nor granted
    ClusterAction cannot fetch as a follower (Kafka's rule); granting it ClusterAction on the
    cluster lets the followers back into the ISR."""
    from confluent_kafka.admin import AclBinding, AclOperation, AclPermissionType, AdminClient, \
        ResourcePatternType, ResourceType

    from kwire.security.client import ClientSecurity

    as_alice = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" '
                'password="alice-secret" user_admin="admin-secret" user_alice="alice-secret";')
    c = make_cluster(3, overrides={**_overrides(certs), "listener.name.sasl_ssl.plain.sasl.jaas.config": as_alice},
                     listener="SASL_SSL", client_security=ClientSecurity.from_properties(_client_conf(certs)))
    c.create_topic(TOPIC, 1, 3, assignment={0: [1, 2, 3]})
    c.wait_until(lambda md: sorted(md.topics[TOPIC].partitions[0].isr) == [1], 60,
                 "the followers (User:alice, no ClusterAction) out of the ISR", topics=[TOPIC])
    admin = AdminClient({"bootstrap.servers": c.live_bootstrap, **_client_conf(certs)})
    grant = AclBinding(ResourceType.BROKER, "kafka-cluster", ResourcePatternType.LITERAL, "User:alice", "*",
                       AclOperation.CLUSTER_ACTION, AclPermissionType.ALLOW)
    for fut in admin.create_acls([grant]).values():
        fut.result(30)
    c.wait_until(lambda md: sorted(md.topics[TOPIC].partitions[0].isr) == [1, 2, 3], 60,
                 "a full ISR once User:alice holds ClusterAction", topics=[TOPIC])


def test_inter_broker_listener_on_a_free_port_beside_the_client_one(zookeeper, tmp_path, certs):
    """Two listeners: PLAINTEXT for clients (first, what Metadata answers) and a SASL_SSL one for
    brokers on port 0. Each broker registers both endpoints, the second with the port it bound,
    and the followers fetch from the leader's SASL_SSL endpoint."""
    import json

    from kazoo.client import KazooClient

    from cluster_fixtures import Cluster

    overrides = {k: v for k, v in _overrides(certs).items()
                 if k not in ("authorizer.class.name", "super.users")}  # ANONYMOUS clients on PLAINTEXT
    c = Cluster(zookeeper, str(tmp_path / "two-listeners"), 2,
                {**overrides, "replica.lag.time.max.ms": "30000",
                 "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,BROKER:SASL_SSL",
                 "inter.broker.listener.name": "BROKER",
                 "listener.name.broker.plain.sasl.jaas.config": _jaas("admin-secret")}, 6000)
    c.per_broker = {b.node_id: {"listeners": f"PLAINTEXT://127.0.0.1:{b.port},BROKER://127.0.0.1:0"}
                    for b in c.brokers}
    try:
        c.start()
        zk = KazooClient(c.connect, timeout=10)
        zk.start(10)
        try:
            regs = {i: json.loads(zk.get(f"/brokers/ids/{i}")[0]) for i in (1, 2)}
        finally:
            zk.stop()
        for i, reg in regs.items():
            assert reg["endpoints"][0] == f"PLAINTEXT://127.0.0.1:{c.broker(i).port}"
            assert reg["endpoints"][1].startswith("BROKER://127.0.0.1:") and not reg["endpoints"][1].endswith(":0")
            assert reg["listener_security_protocol_map"] == {"PLAINTEXT": "PLAINTEXT", "BROKER": "SASL_SSL"}
        md = c.metadata()
        assert {b.port for b in md.brokers.values()} == {c.broker(1).port, c.broker(2).port}
        # Metadata on the BROKER listener names every broker's BROKER endpoint (Kafka: per listener)
        from kwire.client import KafkaClient
        from kwire.security.client import ClientSecurity

        broker_ports = {i: int(reg["endpoints"][1].rsplit(":", 1)[1]) for i, reg in regs.items()}
        with KafkaClient(f"127.0.0.1:{broker_ports[1]}", security=ClientSecurity.from_properties(
                {**_client_conf(certs), "ssl.endpoint.identification.algorithm": "https"})) as kc:
            assert {i: b.port for i, b in kc.metadata([]).brokers.items()} == broker_ports
        c.create_topic(TOPIC, 1, 2, assignment={0: [1, 2]})
        c.wait_until(lambda md: sorted(md.topics[TOPIC].partitions[0].isr) == [1, 2], 60, "a full ISR",
                     topics=[TOPIC])
        from confluent_kafka import Producer

        p = Producer({"bootstrap.servers": c.bootstrap, "acks": "all"})
        for i in range(20):
            p.produce(TOPIC, f"p-{i}".encode(), partition=0)
        assert p.flush(60) == 0
        _eventually(lambda: _log_bytes(c.broker(1)) == _log_bytes(c.broker(2)) != b"", 20,
                    "the follower's copy over the BROKER listener")
        assert any("connected to 127.0.0.1:" in line and regs[1]["endpoints"][1].rsplit(":", 1)[1] in line
                   for line in c.broker(2).lines)
    except BaseException:
        print(c.log_text())  # as make_cluster does for a failing test
        raise
    finally:
        c.close()
