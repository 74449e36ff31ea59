"""DescribeConfigs (key 32), v1-4: topic, broker and broker-logger configurations.

Per resource (Kafka's ``ConfigHelper.describeConfigs``):

* TOPIC (2): every topic config with its effective value and source —
  DYNAMIC_TOPIC_CONFIG for the topic's overrides, else the broker synonym that
  supplies it (DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG,
  STATIC_BROKER_CONFIG) or DEFAULT_CONFIG. An illegal name answers
  INVALID_TOPIC_EXCEPTION, an unknown topic UNKNOWN_TOPIC_OR_PARTITION.
* BROKER (4): named by this broker's id, every broker config (read-only
  unless it can be altered at run time, sensitive values null); the empty
  name is the cluster-wide default resource and lists only the dynamic
  defaults. Another id, or a name that is not a number, answers
  INVALID_REQUEST with Kafka's message.
* BROKER_LOGGER (8, KIP-412): the process's Python loggers (``root`` and
  every logger created so far) with their effective levels in log4j names
  (TRACE, DEBUG, INFO, WARN, ERROR, FATAL), source
  DYNAMIC_BROKER_LOGGER_CONFIG. The name must be this broker's id.
* GROUP (32, KIP-848): every group config (``consumer.*``, ``share.*``,
  ``streams.*``) for any group name: the group's own value (set by
  (Incremental)AlterConfigs, source GROUP_CONFIG) or the value it would use
  without one, the broker's ``group.<name>`` config when Kafka has one, else
  the group config's default (source DEFAULT_CONFIG). With synonyms, the
  one synonym is the entry itself, as Kafka's ``createGroupConfigEntry``.
  The empty name is INVALID_REQUEST.
* CLIENT_METRICS (16, KIP-714): the configs stored for the subscription, as
  set (source CLIENT_METRICS_CONFIG, no config type, as Kafka); a
  subscription that does not exist has none. The empty name is INVALID_REQUEST.
* A resource type Kafka does not know fails the whole request with
  INVALID_REQUEST, as Kafka does.

Broker and topic entries cover Kafka 4.3's whole surface
(``kwire.config.kafka43``); ``documentation`` says, for configs kwire accepts
but does not act on, just that. ``min.insync.replicas`` is a cluster-level
dynamic config (source DYNAMIC_DEFAULT_BROKER_CONFIG) from the first start,
as in a Kafka 4.1+ cluster with Eligible Leader Replicas (KIP-966).

``configuration_keys`` null (or empty) means all keys; unknown keys are
simply absent. Synonyms (v1+) are sent only when ``include_synonyms`` is set.
v3 (KIP-569) adds ``config_type`` and ``documentation`` (only when
``include_documentation`` is set, else null). v4 is the first flexible version.

``topic_config_entries`` and ``kafka_topic_name_message`` are also used by
CreateTopics (v5+ returns the new topic's configs) and the AlterConfigs
handlers; ``current_loggers`` / ``LOG4J_LEVELS`` by IncrementalAlterConfigs
for BROKER_LOGGER changes.
"""

from __future__ import annotations

import logging

from kwire.cluster.metadata import MAX_TOPIC_NAME, topic_name_error
from kwire.config import BROKER_CONFIGS, TOPIC_CONFIGS, ConfigError, Source, topic_config
from kwire.config.definitions import GROUP_CONFIGS
from kwire.config.group import group_default
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security.authorizer import denied_describe_configs
from kwire.protocol.generated.describe_configs_response import (
    DescribeConfigsResourceResult,
    DescribeConfigsResponse,
    DescribeConfigsResult,
    DescribeConfigsSynonym,
)

API_KEY = 32
MIN_VERSION = 1
MAX_VERSION = 4

# ConfigResource.Type ids
TOPIC = 2
BROKER = 4
BROKER_LOGGER = 8
CLIENT_METRICS = 16
GROUP = 32
RESOURCE_TYPE_NAMES = {TOPIC: "TOPIC", BROKER: "BROKER", BROKER_LOGGER: "BROKER_LOGGER",
                       CLIENT_METRICS: "CLIENT_METRICS", GROUP: "GROUP"}

UNKNOWN_TOPIC_MESSAGE = "This server does not host this topic-partition."

# log4j level names <-> Python logging levels. TRACE has no Python level: 5 stands for it.
TRACE = 5
LOG4J_LEVELS = {"TRACE": TRACE, "DEBUG": logging.DEBUG, "INFO": logging.INFO,
                "WARN": logging.WARNING, "ERROR": logging.ERROR, "FATAL": logging.CRITICAL}
