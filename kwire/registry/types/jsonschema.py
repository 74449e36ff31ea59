"""JSON Schema schemas: parsing (the ``jsonschema`` package) and Confluent's compatibility rules.

``parse`` requires a JSON object or boolean that the validator of its
``$schema`` draft (Draft 7 when absent) accepts (``check_schema``). References
are other registered JSON schemas, addressed in ``$ref`` by the reference's
``name``; ``resolver`` gives a ``referencing.Registry`` holding them, so a
serializer's validation can resolve them.

``can_read(reader, writer)`` follows the rules Confluent documents for JSON
Schema (its ``JsonSchemaDiff``): the reader must accept every document the
writer accepts. Checked, recursively through ``properties``, ``items`` and
``additionalProperties``: the ``type`` set may only grow (integer -> number is
a widening); ``enum`` may only gain values; ``required`` may only lose names
(a property the reader requires and the writer did not is refused); max* bounds may only grow and min* bounds only shrink;
``additionalProperties`` may not narrow (true -> false); a property added to an
open content model (the writer allowed additional properties) is refused,
since a writer document may already hold that name with another type; a
property removed from a closed content model (``additionalProperties:
false``) is refused. Combined schemas (``oneOf``/``anyOf``/``allOf``) and
``$ref`` targets are compared as whole JSON values: a difference there is
reported as incompatible (stricter than Confluent, never looser).
"""

from __future__ import annotations

import json

import jsonschema
import jsonschema.validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

_BOUNDS_MAX = ("maxLength", "maxItems", "maxProperties", "maximum", "exclusiveMaximum")
_BOUNDS_MIN = ("minLength", "minItems", "minProperties", "minimum", "exclusiveMinimum")
_COMBINED = ("oneOf", "anyOf", "allOf", "not", "$ref", "if", "then", "else", "const", "pattern",
             "patternProperties", "dependencies", "dependentRequired", "dependentSchemas", "format")


class JsonSchema:
    schema_type = "JSON"

    def __init__(self, raw, references: list) -> None:
        self.raw = raw
        self.canonical = json.dumps(raw, separators=(",", ":"), ensure_ascii=False)
        self.references = references  # [(name, JsonSchema)]

    def normalized(self) -> str:
        return json.dumps(self.raw, separators=(",", ":"), ensure_ascii=False, sort_keys=True)

    def resolver(self) -> Registry:
        resources = [(name, Resource.from_contents(ref.raw, default_specification=DRAFT7))
                     for name, ref in self.references]
        return Registry().with_resources(resources)


def parse(text: str, references: list) -> JsonSchema:
    """``references``: [(name, JsonSchema)] of the referenced schemas."""
    try:
        raw = json.loads(text)
    except ValueError as e:
        raise ValueError(f"Invalid JSON schema: not JSON: {e}") from None
    if not isinstance(raw, (dict, bool)):
        raise ValueError("Invalid JSON schema: a schema is a JSON object or a boolean")
    cls = jsonschema.validators.validator_for(raw, default=jsonschema.Draft7Validator) \
        if isinstance(raw, dict) else jsonschema.Draft7Validator
    try:
        cls.check_schema(raw)
    except jsonschema.SchemaError as e:
        raise ValueError(f"Invalid JSON schema: {e.message}") from None
    return JsonSchema(raw, list(references))


def _types(s: dict) -> set[str] | None:
    t = s.get("type")
    if t is None:
        return None  # any type
    return {t} if isinstance(t, str) else set(t)


def _open(s: dict) -> bool:
    return s.get("additionalProperties", True) is not False


def _check(r, w, path: str, out: list[str]) -> None:
    if r is True or r == {}:
        return
    if w is True or w == {}:
        if r is not True and r != {}:
            out.append(f"{path}: the reader restricts what the writer allowed without restriction")
        return
    if r is False or w is False:
        if r is False and w is not False:
            out.append(f"{path}: the reader accepts nothing")
        return
    for k in _COMBINED:
        if r.get(k) != w.get(k):
            out.append(f"{path}/{k}: changed ({k} must stay the same)")
    rt, wt = _types(r), _types(w)
    if rt is not None:
        if wt is None:
            out.append(f"{path}/type: the reader restricts the type to {sorted(rt)}")
        else:
            for t in wt - rt:
                if not (t == "integer" and "number" in rt):
                    out.append(f"{path}/type: type {t} is no longer accepted")
    if "enum" in r:
        if "enum" not in w:
            out.append(f"{path}/enum: an enum was added")
        else:
            missing = [v for v in w["enum"] if v not in r["enum"]]
            if missing:
                out.append(f"{path}/enum: values {missing} were removed")
    for k in _BOUNDS_MAX:
        if k in r and (k not in w or w[k] > r[k]):
            out.append(f"{path}/{k}: narrowed to {r[k]}")
    for k in _BOUNDS_MIN:
        if k in r and (k not in w or w[k] < r[k]):
            out.append(f"{path}/{k}: narrowed to {r[k]}")
    if "multipleOf" in r and r.get("multipleOf") != w.get("multipleOf"):
        out.append(f"{path}/multipleOf: changed")
    if "uniqueItems" in r and r["uniqueItems"] and not w.get("uniqueItems"):
        out.append(f"{path}/uniqueItems: added")
    # objects
    rp, wp = r.get("properties", {}), w.get("properties", {})
    for name in set(r.get("required", ())) - set(w.get("required", ())):
        out.append(f"{path}/required/{name}: property '{name}' became required")
    for name, rs in rp.items():
        if name in wp:
            _check(rs, wp[name], f"{path}/properties/{name}", out)
        elif _open(w):
            out.append(f"{path}/properties/{name}: property added to an open content model")
        elif not _open(r):
            pass  # the writer could not have written it
    for name, ws in wp.items():
        if name not in rp:
            ra = r.get("additionalProperties", True)
            if ra is False:
                out.append(f"{path}/properties/{name}: property removed from a closed content model")
            elif isinstance(ra, dict):
                _check(ra, ws, f"{path}/properties/{name}", out)
    ra, wa = r.get("additionalProperties", True), w.get("additionalProperties", True)
    if ra is False and wa is not False:
        out.append(f"{path}/additionalProperties: narrowed to false")
    elif isinstance(ra, dict) and wa is not False:
        _check(ra, wa, f"{path}/additionalProperties", out)
    # arrays
    if "items" in r or "items" in w:
        ri, wi = r.get("items", True), w.get("items", True)
        if isinstance(ri, list) or isinstance(wi, list):
            if ri != wi:
                out.append(f"{path}/items: tuple items changed")
        else:
            _check(ri, wi, f"{path}/items", out)


def can_read(reader: JsonSchema, writer: JsonSchema) -> list[str]:
    out: list[str] = []
    _check(reader.raw, writer.raw, "#", out)
    return out
