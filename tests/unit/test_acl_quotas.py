"""Client quotas (kwire.security.client_quotas): validation, Kafka's precedence, throttle times."""

from __future__ import annotations

from kwire.security.client_quotas import ClientQuotas, entity_key, validate


def test_validate():
    assert validate(entity_key([("user", "a")]), [("producer_byte_rate", 100)]) is None
    assert validate(entity_key([("user", None), ("client-id", "c")]), [("consumer_byte_rate", None)]) is None
    assert "Invalid configuration key" in validate(entity_key([("user", "a")]), [("bogus", 1)])
    assert "ip" in validate(entity_key([("ip", "1.2.3.4"), ("user", "a")]), [("producer_byte_rate", 1)])
    assert "greater than 0" in validate(entity_key([("user", "a")]), [("producer_byte_rate", 0)])
    assert "integer" in validate(entity_key([("user", "a")]), [("producer_byte_rate", 1.5)])
    assert validate(entity_key([("user", "a")]), [("request_percentage", 12.5)]) is None
    assert "Unknown" in validate(entity_key([("topic", "t")]), [("producer_byte_rate", 1)])


def test_precedence_most_specific_first():
    table = {entity_key([("client-id", None)]): {"producer_byte_rate": 1},
             entity_key([("user", None)]): {"producer_byte_rate": 2},
             entity_key([("user", "alice")]): {"producer_byte_rate": 3},
             entity_key([("user", "alice"), ("client-id", "app")]): {"producer_byte_rate": 4}}
    q = ClientQuotas(table)
    assert q.quota("producer_byte_rate", "alice", "app")[0] == 4
    assert q.quota("producer_byte_rate", "alice", "other")[0] == 3
    assert q.quota("producer_byte_rate", "bob", "app")[0] == 2
    assert q.quota("producer_byte_rate", None, "app")[0] == 1
    assert q.quota("consumer_byte_rate", "alice", "app") == (None, None)


def test_throttle_time_and_separate_sensors_for_default_quotas():
    q = ClientQuotas({entity_key([("user", None)]): {"producer_byte_rate": 1000}}, window_num=2, window_s=1.0)
    assert q.record("producer_byte_rate", "a", "c", 500, 0.0) == 0  # 500 B/s over the 1 s minimum
    t = q.record("producer_byte_rate", "a", "c", 1500, 0.1)  # 2000 B in 1 s against 1000 B/s
    assert t == 1000
    assert q.record("producer_byte_rate", "b", "c", 900, 0.2) == 0  # another user: its own sensor
    assert q.record("producer_byte_rate", "a", "c", 100_000, 0.3) == 2000  # capped at the whole window
    assert ClientQuotas({}).record("producer_byte_rate", "a", "c", 10**9, 0.0) == 0
