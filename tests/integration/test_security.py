"""Security with real clients: TLS (PEM and PKCS12 keystores, mutual TLS), SASL PLAIN and SCRAM.

A CA, a broker certificate (127.0.0.1 / localhost) and a client certificate
are made by the test with ``cryptography``. Brokers are in-process
(``make_broker``) on one listener each, so the advertised address is the
listener the clients use. Covered: kafka-python, confluent-kafka
(librdkafka), aiokafka and kcat produce and read back over SSL, over mutual
TLS (the principal from the certificate DN), over SASL_PLAINTEXT and SASL_SSL
with PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 (a parametrized matrix: each
client with at least one mechanism on each protocol, every mechanism with
several clients; credentials created with AlterUserScramCredentials by
confluent-kafka's admin and by ``kwire users``); the settings are written
once in librdkafka's names (``sasl_sec``) and turned into each client's
(``roundtrip``). The Java client is in test_security_java.py. A wrong
password fails with each client's own authentication error and creates
nothing. Bad input on the wire: a wrong password (SASL_AUTHENTICATION_FAILED,
the connection closed, no state touched), a request before authentication
(the connection closed), an unknown mechanism (UNSUPPORTED_SASL_MECHANISM
with the enabled list), a malformed SCRAM message, a plaintext client on a TLS
listener, each answered with Kafka's error code (or closed, as Kafka) and
logged by the broker (a WARNING naming the client's address), SaslHandshake v0
raw framing, 1,000 wrong logins while another client keeps its latency.
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
import socket
import ssl
import struct
import time

import pytest

pytestmark = pytest.mark.timeout(180) if hasattr(pytest.mark, "timeout") else []

PLAIN_JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required '
              'username="admin" password="admin-secret" user_admin="admin-secret" user_alice="alice-secret";')


# -- certificates --------------------------------------------------------------------------
def _name(cn: str):
    from cryptography.x509.oid import NameOID
    from cryptography import x509

    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "kwire"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _cert(subject: str, issuer_key, issuer_name, key, *, ca=False, san=None):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    now = datetime.datetime.now(datetime.timezone.utc)
    b = (x509.CertificateBuilder().subject_name(_name(subject)).issuer_name(issuer_name or _name(subject))
         .public_key(key.public_key()).serial_number(x509.random_serial_number())
         .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if san:
        b = b.add_extension(x509.SubjectAlternativeName(san), critical=False)
    return b.sign(issuer_key, hashes.SHA256())


class Certs:
    """A CA, a broker certificate for 127.0.0.1/localhost, a client certificate (CN=alice,O=kwire)."""

    def __init__(self, d) -> None:
        from cryptography import x509
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import (
            BestAvailableEncryption, Encoding, NoEncryption, PrivateFormat, pkcs12)

        def pem_key(k):
            return k.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())

        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca = _cert("kwire-test-ca", ca_key, None, ca_key, ca=True)
        srv_key = ec.generate_private_key(ec.SECP256R1())
        srv = _cert("localhost", ca_key, ca.subject, srv_key,
                    san=[x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
        cli_key = ec.generate_private_key(ec.SECP256R1())
        cli = _cert("alice", ca_key, ca.subject, cli_key)
        self.dir = d
        self.ca = str(d / "ca.pem")
        self.server_pem = str(d / "server-keystore.pem")  # key + chain: Kafka's PEM keystore file
        self.server_p12 = str(d / "server.p12")
        self.client_cert = str(d / "client.pem")
        self.client_key = str(d / "client-key.pem")
        (d / "ca.pem").write_bytes(ca.public_bytes(Encoding.PEM))
        (d / "server-keystore.pem").write_bytes(pem_key(srv_key) + srv.public_bytes(Encoding.PEM))
        (d / "server.p12").write_bytes(pkcs12.serialize_key_and_certificates(
            b"broker", srv_key, srv, [ca], BestAvailableEncryption(b"store-pass")))
        (d / "truststore.p12").write_bytes(pkcs12.serialize_key_and_certificates(
            b"ca", None, None, [ca], BestAvailableEncryption(b"trust-pass")))
        self.truststore_p12 = str(d / "truststore.p12")
        (d / "client.pem").write_bytes(cli.public_bytes(Encoding.PEM))
        (d / "client-key.pem").write_bytes(pem_key(cli_key))

    def client_context(self, with_cert: bool = False) -> ssl.SSLContext:
        ctx = ssl.create_default_context(cafile=self.ca)
        if with_cert:
            ctx.load_cert_chain(self.client_cert, self.client_key)
        return ctx


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return Certs(tmp_path_factory.mktemp("certs"))


def ssl_listener(certs, *, proto="SSL", p12=False, client_auth="none", **extra) -> dict:
    cfg = {"listeners": f"{proto}://127.0.0.1:0"}
    if p12:
        cfg.update({"ssl.keystore.type": "PKCS12", "ssl.keystore.location": certs.server_p12,
                    "ssl.keystore.password": "store-pass", "ssl.truststore.type": "PKCS12",
                    "ssl.truststore.location": certs.truststore_p12, "ssl.truststore.password": "trust-pass"})
    else:
        cfg.update({"ssl.keystore.type": "PEM", "ssl.keystore.location": certs.server_pem,
                    "ssl.truststore.type": "PEM", "ssl.truststore.location": certs.ca})
    cfg["ssl.client.auth"] = client_auth
    cfg.update(extra)
    return cfg


def sasl_listener(proto="SASL_PLAINTEXT", mechanisms="PLAIN,SCRAM-SHA-256,SCRAM-SHA-512", **extra) -> dict:
    cfg = {"listeners": f"{proto}://127.0.0.1:0", "sasl.enabled.mechanisms": mechanisms,
           "listener.name." + proto.lower() + ".plain.sasl.jaas.config": PLAIN_JAAS}
    cfg.update(extra)
    return cfg


def add_scram_user(bootstrap: str, user: str, password: str, *, client_conf: dict | None = None,
                   iterations: int = 4096) -> None:
    from confluent_kafka.admin import (AdminClient, ScramCredentialInfo, ScramMechanism,
                                       UserScramCredentialUpsertion)

    admin = AdminClient({"bootstrap.servers": bootstrap, **(client_conf or {})})
    ups = [UserScramCredentialUpsertion(user, ScramCredentialInfo(m, iterations), password.encode())
           for m in (ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512)]
    for fut in admin.alter_user_scram_credentials(ups).values():
        fut.result(timeout=30)


# -- brokers -------------------------------------------------------------------------------
def _broker(tmp_path_factory, cfg: dict):
    from conftest import InProcessBroker

    d = tmp_path_factory.mktemp("kwire-sec")
    base = {"log.dirs": str(d), "group.initial.rebalance.delay.ms": "0",
            "connection.failed.authentication.delay.ms": "20"}
    base.update(cfg)
    return InProcessBroker(d, base)


@pytest.fixture(scope="module")
def tls_broker(tmp_path_factory, certs):
    b = _broker(tmp_path_factory, ssl_listener(certs, client_auth="requested"))
    yield b
    b.stop()


@pytest.fixture(scope="module")
def mtls_broker(tmp_path_factory, certs):
    b = _broker(tmp_path_factory, ssl_listener(certs, p12=True, client_auth="required"))
    yield b
    b.stop()


@pytest.fixture(scope="module")
def sasl_broker(tmp_path_factory):
    b = _broker(tmp_path_factory, sasl_listener(**{"connections.max.reauth.ms": "600000"}))
    add_scram_user(b.bootstrap, "bob", "bob-secret", client_conf=ADMIN_PLAIN)
    yield b
    b.stop()


@pytest.fixture(scope="module")
def sasl_ssl_broker(tmp_path_factory, certs):
    cfg = ssl_listener(certs, proto="SASL_SSL")
    cfg.update(sasl_listener("SASL_SSL"))
    b = _broker(tmp_path_factory, cfg)
    add_scram_user(b.bootstrap, "bob", "bob-secret",
                   client_conf={**ADMIN_PLAIN, "security.protocol": "SASL_SSL", "ssl.ca.location": certs.ca})
    yield b
    b.stop()


ADMIN_PLAIN = {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
               "sasl.username": "admin", "sasl.password": "admin-secret"}


# -- clients with security settings -----------------------------------------------------------
def confluent_roundtrip(bootstrap: str, topic: str, conf: dict, n: int = 20, size: int = 100) -> list[bytes]:
    from confluent_kafka import Consumer, Producer

    p = Producer({"bootstrap.servers": bootstrap, "message.timeout.ms": 30000, **conf})
    sent = [f"{topic}-{i}-".encode() + b"x" * size for i in range(n)]
    errors = []
    for v in sent:
        p.produce(topic, v, on_delivery=lambda err, msg: err and errors.append(err))
    assert p.flush(60) == 0 and not errors, errors
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{topic}", "auto.offset.reset": "earliest",
                  **conf})
    c.subscribe([topic])
    got: list[bytes] = []
    deadline = time.monotonic() + 60
    while len(got) < n and time.monotonic() < deadline:
        m = c.poll(1.0)
        if m is not None and m.error() is None:
            got.append(m.value())
    c.close()
    assert got == sent
    return got


def kafka_python_roundtrip(bootstrap: str, topic: str, kw: dict, n: int = 20, size: int = 100) -> None:
    from kafka import KafkaConsumer, KafkaProducer

    p = KafkaProducer(bootstrap_servers=bootstrap, **kw)
    sent = [f"{topic}-{i}-".encode() + b"y" * size for i in range(n)]
    for v in sent:
        p.send(topic, v)
    p.flush(60)
    p.close()
    c = KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                      consumer_timeout_ms=20000, **kw)
    got = []
    for m in c:
        got.append(m.value)
        if len(got) == n:
            break
    c.close()
    assert got == sent


def aiokafka_roundtrip(bootstrap: str, topic: str, kw: dict, n: int = 10) -> None:
    import asyncio

    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer

    async def run():
        p = AIOKafkaProducer(bootstrap_servers=bootstrap, **kw)
        await p.start()
        try:
            sent = [f"{topic}-{i}".encode() for i in range(n)]
            for v in sent:
                await p.send_and_wait(topic, v)
        finally:
            await p.stop()
        c = AIOKafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest", **kw)
        await c.start()
        try:
            got = []
            while len(got) < n:
                m = await asyncio.wait_for(c.getone(), 30)
                got.append(m.value)
        finally:
            await c.stop()
        assert got == sent

    asyncio.run(run())


def kcat_roundtrip(bootstrap: str, topic: str, xs: list[str], n: int = 5) -> None:
    from clients import kcat

    args = []
    for x in xs:
        args += ["-X", x]
    lines = "\n".join(f"{topic}-k{i}" for i in range(n)) + "\n"
    r = kcat("-b", bootstrap, *args, "-P", "-t", topic, input=lines, timeout=60)
    assert r.returncode == 0, r.stderr
    r = kcat("-b", bootstrap, *args, "-C", "-t", topic, "-o", "beginning", "-c", str(n), "-e",
             timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [f"{topic}-k{i}" for i in range(n)]


# -- one set of security settings (librdkafka's names) for every client ---------------------------
_KAFKA_PYTHON_NAMES = {"security.protocol": "security_protocol", "sasl.mechanism": "sasl_mechanism",
                       "sasl.username": "sasl_plain_username", "sasl.password": "sasl_plain_password",
                       "ssl.ca.location": "ssl_cafile", "ssl.certificate.location": "ssl_certfile",
                       "ssl.key.location": "ssl_keyfile"}


def kafka_python_kw(sec: dict) -> dict:
    return {_KAFKA_PYTHON_NAMES[k]: v for k, v in sec.items()}


def aiokafka_kw(sec: dict) -> dict:
    """kafka-python's names, with the ssl_* files as one ``ssl_context`` (aiokafka takes only that)."""
    from aiokafka.helpers import create_ssl_context

    kw = kafka_python_kw(sec)
    files = {k: kw.pop(k) for k in ("ssl_cafile", "ssl_certfile", "ssl_keyfile") if k in kw}
    if files:
        kw["ssl_context"] = create_ssl_context(cafile=files.get("ssl_cafile"), certfile=files.get("ssl_certfile"),
                                               keyfile=files.get("ssl_keyfile"))
    return kw