ROOT_LOGGER = "root"


def logger_level(level: int) -> str:
    """The log4j name of a Python logging level (rounding down to the nearest one)."""
    for name, value in sorted(LOG4J_LEVELS.items(), key=lambda kv: -kv[1]):
        if level >= value:
            return name
    return "TRACE"


def current_loggers() -> dict[str, logging.Logger]:
    """``root`` and every logger the process has created, by name."""
    out: dict[str, logging.Logger] = {ROOT_LOGGER: logging.getLogger()}
    for name, lg in list(logging.Logger.manager.loggerDict.items()):
        if isinstance(lg, logging.Logger):
            out[name] = lg
    return out


def kafka_topic_name_message(name: str) -> str:
    """Kafka's Topic.validate wording for an illegal name."""
    if not name:
        reason = "the empty string is not allowed"
    elif name in (".", ".."):
        reason = f"'{name}' is not allowed"
    elif len(name) > MAX_TOPIC_NAME:
        reason = f"the length of '{name}' is longer than the max allowed length {MAX_TOPIC_NAME}"
    else:
        reason = (f"'{name}' contains one or more characters other than ASCII alphanumerics, "
                  f"'.', '_' and '-'")
    return "Topic name is invalid: " + reason


def broker_id_of(name: str) -> int:
    try:
        return int(name)
    except ValueError:
        raise KafkaError(ErrorCode.INVALID_REQUEST,
                         f"Broker id must be an integer, but it is: {name}") from None


def _entry(e, include_synonyms: bool, doc: str | None) -> DescribeConfigsResourceResult:
    return DescribeConfigsResourceResult(
        name=e.name,
        value=e.value,
        read_only=e.read_only,
        config_source=e.source,
        is_sensitive=e.is_sensitive,
        synonyms=[DescribeConfigsSynonym(name=s.name, value=s.value, source=s.source)
                  for s in e.synonyms] if include_synonyms else [],
        config_type=e.config_type,
        documentation=doc,
    )


def topic_config_entries(broker, overrides: dict[str, str], include_synonyms: bool = False,
                         names=None) -> list:
    """A topic's config entries (kwire.config.ConfigEntry), as DescribeConfigs lists them."""
    try:
        cfg = topic_config(overrides, broker.config)
    except ConfigError as e:
        raise KafkaError(ErrorCode.INVALID_CONFIG, str(e)) from None
    return cfg.describe(include_synonyms, names)


def _describe_topic(broker, name: str, names, synonyms: bool, docs: bool, overrides=None) -> list:
    """``overrides``: the topic's config overrides read from ZooKeeper (cluster mode), else
    the image's."""
    if topic_name_error(name):
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, kafka_topic_name_message(name))
    t = broker.metadata.topic(name)
    if t is None:
        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_MESSAGE)
    configs = t.configs if overrides is None else overrides
    return [_entry(e, synonyms, TOPIC_CONFIGS[e.name].doc if docs else None)
            for e in topic_config_entries(broker, configs, synonyms, names)]


def _describe_broker(broker, name: str, names, synonyms: bool, docs: bool) -> list:
    cfg = broker.config
    if name:
        if broker_id_of(name) != cfg.broker_id:
            raise KafkaError(ErrorCode.INVALID_REQUEST,
                             f"Unexpected broker id, expected {cfg.broker_id} or empty string, "
                             f"but received {name}")
        entries = cfg.describe(synonyms, names)
    else:
        entries = cfg.describe(synonyms, names, cluster_default=True)
    return [_entry(e, synonyms, BROKER_CONFIGS[e.name].doc if docs else None) for e in entries]


def _describe_loggers(broker, name: str, names) -> list:
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Broker id must not be empty")
    if broker_id_of(name) != broker.config.broker_id:
        raise KafkaError(ErrorCode.INVALID_REQUEST,
                         f"Unexpected broker id, expected {broker.config.broker_id} but received {name}")
    out = []
    for logger_name, lg in sorted(current_loggers().items()):
        if names is not None and logger_name not in names:
            continue
        out.append(DescribeConfigsResourceResult(
            name=logger_name,
            value=logger_level(lg.getEffectiveLevel()),
            read_only=False,
            config_source=int(Source.DYNAMIC_BROKER_LOGGER_CONFIG),
            is_sensitive=False,
            synonyms=[],
            documentation=None,
        ))
    return out


