"""Protobuf schemas: parsing (.proto text with proto-schema-parser, or a base64
``FileDescriptorProto`` as confluent-kafka's ProtobufSerializer sends) and
Confluent's documented compatibility rules.

Both inputs become one model: the file's package and, per message (by full
name), its fields by number with name, kind (a scalar type name, or
``message``/``enum``/``named`` with the type's name) , label and oneof. A
base64 descriptor is stored as sent, so
``format=serialized`` (what the Python deserializer asks for) returns it as is.

``can_read(reader, writer)`` applies Confluent's Protobuf rules, which are the
same in both directions: a message type that the writer had and the reader
lacks is refused (MESSAGE_REMOVED), a field number whose scalar type changed
outside Protobuf's wire-compatible groups (int32/uint32/int64/uint64/bool,
sint32/sint64, fixed32/sfixed32, fixed64/sfixed64, string/bytes) or whose
kind changed (scalar <-> message <-> enum) or whose named type changed, a
field moved into an existing oneof, and a changed package are refused. Fields
added or removed and renamed are compatible.

.proto text is kept in the forms Confluent's registry compares
(``protoform``: comments and layout do not count, ``normalize=true`` also
sorts options, fields by number and imports, writes type names fully
qualified and synthetic map entry messages as ``map<k, v>``).

With ``normalize`` a base64 descriptor is stored as its normalized ``.proto``
text, so a schema registered once as text and once as a descriptor gets one
id then (as Confluent's registry, which keeps every schema as text).

What it does not do: give one id to a schema registered once as text and once
as a descriptor without ``normalize`` (the stored forms differ), carry options
across conversions (a descriptor's options are lost when it is normalized).
"""

from __future__ import annotations

import base64
import binascii
import logging
from dataclasses import dataclass, field

from google.protobuf import descriptor_pb2
from google.protobuf.message import DecodeError

from kwire.registry.types import protoconv, protoform

log = logging.getLogger("kwire.registry")

_SCALARS = {"double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
            "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"}
_GROUPS = [{"int32", "uint32", "int64", "uint64", "bool"}, {"sint32", "sint64"},
           {"fixed32", "sfixed32"}, {"fixed64", "sfixed64"}, {"string", "bytes"}]
_FDP = descriptor_pb2.FieldDescriptorProto
_TYPE_NAMES = {v: k[len("TYPE_"):].lower() for k, v in _FDP.Type.items()}


@dataclass
class Field:
    name: str
    kind: str  # a scalar name, "message", "enum", "named" (imported, kind unknown), "map"
    type_name: str = ""
    oneof: str | None = None


@dataclass
class Model:
    package: str = ""
    messages: dict[str, dict[int, Field]] = field(default_factory=dict)
    enums: set[str] = field(default_factory=set)


class ProtobufSchema:
    schema_type = "PROTOBUF"

    def __init__(self, text: str, model: Model, source, serialized: bool, references: list) -> None:
        self.text = text
        self.model = model
        self.source = source  # the FileDescriptorProto (serialized) or proto-schema-parser's File
        self.serialized = serialized
        self.references = references  # [(import name, ProtobufSchema)], dependencies first
        self.canonical = self._normalized = text.strip()
        external: dict = {}
        for _, ref in references:  # the types that the file's imports define
            external.update(dict.fromkeys(ref.model.messages, "message"))
            external.update(dict.fromkeys(ref.model.enums, "enum"))
        try:
            if not serialized:  # .proto text: Confluent's printed forms (protoform)
                self.canonical, self._normalized = protoform.forms(source, external)
            else:  # normalized, a descriptor is the .proto text it converts to, normalized
                f = _from_text(protoconv.descriptor_to_text(source), [ref.model for _, ref in references])[1]
                self._normalized = protoform.forms(f, external)[1]
        except Exception as e:  # the printer failing on a construct: compare the text as sent
            log.warning("a .proto schema could not be printed (%s): kept as sent", e)

    def normalized(self) -> str:
        return self._normalized

    def descriptor(self, name: str = "default"):
        if self.serialized:
            return self.source
        deps = {n: ref.descriptor(n) for n, ref in self.references}
        return protoconv.text_to_descriptor(self.source, name, deps)

    def as_text(self) -> str:
        """The .proto text (Confluent's default answer)."""
        return protoconv.descriptor_to_text(self.source) if self.serialized else self.text

    def as_serialized(self) -> str:
        """A base64 FileDescriptorProto (``?format=serialized``)."""
        if self.serialized:
            return self.canonical
        return base64.b64encode(self.descriptor().SerializeToString()).decode("ascii")


