"""BrokerConfig: the broker's configuration in Kafka's layers, typed and validated.

What it does
------------
``BrokerConfig`` layers values in Kafka's order, lowest first: DEFAULT_CONFIG,
STATIC_BROKER_CONFIG (file and ``--override``), DYNAMIC_DEFAULT_BROKER_CONFIG
(AlterConfigs on the broker resource ``""``), DYNAMIC_BROKER_CONFIG
(AlterConfigs on this broker's id). It gives typed values, a few derived
attributes (``listeners``, ``log_dirs``, ``retention_ms``...), the cross-key
checks Kafka makes at start-up (``broker.id`` = ``node.id``, advertised
listeners known, every listener with a security protocol, the inter-broker
listener (``inter.broker.listener.name`` / ``security.inter.broker.protocol``,
``sasl.mechanism.inter.broker.protocol``, with Kafka's messages), the group session
and heartbeat timeouts) and ``describe()`` entries in DescribeConfigs form.

What it deliberately does not do
--------------------------------
* No logging and no persistence: warnings (unknown keys) are collected in
  ``BrokerConfig.warnings`` for the caller to log, and dynamic configs are
  stored by the cluster metadata, which replays them with ``set_dynamic``.
* Unknown broker config names are not kept (Kafka keeps them as custom configs),
  except ``listener.name.<listener>.*`` and the authorizer's ``super.users`` /
  ``allow.everyone.if.no.acl.found``, kept as text in ``extra`` for
  ``kwire.security`` (checked at load by ``kwire.config.security``).

Invariants
----------
* Every value held has been parsed to its Python type (int, float, bool, str,
  list[str] or None) and validated, and the derived attributes match the values.
* A failed ``set_dynamic`` / ``alter_dynamic`` leaves the config unchanged.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .definitions import (
    _BROKER_DEFAULTS,
    _BROKER_SYNONYM_GROUPS,
    BROKER_CONFIGS,
    DEV_DEFAULTS,
    TOPIC_CONFIGS,
    _first_ms,
)
from .listeners import Listener, _parse_protocol_map, parse_listeners
from .overrides import apply_incremental
from .properties import read_properties
from .types import ConfigEntry, ConfigError, ConfigSynonym, Source, _known


_LAYER_SOURCES = (Source.DYNAMIC_BROKER_CONFIG, Source.DYNAMIC_DEFAULT_BROKER_CONFIG,
                  Source.STATIC_BROKER_CONFIG, Source.DEFAULT_CONFIG)


class BrokerConfig:
    """The broker's configuration: Kafka's layers, typed values, derived hot attributes.

    ``cfg[name]`` gives the effective typed value. Derived attributes (recomputed on every
    dynamic change): ``broker_id``, ``listeners`` / ``advertised_listeners`` (lists of
    Listener), ``log_dirs``, ``retention_ms``, ``roll_ms``, ``flush_ms``, ``cluster_id``,
    ``zookeeper_connect``, ``embedded`` (true without ZooKeeper) and
    ``listener_security_protocols`` (listener name -> protocol). ``explicit`` maps the keys
    set by file or overrides to their raw text; ``warnings`` lists unknown keys for the
    caller to log.
    """

    def __init__(self, props: Mapping[str, str] | None = None) -> None:
        self.warnings: list[str] = []
        self.extra: dict[str, str] = {}  # names kept as text for kwire.security (see SECURITY_EXTRA_CONFIGS)
        self._static: dict[str, Any] = {}
        self.explicit: dict[str, str] = {}  # name -> raw value from file/overrides (STATIC_BROKER_CONFIG)
        self.dev_defaults = False  # True when started without a properties file (load(None))
        for name, raw in (props or {}).items():
            d = BROKER_CONFIGS.get(name)
            if d is None:
                if name in _REFUSED_UNKNOWN:
                    raise ConfigError(f"{name} is set, but {_REFUSED_UNKNOWN[name]}", name)
                if name.startswith("listener.name.") or name in SECURITY_EXTRA_CONFIGS:
                    self.extra[name] = raw  # per-listener ssl/sasl names, authorizer props (kwire.security)
                    continue
                self.warnings.append(f"The configuration '{name}' was supplied but isn't a known config.")
                continue
            self._static[name] = d.parse(raw)
            self.explicit[name] = raw
        self._dynamic_default: dict[str, Any] = {}
        self._dynamic: dict[str, Any] = {}
        self._resolve()

    @classmethod
    def load(cls, path: str | None = None,
             overrides: Iterable[str] | Mapping[str, Any] | None = None) -> BrokerConfig:
        """Read ``path`` then apply ``key=value`` overrides.

        Without a file the broker is a dev broker: it starts from ``DEV_DEFAULTS`` (Kafka's
        shipped server.properties, reported as STATIC_BROKER_CONFIG as Kafka reports a file's
        values); a file starts from Kafka's code defaults, as Kafka does.
        """
        user = read_properties(path) if path else {}
        if isinstance(overrides, Mapping):
            for k, v in overrides.items():
                user[k] = v if isinstance(v, str) else _python_to_string(v)
        else:
            for item in overrides or ():
                key, sep, value = item.partition("=")
                if not sep or not key.strip():
                    raise ConfigError(f"Override {item!r} must be of the form key=value")
                user[key.strip()] = value
        cfg = cls({**DEV_DEFAULTS, **user} if not path else user)
        cfg.dev_defaults = not path
        cfg.explicit = {k: v for k, v in cfg.explicit.items() if k in user}
        return cfg

    def not_acted(self) -> list[str]:
        """Keys set by file or overrides (or dynamically) that kwire accepts but does not act on."""
        names = set(self.explicit) | set(self._dynamic) | set(self._dynamic_default)
        return sorted(n for n in names if not BROKER_CONFIGS[n].acted)

    def ensure_cluster_min_isr(self) -> bool:
        """KIP-966: with Eligible Leader Replicas (on by default in new 4.1+ clusters) the
        controller keeps a cluster-level ``min.insync.replicas``, created from the static
        value, and no per-broker override. Returns True if a layer changed (to persist)."""
        changed = False
        if "min.insync.replicas" in self._dynamic:
            new = dict(self._dynamic)
            del new["min.insync.replicas"]
            self._replace_layer(False, new)
            changed = True
        if "min.insync.replicas" not in self._dynamic_default:
            new = dict(self._dynamic_default)
            new["min.insync.replicas"] = self._values["min.insync.replicas"]
            self._replace_layer(True, new)
            changed = True
        return changed

    # -- values --

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def get(self, name: str, default: Any = None) -> Any:
        return self._values.get(name, default)

    def source(self, name: str) -> Source:
        for layer, src in zip(self._layers(), _LAYER_SOURCES):
            if name in layer:
                return src
        return Source.DEFAULT_CONFIG

    @property
    def dynamic(self) -> dict[str, str]:
        """Per-broker dynamic overrides (DYNAMIC_BROKER_CONFIG), as strings."""
        return {n: BROKER_CONFIGS[n].to_string(v) for n, v in self._dynamic.items()}

    @property
    def dynamic_default(self) -> dict[str, str]:
        """Cluster-wide dynamic defaults (DYNAMIC_DEFAULT_BROKER_CONFIG), as strings."""
        return {n: BROKER_CONFIGS[n].to_string(v) for n, v in self._dynamic_default.items()}

    def set_dynamic(self, name: str, value: str | None, *, cluster_default: bool = False) -> None:
        """Set (value None: remove) a dynamic broker config, as AlterConfigs on the broker.

        ``cluster_default`` targets the cluster-wide default resource (name ``""``).
        Raises ConfigError for unknown or read-only names and invalid values.
        """
        d = _known(BROKER_CONFIGS, name, "broker")
        if d.read_only:
            raise ConfigError(f"Cannot update these configs dynamically: {name}", name)
        if cluster_default and d.per_broker and value is not None:
            raise ConfigError("Cannot update these configs at default cluster level, broker id "
                              f"must be specified: {name}", name)
        layer = self._dynamic_default if cluster_default else self._dynamic
        new = dict(layer)
        if value is None:
            new.pop(name, None)
        else:
            new[name] = d.parse(value)
        self._replace_layer(cluster_default, new)

    def alter_dynamic(self, ops: Iterable[tuple[str, int, str | None]], *,
                      cluster_default: bool = False) -> None:
        """IncrementalAlterConfigs on the broker resource; all or nothing."""
        layer = self._dynamic_default if cluster_default else self._dynamic
        current = {n: BROKER_CONFIGS[n].to_string(v) for n, v in layer.items()}
        result = apply_incremental(current, ops, BROKER_CONFIGS)
        changed = set(result) ^ set(current) | {n for n in result if result[n] != current.get(n)}
        for name in changed:
            if BROKER_CONFIGS[name].read_only:
                raise ConfigError(f"Cannot update these configs dynamically: {name}", name)
        per_broker = sorted(n for n in changed if n in result and BROKER_CONFIGS[n].per_broker)
        if cluster_default and per_broker:
            raise ConfigError("Cannot update these configs at default cluster level, broker id "
                              "must be specified: " + ", ".join(per_broker), per_broker[0])
        self._replace_layer(cluster_default, {n: BROKER_CONFIGS[n].parse(v) for n, v in result.items()})

    def dynamic_layers(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Both dynamic layers (per-broker, cluster default), for ``restore_dynamic_layers``."""
        return dict(self._dynamic), dict(self._dynamic_default)

    def restore_dynamic_layers(self, layers: tuple[dict[str, Any], dict[str, Any]]) -> None:
        """Put back layers taken by ``dynamic_layers`` (a change that could not be persisted)."""
        old = (self._dynamic, self._dynamic_default)
        self._dynamic, self._dynamic_default = dict(layers[0]), dict(layers[1])
        try:
            self._resolve()
        except ConfigError:
            self._dynamic, self._dynamic_default = old
            self._resolve()
            raise

    def _replace_layer(self, cluster_default: bool, new: dict[str, Any]) -> None:
        attr = "_dynamic_default" if cluster_default else "_dynamic"
        old = getattr(self, attr)
        setattr(self, attr, new)
        try:
            self._resolve()
        except ConfigError:
            setattr(self, attr, old)
            self._resolve()
            raise

    def _layers(self) -> tuple[dict[str, Any], ...]:
        return (self._dynamic, self._dynamic_default, self._static)

    def _resolve(self) -> None:
        values = dict(_BROKER_DEFAULTS)
        values.update(self._static)
        values.update(self._dynamic_default)
        values.update(self._dynamic)

        broker_id = values["broker.id"]
        node_id = values["node.id"]
        if node_id >= 0:
            if "broker.id" in self._static and broker_id != node_id:
                raise ConfigError(f"broker.id ({broker_id}) and node.id ({node_id}) must be equal "
                                  "when both are set", "node.id")
            broker_id = node_id
        listeners = parse_listeners(values["listeners"], "listeners")
        if values["advertised.listeners"] is None:
            advertised = listeners
        else:
            advertised = parse_listeners(values["advertised.listeners"], "advertised.listeners")
            unknown = {a.name for a in advertised} - {listener.name for listener in listeners}
            if unknown:
                raise ConfigError(f"advertised.listeners names {sorted(unknown)} are not in "
                                  "listeners", "advertised.listeners")
        protocols = _parse_protocol_map(values["listener.security.protocol.map"])
        for listener in listeners:
            if listener.name not in protocols:
                raise ConfigError(f"No security protocol defined for listener {listener.name}",
                                  "listener.security.protocol.map")
        _check_group_timeouts(values)
        _check_safety(values, listeners, protocols)
        ib_listener, ib_protocol = _inter_broker(values, self._static, self.extra, advertised, protocols)
        from . import security as security_settings  # ssl.*/sasl.* (no I/O)

        security_settings.check(values, self.extra, listeners, protocols)

        self._values = values
        self.broker_id: int = broker_id
        self.listeners: list[Listener] = listeners
        self.advertised_listeners: list[Listener] = advertised
        self.listener_security_protocols: dict[str, str] = protocols
        # the listener brokers connect to each other on (Kafka's interBrokerListenerName) and its protocol
        self.inter_broker_listener_name: str = ib_listener
        self.inter_broker_security_protocol: str = ib_protocol
        self.log_dirs: list[str] = list(values["log.dirs"] or values["log.dir"])
        self.retention_ms: int = _first_ms(values, TOPIC_CONFIGS["retention.ms"].synonyms)
        if self.retention_ms < 0:
            self.retention_ms = -1  # KafkaConfig.logRetentionTimeMillis: any negative = unlimited
        self.roll_ms: int = _first_ms(values, TOPIC_CONFIGS["segment.ms"].synonyms)
        self.flush_ms: int = _first_ms(values, TOPIC_CONFIGS["flush.ms"].synonyms)
        self.cluster_id: str | None = values["cluster.id"]
        # ZooKeeper mode (Kafka 3.x): set, the broker is one of a replicated cluster.
        self.zookeeper_connect: str | None = values["zookeeper.connect"] or None
        self.embedded: bool = self.zookeeper_connect is None

    # -- DescribeConfigs --

    def describe(self, include_synonyms: bool = False, names: Iterable[str] | None = None, *,
                 cluster_default: bool = False) -> list[ConfigEntry]:
        """DescribeConfigs for this broker (or, with ``cluster_default``, resource ``""``).

        Follows Kafka's ConfigHelper: every known config is listed for the broker; only the
        dynamic defaults for the cluster-default resource. Synonyms are ordered by source
        (dynamic, dynamic default, static, default), then by synonym precedence, starting
        from the described name itself.
        """
        wanted = set(names) if names is not None else None
        pool = self._dynamic_default if cluster_default else BROKER_CONFIGS
        out = []
        for name in sorted(pool):
            if wanted is not None and name not in wanted:
                continue
            d = BROKER_CONFIGS[name]
            synonyms = self._synonyms(_BROKER_SYNONYM_GROUPS.get(name, (name,)), d.sensitive)
            if cluster_default:
                synonyms = [s for s in synonyms if s.source != Source.DYNAMIC_BROKER_CONFIG]
                value = self._dynamic_default[name]
            else:
                value = self._values[name]
            while synonyms and synonyms[0].name != name:  # Kafka's dropWhile(_.name != name)
                synonyms.pop(0)
            source = synonyms[0].source if synonyms else Source.DEFAULT_CONFIG
            out.append(ConfigEntry(name, None if d.sensitive else d.to_string(value), int(source),
                                   d.read_only, d.sensitive, int(d.type),
                                   synonyms if include_synonyms else []))
        return out

    def _synonyms(self, group: Iterable[str], sensitive: bool = False) -> list[ConfigSynonym]:
        out = []
        for layer, src in zip(self._layers() + (_BROKER_DEFAULTS,), _LAYER_SOURCES):
            for syn in group:
                value = layer.get(syn)
                if value is not None:
                    text = None if sensitive else BROKER_CONFIGS[syn].to_string(value)
                    out.append(ConfigSynonym(syn, text, int(src)))
        return out