def kcat_x(sec: dict) -> list[str]:
    return [f"{k}={v}" for k, v in sec.items()]


def roundtrip(client: str, bootstrap: str, topic: str, sec: dict) -> None:
    """Produce to ``topic`` and read it back with ``client``, its security settings from ``sec``."""
    if client == "confluent":
        confluent_roundtrip(bootstrap, topic, sec)
    elif client == "kafka-python":
        kafka_python_roundtrip(bootstrap, topic, kafka_python_kw(sec))
    elif client == "aiokafka":
        aiokafka_roundtrip(bootstrap, topic, aiokafka_kw(sec))
    else:
        assert client == "kcat", client
        kcat_roundtrip(bootstrap, topic, kcat_x(sec))


# the users of PLAIN_JAAS (PLAIN) and of the brokers' SCRAM credentials
USERS = {"PLAIN": ("alice", "alice-secret"), "SCRAM-SHA-256": ("bob", "bob-secret"),
         "SCRAM-SHA-512": ("bob", "bob-secret")}


def sasl_sec(mechanism: str, protocol: str = "SASL_PLAINTEXT", certs=None, password: str | None = None) -> dict:
    user, secret = USERS[mechanism]
    sec = {"security.protocol": protocol, "sasl.mechanism": mechanism, "sasl.username": user,
           "sasl.password": password or secret}
    if certs is not None:
        sec["ssl.ca.location"] = certs.ca
    return sec


