"""AlterClientQuotas (key 49), v0-1: set or remove client quotas (KIP-546).

Entities are ``user``, ``client-id`` (either or both; a null name is the
default entity) or ``ip``; keys are Kafka's (``producer_byte_rate``,
``consumer_byte_rate``, ``request_percentage``, ``controller_mutation_rate``;
``connection_creation_rate`` for ip). An unknown type or key, a duplicate or
mixed entity, or a value <= 0 is INVALID_REQUEST for that entry alone; an
entity given twice in one request is INVALID_REQUEST for both.
``validate_only`` checks without changing. Needs ALTER_CONFIGS on the cluster.
Stored in the metadata store; answered once durable. All are enforced:
byte rates and ``request_percentage`` by ``kwire.security.request_quotas``,
``controller_mutation_rate`` by ``kwire.security.mutation_quota``,
``connection_creation_rate`` by ``kwire.security.connection_quotas``.
"""

from __future__ import annotations

from collections import Counter

from kwire.handlers.common import respond_when_durable
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.alter_client_quotas_response import (
    AlterClientQuotasResponse,
    EntityData,
    EntryData,
)
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.security.client_quotas import entity_key, validate

API_KEY = 49
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req):
    entries = []
    keys = [entity_key((e.entity_type, e.entity_name) for e in entry.entity) for entry in req.entries]
    counts = Counter(keys)
    md = ctx.broker.metadata
    table = getattr(getattr(md, "image", None), "client_quotas", None)
    may = authorize(ctx, acl.ALTER_CONFIGS, acl.CLUSTER, acl.CLUSTER_NAME)
    waiting = []
    for entry, key in zip(req.entries, keys):
        out = EntryData(error_code=0, error_message=None, entity=[
            EntityData(entity_type=e.entity_type, entity_name=e.entity_name) for e in entry.entity])
        entries.append(out)
        ops = [(op.key, None if op.remove else op.value) for op in entry.ops]
        why = None
        if not may:
            out.error_code = ErrorCode.CLUSTER_AUTHORIZATION_FAILED
            continue
        if table is None or not hasattr(md, "set_client_quota"):
            out.error_code, out.error_message = ErrorCode.UNKNOWN_SERVER_ERROR, "quotas are not stored yet"
            continue
        if counts[key] > 1:
            why = "Duplicate quota entity in the request"
        elif len({k for k, _ in ops}) != len(ops):
            why = "Duplicate quota key for the entity"
        else:
            why = validate(key, ops)
        if why is not None:
            out.error_code, out.error_message = ErrorCode.INVALID_REQUEST, why
            continue
        if req.validate_only:
            continue
        values = dict(table.get(key, {}))
        for k, v in ops:
            if v is None:
                values.pop(k, None)
            else:
                values[k] = v
        md.set_client_quota(key, values)
        fut = md.durable()
        if fut is not None:
            waiting.append((len(entries) - 1, fut))
    return respond_when_durable(AlterClientQuotasResponse(entries=entries), entries, waiting)
