"""Topic configs: validation of overrides, IncrementalAlterConfigs ops, effective values.

What it does
------------
* ``validate_topic_config`` / ``validate_topic_configs`` check CreateTopics and
  AlterConfigs input (unknown names, null values, bad values, tiered storage,
  ``min.compaction.lag.ms`` <= ``max.compaction.lag.ms``) and return the overrides
  in normalized string form; the handler answers INVALID_CONFIG with the message.
* ``apply_incremental`` applies IncrementalAlterConfigs ops (SET, DELETE, APPEND,
  SUBTRACT) to a set of overrides, for topics or, given ``BROKER_CONFIGS``, for a
  dynamic broker layer (``BrokerConfig.alter_dynamic``).
* ``topic_config(overrides, broker)`` resolves a topic's effective settings: topic
  override, else the first broker synonym that has a value, else Kafka's topic
  default. ``TopicConfig.describe()`` reports sources and synonyms the way Kafka's
  ConfigHelper does.

What it deliberately does not do
--------------------------------
No storage: a topic's overrides are kept by the cluster metadata, and the log's
own settings (``kwire.log.LogConfig``) are mapped from a TopicConfig by the
broker. It needs ``BrokerConfig`` only for its resolved values, so imports it
only for type checking.

Invariants
----------
* Every value a TopicConfig holds is typed and validated; ``overrides`` are
  normalized strings that ``validate_topic_configs`` accepts.
* ``apply_incremental`` returns a new mapping and never changes ``current``;
  a repeated name, unknown operation or null value is ``invalid_request``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

from .definitions import TOPIC_CONFIGS, _first_ms
from .types import AlterOp, ConfigDef, ConfigEntry, ConfigError, ConfigSynonym, ConfigType, Source, _known

if TYPE_CHECKING:
    from .broker import BrokerConfig


def validate_topic_config(name: str, value: str) -> str:
    """Check one topic config override; return its normalized string form."""
    d = _known(TOPIC_CONFIGS, name, "topic")
    if value is None:
        raise ConfigError(f"Null value not supported for topic config '{name}'", name,
                          invalid_request=True)
    parsed = d.parse(value)
    if name == "remote.storage.enable" and parsed:
        raise ConfigError("Tiered Storage functionality is disabled in the broker. Topic cannot "
                          "be configured with remote log storage.", name)
    return d.to_string(parsed)


def validate_topic_configs(configs: Mapping[str, str]) -> dict[str, str]:
    """Check a whole set of overrides, including checks across keys; return them normalized."""
    out = {name: validate_topic_config(name, value) for name, value in configs.items()}
    min_lag = int(out.get("min.compaction.lag.ms", TOPIC_CONFIGS["min.compaction.lag.ms"].default))
    max_lag = int(out.get("max.compaction.lag.ms", TOPIC_CONFIGS["max.compaction.lag.ms"].default))
    _check_compaction_lag(min_lag, max_lag)
    return out


def _check_compaction_lag(min_lag: int, max_lag: int) -> None:
    if min_lag > max_lag:
        raise ConfigError(f"conflict topic config setting min.compaction.lag.ms ({min_lag}) > "
                          f"max.compaction.lag.ms ({max_lag})", "min.compaction.lag.ms")


def apply_incremental(current: Mapping[str, str], ops: Iterable[tuple[str, int, str | None]],
                      defs: Mapping[str, ConfigDef] | None = None, kind: str | None = None) -> dict[str, str]:
    """Apply IncrementalAlterConfigs ops ``(name, op, value)`` to a set of overrides.

    SET replaces, DELETE removes, APPEND adds list items not already present and SUBTRACT
    removes them; an absent override starts from the config's Kafka default, as Kafka's
    controller does. APPEND/SUBTRACT on a non-LIST config, unknown names, invalid results and
    a name repeated in one request raise ConfigError. ``defs`` defaults to TOPIC_CONFIGS;
    the result is validated as a whole (for topics, with validate_topic_configs). ``kind``
    names the resource in "Unknown <kind> config name" (default: topic or broker).
    """
    topic = defs is None or defs is TOPIC_CONFIGS
    defs = TOPIC_CONFIGS if defs is None else defs
    kind = kind or ("topic" if topic else "broker")
    result = dict(current)
    seen: set[str] = set()
    for name, op, value in ops:
        d = _known(defs, name, kind)
        if name in seen:
            raise ConfigError(f"Duplicate config name in request: {name}", name, invalid_request=True)
        seen.add(name)
        try:
            op = AlterOp(op)
        except ValueError:
            raise ConfigError(f"Unknown config operation {op} for {name}", name,
                              invalid_request=True) from None
        if op is AlterOp.DELETE:
            result.pop(name, None)
            continue
        if value is None:
            raise ConfigError(f"Null value not supported for {op.name} on config {name}", name,
                              invalid_request=True)
        if op is AlterOp.SET:
            result[name] = value
            continue
        if d.type is not ConfigType.LIST:
            raise ConfigError(f"Can't {op.name} to key {name} because its type is not LIST.", name)
        base = result.get(name)
        if base is None:
            base = d.to_string(d.kafka_default) or ""
        items = [s for s in base.split(",") if s]
        for item in value.split(","):
            if op is AlterOp.APPEND and item not in items:
                items.append(item)
            elif op is AlterOp.SUBTRACT and item in items:
                items.remove(item)
        result[name] = ",".join(items)
    if topic:
        return validate_topic_configs(result)
    return {n: defs[n].to_string(defs[n].parse(v)) for n, v in result.items()}


class TopicConfig:
    """A topic's effective configuration: overrides over broker synonyms over Kafka defaults.

    Every topic config is an attribute named with dots as underscores (``retention_ms``,
    ``cleanup_policy`` as a list, ``message_timestamp_type`` as ``'CreateTime'`` or
    ``'LogAppendTime'``...); ``cfg[name]`` works too. ``segment_bytes`` honours
    ``internal.segment.bytes`` when set. ``compact`` / ``delete`` tell the cleanup policy.
    """

    def __init__(self, overrides: Mapping[str, str], broker: BrokerConfig) -> None:
        self.overrides = validate_topic_configs(overrides)
        self._broker = broker
        values: dict[str, Any] = {}
        for name, d in TOPIC_CONFIGS.items():
            if name in self.overrides:
                values[name] = d.parse(self.overrides[name])
            else:
                v = _first_ms(broker._values, d.synonyms)
                values[name] = d.default if v is None else v
        if "retention.ms" not in self.overrides and values["retention.ms"] < 0:
            values["retention.ms"] = -1
        _check_compaction_lag(values["min.compaction.lag.ms"], values["max.compaction.lag.ms"])
        self._values = values
        for name, v in values.items():
            setattr(self, name.replace(".", "_"), v)
        if values["internal.segment.bytes"] is not None:
            self.segment_bytes = values["internal.segment.bytes"]
        policy = [p.lower() for p in values["cleanup.policy"]]
        self.compact = "compact" in policy
        self.delete = "delete" in policy

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def describe(self, include_synonyms: bool = False,
                 names: Iterable[str] | None = None) -> list[ConfigEntry]:
        """DescribeConfigs entries for the topic (Kafka's ConfigHelper.createTopicConfigEntry)."""
        wanted = set(names) if names is not None else None
        out = []
        for name in sorted(TOPIC_CONFIGS):
            d = TOPIC_CONFIGS[name]
            if d.internal or (wanted is not None and name not in wanted):
                continue
            value = None if d.sensitive else d.to_string(self._values[name])
            synonyms = self._broker._synonyms([s for s, _ in d.synonyms], d.sensitive)
            if name in self.overrides:
                synonyms.insert(0, ConfigSynonym(name, value, int(Source.DYNAMIC_TOPIC_CONFIG)))
            source = synonyms[0].source if synonyms else int(Source.DEFAULT_CONFIG)
            out.append(ConfigEntry(name, value, source, False, d.sensitive, int(d.type),
                                   synonyms if include_synonyms else []))
        return out


def topic_config(overrides: Mapping[str, str], broker: BrokerConfig) -> TopicConfig:
    """Resolve a topic's effective config; raises ConfigError for bad overrides."""
    return TopicConfig(overrides, broker)