def _describe_group(broker, name: str, names, synonyms: bool, docs: bool) -> list:
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Group name must not be empty")
    overrides = broker.metadata.group_configs.get(name, {})
    out = []
    for key, d in sorted(GROUP_CONFIGS.items()):
        if names is not None and key not in names:
            continue
        if key in overrides:
            value, source = overrides[key], Source.GROUP_CONFIG
        else:
            value, source = d.to_string(group_default(key, broker.config)), Source.DEFAULT_CONFIG
        out.append(DescribeConfigsResourceResult(
            name=key, value=value, read_only=False, config_source=int(source), is_sensitive=False,
            synonyms=[DescribeConfigsSynonym(name=key, value=value, source=int(source))] if synonyms else [],
            config_type=int(d.type), documentation=d.doc if docs else None))
    return out


def _describe_client_metrics(broker, name: str, names) -> list:
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Client metrics subscription name must not be empty")
    configs = broker.metadata.client_metrics.get(name, {})
    return [DescribeConfigsResourceResult(
                name=key, value=value, read_only=False, config_source=int(Source.CLIENT_METRICS_CONFIG),
                is_sensitive=False, synonyms=[], documentation=None)
            for key, value in sorted(configs.items()) if names is None or key in names]


def describe_resource(broker, resource, synonyms: bool, docs: bool,
                      topic_overrides=None) -> DescribeConfigsResult:
    rtype, name = resource.resource_type, resource.resource_name
    keys = resource.configuration_keys
    names = set(keys) if keys else None
    try:
        if rtype == TOPIC:
            configs = _describe_topic(broker, name, names, synonyms, docs, topic_overrides)
        elif rtype == BROKER:
            configs = _describe_broker(broker, name, names, synonyms, docs)
        elif rtype == BROKER_LOGGER:
            configs = _describe_loggers(broker, name, names)
        elif rtype == GROUP:
            configs = _describe_group(broker, name, names, synonyms, docs)
        elif rtype == CLIENT_METRICS:
            configs = _describe_client_metrics(broker, name, names)
        else:
            raise KafkaError(ErrorCode.INVALID_REQUEST,
                             f"Unsupported resource type: {RESOURCE_TYPE_NAMES.get(rtype, rtype)}")
    except KafkaError as e:
        return DescribeConfigsResult(error_code=e.code, error_message=e.message,
                                     resource_type=rtype, resource_name=name, configs=[])
    return DescribeConfigsResult(error_code=0, error_message=None, resource_type=rtype,
                                 resource_name=name, configs=configs)


def handle(ctx, req) -> DescribeConfigsResponse:
    unknown = [r for r in req.resources if r.resource_type not in RESOURCE_TYPE_NAMES]
    if unknown:
        r = unknown[0]
        message = f"Unexpected resource type {r.resource_type} for resource {r.resource_name}"
        return DescribeConfigsResponse(results=[
            DescribeConfigsResult(error_code=ErrorCode.INVALID_REQUEST, error_message=message,
                                  resource_type=res.resource_type, resource_name=res.resource_name,
                                  configs=[])
            for res in req.resources
        ])
    synonyms = bool(req.include_synonyms)
    docs = ctx.api_version >= 3 and bool(req.include_documentation)
    broker = ctx.broker
    if getattr(broker, "cluster_mode", False) and any(r.resource_type == TOPIC for r in req.resources):
        return _describe_from_zookeeper(ctx, broker, req, synonyms, docs)
    return DescribeConfigsResponse(results=[
        denied_describe_configs(ctx, r) or describe_resource(broker, r, synonyms, docs)  # kwire.security
        for r in req.resources
    ])


async def _describe_from_zookeeper(ctx, broker, req, synonyms: bool, docs: bool) -> DescribeConfigsResponse:
    """Cluster mode, as Kafka's ZooKeeper mode: topic configs are read from ZooKeeper, so a
    change made through any broker a moment ago is seen here too; a topic this broker has not
    seen yet (created elsewhere a moment ago) is waited for briefly."""
    md = broker.metadata
    names = [r.resource_name for r in req.resources if r.resource_type == TOPIC]
    missing = [n for n in names if md.topic(n) is None]
    if missing:
        await md.catch_up(missing)
    stored = await md.read_topic_configs([n for n in names if md.topic(n) is not None])
    return DescribeConfigsResponse(results=[
        denied_describe_configs(ctx, r) or describe_resource(
            broker, r, synonyms, docs, stored.get(r.resource_name) if r.resource_type == TOPIC else None)
        for r in req.resources
    ])
