"""The authorizer: Kafka's ACL model over the ACLs in the metadata store, and the calls handlers make.

``Authorizer`` is on when ``authorizer.class.name`` names one of Kafka's ACL
authorizers. ``super.users`` (``User:a;User:b``) may do everything;
``allow.everyone.if.no.acl.found`` (default false) allows a resource that has
no ACL at all. ACLs live in the metadata image (``image.acls``), changed only
through the metadata store (``change_acls``; ZooKeeper's znodes in a
cluster), so every broker decides alike.

What handlers call (each True / None without an authorizer or outside a server):

* ``authorize(ctx, operation, resource_type, name)`` — the decision for the
  request's principal and host; ``active(ctx)`` + ``allowed(...)`` for loops;
* ``authorize_any(ctx, operation, resource_type)`` — Kafka's
  ``authorizeByResourceType`` (KIP-679, idempotent producers);
* ``config_denied`` / ``guard_config_alter`` / ``denied_describe_configs`` —
  DescribeConfigs / (Incremental)AlterConfigs per resource type;
* ``txn_partitions_denied`` — AddPartitionsToTxn's per-partition answer;
* ``cluster_gate`` — whole-request checks of ``CLUSTER_GATED`` APIs, made by
  the server before the handler runs.

Denials are logged at DEBUG (Kafka's authorizer log is off by default too).
"""

from __future__ import annotations

import logging

from kwire.security import acl

log = logging.getLogger("kwire.authorizer")


class Authorizer:
    def __init__(self, broker, super_users: str | None, allow_if_no_acl: str | None) -> None:
        self.broker = broker
        self.super_users = {p.strip() for p in (super_users or "").split(";") if p.strip()}
        self.allow_everyone_if_no_acl = (allow_if_no_acl or "false").strip().lower() == "true"

    def acls(self) -> set:
        image = getattr(getattr(self.broker, "metadata", None), "image", None)
        return getattr(image, "acls", None) or set()

    def allowed(self, principal: str, host: str, operation: int, resource_type: int, name: str) -> bool:
        if principal in self.super_users:
            return True
        found = acl.resource_acls(self.acls(), resource_type, name)
        if not found:
            ok = self.allow_everyone_if_no_acl
        else:
            ok = acl.decide(found, principal, host, operation)
        if not ok:
            log.debug("Principal = %s is Denied operation = %s from host = %s on resource = %s:%s",
                      principal, acl.OPERATION_NAMES.get(operation, operation), host,
                      acl.RESOURCE_NAMES.get(resource_type, resource_type), name)
        return ok


def authorizer_of(ctx):
    security = getattr(ctx.broker, "security", None)
    return getattr(security, "authorizer", None)


def authorize(ctx, operation: int, resource_type: int, name: str) -> bool:
    """May this request's principal do ``operation`` on the resource? (True: no authorizer)."""
    session = ctx.session
    if session is None:
        return True
    authorizer = session.manager.authorizer
    if authorizer is None:
        return True
    return authorizer.allowed(str(session.principal), ctx.client_host, operation, resource_type, name)


def active(ctx):
    """The authorizer deciding for this request's connection, or None (then everything is allowed).

    Handlers that check many resources take it once: ``az = active(ctx)``, then
    ``az is None or allowed(ctx, az, op, type, name)``."""
    session = ctx.session
    if session is None:
        return None
    return session.manager.authorizer


def allowed(ctx, az, operation: int, resource_type: int, name: str) -> bool:
    return az.allowed(str(ctx.session.principal), ctx.client_host, operation, resource_type, name)


# APIs Kafka authorizes as a whole against the cluster resource (KafkaApis): without the
# operation every item of the response carries CLUSTER_AUTHORIZATION_FAILED (built by
# kwire.protocol.error_response, as Kafka's getErrorResponse). The server checks these before
# the handler runs; per-resource checks are in the handlers themselves.
CLUSTER_GATED = {
    27: (acl.ALTER, acl.CLUSTER_ACTION),  # WriteTxnMarkers: either (admin abort, KIP-664; brokers)
    34: acl.ALTER,  # AlterReplicaLogDirs
    35: acl.DESCRIBE,  # DescribeLogDirs
    43: acl.ALTER,  # ElectLeaders
    45: acl.ALTER,  # AlterPartitionReassignments
    46: acl.DESCRIBE,  # ListPartitionReassignments
}


def cluster_gate(ctx, request):
    """The CLUSTER_AUTHORIZATION_FAILED response to a cluster-gated request the principal may not
    make, or None to go on."""
    ops = CLUSTER_GATED.get(ctx.api_key)
    if ops is None:
        return None
    ops = ops if isinstance(ops, tuple) else (ops,)
    if any(authorize(ctx, op, acl.CLUSTER, acl.CLUSTER_NAME) for op in ops):
        return None
    from kwire.protocol.error_response import error_response

    log.info("Principal = %s is Denied %s on the cluster (API key %d)", ctx.session.principal,
             "/".join(acl.OPERATION_NAMES[op] for op in ops), ctx.api_key)
    return error_response(ctx.api_key, ctx.api_version, request, acl.CLUSTER_AUTHORIZATION_FAILED,
                          "Cluster authorization failed.")