def sessions(broker) -> list:
    return [c.session for c in list(broker.server.connections) if c.session is not None]


# -- TLS -------------------------------------------------------------------------------------
def test_tls_every_client_produces_and_consumes(tls_broker, certs):
    b = tls_broker.bootstrap
    confluent_roundtrip(b, "tls-confluent", {"security.protocol": "SSL", "ssl.ca.location": certs.ca})
    # above the sendfile threshold: TLS takes the read-and-write fallback (no plaintext on the wire)
    confluent_roundtrip(b, "tls-big", {"security.protocol": "SSL", "ssl.ca.location": certs.ca,
                                       "fetch.min.bytes": 400000, "fetch.wait.max.ms": 500},
                        n=40, size=20000)
    kafka_python_roundtrip(b, "tls-kafka-python", {"security_protocol": "SSL", "ssl_cafile": certs.ca})
    aiokafka_roundtrip(b, "tls-aiokafka", {"security_protocol": "SSL",
                                           "ssl_context": certs.client_context()})
    kcat_roundtrip(b, "tls-kcat", ["security.protocol=SSL", f"ssl.ca.location={certs.ca}"])
    assert {str(s.principal) for s in sessions(tls_broker)} <= {"User:ANONYMOUS"}


def test_mutual_tls_principal_is_the_certificate_dn(mtls_broker, certs):
    b = mtls_broker.bootstrap
    conf = {"security.protocol": "SSL", "ssl.ca.location": certs.ca,
            "ssl.certificate.location": certs.client_cert, "ssl.key.location": certs.client_key}
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": b, **conf})
    p.produce("mtls", b"v")
    assert p.flush(30) == 0
    assert "User:CN=alice,O=kwire" in {str(s.principal) for s in sessions(mtls_broker)}
    # without a client certificate the handshake is refused
    host, port = b.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=20) as raw:
        with pytest.raises((ssl.SSLError, ConnectionError, OSError)):
            with certs.client_context().wrap_socket(raw, server_hostname="localhost") as s:
                s.sendall(_api_versions_frame())
                if not s.recv(4):
                    raise ConnectionError("closed")


