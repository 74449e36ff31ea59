"""AlterUserScramCredentials (key 51), v0: add, replace or delete users' SCRAM credentials (KIP-554).

The client sends the salted password (PBKDF2 of the password, salt and
iterations), never the password; the broker keeps only StoredKey / ServerKey
with the salt and iterations (``kwire.security.scram``), in the metadata store.
Checks, per user, as Kafka's: an empty name or fewer than 4096 / more than
16384 iterations is UNACCEPTABLE_CREDENTIAL, an unknown mechanism
UNSUPPORTED_SASL_MECHANISM, a user altered twice in one request
DUPLICATE_RESOURCE, deleting a credential that does not exist
RESOURCE_NOT_FOUND. A user's changes apply only if all of them are valid.
Needs ALTER on the cluster. Answered once the change is durable. Existing
connections keep their authentication (as Kafka).
"""

from __future__ import annotations

from collections import Counter

from kwire.handlers.common import respond_when_durable
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.alter_user_scram_credentials_response import (
    AlterUserScramCredentialsResponse,
    AlterUserScramCredentialsResult,
)
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.security.scram import MAX_ITERATIONS, MECHANISM_CODES, MECHANISMS, from_salted_password

API_KEY = 51
MIN_VERSION = 0
MAX_VERSION = 0


def _check(item, deleting: bool) -> tuple[int, str] | None:
    if not item.name:
        return ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty"
    mech = MECHANISM_CODES.get(item.mechanism)
    if mech is None:
        return ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"
    if not deleting:
        if item.iterations < MECHANISMS[mech][1]:
            return ErrorCode.UNACCEPTABLE_CREDENTIAL, f"Too few iterations: {item.iterations}"
        if item.iterations > MAX_ITERATIONS:
            return ErrorCode.UNACCEPTABLE_CREDENTIAL, f"Too many iterations: {item.iterations}"
        if not item.salt or not item.salted_password:
            return ErrorCode.UNACCEPTABLE_CREDENTIAL, "Salt and salted password must not be empty"
    return None


def handle(ctx, req):
    users = list(dict.fromkeys([d.name for d in req.deletions] + [u.name for u in req.upsertions]))
    if not authorize(ctx, acl.ALTER, acl.CLUSTER, acl.CLUSTER_NAME):
        return AlterUserScramCredentialsResponse(results=[AlterUserScramCredentialsResult(
            user=u, error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED, error_message=None) for u in users])
    md = ctx.broker.metadata
    table = getattr(getattr(md, "image", None), "scram_credentials", None)
    if not hasattr(md, "set_scram_credential") or table is None:
        return AlterUserScramCredentialsResponse(results=[AlterUserScramCredentialsResult(
            user=u, error_code=ErrorCode.UNKNOWN_SERVER_ERROR,
            error_message="SCRAM credentials are not stored by this metadata store yet") for u in users])
    counts = Counter((i.name, i.mechanism) for i in list(req.deletions) + list(req.upsertions))
    errors: dict[str, tuple[int, str]] = {}
    for item, deleting in [(d, True) for d in req.deletions] + [(u, False) for u in req.upsertions]:
        if item.name in errors:
            continue
        if counts[(item.name, item.mechanism)] > 1:
            errors[item.name] = (ErrorCode.DUPLICATE_RESOURCE,
                                 "A user credential cannot be altered twice in the same request")
            continue
        bad = _check(item, deleting)
        if bad is None and deleting and MECHANISM_CODES[item.mechanism] not in table.get(item.name, {}):
            bad = (ErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist")
        if bad is not None:
            errors[item.name] = bad
    results, waiting = [], []
    for user in users:
        if user in errors:
            code, message = errors[user]
            results.append(AlterUserScramCredentialsResult(user=user, error_code=code, error_message=message))
            continue
        for d in req.deletions:
            if d.name == user:
                md.set_scram_credential(user, MECHANISM_CODES[d.mechanism], None)
        for u in req.upsertions:
            if u.name == user:
                mech = MECHANISM_CODES[u.mechanism]
                cred = from_salted_password(mech, bytes(u.salted_password), bytes(u.salt), u.iterations)
                md.set_scram_credential(user, mech, cred.to_record())
        results.append(AlterUserScramCredentialsResult(user=user, error_code=0, error_message=None))
        fut = md.durable()
        if fut is not None:
            waiting.append((len(results) - 1, fut))
    return respond_when_durable(AlterUserScramCredentialsResponse(results=results), results, waiting)
