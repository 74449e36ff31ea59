"""SCRAM-SHA-256 / SCRAM-SHA-512 (RFC 5802, RFC 7677) as Kafka does it: credentials and server.

Credentials are stored as Kafka stores them, never the password: a random
salt, the iteration count, ``StoredKey = H(HMAC(SaltedPassword, "Client Key"))``
and ``ServerKey = HMAC(SaltedPassword, "Server Key")``, where
``SaltedPassword = PBKDF2-HMAC(password, salt, iterations)``. Kafka's text
form (ZooKeeper ``/config/users/<user>``, ``kafka-configs``) is
``salt=<b64>,stored_key=<b64>,server_key=<b64>,iterations=<n>`` (``to_text``
/ ``from_text``). AlterUserScramCredentials sends the salted password, never
the password (``from_salted_password``).

``ScramServer`` is the server side of one exchange, sans-I/O: ``evaluate``
takes the client-first message and answers server-first, then takes
client-final and answers server-final. Like Kafka's ScramSaslServer it
accepts the ``tokenauth`` extension only as unsupported (refused), refuses
channel binding (``p=``), checks the nonce, and proves the client with the
stored key. An unknown user fails at the first message, a wrong proof at the
second, both with Kafka's message ("Authentication failed during
authentication due to invalid credentials with SASL mechanism <name>").
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from dataclasses import dataclass
from typing import Callable

from kwire.security.errors import SaslAuthenticationError

# Kafka's ScramMechanism: name, hash, minimum iterations; the AlterUserScramCredentials codes.
MECHANISMS = {"SCRAM-SHA-256": ("sha256", 4096), "SCRAM-SHA-512": ("sha512", 4096)}
MECHANISM_CODES = {1: "SCRAM-SHA-256", 2: "SCRAM-SHA-512"}
CODE_OF = {v: k for k, v in MECHANISM_CODES.items()}
MAX_ITERATIONS = 16384  # Kafka's AlterUserScramCredentials upper bound
DEFAULT_ITERATIONS = 4096


@dataclass(frozen=True)
class ScramCredential:
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int

    def to_text(self) -> str:
        b = base64.b64encode
        return (f"salt={b(self.salt).decode()},stored_key={b(self.stored_key).decode()},"
                f"server_key={b(self.server_key).decode()},iterations={self.iterations}")

    @classmethod
    def from_text(cls, text: str) -> "ScramCredential":
        fields = dict(item.split("=", 1) for item in text.split(",") if "=" in item)
        try:
            return cls(base64.b64decode(fields["salt"]), base64.b64decode(fields["stored_key"]),
                       base64.b64decode(fields["server_key"]), int(fields["iterations"]))
        except (KeyError, ValueError) as e:
            raise ValueError(f"invalid SCRAM credential text: {e}") from None

    def to_record(self) -> dict:
        b = base64.b64encode
        return {"salt": b(self.salt).decode(), "stored_key": b(self.stored_key).decode(),
                "server_key": b(self.server_key).decode(), "iterations": self.iterations}

    @classmethod
    def from_record(cls, r: dict) -> "ScramCredential":
        d = base64.b64decode
        return cls(d(r["salt"]), d(r["stored_key"]), d(r["server_key"]), int(r["iterations"]))


def salted_password(mechanism: str, password: bytes, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac(MECHANISMS[mechanism][0], password, salt, iterations)


def from_salted_password(mechanism: str, salted: bytes, salt: bytes, iterations: int) -> ScramCredential:
    h = MECHANISMS[mechanism][0]
    client_key = hmac.new(salted, b"Client Key", h).digest()
    stored_key = hashlib.new(h, client_key).digest()
    server_key = hmac.new(salted, b"Server Key", h).digest()
    return ScramCredential(salt, stored_key, server_key, iterations)


def new_credential(mechanism: str, password: str, iterations: int = DEFAULT_ITERATIONS,
                   salt: bytes | None = None) -> ScramCredential:
    salt = salt if salt is not None else os.urandom(32)
    return from_salted_password(mechanism, salted_password(mechanism, password.encode(), salt, iterations),
                                salt, iterations)


def _saslname(name: str) -> str:
    """RFC 5802 saslname decoding: '=2C' is ',' and '=3D' is '='; any other '=' is an error."""
    if re.search(r"=(?!2C|3D)", name):
        raise SaslAuthenticationError(f"Invalid username: {name}")
    return name.replace("=2C", ",").replace("=3D", "=")


_CLIENT_FIRST = re.compile(r"^(?P<gs2>n,(?:a=(?P<authzid>[^,]*))?,)(?P<bare>(?:m=[^,]*,)?n=(?P<user>[^,]*),"
                           r"r=(?P<nonce>[\x21-\x2b\x2d-\x7e]+)(?P<ext>(?:,[A-Za-z]+=[^,]*)*))$")
_CLIENT_FINAL = re.compile(r"^(?P<without>c=(?P<cb>[A-Za-z0-9+/=]*),r=(?P<nonce>[\x21-\x2b\x2d-\x7e]+)"
                           r"(?:,[A-Za-z]+=[^,]*)*?),p=(?P<proof>[A-Za-z0-9+/=]+)$")


class ScramServer:
    """One SCRAM exchange, server side: client-first -> server-first, client-final -> server-final."""

    def __init__(self, mechanism: str, lookup: Callable[[str, str], ScramCredential | None],
                 server_nonce: str | None = None) -> None:
        if mechanism not in MECHANISMS:
            raise ValueError(mechanism)
        self.mechanism = mechanism
        self._hash = MECHANISMS[mechanism][0]
        self._lookup = lookup
        self._state = "client_first"
        self.complete = False
        self.user: str | None = None
        self._cred: ScramCredential | None = None
        self._server_nonce = server_nonce  # tests (RFC test vectors); else random per exchange

    def evaluate(self, token: bytes) -> bytes:
        try:
            text = bytes(token).decode("utf-8")
        except UnicodeDecodeError:
            raise SaslAuthenticationError("Invalid SCRAM message: not UTF-8") from None
        if self._state == "client_first":
            return self._client_first(text)
        if self._state == "client_final":
            return self._client_final(text)
        raise SaslAuthenticationError("SCRAM exchange already complete", illegal=True)

    def _client_first(self, text: str) -> bytes:
        m = _CLIENT_FIRST.match(text)
        if not m:
            raise SaslAuthenticationError("Invalid SCRAM client first message: " + _clip(text))
        user = _saslname(m.group("user"))
        authzid = m.group("authzid")
        if authzid and authzid != user:
            raise SaslAuthenticationError("Authentication failed: Client requested an authorization id "
                                          "that is different from username")
        for ext in filter(None, (m.group("ext") or "").split(",")):
            key = ext.split("=", 1)[0]
            if key == "tokenauth":
                raise SaslAuthenticationError("Authentication failed: delegation tokens are not supported")
        cred = self._lookup(user, self.mechanism)
        if cred is None:
            raise SaslAuthenticationError(self._invalid())
        self.user, self._cred = user, cred
        self._gs2 = m.group("gs2")
        # alphanumeric, as Kafka's ScramFormatter.secureRandomString (some clients choke on '/' '=')
        self._nonce = m.group("nonce") + (self._server_nonce or os.urandom(16).hex())
        self._server_first = (f"r={self._nonce},s={base64.b64encode(cred.salt).decode()},"
                              f"i={cred.iterations}")
        self._client_first_bare = m.group("bare")
        self._state = "client_final"
        return self._server_first.encode()

    def _invalid(self) -> str:
        # Kafka's SaslServerAuthenticator answers every SCRAM credential failure with this text
        return ("Authentication failed during authentication due to invalid credentials with SASL "
                f"mechanism {self.mechanism}")

    def _client_final(self, text: str) -> bytes:
        m = _CLIENT_FINAL.match(text)
        if not m:
            raise SaslAuthenticationError("Invalid SCRAM client final message: " + _clip(text))
        # Kafka checks endsWith, not equality: older librdkafka (kcat) repeats its own nonce in front
        if not m.group("nonce").endswith(self._nonce):
            raise SaslAuthenticationError("Invalid client nonce in the final client message.")
        try:
            cb = base64.b64decode(m.group("cb"), validate=True)
            proof = base64.b64decode(m.group("proof"), validate=True)
        except ValueError:
            raise SaslAuthenticationError("Invalid SCRAM client final message: bad base64") from None
        if cb != self._gs2.encode():
            raise SaslAuthenticationError("Invalid channel binding in the final client message.")
        cred = self._cred
        auth_message = f"{self._client_first_bare},{self._server_first},{m.group('without')}".encode()
        signature = hmac.new(cred.stored_key, auth_message, self._hash).digest()
        if len(proof) != len(signature):
            raise SaslAuthenticationError(self._invalid())
        client_key = bytes(a ^ b for a, b in zip(proof, signature))
        if not hmac.compare_digest(hashlib.new(self._hash, client_key).digest(), cred.stored_key):
            raise SaslAuthenticationError(self._invalid())
        server_signature = hmac.new(cred.server_key, auth_message, self._hash).digest()
        self._state = "done"
        self.complete = True
        return b"v=" + base64.b64encode(server_signature)


def _clip(text: str) -> str:
    return repr(text[:60])
