"""CreateAcls (key 30), v1-3: add ACL bindings (KIP-290 pattern types from v1).

Without an authorizer (``authorizer.class.name`` unset) every creation is
answered SECURITY_DISABLED ("No Authorizer is configured on the broker"), as
Kafka does. With one: needs ALTER on the cluster (CLUSTER_AUTHORIZATION_FAILED
per creation); an invalid binding (unknown/ANY/MATCH type, empty name, a
CLUSTER name other than kafka-cluster, an unparseable principal, ...) is
INVALID_REQUEST with Kafka's reason and a log line, the valid ones of the
same request are created. Stored in the metadata store; answered once durable.
"""

from __future__ import annotations

import logging

from kwire.handlers.common import respond_when_durable
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.create_acls_response import AclCreationResult, CreateAclsResponse
from kwire.security import acl
from kwire.security.authorizer import authorize, authorizer_of

API_KEY = 30
MIN_VERSION = 1
MAX_VERSION = 3

NO_AUTHORIZER = "No Authorizer is configured on the broker"
log = logging.getLogger("kwire.authorizer")


def handle(ctx, req):
    n = len(req.creations)
    if authorizer_of(ctx) is None:
        return CreateAclsResponse(results=[AclCreationResult(
            error_code=ErrorCode.SECURITY_DISABLED, error_message=NO_AUTHORIZER) for _ in range(n)])
    if not authorize(ctx, acl.ALTER, acl.CLUSTER, acl.CLUSTER_NAME):
        return CreateAclsResponse(results=[AclCreationResult(
            error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED, error_message=None) for _ in range(n)])
    md = ctx.broker.metadata
    results, valid = [], []
    for c in req.creations:
        b = acl.AclBinding(c.resource_type, c.resource_name, c.resource_pattern_type, c.principal, c.host,
                           c.operation, c.permission_type)
        why = acl.validate(b)
        if why is not None:
            log.warning("%s:%d: refused to create ACL %s: %s", ctx.client_host, ctx.client_port, b, why)
            results.append(AclCreationResult(error_code=ErrorCode.INVALID_REQUEST, error_message=why))
        else:
            valid.append(b)
            results.append(AclCreationResult(error_code=0, error_message=None))
    response = CreateAclsResponse(results=results)
    if not valid:
        return response
    if not hasattr(md, "change_acls"):
        for r in results:
            if r.error_code == 0:
                r.error_code, r.error_message = ErrorCode.UNKNOWN_SERVER_ERROR, "ACLs are not stored yet"
        return response
    md.change_acls(valid, True)
    fut = md.durable()
    return respond_when_durable(response, results, [] if fut is None else
                                [(i, fut) for i, r in enumerate(results) if r.error_code == 0])
