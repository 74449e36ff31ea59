"""IncrementalAlterConfigs (key 44), v0-1: change single config keys (KIP-339).

Each config entry carries an operation: SET (0) replaces the value, DELETE (1)
removes the override so the default applies again, APPEND (2) and SUBTRACT (3)
add or remove items of a LIST config (``cleanup.policy``,
``follower.replication.throttled.replicas``...) starting from the current
value or the default. A resource's changes are all applied or none are;
``validate_only`` checks them and changes nothing.

Resources (codes and messages as Kafka's ``ConfigAdminManager``,
``ConfigurationControlManager`` and ``RuntimeLoggerManager``):

* TOPIC (2): persisted with the cluster metadata (``Broker.set_topic_configs``)
  and pushed into the partition logs. The empty name is INVALID_REQUEST, an
  illegal name INVALID_TOPIC_EXCEPTION, an unknown key or bad result
  INVALID_CONFIG (APPEND/SUBTRACT on a non-list key: "Can't APPEND to key X
  because its type is not LIST."), a missing topic UNKNOWN_TOPIC_OR_PARTITION;
* BROKER (4): this broker's id, or "" for the cluster-wide default. Every
  dynamic Kafka 4.3 broker config is accepted and stored (see
  ``alter_configs``: per-broker ones only on a broker id, min.insync.replicas
  only at cluster level). Keys that cannot change at run time, names Kafka
  does not define and bad values answer INVALID_REQUEST; a change is pushed to
  every topic that inherits it;
* BROKER_LOGGER (8, KIP-412): Python logging levels, by logger name (``root``
  is the root logger), in log4j level names. SET needs an existing logger and
  one of TRACE, DEBUG, INFO, WARN, ERROR, FATAL (else INVALID_CONFIG); DELETE
  makes a logger inherit its parent's level again (not allowed for ``root``);
  APPEND and SUBTRACT answer INVALID_REQUEST. Like Kafka's, these changes are
  not persisted.

* GROUP (32, KIP-848): a group's dynamic configs, stored with the cluster
  metadata (whether or not the group exists). The empty name is
  INVALID_REQUEST "Default group resources are not allowed."; an unknown key
  ("Unknown group config name: x"), a bad value or a result outside the
  broker's bounds (Kafka's ``GroupConfig.validate``: e.g.
  ``consumer.session.timeout.ms`` within ``group.consumer.min/max.session.timeout.ms``,
  each session timeout above its heartbeat interval) INVALID_CONFIG. The
  group coordinator uses ``consumer.session.timeout.ms`` and
  ``consumer.heartbeat.interval.ms`` (clamped into the broker's bounds, as
  Kafka); the ``share.*`` and ``streams.*`` ones and
  ``consumer.assignment.interval.ms`` are stored and reported only (kwire has
  no share or streams groups, and assigns at once);
* CLIENT_METRICS (16, KIP-714): a client metrics subscription (``metrics``,
  ``interval.ms``, ``match``), stored with the cluster metadata; deleting its
  last config deletes it. Kafka's ``ClientMetricsConfigs.validate``: the empty
  name, an unknown key and ``interval.ms`` outside 100..3600000 answer
  INVALID_REQUEST, an illegal ``match`` pattern INVALID_CONFIG. kwire stores
  and reports subscriptions but does not push them to clients
  (GetTelemetrySubscriptions answers no subscription).

Persisted changes (TOPIC, BROKER, GROUP, CLIENT_METRICS) are answered once they
are durable; if the cluster metadata cannot be written (e.g. ENOSPC) the
change is undone (and a broker config change taken back out of the logs) and
the resource answers KAFKA_STORAGE_ERROR with the reason — kwire's code for
the failed write, as CreateTopics (Kafka's controller would lose leadership
instead, which a single node cannot).

A resource named twice, a key named twice within a resource, a null value for
SET/APPEND/SUBTRACT and an unknown operation answer INVALID_REQUEST. v1 is the
first flexible version.
"""

from __future__ import annotations

import logging

from kwire.config import AlterOp, ConfigError, apply_incremental
from kwire.security.authorizer import guard_config_alter
from kwire.config.definitions import CLIENT_METRICS_CONFIGS, GROUP_CONFIGS
from kwire.handlers.alter_configs import (
    alter_broker_dynamic,
    alter_each,
    check_broker_name,
    check_config_list,
    check_group_name,
    check_topic_name,
    config_error,
    node_id_of,
    replace_client_metrics,
    replace_group_configs,
    replace_topic_overrides,
)
from kwire.handlers.describe_configs import (
    BROKER,
    BROKER_LOGGER,
    CLIENT_METRICS,
    GROUP,
    LOG4J_LEVELS,
    ROOT_LOGGER,
    TOPIC,
    current_loggers,
)
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.protocol.generated.incremental_alter_configs_response import (
    AlterConfigsResourceResponse,
    IncrementalAlterConfigsResponse,
)

API_KEY = 44
MIN_VERSION = 0
MAX_VERSION = 1

log = logging.getLogger("kwire.handlers.incremental_alter_configs")

