"""SASL mechanism servers, SCRAM credentials, JAAS options and the session state machine (no I/O)."""

from __future__ import annotations

import base64

import pytest

from kwire.config import jaas
from kwire.security.errors import SaslAuthenticationError
from kwire.security.plain import PlainServer
from kwire.security.scram import ScramCredential, ScramServer, new_credential

# RFC 7677 section 3: SCRAM-SHA-256, user "user", password "pencil"
RFC_SALT = base64.b64decode("W22ZaJ0SNY7soEsUEjb6gQ==")
RFC_CLIENT_FIRST = b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
RFC_SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
RFC_SERVER_FIRST = (b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                    b"s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")
RFC_CLIENT_FINAL = (b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                    b"p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
RFC_SERVER_FINAL = b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="


def _rfc_server(password: str = "pencil") -> ScramServer:
    cred = new_credential("SCRAM-SHA-256", password, 4096, RFC_SALT)
    return ScramServer("SCRAM-SHA-256", lambda u, m: cred if u == "user" else None,
                       server_nonce=RFC_SERVER_NONCE)


def test_scram_sha256_rfc7677_vector():
    s = _rfc_server()
    assert s.evaluate(RFC_CLIENT_FIRST) == RFC_SERVER_FIRST
    assert s.evaluate(RFC_CLIENT_FINAL) == RFC_SERVER_FINAL
    assert s.complete and s.user == "user"
    with pytest.raises(SaslAuthenticationError):
        s.evaluate(RFC_CLIENT_FINAL)  # nothing after the end


def test_scram_wrong_password_unknown_user_bad_nonce():
    s = _rfc_server("not-pencil")
    s.evaluate(RFC_CLIENT_FIRST)
    with pytest.raises(SaslAuthenticationError, match="invalid credentials"):
        s.evaluate(RFC_CLIENT_FINAL)
    with pytest.raises(SaslAuthenticationError, match="invalid credentials"):
        _rfc_server().evaluate(b"n,,n=nobody,r=abc")
    s = _rfc_server()
    s.evaluate(RFC_CLIENT_FIRST)
    with pytest.raises(SaslAuthenticationError, match="nonce"):
        s.evaluate(RFC_CLIENT_FINAL.replace(b"k0,p=", b"k1,p="))


@pytest.mark.parametrize("msg", [b"", b"garbage", b"y,,n=user,r=x", b"p=tls-server-end-point,,n=user,r=x",
                                 b"n,,n=us=er,r=x", b"n,,r=x", b"\xff\xfe", b"n,a=other,n=user,r=x"])
def test_scram_malformed_first_messages(msg):
    with pytest.raises(SaslAuthenticationError):
        _rfc_server().evaluate(msg)


def test_scram_malformed_final_message_and_channel_binding():
    for final in (b"garbage", b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0",
                  RFC_CLIENT_FINAL.replace(b"c=biws", b"c=eSws")):
        s = _rfc_server()
        s.evaluate(RFC_CLIENT_FIRST)
        with pytest.raises(SaslAuthenticationError):
            s.evaluate(final)


def test_scram_saslname_escapes_and_credential_text():
    # "-" and "!" are outside base64's alphabet (A-Z a-z 0-9 + / =) and the field names, so the
    # password cannot turn up in the text by chance (a two-letter secret did, about one run in 20)
    secret = "pass-word!"
    cred = new_credential("SCRAM-SHA-512", secret, 4096)
    seen = []
    s = ScramServer("SCRAM-SHA-512", lambda u, m: seen.append(u) or cred)
    s.evaluate(b"n,,n=a=2Cb=3Dc,r=xyz")
    assert seen == ["a,b=c"]
    text = cred.to_text()
    assert text.startswith("salt=") and ",stored_key=" in text and text.endswith(",iterations=4096")
    assert ScramCredential.from_text(text) == cred
    assert ScramCredential.from_record(cred.to_record()) == cred
    assert secret not in text and "-" not in text and "!" not in text


def test_plain():
    users = {"alice": "alice-secret"}
    s = PlainServer(users.get)
    assert s.evaluate(b"\0alice\0alice-secret") == b"" and s.complete and s.user == "alice"
    assert PlainServer(users.get).evaluate(b"alice\0alice\0alice-secret") == b""
    for bad in (b"\0alice\0wrong", b"\0bob\0x", b"alice-secret", b"\0\0x", b"\0alice\0",
                b"other\0alice\0alice-secret"):
        with pytest.raises(SaslAuthenticationError):
            PlainServer(users.get).evaluate(bad)


def test_jaas_options():
    text = ('org.apache.kafka.common.security.plain.PlainLoginModule required\n'
            '  username="admin" password="a\\"b" user_admin="admin-secret" user_alice=plainword;')
    module, flag, opts = jaas.parse(text)
    assert module.endswith("PlainLoginModule") and flag == "required"
    assert opts["password"] == 'a"b'
    assert jaas.plain_users(text) == {"admin": "admin-secret", "alice": "plainword"}
    for bad in ("no semicolon", "Module;", "Module bogus;", 'Module required user_a="x" %%;'):
        with pytest.raises(ValueError):
            jaas.parse(bad)


class _Manager:
    failed_auth_delay_s = 0.1

    def __init__(self) -> None:
        from collections import Counter

        self.authenticated = Counter()
        self.reauthenticated = Counter()

    def mechanisms(self, listener):
        return ["PLAIN"]

    def mechanism_server(self, listener, mechanism):
        return PlainServer({"alice": "pw"}.get)

    def reauth_ms(self, listener):
        return 1000


def test_session_states():
    from kwire.security.session import Session

    s = Session(_Manager(), "SASL_PLAINTEXT", "SASL_PLAINTEXT", "127.0.0.1")
    assert s.check(3, "Metadata") is not None  # nothing before authentication
    assert s.check(18, "ApiVersions") is None
    s.after_api_versions()
    assert s.check(18, "ApiVersions") is not None  # ApiVersions only once
    assert s.handshake("GSSAPI", 1) == (False, ["PLAIN"]) and s.close_after_response == 0.0
    s = Session(_Manager(), "L", "SASL_SSL", "h")
    assert s.handshake("PLAIN", 1) == (True, ["PLAIN"])
    assert s.check(17, "SaslHandshake") is not None and s.check(36, "SaslAuthenticate") is None
    assert s.authenticate(b"\0alice\0pw") == (b"", 1000)
    assert s.authenticated and str(s.principal) == "User:alice" and s.check(0, "Produce") is None
    s2 = Session(_Manager(), "L", "SASL_SSL", "h")
    s2.handshake("PLAIN", 0)
    assert s2.raw
    with pytest.raises(SaslAuthenticationError):
        s2.authenticate(b"\0alice\0nope")
    assert s2.state == "failed" and s2.close_after_response == 0.1
    plain = Session(_Manager(), "PLAINTEXT", "PLAINTEXT", "h")
    assert plain.authenticated and str(plain.principal) == "User:ANONYMOUS"


def _jwt(claims: dict, alg: str = "none") -> str:
    import json

    def enc(obj) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
    return f"{enc({'alg': alg})}.{enc(claims)}."


def test_oauthbearer_unsecured_tokens():
    from kwire.security.oauthbearer import OAuthBearerServer

    now = 1_000_000.0
    good = f"n,,\x01auth=Bearer {_jwt({'sub': 'alice', 'exp': now + 60, 'iat': now})}\x01\x01".encode()
    s = OAuthBearerServer(now=lambda: now)
    assert s.evaluate(good) == b"" and s.complete and s.user == "alice" and s.lifetime_ms == 60000
    for claims, alg in (({"sub": "a", "exp": now - 1}, "none"), ({"exp": now + 60}, "none"),
                        ({"sub": "a"}, "none"), ({"sub": "a", "exp": now + 60}, "HS256")):
        s = OAuthBearerServer(now=lambda: now)
        msg = f"n,,\x01auth=Bearer {_jwt(claims, alg)}\x01\x01".encode()
        assert s.evaluate(msg) == b'{"status": "invalid_token"}'
        with pytest.raises(SaslAuthenticationError):
            s.evaluate(b"\x01")
    s = OAuthBearerServer({"unsecuredValidatorPrincipalClaimName": "user",
                           "unsecuredValidatorRequiredScope": "write"}, now=lambda: now)
    msg = f"n,,\x01auth=Bearer {_jwt({'user': 'bob', 'exp': now + 5, 'scope': 'read write'})}\x01\x01"
    assert s.evaluate(msg.encode()) == b"" and s.user == "bob"
    for bad in (b"garbage", b"n,,\x01auth=Basic x\x01\x01", b"n,a=eve,\x01auth=Bearer " +
                _jwt({"sub": "alice", "exp": now + 60}).encode() + b"\x01\x01"):
        with pytest.raises(SaslAuthenticationError):
            OAuthBearerServer(now=lambda: now).evaluate(bad)
