"""The two texts of a ``.proto`` schema that Confluent's registry compares: canonical and normalized.

Confluent's registry parses ``.proto`` text and stores and compares what its
printer (``ProtobufSchemaUtils.toString``) writes back, not the text sent.
``forms(file)`` gives both for a file parsed by proto-schema-parser, printed
by proto-schema-parser's own ``Generator``:

* canonical (``normalize`` off): comments dropped, whitespace the printer's,
  and the layout of Confluent's printer: in a file syntax, package, imports,
  options, messages, enums, extends, services; in a message reserved ranges,
  options, fields, oneofs, groups, extension ranges, extends, nested
  messages, nested enums, each kind in the order written. So comments,
  blank lines, and where a nested type or an option sits among the fields do
  not make two schemas differ; the order of fields, of options and of
  messages does (a message's index in the file is part of the wire format of
  Confluent's Protobuf serializer).
* normalized (``normalize=true``, Confluent's ``ProtobufSchema.normalize``):
  also imports sorted and deduplicated, options sorted by name (file,
  message, field, enum, enum value, service, method) and the fields of
  message-literal option values by name, fields and oneof members sorted by
  number, oneofs by their first member's number, enum values by number then
  name, reserved ranges by start; every message or enum type a field, a map
  value or an rpc names written fully qualified with a leading dot
  (``Foo``, ``pkg.Foo`` and ``.pkg.Foo`` are one type); a field whose type is a
  synthetic map entry message (``option map_entry = true;`` with ``key = 1``
  and ``value = 2``, what a descriptor carries for a ``map<k, v>``) written
  as ``map<k, v>``, and the entry message left out. Names resolve against the
  file's own types and those of its references (``external``); a name that
  resolves to nothing is left as written.

What it does not do: normalize inside ``extend`` blocks and groups (printed
as written), or print text byte for byte as Confluent's Java printer does
(the two texts are compared with each other, never with Confluent's).
"""

from __future__ import annotations

import dataclasses

from proto_schema_parser import ast
from proto_schema_parser.generator import Generator

_FILE_ORDER = (ast.Package, ast.Import, ast.Option, ast.Message, ast.Enum, ast.Extension, ast.Service)
_MESSAGE_ORDER = (ast.Reserved, ast.Option, (ast.Field, ast.MapField), ast.OneOf, ast.Group,
                  ast.ExtensionRange, ast.Extension, ast.Message, ast.Enum)


_SCALARS = frozenset({"double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
                      "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"})


def defined_types(elements, prefix: str, out: dict[str, object] | None = None) -> dict[str, object]:
    """Full name (no leading dot) -> ``"enum"``, ``"message"``, or for a synthetic map entry
    message its ``(key_type, value_type)``, of the messages and enums in ``elements``."""
    out = {} if out is None else out
    for e in elements:
        if isinstance(e, ast.Message):
            full = f"{prefix}.{e.name}" if prefix else e.name
            out[full] = _map_entry(e) or "message"
            defined_types(e.elements, full, out)
        elif isinstance(e, ast.Enum):
            out[f"{prefix}.{e.name}" if prefix else e.name] = "enum"
    return out


def _map_entry(m) -> tuple[str, str] | None:
    if not any(isinstance(x, ast.Option) and x.name == "map_entry" and x.value is True for x in m.elements):
        return None
    fields = {x.number: x for x in m.elements if isinstance(x, ast.Field)}
    if set(fields) != {1, 2}:
        return None
    return fields[1].type, fields[2].type


def resolve(name: str, scope: str, known: dict) -> str | None:
    """The full name (no leading dot) that a type ``name`` used inside ``scope`` (a package or
    message full name) refers to, by protobuf's scoping rules (innermost scope first); None when
    ``known`` has no such type."""
    if name.startswith("."):
        return name[1:] if name[1:] in known else None
    parts = scope.split(".") if scope else []
    while True:
        cand = ".".join(parts + [name])
        if cand in known:
            return cand
        if not parts:
            return None
        parts.pop()


class _Names:
    """Normalization's type table: this file's types and its references'."""

    def __init__(self, f: ast.File, external: dict) -> None:
        package = next((e.name for e in f.file_elements if isinstance(e, ast.Package)), "")
        self.known = dict(external)
        self.known.update(defined_types(f.file_elements, package))
        self.package = package

    def qualified(self, name: str, scope: str) -> str:
        if name in _SCALARS:
            return name
        full = resolve(name, scope, self.known)
        return name if full is None else "." + full

    def field(self, e, scope: str):
        """A Field (or MapField) with its types fully qualified; a map-entry-typed one as a map."""
        if isinstance(e, ast.MapField):
            return dataclasses.replace(e, value_type=self.qualified(e.value_type, scope))
        if e.type in _SCALARS:
            return e
        full = resolve(e.type, scope, self.known)
        if full is None:
            return e
        entry = self.known[full]
        if isinstance(entry, tuple):  # a synthetic map entry: map<key, value>, no label
            entry_scope = full.rsplit(".", 1)[0]
            return ast.MapField(name=e.name, number=e.number, key_type=entry[0],
                                value_type=self.qualified(entry[1], entry_scope), options=e.options)
        return dataclasses.replace(e, type="." + full)


def _rank(element, order) -> int:
    for i, kinds in enumerate(order):
        if isinstance(element, kinds):
            return i
    return len(order)


def _number(e) -> int:
    return getattr(e, "number", 0) or 0


def _opts(options: list, names) -> list:
    if names is None:
        return list(options)
    return sorted((dataclasses.replace(o, value=_literal(o.value)) for o in options), key=lambda o: o.name)