_OPS = {op.value for op in AlterOp}
_VALID_LEVELS = ", ".join(sorted(LOG4J_LEVELS))


def _check_ops(configs) -> None:
    for c in configs:
        if c.config_operation not in _OPS:
            raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown operations type {c.config_operation}")
    check_config_list(configs, null_ok=lambda c: c.config_operation == AlterOp.DELETE)


def _ops(configs) -> list[tuple[str, int, str | None]]:
    return [(c.name, c.config_operation, c.value) for c in configs]


def _apply(current, configs, defs=None, kind: str | None = None) -> dict[str, str]:
    """``apply_incremental`` of the resource's ops; a ConfigError is answered as Kafka does."""
    try:
        return apply_incremental(current, _ops(configs), defs, kind=kind)
    except ConfigError as e:
        raise config_error(e) from None


def _refuse_unknown(configs, defs, code: int, what: str) -> None:
    """The first config name ``defs`` does not define is refused: ``code``, "<what>: <name>"."""
    for c in configs:
        if c.name not in defs:
            raise KafkaError(code, f"{what}: {c.name}")


def _alter_topic(broker, resource, validate_only: bool) -> bool:
    name = resource.resource_name
    check_topic_name(name)
    t = broker.metadata.topic(name)
    current = dict(t.configs) if t is not None else {}
    result = _apply(current, resource.configs)
    return replace_topic_overrides(broker, name, result, validate_only)


def _alter_broker(broker, resource, validate_only: bool) -> bool:
    cluster_default = check_broker_name(broker, resource.resource_name)
    return alter_broker_dynamic(broker, _ops(resource.configs), cluster_default, validate_only)


def _alter_group(broker, resource, validate_only: bool) -> bool:
    name = resource.resource_name
    check_group_name(name)
    _refuse_unknown(resource.configs, GROUP_CONFIGS, ErrorCode.INVALID_CONFIG, "Unknown group config name")
    result = _apply(broker.metadata.group_configs.get(name, {}), resource.configs, GROUP_CONFIGS, kind="group")
    return replace_group_configs(broker, name, result, validate_only)


def _alter_client_metrics(broker, resource, validate_only: bool) -> bool:
    name = resource.resource_name
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Subscription name can't be empty")
    _refuse_unknown(resource.configs, CLIENT_METRICS_CONFIGS, ErrorCode.INVALID_REQUEST,
                    "Unknown client metrics configuration")
    result = _apply(broker.metadata.client_metrics.get(name, {}), resource.configs, CLIENT_METRICS_CONFIGS,
                    kind="client metrics")
    return replace_client_metrics(broker, name, result, validate_only)


def _alter_loggers(broker, resource, validate_only: bool) -> bool:
    name = resource.resource_name
    if node_id_of(name) != broker.config.broker_id:
        raise KafkaError(ErrorCode.INVALID_REQUEST,
                         f"Unexpected node id. Expected {broker.config.broker_id}, but received {name}")
    loggers = current_loggers()
    for c in resource.configs:
        op = c.config_operation
        if op in (AlterOp.APPEND, AlterOp.SUBTRACT):
            raise KafkaError(ErrorCode.INVALID_REQUEST,
                             f"{AlterOp(op).name} operation is not allowed for the BROKER_LOGGER resource")
        if c.name not in loggers:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Logger {c.name} does not exist!")
        if op == AlterOp.SET and c.value not in LOG4J_LEVELS:
            raise KafkaError(ErrorCode.INVALID_CONFIG,
                             f"Cannot set the log level of {c.name} to {c.value} as it is not a "
                             f"supported log level. Valid log levels are {_VALID_LEVELS}")
        if op == AlterOp.DELETE and c.name == ROOT_LOGGER:
            raise KafkaError(ErrorCode.INVALID_REQUEST,
                             f"Removing the log level of the {ROOT_LOGGER} logger is not allowed")
    if validate_only:
        return False
    for c in resource.configs:
        lg = loggers[c.name]
        if c.config_operation == AlterOp.SET:
            lg.setLevel(LOG4J_LEVELS[c.value])
            log.warning("Updated the log level of %s to %s", c.name, c.value)
        else:
            lg.setLevel(logging.NOTSET)
            log.warning("Unset the log level of %s", c.name)
    return False  # not persisted, as in Kafka


_ALTER = {TOPIC: _alter_topic, BROKER: _alter_broker, BROKER_LOGGER: _alter_loggers,
          GROUP: _alter_group, CLIENT_METRICS: _alter_client_metrics}


def _alter(broker, resource, validate_only: bool) -> bool:
    _check_ops(resource.configs)
    rtype = resource.resource_type
    alter = _ALTER.get(rtype)
    if alter is None:
        raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown resource type {rtype}")
    return alter(broker, resource, validate_only)


async def handle(ctx, req) -> IncrementalAlterConfigsResponse:
    return IncrementalAlterConfigsResponse(
        responses=await alter_each(ctx.broker, req, guard_config_alter(ctx, _alter),  # kwire.security
                                   AlterConfigsResourceResponse))
