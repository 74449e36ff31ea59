"""The client side of TLS and SASL, for kwire's own tools (``kwire.client``).

``ClientSecurity.from_properties`` reads the client properties Kafka's tools
take in ``--command-config`` (``security.protocol``, ``sasl.mechanism``,
``sasl.jaas.config`` with ``username``/``password``, ``ssl.truststore.location``
/ ``ssl.truststore.type`` PEM, ``ssl.keystore.location`` PEM for mutual TLS,
``ssl.endpoint.identification.algorithm``; librdkafka's ``sasl.username``,
``sasl.password``, ``ssl.ca.location``, ``ssl.certificate.location`` and
``ssl.key.location`` too). ``wrap`` puts TLS on a connected socket;
``login`` runs SaslHandshake v1 + SaslAuthenticate with PLAIN or SCRAM
(``ScramClient``, RFC 5802, checking the server's signature); the exchange itself
is ``sasl_exchange``, sans I/O, which the brokers' inter-broker connections
(``kwire.security.inter_broker``) drive over asyncio too.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import ssl
from dataclasses import dataclass

from kwire.config import jaas
from kwire.security.scram import MECHANISMS


class ScramClient:
    """Client side of one SCRAM exchange: ``first()``, then ``final(server_first)``, then ``verify``."""

    def __init__(self, mechanism: str, user: str, password: str) -> None:
        self.hash = MECHANISMS[mechanism][0]
        self.user = user.replace("=", "=3D").replace(",", "=2C")
        self.password = password
        self.nonce = os.urandom(16).hex()

    def first(self) -> bytes:
        self.bare = f"n={self.user},r={self.nonce}"
        return ("n,," + self.bare).encode()

    def final(self, server_first: bytes) -> bytes:
        text = server_first.decode()
        fields = dict(kv.split("=", 1) for kv in text.split(","))
        if not fields["r"].startswith(self.nonce):
            raise ValueError("SCRAM: the server nonce does not extend ours")
        h = self.hash
        salted = hashlib.pbkdf2_hmac(h, self.password.encode(), base64.b64decode(fields["s"]), int(fields["i"]))
        client_key = hmac.new(salted, b"Client Key", h).digest()
        without = f"c=biws,r={fields['r']}"
        self.auth = f"{self.bare},{text},{without}".encode()
        signature = hmac.new(hashlib.new(h, client_key).digest(), self.auth, h).digest()
        self.server_key = hmac.new(salted, b"Server Key", h).digest()
        proof = bytes(a ^ b for a, b in zip(client_key, signature))
        return f"{without},p={base64.b64encode(proof).decode()}".encode()

    def verify(self, server_final: bytes) -> None:
        want = b"v=" + base64.b64encode(hmac.new(self.server_key, self.auth, self.hash).digest())
        if not hmac.compare_digest(bytes(server_final), want):
            raise ValueError("SCRAM: the server's signature is wrong")


@dataclass
class ClientSecurity:
    protocol: str = "PLAINTEXT"
    mechanism: str | None = None
    username: str | None = None
    password: str | None = None
    cafile: str | None = None
    certfile: str | None = None
    keyfile: str | None = None
    check_hostname: bool = True
    context: ssl.SSLContext | None = None  # prebuilt (a broker's inter-broker context), else from the files

    @classmethod
    def from_properties(cls, props: dict[str, str]) -> "ClientSecurity":
        s = cls(protocol=props.get("security.protocol", "PLAINTEXT").upper())
        if s.protocol not in ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"):
            raise ValueError(f"security.protocol={s.protocol} is not a Kafka security protocol")
        s.mechanism = props.get("sasl.mechanism", "GSSAPI" if s.protocol.startswith("SASL") else None)
        s.username, s.password = props.get("sasl.username"), props.get("sasl.password")
        if props.get("sasl.jaas.config"):
            _, _, opts = jaas.parse(props["sasl.jaas.config"])
            s.username, s.password = opts.get("username", s.username), opts.get("password", s.password)
        s.cafile = props.get("ssl.truststore.location") or props.get("ssl.ca.location")
        if props.get("ssl.truststore.type", "PEM").upper() != "PEM":
            raise ValueError("kwire's tools read PEM truststores only (ssl.truststore.type=PEM)")
        s.certfile = props.get("ssl.certificate.location") or props.get("ssl.keystore.location")
        s.keyfile = props.get("ssl.key.location")
        s.check_hostname = props.get("ssl.endpoint.identification.algorithm", "https") != ""
        if s.protocol.startswith("SASL") and s.mechanism not in ("PLAIN", *MECHANISMS):
            raise ValueError(f"sasl.mechanism={s.mechanism}: kwire's tools speak PLAIN, SCRAM-SHA-256 "
                             "and SCRAM-SHA-512")
        return s

    @property
    def tls(self) -> bool:
        return self.protocol in ("SSL", "SASL_SSL")

    def wrap(self, sock, host: str):
        if not self.tls:
            return sock
        ctx = self.context
        if ctx is None:
            ctx = ssl.create_default_context(cafile=self.cafile)
            ctx.check_hostname = self.check_hostname
            if self.certfile:
                ctx.load_cert_chain(self.certfile, self.keyfile)
        return ctx.wrap_socket(sock, server_hostname=host)

    def login(self, conn) -> None:
        """SaslHandshake v1 + SaslAuthenticate on ``conn`` (kwire.client._Connection)."""
        if not self.protocol.startswith("SASL"):
            return
        steps = sasl_exchange(self.mechanism, self.username, self.password)
        try:
            request = next(steps)
            while True:
                api_key, version, obj = request
                request = steps.send(conn.receive(api_key, version, conn.send(api_key, version, obj)))
        except StopIteration:
            return


def sasl_exchange(mechanism: str, username: str | None, password: str | None):
    """The client's SaslHandshake v1 + SaslAuthenticate v1 exchange, sans I/O: a generator that
    yields ``(api_key, version, request)`` and is sent each response; it returns when logged in
    and raises ``SaslLoginError`` when the broker refuses (both the tools' blocking client and
    the brokers' own asyncio connections drive it, kwire.security.inter_broker)."""
    from kwire.protocol.generated.sasl_authenticate_request import SaslAuthenticateRequest
    from kwire.protocol.generated.sasl_handshake_request import SaslHandshakeRequest

    r = yield (17, 1, SaslHandshakeRequest(mechanism=mechanism))
    if r.error_code:
        raise SaslLoginError(r.error_code, f"SASL mechanism {mechanism} refused (the broker "
                                           f"enables {', '.join(r.mechanisms or [])})")

    def check(resp) -> bytes:
        if resp.error_code:
            raise SaslLoginError(resp.error_code, resp.error_message or "authentication failed")
        return bytes(resp.auth_bytes)

    if mechanism == "PLAIN":
        check((yield (36, 1, SaslAuthenticateRequest(auth_bytes=f"\0{username}\0{password}".encode()))))
        return
    sc = ScramClient(mechanism, username or "", password or "")
    server_first = check((yield (36, 1, SaslAuthenticateRequest(auth_bytes=sc.first()))))
    server_final = check((yield (36, 1, SaslAuthenticateRequest(auth_bytes=sc.final(server_first)))))
    sc.verify(server_final)


class SaslLoginError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message
