"""Avro schemas: parsing (fastavro), Avro's schema-resolution rules (the texts compared: ``avroform``).

``parse`` checks a schema with ``fastavro.parse_schema`` (names, defaults,
symbols, every type known, named types from references given in
``named``) and keeps the parsed form, in which named types are defined once
and referred to by full name afterwards.

``can_read(reader, writer)`` lists why data written with ``writer`` cannot be
read with ``reader`` under the Avro specification's "Schema Resolution":
same primitive or a promotion (int -> long, float, double; long -> float,
double; float -> double; string <-> bytes); records matched by full name or
reader alias, each reader field found in the writer (by name or alias) with a
readable type or else carrying a default; enums by name, every writer symbol
known to the reader unless the reader has a default; fixed by name and size;
arrays and maps by their items / values; a writer union readable only when
every branch is; a reader union when some branch reads the writer. An empty
list means compatible. Recursive types are handled by assuming a (reader,
writer) pair of named types compatible while it is being checked.

What it does not do: logical types are compared through their underlying
types (as Avro does), and no check of default values against evolved types
beyond what fastavro validates at parse time.
"""

from __future__ import annotations

import json

import fastavro
from fastavro.schema import SchemaParseException

from kwire.registry.types import avroform

_PROMOTIONS = {
    "int": {"int", "long", "float", "double"},
    "long": {"long", "float", "double"},
    "float": {"float", "double"},
    "string": {"string", "bytes"},
    "bytes": {"bytes", "string"},
}
_NAMED = ("record", "error", "enum", "fixed")


class AvroSchema:
    schema_type = "AVRO"

    def __init__(self, raw, parsed, named: dict) -> None:
        self.raw = raw  # the JSON value as sent
        self.parsed = parsed  # fastavro's parsed form
        self.named = named  # full name -> parsed definition (this schema's and its references')
        self.canonical = avroform.canonical(raw)  # as Java's Schema.toString(): see avroform

    def normalized(self) -> str:
        """Confluent's normalized form: what normalize=true registers and compares."""
        return avroform.normalized(self.raw)


def parse(text: str, references: list) -> AvroSchema:
    """``references``: already parsed ``AvroSchema`` objects of the referenced schemas."""
    try:
        raw = json.loads(text)
    except ValueError:
        # a bare primitive name without quotes is not JSON; Avro accepts '"string"' only
        raise ValueError(f"Invalid schema: not JSON: {text[:200]!r}") from None
    _require_fields(raw)
    named: dict = {}
    for ref in references:
        named.update(ref.named)
    try:
        parsed = fastavro.parse_schema(raw, named_schemas=named, _write_hint=False)
    except (SchemaParseException, fastavro.schema.UnknownType, ValueError, TypeError, KeyError,
            AttributeError) as e:
        raise ValueError(f"Invalid Avro schema: {e}") from None
    return AvroSchema(raw, parsed, named)


def _union_key(b) -> str:
    if isinstance(b, list):
        raise ValueError("Invalid Avro schema: a union may not immediately contain another union")
    if isinstance(b, dict):
        t = b.get("type")
        return b.get("name", t) if t in _NAMED else (t if isinstance(t, str) else json.dumps(t))
    return b


def _require_fields(s) -> None:
    """What fastavro accepts and the Avro specification (and Java's parser) do not: a record
    without ``fields``, a union holding two branches of one type or a union directly."""
    if isinstance(s, list):
        seen = set()
        for b in s:
            key = _union_key(b)
            if key in seen:
                raise ValueError(f"Invalid Avro schema: duplicate in union: {key}")
            seen.add(key)
            _require_fields(b)
    elif isinstance(s, dict):
        t = s.get("type")
        if t in ("record", "error"):
            fields = s.get("fields")
            if not isinstance(fields, list):
                raise ValueError(f"Invalid Avro schema: record {s.get('name')!r} has no fields array")
            for f in fields:
                if isinstance(f, dict):
                    _require_fields(f.get("type"))
        elif t == "array":
            _require_fields(s.get("items"))
        elif t == "map":
            _require_fields(s.get("values"))
        elif isinstance(t, (dict, list)):
            _require_fields(t)


