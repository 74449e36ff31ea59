"""The two texts of an Avro schema that Confluent's registry compares: canonical and normalized.

* ``canonical(raw)``: what Avro's Java ``Schema.toString()`` prints for the
  parsed schema, which Confluent's registry stores and compares when
  ``normalize`` is off: compact JSON, keys in Java's order (``type``,
  ``name``, ``namespace`` only where it differs from the enclosing one,
  ``doc``, ``fields`` / ``symbols`` / ``size`` / ``items`` / ``values``,
  ``default``, other properties in the order given, ``aliases``), a
  primitive without properties as its bare name (``{"type":"int"}`` is
  ``"int"``), named types referred to relative to the enclosing namespace,
  a field's ``order`` only when it is not ``ascending``. So whitespace, key
  order and the spelling of names do not make two schemas differ; anything
  else (docs, defaults, aliases, properties, field order) does.
* ``normalized(raw)``: Confluent's ``normalize=true`` form
  (``AvroSchemaUtils.toNormalizedString``): the same, but names always full
  (no ``namespace`` key), ``name`` before ``type``, properties sorted by key
  and aliases sorted. Unlike Avro's Parsing Canonical Form it keeps docs,
  defaults, aliases and properties: schemas differing in them are different
  schemas to Confluent's registry.

Input is the JSON value of a schema already checked by fastavro. What it
does not do: turn default values into the field type's JSON form (Java
prints a ``double`` default ``1`` as ``1.0``; here it stays as written).
"""

from __future__ import annotations

import json

PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}
_NAMED_KEYS = {"type", "name", "namespace", "doc", "aliases", "fields", "symbols", "size", "default"}
_FIELD_KEYS = {"name", "type", "doc", "default", "order", "aliases"}


def _j(v) -> str:
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def _full(name: str, space: str) -> str:
    return name if "." in name or not space else f"{space}.{name}"


class _Printer:
    def __init__(self, normalize: bool) -> None:
        self.normalize = normalize
        self.defined: set[str] = set()

    def props(self, s: dict, known: set) -> list[str]:
        keys = [k for k in s if k not in known]
        if self.normalize:
            keys.sort()
        return [f"{_j(k)}:{_j(s[k])}" for k in keys]

    def aliases(self, aliases) -> list[str]:
        if not aliases:
            return []
        return [f'"aliases":{_j(sorted(aliases) if self.normalize else list(aliases))}']

    def ref(self, full: str, space: str) -> str:
        ns, _, short = full.rpartition(".")
        return _j(full if self.normalize or ns != space else short)

    def schema(self, s, space: str) -> str:
        if isinstance(s, str):
            return _j(s) if s in PRIMITIVES else self.ref(_full(s, space), space)
        if isinstance(s, list):
            return "[" + ",".join(self.schema(b, space) for b in s) + "]"
        t = s.get("type")
        if not isinstance(t, str):  # {"type": {...}}: the inner schema
            return self.schema(t, space)
        if t in PRIMITIVES:
            extra = self.props(s, {"type"})
            return _j(t) if not extra else "{" + ",".join([f'"type":{_j(t)}'] + extra) + "}"
        if t in ("array", "map"):
            inner = "items" if t == "array" else "values"
            parts = [f'"type":"{t}"', f'"{inner}":{self.schema(s[inner], space)}']
            return "{" + ",".join(parts + self.props(s, {"type", inner})) + "}"
        if t not in ("record", "error", "enum", "fixed"):
            return self.schema(t, space)  # {"type": "some.Named"}: a reference
        return self.named(s, t, space)

    def named(self, s: dict, t: str, space: str) -> str:
        name = s["name"]
        ns = name.rpartition(".")[0] if "." in name else (s.get("namespace") or space or "")
        full = _full(name.rpartition(".")[2], ns)
        if full in self.defined:
            return self.ref(full, space)
        self.defined.add(full)
        if self.normalize:
            parts = [f'"name":{_j(full)}', f'"type":"{t}"']
        else:
            parts = [f'"type":"{t}"', f'"name":{_j(full.rpartition(".")[2])}']
            if ns != (space or ""):
                parts.append(f'"namespace":{_j(ns)}')
        if s.get("doc") is not None and not self.normalize:
            parts.append(f'"doc":{_j(s["doc"])}')
        if t == "enum":
            parts.append(f'"symbols":{_j(s["symbols"])}')
        elif t == "fixed":
            parts.append(f'"size":{_j(s["size"])}')
        else:
            parts.append('"fields":[' + ",".join(self.field(f, ns) for f in s["fields"]) + "]")
        tail = []
        if self.normalize and s.get("doc"):
            tail.append(f'"doc":{_j(s["doc"])}')
        if self.normalize:
            tail += self.aliases(s.get("aliases"))
        if t == "enum" and "default" in s:
            tail.append(f'"default":{_j(s["default"])}')
        tail += self.props(s, _NAMED_KEYS)
        if not self.normalize:
            tail += self.aliases(s.get("aliases"))
        return "{" + ",".join(parts + tail) + "}"

    def field(self, f: dict, space: str) -> str:
        parts = [f'"name":{_j(f["name"])}', f'"type":{self.schema(f["type"], space)}']
        order = f.get("order", "ascending")
        if self.normalize:
            if order != "ascending":
                parts.append(f'"order":{_j(order)}')
            if f.get("doc") is not None:
                parts.append(f'"doc":{_j(f["doc"])}')
            parts += self.aliases(f.get("aliases"))
            if "default" in f:
                parts.append(f'"default":{_j(f["default"])}')
        else:
            if f.get("doc") is not None:
                parts.append(f'"doc":{_j(f["doc"])}')
            if "default" in f:
                parts.append(f'"default":{_j(f["default"])}')
            if order != "ascending":
                parts.append(f'"order":{_j(order)}')
            parts += self.aliases(f.get("aliases"))
        return "{" + ",".join(parts + self.props(f, _FIELD_KEYS)) + "}"


def canonical(raw) -> str:
    return _Printer(False).schema(raw, "")


def normalized(raw) -> str:
    return _Printer(True).schema(raw, "")
