"""Broker and topic configuration: Kafka's config names, types, defaults and precedence.

What it does
------------
* ``parse_properties(text)`` reads the Java ``.properties`` format of Kafka's
  ``server.properties``; ``read_properties(path)`` reads it from a file (the only I/O here).
* ``BROKER_CONFIGS`` and ``TOPIC_CONFIGS`` map each config name to a ``ConfigDef``:
  Kafka's type (with its DescribeConfigs ``config_type`` code), default, validator,
  whether it can be changed at run time, and, for topic configs, the broker
  synonyms that supply the default (``retention.ms`` <- ``log.retention.ms`` <-
  ``log.retention.minutes`` <- ``log.retention.hours``, converted to ms).
* ``BrokerConfig`` layers values in Kafka's order, lowest first: DEFAULT_CONFIG,
  STATIC_BROKER_CONFIG (file and ``--override``), DYNAMIC_DEFAULT_BROKER_CONFIG
  (AlterConfigs on the broker resource ``""``), DYNAMIC_BROKER_CONFIG
  (AlterConfigs on this broker's id). It gives typed values, a few derived
  attributes (``listeners``, ``log_dirs``, ``retention_ms``...) and ``describe()``
  entries in DescribeConfigs form.
* ``topic_config(overrides, broker)`` resolves a topic's effective settings:
  topic override, else the first broker synonym that has a value, else Kafka's
  topic default. ``TopicConfig.describe()`` reports sources and synonyms the way
  Kafka's ConfigHelper does.
* ``validate_topic_config``, ``validate_topic_configs`` and ``apply_incremental``
  check CreateTopics / AlterConfigs / IncrementalAlterConfigs input and raise
  ``ConfigError``; the handler answers INVALID_CONFIG with its message.

Names, types, defaults and validators follow Kafka 4.x (including the KIP-1030
default changes: ``message.timestamp.after.max.ms`` = 1 hour, ``segment.bytes``
at least 1 MiB, ``num.recovery.threads.per.data.dir`` = 2). ``zookeeper.*``
configs are gone from Kafka 4; kwire keeps them with Kafka 3.9's defaults
because ``kwire.cluster`` can use ZooKeeper. Where kwire's default differs from
Kafka's, the ConfigDef keeps Kafka's in ``kafka_default`` and its doc says why:
``broker.id`` (0, not -1: a single node needs no id assignment), ``listeners``
(loopback, not all interfaces), ``log.dir`` (``./kwire-data``, relative to the
working directory, not ``/tmp/kafka-logs``), and the replication factor / min ISR
of the internal topics (1, because a single kwire node could never create them
with Kafka's 3 and 2).

What it deliberately does not do
--------------------------------
* No logging and no persistence: warnings are collected in
  ``BrokerConfig.warnings`` for the caller to log, and dynamic configs are
  stored by the cluster metadata, which replays them with ``set_dynamic``.
* No ``listener.name.<name>.*`` prefixed configs, SSL/SASL configs, config
  providers (``${file:...}``) or password encryption; Kafka 4 removed
  ``message.format.version``, ``message.timestamp.difference.max.ms`` and
  ``message.downconversion.enable``, so they are unknown here too.
* An empty listener host (``PLAINTEXT://:9092``) stays ``""``: binding to all
  interfaces and advertising the canonical host name are I/O, done by ``server``.
* ``listeners`` is per-broker updatable in Kafka; kwire cannot rebind sockets at
  run time, so it is read-only here.

Invariants
----------
* Every value held by BrokerConfig and TopicConfig has been parsed to its
  Python type (int, float, bool, str, list[str] or None) and validated.
* A failed ``set_dynamic`` / ``alter_dynamic`` leaves the config unchanged.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any, Callable, Iterable, Mapping, NamedTuple

__all__ = [
    "AlterOp", "BROKER_CONFIGS", "BrokerConfig", "ConfigDef", "ConfigEntry", "ConfigError",
    "ConfigSynonym", "ConfigType", "Listener", "Source", "TOPIC_CONFIGS", "TopicConfig",
    "apply_incremental", "parse_listeners", "parse_properties", "read_properties",
    "topic_config", "validate_topic_config", "validate_topic_configs",
]

INT_MAX = 2**31 - 1
LONG_MAX = 2**63 - 1
DOUBLE_MAX = 1.7976931348623157e308
_HOUR_MS = 3_600_000
_MINUTE_MS = 60_000


class ConfigType(IntEnum):
    """Kafka's ConfigDef.Type, numbered as DescribeConfigs' ``config_type`` field (KIP-569)."""
    UNKNOWN = 0
    BOOLEAN = 1
    STRING = 2
    INT = 3
    SHORT = 4
    LONG = 5
    DOUBLE = 6
    LIST = 7
    CLASS = 8
    PASSWORD = 9


class Source(IntEnum):
    """DescribeConfigs ``config_source`` codes."""
    UNKNOWN = 0
    DYNAMIC_TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    CLIENT_METRICS_CONFIG = 7
    GROUP_CONFIG = 8


class AlterOp(IntEnum):
    """IncrementalAlterConfigs ``config_operation`` codes."""
    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


class ConfigError(ValueError):
    """A config name or value was rejected. The message names the key and the problem.

    ``name`` is the offending key (when there is one). ``invalid_request`` is true for
    malformed requests (a key repeated in one request, a null value) that Kafka answers
    with INVALID_REQUEST rather than INVALID_CONFIG.
    """

    def __init__(self, message: str, name: str | None = None, *, invalid_request: bool = False) -> None:
        super().__init__(message)
        self.name = name
        self.invalid_request = invalid_request


def _invalid(name: str, value: Any, reason: str) -> ConfigError:
    # Kafka's ConfigException wording, so clients see familiar messages.
    return ConfigError(f"Invalid value {value} for configuration {name}: {reason}", name)


class ConfigSynonym(NamedTuple):
    name: str
    value: str | None
    source: int


class ConfigEntry(NamedTuple):
    """One DescribeConfigs result entry."""
    name: str
    value: str | None
    source: int
    read_only: bool
    is_sensitive: bool
    config_type: int
    synonyms: list[ConfigSynonym]


class Listener(NamedTuple):
    name: str  # upper-cased listener name, e.g. "PLAINTEXT"
    host: str  # "" = all interfaces (bind) / canonical host name (advertise); IPv6 without brackets
    port: int


# --------------------------------------------------------------------------------------
# .properties
# --------------------------------------------------------------------------------------

_WS = " \t\f"
_LINE_SPLIT = re.compile(r"\r\n|\r|\n")
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def parse_properties(text: str) -> dict[str, str]:
    """Parse Java ``.properties`` text (java.util.Properties.load rules); later keys win.

    Comments start with ``#`` or ``!`` as the first non-blank character of a line; a key
    ends at the first unescaped ``=``, ``:`` or blank; a line ending in an odd number of
    backslashes continues on the next line, whose leading blanks are dropped; ``\\t \\n \\r
    \\f \\uXXXX`` are decoded and any other escaped character stands for itself.
    """
    out: dict[str, str] = {}
    for line in _logical_lines(text):
        key, value = _split_key_value(line)
        out[_unescape(key)] = _unescape(value)
    return out


def read_properties(path: str) -> dict[str, str]:
    """Read a properties file; UTF-8, falling back to ISO-8859-1 (what Java reads)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ConfigError(f"Cannot read config file {path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("iso-8859-1")
    return parse_properties(text)


def _logical_lines(text: str) -> Iterable[str]:
    pending: str | None = None
    for raw in _LINE_SPLIT.split(text):
        s = raw.lstrip(_WS)
        if pending is None and (not s or s[0] in "#!"):
            continue  # blank or comment; a comment ending in "\" does not continue
        backslashes = len(s) - len(s.rstrip("\\"))
        if backslashes % 2:
            pending = (pending or "") + s[:-1]
            continue
        yield (pending or "") + s
        pending = None
    if pending is not None:
        yield pending  # a continuation at end of input just ends the line


def _split_key_value(line: str) -> tuple[str, str]:
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c in "=:" or c in _WS:
            break
        i += 1
    key = line[:i]
    while i < n and line[i] in _WS:
        i += 1
    if i < n and line[i] in "=:":
        i += 1
        while i < n and line[i] in _WS:
            i += 1
    return key, line[i:]


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out: list[str] = []
    i, n = 0, len(s)
    surrogates = False
    while i < n:
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        i += 1
        if i == n:
            break  # a lone trailing backslash is dropped, as Java does
        c = s[i]
        if c == "u":
            digits = s[i + 1:i + 5]
            if len(digits) != 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise ConfigError(f"Malformed \\uxxxx encoding in properties: {s!r}")
            code = int(digits, 16)
            surrogates |= 0xD800 <= code <= 0xDFFF
            out.append(chr(code))
            i += 5
        else:
            out.append(_ESCAPES.get(c, c))
            i += 1
    result = "".join(out)
    if surrogates:  # \uD83D\uDE00 pairs, as Java's UTF-16 strings would hold them
        result = result.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return result


# --------------------------------------------------------------------------------------
# Types and validators
# --------------------------------------------------------------------------------------

_INT_RE = re.compile(r"[+-]?[0-9]+\Z")
_BOUNDS = {
    ConfigType.INT: (-(2**31), INT_MAX),
    ConfigType.SHORT: (-(2**15), 2**15 - 1),
    ConfigType.LONG: (-(2**63), LONG_MAX),
}


def _parse_typed(name: str, type_: ConfigType, raw: str) -> Any:
    """Kafka's ConfigDef.parseType for a string value."""
    s = raw.strip()
    if type_ is ConfigType.BOOLEAN:
        low = s.lower()
        if low in ("true", "false"):
            return low == "true"
        raise _invalid(name, raw, "Expected value to be either true or false")
    if type_ in _BOUNDS:
        lo, hi = _BOUNDS[type_]
        if _INT_RE.match(s) and lo <= int(s) <= hi:
            return int(s)
        raise _invalid(name, raw, f"Not a number of type {type_.name}")
    if type_ is ConfigType.DOUBLE:
        try:
            if "_" in s:  # Python's float() takes "1_0"; Java's parseDouble does not
                raise ValueError
            return float(s)
        except ValueError:
            raise _invalid(name, raw, "Not a number of type DOUBLE") from None
    if type_ is ConfigType.LIST:
        return [item.strip() for item in s.split(",")] if s else []
    return s  # STRING, CLASS, PASSWORD


def _java_double(v: float) -> str:
    """Double.toString: plain between 1e-3 and 1e7, else d.dddE<n>."""
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Infinity" if v > 0 else "-Infinity"
    a = abs(v)
    sign = "-" if v < 0 or (v == 0 and str(v).startswith("-")) else ""
    if a == 0 or 1e-3 <= a < 1e7:
        return sign + repr(a)
    mant, _, exp = repr(a).partition("e")
    int_part, _, frac = mant.partition(".")
    digits = (int_part + frac).lstrip("0")
    sci = int(exp or 0) - len(frac) + len(digits) - 1
    digits = digits.rstrip("0") or "0"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{sci}"


def _to_string(type_: ConfigType, value: Any) -> str | None:
    """Kafka's ConfigDef.convertToString."""
    if value is None:
        return None
    if type_ is ConfigType.BOOLEAN:
        return "true" if value else "false"
    if type_ is ConfigType.LIST:
        return ",".join(value)
    if type_ is ConfigType.DOUBLE:
        return _java_double(float(value))
    return str(value)


class Range:
    def __init__(self, lo: float | None = None, hi: float | None = None) -> None:
        self.lo, self.hi = lo, hi

    def __call__(self, name: str, value: Any) -> None:
        if self.lo is not None and value < self.lo:
            raise _invalid(name, value, f"Value must be at least {self.lo}")
        if self.hi is not None and value > self.hi:
            raise _invalid(name, value, f"Value must be no more than {self.hi}")

    def __repr__(self) -> str:
        lo = "..." if self.lo is None else self.lo
        return f"[{lo},...]" if self.hi is None else f"[{lo},...,{self.hi}]"


def _at_least(n: float) -> Range:
    return Range(n, None)


class OneOf:
    """Kafka's ValidString.in; with ``each`` set, ValidList.in (every list item must match)."""

    def __init__(self, *values: str, each: bool = False) -> None:
        self.values, self.each = values, each

    def __call__(self, name: str, value: Any) -> None:
        for item in (value if self.each else [value]):
            if item not in self.values:
                raise _invalid(name, item, "String must be one of: " + ", ".join(self.values))

    def __repr__(self) -> str:
        return "[" + ", ".join(self.values) + "]"


def _gzip_level(name: str, value: int) -> None:
    # Deflater levels 1..9, or -1 for zlib's own default (Kafka's default).
    if value != -1 and not 1 <= value <= 9:
        raise _invalid(name, value, "Value must be -1 (the codec's default) or between 1 and 9")


def _non_empty_unique(name: str, value: list[str]) -> None:
    if not value or any(not item for item in value):
        raise _invalid(name, ",".join(value), "Empty list or empty item in list")
    if len(set(value)) != len(value):
        raise _invalid(name, ",".join(value), "Duplicate items in list")


_THROTTLED_RE = re.compile(r"[0-9]+:[0-9]+\Z")


def _throttled_replicas(name: str, value: list[str]) -> None:
    if value == ["*"] or all(_THROTTLED_RE.match(item) for item in value):
        return
    raise _invalid(name, ",".join(value),
                   'must be "*" or a list of [partitionId]:[brokerId] pairs, e.g. 0:101,1:102')


def _listeners_validator(name: str, value: list[str]) -> None:
    parse_listeners(value, name)


# --------------------------------------------------------------------------------------
# Definitions
# --------------------------------------------------------------------------------------

_SAME: Any = object()


class ConfigDef:
    """One config: Kafka's name, type, default and validator, plus kwire's facts about it.

    ``default`` is the typed value kwire uses (None = null); ``kafka_default`` is Kafka's
    where kwire differs. ``read_only`` is false only for configs AlterConfigs may change at
    run time. ``synonyms`` (topic configs only) lists ``(broker_name, multiplier)`` pairs in
    Kafka's precedence order; the multiplier converts hours or minutes to ms. ``internal``
    configs are accepted but never described (Kafka's defineInternal).
    """

    __slots__ = ("name", "type", "default", "validator", "doc", "read_only", "kafka_default",
                 "synonyms", "internal")

    def __init__(self, name: str, type: ConfigType, default: Any,
                 validator: Callable[[str, Any], None] | None = None, doc: str = "", *,
                 read_only: bool = True, kafka_default: Any = _SAME,
                 synonyms: tuple[tuple[str, int], ...] = (), internal: bool = False) -> None:
        self.name = name
        self.type = type
        self.default = default
        self.validator = validator
        self.doc = doc
        self.read_only = read_only
        self.kafka_default = default if kafka_default is _SAME else kafka_default
        self.synonyms = synonyms
        self.internal = internal

    @property
    def sensitive(self) -> bool:
        return self.type is ConfigType.PASSWORD

    def parse(self, raw: str) -> Any:
        """Parse and validate a string value; raises ConfigError."""
        value = _parse_typed(self.name, self.type, raw)
        if self.validator is not None:
            self.validator(self.name, value)
        return value

    def to_string(self, value: Any) -> str | None:
        return _to_string(self.type, value)

    def __repr__(self) -> str:
        return f"ConfigDef({self.name!r}, {self.type.name}, default={self.default!r})"


T = ConfigType
BROKER_CONFIGS: dict[str, ConfigDef] = {}
TOPIC_CONFIGS: dict[str, ConfigDef] = {}


def _broker(name: str, type_: ConfigType, default: Any, validator=None, doc: str = "", *,
            dynamic: bool = False, kafka_default: Any = _SAME) -> None:
    BROKER_CONFIGS[name] = ConfigDef(name, type_, default, validator, doc,
                                     read_only=not dynamic, kafka_default=kafka_default)


def _topic(name: str, type_: ConfigType, default: Any, validator=None, doc: str = "", *,
           synonyms: tuple[str | tuple[str, int], ...] = (), internal: bool = False) -> None:
    syn = tuple((s, 1) if isinstance(s, str) else s for s in synonyms)
    TOPIC_CONFIGS[name] = ConfigDef(name, type_, default, validator, doc, read_only=False,
                                    synonyms=syn, internal=internal)


_COMPRESSION_TYPES = OneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")
_TIMESTAMP_TYPES = OneOf("CreateTime", "LogAppendTime")
_CLEANUP_POLICIES = OneOf("compact", "delete", each=True)
_PROTOCOL_MAP_DEFAULT = "SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT"
_ACCEPTED = "Accepted for compatibility; kwire does not use it."

# --- node identity and KRaft settings kwire accepts but does not use ---
_broker("broker.id", T.INT, 0, _at_least(0),
        "This node's id. kwire defaults to 0 (Kafka: -1, i.e. assigned) because a single "
        "node needs no assignment. node.id is accepted as an alias.", kafka_default=-1)
_broker("node.id", T.INT, -1, None,
        "KRaft name for broker.id; -1 means unset. If both are set they must be equal.")
_broker("cluster.id", T.STRING, None, None,
        "kwire extension, no Kafka config of this name: the cluster id to use. Unset, kwire "
        "generates one on first start and keeps it in its metadata (Kafka keeps it in "
        "meta.properties).")
_broker("process.roles", T.LIST, [], OneOf("broker", "controller", each=True), _ACCEPTED)
_broker("controller.listener.names", T.STRING, None, None, _ACCEPTED)
_broker("controller.quorum.voters", T.LIST, [], None, _ACCEPTED)
_broker("controller.quorum.bootstrap.servers", T.LIST, [], None, _ACCEPTED)
_broker("inter.broker.listener.name", T.STRING, None, None, _ACCEPTED)

# --- network ---
_broker("listeners", T.LIST, ["PLAINTEXT://127.0.0.1:9092"], _listeners_validator,
        "Comma-separated NAME://host:port URIs to listen on; empty host = all interfaces, "
        "[::1] for IPv6. kwire defaults to loopback (Kafka: PLAINTEXT://:9092). Read-only in "
        "kwire (Kafka allows per-broker updates).", kafka_default=["PLAINTEXT://:9092"])
_broker("advertised.listeners", T.LIST, None, _listeners_validator,
        "Addresses given to clients in Metadata; unset = listeners. 0.0.0.0 is not allowed.")
_broker("listener.security.protocol.map", T.STRING, _PROTOCOL_MAP_DEFAULT, None,
        "LISTENER_NAME:SECURITY_PROTOCOL pairs.")
_broker("num.network.threads", T.INT, 3, _at_least(1), _ACCEPTED, dynamic=True)
_broker("num.io.threads", T.INT, 8, _at_least(1), _ACCEPTED, dynamic=True)
_broker("background.threads", T.INT, 10, _at_least(1), _ACCEPTED, dynamic=True)
_broker("queued.max.requests", T.INT, 500, _at_least(1), _ACCEPTED)
_broker("socket.send.buffer.bytes", T.INT, 102400, None, "SO_SNDBUF; -1 = OS default.")
_broker("socket.receive.buffer.bytes", T.INT, 102400, None, "SO_RCVBUF; -1 = OS default.")
_broker("socket.request.max.bytes", T.INT, 104857600, _at_least(1),
        "Largest request frame accepted.")
_broker("socket.listen.backlog.size", T.INT, 50, _at_least(1), "listen() backlog.")
_broker("connections.max.idle.ms", T.LONG, 600000, None, "Idle connections are closed after this.")
_broker("max.connections", T.INT, INT_MAX, _at_least(0), "Connection limit.", dynamic=True)
_broker("max.connections.per.ip", T.INT, INT_MAX, _at_least(0), "Per-IP connection limit.",
        dynamic=True)

# --- topics ---
_broker("auto.create.topics.enable", T.BOOLEAN, True, None,
        "Create a topic when Metadata names an unknown one.")
_broker("delete.topic.enable", T.BOOLEAN, True, None, "Allow DeleteTopics.")
_broker("auto.leader.rebalance.enable", T.BOOLEAN, True, None, _ACCEPTED)
_broker("num.partitions", T.INT, 1, _at_least(1), "Partitions of auto-created topics.")
_broker("default.replication.factor", T.INT, 1, None, "Replication factor of auto-created topics.")

# --- log ---
_broker("log.dir", T.LIST, ["./kwire-data"], _non_empty_unique,
        "Data directory, used when log.dirs is unset. kwire defaults to ./kwire-data, relative "
        "to the working directory (Kafka: /tmp/kafka-logs).", kafka_default=["/tmp/kafka-logs"])
_broker("log.dirs", T.LIST, None, _non_empty_unique,
        "Comma-separated data directories; unset = log.dir.")
_broker("log.segment.bytes", T.INT, 1073741824, _at_least(1048576), "Maximum segment size.",
        dynamic=True)
_broker("log.roll.ms", T.LONG, None, None, "Roll a segment after this long; unset = log.roll.hours.",
        dynamic=True)
_broker("log.roll.hours", T.INT, 168, _at_least(1), "Segment roll time in hours, after log.roll.ms.")
_broker("log.roll.jitter.ms", T.LONG, None, None,
        "Largest random jitter subtracted from the roll time; unset = log.roll.jitter.hours.",
        dynamic=True)
_broker("log.roll.jitter.hours", T.INT, 0, _at_least(0), "Roll jitter in hours, after log.roll.jitter.ms.")
_broker("log.retention.ms", T.LONG, None, None,
        "Delete segments older than this; unset = log.retention.minutes; negative = no limit.",
        dynamic=True)
_broker("log.retention.minutes", T.INT, None, None, "Retention in minutes, after log.retention.ms.")
_broker("log.retention.hours", T.INT, 168, None, "Retention in hours, after log.retention.minutes.")
_broker("log.retention.bytes", T.LONG, -1, None, "Maximum partition size before deleting; -1 = no limit.",
        dynamic=True)
_broker("log.retention.check.interval.ms", T.LONG, 300000, _at_least(1),
        "How often retention runs.")
_broker("log.cleanup.policy", T.LIST, ["delete"], _CLEANUP_POLICIES, "Default cleanup.policy.",
        dynamic=True)
_broker("log.index.size.max.bytes", T.INT, 10485760, _at_least(4), "Maximum offset index size.",
        dynamic=True)
_broker("log.index.interval.bytes", T.INT, 4096, _at_least(0),
        "Bytes between offset index entries.", dynamic=True)
_broker("log.flush.interval.messages", T.LONG, LONG_MAX, _at_least(1),
        "fsync after this many messages.", dynamic=True)
_broker("log.flush.interval.ms", T.LONG, None, None,
        "fsync after this long; unset = log.flush.scheduler.interval.ms.", dynamic=True)
_broker("log.flush.scheduler.interval.ms", T.LONG, LONG_MAX, None, "How often the flusher checks.")
_broker("log.flush.offset.checkpoint.interval.ms", T.INT, 60000, _at_least(0),
        "How often the recovery point is checkpointed.")
_broker("log.flush.start.offset.checkpoint.interval.ms", T.INT, 60000, _at_least(0),
        "How often log start offsets are checkpointed.")
_broker("log.segment.delete.delay.ms", T.LONG, 60000, _at_least(0),
        "Delay before a deleted segment's files are removed.", dynamic=True)
_broker("log.preallocate", T.BOOLEAN, False, None, "Preallocate segment files.", dynamic=True)
_broker("log.message.timestamp.type", T.STRING, "CreateTime", _TIMESTAMP_TYPES,
        "CreateTime or LogAppendTime.", dynamic=True)
_broker("log.message.timestamp.before.max.ms", T.LONG, LONG_MAX, _at_least(0),
        "How far a CreateTime timestamp may lag the broker's clock.", dynamic=True)
_broker("log.message.timestamp.after.max.ms", T.LONG, 3600000, _at_least(0),
        "How far a CreateTime timestamp may lead the broker's clock (1 hour since Kafka 4.0, "
        "KIP-1030).", dynamic=True)
_broker("log.local.retention.ms", T.LONG, -2, _at_least(-2),
        "Tiered storage local retention; -2 = log.retention.ms.", dynamic=True)
_broker("log.local.retention.bytes", T.LONG, -2, _at_least(-2),
        "Tiered storage local retention; -2 = log.retention.bytes.", dynamic=True)
_broker("num.recovery.threads.per.data.dir", T.INT, 2, _at_least(1), _ACCEPTED, dynamic=True)
_broker("message.max.bytes", T.INT, 1048588, _at_least(0), "Largest record batch accepted.",
        dynamic=True)
_broker("min.insync.replicas", T.INT, 1, _at_least(1), "Minimum ISR for acks=all.", dynamic=True)
_broker("compression.type", T.STRING, "producer", _COMPRESSION_TYPES,
        "Final compression of stored batches; producer = as sent.", dynamic=True)
_broker("compression.gzip.level", T.INT, -1, _gzip_level, "gzip level.", dynamic=True)
_broker("compression.lz4.level", T.INT, 9, Range(1, 17), "lz4 level.", dynamic=True)
_broker("compression.zstd.level", T.INT, 3, Range(-131072, 22), "zstd level.", dynamic=True)
_broker("unclean.leader.election.enable", T.BOOLEAN, False, None,
        "Allow out-of-ISR leaders.", dynamic=True)

# --- log cleaner ---
_broker("log.cleaner.enable", T.BOOLEAN, True, None, "Run the log cleaner (compaction).")
_broker("log.cleaner.threads", T.INT, 1, _at_least(0), "Cleaner threads.", dynamic=True)
_broker("log.cleaner.backoff.ms", T.LONG, 15000, _at_least(0),
        "Sleep when there is nothing to clean.", dynamic=True)
_broker("log.cleaner.dedupe.buffer.size", T.LONG, 134217728, None, "Dedupe buffer size.",
        dynamic=True)
_broker("log.cleaner.io.buffer.size", T.INT, 524288, _at_least(0), "Cleaner I/O buffer size.",
        dynamic=True)
_broker("log.cleaner.io.buffer.load.factor", T.DOUBLE, 0.9, None, "Dedupe buffer load factor.",
        dynamic=True)
_broker("log.cleaner.io.max.bytes.per.second", T.DOUBLE, DOUBLE_MAX, None, "Cleaner I/O throttle.",
        dynamic=True)
_broker("log.cleaner.delete.retention.ms", T.LONG, 86400000, _at_least(0),
        "Default delete.retention.ms.", dynamic=True)
_broker("log.cleaner.min.compaction.lag.ms", T.LONG, 0, _at_least(0),
        "Default min.compaction.lag.ms.", dynamic=True)
_broker("log.cleaner.max.compaction.lag.ms", T.LONG, LONG_MAX, _at_least(1),
        "Default max.compaction.lag.ms.", dynamic=True)
_broker("log.cleaner.min.cleanable.ratio", T.DOUBLE, 0.5, Range(0, 1),
        "Default min.cleanable.dirty.ratio.", dynamic=True)

# --- replication and fetch ---
_broker("replica.lag.time.max.ms", T.LONG, 30000, None, "A follower behind this long leaves the ISR.")
_broker("replica.fetch.max.bytes", T.INT, 1048576, _at_least(0), "Follower fetch size per partition.")
_broker("num.replica.fetchers", T.INT, 1, None, "Follower fetcher threads.", dynamic=True)
_broker("fetch.max.bytes", T.INT, 57671680, _at_least(1024), "Largest Fetch response.")
_broker("max.incremental.fetch.session.cache.slots", T.INT, 1000, _at_least(0),
        "Incremental fetch sessions kept (KIP-227).")

# --- group coordinator ---
_INTERNAL_RF = ("kwire defaults to 1 (Kafka: {k}) because a single kwire node could never create "
                "the internal topic with more replicas than nodes.")
_broker("offsets.topic.num.partitions", T.INT, 50, _at_least(1), "__consumer_offsets partitions.")
_broker("offsets.topic.replication.factor", T.SHORT, 1, _at_least(1),
        "__consumer_offsets replication factor. " + _INTERNAL_RF.format(k=3), kafka_default=3)
_broker("offsets.topic.segment.bytes", T.INT, 104857600, _at_least(1), "__consumer_offsets segment size.")
_broker("offsets.topic.compression.codec", T.INT, 0, None, "__consumer_offsets compression codec id.")
_broker("offsets.retention.minutes", T.INT, 10080, _at_least(1), "Committed offset retention.")
_broker("offsets.retention.check.interval.ms", T.LONG, 600000, _at_least(1),
        "How often expired offsets are removed.")
_broker("offsets.commit.timeout.ms", T.INT, 5000, _at_least(1), "Offset commit write timeout.")
_broker("offsets.load.buffer.size", T.INT, 5242880, _at_least(1), "Read size when loading offsets.")
_broker("offset.metadata.max.bytes", T.INT, 4096, None, "Largest offset commit metadata string.")
_broker("group.initial.rebalance.delay.ms", T.INT, 3000, None,
        "Wait for more members before a new classic group's first rebalance.")
_broker("group.min.session.timeout.ms", T.INT, 6000, None, "Smallest classic-group session timeout.")
_broker("group.max.session.timeout.ms", T.INT, 1800000, None, "Largest classic-group session timeout.")
_broker("group.max.size", T.INT, INT_MAX, _at_least(1), "Largest classic group.")
_broker("group.consumer.session.timeout.ms", T.INT, 45000, _at_least(1),
        "Session timeout for consumer (KIP-848) groups.")
_broker("group.consumer.min.session.timeout.ms", T.INT, 45000, _at_least(1),
        "Smallest consumer-group session timeout.")
_broker("group.consumer.max.session.timeout.ms", T.INT, 60000, _at_least(1),
        "Largest consumer-group session timeout.")
_broker("group.consumer.heartbeat.interval.ms", T.INT, 5000, _at_least(1),
        "Heartbeat interval for consumer groups.")
_broker("group.consumer.min.heartbeat.interval.ms", T.INT, 5000, _at_least(1),
        "Smallest consumer-group heartbeat interval.")
_broker("group.consumer.max.heartbeat.interval.ms", T.INT, 15000, _at_least(1),
        "Largest consumer-group heartbeat interval.")
_broker("group.consumer.max.size", T.INT, INT_MAX, _at_least(1), "Largest consumer group.")
_broker("share.coordinator.state.topic.replication.factor", T.SHORT, 3, _at_least(1), _ACCEPTED)
_broker("share.coordinator.state.topic.min.isr", T.SHORT, 2, _at_least(1), _ACCEPTED)

# --- transactions and producer ids ---
_broker("transactional.id.expiration.ms", T.INT, 604800000, _at_least(1),
        "Forget an idle transactional id after this long.")
_broker("transaction.max.timeout.ms", T.INT, 900000, _at_least(1), "Largest transaction timeout.")
_broker("transaction.state.log.num.partitions", T.INT, 50, _at_least(1),
        "__transaction_state partitions.")
_broker("transaction.state.log.replication.factor", T.SHORT, 1, _at_least(1),
        "__transaction_state replication factor. " + _INTERNAL_RF.format(k=3), kafka_default=3)
_broker("transaction.state.log.min.isr", T.INT, 1, _at_least(1),
        "__transaction_state min.insync.replicas. " + _INTERNAL_RF.format(k=2), kafka_default=2)
_broker("transaction.state.log.segment.bytes", T.INT, 104857600, _at_least(1),
        "__transaction_state segment size.")
_broker("transaction.abort.timed.out.transaction.cleanup.interval.ms", T.INT, 10000, _at_least(1),
        "How often timed-out transactions are aborted.")
_broker("transaction.remove.expired.transaction.cleanup.interval.ms", T.INT, 3600000, _at_least(1),
        "How often expired transactional ids are removed.")
_broker("transaction.partition.verification.enable", T.BOOLEAN, True, None,
        "Verify partitions were added to a transaction before writing (KIP-890).", dynamic=True)
_broker("producer.id.expiration.ms", T.INT, 86400000, _at_least(1),
        "Forget an idle producer id after this long.", dynamic=True)
_broker("producer.id.expiration.check.interval.ms", T.INT, 600000, _at_least(1),
        "How often expired producer ids are removed.")

# --- ZooKeeper (Kafka 3.9 names and defaults; Kafka 4 has no ZooKeeper) ---
_broker("zookeeper.connect", T.STRING, None, None,
        "host:port[,host:port][/chroot] of a ZooKeeper ensemble; unset = single-node embedded "
        "metadata.")
_broker("zookeeper.session.timeout.ms", T.INT, 18000, None, "ZooKeeper session timeout.")
_broker("zookeeper.connection.timeout.ms", T.INT, None, None,
        "ZooKeeper connect timeout; unset = zookeeper.session.timeout.ms.")

# Topic configs, in Kafka's TopicConfig order; synonyms as in ServerTopicConfigSynonyms.
_topic("cleanup.policy", T.LIST, ["delete"], _CLEANUP_POLICIES,
       "delete, compact or both. An empty list means neither (keep everything), as in Kafka.",
       synonyms=("log.cleanup.policy",))
_topic("compression.type", T.STRING, "producer", _COMPRESSION_TYPES,
       "Final compression of stored batches.", synonyms=("compression.type",))
_topic("compression.gzip.level", T.INT, -1, _gzip_level, "gzip level.",
       synonyms=("compression.gzip.level",))
_topic("compression.lz4.level", T.INT, 9, Range(1, 17), "lz4 level.",
       synonyms=("compression.lz4.level",))
_topic("compression.zstd.level", T.INT, 3, Range(-131072, 22), "zstd level.",
       synonyms=("compression.zstd.level",))
_topic("delete.retention.ms", T.LONG, 86400000, _at_least(0),
       "How long tombstones survive compaction.", synonyms=("log.cleaner.delete.retention.ms",))
_topic("file.delete.delay.ms", T.LONG, 60000, _at_least(0),
       "Delay before a deleted segment's files are removed.",
       synonyms=("log.segment.delete.delay.ms",))
_topic("flush.messages", T.LONG, LONG_MAX, _at_least(1), "fsync after this many messages.",
       synonyms=("log.flush.interval.messages",))
_topic("flush.ms", T.LONG, LONG_MAX, _at_least(0), "fsync after this long.",
       synonyms=("log.flush.interval.ms", "log.flush.scheduler.interval.ms"))
_topic("follower.replication.throttled.replicas", T.LIST, [], _throttled_replicas,
       "Replicas throttled on the follower side; accepted, kwire does not throttle.")
_topic("index.interval.bytes", T.INT, 4096, _at_least(0), "Bytes between offset index entries.",
       synonyms=("log.index.interval.bytes",))
_topic("leader.replication.throttled.replicas", T.LIST, [], _throttled_replicas,
       "Replicas throttled on the leader side; accepted, kwire does not throttle.")
_topic("local.retention.bytes", T.LONG, -2, _at_least(-2),
       "Tiered storage local retention; -2 = retention.bytes.",
       synonyms=("log.local.retention.bytes",))
_topic("local.retention.ms", T.LONG, -2, _at_least(-2),
       "Tiered storage local retention; -2 = retention.ms.", synonyms=("log.local.retention.ms",))
_topic("max.compaction.lag.ms", T.LONG, LONG_MAX, _at_least(1),
       "Longest a record may stay uncompacted.", synonyms=("log.cleaner.max.compaction.lag.ms",))
_topic("max.message.bytes", T.INT, 1048588, _at_least(0), "Largest record batch accepted.",
       synonyms=("message.max.bytes",))
_topic("message.timestamp.after.max.ms", T.LONG, 3600000, _at_least(0),
       "How far a CreateTime timestamp may lead the broker's clock.",
       synonyms=("log.message.timestamp.after.max.ms",))
_topic("message.timestamp.before.max.ms", T.LONG, LONG_MAX, _at_least(0),
       "How far a CreateTime timestamp may lag the broker's clock.",
       synonyms=("log.message.timestamp.before.max.ms",))
_topic("message.timestamp.type", T.STRING, "CreateTime", _TIMESTAMP_TYPES,
       "CreateTime or LogAppendTime.", synonyms=("log.message.timestamp.type",))
_topic("min.cleanable.dirty.ratio", T.DOUBLE, 0.5, Range(0, 1),
       "Dirty ratio at which a log becomes cleanable.",
       synonyms=("log.cleaner.min.cleanable.ratio",))
_topic("min.compaction.lag.ms", T.LONG, 0, _at_least(0),
       "Shortest a record stays uncompacted.", synonyms=("log.cleaner.min.compaction.lag.ms",))
_topic("min.insync.replicas", T.INT, 1, _at_least(1), "Minimum ISR for acks=all.",
       synonyms=("min.insync.replicas",))
_topic("preallocate", T.BOOLEAN, False, None, "Preallocate segment files.",
       synonyms=("log.preallocate",))
_topic("remote.log.copy.disable", T.BOOLEAN, False, None, "Tiered storage; kwire has none.")
_topic("remote.log.delete.on.disable", T.BOOLEAN, False, None, "Tiered storage; kwire has none.")
_topic("remote.storage.enable", T.BOOLEAN, False, None,
       "Tiered storage; kwire has none, so only false is accepted.")
_topic("retention.bytes", T.LONG, -1, None, "Maximum partition size before deleting; -1 = no limit.",
       synonyms=("log.retention.bytes",))
_topic("retention.ms", T.LONG, 604800000, _at_least(-1),
       "Delete segments older than this; -1 = no limit.",
       synonyms=("log.retention.ms", ("log.retention.minutes", _MINUTE_MS),
                 ("log.retention.hours", _HOUR_MS)))
_topic("segment.bytes", T.INT, 1073741824, _at_least(1048576), "Maximum segment size.",
       synonyms=("log.segment.bytes",))
_topic("segment.index.bytes", T.INT, 10485760, _at_least(4), "Maximum offset index size.",
       synonyms=("log.index.size.max.bytes",))
_topic("segment.jitter.ms", T.LONG, 0, _at_least(0),
       "Largest random jitter subtracted from segment.ms.",
       synonyms=("log.roll.jitter.ms", ("log.roll.jitter.hours", _HOUR_MS)))
_topic("segment.ms", T.LONG, 604800000, _at_least(1), "Roll a segment after this long.",
       synonyms=("log.roll.ms", ("log.roll.hours", _HOUR_MS)))
_topic("unclean.leader.election.enable", T.BOOLEAN, False, None, "Allow out-of-ISR leaders.",
       synonyms=("unclean.leader.election.enable",))
_topic("internal.segment.bytes", T.INT, None, None,
       "Kafka's test-only segment size, free of segment.bytes' 1 MiB minimum; wins when set.",
       internal=True)
del T

# Broker names described together (DynamicBrokerConfig.brokerConfigSynonyms).
_BROKER_SYNONYM_GROUPS: dict[str, tuple[str, ...]] = {}
for _group in (("log.roll.ms", "log.roll.hours"),
               ("log.roll.jitter.ms", "log.roll.jitter.hours"),
               ("log.retention.ms", "log.retention.minutes", "log.retention.hours")):
    for _name in _group:
        _BROKER_SYNONYM_GROUPS[_name] = _group
_BROKER_SYNONYM_GROUPS["log.flush.interval.ms"] = ("log.flush.interval.ms",
                                                   "log.flush.scheduler.interval.ms")
del _group, _name
_BROKER_DEFAULTS: dict[str, Any] = {n: d.default for n, d in BROKER_CONFIGS.items()}


# --------------------------------------------------------------------------------------
# Listeners
# --------------------------------------------------------------------------------------

_LISTENER_RE = re.compile(r"^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)\Z")
_IPV4_RE = re.compile(r"[0-9]{1,3}(\.[0-9]{1,3}){3}\Z")


def parse_listeners(value: str | list[str], config_name: str = "listeners") -> list[Listener]:
    """Parse ``NAME://host:port`` URIs (Kafka's listener grammar) and check uniqueness.

    Names are upper-cased and must be unique; ports must be unique unless one listener is
    IPv4 and the other IPv6 (port 0, an ephemeral port, may repeat; kwire's tests use it).
    ``advertised.listeners`` may repeat ports and may not use 0.0.0.0 or ``::``.
    """
    items = [s.strip() for s in value.split(",")] if isinstance(value, str) else list(value)
    out: list[Listener] = []
    for item in items:
        m = _LISTENER_RE.match(item)
        port = int(m.group(3)) if m else -1
        if not m or not 0 <= port <= 65535 or not m.group(1):
            raise _invalid(config_name, item, "expected NAME://host:port with a port from 0 to 65535")
        out.append(Listener(m.group(1).upper(), m.group(2), port))
    if not out:
        raise _invalid(config_name, ",".join(items), "At least one listener is required")
    names = [listener.name for listener in out]
    if len(set(names)) != len(names):
        raise _invalid(config_name, ",".join(items), "Each listener must have a different name")
    if config_name == "advertised.listeners":
        for listener in out:
            if listener.host in ("0.0.0.0", "::"):
                raise _invalid(config_name, ",".join(items),
                               f"{listener.name} advertises the non-routable address "
                               f"{listener.host}; use a routable address")
        return out
    for i, a in enumerate(out):
        for b in out[i + 1:]:
            if a.port == b.port and a.port != 0 and _ip_family(a.host) in (None, _ip_family(b.host)):
                raise _invalid(config_name, ",".join(items),
                               "Each listener must have a different port unless exactly one "
                               "listener has an IPv4 address and the other an IPv6 address")
    return out


def _ip_family(host: str) -> int | None:
    if _IPV4_RE.match(host):
        return 4
    if ":" in host:
        return 6
    return None  # host name or "": conflicts with anything on the same port


# --------------------------------------------------------------------------------------
# Broker config
# --------------------------------------------------------------------------------------

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
        self._static: dict[str, Any] = {}
        self.explicit: dict[str, str] = {}  # name -> raw value from file/overrides (STATIC_BROKER_CONFIG)
        for name, raw in (props or {}).items():
            d = BROKER_CONFIGS.get(name)
            if d is None:
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
        """Read ``path`` (None = embedded defaults) then apply ``key=value`` overrides."""
        props = read_properties(path) if path else {}
        if isinstance(overrides, Mapping):
            for k, v in overrides.items():
                props[k] = v if isinstance(v, str) else _python_to_string(v)
        else:
            for item in overrides or ():
                key, sep, value = item.partition("=")
                if not sep or not key.strip():
                    raise ConfigError(f"Override {item!r} must be of the form key=value")
                props[key.strip()] = value
        return cls(props)

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
        for name in set(result) ^ set(current) | {n for n in result if result[n] != current.get(n)}:
            if BROKER_CONFIGS[name].read_only:
                raise ConfigError(f"Cannot update these configs dynamically: {name}", name)
        self._replace_layer(cluster_default, {n: BROKER_CONFIGS[n].parse(v) for n, v in result.items()})

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

        self._values = values
        self.broker_id: int = broker_id
        self.listeners: list[Listener] = listeners
        self.advertised_listeners: list[Listener] = advertised
        self.listener_security_protocols: dict[str, str] = protocols
        self.log_dirs: list[str] = list(values["log.dirs"] or values["log.dir"])
        self.retention_ms: int = _first_ms(values, TOPIC_CONFIGS["retention.ms"].synonyms)
        if self.retention_ms < 0:
            self.retention_ms = -1  # KafkaConfig.logRetentionTimeMillis: any negative = unlimited
        self.roll_ms: int = _first_ms(values, TOPIC_CONFIGS["segment.ms"].synonyms)
        self.flush_ms: int = _first_ms(values, TOPIC_CONFIGS["flush.ms"].synonyms)
        self.cluster_id: str | None = values["cluster.id"]
        self.zookeeper_connect: str | None = values["zookeeper.connect"]
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


def _known(defs: Mapping[str, ConfigDef], name: str, kind: str) -> ConfigDef:
    d = defs.get(name)
    if d is None:
        raise ConfigError(f"Unknown {kind} config name: {name}", name)
    return d


def _first_ms(values: Mapping[str, Any], synonyms: tuple[tuple[str, int], ...]) -> Any:
    for syn, factor in synonyms:
        v = values.get(syn)
        if v is not None:
            return v * factor if factor != 1 else v
    return None


def _parse_protocol_map(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        name, sep, proto = item.partition(":")
        if not sep or not name.strip() or not proto.strip():
            raise _invalid("listener.security.protocol.map", text, f"malformed entry {item!r}")
        if name.strip().upper() in out:
            raise _invalid("listener.security.protocol.map", text,
                           f"listener {name.strip()} appears more than once")
        out[name.strip().upper()] = proto.strip().upper()
    return out


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


# --------------------------------------------------------------------------------------
# Topic configs
# --------------------------------------------------------------------------------------

def validate_topic_config(name: str, value: str) -> str:
    """Check one topic config override; return its normalized string form."""
    d = _known(TOPIC_CONFIGS, name, "topic")
    if value is None:
        raise ConfigError(f"Null value not supported for topic config '{name}'", name,
                          invalid_request=True)
    parsed = d.parse(value)
    if name == "remote.storage.enable" and parsed:
        raise ConfigError("Tiered Storage functionality is disabled in the broker. Topic cannot "
                          "be configured with remote log storage.", name)
    return d.to_string(parsed)


def validate_topic_configs(configs: Mapping[str, str]) -> dict[str, str]:
    """Check a whole set of overrides, including checks across keys; return them normalized."""
    out = {name: validate_topic_config(name, value) for name, value in configs.items()}
    min_lag = int(out.get("min.compaction.lag.ms", TOPIC_CONFIGS["min.compaction.lag.ms"].default))
    max_lag = int(out.get("max.compaction.lag.ms", TOPIC_CONFIGS["max.compaction.lag.ms"].default))
    _check_compaction_lag(min_lag, max_lag)
    return out


def _check_compaction_lag(min_lag: int, max_lag: int) -> None:
    if min_lag > max_lag:
        raise ConfigError(f"conflict topic config setting min.compaction.lag.ms ({min_lag}) > "
                          f"max.compaction.lag.ms ({max_lag})", "min.compaction.lag.ms")


def apply_incremental(current: Mapping[str, str], ops: Iterable[tuple[str, int, str | None]],
                      defs: Mapping[str, ConfigDef] | None = None) -> dict[str, str]:
    """Apply IncrementalAlterConfigs ops ``(name, op, value)`` to a set of overrides.

    SET replaces, DELETE removes, APPEND adds list items not already present and SUBTRACT
    removes them; an absent override starts from the config's Kafka default, as Kafka's
    controller does. APPEND/SUBTRACT on a non-LIST config, unknown names, invalid results and
    a name repeated in one request raise ConfigError. ``defs`` defaults to TOPIC_CONFIGS;
    the result is validated as a whole (for topics, with validate_topic_configs).
    """
    topic = defs is None or defs is TOPIC_CONFIGS
    defs = TOPIC_CONFIGS if defs is None else defs
    kind = "topic" if topic else "broker"
    result = dict(current)
    seen: set[str] = set()
    for name, op, value in ops:
        d = _known(defs, name, kind)
        if name in seen:
            raise ConfigError(f"Duplicate config name in request: {name}", name, invalid_request=True)
        seen.add(name)
        try:
            op = AlterOp(op)
        except ValueError:
            raise ConfigError(f"Unknown config operation {op} for {name}", name,
                              invalid_request=True) from None
        if op is AlterOp.DELETE:
            result.pop(name, None)
            continue
        if value is None:
            raise ConfigError(f"Null value not supported for {op.name} on config {name}", name,
                              invalid_request=True)
        if op is AlterOp.SET:
            result[name] = value
            continue
        if d.type is not ConfigType.LIST:
            raise ConfigError(f"Can't {op.name} to key {name} because its type is not LIST.", name)
        base = result.get(name)
        if base is None:
            base = d.to_string(d.kafka_default) or ""
        items = [s for s in base.split(",") if s]
        for item in value.split(","):
            if op is AlterOp.APPEND and item not in items:
                items.append(item)
            elif op is AlterOp.SUBTRACT and item in items:
                items.remove(item)
        result[name] = ",".join(items)
    if topic:
        return validate_topic_configs(result)
    return {n: defs[n].to_string(defs[n].parse(v)) for n, v in result.items()}


class TopicConfig:
    """A topic's effective configuration: overrides over broker synonyms over Kafka defaults.

    Every topic config is an attribute named with dots as underscores (``retention_ms``,
    ``cleanup_policy`` as a list, ``message_timestamp_type`` as ``'CreateTime'`` or
    ``'LogAppendTime'``...); ``cfg[name]`` works too. ``segment_bytes`` honours
    ``internal.segment.bytes`` when set. ``compact`` / ``delete`` tell the cleanup policy.
    """

    def __init__(self, overrides: Mapping[str, str], broker: BrokerConfig) -> None:
        self.overrides = validate_topic_configs(overrides)
        self._broker = broker
        values: dict[str, Any] = {}
        for name, d in TOPIC_CONFIGS.items():
            if name in self.overrides:
                values[name] = d.parse(self.overrides[name])
            else:
                v = _first_ms(broker._values, d.synonyms)
                values[name] = d.default if v is None else v
        if "retention.ms" not in self.overrides and values["retention.ms"] < 0:
            values["retention.ms"] = -1
        _check_compaction_lag(values["min.compaction.lag.ms"], values["max.compaction.lag.ms"])
        self._values = values
        for name, v in values.items():
            setattr(self, name.replace(".", "_"), v)
        if values["internal.segment.bytes"] is not None:
            self.segment_bytes = values["internal.segment.bytes"]
        policy = [p.lower() for p in values["cleanup.policy"]]
        self.compact = "compact" in policy
        self.delete = "delete" in policy

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def describe(self, include_synonyms: bool = False,
                 names: Iterable[str] | None = None) -> list[ConfigEntry]:
        """DescribeConfigs entries for the topic (Kafka's ConfigHelper.createTopicConfigEntry)."""
        wanted = set(names) if names is not None else None
        out = []
        for name in sorted(TOPIC_CONFIGS):
            d = TOPIC_CONFIGS[name]
            if d.internal or (wanted is not None and name not in wanted):
                continue
            value = None if d.sensitive else d.to_string(self._values[name])
            synonyms = self._broker._synonyms([s for s, _ in d.synonyms], d.sensitive)
            if name in self.overrides:
                synonyms.insert(0, ConfigSynonym(name, value, int(Source.DYNAMIC_TOPIC_CONFIG)))
            source = synonyms[0].source if synonyms else int(Source.DEFAULT_CONFIG)
            out.append(ConfigEntry(name, value, source, False, d.sensitive, int(d.type),
                                   synonyms if include_synonyms else []))
        return out


def topic_config(overrides: Mapping[str, str], broker: BrokerConfig) -> TopicConfig:
    """Resolve a topic's effective config; raises ConfigError for bad overrides."""
    return TopicConfig(overrides, broker)
