"""SaslAuthenticate (key 36), v0-2: one SASL token each way (KIP-152).

The token goes to the mechanism server chosen by SaslHandshake v1
(``kwire.security.session``). Success: the server's token, and from v1 the
session lifetime (``connections.max.reauth.ms``, KIP-368; 0 = none). Failure:
SASL_AUTHENTICATION_FAILED with Kafka's message, a log line, and the
connection closes ``connection.failed.authentication.delay.ms`` later; no
broker state is touched. A message out of sequence is ILLEGAL_SASL_STATE.
"""

from __future__ import annotations

import logging

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.sasl_authenticate_response import SaslAuthenticateResponse
from kwire.security.errors import SaslAuthenticationError

API_KEY = 36
MIN_VERSION = 0
MAX_VERSION = 2

log = logging.getLogger("kwire.security")


def handle(ctx, req) -> SaslAuthenticateResponse:
    session = ctx.session
    if session is None or not session.sasl or (session.state != "authenticate"
                                               and not session.reauthenticating):
        # no SASL here, or already authenticated: Kafka's KafkaApis answers, keeping the connection
        return SaslAuthenticateResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE,
                                        error_message="Unexpected SaslAuthenticate request",
                                        auth_bytes=b"")
    try:
        token, lifetime_ms = session.authenticate(req.auth_bytes)
    except SaslAuthenticationError as e:
        code = ErrorCode.ILLEGAL_SASL_STATE if e.illegal else ErrorCode.SASL_AUTHENTICATION_FAILED
        log.warning("%s:%d: SASL %s authentication failed on listener %s: %s", ctx.client_host,
                    ctx.client_port, session.mechanism, session.listener, e.message)
        return SaslAuthenticateResponse(error_code=code, error_message=e.message, auth_bytes=b"")
    if session.state == "complete":
        log.debug("%s:%d authenticated as %s (%s)", ctx.client_host, ctx.client_port,
                  session.principal, session.mechanism)
    return SaslAuthenticateResponse(error_code=0, error_message=None, auth_bytes=token,
                                    session_lifetime_ms=lifetime_ms)
