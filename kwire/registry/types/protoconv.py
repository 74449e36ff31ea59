"""Between the two forms of a Protobuf schema: ``.proto`` text and a ``FileDescriptorProto``.

Confluent's registry answers ``.proto`` text by default and a base64
``FileDescriptorProto`` to ``?format=serialized`` (what confluent-kafka's
Python deserializer asks for), whichever form was registered. kwire stores
what was sent and converts on the way out:

* ``descriptor_to_text(fdp)``: syntax, package, imports, messages (nested
  messages and enums, oneofs, ``map<K, V>`` for map-entry types, proto3
  ``optional``), enums, services' methods. Type names are written fully
  qualified with a leading dot (valid .proto, never ambiguous).
* ``text_to_descriptor(file_ast, name, deps)``: the parsed file (from
  proto-schema-parser) with type names resolved against the file's own
  definitions and those of its references (``deps``: import name ->
  ``FileDescriptorProto``), scope by scope outward as protoc does; map fields
  become ``XxxEntry`` nested types; proto3 ``optional`` becomes a synthetic
  oneof. A name found nowhere is kept as a message type named as written.

Not carried over in either direction: options (field, message, file), comments,
extensions, reserved ranges and names, default values of proto2 fields.
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2

_F = descriptor_pb2.FieldDescriptorProto
_SCALAR_TYPES = {k[len("TYPE_"):].lower(): v for k, v in _F.Type.items()
                 if k not in ("TYPE_MESSAGE", "TYPE_ENUM", "TYPE_GROUP")}
_TYPE_NAMES = {v: k for k, v in _SCALAR_TYPES.items()}
_LABELS = {_F.LABEL_OPTIONAL: "optional", _F.LABEL_REQUIRED: "required", _F.LABEL_REPEATED: "repeated"}


# -- descriptor -> text -----------------------------------------------------------------------
def descriptor_to_text(fdp) -> str:
    proto3 = fdp.syntax == "proto3"
    out = [f'syntax = "{fdp.syntax or "proto2"}";']
    if fdp.package:
        out.append(f"package {fdp.package};")
    for dep in fdp.dependency:
        out.append(f'import "{dep}";')
    for m in fdp.message_type:
        _message(m, out, 0, proto3)
    for e in fdp.enum_type:
        _enum(e, out, 0)
    for s in fdp.service:
        out.append(f"service {s.name} {{")
        for m in s.method:
            cs = "stream " if m.client_streaming else ""
            ss = "stream " if m.server_streaming else ""
            out.append(f"  rpc {m.name}({cs}{m.input_type}) returns ({ss}{m.output_type});")
        out.append("}")
    return "\n".join(out) + "\n"


def _type(f) -> str:
    return f.type_name if f.type in (_F.TYPE_MESSAGE, _F.TYPE_ENUM, _F.TYPE_GROUP) else _TYPE_NAMES[f.type]


def _message(m, out: list[str], depth: int, proto3: bool) -> None:
    pad = "  " * depth
    out.append(f"{pad}message {m.name} {{")
    entries = {n.name: n for n in m.nested_type if n.options.map_entry}
    in_oneof: dict[int, list] = {}
    for f in m.field:
        if f.HasField("oneof_index") and not f.proto3_optional:
            in_oneof.setdefault(f.oneof_index, []).append(f)
    written_oneofs = set()
    for f in m.field:
        if f.HasField("oneof_index") and not f.proto3_optional:
            i = f.oneof_index
            if i in written_oneofs:
                continue
            written_oneofs.add(i)
            out.append(f"{pad}  oneof {m.oneof_decl[i].name} {{")
            for g in in_oneof[i]:
                out.append(f"{pad}    {_type(g)} {g.name} = {g.number};")
            out.append(f"{pad}  }}")
            continue
        entry = entries.get(f.type_name.rsplit(".", 1)[-1]) if f.type == _F.TYPE_MESSAGE else None
        if entry is not None and f.label == _F.LABEL_REPEATED:
            k, v = entry.field[0], entry.field[1]
            out.append(f"{pad}  map<{_type(k)}, {_type(v)}> {f.name} = {f.number};")
            continue
        if proto3:
            label = "repeated " if f.label == _F.LABEL_REPEATED else "optional " if f.proto3_optional else ""
        else:
            label = _LABELS[f.label] + " "
        out.append(f"{pad}  {label}{_type(f)} {f.name} = {f.number};")
    for n in m.nested_type:
        if not n.options.map_entry:
            _message(n, out, depth + 1, proto3)
    for e in m.enum_type:
        _enum(e, out, depth + 1)
    out.append(f"{pad}}}")


def _enum(e, out: list[str], depth: int) -> None:
    pad = "  " * depth
    out.append(f"{pad}enum {e.name} {{")
    for v in e.value:
        out.append(f"{pad}  {v.name} = {v.number};")
    out.append(f"{pad}}}")


# -- text -> descriptor -----------------------------------------------------------------------
def _defined(fdp) -> dict[str, str]:
    """Full name (no leading dot) -> "message" | "enum" of a descriptor's types."""
    out: dict[str, str] = {}

    def walk(msgs, enums, prefix: str) -> None:
        for e in enums:
            out[f"{prefix}.{e.name}".lstrip(".")] = "enum"
        for m in msgs:
            full = f"{prefix}.{m.name}".lstrip(".")
            out[full] = "message"
            walk(m.nested_type, m.enum_type, full)

    walk(fdp.message_type, fdp.enum_type, fdp.package)
    return out


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def text_to_descriptor(f, name: str, deps: dict[str, object]):
    from proto_schema_parser import ast

    fdp = descriptor_pb2.FileDescriptorProto(name=name, syntax=f.syntax or "proto2")
    proto3 = fdp.syntax == "proto3"
    fdp.package = next((e.name for e in f.file_elements if isinstance(e, ast.Package)), "")
    for e in f.file_elements:
        if isinstance(e, ast.Import):
            fdp.dependency.append(e.name)
    known: dict[str, str] = {}
    for dep in deps.values():
        known.update(_defined(dep))

    def collect(elements, prefix: str) -> None:
        for e in elements:
            if isinstance(e, ast.Message):
                full = f"{prefix}.{e.name}".lstrip(".")
                known[full] = "message"
                collect(e.elements, full)
            elif isinstance(e, ast.Enum):
                known[f"{prefix}.{e.name}".lstrip(".")] = "enum"

    collect(f.file_elements, fdp.package)

    def resolve(type_name: str, scope: str) -> tuple[str, str]:
        if type_name.startswith("."):
            return type_name, known.get(type_name[1:], "message")
        parts = scope.split(".") if scope else []
        while True:
            cand = ".".join(parts + [type_name])
            if cand in known:
                return "." + cand, known[cand]
            if not parts:
                return "." + type_name, "message"
            parts.pop()

    def set_type(fd, type_name: str, scope: str) -> None:
        if type_name in _SCALAR_TYPES:
            fd.type = _SCALAR_TYPES[type_name]
        else:
            fd.type_name, kind = resolve(type_name, scope)
            fd.type = _F.TYPE_ENUM if kind == "enum" else _F.TYPE_MESSAGE

    def enum(e, target) -> None:
        ed = target.add(name=e.name)
        for v in e.elements:
            if isinstance(v, ast.EnumValue):
                ed.value.add(name=v.name, number=v.number)

    def message(m, target, scope: str) -> None:
        md = target.add(name=m.name)
        full = f"{scope}.{m.name}".lstrip(".")

        def field(fe, oneof_index=None) -> None:
            if isinstance(fe, ast.MapField):
                entry = md.nested_type.add(name=_camel(fe.name) + "Entry")
                entry.options.map_entry = True
                k = entry.field.add(name="key", number=1, label=_F.LABEL_OPTIONAL)
                set_type(k, fe.key_type, full)
                v = entry.field.add(name="value", number=2, label=_F.LABEL_OPTIONAL)
                set_type(v, fe.value_type, full)
                md.field.add(name=fe.name, number=fe.number, label=_F.LABEL_REPEATED, type=_F.TYPE_MESSAGE,
                             type_name=f".{full}.{entry.name}")
                return
            fd = md.field.add(name=fe.name, number=fe.number, label=_F.LABEL_OPTIONAL)
            card = getattr(fe.cardinality, "value", fe.cardinality)
            if card == "REPEATED":
                fd.label = _F.LABEL_REPEATED
            elif card == "REQUIRED":
                fd.label = _F.LABEL_REQUIRED
            set_type(fd, fe.type, full)
            if oneof_index is not None:
                fd.oneof_index = oneof_index
            elif card == "OPTIONAL" and proto3:
                fd.proto3_optional = True
                synthetic.append(fd)

        synthetic: list = []
        for e in m.elements:
            if isinstance(e, (ast.Field, ast.MapField)):
                field(e)
            elif isinstance(e, ast.OneOf):
                md.oneof_decl.add(name=e.name)
                for sub in e.elements:
                    if isinstance(sub, (ast.Field, ast.MapField)):
                        field(sub, len(md.oneof_decl) - 1)
            elif isinstance(e, ast.Message):
                message(e, md.nested_type, full)
            elif isinstance(e, ast.Enum):
                enum(e, md.enum_type)
        for fd in synthetic:  # protoc puts proto3 optional fields' oneofs after the real ones
            md.oneof_decl.add(name="_" + fd.name)
            fd.oneof_index = len(md.oneof_decl) - 1

    for e in f.file_elements:
        if isinstance(e, ast.Message):
            message(e, fdp.message_type, fdp.package)
        elif isinstance(e, ast.Enum):
            enum(e, fdp.enum_type)
    return fdp
