"""Group configs and client metrics subscriptions: validation, the image records, the coordinator's view."""

from __future__ import annotations

import pytest

from kwire.cluster.image import MetadataImage
from kwire.config import BrokerConfig, ConfigError
from kwire.config.group import effective_group_value, validate_client_metrics, validate_group_configs
from kwire.coordinator.shard import CoordinatorConfig


@pytest.fixture(scope="module")
def cfg() -> BrokerConfig:
    return BrokerConfig.load(None)


def test_group_configs_are_checked_against_the_brokers_bounds(cfg):
    assert validate_group_configs({"consumer.session.timeout.ms": " 50000"}, cfg) == {
        "consumer.session.timeout.ms": "50000"}
    for overrides, message in (
            ({"consumer.session.timeout.ms": "44999"},
             "consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"),
            ({"consumer.heartbeat.interval.ms": "15001"},
             "consumer.heartbeat.interval.ms must be less than or equal to group.consumer.max.heartbeat.interval.ms"),
            ({"streams.num.standby.replicas": "3"},
             "streams.num.standby.replicas must be less than or equal to group.streams.max.standby.replicas"),
            ({"foo": "1"}, "Unknown group config name: foo"),
            ({"consumer.session.timeout.ms": None},
             "Null value not supported for group configs: consumer.session.timeout.ms")):
        with pytest.raises(ConfigError) as exc:
            validate_group_configs(overrides, cfg)
        assert str(exc.value) == message and not exc.value.invalid_request
    # bounds that overlap: a session timeout must stay above the heartbeat interval
    narrow = BrokerConfig.load(None, {"group.consumer.min.session.timeout.ms": "1000",
                                      "group.consumer.session.timeout.ms": "45000"})
    with pytest.raises(ConfigError, match="consumer.session.timeout.ms must be greater than "
                                          "consumer.heartbeat.interval.ms"):
        validate_group_configs({"consumer.session.timeout.ms": "5000"}, narrow)


def test_effective_values_are_clamped_into_the_current_bounds(cfg):
    assert effective_group_value("consumer.heartbeat.interval.ms", {}, cfg) == 5000
    assert effective_group_value("consumer.heartbeat.interval.ms",
                                 {"consumer.heartbeat.interval.ms": "99999"}, cfg) == 15000
    c = CoordinatorConfig.from_broker_config(cfg)
    c.group_configs = {"g": {"consumer.heartbeat.interval.ms": "7000", "consumer.session.timeout.ms": "1"}}
    assert c.consumer_heartbeat_interval_ms("g") == 7000 and c.consumer_heartbeat_interval_ms("other") == 5000
    assert c.consumer_session_timeout_ms("g") == 45000  # clamped up to the broker's minimum


def test_client_metrics_validation_uses_kafkas_codes():
    assert validate_client_metrics("s", {"metrics": "a., b.", "interval.ms": "100",
                                         "match": "client_id=x.*,client_source_port=1"}) == {
        "metrics": "a.,b.", "interval.ms": "100", "match": "client_id=x.*,client_source_port=1"}
    for name, configs, request in (("", {}, True), ("s", {"x": "1"}, True), ("s", {"interval.ms": "99"}, True),
                                   ("s", {"match": "client_id"}, False), ("s", {"match": "client_id="}, False),
                                   ("s", {"match": "a=b"}, False), ("s", {"match": "client_id=("}, False)):
        with pytest.raises(ConfigError) as exc:
            validate_client_metrics(name, configs)
        assert exc.value.invalid_request is request, (name, configs)


def test_image_replays_and_snapshots_group_and_client_metrics_records():
    image = MetadataImage(0)
    image.replay({"type": "group_configs", "group": "g", "configs": {"consumer.session.timeout.ms": "50000"}})
    image.replay({"type": "client_metrics", "name": "s", "configs": {"interval.ms": "1000"}})
    image.replay({"type": "client_metrics", "name": "gone", "configs": {"interval.ms": "1000"}})
    image.replay({"type": "client_metrics", "name": "gone", "configs": {}})
    groups = image.group_configs
    copy = MetadataImage.from_records(0, image.snapshot_records())
    assert copy.group_configs == {"g": {"consumer.session.timeout.ms": "50000"}}
    assert copy.client_metrics == {"s": {"interval.ms": "1000"}}
    image.replay({"type": "group_configs", "group": "g", "configs": {}})
    assert image.group_configs is groups and groups == {}  # changed in place: readers keep the dict