@pytest.mark.parametrize("client", ["confluent", "kafka-python", "aiokafka", "kcat"])
def test_mutual_tls_clients(mtls_broker, certs, client):
    # ssl.client.auth=required: a client that did not present its certificate is refused (above)
    roundtrip(client, mtls_broker.bootstrap, f"mtls-{client}",
              {"security.protocol": "SSL", "ssl.ca.location": certs.ca,
               "ssl.certificate.location": certs.client_cert, "ssl.key.location": certs.client_key})


def _api_versions_frame() -> bytes:
    from kwire.protocol import codec
    from kwire.protocol.generated.api_versions_request import ApiVersionsRequest

    return bytes(codec.encode_request(18, 3, 1, "t", ApiVersionsRequest(client_software_name="t",
                                                                          client_software_version="1")))


def test_plaintext_client_on_tls_listener_is_closed(tls_broker, certs, caplog):
    caplog.set_level(logging.WARNING, logger="kwire")
    host, port = tls_broker.bootstrap.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=20) as s:
        s.sendall(_api_versions_frame())
        s.settimeout(20)
        try:
            data = s.recv(100)
        except ConnectionResetError:
            data = b""
        assert data == b""  # no Kafka response: the TLS handshake failed and the socket closed
    broker_logged(caplog, "kwire.server", "closing connection from 127.0.0.1 on listener SSL",
                  "TLS handshake failed")
    # the listener still serves TLS clients
    with socket.create_connection((host, int(port)), timeout=20) as raw:
        with certs.client_context().wrap_socket(raw, server_hostname="localhost") as s:
            s.sendall(_api_versions_frame())
            (size,) = struct.unpack(">i", _read(s, 4))
            assert size > 0


def test_pkcs12_and_unreadable_keystores(tmp_path, certs):
    from kwire.config import BrokerConfig, ConfigError
    from kwire.security.manager import SecurityManager

    ok = BrokerConfig.load(None, {**ssl_listener(certs, p12=True), "log.dirs": str(tmp_path)})
    assert SecurityManager(ok).ssl_context("SSL") is not None
    bad = BrokerConfig.load(None, {**ssl_listener(certs, p12=True), "ssl.keystore.password": "nope",
                                   "log.dirs": str(tmp_path)})
    with pytest.raises(ConfigError) as e:
        SecurityManager(bad)
    assert e.value.name == "ssl.keystore.location"


