"""DescribeUserScramCredentials (key 50), v0: which SCRAM mechanisms (and iterations) each user has.

No passwords, salts or keys are ever answered: only (mechanism, iterations),
as Kafka. ``users`` null or empty: every user with a credential. A named user
without one is RESOURCE_NOT_FOUND ("Attempt to describe a user credential
that does not exist"); a name given twice is DUPLICATE_RESOURCE. Needs
DESCRIBE on the cluster (else CLUSTER_AUTHORIZATION_FAILED for the whole
response).
"""

from __future__ import annotations

from collections import Counter

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.describe_user_scram_credentials_response import (
    CredentialInfo,
    DescribeUserScramCredentialsResponse,
    DescribeUserScramCredentialsResult,
)
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.security.scram import CODE_OF

API_KEY = 50
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> DescribeUserScramCredentialsResponse:
    if not authorize(ctx, acl.DESCRIBE, acl.CLUSTER, acl.CLUSTER_NAME):
        return DescribeUserScramCredentialsResponse(
            error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED, error_message=None, results=[])
    table = getattr(getattr(ctx.broker.metadata, "image", None), "scram_credentials", None) or {}
    names = [u.name for u in req.users] if req.users else sorted(table)
    counts = Counter(names)
    results = []
    for name in dict.fromkeys(names):
        if counts[name] > 1:
            results.append(DescribeUserScramCredentialsResult(
                user=name, error_code=ErrorCode.DUPLICATE_RESOURCE,
                error_message=f"Cannot describe SCRAM credentials for the same user twice in a single "
                              f"request: {name}", credential_infos=[]))
            continue
        creds = table.get(name)
        if not creds:
            results.append(DescribeUserScramCredentialsResult(
                user=name, error_code=ErrorCode.RESOURCE_NOT_FOUND,
                error_message=f"Attempt to describe a user credential that does not exist: {name}",
                credential_infos=[]))
            continue
        infos = [CredentialInfo(mechanism=CODE_OF[m], iterations=c["iterations"])
                 for m, c in sorted(creds.items()) if m in CODE_OF]
        results.append(DescribeUserScramCredentialsResult(user=name, error_code=0, error_message=None,
                                                          credential_infos=infos))
    return DescribeUserScramCredentialsResponse(error_code=0, error_message=None, results=results)