def _python_to_string(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


# Names Kafka 4.3 does not know whose absence would change what a deployment relies on:
# refused at start-up rather than warned about.
_REFUSED_UNKNOWN: dict[str, str] = {}

# Security protocols kwire serves (kwire.security); anything else would silently serve plaintext.
IMPLEMENTED_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
# Mechanisms a broker can log in with to another broker (kwire.security.inter_broker): the
# username/password ones. GSSAPI (Kafka's default) and OAUTHBEARER need a login module kwire lacks.
INTER_BROKER_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")
# Authorizer properties (Kafka's AclAuthorizer reads them from the broker config; they are not
# KafkaConfig names): kept as text in ``BrokerConfig.extra``, with ``listener.name.*`` names.
SECURITY_EXTRA_CONFIGS = ("super.users", "allow.everyone.if.no.acl.found")
_KNOWN_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")


def _check_safety(v: Mapping[str, Any], listeners: list[Listener], protocols: Mapping[str, str]) -> None:
    """Refuse settings kwire cannot honour whose silent absence would change safety.

    A listener whose security protocol (directly or through listener.security.protocol.map)
    is not one of Kafka's four, and KRaft settings that make this node part of a
    larger quorum: kwire would otherwise serve plaintext, or come up as a separate
    single-node cluster. The security settings themselves (keystores, SASL mechanisms and
    JAAS configs, the authorizer class) are checked by ``kwire.config.security``.
    """
    for listener in listeners:
        proto = protocols[listener.name]
        if proto in IMPLEMENTED_PROTOCOLS:
            continue
        key = "listener.security.protocol.map" if listener.name != proto else "listeners"
        what = ("is not a security protocol" if proto not in _KNOWN_PROTOCOLS
                else "is not implemented by kwire")
        raise ConfigError(f"{key}: listener {listener.name} uses security protocol {proto}, which "
                          f"{what}; kwire would serve it as plaintext. Use one of "
                          f"{', '.join(IMPLEMENTED_PROTOCOLS)}.", key)
    # authorizer.class.name: checked by kwire.config.security (Kafka's ACL authorizers only)
    if v["process.roles"] == ["broker"]:
        raise ConfigError("process.roles=broker expects a separate KRaft controller quorum; kwire "
                          "runs a single node that is its own controller and would come up as a "
                          "separate cluster. Use broker,controller or leave it unset.", "process.roles")
    for key in ("controller.quorum.voters", "controller.quorum.bootstrap.servers"):
        if len(v[key] or []) > 1:
            raise ConfigError(f"{key} names {len(v[key])} controllers, but kwire runs a single "
                              "node and would come up as a separate single-node cluster.", key)


def _inter_broker(v: Mapping[str, Any], static: Mapping[str, Any], extra: Mapping[str, str],
                  advertised: list[Listener], protocols: Mapping[str, str]) -> tuple[str, str]:
    """The inter-broker listener name and its security protocol, checked as Kafka's KafkaConfig does
    (getInterBrokerListenerNameAndSecurityProtocol and validateValues), with Kafka's messages.

    ``inter.broker.listener.name`` and an explicitly set ``security.inter.broker.protocol`` are
    mutually exclusive; without the name, the protocol's name is the listener name. The listener
    must be advertised (a single node that sets neither key is not held to it: it has no peers);
    with SASL, ``sasl.mechanism.inter.broker.protocol`` must be enabled on it
    (and be one kwire can log in with).
    """
    name = v["inter.broker.listener.name"]
    if name is not None and "security.inter.broker.protocol" in static:
        raise ConfigError("Only one of inter.broker.listener.name and security.inter.broker.protocol "
                          "should be set.", "inter.broker.listener.name")
    if name is not None:
        listener = name.strip().upper()  # Kafka's ListenerName.normalised
        key = "inter.broker.listener.name"
        if listener not in protocols:
            raise ConfigError(f"Listener with name {listener} defined in inter.broker.listener.name not "
                              "found in listener.security.protocol.map.", key)
        protocol = protocols[listener]
    else:
        protocol = str(v["security.inter.broker.protocol"]).upper()
        listener, key = protocol, "security.inter.broker.protocol"
    names = [a.name for a in advertised]
    explicit = name is not None or "security.inter.broker.protocol" in static
    if listener not in names and not explicit and not v["zookeeper.connect"]:
        # kwire deviation: a single node (no zookeeper.connect) has no inter-broker traffic, so
        # the defaults do not stop it (Kafka would ask for a PLAINTEXT listener here too)
        return listener, protocol
    if listener not in names:
        hint = "" if key == "inter.broker.listener.name" else \
            f" (security.inter.broker.protocol={protocol} names the listener {listener})"
        raise ConfigError("inter.broker.listener.name must be a listener name defined in "
                          "advertised.listeners. The valid options based on currently configured "
                          f"listeners are {','.join(names)}{hint}", key)
    if protocol in ("SASL_PLAINTEXT", "SASL_SSL"):
        from .security import _get

        mechanism = str(v["sasl.mechanism.inter.broker.protocol"]).upper()
        enabled = [m.strip().upper() for m in _get(v, extra, listener, "sasl.enabled.mechanisms") or []]
        if mechanism not in enabled:
            raise ConfigError("sasl.mechanism.inter.broker.protocol must be included in "
                              "sasl.enabled.mechanisms when SASL is used for inter-broker communication",
                              "sasl.mechanism.inter.broker.protocol")
        if mechanism not in INTER_BROKER_MECHANISMS:
            raise ConfigError(f"sasl.mechanism.inter.broker.protocol={mechanism}: kwire's brokers log in "
                              f"to each other with {', '.join(INTER_BROKER_MECHANISMS)} only",
                              "sasl.mechanism.inter.broker.protocol")
    return listener, protocol


def _check_group_timeouts(v: Mapping[str, Any]) -> None:
    # GroupCoordinatorConfig's require(...) checks for consumer (KIP-848) groups.
    def require(ok: bool, message: str, name: str) -> None:
        if not ok:
            raise ConfigError(message, name)
    p = "group.consumer."
    require(v[p + "max.session.timeout.ms"] >= v[p + "min.session.timeout.ms"],
            f"{p}max.session.timeout.ms must be greater than or equal to {p}min.session.timeout.ms",
            p + "max.session.timeout.ms")
    require(v[p + "min.session.timeout.ms"] <= v[p + "session.timeout.ms"] <= v[p + "max.session.timeout.ms"],
            f"{p}session.timeout.ms must be between {p}min.session.timeout.ms and "
            f"{p}max.session.timeout.ms", p + "session.timeout.ms")
    require(v[p + "max.heartbeat.interval.ms"] >= v[p + "min.heartbeat.interval.ms"],
            f"{p}max.heartbeat.interval.ms must be greater than or equal to "
            f"{p}min.heartbeat.interval.ms", p + "max.heartbeat.interval.ms")
    require(v[p + "min.heartbeat.interval.ms"] <= v[p + "heartbeat.interval.ms"]
            <= v[p + "max.heartbeat.interval.ms"],
            f"{p}heartbeat.interval.ms must be between {p}min.heartbeat.interval.ms and "
            f"{p}max.heartbeat.interval.ms", p + "heartbeat.interval.ms")
    require(v[p + "heartbeat.interval.ms"] < v[p + "session.timeout.ms"],
            f"{p}heartbeat.interval.ms must be less than {p}session.timeout.ms",
            p + "heartbeat.interval.ms")
    require(v["group.max.session.timeout.ms"] >= v["group.min.session.timeout.ms"],
            "group.max.session.timeout.ms must be greater than or equal to "
            "group.min.session.timeout.ms", "group.max.session.timeout.ms")