def _read(s, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf


def broker_logged(caplog, logger: str, *parts: str) -> None:
    """Wait for a WARNING-or-above record of ``logger`` (the in-process broker logs from its own
    thread) whose message contains every one of ``parts``; call ``caplog.set_level`` first."""
    from clients import wait_until

    def found() -> bool:
        return any(r.name == logger and r.levelno >= logging.WARNING and all(p in r.getMessage() for p in parts)
                   for r in list(caplog.records))
    wait_until(found, timeout=10, what=f"a {logger} log line with {parts}")


# -- SASL with real clients ---------------------------------------------------------------------
@pytest.mark.parametrize("client,mechanism", [
    ("confluent", "SCRAM-SHA-512"), ("kafka-python", "SCRAM-SHA-256"), ("kafka-python", "SCRAM-SHA-512"),
    ("aiokafka", "PLAIN"), ("aiokafka", "SCRAM-SHA-512"), ("kcat", "SCRAM-SHA-256"), ("kcat", "PLAIN")])
def test_sasl_plain_and_scram_clients(sasl_broker, client, mechanism):
    sec = sasl_sec(mechanism)
    principal = f"User:{sec['sasl.username']}"
    before = sasl_broker.server.security.authenticated[principal]
    roundtrip(client, sasl_broker.bootstrap, f"sasl-{client}-{mechanism}".lower(), sec)
    # the producer's and the consumer's connections, at least
    assert sasl_broker.server.security.authenticated[principal] >= before + 2


@pytest.mark.parametrize("client,mechanism", [
    ("confluent", "SCRAM-SHA-256"), ("kafka-python", "PLAIN"), ("aiokafka", "SCRAM-SHA-512"), ("kcat", "PLAIN")])
def test_sasl_ssl_clients(sasl_ssl_broker, certs, client, mechanism):
    sec = sasl_sec(mechanism, "SASL_SSL", certs)
    principal = f"User:{sec['sasl.username']}"
    before = sasl_ssl_broker.server.security.authenticated[principal]
    roundtrip(client, sasl_ssl_broker.bootstrap, f"saslssl-{client}-{mechanism}".lower(), sec)
    assert sasl_ssl_broker.server.security.authenticated[principal] >= before + 2


def test_scram_credentials_are_managed_and_described(sasl_broker):
    from confluent_kafka.admin import (AdminClient, ScramCredentialInfo, ScramMechanism,
                                       UserScramCredentialDeletion, UserScramCredentialUpsertion)
    from confluent_kafka import KafkaException

    admin = AdminClient({"bootstrap.servers": sasl_broker.bootstrap, **ADMIN_PLAIN})
    desc = admin.describe_user_scram_credentials(["bob"])["bob"].result(30)
    assert sorted((i.mechanism, i.iterations) for i in desc.scram_credential_infos) == [
        (ScramMechanism.SCRAM_SHA_256, 4096), (ScramMechanism.SCRAM_SHA_512, 4096)]
    # too few iterations: UNACCEPTABLE_CREDENTIAL; deleting what does not exist: RESOURCE_NOT_FOUND
    futs = admin.alter_user_scram_credentials([
        UserScramCredentialUpsertion("carol", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 100), b"pw"),
        UserScramCredentialDeletion("dave", ScramMechanism.SCRAM_SHA_512)])
    with pytest.raises(KafkaException, match="UNACCEPTABLE_CREDENTIAL|iterations"):
        futs["carol"].result(30)
    with pytest.raises(KafkaException, match="RESOURCE_NOT_FOUND|does not exist"):
        futs["dave"].result(30)
    # never a password or key in the image: only salt, keys, iterations
    cred = sasl_broker.server.broker.metadata.image.scram_credentials["bob"]["SCRAM-SHA-256"]
    assert set(cred) == {"salt", "stored_key", "server_key", "iterations"}
    assert "bob-secret" not in repr(cred)
    # a new user logs in, is deleted, and can no longer
    add_scram_user(sasl_broker.bootstrap, "erin", "erin-pw", client_conf=ADMIN_PLAIN)
    w = _sasl_wire(sasl_broker.bootstrap)
    assert _scram_login(w, "erin", "erin-pw", "SCRAM-SHA-512").error_code == 0
    w.close()
    for fut in admin.alter_user_scram_credentials([
            UserScramCredentialDeletion("erin", ScramMechanism.SCRAM_SHA_256),
            UserScramCredentialDeletion("erin", ScramMechanism.SCRAM_SHA_512)]).values():
        fut.result(30)
    w = _sasl_wire(sasl_broker.bootstrap)
    assert _scram_login(w, "erin", "erin-pw", "SCRAM-SHA-512").error_code == 58
    assert w.closed_by_peer()


# -- SASL on the wire: bad input ------------------------------------------------------------------
def _sasl_wire(bootstrap: str, mechanism: str | None = None, version: int = 1):
    from clients import Wire
    from kwire.protocol.generated.sasl_handshake_request import SaslHandshakeRequest

    w = Wire(bootstrap)
    if mechanism is not None:
        r = w(17, version, SaslHandshakeRequest(mechanism=mechanism))
        assert r.error_code == 0, r
    return w


def _authenticate(w, token: bytes):
    from kwire.protocol.generated.sasl_authenticate_request import SaslAuthenticateRequest

    return w(36, 2, SaslAuthenticateRequest(auth_bytes=token))


def _scram_login(w, user: str, password: str, mechanism: str):
    """A full SCRAM exchange (client side written here from RFC 5802); the last response."""
    import base64
    import hashlib
    import hmac
    import os

    from kwire.protocol.generated.sasl_handshake_request import SaslHandshakeRequest

    r = w(17, 1, SaslHandshakeRequest(mechanism=mechanism))
    assert r.error_code == 0
    h = "sha256" if mechanism.endswith("256") else "sha512"
    nonce = base64.b64encode(os.urandom(12)).decode()
    bare = f"n={user},r={nonce}"
    r = _authenticate(w, ("n,," + bare).encode())
    if r.error_code:
        return r
    server_first = bytes(r.auth_bytes).decode()
    fields = dict(kv.split("=", 1) for kv in server_first.split(","))
    salted = hashlib.pbkdf2_hmac(h, password.encode(), base64.b64decode(fields["s"]), int(fields["i"]))
    client_key = hmac.new(salted, b"Client Key", h).digest()
    stored = hashlib.new(h, client_key).digest()
    without = f"c={base64.b64encode(b'n,,').decode()},r={fields['r']}"
    auth = f"{bare},{server_first},{without}".encode()
    sig = hmac.new(stored, auth, h).digest()
    proof = bytes(a ^ b for a, b in zip(client_key, sig))
    r = _authenticate(w, f"{without},p={base64.b64encode(proof).decode()}".encode())
    if r.error_code == 0:
        server_key = hmac.new(salted, b"Server Key", h).digest()
        assert bytes(r.auth_bytes) == b"v=" + base64.b64encode(hmac.new(server_key, auth, h).digest())
    return r


