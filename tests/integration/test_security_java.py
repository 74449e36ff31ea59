"""The Kafka Java client (kafka-clients 4.3.0, tests/java/KwireSecurity.java) over kwire's security.

SASL_SSL and SASL_PLAINTEXT (one broker each, the test parametrized over both) with
SCRAM-SHA-512: a user created with Java's Admin
(alterUserScramCredentials, as the PLAIN admin), then produced to and
consumed from as that user, with a pause longer than the broker's
``connections.max.reauth.ms`` so the Java client re-authenticates (KIP-368);
a wrong password fails with SaslAuthenticationException; DescribeAcls without
an authorizer is SecurityDisabledException. (OAUTHBEARER is tested with
confluent-kafka: Java's unsecured login handler needs jackson-databind, which
is not among the test jars.)
"""

from __future__ import annotations


import pytest

from test_security import Certs, sasl_listener, ssl_listener


def _java(*args: str, timeout: float = 120) -> list[dict]:
    from javaclient import run_class

    return run_class("KwireSecurity", *args, timeout=timeout)


@pytest.fixture(scope="module", params=["SASL_SSL", "SASL_PLAINTEXT"])
def java_broker(tmp_path_factory, request):
    from conftest import InProcessBroker

    proto = request.param
    certs = Certs(tmp_path_factory.mktemp("certs"))
    d = tmp_path_factory.mktemp("kwire-java-sec")
    cfg = {"log.dirs": str(d), "group.initial.rebalance.delay.ms": "0", "connections.max.reauth.ms": "2000",
           **(ssl_listener(certs, proto=proto) if proto == "SASL_SSL" else {}),
           **sasl_listener(proto)}
    b = InProcessBroker(d, cfg)
    b.certs = certs if proto == "SASL_SSL" else None
    yield b
    b.stop()


def _props(path, certs, mechanism: str, user: str, password: str) -> str:
    """A client properties file: SASL_SSL trusting ``certs``' CA, or SASL_PLAINTEXT without certs."""
    module = ("org.apache.kafka.common.security.plain.PlainLoginModule" if mechanism == "PLAIN"
              else "org.apache.kafka.common.security.scram.ScramLoginModule")
    options = f'username="{user}" password="{password}"'
    text = (f"security.protocol={'SASL_SSL' if certs is not None else 'SASL_PLAINTEXT'}\n"
            f"sasl.mechanism={mechanism}\n"
            f"sasl.jaas.config={module} required {options};\n")
    if certs is not None:
        text += f"ssl.truststore.type=PEM\nssl.truststore.location={certs.ca}\n"
    path.write_text(text)
    return str(path)


def test_java_scram_with_reauthentication(java_broker, tmp_path):
    certs = java_broker.certs
    admin = _props(tmp_path / "admin.properties", certs, "PLAIN", "admin", "admin-secret")
    out = _java("add-user", java_broker.bootstrap, admin, "jane", "jane-pw")
    assert out and out[-1] == {"type": "user", "mechanisms": 2}, out
    jane = _props(tmp_path / "jane.properties", certs, "SCRAM-SHA-512", "jane", "jane-pw")
    reauth_before = java_broker.server.security.reauthenticated["User:jane"]
    out = _java("roundtrip", java_broker.bootstrap, jane, "java-sec", "20", "3000")
    assert out and out[-1] == {"type": "done", "produced": 20, "consumed": 20}, out
    assert java_broker.server.security.reauthenticated["User:jane"] > reauth_before
    wrong = _props(tmp_path / "wrong.properties", certs, "SCRAM-SHA-512", "jane", "nope")
    out = _java("roundtrip", java_broker.bootstrap, wrong, "java-sec-2", "1", "0", timeout=120)
    assert out and out[-1]["type"] == "error" and out[-1]["error"] == "SaslAuthenticationException", out
    out = _java("acls", java_broker.bootstrap, admin)
    assert out and out[-1]["type"] == "error" and out[-1]["error"] == "SecurityDisabledException", out