def _literal(value):
    """A message-literal option value with its fields sorted by name (normalize), recursively."""
    if isinstance(value, ast.MessageLiteral):
        kids = [dataclasses.replace(x, value=_literal(x.value)) if isinstance(x, ast.MessageLiteralField) else x
                for x in value.elements]
        kids.sort(key=lambda x: getattr(x, "name", ""))
        return dataclasses.replace(value, elements=kids)
    return value


def _reserved_start(e) -> int:
    ranges = getattr(e, "ranges", None) or []
    first = ranges[0] if ranges else None
    if first is None:
        return 1 << 31
    return int(str(first).split(" ")[0]) if not isinstance(first, int) else first


def _element(e, names: _Names | None, scope: str):
    """One element with comments dropped and its children laid out; ``names`` is None for the
    canonical form, the type table for the normalized one; ``scope`` the enclosing full name."""
    normalize = names is not None
    if isinstance(e, (ast.Field, ast.MapField)):
        e = names.field(e, scope) if normalize else e
        return dataclasses.replace(e, options=_opts(e.options, names))
    if isinstance(e, ast.EnumValue):
        return dataclasses.replace(e, options=_opts(e.options, names))
    if isinstance(e, ast.Option):
        return dataclasses.replace(e, value=_literal(e.value)) if normalize else e
    if isinstance(e, ast.Message):
        inner = f"{scope}.{e.name}" if scope else e.name
        return dataclasses.replace(e, elements=_message_body(e.elements, names, inner))
    if isinstance(e, ast.OneOf):
        kids = [_element(x, names, scope) for x in e.elements if not isinstance(x, ast.Comment)]
        if normalize:
            kids.sort(key=lambda x: (not isinstance(x, ast.Option), getattr(x, "name", "") if
                                     isinstance(x, ast.Option) else _number(x)))
        return dataclasses.replace(e, elements=kids)
    if isinstance(e, ast.Enum):
        kids = [_element(x, names, scope) for x in e.elements if not isinstance(x, ast.Comment)]
        kids.sort(key=lambda x: 0 if isinstance(x, ast.Option) else 1)  # options first, as Confluent
        if normalize:
            kids.sort(key=lambda x: (0, x.name, 0) if isinstance(x, ast.Option) else
                      (1, "", _number(x), getattr(x, "name", "")))
        return dataclasses.replace(e, elements=kids)
    if isinstance(e, ast.Method) and normalize:
        e = dataclasses.replace(
            e, input_type=dataclasses.replace(e.input_type, type=names.qualified(e.input_type.type, scope)),
            output_type=dataclasses.replace(e.output_type, type=names.qualified(e.output_type.type, scope)))
    if isinstance(e, (ast.Service, ast.Method, ast.Group, ast.Extension)):
        kids = [_element(x, names, scope) for x in e.elements if not isinstance(x, ast.Comment)]
        if normalize:
            kids.sort(key=lambda x: (0, x.name) if isinstance(x, ast.Option) else (1, ""))
        return dataclasses.replace(e, elements=kids)
    return e


def _message_body(elements: list, names: _Names | None, scope: str) -> list:
    if names is not None:  # the synthetic map entries are printed as map<k, v> fields instead
        elements = [x for x in elements if not (isinstance(x, ast.Message) and
                                                isinstance(names.known.get(f"{scope}.{x.name}"), tuple))]
    kids = [_element(x, names, scope) for x in elements if not isinstance(x, ast.Comment)]
    kids.sort(key=lambda x: _rank(x, _MESSAGE_ORDER))  # stable: the written order within a kind
    if names is not None:
        def key(x):
            r = _rank(x, _MESSAGE_ORDER)
            if isinstance(x, ast.Option):
                return (r, x.name, 0)
            if isinstance(x, (ast.Field, ast.MapField)):
                return (r, "", _number(x))
            if isinstance(x, ast.OneOf):
                return (r, "", min((_number(f) for f in x.elements if hasattr(f, "number")), default=0))
            if isinstance(x, ast.Reserved):
                return (r, "", _reserved_start(x))
            return (r, "", 0)
        kids.sort(key=key)
    return kids


def _file(f: ast.File, names: _Names | None) -> ast.File:
    scope = names.package if names is not None else ""
    elements = f.file_elements
    if names is not None:
        elements = [x for x in elements if not (isinstance(x, ast.Message) and isinstance(
            names.known.get(f"{scope}.{x.name}" if scope else x.name), tuple))]
        seen: set = set()  # duplicate imports count once
        elements = [x for x in elements if not isinstance(x, ast.Import) or
                    ((x.name, x.public) not in seen and not seen.add((x.name, x.public)))]
    kids = [_element(x, names, scope) for x in elements if not isinstance(x, ast.Comment)]
    kids.sort(key=lambda x: _rank(x, _FILE_ORDER))
    if names is not None:
        kids.sort(key=lambda x: (_rank(x, _FILE_ORDER), x.name if isinstance(x, (ast.Import, ast.Option)) else ""))
    return dataclasses.replace(f, file_elements=kids)


def forms(f: ast.File, external: dict | None = None) -> tuple[str, str]:
    """(canonical, normalized) texts of a parsed file; ``external``: full name -> kind of the
    types its references define (``defined_types`` of theirs)."""
    gen = Generator()
    return (gen.generate(_file(f, None)).strip() + "\n",
            gen.generate(_file(f, _Names(f, external or {}))).strip() + "\n")
