"""JKS keystores and truststores (``ssl.keystore.type=JKS``, Kafka's default) with real clients.

The stores are made by the JDK's ``keytool`` from a CA and certificates the
test makes (``test_security.Certs``): the broker's key pair is imported from a
PKCS12 file into a JKS keystore whose key password differs from the store
password (``ssl.key.password``), the CA goes into a JKS truststore as a trusted
certificate entry. A broker on an SSL listener with both stores and
``ssl.client.auth=required`` then serves the Java client (JKS keystore and
truststore of its own, its native format) and confluent-kafka (PEM), each
producing and consuming. Start-up fails with a clear message for a wrong store
password, a wrong key password, a PEM file left at the default type (JKS), and
a JKS store when pyjks (``kwire[jks]``) is not installed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from test_security import Certs, confluent_roundtrip

pytestmark = pytest.mark.timeout(240) if hasattr(pytest.mark, "timeout") else []


def _keytool(*args: str) -> None:
    tool = shutil.which("keytool")
    if tool is None:
        pytest.fail("keytool (the JDK, installed by scripts/setup-test-env.sh) is not on PATH")
    p = subprocess.run([tool, *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr


class JksStores:
    """JKS stores from Certs: the broker's (store / key passwords differ), the client's, a truststore."""

    def __init__(self, d) -> None:
        from cryptography.hazmat.primitives.serialization import (BestAvailableEncryption, load_pem_private_key,
                                                                  pkcs12)
        from cryptography import x509

        self.certs = c = Certs(d)
        self.server = str(d / "server.jks")
        self.client = str(d / "client.jks")
        self.trust = str(d / "truststore.jks")
        _keytool("-importkeystore", "-noprompt", "-srckeystore", c.server_p12, "-srcstoretype", "PKCS12",
                 "-srcstorepass", "store-pass", "-destkeystore", self.server, "-deststoretype", "JKS",
                 "-deststorepass", "jks-store-pass", "-destkeypass", "jks-key-pass")
        key = load_pem_private_key(open(c.client_key, "rb").read(), None)
        cert = x509.load_pem_x509_certificate(open(c.client_cert, "rb").read())
        (d / "client.p12").write_bytes(pkcs12.serialize_key_and_certificates(
            b"client", key, cert, None, BestAvailableEncryption(b"client-pass")))
        _keytool("-importkeystore", "-noprompt", "-srckeystore", str(d / "client.p12"), "-srcstoretype",
                 "PKCS12", "-srcstorepass", "client-pass", "-destkeystore", self.client, "-deststoretype",
                 "JKS", "-deststorepass", "client-pass", "-destkeypass", "client-pass")
        _keytool("-importcert", "-noprompt", "-alias", "kwire-ca", "-file", c.ca, "-keystore", self.trust,
                 "-storetype", "JKS", "-storepass", "trust-pass")

    def broker_config(self, **extra) -> dict:
        cfg = {"listeners": "SSL://127.0.0.1:0", "ssl.keystore.type": "JKS",
               "ssl.keystore.location": self.server, "ssl.keystore.password": "jks-store-pass",
               "ssl.key.password": "jks-key-pass", "ssl.truststore.type": "JKS",
               "ssl.truststore.location": self.trust, "ssl.truststore.password": "trust-pass",
               "ssl.client.auth": "required"}
        cfg.update(extra)
        return cfg


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    return JksStores(tmp_path_factory.mktemp("jks"))


@pytest.fixture(scope="module")
def jks_broker(tmp_path_factory, stores):
    from conftest import InProcessBroker

    d = tmp_path_factory.mktemp("kwire-jks")
    b = InProcessBroker(d, {"log.dirs": str(d), "group.initial.rebalance.delay.ms": "0",
                            **stores.broker_config()})
    yield b
    b.stop()


def test_confluent_kafka_with_pem_against_jks_stores(jks_broker, stores):
    c = stores.certs
    conf = {"security.protocol": "SSL", "ssl.ca.location": c.ca,
            "ssl.certificate.location": c.client_cert, "ssl.key.location": c.client_key}
    got = confluent_roundtrip(jks_broker.bootstrap, "jks-librdkafka", conf, n=10)
    assert len(got) == 10
    # without a client certificate the handshake is refused (ssl.client.auth=required)
    from confluent_kafka.admin import AdminClient
    from confluent_kafka import KafkaException

    admin = AdminClient({"bootstrap.servers": jks_broker.bootstrap, "security.protocol": "SSL",
                         "ssl.ca.location": c.ca, "socket.timeout.ms": 5000})
    with pytest.raises(KafkaException):
        admin.list_topics(timeout=5)


def test_java_client_with_jks_stores(jks_broker, stores, tmp_path):
    from test_security_java import _java

    props = tmp_path / "java-ssl.properties"
    props.write_text("security.protocol=SSL\n"
                     "ssl.keystore.type=JKS\n"
                     f"ssl.keystore.location={stores.client}\n"
                     "ssl.keystore.password=client-pass\n"
                     "ssl.key.password=client-pass\n"
                     "ssl.truststore.type=JKS\n"
                     f"ssl.truststore.location={stores.trust}\n"
                     "ssl.truststore.password=trust-pass\n")
    out = _java("roundtrip", jks_broker.bootstrap, str(props), "jks-java", "10", "0")
    assert out and out[-1] == {"type": "done", "produced": 10, "consumed": 10}, out


def _serve(tmp_path, cfg: dict, *, python_prefix: str = "") -> subprocess.CompletedProcess:
    args = [f"log.dirs={tmp_path / 'data'}"] + [f"{k}={v}" for k, v in cfg.items()]
    code = python_prefix + "import sys; from kwire.cli import main; sys.exit(main(sys.argv[1:]))"
    argv = [sys.executable, "-c", code, "serve"]
    for a in args:
        argv += ["--override", a]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("change, expect", [
    ({"ssl.keystore.password": "wrong"}, "ssl.keystore.location: cannot read the JKS store"),
    ({"ssl.key.password": "wrong"}, "wrong ssl.key.password"),
    ({"ssl.truststore.password": "wrong"}, "wrong ssl.truststore.password"),
])
def test_wrong_jks_passwords_stop_start_up(tmp_path, stores, change, expect):
    proc = _serve(tmp_path, stores.broker_config(**change))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert expect in proc.stderr
    assert "kwire serving on" not in proc.stdout


def test_pem_keystore_left_at_the_default_type_names_its_type(tmp_path, stores):
    cfg = stores.broker_config(**{"ssl.keystore.location": stores.certs.server_pem})
    del cfg["ssl.keystore.type"]  # Kafka's default: JKS
    proc = _serve(tmp_path, cfg)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "is not a JKS store" in proc.stderr and "looks like PEM" in proc.stderr


def test_jks_without_pyjks_names_the_extra(tmp_path, stores):
    # the same broker start with the jks module made unimportable, as without the kwire[jks] extra
    proc = _serve(tmp_path, stores.broker_config(), python_prefix="import sys; sys.modules['jks'] = None; ")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "pip install 'kwire[jks]'" in proc.stderr
