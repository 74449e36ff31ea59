"""Group configs (KIP-848 GROUP resources) and client metrics subscriptions (KIP-714).

What it does
------------
* ``validate_group_configs(overrides, broker)`` is Kafka's ``GroupConfig.validate``:
  the overrides are laid over the broker's group defaults (``group.<name>``),
  every name must be a group config, every value must parse, and then the
  broker's bounds apply — ``consumer.session.timeout.ms`` within
  ``group.consumer.min/max.session.timeout.ms``, the heartbeat intervals, the
  share record lock duration, delivery count limit and partition record locks,
  the streams timeouts and ``streams.num.standby.replicas`` <=
  ``group.streams.max.standby.replicas`` — and each session timeout must be
  greater than its heartbeat interval. Returns the overrides normalized.
* ``effective_group_value(name, overrides, broker)`` is what a group runs
  with: its override clamped into the broker's current bounds (Kafka's
  ``GroupConfig.evaluate``, for bounds changed after the override was set),
  else the broker's ``group.<name>``, else the group config's default.
* ``validate_client_metrics(name, configs)`` is Kafka's
  ``ClientMetricsConfigs.validate``: a non-empty subscription name
  (INVALID_REQUEST), only ``metrics``, ``interval.ms`` and ``match``
  (INVALID_REQUEST "Unknown client metrics configuration: x"), ``interval.ms``
  between 100 and 3600000 (INVALID_REQUEST), and ``match`` patterns of the form
  ``<client_instance_id|client_id|client_software_name|client_software_version|
  client_source_address|client_source_port>=<regex>`` (INVALID_CONFIG
  "Illegal client matching pattern: p"). Regexes are checked with Python's
  ``re``, not Java's; the two differ only in rare constructs.

Errors are ``ConfigError``; ``invalid_request`` marks the ones Kafka answers
with INVALID_REQUEST rather than INVALID_CONFIG.

What it deliberately does not do
--------------------------------
No storage (the cluster metadata keeps both), and no use of the values: the
group coordinator reads the consumer session timeout and heartbeat interval
through ``effective_group_value``, and so do share groups (``kwire.share``,
``kwire.coordinator.share_ops``) for the ``share.*`` configs;
``share.auto.offset.reset`` must be ``earliest``, ``latest`` or
``by_duration:<ISO-8601 duration>`` (``share_reset_ms``). The streams configs are
stored and reported only (kwire has no streams groups).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping

from .definitions import CLIENT_METRICS_CONFIGS, GROUP_CONFIGS
from .types import ConfigError, _parse_typed

if TYPE_CHECKING:
    from .broker import BrokerConfig

# Kafka's GroupConfig.validateValues: group config -> (broker minimum, broker maximum); None = no bound.
_BOUNDS: dict[str, tuple[str | None, str]] = {
    "consumer.heartbeat.interval.ms": ("group.consumer.min.heartbeat.interval.ms",
                                       "group.consumer.max.heartbeat.interval.ms"),
    "consumer.session.timeout.ms": ("group.consumer.min.session.timeout.ms",
                                    "group.consumer.max.session.timeout.ms"),
    "share.heartbeat.interval.ms": ("group.share.min.heartbeat.interval.ms",
                                    "group.share.max.heartbeat.interval.ms"),
    "share.session.timeout.ms": ("group.share.min.session.timeout.ms", "group.share.max.session.timeout.ms"),
    "share.record.lock.duration.ms": ("group.share.min.record.lock.duration.ms",
                                      "group.share.max.record.lock.duration.ms"),
    "share.delivery.count.limit": ("group.share.min.delivery.count.limit",
                                   "group.share.max.delivery.count.limit"),
    "share.partition.max.record.locks": ("group.share.min.partition.max.record.locks",
                                         "group.share.max.partition.max.record.locks"),
    "streams.heartbeat.interval.ms": ("group.streams.min.heartbeat.interval.ms",
                                      "group.streams.max.heartbeat.interval.ms"),
    "streams.session.timeout.ms": ("group.streams.min.session.timeout.ms",
                                   "group.streams.max.session.timeout.ms"),
    "streams.num.standby.replicas": (None, "group.streams.max.standby.replicas"),
    "consumer.assignment.interval.ms": ("group.consumer.min.assignment.interval.ms",
                                        "group.consumer.max.assignment.interval.ms"),
    "share.assignment.interval.ms": ("group.share.min.assignment.interval.ms",
                                     "group.share.max.assignment.interval.ms"),
    "streams.assignment.interval.ms": ("group.streams.min.assignment.interval.ms",
                                       "group.streams.max.assignment.interval.ms"),
}
_SESSION_HEARTBEAT = (("consumer.session.timeout.ms", "consumer.heartbeat.interval.ms"),
                      ("share.session.timeout.ms", "share.heartbeat.interval.ms"),
                      ("streams.session.timeout.ms", "streams.heartbeat.interval.ms"))


def group_default(name: str, broker: BrokerConfig) -> Any:
    """The value a group without an override runs with: ``group.<name>``, else the default."""
    d = GROUP_CONFIGS[name]
    for syn, _ in d.synonyms:
        v = broker.get(syn)
        if v is not None:
            return v
    return d.default


def validate_group_configs(overrides: Mapping[str, str | None], broker: BrokerConfig) -> dict[str, str]:
    """Kafka's GroupConfig.validate over a group's complete new override set (ConfigError)."""
    nulls = [n for n, v in overrides.items() if v is None]
    if nulls:
        raise ConfigError("Null value not supported for group configs: " + ",".join(nulls), nulls[0])
    for name in overrides:
        if name not in GROUP_CONFIGS:
            raise ConfigError(f"Unknown group config name: {name}", name)
    parsed = {n: GROUP_CONFIGS[n].parse(v) for n, v in overrides.items()}
    reset = parsed.get("share.auto.offset.reset")
    if reset is not None and share_reset_ms(str(reset)) is None:  # Kafka's ShareGroupAutoOffsetResetStrategy
        raise ConfigError(f"Invalid value {reset} for configuration share.auto.offset.reset: the value must be "
                          f"either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS.>'.",
                          "share.auto.offset.reset")
    values = {n: parsed.get(n, group_default(n, broker)) for n in GROUP_CONFIGS}
    for name, (lo, hi) in _BOUNDS.items():
        v = values.get(name)
        if v is None:
            continue
        if lo is not None and broker.get(lo) is not None and v < broker[lo]:
            raise ConfigError(f"{name} must be greater than or equal to {lo}", name)
        if broker.get(hi) is not None and v > broker[hi]:
            raise ConfigError(f"{name} must be less than or equal to {hi}", name)
    for session, heartbeat in _SESSION_HEARTBEAT:
        if values[session] <= values[heartbeat]:
            raise ConfigError(f"{session} must be greater than {heartbeat}", session)
    return {n: GROUP_CONFIGS[n].to_string(v) for n, v in parsed.items()}


_DURATION = re.compile(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?")


def share_reset_ms(value: str) -> int | None:
    """A ``share.auto.offset.reset`` value as how far back to start: 0 for ``latest``, -1 for
    ``earliest``, the milliseconds of ``by_duration:<ISO-8601 duration>`` (days, hours,
    minutes, seconds, as Java's Duration.parse); None for anything else."""
    v = value.strip().lower()
    if v in ("latest", "earliest"):
        return 0 if v == "latest" else -1
    if not v.startswith("by_duration:"):
        return None
    text = v.split(":", 1)[1].strip().upper()
    m = _DURATION.fullmatch(text)
    if not m or text in ("P", "PT") or text.endswith("T"):
        return None
    d, h, mi, sec = m.groups()
    return int((int(d or 0) * 86400 + int(h or 0) * 3600 + int(mi or 0) * 60 + float(sec or 0)) * 1000)


def effective_group_value(name: str, overrides: Mapping[str, str] | None, broker: BrokerConfig) -> Any:
    """A group's value of ``name``: its override clamped to the broker's bounds, else the default."""
    raw = (overrides or {}).get(name)
    if raw is None:
        return group_default(name, broker)
    try:
        value = GROUP_CONFIGS[name].parse(raw)
    except ConfigError:
        return group_default(name, broker)
    lo, hi = _BOUNDS.get(name, (None, None))
    if lo is not None and broker.get(lo) is not None:
        value = max(value, broker[lo])
    if hi is not None and broker.get(hi) is not None:
        value = min(value, broker[hi])
    return value


# -- client metrics subscriptions (KIP-714) ------------------------------------------------

_MATCH_PARAMS = frozenset({"client_instance_id", "client_id", "client_software_name",
                           "client_software_version", "client_source_address", "client_source_port"})
_MIN_INTERVAL_MS, _MAX_INTERVAL_MS = 100, 3600000


def validate_client_metrics(name: str, configs: Mapping[str, str | None]) -> dict[str, str]:
    """Kafka's ClientMetricsConfigs.validate over a subscription's complete config set."""
    if not name:
        raise ConfigError("Subscription name can't be empty", invalid_request=True)
    for key in configs:
        if key not in CLIENT_METRICS_CONFIGS:
            raise ConfigError(f"Unknown client metrics configuration: {key}", key, invalid_request=True)
    nulls = [n for n, v in configs.items() if v is None]
    if nulls:
        raise ConfigError("Null value not supported for client metrics configs: " + ",".join(nulls),
                          nulls[0])
    out: dict[str, str] = {}
    for key, raw in configs.items():
        d = CLIENT_METRICS_CONFIGS[key]
        if key == "interval.ms":
            value = _parse_interval(raw)
        else:
            value = d.parse(raw)
        if key == "match":
            _check_patterns(value)
        out[key] = d.to_string(value)
    return out


def _parse_interval(raw: str) -> int:
    d = CLIENT_METRICS_CONFIGS["interval.ms"]
    value = _parse_typed(d.name, d.type, raw)
    if not _MIN_INTERVAL_MS <= value <= _MAX_INTERVAL_MS:
        raise ConfigError(f"Invalid value {value} for interval.ms, interval must be between "
                          f"{_MIN_INTERVAL_MS} and {_MAX_INTERVAL_MS} (1 hour)", "interval.ms",
                          invalid_request=True)
    return value


def _check_patterns(patterns: list[str]) -> None:
    for pattern in patterns:
        # Java's String.split("="): trailing empty parts are dropped, so "a=" is one part
        parts = pattern.split("=")
        while parts and parts[-1] == "":
            parts.pop()
        if len(parts) != 2 or parts[0].strip() not in _MATCH_PARAMS:
            raise ConfigError(f"Illegal client matching pattern: {pattern}", "match")
        try:
            re.compile(parts[1].strip())
        except re.error:
            raise ConfigError(f"Illegal client matching pattern: {pattern}", "match") from None
