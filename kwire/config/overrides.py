"""Topic config overrides: their validation and IncrementalAlterConfigs ops.

What it does
------------
* ``validate_topic_config`` / ``validate_topic_configs`` check CreateTopics and
  AlterConfigs input (unknown names, null values, bad values, tiered storage,
  ``min.compaction.lag.ms`` <= ``max.compaction.lag.ms``) and return the overrides
  in normalized string form; the handler answers INVALID_CONFIG with the message.
* ``apply_incremental`` applies IncrementalAlterConfigs ops (SET, DELETE, APPEND,
  SUBTRACT) to a set of overrides, for topics or, given ``BROKER_CONFIGS``, for a
  dynamic broker layer (``BrokerConfig.alter_dynamic``).

What it deliberately does not do
--------------------------------
No effective values: resolving a topic's settings over the broker's is
``kwire.config.topic``. This module sits below both ``broker`` and ``topic``
(it needs only the definitions), so the two never import each other.

Invariants
----------
* ``apply_incremental`` returns a new mapping and never changes ``current``;
  a repeated name, unknown operation or null value is ``invalid_request``.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from .definitions import TOPIC_CONFIGS
from .types import AlterOp, ConfigDef, ConfigError, ConfigType, _known


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
