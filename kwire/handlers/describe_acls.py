"""DescribeAcls (key 29), v1-3: the ACL bindings matching one filter.

Without an authorizer: SECURITY_DISABLED ("No Authorizer is configured on the
broker"), as Kafka (before this module the connection was closed on key 29).
With one: needs DESCRIBE on the cluster; an UNKNOWN value in the filter is
INVALID_REQUEST; bindings are grouped by resource pattern.
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.describe_acls_response import (
    AclDescription,
    DescribeAclsResource,
    DescribeAclsResponse,
)
from kwire.security import acl
from kwire.security.authorizer import authorize, authorizer_of

API_KEY = 29
MIN_VERSION = 1
MAX_VERSION = 3

NO_AUTHORIZER = "No Authorizer is configured on the broker"


def filter_of(r) -> acl.AclFilter:
    return acl.AclFilter(r.resource_type_filter, r.resource_name_filter, r.pattern_type_filter,
                         r.principal_filter, r.host_filter, r.operation, r.permission_type)


def handle(ctx, req) -> DescribeAclsResponse:
    authorizer = authorizer_of(ctx)
    if authorizer is None:
        return DescribeAclsResponse(error_code=ErrorCode.SECURITY_DISABLED, error_message=NO_AUTHORIZER,
                                    resources=[])
    if not authorize(ctx, acl.DESCRIBE, acl.CLUSTER, acl.CLUSTER_NAME):
        return DescribeAclsResponse(error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED, error_message=None,
                                    resources=[])
    f = filter_of(req)
    why = acl.filter_error(f)
    if why is not None:
        return DescribeAclsResponse(error_code=ErrorCode.INVALID_REQUEST, error_message=why, resources=[])
    groups: dict[tuple, list] = {}
    for b in sorted(authorizer.acls()):
        if acl.matches_filter(b, f):
            groups.setdefault((b.resource_type, b.resource_name, b.pattern_type), []).append(
                AclDescription(principal=b.principal, host=b.host, operation=b.operation,
                               permission_type=b.permission))
    resources = [DescribeAclsResource(resource_type=t, resource_name=n, pattern_type=p, acls=a)
                 for (t, n, p), a in groups.items()]
    return DescribeAclsResponse(error_code=0, error_message=None, resources=resources)