def test_wrong_password_fails_and_closes(sasl_broker):
    md = sasl_broker.server.broker.metadata
    topics_before = set(md.image.topics)
    w = _sasl_wire(sasl_broker.bootstrap, "PLAIN")
    r = _authenticate(w, b"\0alice\0wrong")
    assert r.error_code == 58 and "Invalid username or password" in r.error_message
    assert w.closed_by_peer()
    w = _sasl_wire(sasl_broker.bootstrap)
    r = _scram_login(w, "bob", "not-bob", "SCRAM-SHA-256")
    assert r.error_code == 58 and "invalid credentials" in r.error_message
    assert w.closed_by_peer()
    assert set(md.image.topics) == topics_before


def _refused(client: str, bootstrap: str, sec: dict, caplog) -> None:
    """``client`` with a wrong password fails with its own authentication error."""
    import logging

    if client == "confluent":
        from confluent_kafka import KafkaError, Producer

        errors = []
        p = Producer({"bootstrap.servers": bootstrap, **sec, "error_cb": errors.append, "message.timeout.ms": 5000})
        p.produce("never-created", b"v")
        deadline = time.monotonic() + 30
        while not any(e.code() == KafkaError._AUTHENTICATION for e in errors) and time.monotonic() < deadline:
            p.poll(0.2)
        assert any(e.code() == KafkaError._AUTHENTICATION for e in errors), errors
    elif client == "kafka-python":
        # kafka-python retries the bootstrap until its timeout; the SASL error is what it reports (logs)
        from kafka import KafkaProducer
        from kafka.errors import KafkaTimeoutError, SaslAuthenticationFailedError

        with caplog.at_level(logging.ERROR, logger="kafka"):
            with pytest.raises(KafkaTimeoutError, match="Unable to bootstrap"):
                KafkaProducer(bootstrap_servers=bootstrap, bootstrap_timeout_ms=5000, **kafka_python_kw(sec))
        reported = [a for r in caplog.records if r.name.startswith("kafka.") for a in r.args or ()]
        assert any(isinstance(a, SaslAuthenticationFailedError) for a in reported), caplog.text
    elif client == "aiokafka":
        import asyncio

        from aiokafka import AIOKafkaProducer
        from aiokafka.errors import KafkaConnectionError, SaslAuthenticationFailed

        async def start() -> None:
            p = AIOKafkaProducer(bootstrap_servers=bootstrap, **aiokafka_kw(sec))
            try:
                await p.start()
            finally:
                await p.stop()
        with caplog.at_level(logging.ERROR, logger="aiokafka"):
            with pytest.raises(KafkaConnectionError, match="Unable to bootstrap"):
                asyncio.run(start())
        reported = [a for r in caplog.records if r.name.startswith("aiokafka") for a in r.args or ()]
        assert any(isinstance(a, SaslAuthenticationFailed) for a in reported), caplog.text
    else:
        from clients import kcat

        args = [a for x in kcat_x(sec) for a in ("-X", x)]
        r = kcat("-b", bootstrap, *args, "-P", "-t", "never-created", input="v\n", timeout=60)
        assert r.returncode != 0
        assert "Local: Authentication failure" in r.stderr and "SASL authentication error" in r.stderr, r.stderr


@pytest.mark.parametrize("client,mechanism", [
    ("confluent", "SCRAM-SHA-256"), ("kafka-python", "SCRAM-SHA-512"), ("aiokafka", "PLAIN"),
    ("kcat", "SCRAM-SHA-256")])
def test_wrong_password_real_clients(sasl_broker, client, mechanism, caplog):
    md = sasl_broker.server.broker.metadata
    topics_before = set(md.image.topics)
    _refused(client, sasl_broker.bootstrap, sasl_sec(mechanism, password="nope"), caplog)
    assert set(md.image.topics) == topics_before  # nothing was created


def test_request_before_authentication_closes(sasl_broker, caplog):
    from kwire.protocol.generated.metadata_request import MetadataRequest

    caplog.set_level(logging.WARNING, logger="kwire")
    w = _sasl_wire(sasl_broker.bootstrap)
    port = w.sock.getsockname()[1]
    w.send(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=True))
    assert w.closed_by_peer()
    broker_logged(caplog, "kwire.server", f"closing connection from 127.0.0.1:{port}:",
                  "unexpected metadata request during SASL authentication")
    # also after a handshake, before SaslAuthenticate
    w = _sasl_wire(sasl_broker.bootstrap, "PLAIN")
    port = w.sock.getsockname()[1]
    w.send(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=True))
    assert w.closed_by_peer()
    broker_logged(caplog, "kwire.server", f"closing connection from 127.0.0.1:{port}:",
                  "unexpected metadata request during SASL authentication")


