"""DeleteAcls (key 31), v1-3: remove the ACL bindings matching each filter.

Without an authorizer every filter is answered SECURITY_DISABLED, as Kafka.
With one: needs ALTER on the cluster; each filter's result lists the
bindings it removed; an UNKNOWN value in a filter is INVALID_REQUEST.
Answered once the removal is durable.
"""

from __future__ import annotations

from kwire.handlers.common import respond_when_durable
from kwire.handlers.describe_acls import NO_AUTHORIZER
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.delete_acls_response import (
    DeleteAclsFilterResult,
    DeleteAclsMatchingAcl,
    DeleteAclsResponse,
)
from kwire.security import acl
from kwire.security.authorizer import authorize, authorizer_of

API_KEY = 31
MIN_VERSION = 1
MAX_VERSION = 3


def _filter(r) -> acl.AclFilter:
    return acl.AclFilter(r.resource_type_filter, r.resource_name_filter, r.pattern_type_filter,
                         r.principal_filter, r.host_filter, r.operation, r.permission_type)


def handle(ctx, req):
    authorizer = authorizer_of(ctx)
    n = len(req.filters)
    if authorizer is None:
        return DeleteAclsResponse(filter_results=[DeleteAclsFilterResult(
            error_code=ErrorCode.SECURITY_DISABLED, error_message=NO_AUTHORIZER, matching_acls=[])
            for _ in range(n)])
    if not authorize(ctx, acl.ALTER, acl.CLUSTER, acl.CLUSTER_NAME):
        return DeleteAclsResponse(filter_results=[DeleteAclsFilterResult(
            error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED, error_message=None, matching_acls=[])
            for _ in range(n)])
    current = sorted(authorizer.acls())
    results, removed = [], set()
    for r in req.filters:
        f = _filter(r)
        why = acl.filter_error(f)
        if why is not None:
            results.append(DeleteAclsFilterResult(error_code=ErrorCode.INVALID_REQUEST, error_message=why,
                                                  matching_acls=[]))
            continue
        matched = [b for b in current if acl.matches_filter(b, f)]
        removed.update(matched)
        results.append(DeleteAclsFilterResult(error_code=0, error_message=None, matching_acls=[
            DeleteAclsMatchingAcl(error_code=0, error_message=None, resource_type=b.resource_type,
                                  resource_name=b.resource_name, pattern_type=b.pattern_type,
                                  principal=b.principal, host=b.host, operation=b.operation,
                                  permission_type=b.permission) for b in matched]))
    response = DeleteAclsResponse(filter_results=results)
    md = ctx.broker.metadata
    if not removed or not hasattr(md, "change_acls"):
        return response
    md.change_acls(sorted(removed), False)
    fut = md.durable()
    return respond_when_durable(response, results, [] if fut is None else
                                [(i, fut) for i, r in enumerate(results) if r.error_code == 0])
