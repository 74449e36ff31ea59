"""AlterConfigs (key 33), v0-2: replace a topic's or a broker's dynamic configs.

The legacy, non-incremental API: the configs in the request become the
resource's complete set of overrides, and every override not named is removed
(IncrementalAlterConfigs, key 44, changes single keys). ``validate_only`` runs
every check and changes nothing. Changes are applied at once: topic overrides
through ``Broker.set_topic_configs`` (persisted with the cluster metadata and
pushed into the partition logs), broker configs through
``BrokerConfig.alter_dynamic`` followed by ``Broker.refresh_all_log_configs``
so topics that inherit a changed default pick it up.

Checks, with Kafka's codes and messages (``ConfigAdminManager.preprocess`` on
the broker, then ``ConfigurationControlManager`` on the controller):

* a resource named twice: INVALID_REQUEST for both entries; a key twice
  within a resource, or a null value: INVALID_REQUEST;
* TOPIC (2): the empty name is INVALID_REQUEST, an illegal name
  INVALID_TOPIC_EXCEPTION, unknown names and bad values INVALID_CONFIG, and
  a topic that does not exist UNKNOWN_TOPIC_OR_PARTITION ("The topic 'x'
  does not exist.") — in that order;
* BROKER (4): the name is empty (the cluster-wide default resource) or this
  broker's id; a key that cannot change at run time answers INVALID_REQUEST
  "Cannot update these configs dynamically: [...]", as do bad values (Kafka
  answers INVALID_REQUEST for broker config validation, KAFKA-13609);
* GROUP (32) and CLIENT_METRICS (16): the whole config set of a group or a
  client metrics subscription, checked as IncrementalAlterConfigs does (see
  there); an empty set removes them;
* any other resource type (BROKER_LOGGER can only be changed incrementally):
  INVALID_REQUEST "Unknown resource type N".

A change is answered once the cluster metadata holding it is durable; if it
cannot be written the change is undone (a broker config's previous dynamic
layers are put back into the BrokerConfig and the logs) and the resource
answers KAFKA_STORAGE_ERROR with the reason.

Every broker config name Kafka 4.3 defines is known (``kwire.config.kafka43``):
the dynamic ones (per-broker and cluster-wide) are accepted, persisted and
reported even where kwire does not act on them (logged at INFO when set); a
per-broker config set on the cluster-default resource answers INVALID_REQUEST
"Cannot update these configs at default cluster level, broker id must be
specified". kwire differs from Kafka in one way: it does not store names
Kafka does not define (Kafka keeps them as custom configs); they answer
INVALID_REQUEST "Unknown broker config name". Settings kwire cannot honour
whose absence would change safety (e.g. a listener security protocol) are
refused by ``BrokerConfig`` with INVALID_REQUEST.

``min.insync.replicas`` follows KIP-966 as Kafka 4.1+ runs new clusters
(Eligible Leader Replicas on): it lives at cluster level only. Setting it for
one broker, or deleting the cluster-level value, answers INVALID_CONFIG; the
legacy AlterConfigs on the cluster default keeps it when the request omits it.

Dynamic broker configs are persisted in the cluster metadata and replayed when
the broker starts (see ``persist_broker_configs``).

v2 is the first flexible version; v1 only changed throttling behaviour.
The helpers here are shared with ``incremental_alter_configs``: the loop over
resources that answers each one (``alter_each``), the request checks, and the
validate-then-install steps for a topic's overrides and a broker's dynamic layer.
"""

from __future__ import annotations

import copy
import logging

from kwire.cluster.metadata import topic_name_error
from kwire.config import BROKER_CONFIGS, AlterOp, ConfigError, validate_topic_configs
from kwire.config.definitions import GROUP_CONFIGS
from kwire.config.group import validate_client_metrics, validate_group_configs
from kwire.handlers.common import when_durable
from kwire.handlers.describe_configs import BROKER, CLIENT_METRICS, GROUP, TOPIC, kafka_topic_name_message
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security.authorizer import guard_config_alter
from kwire.protocol.generated.alter_configs_response import AlterConfigsResourceResponse, AlterConfigsResponse

API_KEY = 33
MIN_VERSION = 0
MAX_VERSION = 2

log = logging.getLogger("kwire.handlers.alter_configs")


# -- shared with IncrementalAlterConfigs ---------------------------------------------

