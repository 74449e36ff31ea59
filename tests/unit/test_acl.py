"""Kafka's ACL model (kwire.security.acl), the authorizer's decisions, principal mapping (no I/O)."""

from __future__ import annotations

import pytest

from kwire.cluster.image import MetadataImage
from kwire.security import acl
from kwire.security.acl import AclBinding, AclFilter
from kwire.security.authorizer import Authorizer
from kwire.security.principal import SslPrincipalMapper

A = AclBinding


def b(rt=acl.TOPIC, name="orders", pt=acl.LITERAL, principal="User:alice", host="*", op=acl.READ,
      perm=acl.ALLOW) -> AclBinding:
    return A(rt, name, pt, principal, host, op, perm)


@pytest.mark.parametrize("binding, why", [
    (b(), None),
    (b(rt=acl.R_ANY), "resource type"),
    (b(pt=acl.MATCH), "pattern type"),
    (b(pt=acl.P_ANY), "pattern type"),
    (b(op=acl.O_ANY), "operation"),
    (b(perm=acl.A_ANY), "permission"),
    (b(name=""), "must not be empty"),
    (b(rt=acl.CLUSTER, name="other"), "kafka-cluster"),
    (b(pt=acl.PREFIXED, name="*"), "wildcard"),
    (b(principal="alice"), "principal"),
    (b(host=""), "Host"),
])
def test_validate(binding, why):
    got = acl.validate(binding)
    assert (got is None) if why is None else (why in got)


def test_filter_matching():
    lit, wild, pre = b(), b(name="*"), b(name="ord", pt=acl.PREFIXED)
    any_topic = AclFilter(acl.TOPIC, None, acl.P_ANY, None, None, acl.O_ANY, acl.A_ANY)
    assert all(acl.matches_filter(x, any_topic) for x in (lit, wild, pre))
    match = AclFilter(acl.R_ANY, "orders", acl.MATCH, None, None, acl.O_ANY, acl.A_ANY)
    assert all(acl.matches_filter(x, match) for x in (lit, wild, pre))
    assert not acl.matches_filter(b(name="other"), match)
    exact = AclFilter(acl.TOPIC, "ord", acl.PREFIXED, "User:alice", "*", acl.READ, acl.ALLOW)
    assert acl.matches_filter(pre, exact) and not acl.matches_filter(lit, exact)
    assert not acl.matches_filter(b(principal="User:bob"), AclFilter(acl.R_ANY, None, acl.P_ANY, "User:alice",
                                                                     None, acl.O_ANY, acl.A_ANY))
    assert acl.filter_error(AclFilter(acl.R_UNKNOWN, None, acl.P_ANY, None, None, acl.O_ANY, acl.A_ANY))


class _Broker:
    def __init__(self, acls) -> None:
        class M:
            pass
        self.metadata = M()
        self.metadata.image = MetadataImage(0)
        self.metadata.image.replay({"type": "acls", "add": True, "acls": [list(x) for x in acls]})


def test_authorizer_decisions():
    acls = [b(op=acl.READ), b(name="pay", pt=acl.PREFIXED, op=acl.WRITE, principal="User:*"),
            b(name="payroll", op=acl.WRITE, perm=acl.DENY, principal="User:mallory"),
            b(rt=acl.GROUP, name="g1", op=acl.READ), b(name="cfg", op=acl.ALTER_CONFIGS)]
    az = Authorizer(_Broker(acls), "User:admin;User:ops", None)
    allowed = az.allowed
    assert allowed("User:alice", "1.2.3.4", acl.READ, acl.TOPIC, "orders")
    assert allowed("User:alice", "h", acl.DESCRIBE, acl.TOPIC, "orders")  # READ implies DESCRIBE
    assert not allowed("User:alice", "h", acl.WRITE, acl.TOPIC, "orders")
    assert not allowed("User:bob", "h", acl.READ, acl.TOPIC, "orders")
    assert allowed("User:bob", "h", acl.WRITE, acl.TOPIC, "payments")  # prefixed + wildcard principal
    assert not allowed("User:mallory", "h", acl.WRITE, acl.TOPIC, "payroll")  # DENY wins
    assert allowed("User:alice", "h", acl.DESCRIBE_CONFIGS, acl.TOPIC, "cfg")  # implied by ALTER_CONFIGS
    assert allowed("User:alice", "h", acl.READ, acl.GROUP, "g1")
    assert not allowed("User:alice", "h", acl.READ, acl.GROUP, "g2")
    assert allowed("User:admin", "h", acl.DELETE, acl.TOPIC, "anything")  # super user
    assert not allowed("User:alice", "h", acl.READ, acl.TOPIC, "no-acls")
    assert Authorizer(_Broker(acls), None, "true").allowed("User:x", "h", acl.READ, acl.TOPIC, "no-acls")
    host_acl = Authorizer(_Broker([b(host="10.0.0.1")]), None, None)
    assert host_acl.allowed("User:alice", "10.0.0.1", acl.READ, acl.TOPIC, "orders")
    assert not host_acl.allowed("User:alice", "10.0.0.2", acl.READ, acl.TOPIC, "orders")


def test_image_keeps_acls_and_credentials_through_snapshots():
    img = MetadataImage(0)
    img.replay({"type": "acls", "add": True, "acls": [list(b()), list(b(op=acl.WRITE))]})
    img.replay({"type": "acls", "add": False, "acls": [list(b(op=acl.WRITE))]})
    img.replay({"type": "scram_credential", "user": "u", "mechanism": "SCRAM-SHA-256",
                "credential": {"salt": "c2FsdA==", "stored_key": "a2V5", "server_key": "a2V5", "iterations": 4096}})
    copy = img.copy()
    assert copy.acls == {b()} and copy.scram_credentials == img.scram_credentials
    img.replay({"type": "scram_credential", "user": "u", "mechanism": "SCRAM-SHA-256", "credential": None})
    assert img.scram_credentials == {}


def test_ssl_principal_mapping_rules():
    m = SslPrincipalMapper("RULE:^CN=(.*?),O=(.*?)$/$1@$2/L,DEFAULT")
    assert m.name("CN=Alice,O=Kwire") == "alice@kwire"
    assert m.name("OU=x") == "OU=x"
    assert SslPrincipalMapper(None).name("CN=a,O=b") == "CN=a,O=b"
    with pytest.raises(ValueError):
        SslPrincipalMapper("RULE:^CN=(.*)$/$1/U").name("O=x")


def test_authorize_any_kip679():
    from types import SimpleNamespace

    from kwire.security.authorizer import authorize_any
    from kwire.security.principal import KafkaPrincipal

    def ctx_for(acls, user="alice", supers=None):
        az = Authorizer(_Broker(acls), supers, None)
        session = SimpleNamespace(principal=KafkaPrincipal("User", user), manager=SimpleNamespace(authorizer=az))
        return SimpleNamespace(session=session, client_host="h")

    prefixed = b(name="pay", pt=acl.PREFIXED, op=acl.WRITE)
    assert authorize_any(ctx_for([prefixed]), acl.WRITE, acl.TOPIC)  # no such topic needed
    assert not authorize_any(ctx_for([prefixed], "bob"), acl.WRITE, acl.TOPIC)
    assert not authorize_any(ctx_for([prefixed, b(name="*", op=acl.WRITE, perm=acl.DENY)]), acl.WRITE, acl.TOPIC)
    assert authorize_any(ctx_for([], "root", "User:root"), acl.WRITE, acl.TOPIC)
    assert authorize_any(SimpleNamespace(session=None), acl.WRITE, acl.TOPIC)  # no authorizer