def test_unknown_mechanism_lists_enabled_ones(sasl_broker, caplog):
    from kwire.protocol.generated.sasl_handshake_request import SaslHandshakeRequest

    caplog.set_level(logging.WARNING, logger="kwire")
    w = _sasl_wire(sasl_broker.bootstrap)
    port = w.sock.getsockname()[1]
    r = w(17, 1, SaslHandshakeRequest(mechanism="GSSAPI"))
    assert r.error_code == 33
    assert r.mechanisms == ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
    assert w.closed_by_peer()
    broker_logged(caplog, "kwire.security", f"127.0.0.1:{port}: unsupported SASL mechanism 'GSSAPI'",
                  "(enabled: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)")


@pytest.mark.parametrize("token", [b"garbage", b"n,,n=bob", b"p=tls-unique,,n=bob,r=abc",
                                   "n,,n=b\u00f6b=,r=x".encode()])
def test_malformed_scram_message(sasl_broker, token, caplog):
    caplog.set_level(logging.WARNING, logger="kwire")
    w = _sasl_wire(sasl_broker.bootstrap, "SCRAM-SHA-256")
    port = w.sock.getsockname()[1]
    r = _authenticate(w, token)
    assert r.error_code == 58
    assert w.closed_by_peer()
    broker_logged(caplog, "kwire.security", f"127.0.0.1:{port}: SASL SCRAM-SHA-256 authentication failed")


def test_handshake_v0_raw_tokens(sasl_broker):
    from kwire.protocol.generated.metadata_request import MetadataRequest

    w = _sasl_wire(sasl_broker.bootstrap, "PLAIN", version=0)
    w.sock.sendall(struct.pack(">i", len(b"\0alice\0alice-secret")) + b"\0alice\0alice-secret")
    from clients import read_exact

    (size,) = struct.unpack(">i", read_exact(w.sock, 4))
    assert size == 0  # PLAIN's empty server token
    r = w(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=True))
    assert r.brokers
    w = _sasl_wire(sasl_broker.bootstrap, "PLAIN", version=0)
    w.sock.sendall(struct.pack(">i", 12) + b"\0alice\0wrong")
    assert w.closed_by_peer()


def test_reauthentication_kip368(sasl_broker):
    from kwire.protocol.generated.metadata_request import MetadataRequest

    w = _sasl_wire(sasl_broker.bootstrap)
    r = _scram_login(w, "bob", "bob-secret", "SCRAM-SHA-256")
    assert r.error_code == 0 and r.session_lifetime_ms == 600000
    assert w(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=False)).brokers
    r = _scram_login(w, "bob", "bob-secret", "SCRAM-SHA-256")  # re-authenticate on the same connection
    assert r.error_code == 0
    assert w(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=False)).brokers
    # an expired session must re-authenticate before anything else
    session = next(s for s in sessions(sasl_broker) if s.authentications == 2)
    session.expires_at = 0.0
    w.send(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=False))
    assert w.closed_by_peer()


def test_brute_force_keeps_others_served(sasl_broker):
    import statistics
    import threading

    from kwire.protocol.generated.metadata_request import MetadataRequest

    good = _sasl_wire(sasl_broker.bootstrap, "PLAIN")
    assert _authenticate(good, b"\0alice\0alice-secret").error_code == 0

    def latencies(n: int) -> list[float]:
        out = []
        for _ in range(n):
            t0 = time.monotonic()
            good(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=False))
            out.append(time.monotonic() - t0)
        return out

    before = latencies(50)
    failures = []

    def attack(n: int) -> None:
        for _ in range(n):
            w = _sasl_wire(sasl_broker.bootstrap, "PLAIN")
            failures.append(_authenticate(w, b"\0alice\0guess").error_code)
            w.close()

    threads = [threading.Thread(target=attack, args=(250,)) for _ in range(4)]
    for t in threads:
        t.start()
    during = []
    while any(t.is_alive() for t in threads):
        during += latencies(10)
    for t in threads:
        t.join()
    assert failures == [58] * 1000
    assert len(during) >= 10
    # the authenticated client is served throughout, at a latency of the same order
    assert statistics.median(during) < max(0.05, 20 * statistics.median(before)), (before, during)
    assert max(during) < 2.0


def _kwire(*args: str, input: str | None = None):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "kwire", *args], capture_output=True, text=True,
                          input=input, timeout=60)