def _type_name(s) -> str:
    if isinstance(s, str):
        return s
    if isinstance(s, list):
        return "union"
    return s.get("type") if isinstance(s.get("type"), str) else "complex"


def _aliases(s: dict) -> set[str]:
    ns = s["name"].rpartition(".")[0]
    out = set()
    for a in s.get("aliases", ()):
        out.add(a if "." in a or not ns else f"{ns}.{a}")
    return out


class _Checker:
    def __init__(self, reader: AvroSchema, writer: AvroSchema) -> None:
        self.rnamed = reader.named
        self.wnamed = writer.named
        self.assumed: set[tuple[str, str]] = set()

    def resolve(self, s, named):
        while isinstance(s, str) and s in named:
            s = named[s]
        if isinstance(s, dict) and isinstance(s.get("type"), (dict, list)):
            return self.resolve(s["type"], named)
        if isinstance(s, dict) and s.get("type") in named and s["type"] not in _NAMED:
            return self.resolve(s["type"], named)
        return s

    def check(self, reader, writer, path: str) -> list[str]:
        r = self.resolve(reader, self.rnamed)
        w = self.resolve(writer, self.wnamed)
        if isinstance(w, list):  # every writer branch must be readable
            out = []
            for i, branch in enumerate(w):
                out += self.check(r, branch, f"{path}/{i}")
            return out
        if isinstance(r, list):
            for branch in r:
                if not self.check(branch, w, path):
                    return []
            return [f"{path}: reader union {_describe(r)} has no branch that reads writer type "
                    f"{_describe(w)}"]
        rt, wt = _type_name(r), _type_name(w)
        if isinstance(r, dict) and rt in ("record", "error", "enum", "fixed") or \
                isinstance(w, dict) and wt in ("record", "error", "enum", "fixed"):
            if rt != wt and not ({rt, wt} <= {"record", "error"}):
                return [f"{path}: type mismatch, reader {rt} vs writer {wt}"]
            return self.check_named(r, w, rt, path)
        if rt in ("array", "map"):
            if rt != wt:
                return [f"{path}: type mismatch, reader {rt} vs writer {wt}"]
            key = "items" if rt == "array" else "values"
            return self.check(r[key], w[key], f"{path}/{key}")
        if wt in ("array", "map"):
            return [f"{path}: type mismatch, reader {rt} vs writer {wt}"]
        if rt not in _PROMOTIONS.get(wt, {wt}):
            return [f"{path}: type mismatch, reader {rt} cannot read writer {wt}"]
        return []

    def check_named(self, r: dict, w: dict, kind: str, path: str) -> list[str]:
        if r["name"] != w["name"] and w["name"] not in _aliases(r):
            return [f"{path}: name mismatch, reader {r['name']} vs writer {w['name']}"]
        pair = (r["name"], w["name"])
        if pair in self.assumed:
            return []
        self.assumed.add(pair)
        if kind == "fixed":
            if r.get("size") != w.get("size"):
                return [f"{path}: fixed size mismatch, reader {r.get('size')} vs writer {w.get('size')}"]
            return []
        if kind == "enum":
            if "default" in r:
                return []
            missing = [s for s in w.get("symbols", []) if s not in r.get("symbols", [])]
            return [f"{path}/symbols: reader enum {r['name']} lacks writer symbols {missing}"] if missing else []
        out = []
        wfields = {f["name"]: f for f in w.get("fields", [])}
        for rf in r.get("fields", []):
            wf = wfields.get(rf["name"])
            if wf is None:
                wf = next((wfields[a] for a in rf.get("aliases", ()) if a in wfields), None)
            if wf is None:
                if "default" not in rf:
                    out.append(f"{path}/fields/{rf['name']}: reader field '{rf['name']}' has no default "
                               "value and is missing from the writer")
                continue
            out += self.check(rf["type"], wf["type"], f"{path}/fields/{rf['name']}/type")
        return out


def _describe(s) -> str:
    if isinstance(s, list):
        return "[" + ", ".join(_describe(b) for b in s) + "]"
    if isinstance(s, dict):
        return s.get("name") or str(s.get("type"))
    return str(s)


def can_read(reader: AvroSchema, writer: AvroSchema) -> list[str]:
    return _Checker(reader, writer).check(reader.parsed, writer.parsed, "")
