"""SASL/OAUTHBEARER server (RFC 7628, KIP-255) with Kafka's unsecured JWS validator, for tests.

Kafka's default broker-side validator (``OAuthBearerUnsecuredValidatorCallbackHandler``)
accepts unsigned JWTs: header ``{"alg":"none"}``, a principal claim (``sub``, or
the JAAS option ``unsecuredValidatorPrincipalClaimName``), a required ``exp`` in
the future (with ``unsecuredValidatorAllowableClockSkewMs``, default 0), an
optional ``iat``, and, with ``unsecuredValidatorRequiredScope``, those scopes in
the ``scope`` claim. It is *not* authentication: anyone can mint such a token,
exactly as with Kafka's default; use it for development and tests only (a
warning is logged at start-up when a listener enables it).

Exchange: the client's first message is ``n,[a=authzid],`` ``\\x01auth=Bearer
<token>\\x01[key=value\\x01]...\\x01``. A valid token: an empty answer, the
principal is the claim's value, and the session may not outlive the token
(``lifetime_ms``). An invalid one: the answer is Kafka's error challenge
``{"status":"invalid_token"}``, the client answers ``\\x01``, and the exchange
fails with the reason.
"""

from __future__ import annotations

import base64
import json
import re
import time

from kwire.security.errors import SaslAuthenticationError

_MESSAGE = re.compile(r"^n,(?:a=(?P<authzid>[^,]*))?,\x01(?P<kvs>(?:[A-Za-z]+=[\x21-\x7E \t]*\x01)*)\x01$")


def _b64url(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


class OAuthBearerServer:
    mechanism = "OAUTHBEARER"

    def __init__(self, options: dict[str, str] | None = None, now=time.time) -> None:
        options = options or {}
        self.principal_claim = options.get("unsecuredValidatorPrincipalClaimName", "sub")
        self.skew_s = int(options.get("unsecuredValidatorAllowableClockSkewMs", "0")) / 1000
        self.required_scope = (options.get("unsecuredValidatorRequiredScope") or "").split()
        self._now = now
        self.complete = False
        self.user: str | None = None
        self.lifetime_ms = 0
        self._error: str | None = None

    def evaluate(self, token: bytes) -> bytes:
        if self._error is not None:  # the client's \x01 after our error challenge
            raise SaslAuthenticationError(f"Authentication failed: {self._error}")
        if self.complete:
            raise SaslAuthenticationError("OAUTHBEARER authentication already complete", illegal=True)
        try:
            text = bytes(token).decode("utf-8")
        except UnicodeDecodeError:
            raise SaslAuthenticationError("Invalid OAUTHBEARER client first message: not UTF-8") from None
        m = _MESSAGE.match(text)
        if not m:
            raise SaslAuthenticationError("Invalid OAUTHBEARER client first message")
        kvs = dict(kv.split("=", 1) for kv in m.group("kvs").split("\x01") if kv)
        auth = kvs.get("auth", "")
        if not auth.startswith("Bearer "):
            raise SaslAuthenticationError("Invalid OAUTHBEARER client first message: no auth=Bearer")
        why, principal, exp = self._validate(auth[len("Bearer "):].strip())
        if why is not None:
            self._error = why
            return json.dumps({"status": "invalid_token"}).encode()
        authzid = m.group("authzid")
        if authzid and authzid != principal:
            raise SaslAuthenticationError(f"Authentication failed: Client requested an authorization id "
                                          f"({authzid}) that is different from the token's principal name "
                                          f"({principal})")
        self.user = principal
        self.lifetime_ms = max(int((exp - self._now()) * 1000), 1)
        self.complete = True
        return b""

    def _validate(self, jws: str) -> tuple[str | None, str | None, float]:
        parts = jws.split(".")
        if len(parts) != 3:
            return "the token is not a JWS compact serialization", None, 0
        try:
            header, claims = json.loads(_b64url(parts[0])), json.loads(_b64url(parts[1]))
        except ValueError:
            return "the token's header or claims are not base64url JSON", None, 0
        if not isinstance(header, dict) or header.get("alg") != "none":
            return "the unsecured validator accepts only alg=none tokens", None, 0
        if not isinstance(claims, dict):
            return "the token's claims are not a JSON object", None, 0
        principal = claims.get(self.principal_claim)
        if not isinstance(principal, str) or not principal:
            return f"the token has no '{self.principal_claim}' claim", None, 0
        exp = claims.get("exp")
        if not isinstance(exp, (int, float)):
            return "the token has no 'exp' claim", None, 0
        now = self._now()
        if exp + self.skew_s <= now:
            return f"the token expired at {exp}", None, 0
        iat = claims.get("iat")
        if iat is not None and (not isinstance(iat, (int, float)) or iat - self.skew_s > now):
            return "the token's 'iat' is in the future", None, 0
        if self.required_scope:
            scope = claims.get("scope", [])
            scopes = scope.split() if isinstance(scope, str) else list(scope or [])
            missing = [s for s in self.required_scope if s not in scopes]
            if missing:
                return f"the token lacks the required scope {missing}", None, 0
        return None, principal, float(exp)
