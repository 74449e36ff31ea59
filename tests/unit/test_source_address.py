"""``broker.source.address``: the local address every outgoing broker connection is bound to."""

from __future__ import annotations

from kwire.config import BrokerConfig
from kwire.security.inter_broker import InterBrokerSecurity, source_address_of


def _config(host: str, **more) -> BrokerConfig:
    return BrokerConfig({"broker.id": "1", "listeners": f"PLAINTEXT://{host}:9092",
                         "zookeeper.connect": "127.0.0.1:2181", **more})


def test_default_is_the_advertised_loopback_address():
    assert source_address_of(_config("127.0.0.11")) == "127.0.0.11"
    assert InterBrokerSecurity.from_config(_config("127.0.0.12")).source_address == "127.0.0.12"


def test_the_inter_broker_listeners_address_not_the_first():
    c = BrokerConfig({"broker.id": "1", "listeners": "CLIENT://127.0.0.21:9092,REPL://127.0.0.22:9093",
                      "listener.security.protocol.map": "CLIENT:PLAINTEXT,REPL:PLAINTEXT",
                      "inter.broker.listener.name": "REPL", "zookeeper.connect": "127.0.0.1:2181"})
    assert source_address_of(c) == "127.0.0.22"


def test_a_host_name_or_a_foreign_address_is_left_to_the_kernel():
    assert source_address_of(_config("localhost")) is None
    assert source_address_of(_config("192.0.2.7")) is None  # TEST-NET-1: not an address of this machine


def test_explicit_setting_wins_and_empty_turns_binding_off():
    assert source_address_of(_config("127.0.0.11", **{"broker.source.address": "127.0.0.99"})) == "127.0.0.99"
    assert source_address_of(_config("127.0.0.11", **{"broker.source.address": ""})) is None


def test_a_single_node_binds_nothing():
    c = BrokerConfig({"broker.id": "1", "listeners": "PLAINTEXT://127.0.0.11:9092"})
    assert InterBrokerSecurity.from_config(c).source_address is None
