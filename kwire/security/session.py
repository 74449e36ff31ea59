"""One connection's security state: listener, protocol, SASL progress, principal.

Sans-I/O. ``KafkaConnection`` asks ``check(api_key)`` before dispatching a
request; the SaslHandshake / SaslAuthenticate handlers drive ``handshake`` and
``authenticate``. The states are Kafka's SaslServerAuthenticator's:

    handshake_or_versions --ApiVersions--> handshake
            |                                  |
            +---------SaslHandshake v1---------+--> authenticate --ok--> complete
            +---------SaslHandshake v0---------+--> raw (tokens without Kafka framing) --ok--> complete
    complete --SaslHandshake v1 (KIP-368 re-authentication)--> authenticate

Anything else before ``complete`` is refused (the connection is closed, as
Kafka does). A failed authentication, a bad handshake or an unsupported
mechanism leaves ``close_after_response`` set: the connection sends that
answer and closes (``connection.failed.authentication.delay.ms`` later for a
failed authentication). With ``connections.max.reauth.ms`` > 0 a SASL
session expires: once expired, any request but a re-authentication closes
the connection (KIP-368). PLAINTEXT and SSL sessions are ``complete`` from
the start, with the ANONYMOUS or certificate principal.
"""

from __future__ import annotations

from time import monotonic

from kwire.security.errors import SaslAuthenticationError
from kwire.security.principal import ANONYMOUS, KafkaPrincipal

API_VERSIONS, SASL_HANDSHAKE, SASL_AUTHENTICATE = 18, 17, 36


class Session:
    def __init__(self, manager, listener: str, protocol: str, host: str) -> None:
        self.manager = manager
        self.listener = listener
        self.protocol = protocol
        self.host = host
        self.principal: KafkaPrincipal = ANONYMOUS
        self.sasl = protocol.startswith("SASL_")
        self.state = "handshake_or_versions" if self.sasl else "complete"
        self.mechanism: str | None = None
        self._server = None
        self.close_after_response: float | None = None  # seconds to wait, then close
        self.expires_at: float | None = None  # monotonic; KIP-368
        self.reauthenticating = False
        self.authentications = 0

    @property
    def authenticated(self) -> bool:
        return self.state == "complete"

    @property
    def raw(self) -> bool:
        """The next frames are SASL tokens without Kafka headers (after SaslHandshake v0)."""
        return self.state == "raw"

    def check(self, api_key: int, api_name: str) -> str | None:
        """None if a request of ``api_key`` may be handled now, else why the connection closes."""
        state = self.state
        if state == "complete":
            if self.expires_at is not None and api_key not in (SASL_HANDSHAKE, SASL_AUTHENTICATE) \
                    and monotonic() >= self.expires_at:
                return (f"the SASL session of {self.principal} expired (connections.max.reauth.ms) "
                        f"and the client sent {api_name} instead of re-authenticating")
            return None  # (a SaslAuthenticate out of turn is answered ILLEGAL_SASL_STATE by its handler)
        if state == "handshake_or_versions" and api_key in (API_VERSIONS, SASL_HANDSHAKE):
            return None
        if state == "handshake" and api_key == SASL_HANDSHAKE:
            return None
        if state == "authenticate" and api_key == SASL_AUTHENTICATE:
            return None
        if state == "failed":
            return "a request after failed authentication"
        return f"unexpected {api_name} request during SASL authentication (state {state})"

    def after_api_versions(self) -> None:
        if self.state == "handshake_or_versions":
            self.state = "handshake"

    # -- SaslHandshake --------------------------------------------------------------
    def handshake(self, mechanism: str, version: int) -> tuple[bool, list[str]]:
        """(ok, enabled mechanisms). Unsupported: the connection closes after the answer."""
        enabled = self.manager.mechanisms(self.listener)
        if not self.sasl:
            self.close_after_response = 0.0
            return False, enabled
        if self.state == "complete":
            # KIP-368: re-authentication, same mechanism only, Kafka framing only
            if version < 1 or mechanism != self.mechanism:
                self.close_after_response = 0.0
                self.state = "failed"
                return False, enabled
            self.reauthenticating = True
            self._server = self.manager.mechanism_server(self.listener, mechanism)
            return True, enabled
        if mechanism not in enabled:
            self.close_after_response = 0.0
            self.state = "failed"
            return False, enabled
        self.mechanism = mechanism
        self._server = self.manager.mechanism_server(self.listener, mechanism)
        self.state = "authenticate" if version >= 1 else "raw"
        return True, enabled

    # -- SaslAuthenticate (or a raw token) -------------------------------------------
    def authenticate(self, token: bytes) -> tuple[bytes, int]:
        """Feed one client token: (server token, session lifetime ms: 0 = none).

        Raises SaslAuthenticationError (the session is then ``failed`` and closes).
        """
        try:
            out = self._server.evaluate(token)
        except SaslAuthenticationError:
            self.state = "failed"
            self.close_after_response = self.manager.failed_auth_delay_s
            self.reauthenticating = False
            raise
        lifetime_ms = 0
        if self._server.complete:
            principal = KafkaPrincipal("User", self._server.user)
            if self.reauthenticating and principal != self.principal:
                self.state = "failed"
                self.close_after_response = 0.0
                raise SaslAuthenticationError(f"Cannot change principals during re-authentication "
                                              f"from {self.principal} to {principal}")
            self.principal = principal
            self.state = "complete"
            if self.reauthenticating:
                self.manager.reauthenticated[str(principal)] += 1
            self.reauthenticating = False
            self.authentications += 1
            self.manager.authenticated[str(principal)] += 1
            reauth_ms = self.manager.reauth_ms(self.listener)
            token_ms = getattr(self._server, "lifetime_ms", 0)  # OAUTHBEARER: not beyond the token
            if reauth_ms > 0:
                lifetime_ms = min(reauth_ms, token_ms) if token_ms else reauth_ms
                self.expires_at = monotonic() + lifetime_ms / 1000
        return out, lifetime_ms
