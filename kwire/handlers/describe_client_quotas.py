"""DescribeClientQuotas (key 48), v0-1: the client quotas matching a filter (KIP-546).

Each component filters one entity type: match type 0 (exact name), 1 (the
default entity) or 2 (any specified, i.e. non-default, name). ``strict``:
only entities of exactly the filtered types; otherwise entities that also
have other types match too. A component with an unknown match type, an
exact match without a name, or a type given twice is INVALID_REQUEST. Needs
DESCRIBE_CONFIGS on the cluster.
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.describe_client_quotas_response import (
    DescribeClientQuotasResponse,
    EntityData,
    EntryData,
    ValueData,
)
from kwire.security import acl
from kwire.security.authorizer import authorize

API_KEY = 48
MIN_VERSION = 0
MAX_VERSION = 1
EXACT, DEFAULT, SPECIFIED = 0, 1, 2


def _error(code, message) -> DescribeClientQuotasResponse:
    return DescribeClientQuotasResponse(error_code=code, error_message=message, entries=None)


def handle(ctx, req) -> DescribeClientQuotasResponse:
    if not authorize(ctx, acl.DESCRIBE_CONFIGS, acl.CLUSTER, acl.CLUSTER_NAME):
        return _error(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, None)
    filters = {}
    for c in req.components:
        if c.entity_type in filters:
            return _error(ErrorCode.INVALID_REQUEST, f"Duplicate filter entity type: {c.entity_type}")
        if c.match_type not in (EXACT, DEFAULT, SPECIFIED) or (c.match_type == EXACT and c.match is None):
            return _error(ErrorCode.INVALID_REQUEST, f"Invalid match for entity type {c.entity_type}")
        filters[c.entity_type] = c
    table = getattr(getattr(ctx.broker.metadata, "image", None), "client_quotas", None) or {}
    entries = []
    for entity, values in sorted(table.items(), key=lambda kv: repr(kv[0])):
        names = dict(entity)
        if req.strict and set(names) != set(filters):
            continue
        ok = True
        for t, c in filters.items():
            if t not in names:
                ok = False
            elif c.match_type == EXACT:
                ok = names[t] == c.match
            elif c.match_type == DEFAULT:
                ok = names[t] is None
            else:
                ok = names[t] is not None
            if not ok:
                break
        if ok and values:
            entries.append(EntryData(entity=[EntityData(entity_type=t, entity_name=n) for t, n in entity],
                                     values=[ValueData(key=k, value=float(v)) for k, v in sorted(values.items())]))
    return DescribeClientQuotasResponse(error_code=0, error_message=None, entries=entries)
