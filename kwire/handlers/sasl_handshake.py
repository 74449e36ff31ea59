"""SaslHandshake (key 17), v0-1: pick the SASL mechanism of this connection.

v1 (KIP-152): the tokens follow in SaslAuthenticate requests; v0: they follow
as raw length-prefixed frames without Kafka headers (``kwire.server.connection``
answers them). An unknown or disabled mechanism is answered with
UNSUPPORTED_SASL_MECHANISM and the listener's enabled mechanisms, and the
connection then closes, as Kafka's SaslServerAuthenticator does. On a
connection already authenticated a v1 handshake with the same mechanism starts
a re-authentication (KIP-368). On a listener without SASL (or outside a
server) the answer is ILLEGAL_SASL_STATE and the connection stays open (as
Kafka's KafkaApis).
"""

from __future__ import annotations

import logging

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.sasl_handshake_response import SaslHandshakeResponse

API_KEY = 17
MIN_VERSION = 0
MAX_VERSION = 1

log = logging.getLogger("kwire.security")


def handle(ctx, req) -> SaslHandshakeResponse:
    session = ctx.session
    if session is None or not session.sasl:  # Kafka's KafkaApis answers this, keeping the connection
        return SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=[])
    ok, enabled = session.handshake(req.mechanism, ctx.api_version)
    if ok:
        return SaslHandshakeResponse(error_code=0, mechanisms=enabled)
    if req.mechanism in enabled:  # a re-authentication that may not change mechanism or framing
        log.warning("%s:%d: refused SASL re-authentication with %s v%d", ctx.client_host,
                    ctx.client_port, req.mechanism, ctx.api_version)
        return SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=enabled)
    log.warning("%s:%d: unsupported SASL mechanism %r requested on listener %s (enabled: %s)",
                ctx.client_host, ctx.client_port, req.mechanism, session.listener, ", ".join(enabled))
    return SaslHandshakeResponse(error_code=ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms=enabled)