def parse(text: str, references: list, strict: bool = True) -> ProtobufSchema:
    """``references``: [(import name, ProtobufSchema)] of the referenced schemas; ``strict``: refuse
    undefined types and imports that are not references (off for schemas already stored)."""
    stripped = text.strip()
    if stripped and not any(c in stripped for c in " ;{\n"):
        try:
            raw = base64.b64decode(stripped, validate=True)
            fdp = descriptor_pb2.FileDescriptorProto()
            fdp.ParseFromString(raw)
        except (binascii.Error, DecodeError, ValueError) as e:
            raise ValueError(f"Invalid Protobuf schema: not a base64 FileDescriptorProto: {e}") from None
        return ProtobufSchema(text, _from_descriptor(fdp), fdp, True, list(references))
    model, f = _from_text(text, [ref.model for _, ref in references],
                          {name for name, _ in references} if strict else None)
    return ProtobufSchema(text, model, f, False, list(references))


def _from_descriptor(fdp) -> Model:
    model = Model(fdp.package)
    entries: dict[str, str] = {}  # full name of a synthetic map entry message -> "key,value"

    def type_of(f) -> str:
        t = _TYPE_NAMES.get(f.type, "unknown")
        return t if t in _SCALARS else f.type_name.lstrip(".")

    def collect(msgs, prefix: str) -> None:
        for m in msgs:
            full = f"{prefix}.{m.name}" if prefix else m.name
            if m.options.map_entry and len(m.field) == 2:
                entries[full] = ",".join(type_of(f) for f in sorted(m.field, key=lambda f: f.number))
            collect(m.nested_type, full)

    collect(fdp.message_type, fdp.package)

    def walk(msgs, prefix: str, enums=()) -> None:
        for e in enums:
            model.enums.add(f"{prefix}.{e.name}" if prefix else e.name)
        for m in msgs:
            full = f"{prefix}.{m.name}" if prefix else m.name
            fields: dict[int, Field] = {}
            oneofs = [o.name for o in m.oneof_decl]
            for f in m.field:
                t = _TYPE_NAMES.get(f.type, "unknown")
                kind = t if t in _SCALARS else ("message" if t in ("message", "group") else "enum")
                oneof = None
                if f.HasField("oneof_index") and not f.proto3_optional:
                    oneof = oneofs[f.oneof_index]
                if f.type_name.lstrip(".") in entries:
                    fields[f.number] = Field(f.name, "map", entries[f.type_name.lstrip(".")], oneof)
                else:
                    fields[f.number] = Field(f.name, kind, f.type_name.lstrip("."), oneof)
            if full not in entries:  # a map entry is part of its map field
                model.messages[full] = fields
            walk(m.nested_type, full, m.enum_type)

    walk(fdp.message_type, fdp.package, fdp.enum_type)
    return model


# files and types every Confluent registry knows without a reference (well-known types, its own)
_BUILT_IN_FILES = ("google/protobuf/", "confluent/")
_BUILT_IN_TYPES = ("google.protobuf.", "confluent.")


