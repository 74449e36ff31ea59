"""Start-up checks of the security settings that need no I/O (called by BrokerConfig).

Part of the config layer (not of ``kwire.security``) because ``BrokerConfig.load``
runs these checks: config sits below security and never imports it.

For each SSL / SASL_SSL listener: a keystore is named (``ssl.keystore.location``
or the inline PEM pair) of a type kwire reads (JKS, Kafka's default, PKCS12,
PEM), ``ssl.client.auth`` is one of Kafka's values. For each SASL listener:
``sasl.enabled.mechanisms`` names only mechanisms kwire serves (Kafka's
default GSSAPI is not one), and PLAIN has a parseable JAAS config. Files are read later, by
``SecurityManager`` (a bad key file is also a ConfigError, at server start).
The authorizer must be one of Kafka's ACL authorizer classes.
"""

from __future__ import annotations

from typing import Any, Mapping

from .types import ConfigError

SUPPORTED_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
# Kafka's ACL authorizers (ZooKeeper mode, KRaft): kwire's authorizer follows their model.
AUTHORIZERS = ("kafka.security.authorizer.AclAuthorizer",
               "org.apache.kafka.metadata.authorizer.StandardAuthorizer")


def _get(values: Mapping[str, Any], extra: Mapping[str, str], listener: str, name: str):
    prefixed = f"listener.name.{listener.lower()}.{name}"
    if prefixed in extra:
        from .definitions import BROKER_CONFIGS

        d = BROKER_CONFIGS.get(name)
        return d.parse(extra[prefixed]) if d is not None else extra[prefixed]
    return values.get(name)


def enabled_mechanisms(raw, listener: str) -> list[str]:
    """``sasl.enabled.mechanisms`` of SASL listener ``listener``, upper-cased; a ConfigError
    when it is empty or names a mechanism kwire does not serve."""
    mechs = [m.strip().upper() for m in raw or [] if m.strip()]
    bad = [m for m in mechs if m not in SUPPORTED_MECHANISMS]
    if bad or not mechs:
        raise ConfigError(f"sasl.enabled.mechanisms (listener {listener}): "
                          f"{','.join(bad) or 'none'} not supported by kwire (it serves "
                          f"{', '.join(SUPPORTED_MECHANISMS)}; Kafka's default is GSSAPI, so set "
                          "it explicitly)", "sasl.enabled.mechanisms")
    return mechs


def check(values: Mapping[str, Any], extra: Mapping[str, str], listeners, protocols) -> None:
    for listener in listeners:
        proto = protocols[listener.name]

        def get(name: str, _l=listener.name):
            return _get(values, extra, _l, name)

        if proto in ("SSL", "SASL_SSL"):
            inline = get("ssl.keystore.key") or get("ssl.keystore.certificate.chain")
            kind = (get("ssl.keystore.type") or "JKS").upper()
            if not inline and not get("ssl.keystore.location"):
                raise ConfigError(f"listener {listener.name} ({proto}) needs a keystore: set "
                                  "ssl.keystore.location (JKS, PKCS12 or PEM) or ssl.keystore.key with "
                                  "ssl.keystore.certificate.chain", "ssl.keystore.location")
            if kind not in ("JKS", "PEM", "PKCS12"):
                raise ConfigError(f"ssl.keystore.type={kind} (listener {listener.name}) is not supported "
                                  "by kwire: use JKS, PKCS12 or PEM", "ssl.keystore.type")
            tkind = (get("ssl.truststore.type") or "JKS").upper()
            if get("ssl.truststore.location") and tkind not in ("JKS", "PEM", "PKCS12"):
                raise ConfigError(f"ssl.truststore.type={tkind} (listener {listener.name}) is not "
                                  "supported by kwire: use JKS, PKCS12 or PEM", "ssl.truststore.type")
            if str(get("ssl.client.auth") or "none").lower() not in ("required", "requested", "none"):
                raise ConfigError(f"ssl.client.auth={get('ssl.client.auth')}: expected required, "
                                  "requested or none", "ssl.client.auth")
        if proto.startswith("SASL_"):
            mechs = enabled_mechanisms(get("sasl.enabled.mechanisms"), listener.name)
            if "PLAIN" in mechs:
                from . import jaas

                key = f"listener.name.{listener.name.lower()}.plain.sasl.jaas.config"
                text = extra.get(key) or get("sasl.jaas.config")
                try:
                    jaas.plain_users(text)
                except ValueError as e:
                    raise ConfigError(str(e), "sasl.jaas.config") from None
    name = values.get("authorizer.class.name")
    if name and name not in AUTHORIZERS:
        raise ConfigError(f"authorizer.class.name={name}: kwire's authorizer implements Kafka's ACL "
                          f"model; use {' or '.join(AUTHORIZERS)}", "authorizer.class.name")
