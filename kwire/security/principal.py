"""KafkaPrincipal ("User:alice") and the principal of a TLS peer.

The principal of a mutual-TLS client is its certificate's subject DN in
RFC 2253 form (Java's ``X500Principal.getName()``, which Kafka's
``DefaultKafkaPrincipalBuilder`` uses): most specific RDN first, e.g.
``User:CN=alice,OU=eng,O=kwire``. ``ssl.principal.mapping.rules`` supports
``DEFAULT`` and ``RULE:pattern/replacement/[LU]`` lines as Kafka's
``SslPrincipalMapper``. A TLS client without a certificate and a PLAINTEXT
client are ``User:ANONYMOUS``.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class KafkaPrincipal(NamedTuple):
    type: str
    name: str

    def __str__(self) -> str:
        return f"{self.type}:{self.name}"

    @classmethod
    def parse(cls, text: str) -> "KafkaPrincipal":
        kind, sep, name = text.partition(":")
        if not sep or not kind:
            raise ValueError(f"expected a principal of the form Type:name, got {text!r}")
        return cls(kind, name)


ANONYMOUS = KafkaPrincipal("User", "ANONYMOUS")


def dn_of_der(der: bytes) -> str:
    """The subject DN of a DER certificate, RFC 2253 style (Java's X500Principal.getName())."""
    from cryptography import x509

    cert = x509.load_der_x509_certificate(der)
    return cert.subject.rfc4514_string()


_RULE = re.compile(r"^RULE:((?:\\/|[^/])*)/((?:\\/|[^/])*)/([LU]?)$")


class SslPrincipalMapper:
    """Kafka's ``ssl.principal.mapping.rules``: the first matching rule names the principal."""

    def __init__(self, rules: str | None) -> None:
        self.rules: list[tuple[re.Pattern | None, str, str]] = []
        for raw in _split_rules(rules or "DEFAULT"):
            if raw == "DEFAULT":
                self.rules.append((None, "", ""))
                continue
            m = _RULE.match(raw)
            if not m:
                raise ValueError(f"invalid ssl.principal.mapping.rules entry {raw!r}")
            pattern = m.group(1).replace("\\/", "/")
            repl = re.sub(r"\$(\d+)", r"\\\1", m.group(2).replace("\\/", "/"))
            self.rules.append((re.compile(pattern), repl, m.group(3)))

    def name(self, dn: str) -> str:
        for pattern, repl, case in self.rules:
            if pattern is None:
                return dn
            m = pattern.fullmatch(dn)
            if m:
                out = m.expand(repl)
                return out.lower() if case == "L" else out.upper() if case == "U" else out
        raise ValueError(f"no ssl.principal.mapping.rules rule matches {dn!r}")


def _split_rules(text: str) -> list[str]:
    """Rules are separated by commas (before RULE:/DEFAULT) or new lines."""
    return [r.strip() for r in re.split(r",\s*(?=RULE:|DEFAULT)|\n", text) if r.strip()]
