"""SecurityManager: the broker's security settings, built once from its config.

It resolves every ``ssl.*`` / ``sasl.*`` name per listener (Kafka's
``listener.name.<listener>.<name>`` first, then
``listener.name.<listener>.<mechanism>.sasl.jaas.config`` for JAAS, then the
plain name), builds each SSL / SASL_SSL listener's ``ssl.SSLContext`` at
start-up (a bad keystore fails start-up, not the first client), hands out a
``Session`` per connection, makes mechanism servers (PLAIN against the JAAS
``user_<name>`` options, SCRAM against the credentials in the metadata image)
and holds the authorizer (None without ``authorizer.class.name``).

It does no I/O beyond reading key files at start-up.
"""

from __future__ import annotations

import logging
from collections import Counter

from kwire.config import jaas
from kwire.config.security import enabled_mechanisms
from kwire.config.types import ConfigError
from kwire.security import tls
from kwire.security.plain import PlainServer
from kwire.security.principal import ANONYMOUS, KafkaPrincipal, SslPrincipalMapper, dn_of_der
from kwire.security.scram import MECHANISMS, ScramCredential, ScramServer
from kwire.security.session import Session

log = logging.getLogger("kwire.security")


class SecurityManager:
    def __init__(self, config, broker=None) -> None:
        self.config = config
        self.broker = broker
        self.extra: dict[str, str] = dict(getattr(config, "extra", {}) or {})
        self.protocols: dict[str, str] = {
            listener.name: config.listener_security_protocols[listener.name] for listener in config.listeners}
        self._contexts = {}
        self._mechanisms: dict[str, list[str]] = {}
        self._plain_users: dict[str, dict[str, str]] = {}
        self._mappers: dict[str, SslPrincipalMapper] = {}
        for name, proto in self.protocols.items():
            if proto in ("SSL", "SASL_SSL"):
                self._contexts[name] = tls.server_context(lambda key, n=name: self.listener_config(n, key))
                try:
                    self._mappers[name] = SslPrincipalMapper(self.listener_config(name, "ssl.principal.mapping.rules"))
                except ValueError as e:
                    raise ConfigError(str(e), "ssl.principal.mapping.rules") from None
            if proto.startswith("SASL_"):
                mechs = enabled_mechanisms(self.listener_config(name, "sasl.enabled.mechanisms"), name)
                self._mechanisms[name] = mechs
                if "PLAIN" in mechs:
                    text = self.jaas_config(name, "PLAIN")
                    try:
                        users = jaas.plain_users(text)
                    except ValueError as e:
                        raise ConfigError(str(e), "sasl.jaas.config") from None
                    if not users:
                        log.warning("listener %s enables PLAIN but its JAAS config names no user_<name> "
                                    "option: every PLAIN login will fail", name)
                    self._plain_users[name] = users
                if "OAUTHBEARER" in mechs:
                    log.warning("listener %s enables OAUTHBEARER with Kafka's unsecured JWS validator: "
                                "anyone can mint an accepted token (development and tests only)", name)
        self.failed_auth_delay_s = config["connection.failed.authentication.delay.ms"] / 1000
        self.authenticated: Counter[str] = Counter()  # successful SASL authentications by principal
        self.reauthenticated: Counter[str] = Counter()  # of which re-authentications (KIP-368)
        md = getattr(broker, "metadata", None)
        if md is not None and hasattr(md, "store") and not hasattr(md, "set_scram_credential"):
            from kwire.security.zk_store import attach  # cluster mode: credentials, ACLs, quotas in ZooKeeper

            attach(md)
        self.client_quotas = None  # kwire.security.client_quotas.ClientQuotas, once the image has a table
        table = getattr(getattr(getattr(broker, "metadata", None), "image", None), "client_quotas", None)
        if table is not None:
            from kwire.security.client_quotas import ClientQuotas

            self.client_quotas = ClientQuotas(table, config["quota.window.num"], config["quota.window.size.seconds"],
                                              config["controller.quota.window.num"],
                                              config["controller.quota.window.size.seconds"])
        self.authorizer = None
        if config.get("authorizer.class.name"):
            from kwire.security.authorizer import Authorizer

            self.authorizer = Authorizer(broker, self.extra.get("super.users"),
                                         self.extra.get("allow.everyone.if.no.acl.found"))

    # -- configuration --------------------------------------------------------------
    def listener_config(self, listener: str, name: str):
        prefixed = f"listener.name.{listener.lower()}.{name}"
        if prefixed in self.extra:
            from kwire.config.definitions import BROKER_CONFIGS

            d = BROKER_CONFIGS.get(name)
            return d.parse(self.extra[prefixed]) if d is not None else self.extra[prefixed]
        return self.config.get(name)

    def jaas_config(self, listener: str, mechanism: str) -> str | None:
        key = f"listener.name.{listener.lower()}.{mechanism.lower()}.sasl.jaas.config"
        if key in self.extra:
            return self.extra[key]
        return self.listener_config(listener, "sasl.jaas.config")

    def ssl_context(self, listener: str):
        return self._contexts.get(listener)

    def mechanisms(self, listener: str) -> list[str]:
        return list(self._mechanisms.get(listener, ()))

    def reauth_ms(self, listener: str) -> int:
        return int(self.listener_config(listener, "connections.max.reauth.ms") or 0)

    # -- sessions ---------------------------------------------------------------------
    def new_session(self, listener: str, host: str, ssl_object=None) -> Session:
        proto = self.protocols.get(listener, "PLAINTEXT")
        s = Session(self, listener, proto, host)
        if proto == "SSL":
            s.principal = self.tls_principal(listener, ssl_object)
        return s

    def tls_principal(self, listener: str, ssl_object) -> KafkaPrincipal:
        der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
        if not der:
            return ANONYMOUS
        return KafkaPrincipal("User", self._mappers[listener].name(dn_of_der(der)))

    def mechanism_server(self, listener: str, mechanism: str):
        if mechanism == "PLAIN":
            users = self._plain_users.get(listener, {})
            return PlainServer(users.get)
        if mechanism in MECHANISMS:
            return ScramServer(mechanism, self.scram_credential)
        if mechanism == "OAUTHBEARER":
            from kwire.security.oauthbearer import OAuthBearerServer

            text = self.jaas_config(listener, "OAUTHBEARER")
            return OAuthBearerServer(jaas.parse(text)[2] if text else {})
        raise ValueError(mechanism)

    def scram_credential(self, user: str, mechanism: str) -> ScramCredential | None:
        md = getattr(self.broker, "metadata", None)
        image = getattr(md, "image", None)
        table = getattr(image, "scram_credentials", None) or {}
        rec = table.get(user, {}).get(mechanism)
        return ScramCredential.from_record(rec) if rec else None

    # -- per-listener endpoints ---------------------------------------------------------------
    def set_endpoints(self, endpoints: dict[str, tuple[str, int]], default_listener: str) -> None:
        """This broker's advertised (host, port) per listener name, once the listeners are bound."""
        self.endpoints = dict(endpoints)
        self.default_listener = default_listener


def listener_brokers(ctx, brokers):
    """``brokers`` as a client on this request's listener must see them (Kafka answers Metadata,
    FindCoordinator and DescribeCluster per listener): this broker's own entry carries the
    endpoint of the listener the request came in on, and in a cluster every other broker its
    registered endpoint of that listener name. A broker that registered none of that name keeps
    its first endpoint (Kafka would leave it out)."""
    session = ctx.session
    if session is None:
        return brokers
    import copy

    manager = session.manager
    listener = session.listener
    endpoints = getattr(manager, "endpoints", None) or {}
    own = ctx.broker.node_id
    out = []
    for b in brokers:
        if b.node_id == own:
            addr = endpoints.get(listener) if listener != getattr(manager, "default_listener", None) else None
        else:
            addr = (getattr(b, "endpoints", None) or {}).get(listener)
        if addr is not None and tuple(addr) != (b.host, b.port):
            b = copy.copy(b)
            b.host, b.port = addr
        out.append(b)
    return out
