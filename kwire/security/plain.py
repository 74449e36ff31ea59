"""SASL/PLAIN server (RFC 4616), sans-I/O, as Kafka's PlainSaslServer.

One client message ``[authzid] NUL authcid NUL passwd``; the answer is empty.
An authorization id other than empty or the authentication id is refused
("Authentication failed: Client requested an authorization id that is
different from username"), as Kafka does. Passwords are compared in constant
time against ``lookup(user)`` (the JAAS ``user_<name>`` options).
"""

from __future__ import annotations

import hmac
from typing import Callable

from kwire.security.errors import SaslAuthenticationError


class PlainServer:
    mechanism = "PLAIN"

    def __init__(self, lookup: Callable[[str], str | None]) -> None:
        self._lookup = lookup
        self.complete = False
        self.user: str | None = None

    def evaluate(self, token: bytes) -> bytes:
        if self.complete:
            raise SaslAuthenticationError("PLAIN authentication already complete", illegal=True)
        parts = bytes(token).split(b"\0")
        if len(parts) != 3:
            raise SaslAuthenticationError("Invalid SASL/PLAIN response: expected 3 tokens, got "
                                          f"{len(parts)}")
        try:
            authzid, user, password = (p.decode("utf-8") for p in parts)
        except UnicodeDecodeError:
            raise SaslAuthenticationError("Invalid SASL/PLAIN response: not UTF-8") from None
        if not user:
            raise SaslAuthenticationError("Authentication failed: username not specified")
        if not password:
            raise SaslAuthenticationError("Authentication failed: password not specified")
        expected = self._lookup(user)
        if expected is None or not hmac.compare_digest(expected.encode(), password.encode()):
            raise SaslAuthenticationError("Authentication failed: Invalid username or password")
        if authzid and authzid != user:
            raise SaslAuthenticationError("Authentication failed: Client requested an authorization id "
                                          "that is different from username")
        self.user = user
        self.complete = True
        return b""
