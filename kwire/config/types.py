"""Config value types: Kafka's type codes, value parsing and printing, validators, ConfigDef.

What it does
------------
* ``ConfigType``, ``Source`` and ``AlterOp`` are the wire codes of DescribeConfigs'
  ``config_type`` and ``config_source`` and of IncrementalAlterConfigs'
  ``config_operation``.
* ``ConfigError`` is the one exception of ``kwire.config``; ``_invalid`` words it
  as Kafka's ConfigException does, so clients see familiar messages.
* ``ConfigDef.parse`` turns a string into its typed value the way Kafka's
  ``ConfigDef.parseType`` does (booleans case-insensitive, integers range-checked
  per type, doubles without Python's ``1_0`` form, lists split on commas) and then
  runs the validator; ``ConfigDef.to_string`` is Kafka's ``convertToString``
  (doubles printed like Java's ``Double.toString``).
* The validators (``Range``, ``OneOf``, gzip level, non-empty unique lists,
  throttled-replica lists) are callables ``(name, value)`` raising ConfigError.
* ``ConfigSynonym`` / ``ConfigEntry`` are DescribeConfigs entries as kwire builds them.

What it deliberately does not do
--------------------------------
* It holds no config names: the tables are in ``definitions`` and the listener
  grammar in ``listeners``. No I/O, no logging.
* No CLASS or PASSWORD semantics: both are kept as plain strings (PASSWORD only
  makes a ConfigDef ``sensitive``).

Invariants
----------
* ``ConfigDef.parse`` returns int, float, bool, str, list[str] or None, already
  validated.
* Rejections are ``ConfigError`` (a ValueError) naming the key, worded as Kafka's.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any, Callable, Mapping, NamedTuple


INT_MAX = 2**31 - 1
LONG_MAX = 2**63 - 1
DOUBLE_MAX = 1.7976931348623157e308


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


# --------------------------------------------------------------------------------------
# Value parsing and validators
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


# --------------------------------------------------------------------------------------
# ConfigDef
# --------------------------------------------------------------------------------------

_SAME: Any = object()


class ConfigDef:
    """One config: Kafka's name, type, default and validator, plus kwire's facts about it.

    ``default`` is the typed value kwire uses (None = null); ``kafka_default`` is Kafka's
    where kwire differs. ``read_only`` is false only for configs AlterConfigs may change at
    run time. ``synonyms`` (topic configs only) lists ``(broker_name, multiplier)`` pairs in
    Kafka's precedence order; the multiplier converts hours or minutes to ms. ``internal``
    configs are accepted but never described (Kafka's defineInternal). ``per_broker`` marks
    Kafka's "per-broker" update mode (dynamic, but never as a cluster-wide default);
    ``acted`` is false for configs kwire accepts and reports but does not act on.
    """

    __slots__ = ("name", "type", "default", "validator", "doc", "read_only", "kafka_default",
                 "synonyms", "internal", "per_broker", "acted")

    def __init__(self, name: str, type: ConfigType, default: Any,
                 validator: Callable[[str, Any], None] | None = None, doc: str = "", *,
                 read_only: bool = True, kafka_default: Any = _SAME,
                 synonyms: tuple[tuple[str, int], ...] = (), internal: bool = False,
                 per_broker: bool = False, acted: bool = True) -> None:
        self.name = name
        self.type = type
        self.default = default
        self.validator = validator
        self.doc = doc
        self.read_only = read_only
        self.kafka_default = default if kafka_default is _SAME else kafka_default
        self.synonyms = synonyms
        self.internal = internal
        self.per_broker = per_broker
        self.acted = acted

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


def _known(defs: Mapping[str, ConfigDef], name: str, kind: str) -> ConfigDef:
    d = defs.get(name)
    if d is None:
        raise ConfigError(f"Unknown {kind} config name: {name}", name)
    return d
