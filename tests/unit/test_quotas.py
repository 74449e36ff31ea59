"""max.connections.per.ip.overrides parsing and the per-address counting of kwire.server.quotas."""

import logging

import pytest

from kwire.config import BrokerConfig
from kwire.server.quotas import ConnectionQuotas, RateLimitedLog, parse_overrides


def test_overrides_parse_addresses_names_and_ipv6():
    assert parse_overrides(" 10.0.0.1:5, [::1]:2 ,") == {"10.0.0.1": 5, "::1": 2}
    assert parse_overrides("localhost:7")["127.0.0.1"] == 7  # a name counts for its addresses
    assert parse_overrides("") == {}


@pytest.mark.parametrize("bad", ["10.0.0.1", "10.0.0.1:x", ":5"])
def test_bad_overrides_are_refused(bad):
    with pytest.raises(ValueError):
        parse_overrides(bad)


def test_admit_counts_per_address_and_overrides_win():
    q = ConnectionQuotas(BrokerConfig.load(None, {
        "max.connections.per.ip": "2", "max.connections.per.ip.overrides": "10.0.0.9:1",
        "max.connections": "4"}))
    assert q.admit("10.0.0.1") and q.admit("10.0.0.1") and not q.admit("10.0.0.1")
    assert q.admit("10.0.0.9") and not q.admit("10.0.0.9")
    assert q.total == 3 and q.slot_available()
    assert q.admit("10.0.0.2") and not q.slot_available()
    freed = []
    q.on_slot_free = lambda: freed.append(True)
    q.release("10.0.0.1")
    assert q.counts["10.0.0.1"] == 1 and q.slot_available() and freed == [True]


def test_rate_limited_log_counts_between_lines(caplog):
    rl = RateLimitedLog("refused", interval_s=3600)
    with caplog.at_level(logging.WARNING, logger="kwire.server"):
        for i in range(5):
            rl.note(f"n{i}")
        rl.flush()
        rl.flush()  # nothing new: no line
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["refused: 1 in the last 3600 s (latest: n0)",
                     "refused: 4 in the last 3600 s (latest: n4)"]
