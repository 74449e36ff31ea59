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

A resource named twice, a key named twice within a resource, a null value for
SET/APPEND/SUBTRACT and an unknown operation answer INVALID_REQUEST. Other
resource types (CLIENT_METRICS, GROUP) are not supported yet and answer
INVALID_REQUEST (kwire has nowhere to persist them yet). v1 is the first flexible version.
"""

from __future__ import annotations

import logging

from kwire.config import AlterOp, ConfigError, apply_incremental
from kwire.handlers.alter_configs import (
    alter_broker_dynamic,
    alter_each,
    check_broker_name,
    check_config_list,
    check_topic_name,
    config_error,
    node_id_of,
    replace_topic_overrides,
)
from kwire.handlers.describe_configs import (
    BROKER,
    BROKER_LOGGER,
    LOG4J_LEVELS,
    RESOURCE_TYPE_NAMES,
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


def _alter_topic(broker, resource, validate_only: bool) -> None:
    name = resource.resource_name
    check_topic_name(name)
    t = broker.metadata.topic(name)
    current = dict(t.configs) if t is not None else {}
    try:
        result = apply_incremental(current, _ops(resource.configs))
    except ConfigError as e:
        raise config_error(e) from None
    replace_topic_overrides(broker, name, result, validate_only)


def _alter_broker(broker, resource, validate_only: bool) -> None:
    cluster_default = check_broker_name(broker, resource.resource_name)
    alter_broker_dynamic(broker, _ops(resource.configs), cluster_default, validate_only)


def _alter_loggers(broker, resource, validate_only: bool) -> None:
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
        return
    for c in resource.configs:
        lg = loggers[c.name]
        if c.config_operation == AlterOp.SET:
            lg.setLevel(LOG4J_LEVELS[c.value])
            log.warning("Updated the log level of %s to %s", c.name, c.value)
        else:
            lg.setLevel(logging.NOTSET)
            log.warning("Unset the log level of %s", c.name)


def _alter(broker, resource, validate_only: bool) -> None:
    _check_ops(resource.configs)
    rtype = resource.resource_type
    if rtype == TOPIC:
        _alter_topic(broker, resource, validate_only)
    elif rtype == BROKER:
        _alter_broker(broker, resource, validate_only)
    elif rtype == BROKER_LOGGER:
        _alter_loggers(broker, resource, validate_only)
    elif rtype in RESOURCE_TYPE_NAMES:
        raise KafkaError(ErrorCode.INVALID_REQUEST,
                         f"Unsupported resource type: {RESOURCE_TYPE_NAMES[rtype]}")
    else:
        raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown resource type {rtype}")


def handle(ctx, req) -> IncrementalAlterConfigsResponse:
    return IncrementalAlterConfigsResponse(
        responses=alter_each(ctx.broker, req, _alter, AlterConfigsResourceResponse))