def test_kwire_users_cli_over_sasl_ssl(sasl_ssl_broker, certs, tmp_path):
    conf = tmp_path / "client.properties"
    conf.write_text("security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
                    f"ssl.truststore.type=PEM\nssl.truststore.location={certs.ca}\n"
                    'sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required '
                    'username="bob" password="bob-secret";\n')
    b = ["--bootstrap-server", sasl_ssl_broker.bootstrap, "--command-config", str(conf)]
    r = _kwire("users", "add", "--user", "frank", "--mechanism", "SCRAM-SHA-256", "--iterations", "8192", *b,
               input="frank-pw\n")
    assert r.returncode == 0, r.stderr
    r = _kwire("users", "list", *b)
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines()[1:]]
    assert ["frank", "SCRAM-SHA-256", "8192"] in rows and ["bob", "SCRAM-SHA-512", "4096"] in rows
    confluent_roundtrip(sasl_ssl_broker.bootstrap, "cli-user", {
        "security.protocol": "SASL_SSL", "ssl.ca.location": certs.ca, "sasl.mechanism": "SCRAM-SHA-256",
        "sasl.username": "frank", "sasl.password": "frank-pw"}, n=3)
    r = _kwire("topics", "list", *b)  # every kwire tool takes --command-config
    assert r.returncode == 0 and "cli-user" in r.stdout.split(), r.stderr
    r = _kwire("users", "delete", "--user", "frank", *b)
    assert r.returncode == 0, r.stderr
    r = _kwire("users", "delete", "--user", "frank", "--mechanism", "SCRAM-SHA-256", *b)
    assert r.returncode == 1 and "RESOURCE_NOT_FOUND" in r.stderr
    bad = tmp_path / "bad.properties"
    bad.write_text(conf.read_text().replace('password="bob-secret"', 'password="nope"'))
    r = _kwire("users", "list", "--bootstrap-server", sasl_ssl_broker.bootstrap, "--command-config", str(bad))
    assert r.returncode == 1 and "SASL_AUTHENTICATION_FAILED" in r.stderr


def test_several_listeners_each_advertise_their_own_endpoint(tmp_path_factory, certs):
    cfg = ssl_listener(certs, proto="SASL_SSL")
    cfg.update(sasl_listener("SASL_SSL"))
    cfg["listeners"] = "PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0,INTERNAL://127.0.0.1:0"
    cfg["listener.security.protocol.map"] = "PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL,INTERNAL:SSL"
    cfg["listener.name.internal.ssl.client.auth"] = "required"
    b = _broker(tmp_path_factory, cfg)
    try:
        plain, sasl_ssl, internal = (f"{h}:{p}" for h, p in b.server.bound)
        # a group consumer follows Metadata and FindCoordinator: both must name the SASL_SSL port
        confluent_roundtrip(sasl_ssl, "multi-sasl-ssl", {"security.protocol": "SASL_SSL",
                                                         "ssl.ca.location": certs.ca, "sasl.mechanism": "PLAIN",
                                                         "sasl.username": "alice",
                                                         "sasl.password": "alice-secret"}, n=5)
        confluent_roundtrip(plain, "multi-plain", {}, n=5)
        confluent_roundtrip(internal, "multi-mtls", {
            "security.protocol": "SSL", "ssl.ca.location": certs.ca,
            "ssl.certificate.location": certs.client_cert, "ssl.key.location": certs.client_key}, n=5)
        from clients import Wire
        from kwire.protocol.generated.metadata_request import MetadataRequest

        r = Wire(plain)(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=False))
        assert [f"{x.host}:{x.port}" for x in r.brokers] == [plain]
    finally:
        b.stop()


def test_oauthbearer_unsecured_jws(tmp_path_factory):
    b = _broker(tmp_path_factory, sasl_listener(mechanisms="OAUTHBEARER,PLAIN",
                                                **{"connections.max.reauth.ms": "600000"}))
    try:
        conf = {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER",
                "enable.sasl.oauthbearer.unsecure.jwt": True, "sasl.oauthbearer.config": "principal=olivia"}
        confluent_roundtrip(b.bootstrap, "oauth-topic", conf, n=3)
        assert b.server.security.authenticated["User:olivia"] >= 2
        # an expired token is refused with Kafka's error challenge, then SASL_AUTHENTICATION_FAILED
        import base64
        import json

        def enc(obj) -> str:
            return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
        w = _sasl_wire(b.bootstrap, "OAUTHBEARER")
        token = f"{enc({'alg': 'none'})}.{enc({'sub': 'x', 'exp': 1})}."
        r = _authenticate(w, f"n,,\x01auth=Bearer {token}\x01\x01".encode())
        assert r.error_code == 0 and json.loads(bytes(r.auth_bytes)) == {"status": "invalid_token"}
        r = _authenticate(w, b"\x01")
        assert r.error_code == 58 and "expired" in r.error_message
        assert w.closed_by_peer()
    finally:
        b.stop()


def test_tls_client_on_a_plaintext_listener_is_closed(broker, certs, caplog):
    caplog.set_level(logging.WARNING, logger="kwire")
    host, port = broker.bootstrap.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=20) as raw:
        local = raw.getsockname()[1]
        with pytest.raises((ssl.SSLError, ConnectionError, OSError)):
            certs.client_context().wrap_socket(raw, server_hostname="localhost")
    # the ClientHello read as a Kafka frame: a size far over socket.request.max.bytes
    broker_logged(caplog, "kwire.server", f"closing connection from 127.0.0.1:{local}: frame size",
                  "socket.request.max.bytes")
    from clients import Wire
    from kwire.protocol.generated.metadata_request import MetadataRequest

    assert Wire(broker.bootstrap)(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=False)).brokers