async def alter_each(broker, req, alter, resource_response) -> list:
    """Answer every resource of an (Incremental)AlterConfigs request, in request order.

    ``alter(broker, resource, validate_only)`` applies one resource and raises KafkaError
    to reject it; it returns True when it queued a cluster metadata change, and then the
    resource is answered once that change is durable (KAFKA_STORAGE_ERROR, with the
    change undone, if it could not be written). Each answer is ``resource_response``
    with that error (NONE on success). A resource named twice is rejected, every time,
    without being applied.
    """
    dups = duplicate_resources(req.resources)
    out = []
    waiting: list[tuple[int, object]] = []  # (index in out, durability of its change)
    for i, r in enumerate(req.resources):
        code, message = ErrorCode.NONE, None
        try:
            if i in dups:
                raise KafkaError(ErrorCode.INVALID_REQUEST, "Each resource must appear at most once.")
            if alter(broker, r, req.validate_only):
                fut = broker.metadata.durable()
                if fut is not None:
                    waiting.append((i, fut))
        except KafkaError as e:
            code, message = e.code, e.message
        out.append(resource_response(error_code=code, error_message=message,
                                     resource_type=r.resource_type, resource_name=r.resource_name))
    return await when_durable(out, waiting)


def duplicate_resources(resources) -> set[int]:
    """Indexes of resources whose (type, name) appears more than once in the request."""
    seen: dict[tuple[int, str], list[int]] = {}
    for i, r in enumerate(resources):
        seen.setdefault((r.resource_type, r.resource_name), []).append(i)
    return {i for idx in seen.values() if len(idx) > 1 for i in idx}


def check_config_list(configs, null_ok=lambda c: False) -> None:
    """Kafka's per-resource request checks: no key twice, no null value where one is needed."""
    names = [c.name for c in configs]
    if len(set(names)) != len(names):
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Error due to duplicate config keys")
    nulls = [c.name for c in configs if c.value is None and not null_ok(c)]
    if nulls:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Null value not supported for : " + ", ".join(nulls))


def check_topic_name(name: str) -> None:
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Default topic resources are not allowed.")
    if topic_name_error(name):
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, kafka_topic_name_message(name))


def config_error(e: ConfigError, broker_resource: bool = False) -> KafkaError:
    """Map a kwire.config rejection to Kafka's code for the resource type."""
    if broker_resource or e.invalid_request:
        return KafkaError(ErrorCode.INVALID_REQUEST, str(e))
    return KafkaError(ErrorCode.INVALID_CONFIG, str(e))


def replace_topic_overrides(broker, name: str, overrides: dict[str, str], validate_only: bool) -> bool:
    """Validate a topic's complete new override set, then install it (unless validating only).

    Bad configs are reported before a missing topic (UNKNOWN_TOPIC_OR_PARTITION). True when
    a metadata change was queued (``Broker.set_topic_configs`` restores the logs' configs
    if it cannot be written).
    """
    try:
        overrides = validate_topic_configs(overrides)
    except ConfigError as e:
        raise config_error(e) from None
    if broker.metadata.topic(name) is None:
        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"The topic '{name}' does not exist.")
    if validate_only:
        return False
    broker.set_topic_configs(name, overrides)
    return True


def node_id_of(name: str) -> int:
    """The node id that names a BROKER or BROKER_LOGGER resource; INVALID_REQUEST if not a number."""
    try:
        return int(name)
    except ValueError:
        raise KafkaError(ErrorCode.INVALID_REQUEST,
                         f"Node id must be an integer, but it is: {name}") from None


def check_broker_name(broker, name: str) -> bool:
    """True for the cluster-wide default resource (""), False for this broker; else KafkaError."""
    if not name:
        return True
    if node_id_of(name) != broker.config.broker_id:
        raise KafkaError(ErrorCode.INVALID_REQUEST,
                         f"Unexpected broker id, expected {broker.config.broker_id}, but received {name}")
    return False


def check_dynamic_names(names) -> None:
    """Kafka's DynamicBrokerConfig check: every named key must be changeable at run time."""
    unknown = [n for n in names if n not in BROKER_CONFIGS]
    if unknown:
        raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown broker config name: {unknown[0]}")
    static = sorted(n for n in names if BROKER_CONFIGS[n].read_only)
    if static:
        raise KafkaError(ErrorCode.INVALID_REQUEST,
                         "Cannot update these configs dynamically: [" + ", ".join(static) + "]")


