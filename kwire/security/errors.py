"""Exceptions of the SASL mechanism servers (no I/O, no protocol types)."""

from __future__ import annotations


class SaslAuthenticationError(Exception):
    """Authentication failed: SASL_AUTHENTICATION_FAILED, then the connection is closed.

    ``illegal`` marks a message out of sequence (ILLEGAL_SASL_STATE in Kafka).
    """

    def __init__(self, message: str, *, illegal: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.illegal = illegal
