"""Kafka's ACL model: bindings, filters, validation and matching (pure, no I/O).

An ``AclBinding`` is (resource type, resource name, pattern type, principal,
host, operation, permission), codes as Kafka's ``ResourceType``,
``PatternType``, ``AclOperation``, ``AclPermissionType``. ``matches_filter``
is Kafka's ``AclBindingFilter.matches`` (ANY / null fields match anything;
pattern type MATCH matches the LITERAL name, the ``*`` wildcard and every
PREFIXED prefix of the name). ``validate`` gives Kafka's reason an ACL cannot
be created (INVALID_REQUEST) or None. ``decide`` is the AclAuthorizer's
decision for one principal/host/operation/resource over the ACLs of that
resource: a DENY match wins, then an ALLOW match (READ, WRITE, DELETE or
ALTER imply DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS), else denied.
"""

from __future__ import annotations

from typing import NamedTuple

# ResourceType
R_UNKNOWN, R_ANY, TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID, DELEGATION_TOKEN, USER = range(8)
# PatternType
P_UNKNOWN, P_ANY, MATCH, LITERAL, PREFIXED = range(5)
# AclOperation
(O_UNKNOWN, O_ANY, ALL, READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, CLUSTER_ACTION,
 DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, CREATE_TOKENS, DESCRIBE_TOKENS,
 TWO_PHASE_COMMIT) = range(16)
# AclPermissionType
A_UNKNOWN, A_ANY, DENY, ALLOW = range(4)

WILDCARD = "*"
CLUSTER_NAME = "kafka-cluster"

RESOURCE_NAMES = {TOPIC: "TOPIC", GROUP: "GROUP", CLUSTER: "CLUSTER", TRANSACTIONAL_ID: "TRANSACTIONAL_ID",
                  DELEGATION_TOKEN: "DELEGATION_TOKEN", USER: "USER"}
PATTERN_NAMES = {LITERAL: "LITERAL", PREFIXED: "PREFIXED"}
OPERATION_NAMES = {ALL: "ALL", READ: "READ", WRITE: "WRITE", CREATE: "CREATE", DELETE: "DELETE",
                   ALTER: "ALTER", DESCRIBE: "DESCRIBE", CLUSTER_ACTION: "CLUSTER_ACTION",
                   DESCRIBE_CONFIGS: "DESCRIBE_CONFIGS", ALTER_CONFIGS: "ALTER_CONFIGS",
                   IDEMPOTENT_WRITE: "IDEMPOTENT_WRITE", CREATE_TOKENS: "CREATE_TOKENS",
                   DESCRIBE_TOKENS: "DESCRIBE_TOKENS", TWO_PHASE_COMMIT: "TWO_PHASE_COMMIT"}
PERMISSION_NAMES = {ALLOW: "ALLOW", DENY: "DENY"}

_IMPLIES = {DESCRIBE: (DESCRIBE, READ, WRITE, DELETE, ALTER), DESCRIBE_CONFIGS: (DESCRIBE_CONFIGS, ALTER_CONFIGS)}


class AclBinding(NamedTuple):
    resource_type: int
    resource_name: str
    pattern_type: int
    principal: str
    host: str
    operation: int
    permission: int


class AclFilter(NamedTuple):
    resource_type: int
    resource_name: str | None
    pattern_type: int
    principal: str | None
    host: str | None
    operation: int
    permission: int


def validate(b: AclBinding) -> str | None:
    """Why Kafka refuses to create this ACL (INVALID_REQUEST), or None."""
    if b.resource_type not in RESOURCE_NAMES:
        return f"Invalid resource type {b.resource_type}"
    if b.pattern_type not in PATTERN_NAMES:
        return f"Invalid pattern type {b.pattern_type}: only LITERAL and PREFIXED ACLs can be created"
    if b.operation not in OPERATION_NAMES:
        return f"Invalid operation {b.operation}"
    if b.permission not in PERMISSION_NAMES:
        return f"Invalid permission type {b.permission}"
    if not b.resource_name:
        return "Resource name must not be empty"
    if b.resource_type == CLUSTER and b.resource_name != CLUSTER_NAME:
        return f"The only valid name for the CLUSTER resource is {CLUSTER_NAME}"
    if b.pattern_type == PREFIXED and b.resource_name == WILDCARD:
        return "A PREFIXED ACL cannot use the wildcard resource name '*'"
    kind, sep, _ = (b.principal or "").partition(":")
    if not sep or not kind:
        return f"Could not parse principal from `{b.principal}` (no colon is present separating the " \
               "principal type from the principal name)"
    if not b.host:
        return "Host must not be empty (use '*' for any host)"
    return None


def filter_error(f: AclFilter) -> str | None:
    """Why a DescribeAcls / DeleteAcls filter is invalid, or None."""
    if f.resource_type == R_UNKNOWN or f.pattern_type == P_UNKNOWN or f.operation == O_UNKNOWN \
            or f.permission == A_UNKNOWN:
        return "The filter has an UNKNOWN value"
    return None


def matches_filter(b: AclBinding, f: AclFilter) -> bool:
    if f.resource_type != R_ANY and f.resource_type != b.resource_type:
        return False
    if f.pattern_type == MATCH:
        if f.resource_name is not None:
            name = f.resource_name
            if b.pattern_type == LITERAL:
                if b.resource_name not in (name, WILDCARD):
                    return False
            elif not name.startswith(b.resource_name):
                return False
    else:
        if f.pattern_type != P_ANY and f.pattern_type != b.pattern_type:
            return False
        if f.resource_name is not None and f.resource_name != b.resource_name:
            return False
    if f.principal is not None and f.principal != b.principal:
        return False
    if f.host is not None and f.host != b.host:
        return False
    if f.operation != O_ANY and f.operation != b.operation:
        return False
    if f.permission != A_ANY and f.permission != b.permission:
        return False
    return True


def resource_acls(acls, resource_type: int, name: str) -> list[AclBinding]:
    """The ACLs that apply to one resource: its literal name, the wildcard, matching prefixes."""
    out = []
    for b in acls:
        if b.resource_type != resource_type:
            continue
        if b.pattern_type == LITERAL:
            if b.resource_name == name or b.resource_name == WILDCARD:
                out.append(b)
        elif b.pattern_type == PREFIXED and name.startswith(b.resource_name):
            out.append(b)
    return out


def decide(acls: list[AclBinding], principal: str, host: str, operation: int) -> bool:
    """Kafka's AclAuthorizer over one resource's ACLs: DENY wins, then ALLOW, else denied."""
    principals = (principal, "User:*")
    for b in acls:
        if b.permission == DENY and b.principal in principals and b.host in (host, WILDCARD) \
                and b.operation in (operation, ALL):
            return False
    allowed_ops = _IMPLIES.get(operation, (operation,))
    for b in acls:
        if b.permission == ALLOW and b.principal in principals and b.host in (host, WILDCARD) \
                and (b.operation == ALL or b.operation in allowed_ops):
            return True
    return False


def to_record(b: AclBinding) -> list:
    return list(b)


def from_record(r: list) -> AclBinding:
    return AclBinding(*r)

# error codes handlers answer (Kafka's Errors), here so a handler needs one import
TOPIC_AUTHORIZATION_FAILED, GROUP_AUTHORIZATION_FAILED, CLUSTER_AUTHORIZATION_FAILED = 29, 30, 31
TRANSACTIONAL_ID_AUTHORIZATION_FAILED = 53