# DescribeConfigs / AlterConfigs resource types (Kafka's ConfigResource.Type codes)
_CONFIG_RESOURCES = {2: (acl.TOPIC, acl.TOPIC_AUTHORIZATION_FAILED),
                     32: (acl.GROUP, acl.GROUP_AUTHORIZATION_FAILED)}


def config_denied(ctx, resource_type: int, name: str, operation: int) -> int | None:
    """The error for a config resource the principal may not DESCRIBE_CONFIGS / ALTER_CONFIGS
    (topics and groups by name; brokers, broker loggers, client metrics on the cluster)."""
    rt, code = _CONFIG_RESOURCES.get(resource_type, (acl.CLUSTER, acl.CLUSTER_AUTHORIZATION_FAILED))
    if authorize(ctx, operation, rt, name if rt != acl.CLUSTER else acl.CLUSTER_NAME):
        return None
    return code


def guard_config_alter(ctx, alter):
    """Wrap an (Incremental)AlterConfigs per-resource ``alter(broker, resource, validate_only)``
    so that a resource without ALTER_CONFIGS is refused with Kafka's error."""
    if active(ctx) is None:
        return alter

    def run(broker, r, validate_only):
        code = config_denied(ctx, r.resource_type, r.resource_name, acl.ALTER_CONFIGS)
        if code is not None:
            from kwire.protocol.errors import KafkaError

            raise KafkaError(code, "Authorization failed.")
        return alter(broker, r, validate_only)
    return run


def denied_describe_configs(ctx, resource):
    """DescribeConfigs: the refused result for a resource without DESCRIBE_CONFIGS, or None."""
    code = config_denied(ctx, resource.resource_type, resource.resource_name, acl.DESCRIBE_CONFIGS) \
        if active(ctx) is not None else None
    if code is None:
        return None
    from kwire.protocol.generated.describe_configs_response import DescribeConfigsResult

    return DescribeConfigsResult(error_code=code, error_message="Authorization failed.",
                                 resource_type=resource.resource_type, resource_name=resource.resource_name,
                                 configs=[])


def txn_partitions_denied(ctx, transactional_id: str, topics) -> dict | None:
    """AddPartitionsToTxn: None if allowed, else {(topic, partition): error} as Kafka answers it
    (TRANSACTIONAL_ID_AUTHORIZATION_FAILED for all without WRITE on the transactional id; else
    TOPIC_AUTHORIZATION_FAILED for topics without WRITE and OPERATION_NOT_ATTEMPTED for the rest)."""
    if active(ctx) is None:
        return None
    parts = [(t.name, p) for t in topics for p in t.partitions]
    if not authorize(ctx, acl.WRITE, acl.TRANSACTIONAL_ID, transactional_id):
        return {tp: acl.TRANSACTIONAL_ID_AUTHORIZATION_FAILED for tp in parts}
    denied = {t.name for t in topics if not authorize(ctx, acl.WRITE, acl.TOPIC, t.name)}
    if not denied:
        return None
    return {(t, p): acl.TOPIC_AUTHORIZATION_FAILED if t in denied else OPERATION_NOT_ATTEMPTED for t, p in parts}


OPERATION_NOT_ATTEMPTED = 55


def authorize_any(ctx, operation: int, resource_type: int) -> bool:
    """Kafka's ``authorizeByResourceType`` (KIP-679): may the principal do ``operation`` on *some*
    resource of this type? True for a super user, or when an ALLOW binding for the principal
    (or ``User:*``) and host grants it and no DENY binding for the wildcard name (``*``) or the
    empty prefix takes it back. (True without an authorizer.)"""
    az = active(ctx)
    if az is None:
        return True
    principal, host = str(ctx.session.principal), ctx.client_host
    if principal in az.super_users:
        return True
    principals, hosts, ops = (principal, "User:*"), (host, "*"), (operation, acl.ALL)
    mine = [b for b in az.acls() if b.resource_type == resource_type and b.principal in principals
            and b.host in hosts and b.operation in ops]
    if any(b.permission == acl.DENY and ((b.pattern_type == acl.LITERAL and b.resource_name == "*")
                                         or (b.pattern_type == acl.PREFIXED and b.resource_name == ""))
           for b in mine):
        return False
    if any(b.permission == acl.ALLOW for b in mine):
        return True
    return az.allow_everyone_if_no_acl and not any(b.resource_type == resource_type for b in az.acls())
