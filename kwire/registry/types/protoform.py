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
* normalized (``normalize=true``): also imports sorted, options sorted by
  name (file, message, field, enum, enum value, service, method), fields
  and oneof members sorted by number, oneofs by their first member's
  number, enum values by number then name, reserved ranges by start.

What it does not do: resolve type names to full names or drop synthetic map
entry messages, which Confluent's normalization also does (a type written
``Foo`` and ``.pkg.Foo`` stays two schemas here).
"""

from __future__ import annotations

import dataclasses

from proto_schema_parser import ast
from proto_schema_parser.generator import Generator

_FILE_ORDER = (ast.Package, ast.Import, ast.Option, ast.Message, ast.Enum, ast.Extension, ast.Service)
_MESSAGE_ORDER = (ast.Reserved, ast.Option, (ast.Field, ast.MapField), ast.OneOf, ast.Group,
                  ast.ExtensionRange, ast.Extension, ast.Message, ast.Enum)


def _rank(element, order) -> int:
    for i, kinds in enumerate(order):
        if isinstance(element, kinds):
            return i
    return len(order)


def _number(e) -> int:
    return getattr(e, "number", 0) or 0


def _opts(options: list, normalize: bool) -> list:
    return sorted(options, key=lambda o: o.name) if normalize else list(options)


def _reserved_start(e) -> int:
    ranges = getattr(e, "ranges", None) or []
    first = ranges[0] if ranges else None
    if first is None:
        return 1 << 31
    return int(str(first).split(" ")[0]) if not isinstance(first, int) else first


def _element(e, normalize: bool):
    """One element with comments dropped and its children laid out."""
    if isinstance(e, (ast.Field, ast.MapField)):
        return dataclasses.replace(e, options=_opts(e.options, normalize))
    if isinstance(e, ast.EnumValue):
        return dataclasses.replace(e, options=_opts(e.options, normalize))
    if isinstance(e, ast.Message):
        return dataclasses.replace(e, elements=_message_body(e.elements, normalize))
    if isinstance(e, ast.OneOf):
        kids = [_element(x, normalize) for x in e.elements if not isinstance(x, ast.Comment)]
        if normalize:
            kids.sort(key=lambda x: (not isinstance(x, ast.Option), getattr(x, "name", "") if
                                     isinstance(x, ast.Option) else _number(x)))
        return dataclasses.replace(e, elements=kids)
    if isinstance(e, ast.Enum):
        kids = [_element(x, normalize) for x in e.elements if not isinstance(x, ast.Comment)]
        kids.sort(key=lambda x: 0 if isinstance(x, ast.Option) else 1)  # options first, as Confluent
        if normalize:
            kids.sort(key=lambda x: (0, x.name, 0) if isinstance(x, ast.Option) else
                      (1, "", _number(x), getattr(x, "name", "")))
        return dataclasses.replace(e, elements=kids)
    if isinstance(e, (ast.Service, ast.Method, ast.Group, ast.Extension)):
        kids = [_element(x, normalize) for x in e.elements if not isinstance(x, ast.Comment)]
        if normalize:
            kids.sort(key=lambda x: (0, x.name) if isinstance(x, ast.Option) else (1, ""))
        return dataclasses.replace(e, elements=kids)
    return e


def _message_body(elements: list, normalize: bool) -> list:
    kids = [_element(x, normalize) for x in elements if not isinstance(x, ast.Comment)]
    kids.sort(key=lambda x: _rank(x, _MESSAGE_ORDER))  # stable: the written order within a kind
    if normalize:
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


def _file(f: ast.File, normalize: bool) -> ast.File:
    kids = [_element(x, normalize) for x in f.file_elements if not isinstance(x, ast.Comment)]
    kids.sort(key=lambda x: _rank(x, _FILE_ORDER))
    if normalize:
        kids.sort(key=lambda x: (_rank(x, _FILE_ORDER), x.name if isinstance(x, (ast.Import, ast.Option)) else ""))
    return dataclasses.replace(f, file_elements=kids)


def forms(f: ast.File) -> tuple[str, str]:
    """(canonical, normalized) texts of a parsed file."""
    gen = Generator()
    return gen.generate(_file(f, False)).strip() + "\n", gen.generate(_file(f, True)).strip() + "\n"
