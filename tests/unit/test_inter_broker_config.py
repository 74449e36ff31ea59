"""Inter-broker security settings: Kafka's KafkaConfig checks and messages, and the credentials.

``inter.broker.listener.name`` / ``security.inter.broker.protocol`` (mutually exclusive),
the listener that must exist and be advertised, ``sasl.mechanism.inter.broker.protocol``
enabled on it; ``InterBrokerSecurity.from_config`` takes the broker's own login from the
listener's JAAS config. (The cluster that uses them: tests/integration/test_inter_broker_security.py.)
"""

from __future__ import annotations

import pytest

from kwire.config import BrokerConfig, ConfigError
from kwire.security.inter_broker import InterBrokerSecurity

ZK = {"zookeeper.connect": "127.0.0.1:2181/x"}  # cluster mode (nothing connects here)
SCRAM_JAAS = ('org.apache.kafka.common.security.scram.ScramLoginModule required '
              'username="broker" password="broker-secret";')


def _two_listeners(**more) -> dict:
    return {**ZK, "listeners": "INTERNAL://127.0.0.1:9093,EXTERNAL://127.0.0.1:9094",
            "listener.security.protocol.map": "INTERNAL:SASL_PLAINTEXT,EXTERNAL:PLAINTEXT",
            "listener.name.internal.sasl.enabled.mechanisms": "SCRAM-SHA-512",
            "listener.name.internal.scram-sha-512.sasl.jaas.config": SCRAM_JAAS, **more}


def test_both_keys_set_is_kafkas_error():
    with pytest.raises(ConfigError) as e:
        BrokerConfig(_two_listeners(**{"inter.broker.listener.name": "INTERNAL",
                                       "security.inter.broker.protocol": "PLAINTEXT"}))
    assert str(e.value).endswith("Only one of inter.broker.listener.name and security.inter.broker.protocol "
                                 "should be set.")
    assert e.value.name == "inter.broker.listener.name"


def test_unknown_listener_name_is_kafkas_error():
    with pytest.raises(ConfigError) as e:
        BrokerConfig(_two_listeners(**{"inter.broker.listener.name": "replication"}))
    assert str(e.value).endswith("Listener with name REPLICATION defined in inter.broker.listener.name not "
                                 "found in listener.security.protocol.map.")


def test_listener_not_advertised_is_kafkas_error():
    cfg = _two_listeners(**{"inter.broker.listener.name": "internal",
                            "advertised.listeners": "EXTERNAL://127.0.0.1:9094"})
    with pytest.raises(ConfigError) as e:
        BrokerConfig(cfg)
    assert ("inter.broker.listener.name must be a listener name defined in advertised.listeners. The valid "
            "options based on currently configured listeners are EXTERNAL") in str(e.value)


@pytest.mark.parametrize("protocol", ["SSL", "SASL_SSL"])
def test_protocol_without_a_listener_of_that_name_is_kafkas_error(protocol):
    with pytest.raises(ConfigError) as e:
        BrokerConfig(_two_listeners(**{"security.inter.broker.protocol": protocol}))
    assert e.value.name == "security.inter.broker.protocol"
    assert ("inter.broker.listener.name must be a listener name defined in advertised.listeners. The valid "
            "options based on currently configured listeners are INTERNAL,EXTERNAL") in str(e.value)


def test_default_plaintext_needs_a_plaintext_listener_in_a_cluster_only():
    only_sasl = {"listeners": "INTERNAL://127.0.0.1:9093", "listener.security.protocol.map": "INTERNAL:SASL_PLAINTEXT",
                 "sasl.enabled.mechanisms": "SCRAM-SHA-512"}
    with pytest.raises(ConfigError, match="The valid options based on currently configured listeners are INTERNAL"):
        BrokerConfig({**ZK, **only_sasl})
    # a single node has no peers: Kafka's defaults do not stop it (kwire deviation)
    assert BrokerConfig(only_sasl).inter_broker_listener_name == "PLAINTEXT"


def test_sasl_mechanism_must_be_enabled_on_the_listener():
    cfg = _two_listeners(**{"inter.broker.listener.name": "INTERNAL"})
    with pytest.raises(ConfigError) as e:  # Kafka's default mechanism is GSSAPI
        BrokerConfig(cfg)
    assert str(e.value).endswith("sasl.mechanism.inter.broker.protocol must be included in sasl.enabled.mechanisms "
                                 "when SASL is used for inter-broker communication")
    assert e.value.name == "sasl.mechanism.inter.broker.protocol"
    with pytest.raises(ConfigError, match="must be included in sasl.enabled.mechanisms"):
        BrokerConfig({**cfg, "sasl.mechanism.inter.broker.protocol": "PLAIN"})
    with pytest.raises(ConfigError, match="kwire's brokers log in to each other with PLAIN, SCRAM"):
        BrokerConfig({**cfg, "sasl.mechanism.inter.broker.protocol": "OAUTHBEARER",
                      "listener.name.internal.sasl.enabled.mechanisms": "SCRAM-SHA-512,OAUTHBEARER"})


def test_credentials_come_from_the_listeners_jaas_config():
    cfg = BrokerConfig(_two_listeners(**{"inter.broker.listener.name": "internal",
                                         "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-512"}))
    assert (cfg.inter_broker_listener_name, cfg.inter_broker_security_protocol) == ("INTERNAL", "SASL_PLAINTEXT")
    sec = InterBrokerSecurity.from_config(cfg)
    assert (sec.listener, sec.protocol, sec.mechanism) == ("INTERNAL", "SASL_PLAINTEXT", "SCRAM-SHA-512")
    assert (sec.username, sec.password) == ("broker", "broker-secret")
    assert sec.context is None and sec.client_security().protocol == "SASL_PLAINTEXT"

    from kwire.cluster.metadata import BrokerInfo

    peer = BrokerInfo(2, "10.0.0.2", 9094, None, {"EXTERNAL": ("10.0.0.2", 9094), "INTERNAL": ("10.0.0.2", 9093)})
    assert sec.endpoint(peer) == ("10.0.0.2", 9093)
    assert sec.endpoint(BrokerInfo(3, "h", 1, None, {"EXTERNAL": ("h", 1)})) is None  # no such endpoint


def test_sasl_without_a_username_stops_start_up():
    cfg = BrokerConfig(_two_listeners(**{
        "inter.broker.listener.name": "INTERNAL", "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-512",
        "listener.name.internal.scram-sha-512.sasl.jaas.config":
            "org.apache.kafka.common.security.scram.ScramLoginModule required;"}))
    with pytest.raises(ConfigError) as e:
        InterBrokerSecurity.from_config(cfg)
    assert e.value.name == "listener.name.internal.scram-sha-512.sasl.jaas.config"
