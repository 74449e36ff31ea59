"""Schema model for the imported Kafka message specs.

Reads ``protocol_specs/message/*.json`` (written by ``import_specs``) into
plain objects: :class:`Message` -> :class:`Struct` -> :class:`Field`.  The
code writer (``generator.py``) and the test-suite's Hypothesis strategies
both work from this model, so it answers the per-version questions
("is this field present / nullable / tagged / compact at version v?")
in one place.

Type vocabulary (Kafka's): ``bool int8 int16 int32 int64 uint16 uint32
float64 string bytes records uuid``, ``[]T`` for arrays, and a capitalised
name for a struct (defined inline through ``fields`` or in
``commonStructs``).
"""

from __future__ import annotations

import json
import keyword
import re
from dataclasses import dataclass, field as dc_field
from pathlib import Path

SPEC_DIR = Path(__file__).resolve().parents[2] / "protocol_specs" / "message"

PRIMITIVES = frozenset({
    "bool", "int8", "int16", "int32", "int64", "uint16", "uint32", "float64",
    "string", "bytes", "records", "uuid",
})
#: fixed-width scalars -> struct module format character
FIXED_FORMATS = {
    "bool": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "q",
    "uint16": "H", "uint32": "I", "float64": "d",
}
FIXED_SIZES = {"bool": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
               "uint16": 2, "uint32": 4, "float64": 8}
INT_RANGES = {
    "int8": (-(1 << 7), (1 << 7) - 1), "int16": (-(1 << 15), (1 << 15) - 1),
    "int32": (-(1 << 31), (1 << 31) - 1), "int64": (-(1 << 63), (1 << 63) - 1),
    "uint16": (0, (1 << 16) - 1), "uint32": (0, (1 << 32) - 1),
}


class Versions:
    """A Kafka version range: ``"3+"``, ``"0-12"``, ``"5"`` or ``"none"``."""

    __slots__ = ("lo", "hi", "text")

    def __init__(self, text: str | None):
        text = (text or "none").strip()
        self.text = text
        if text == "none":
            self.lo, self.hi = 1, 0  # empty
        elif text.endswith("+"):
            self.lo, self.hi = int(text[:-1]), 1 << 15
        elif "-" in text:
            a, b = text.split("-", 1)
            self.lo, self.hi = int(a), int(b)
        else:
            self.lo = self.hi = int(text)

    def __contains__(self, v: int) -> bool:
        return self.lo <= v <= self.hi

    @property
    def empty(self) -> bool:
        return self.lo > self.hi

    def __repr__(self) -> str:
        return f"Versions({self.text!r})"