def _from_text(text: str, imported: list[Model], import_names: set[str] | None = None):
    """(model, parsed file). With ``import_names`` (the references' names) an import that is not
    among them and a type name that resolves to nothing are refused, as Confluent's registry
    refuses a schema it cannot build a descriptor of (built-in files and types excepted)."""
    from proto_schema_parser import ast
    from proto_schema_parser.parser import Parser

    from antlr4.error.ErrorListener import ErrorListener

    class _Raise(ErrorListener):
        # the ANTLR parser prints syntax errors and recovers; a registry refuses them
        def syntaxError(self, recognizer, offending, line, column, msg, e):  # noqa: N802
            raise ValueError(f"Invalid Protobuf schema: line {line}:{column} {msg}")

    def quiet(x) -> None:
        x.removeErrorListeners()
        x.addErrorListener(_Raise())

    try:
        f = Parser(setup_lexer=quiet, setup_parser=quiet).parse(text)
    except ValueError:
        raise
    except Exception as e:  # the ANTLR runtime's own error types
        raise ValueError(f"Invalid Protobuf schema: {e}") from None
    if not any(isinstance(e, (ast.Message, ast.Enum, ast.Service)) for e in f.file_elements):
        # the parser is lenient with garbage; a schema defines at least one type
        raise ValueError("Invalid Protobuf schema: no message, enum or service defined")
    package = next((e.name for e in f.file_elements if isinstance(e, ast.Package)), "")
    model = Model(package)
    # full name -> "message" | "enum" | (key, value) of a synthetic map entry message
    defined: dict[str, object] = protoform.defined_types(f.file_elements, package)
    model.enums = {n for n, kind in defined.items() if kind == "enum"}
    for m in imported:  # names of referenced files resolve too (not part of this model)
        for n in m.messages:
            defined.setdefault(n, "message")
        for n in m.enums:
            defined.setdefault(n, "enum")

    if import_names is not None:
        for e in f.file_elements:
            if isinstance(e, ast.Import) and e.name not in import_names and not e.name.startswith(_BUILT_IN_FILES):
                raise ValueError(f"Invalid Protobuf schema: import \"{e.name}\" is not one of the schema's "
                                 "references")

    def resolve(name: str, scope: str) -> tuple[str, str]:
        full = protoform.resolve(name, scope, defined)
        if full is not None:
            return full, defined[full]
        if import_names is not None and not name.lstrip(".").startswith(_BUILT_IN_TYPES):
            raise ValueError(f"Invalid Protobuf schema: type {name} used in {scope} is not defined in the "
                             "schema or its references")
        return name.lstrip("."), "named"

    def walk(elements, prefix: str) -> None:
        for e in elements:
            if not isinstance(e, ast.Message):
                continue
            full = f"{prefix}.{e.name}" if prefix else e.name
            fields: dict[int, Field] = {}

            def add(fe, oneof=None) -> None:
                if isinstance(fe, ast.MapField):
                    value = fe.value_type if fe.value_type in _SCALARS else resolve(fe.value_type, full)[0]
                    fields[fe.number] = Field(fe.name, "map", f"{fe.key_type},{value}", oneof)
                elif isinstance(fe, ast.Field):
                    if fe.type in _SCALARS:
                        fields[fe.number] = Field(fe.name, fe.type, "", oneof)
                    else:
                        tn, kind = resolve(fe.type, full)
                        if isinstance(kind, tuple):  # an explicit map entry: the same as map<k, v>
                            key, value = kind
                            if value not in _SCALARS:
                                value = resolve(value, tn.rsplit(".", 1)[0])[0]
                            fields[fe.number] = Field(fe.name, "map", f"{key},{value}", oneof)
                        else:
                            fields[fe.number] = Field(fe.name, kind, tn, oneof)

            for fe in e.elements:
                if isinstance(fe, ast.OneOf):
                    for sub in fe.elements:
                        add(sub, fe.name)
                else:
                    add(fe)
            if not isinstance(defined.get(full), tuple):  # a map entry is part of its map field
                model.messages[full] = fields
            walk(e.elements, full)

    walk(f.file_elements, package)
    return model, f


def _same_group(a: str, b: str) -> bool:
    return a == b or any(a in g and b in g for g in _GROUPS)


def can_read(reader: ProtobufSchema, writer: ProtobufSchema) -> list[str]:
    out: list[str] = []
    r, w = reader.model, writer.model
    if r.package != w.package:
        out.append(f"PACKAGE_CHANGED: '{w.package}' -> '{r.package}'")
    for name, wfields in w.messages.items():
        rfields = r.messages.get(name)
        if rfields is None:
            out.append(f"MESSAGE_REMOVED: #/{name}")
            continue
        for number, wf in wfields.items():
            rf = rfields.get(number)
            if rf is None:
                continue
            where = f"#/{name}/{number}"
            if wf.kind in _SCALARS and rf.kind in _SCALARS:
                if not _same_group(wf.kind, rf.kind):
                    out.append(f"FIELD_SCALAR_KIND_CHANGED: {where} {wf.kind} -> {rf.kind}")
            elif wf.kind != rf.kind and "named" not in (wf.kind, rf.kind):
                out.append(f"FIELD_KIND_CHANGED: {where} {wf.kind} -> {rf.kind}")
            elif wf.type_name != rf.type_name:
                out.append(f"FIELD_NAMED_TYPE_CHANGED: {where} {wf.type_name} -> {rf.type_name}")
            if rf.oneof is not None and wf.oneof is None and any(
                    f.oneof == rf.oneof for n, f in wfields.items() if n != number):
                out.append(f"FIELD_MOVED_TO_EXISTING_ONEOF: {where}")
    return out
