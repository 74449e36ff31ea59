"""Broker and topic configuration: Kafka's config names, types, defaults and precedence.

Importers use ``kwire.config`` only; the modules below are its parts, and every
name listed in ``__all__`` (plus ``INT_MAX``, ``LONG_MAX``, ``DOUBLE_MAX``,
``Range`` and ``OneOf``) is re-exported here.

* ``properties``  ``parse_properties(text)`` / ``read_properties(path)``: Java
  ``.properties``, the format of Kafka's ``server.properties`` (the only I/O).
* ``types``       ``ConfigType``, ``Source``, ``AlterOp``, ``ConfigError``,
  ``ConfigDef``, value parsing / printing as Kafka's ConfigDef does, validators.
* ``listeners``   ``Listener`` and ``parse_listeners``: Kafka's listener grammar.
* ``definitions`` ``BROKER_CONFIGS`` / ``TOPIC_CONFIGS`` / ``GROUP_CONFIGS``: every
  Kafka 4.3 name with type, default, validator, update mode and topic-to-broker
  synonyms, kwire's few different defaults explained, and ``DEV_DEFAULTS`` (a
  broker started without a properties file: Kafka's shipped server.properties).
* ``kafka43``     ``kafka43_configs.json``, the structural facts of Kafka 4.3's
  configuration docs, and the tool that builds it (``python -m kwire.config.kafka43``).
* ``broker``      ``BrokerConfig``: DEFAULT < STATIC < DYNAMIC_DEFAULT < DYNAMIC
  layers, typed values, derived attributes, DescribeConfigs entries.
* ``overrides``   ``validate_topic_config(s)`` and ``apply_incremental`` for
  CreateTopics / AlterConfigs / IncrementalAlterConfigs.
* ``topic``       ``topic_config`` / ``TopicConfig`` (override, else broker
  synonym, else Kafka's default).
* ``group``       ``validate_group_configs`` / ``effective_group_value`` (KIP-848
  GROUP resources, checked against the broker's group.* bounds) and
  ``validate_client_metrics`` (KIP-714 CLIENT_METRICS subscriptions).
* ``security``    start-up checks of the ssl.* / sasl.* / authorizer settings (no
  I/O: key files are read later by ``kwire.security``); ``jaas`` parses
  ``sasl.jaas.config`` values.

Import order is one way: types <- properties, listeners, kafka43 <- definitions
<- overrides <- broker <- topic, group (these two take a ``BrokerConfig`` for its
values and import it for type checking only); ``security`` (with ``jaas``) is
imported by ``broker`` when it checks the security settings. Everything is
standard library, so ``import kwire.config`` stays cheap for broker start-up.

What it deliberately does not do
--------------------------------
* No logging and no persistence: ``BrokerConfig.warnings`` is for the caller to
  log (``kwire.cli`` logs it as ``kwire.config``), and dynamic configs are stored
  by the cluster metadata, which replays them with ``set_dynamic``.
* No TLS contexts, SASL or authorizer objects (that is ``kwire.security``):
  ``BrokerConfig`` keeps ``listener.name.<name>.*`` names and only checks the
  SSL/SASL/authorizer settings without I/O (``security``, with the ``jaas``
  parser), refusing at load what kwire cannot serve. No config providers.

Invariants
----------
* Every value held by BrokerConfig and TopicConfig has been parsed to its
  Python type (int, float, bool, str, list[str] or None) and validated.
* A rejected name or value raises ``ConfigError``; a failed ``set_dynamic`` /
  ``alter_dynamic`` leaves the config unchanged.
"""

from __future__ import annotations

from .broker import BrokerConfig
from .definitions import BROKER_CONFIGS, TOPIC_CONFIGS
from .listeners import Listener, parse_listeners
from .overrides import apply_incremental, validate_topic_config, validate_topic_configs
from .properties import parse_properties, read_properties
from .topic import TopicConfig, topic_config
from .types import (
    DOUBLE_MAX,
    INT_MAX,
    LONG_MAX,
    AlterOp,
    ConfigDef,
    ConfigEntry,
    ConfigError,
    ConfigSynonym,
    ConfigType,
    OneOf,
    Range,
    Source,
)

# As before the split: the constants and validator classes are importable but not in __all__.
__all__ = [
    "AlterOp", "BROKER_CONFIGS", "BrokerConfig", "ConfigDef", "ConfigEntry", "ConfigError",
    "ConfigSynonym", "ConfigType", "Listener", "Source", "TOPIC_CONFIGS", "TopicConfig",
    "apply_incremental", "parse_listeners", "parse_properties", "read_properties",
    "topic_config", "validate_topic_config", "validate_topic_configs",
]