def snake(name: str) -> str:
    """``TopicId`` -> ``topic_id``, ``MaxWaitMs`` -> ``max_wait_ms``."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    if keyword.iskeyword(s) or s == "unknown_tagged_fields":
        s += "_"
    return s


@dataclass(eq=False)
class Field:
    name: str
    type: str
    versions: Versions
    nullable_versions: Versions
    tagged_versions: Versions
    tag: int | None
    default: object  # raw value from the schema, or None when absent
    ignorable: bool
    map_key: bool
    entity_type: str | None
    flexible_override: Versions | None
    zero_copy: bool
    struct: "Struct | None" = None  # element/struct type for struct and []struct

    @property
    def attr(self) -> str:
        return snake(self.name)

    @property
    def is_array(self) -> bool:
        return self.type.startswith("[]")

    @property
    def elem_type(self) -> str:
        """Type name without the ``[]`` prefix."""
        return self.type[2:] if self.is_array else self.type

    @property
    def is_struct(self) -> bool:
        return not self.is_array and self.type not in PRIMITIVES

    @property
    def is_struct_array(self) -> bool:
        return self.is_array and self.elem_type not in PRIMITIVES

    def present(self, v: int) -> bool:
        return v in self.versions

    def nullable(self, v: int) -> bool:
        return v in self.nullable_versions

    def tagged(self, v: int) -> bool:
        return v in self.tagged_versions

    def compact(self, v: int, message_flexible: bool) -> bool:
        """Whether strings/bytes/arrays of this field use compact encoding."""
        if self.flexible_override is not None:
            return v in self.flexible_override
        return message_flexible

    @property
    def default_is_null(self) -> bool:
        return isinstance(self.default, str) and self.default == "null" and not self.nullable_versions.empty

    def python_default(self):
        """The default as a Python value (structs excluded: see generator)."""
        t = self.type
        d = self.default
        if self.is_array:
            return None if self.default_is_null else []
        if t in ("int8", "int16", "int32", "int64", "uint16", "uint32"):
            if d is None or d == "":
                return 0
            if isinstance(d, bool):
                return int(d)
            if isinstance(d, int):
                return d
            try:
                return int(d, 0)
            except ValueError:
                return int(d)
        if t == "bool":
            if isinstance(d, bool):
                return d
            return isinstance(d, str) and d.strip().lower() == "true"
        if t == "float64":
            return float(d) if d not in (None, "") else 0.0
        if t == "string":
            if self.default_is_null:
                return None
            return d if isinstance(d, str) else ""
        if t == "bytes":
            return None if self.default_is_null else b""
        if t == "records":
            return None
        if t == "uuid":
            return "ZERO_UUID"
        # struct
        return None if self.default_is_null else "STRUCT"


@dataclass(eq=False)
class Struct:
    name: str
    versions: Versions
    fields: list[Field]
    is_common: bool = False


@dataclass(eq=False)
class Message:
    name: str
    type: str  # request | response | header | data
    api_key: int | None
    valid_versions: Versions
    flexible_versions: Versions
    deprecated_versions: Versions
    latest_version_unstable: bool
    listeners: list[str]
    root: Struct
    structs: dict[str, Struct] = dc_field(default_factory=dict)  # every struct except root

    @property
    def versions(self) -> range:
        return range(self.valid_versions.lo, self.valid_versions.hi + 1)

    def flexible(self, v: int) -> bool:
        return v in self.flexible_versions

    @property
    def flexible_min(self) -> int | None:
        for v in self.versions:
            if self.flexible(v):
                return v
        return None

    @property
    def module_name(self) -> str:
        return snake(self.name)


def _make_field(raw: dict, msg_name: str, structs: dict[str, Struct], common: dict[str, dict],
                pending: list) -> Field:
    f = Field(
        name=raw["name"],
        type=raw["type"],
        versions=Versions(raw.get("versions")),
        nullable_versions=Versions(raw.get("nullableVersions")),
        tagged_versions=Versions(raw.get("taggedVersions")),
        tag=raw.get("tag"),
        default=raw.get("default"),
        ignorable=bool(raw.get("ignorable", False)),
        map_key=bool(raw.get("mapKey", False)),
        entity_type=raw.get("entityType"),
        flexible_override=Versions(raw["flexibleVersions"]) if "flexibleVersions" in raw else None,
        zero_copy=bool(raw.get("zeroCopy", False)),
    )
    if f.elem_type not in PRIMITIVES:
        sname = f.elem_type
        if "fields" in raw:
            if sname in structs:
                raise ValueError(f"{msg_name}: struct {sname} defined twice")
            st = Struct(sname, f.versions, [])
            structs[sname] = st
            st.fields = [_make_field(r, msg_name, structs, common, pending) for r in raw["fields"]]
            f.struct = st
        else:
            pending.append(f)  # resolved against commonStructs below
    return f


def load_message(data: dict) -> Message:
    name = data["name"]
    structs: dict[str, Struct] = {}
    common = {c["name"]: c for c in data.get("commonStructs", [])}
    pending: list[Field] = []
    root = Struct(name, Versions(data.get("validVersions")), [])
    root.fields = [_make_field(r, name, structs, common, pending) for r in data.get("fields", [])]
    for cname, craw in common.items():
        if cname in structs:
            raise ValueError(f"{name}: common struct {cname} clashes with an inline struct")
        st = Struct(cname, Versions(craw.get("versions")), [], is_common=True)
        structs[cname] = st
        st.fields = [_make_field(r, name, structs, common, pending) for r in craw.get("fields", [])]
    for f in pending:
        if f.elem_type not in structs:
            raise ValueError(f"{name}: unknown type {f.type} for field {f.name}")
        f.struct = structs[f.elem_type]
    valid = Versions(data.get("validVersions"))
    if data["type"] == "header" and name == "RequestHeader":
        # Kafka 4 stopped listing v0, but ControlledShutdown v0 still uses it.
        valid = Versions(f"0-{valid.hi}")
    msg = Message(
        name=name,
        type=data["type"],
        api_key=data.get("apiKey"),
        valid_versions=valid,
        flexible_versions=Versions(data.get("flexibleVersions")),
        deprecated_versions=Versions(data.get("deprecatedVersions")),
        latest_version_unstable=bool(data.get("latestVersionUnstable", False)),
        listeners=list(data.get("listeners", [])),
        root=root,
        structs=structs,
    )
    root.versions = valid
    _validate(msg)
    return msg


def _validate(msg: Message) -> None:
    for st in [msg.root, *msg.structs.values()]:
        attrs = [f.attr for f in st.fields]
        if len(set(attrs)) != len(attrs):
            raise ValueError(f"{msg.name}.{st.name}: duplicate attribute names {attrs}")
        for f in st.fields:
            if not f.tagged_versions.empty and f.tag is None:
                raise ValueError(f"{msg.name}.{f.name}: taggedVersions without tag")


def load_all(spec_dir: Path = SPEC_DIR) -> dict[str, Message]:
    """All messages, keyed by message name, in file-name order."""
    out = {}
    for p in sorted(Path(spec_dir).glob("*.json")):
        msg = load_message(json.loads(p.read_text("utf-8")))
        out[msg.name] = msg
    return out


def broker_api_pairs(messages: dict[str, Message]) -> list[tuple[Message, Message]]:
    """(request, response) for every API whose request lists the broker listener."""
    pairs = []
    for m in messages.values():
        if m.type == "request" and "broker" in m.listeners:
            resp = messages[m.name[: -len("Request")] + "Response"]
            pairs.append((m, resp))
    pairs.sort(key=lambda p: p[0].api_key)
    return pairs
