"""Topic configs: a topic's effective values (overrides over the broker's).

What it does
------------
* ``topic_config(overrides, broker)`` resolves a topic's effective settings: topic
  override, else the first broker synonym that has a value, else Kafka's topic
  default. ``TopicConfig.describe()`` reports sources and synonyms the way Kafka's
  ConfigHelper does.

What it deliberately does not do
--------------------------------
No storage: a topic's overrides are kept by the cluster metadata, and the log's
own settings (``kwire.log.LogConfig``) are mapped from a TopicConfig by the
broker. Validating overrides and IncrementalAlterConfigs ops is
``kwire.config.overrides``. It needs ``BrokerConfig`` only for its resolved
values, so imports it only for type checking (``broker`` never imports this
module).

Invariants
----------
* Every value a TopicConfig holds is typed and validated; ``overrides`` are
  normalized strings that ``validate_topic_configs`` accepts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

from .definitions import TOPIC_CONFIGS, _first_ms
from .overrides import _check_compaction_lag, validate_topic_configs
from .types import ConfigEntry, ConfigSynonym, Source

if TYPE_CHECKING:
    from .broker import BrokerConfig


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
