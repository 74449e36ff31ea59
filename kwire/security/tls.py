"""An ``ssl.SSLContext`` for an SSL / SASL_SSL listener, from Kafka's ``ssl.*`` configs.

Keystore (the broker's key and certificate chain):

* ``ssl.keystore.type=PEM``: ``ssl.keystore.location`` is a PEM file holding
  the private key and the chain, or ``ssl.keystore.key`` and
  ``ssl.keystore.certificate.chain`` hold them inline; ``ssl.key.password``
  decrypts an encrypted key.
* ``ssl.keystore.type=PKCS12``: ``ssl.keystore.location`` with
  ``ssl.keystore.password`` (read with ``cryptography``; the key password is
  ``ssl.key.password`` or else the store's).
* JKS is refused with a clear message (no reader for it here): convert it
  with ``keytool -importkeystore -deststoretype PKCS12``.

Truststore (CAs a client certificate must chain to): ``ssl.truststore.type``
PEM (``ssl.truststore.location`` or ``ssl.truststore.certificates`` inline) or
PKCS12. ``ssl.client.auth`` ``required`` / ``requested`` / ``none`` map to
CERT_REQUIRED / CERT_OPTIONAL / CERT_NONE; ``ssl.enabled.protocols`` sets the
lowest TLS version. Every name may be given per listener as
``listener.name.<listener>.<name>`` (``SecurityManager.listener_config``).

Python's ``ssl`` loads keys only from files: key material that is not a PEM
file already is written to a file in a private (0700) temporary directory,
loaded, and removed at once.
"""

from __future__ import annotations

import os
import shutil
import ssl
import tempfile
from typing import Callable

from kwire.config.types import ConfigError


def _read(path: str, name: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise ConfigError(f"{name}: cannot read {path}: {e.strerror}", name) from None


def _pkcs12(data: bytes, password: str | None, name: str):
    from cryptography.hazmat.primitives.serialization import pkcs12

    try:
        return pkcs12.load_key_and_certificates(data, password.encode() if password else None)
    except ValueError as e:
        raise ConfigError(f"{name}: cannot read the PKCS12 store (wrong password?): {e}", name) from None


def _pem_of_cert(cert) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding

    return cert.public_bytes(Encoding.PEM)


def _pem_of_key(key) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    return key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())