def alter_broker_dynamic(broker, ops, cluster_default: bool, validate_only: bool) -> bool:
    """Apply ``(name, op, value)`` ops to a dynamic broker layer, all or nothing.

    Every name that is set (not deleted) must be a known config changeable at run time.
    True when a metadata change was queued; if it cannot be written, the broker's
    previous dynamic layers are put back (and pushed into the logs again).
    """
    check_dynamic_names([name for name, op, _ in ops if op != AlterOp.DELETE])
    check_min_isr_ops(ops, cluster_default)
    target = copy.deepcopy(broker.config) if validate_only else broker.config
    before = target.dynamic_layers()
    try:
        target.alter_dynamic(ops, cluster_default=cluster_default)
    except ConfigError as e:
        raise config_error(e, broker_resource=True) from None
    if validate_only:
        return False
    broker.refresh_all_log_configs()

    def aborted() -> None:
        broker.config.restore_dynamic_layers(before)
        broker.refresh_all_log_configs()

    persist_broker_configs(broker, on_abort=aborted)
    inert = sorted({name for name, op, _ in ops if op != AlterOp.DELETE and not BROKER_CONFIGS[name].acted})
    if inert:
        log.info("Dynamic broker config%s %s stored and reported; kwire does not act on %s",
                 "s" if len(inert) > 1 else "", ", ".join(inert), "them" if len(inert) > 1 else "it")
    return True


def check_min_isr_ops(ops, cluster_default: bool) -> None:
    """KIP-966 (ELR on, as in new Kafka 4.1+ clusters): min.insync.replicas is cluster-level only."""
    for name, op, _ in ops:
        if name != "min.insync.replicas":
            continue
        if not cluster_default and op != AlterOp.DELETE:
            raise KafkaError(ErrorCode.INVALID_CONFIG,
                             "Broker-level min.insync.replicas cannot be altered while ELR is enabled.")
        if cluster_default and op == AlterOp.DELETE:
            raise KafkaError(ErrorCode.INVALID_CONFIG,
                             "Cluster-level min.insync.replicas cannot be removed while ELR is enabled.")


def persist_broker_configs(broker, on_abort=None) -> None:
    """Hand the dynamic broker layers to the cluster metadata, which stores them;
    the broker replays them at start-up. ``on_abort`` runs if they cannot be written."""
    cfg = broker.config
    broker.metadata.set_dynamic_broker_configs(cfg.dynamic, cfg.dynamic_default, on_abort=on_abort)


def check_group_name(name: str) -> None:
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Default group resources are not allowed.")


def replace_group_configs(broker, group_id: str, configs: dict[str, str | None], validate_only: bool) -> bool:
    """Validate a group's complete new config set (Kafka's GroupConfig.validate against the
    broker's group.* bounds: INVALID_CONFIG), then store it. True when a change was queued."""
    try:
        configs = validate_group_configs(configs, broker.config)
    except ConfigError as e:
        raise config_error(e) from None
    if validate_only:
        return False
    broker.metadata.set_group_configs(group_id, configs)
    inert = sorted(n for n in configs if not GROUP_CONFIGS[n].acted)
    if inert:
        log.info("Group config%s %s of group %s stored and reported; kwire does not act on %s",
                 "s" if len(inert) > 1 else "", ", ".join(inert), group_id, "them" if len(inert) > 1 else "it")
    return True


def replace_client_metrics(broker, name: str, configs: dict[str, str | None], validate_only: bool) -> bool:
    """Validate a client metrics subscription's complete config set, then store it (an empty
    set deletes the subscription). True when a change was queued."""
    try:
        configs = validate_client_metrics(name, configs)
    except ConfigError as e:
        raise config_error(e) from None
    if validate_only:
        return False
    broker.metadata.set_client_metrics(name, configs)
    return True


# -- AlterConfigs ----------------------------------------------------------------------

def _alter(broker, resource, validate_only: bool) -> bool:
    check_config_list(resource.configs)
    wanted = {c.name: c.value for c in resource.configs}
    if resource.resource_type == TOPIC:
        check_topic_name(resource.resource_name)
        return replace_topic_overrides(broker, resource.resource_name, wanted, validate_only)
    if resource.resource_type == GROUP:
        check_group_name(resource.resource_name)
        return replace_group_configs(broker, resource.resource_name, wanted, validate_only)
    if resource.resource_type == CLIENT_METRICS:
        return replace_client_metrics(broker, resource.resource_name, wanted, validate_only)
    if resource.resource_type == BROKER:
        cluster_default = check_broker_name(broker, resource.resource_name)
        current = broker.config.dynamic_default if cluster_default else broker.config.dynamic
        ops = [(n, AlterOp.SET, v) for n, v in wanted.items()]
        ops += [(n, AlterOp.DELETE, None) for n in current if n not in wanted
                and not (cluster_default and n == "min.insync.replicas")]
        return alter_broker_dynamic(broker, ops, cluster_default, validate_only)
    raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown resource type {resource.resource_type}")


async def handle(ctx, req) -> AlterConfigsResponse:
    return AlterConfigsResponse(
        responses=await alter_each(ctx.broker, req, guard_config_alter(ctx, _alter),  # kwire.security
                                   AlterConfigsResourceResponse))

