"""An ``ssl.SSLContext`` for an SSL / SASL_SSL listener, from Kafka's ``ssl.*`` configs.

Keystore (the broker's key and certificate chain):

* ``ssl.keystore.type=PEM``: ``ssl.keystore.location`` is a PEM file holding
  the private key and the chain, or ``ssl.keystore.key`` and
  ``ssl.keystore.certificate.chain`` hold them inline; ``ssl.key.password``
  decrypts an encrypted key.
* ``ssl.keystore.type=PKCS12``: ``ssl.keystore.location`` with
  ``ssl.keystore.password`` (read with ``cryptography``; the key password is
  ``ssl.key.password`` or else the store's).
* ``ssl.keystore.type=JKS`` (Kafka's default type, so also when the type is
  not set): a Java keystore read with ``pyjks`` (the optional extra
  ``pip install 'kwire[jks]'``; without it start-up fails saying so). The
  store's integrity is checked with ``ssl.keystore.password``; the private
  key entry is decrypted with ``ssl.key.password``, else the store password
  (Kafka's rule). A store with several key entries serves the first alias in
  sorted order (Java's key manager would choose per handshake; kwire does not).

Truststore (CAs a client certificate must chain to): ``ssl.truststore.type``
PEM (``ssl.truststore.location`` or ``ssl.truststore.certificates`` inline),
PKCS12, or JKS (its trusted certificate entries, plus the certificate of any
key entry, as Java's trust manager takes them; ``ssl.truststore.password``
checks the store's integrity and may be left unset, as in Kafka).
``ssl.client.auth`` ``required`` / ``requested`` / ``none`` map to
CERT_REQUIRED / CERT_OPTIONAL / CERT_NONE; ``ssl.enabled.protocols`` sets the
lowest TLS version. Every name may be given per listener as
``listener.name.<listener>.<name>`` (``SecurityManager.listener_config``).

A store whose bytes do not match its type (a PEM or PKCS12 file with the
default type JKS) fails start-up with a message naming the type it looks like.

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


JKS_MAGIC = b"\xfe\xed\xfe\xed"  # JKS; a JCEKS store starts with CECECECE


def _looks_like(data: bytes) -> str:
    """What a store's bytes look like, for the message when they do not match the configured type."""
    if data[:4] == JKS_MAGIC:
        return "JKS"
    if data[:4] == b"\xce\xce\xce\xce":
        return "JCEKS (not supported by kwire)"
    if b"-----BEGIN" in data[:4096]:
        return "PEM"
    if data[:1] == b"\x30":  # an ASN.1 SEQUENCE: a PKCS12 PFX
        return "PKCS12"
    return "none kwire knows"


def _jks_module():
    try:
        import jks  # pyjks
    except ImportError:
        raise ConfigError("a JKS keystore or truststore needs pyjks, which is not installed: "
                          "pip install 'kwire[jks]' (or convert the store with keytool -importkeystore "
                          "-deststoretype PKCS12 and set the type to PKCS12)", "ssl.keystore.type") from None
    return jks


def _jks_load(location: str, password: str | None, name: str):
    data = _read(location, name)
    kind_name = name.replace(".location", ".type")
    if data[:4] != JKS_MAGIC:
        raise ConfigError(f"{name}: {location} is not a JKS store ({kind_name}=JKS, which is Kafka's "
                          f"default; its content looks like {_looks_like(data)}): set {kind_name} to the "
                          "store's type", kind_name)
    jks = _jks_module()
    try:
        return jks.KeyStore.loads(data, password, try_decrypt_keys=False)
    except jks.util.KeystoreSignatureException:
        raise ConfigError(f"{name}: cannot read the JKS store {location}: the integrity check failed "
                          f"(wrong {name.replace('.location', '.password')}?)", name) from None
    except (jks.util.KeystoreException, ValueError) as e:
        raise ConfigError(f"{name}: cannot read the JKS store {location}: {e}", name) from None


def _jks_keystore(location: str, store_password: str | None, key_password: str | None) -> bytes:
    """The PEM chain + key of the JKS keystore's private key entry."""
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import load_der_private_key

    name = "ssl.keystore.location"
    if store_password is None:
        raise ConfigError(f"{name}: a JKS keystore needs ssl.keystore.password", "ssl.keystore.password")
    jks = _jks_module()
    store = _jks_load(location, store_password, name)
    if not store.private_keys:
        raise ConfigError(f"{name}: {location} holds no private key entry", name)
    alias = sorted(store.private_keys)[0]
    entry = store.private_keys[alias]
    try:
        entry.decrypt(key_password if key_password is not None else store_password)
    except jks.util.DecryptionFailureException:
        raise ConfigError(f"{name}: cannot decrypt the private key '{alias}' of {location} (wrong "
                          "ssl.key.password?)", "ssl.key.password") from None
    except jks.util.KeystoreException as e:
        raise ConfigError(f"{name}: cannot decrypt the private key '{alias}' of {location}: {e}",
                          name) from None
    try:
        key = load_der_private_key(entry.pkey_pkcs8, None)
        chain = [x509.load_der_x509_certificate(der) for _, der in entry.cert_chain]
    except ValueError as e:
        raise ConfigError(f"{name}: the key entry '{alias}' of {location} cannot be read: {e}", name) from None
    if not chain:
        raise ConfigError(f"{name}: the key entry '{alias}' of {location} has no certificate", name)
    return b"".join(_pem_of_cert(c) for c in chain) + _pem_of_key(key)


def _jks_truststore(location: str, password: str | None) -> str:
    """The PEM of the JKS truststore's trusted certificates (and of each key entry's own certificate)."""
    from cryptography import x509

    name = "ssl.truststore.location"
    store = _jks_load(location, password, name)
    ders = [e.cert for _, e in sorted(store.certs.items())]
    ders += [e.cert_chain[0][1] for _, e in sorted(store.private_keys.items()) if e.cert_chain]
    if not ders:
        raise ConfigError(f"{name}: {location} holds no certificate", name)
    try:
        return b"".join(_pem_of_cert(x509.load_der_x509_certificate(d)) for d in ders).decode()
    except ValueError as e:
        raise ConfigError(f"{name}: a certificate of {location} cannot be read: {e}", name) from None


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
    elif kind == "JKS":
        _load_chain(ctx, _jks_keystore(location, get("ssl.keystore.password"), key_password), None)
    else:
        raise ConfigError(f"ssl.keystore.type={kind} is not supported by kwire: use JKS, PKCS12 or PEM",
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
        elif kind == "JKS":
            ctx.load_verify_locations(cadata=_jks_truststore(location, get("ssl.truststore.password")))
        else:
            raise ConfigError(f"ssl.truststore.type={kind} is not supported by kwire: use JKS, PKCS12 "
                              "or PEM", "ssl.truststore.type")
    else:
        return 0
    return len(ctx.get_ca_certs())