def server_context(get: Callable[[str], object]) -> ssl.SSLContext:
    """The server context of a listener; ``get(name)`` gives the (listener-resolved) config value."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    protocols = [p.strip() for p in (get("ssl.enabled.protocols") or []) if p.strip()]
    versions = {"TLSv1.2": ssl.TLSVersion.TLSv1_2, "TLSv1.3": ssl.TLSVersion.TLSv1_3,
                "TLSv1.1": ssl.TLSVersion.TLSv1_1, "TLSv1": ssl.TLSVersion.TLSv1}
    known = [versions[p] for p in protocols if p in versions]
    if protocols and not known:
        raise ConfigError(f"ssl.enabled.protocols={','.join(protocols)}: no TLS version kwire knows",
                          "ssl.enabled.protocols")
    if known:
        ctx.minimum_version = min(known)
        ctx.maximum_version = max(known)
    _load_keystore(ctx, get)
    auth = (get("ssl.client.auth") or "none").lower()
    if auth not in ("required", "requested", "none"):
        raise ConfigError(f"ssl.client.auth={auth}: expected required, requested or none",
                          "ssl.client.auth")
    ctx.verify_mode = {"required": ssl.CERT_REQUIRED, "requested": ssl.CERT_OPTIONAL,
                       "none": ssl.CERT_NONE}[auth]
    if _load_truststore(ctx, get) == 0 and auth != "none":
        raise ConfigError(f"ssl.client.auth={auth} needs a truststore (ssl.truststore.location or "
                          "ssl.truststore.certificates)", "ssl.truststore.location")
    return ctx


def _load_keystore(ctx: ssl.SSLContext, get) -> None:
    kind = (get("ssl.keystore.type") or "JKS").upper()
    location = get("ssl.keystore.location")
    inline_key, inline_chain = get("ssl.keystore.key"), get("ssl.keystore.certificate.chain")
    key_password = get("ssl.key.password")
    if inline_key or inline_chain:
        if kind != "PEM" or not (inline_key and inline_chain):
            raise ConfigError("ssl.keystore.key and ssl.keystore.certificate.chain go together, with "
                              "ssl.keystore.type=PEM", "ssl.keystore.key")
        _load_chain(ctx, (inline_chain.strip() + "\n" + inline_key.strip() + "\n").encode(), key_password)
        return
    if not location:
        raise ConfigError("an SSL listener needs a keystore: ssl.keystore.location (PEM or PKCS12) or "
                          "ssl.keystore.key with ssl.keystore.certificate.chain", "ssl.keystore.location")
    if kind == "PEM":
        try:
            ctx.load_cert_chain(location, password=key_password)
        except (ssl.SSLError, OSError) as e:
            raise ConfigError(f"ssl.keystore.location: cannot load key and certificates from "
                              f"{location}: {e}", "ssl.keystore.location") from None
    elif kind == "PKCS12":
        key, cert, extra = _pkcs12(_read(location, "ssl.keystore.location"), get("ssl.keystore.password"),
                                   "ssl.keystore.location")
        if key is None or cert is None:
            raise ConfigError(f"ssl.keystore.location: {location} holds no private key with a "
                              "certificate", "ssl.keystore.location")
        pem = _pem_of_cert(cert) + b"".join(_pem_of_cert(c) for c in extra or ()) + _pem_of_key(key)
        _load_chain(ctx, pem, None)
    else:
        raise ConfigError(f"ssl.keystore.type={kind} is not supported by kwire: use PKCS12 or PEM "
                          "(keytool -importkeystore -deststoretype PKCS12 converts a JKS store)",
                          "ssl.keystore.type")


def _load_chain(ctx: ssl.SSLContext, pem: bytes, password: str | None) -> None:
    d = tempfile.mkdtemp(prefix="kwire-tls-")
    try:
        path = os.path.join(d, "keystore.pem")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        try:
            ctx.load_cert_chain(path, password=password)
        except ssl.SSLError as e:
            raise ConfigError(f"cannot load the keystore's key and certificates: {e}",
                              "ssl.keystore.location") from None
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _load_truststore(ctx: ssl.SSLContext, get) -> int:
    """Load the trusted CAs; returns how many certificates were loaded."""
    kind = (get("ssl.truststore.type") or "JKS").upper()
    location, inline = get("ssl.truststore.location"), get("ssl.truststore.certificates")
    if inline:
        ctx.load_verify_locations(cadata=inline)
    elif location:
        if kind == "PEM":
            try:
                ctx.load_verify_locations(cafile=location)
            except (ssl.SSLError, OSError) as e:
                raise ConfigError(f"ssl.truststore.location: cannot load {location}: {e}",
                                  "ssl.truststore.location") from None
        elif kind == "PKCS12":
            from cryptography.hazmat.primitives.serialization import pkcs12

            data = _read(location, "ssl.truststore.location")
            password = get("ssl.truststore.password")
            try:
                store = pkcs12.load_pkcs12(data, password.encode() if password else None)
            except ValueError as e:
                raise ConfigError(f"ssl.truststore.location: cannot read the PKCS12 store: {e}",
                                  "ssl.truststore.location") from None
            certs = [c.certificate for c in store.additional_certs]
            if store.cert is not None:
                certs.append(store.cert.certificate)
            if not certs:
                raise ConfigError(f"ssl.truststore.location: {location} holds no certificate",
                                  "ssl.truststore.location")
            ctx.load_verify_locations(cadata=b"".join(_pem_of_cert(c) for c in certs).decode())
        else:
            raise ConfigError(f"ssl.truststore.type={kind} is not supported by kwire: use PKCS12 or PEM",
                              "ssl.truststore.type")
    else:
        return 0
    return len(ctx.get_ca_certs())
