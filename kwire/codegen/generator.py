"""Write ``kwire/protocol/generated/`` from the schema model.

For each message we emit one module holding

* a ``__slots__`` class per struct (the message itself, its inline structs
  and its ``commonStructs``) with a keyword constructor, ``__eq__`` and
  ``__repr__``;
* flat functions ``_d_<Struct>_v<N>(buf, pos)`` / ``_e_<Struct>_v<N>(o, out,
  parts)`` per struct and version.  Versions whose code would be identical
  share one function (children are generated first, so a parent only differs
  when its own layout or a child's differs);
* entry points ``decode_v<N>(buf, pos=0) -> (obj, pos)`` and
  ``encode_v<N>(obj, out, parts) -> None`` plus ``DECODERS``/``ENCODERS``;
* ``FIELDS``: per struct, each field's attribute, type, version range and
  entity type, for code that must walk any message generically
  (``kwire.protocol.error_response`` builds the error response to any request).

Consecutive fixed-width fields are read and written with one precompiled
``struct.Struct``.  The codec never interprets the schema at run time.

``generated/__init__.py`` is a small index (api key -> names, version range,
listeners) that ``kwire.protocol.codec`` reads without importing any message
module.
"""

from __future__ import annotations

from pathlib import Path

from .model import FIXED_FORMATS, FIXED_SIZES, Field, Message, Struct, broker_api_pairs, load_all

HEADER_LINE = "# Generated from protocol_specs by kwire.codegen -- do not edit."
GENERATED_DIR = Path(__file__).resolve().parents[1] / "protocol" / "generated"

_PRIM_READERS = {
    # (type, compact, nullable) -> reader name
    ("string", False, False): "_r_str", ("string", False, True): "_r_nstr",
    ("string", True, False): "_r_cstr", ("string", True, True): "_r_cnstr",
    ("bytes", False, False): "_r_bytes", ("bytes", False, True): "_r_nbytes",
    ("bytes", True, False): "_r_cbytes", ("bytes", True, True): "_r_cnbytes",
}
_PRIM_WRITERS = {
    ("string", False, False): "_w_str", ("string", False, True): "_w_nstr",
    ("string", True, False): "_w_cstr", ("string", True, True): "_w_cnstr",
    ("bytes", False, False): "_w_bytes", ("bytes", False, True): "_w_nbytes",
    ("bytes", True, False): "_w_cbytes", ("bytes", True, True): "_w_cnbytes",
}
_ARRAY_LEN_READERS = {
    (False, False): "_r_alen", (False, True): "_r_nalen",
    (True, False): "_r_calen", (True, True): "_r_cnalen",
}

_IMPORTS = """\
from struct import Struct as _Struct

from kwire.protocol.primitives import (
    FieldVersionError as _FieldVersionError,
    ZERO_UUID as _ZERO_UUID,
    read_array_len as _r_alen,
    read_bytes as _r_bytes,
    read_compact_array_len as _r_calen,
    read_compact_bytes as _r_cbytes,
    read_compact_nullable_array_len as _r_cnalen,
    read_compact_nullable_bytes as _r_cnbytes,
    read_compact_nullable_string as _r_cnstr,
    read_compact_records as _r_crecords,
    read_compact_string as _r_cstr,
    read_fixed_array as _r_fixed,
    read_nullable_array_len as _r_nalen,
    read_nullable_bytes as _r_nbytes,
    read_nullable_string as _r_nstr,
    read_records as _r_records,
    read_string as _r_str,
    read_tags as _r_tags,
    read_uuid as _r_uuid,
    read_uvarint as _r_uvarint,
    struct_repr as _repr,
    tag_overrun as _tag_overrun,
    write_bytes as _w_bytes,
    write_compact_bytes as _w_cbytes,
    write_compact_nullable_bytes as _w_cnbytes,
    write_compact_nullable_string as _w_cnstr,
    write_compact_records as _w_crecords,
    write_compact_string as _w_cstr,
    write_fixed_array as _w_fixed,
    write_nullable_bytes as _w_nbytes,
    write_nullable_string as _w_nstr,
    write_records as _w_records,
    write_string as _w_str,
    write_tags as _w_tags,
    write_uvarint as _w_uvarint,
)

_new = object.__new__
_MISSING = object()
_P_len = _Struct(">i").pack
"""


def _fmt_key(fmt: str) -> str:
    """struct format characters -> identifier suffix ('?' is bool)."""
    return fmt.replace("?", "o")


class _ModuleWriter:
    def __init__(self, msg: Message):
        self.msg = msg
        self.formats: set[str] = set()
        # classes get ``unknown_tagged_fields`` when any version is flexible
        self.has_unknown = not msg.flexible_versions.empty
        self.funcs: list[str] = []
        self.dec_canon: dict[tuple[str, int], str] = {}
        self.enc_canon: dict[tuple[str, int], str] = {}
        self.dec_seen: dict[tuple[str, str], str] = {}
        self.enc_seen: dict[tuple[str, str], str] = {}
        self.struct_defaults_used: set[str] = set()

    # -- helpers ---------------------------------------------------------------

    def default_expr(self, f: Field, for_compare: bool = False) -> str:
        d = f.python_default()
        if d == "ZERO_UUID":
            return "_ZERO_UUID"
        if d == "STRUCT":
            if for_compare:
                self.struct_defaults_used.add(f.struct.name)
                return f"_DEF_{f.struct.name}"
            return f"{f.struct.name}()"
        if isinstance(d, list):
            return "[]"
        return repr(d)

    def unpack_name(self, fmt: str) -> str:
        self.formats.add(fmt)
        return f"_U_{_fmt_key(fmt)}"

    def pack_name(self, fmt: str) -> str:
        self.formats.add(fmt)
        return f"_P_{_fmt_key(fmt)}"

    # -- per-field decode/encode snippets -----------------------------------------

    def decode_value(self, f: Field, v: int, flex: bool, target: str, buf: str, ind: str) -> list[str]:
        t = f.type
        compact = f.compact(v, flex)
        nullable = f.nullable(v)
        if t in FIXED_FORMATS:
            return [f"{ind}({target},) = {self.unpack_name(FIXED_FORMATS[t])}({buf}, pos)",
                    f"{ind}pos += {FIXED_SIZES[t]}"]
        if t in ("string", "bytes"):
            return [f"{ind}{target}, pos = {_PRIM_READERS[(t, compact, nullable)]}({buf}, pos)"]
        if t == "records":
            return [f"{ind}{target}, pos = {'_r_crecords' if compact else '_r_records'}({buf}, pos)"]
        if t == "uuid":
            return [f"{ind}{target}, pos = _r_uuid({buf}, pos)"]
        if f.is_struct:
            fn = self.dec_canon[(f.struct.name, v)]
            if nullable:
                return [f"{ind}if {buf}[pos] >= 0x80:",
                        f"{ind}    {target} = None",
                        f"{ind}    pos += 1",
                        f"{ind}else:",
                        f"{ind}    {target}, pos = {fn}({buf}, pos + 1)"]
            return [f"{ind}{target}, pos = {fn}({buf}, pos)"]
        # arrays
        lines = [f"{ind}n, pos = {_ARRAY_LEN_READERS[(compact, nullable)]}({buf}, pos)"]
        body_ind = ind
        if nullable:
            lines += [f"{ind}if n is None:", f"{ind}    {target} = None", f"{ind}else:"]
            body_ind = ind + "    "
        et = f.elem_type
        if et in FIXED_FORMATS:
            lines.append(f"{body_ind}{target}, pos = _r_fixed({buf}, pos, n, {FIXED_FORMATS[et]!r})")
            return lines
        if f.is_struct_array:
            reader = self.dec_canon[(f.struct.name, v)]
        elif et in ("string", "bytes"):
            reader = _PRIM_READERS[(et, compact, False)]
        elif et == "uuid":
            reader = "_r_uuid"
        elif et == "records":
            reader = "_r_crecords" if compact else "_r_records"
        else:  # pragma: no cover - schema has no other element types
            raise ValueError(f"unsupported array element {et}")
        lines += [f"{body_ind}a = []",
                  f"{body_ind}for _ in range(n):",
                  f"{body_ind}    e, pos = {reader}({buf}, pos)",
                  f"{body_ind}    a.append(e)",
                  f"{body_ind}{target} = a"]
        return lines

    def encode_value(self, f: Field, v: int, flex: bool, src: str, out: str, ind: str) -> list[str]:
        """Encode the Python expression ``src`` (a simple name) into ``out``."""
        t = f.type
        compact = f.compact(v, flex)
        nullable = f.nullable(v)
        if t in FIXED_FORMATS:
            return [f"{ind}{out} += {self.pack_name(FIXED_FORMATS[t])}({src})"]
        if t in ("string", "bytes"):
            return [f"{ind}{_PRIM_WRITERS[(t, compact, nullable)]}({out}, {src})"]
        if t == "records":
            return [f"{ind}{'_w_crecords' if compact else '_w_records'}({out}, parts, {src})"]
        if t == "uuid":
            return [f"{ind}{out} += {src}.bytes"]
        if f.is_struct:
            fn = self.enc_canon[(f.struct.name, v)]
            if nullable:
                return [f"{ind}if {src} is None:",
                        f"{ind}    {out}.append(255)",
                        f"{ind}else:",
                        f"{ind}    {out}.append(1)",
                        f"{ind}    {fn}({src}, {out}, parts)"]
            return [f"{ind}{fn}({src}, {out}, parts)"]
        lines = []
        body_ind = ind
        if nullable:
            lines += [f"{ind}if {src} is None:",
                      f"{ind}    {out}.append(0)" if compact else f"{ind}    {out} += b'\\xff\\xff\\xff\\xff'",
                      f"{ind}else:"]
            body_ind = ind + "    "
        if compact:
            lines.append(f"{body_ind}_w_uvarint({out}, len({src}) + 1)")
        else:
            lines.append(f"{body_ind}{out} += _P_len(len({src}))")
        et = f.elem_type
        if et in FIXED_FORMATS:
            lines.append(f"{body_ind}_w_fixed({out}, {FIXED_FORMATS[et]!r}, {src})")
            return lines
        if f.is_struct_array:
            fn = self.enc_canon[(f.struct.name, v)]
            lines += [f"{body_ind}for e in {src}:", f"{body_ind}    {fn}(e, {out}, parts)"]
        elif et in ("string", "bytes"):
            lines += [f"{body_ind}for e in {src}:",
                      f"{body_ind}    {_PRIM_WRITERS[(et, compact, False)]}({out}, e)"]
        elif et == "uuid":
            lines += [f"{body_ind}for e in {src}:", f"{body_ind}    {out} += e.bytes"]
        elif et == "records":
            w = "_w_crecords" if compact else "_w_records"
            lines += [f"{body_ind}for e in {src}:", f"{body_ind}    {w}({out}, parts, e)"]
        return lines

    # -- per-struct, per-version functions -----------------------------------------

    def _split(self, st: Struct, v: int, flex: bool):
        regular, tagged, absent = [], [], []
        for f in st.fields:
            if not f.present(v):
                absent.append(f)
            elif flex and f.tagged(v):
                tagged.append(f)
            else:
                regular.append(f)
        tagged.sort(key=lambda f: f.tag)
        return regular, tagged, absent

    def gen_decode(self, st: Struct, v: int) -> list[str]:
        flex = self.msg.flexible(v)
        regular, tagged, absent = self._split(st, v, flex)
        lines = [f"    o = _new({st.name})"]
        run: list[Field] = []

        def flush():
            if not run:
                return
            fmt = "".join(FIXED_FORMATS[f.type] for f in run)
            size = sum(FIXED_SIZES[f.type] for f in run)
            targets = ", ".join(f"o.{f.attr}" for f in run)
            lines.append(f"    ({targets},) = {self.unpack_name(fmt)}(buf, pos)")
            lines.append(f"    pos += {size}")
            run.clear()

        for f in regular:
            if f.type in FIXED_FORMATS:
                run.append(f)
                continue
            flush()
            lines += self.decode_value(f, v, flex, f"o.{f.attr}", "buf", "    ")
        flush()
        for f in absent:
            lines.append(f"    o.{f.attr} = {self.default_expr(f)}")
        if flex:
            if not tagged:
                # nearly every struct carries no tagged field: one byte 0, read without a call
                lines += ["    if buf[pos]:",
                          "        o.unknown_tagged_fields, pos = _r_tags(buf, pos)",
                          "    else:",
                          "        o.unknown_tagged_fields = {}",
                          "        pos += 1"]
            else:
                for f in tagged:
                    lines.append(f"    o.{f.attr} = {self.default_expr(f)}")
                lines += [
                    "    u = None",
                    "    nt, pos = _r_uvarint(buf, pos)",
                    "    for _ in range(nt):",
                    "        tag, pos = _r_uvarint(buf, pos)",
                    "        size, pos = _r_uvarint(buf, pos)",
                    "        end = pos + size",
                    "        if end > len(buf):",
                    "            raise _tag_overrun(size, len(buf) - pos)",
                ]
                for i, f in enumerate(tagged):
                    kw = "if" if i == 0 else "elif"
                    lines.append(f"        {kw} tag == {f.tag}:")
                    lines.append("            sub = buf[:end]")
                    lines += self.decode_value(f, v, flex, f"o.{f.attr}", "sub", "            ")
                lines += [
                    "        else:",
                    "            if u is None:",
                    "                u = {}",
                    "            u[tag] = bytes(buf[pos:end])",
                    "        pos = end",
                    "    o.unknown_tagged_fields = {} if u is None else u",
                ]
        elif self.has_unknown:
            lines.append("    o.unknown_tagged_fields = {}")
        lines.append("    return o, pos")
        return lines

    def gen_encode(self, st: Struct, v: int) -> list[str]:
        flex = self.msg.flexible(v)
        regular, tagged, absent = self._split(st, v, flex)
        lines = []
        for f in absent:
            if f.ignorable:
                continue
            d = self.default_expr(f, for_compare=True)
            if d == "None":
                cond = f"o.{f.attr} is not None"
            elif d.startswith("_DEF_"):  # the shared default itself needs no __eq__ call
                cond = f"o.{f.attr} is not {d} and o.{f.attr} != {d}"
            else:
                cond = f"o.{f.attr} != {d}"
            lines += [f"    if {cond}:",
                      f"        raise _FieldVersionError({st.name + '.' + f.name!r}, {f.versions.text!r})"]
        if not flex and self.has_unknown:
            lines += ["    if o.unknown_tagged_fields:",
                      f"        raise _FieldVersionError({st.name!r}, 'tags')"]
        run: list[Field] = []

        def flush():
            if not run:
                return
            fmt = "".join(FIXED_FORMATS[f.type] for f in run)
            args = ", ".join(f"o.{f.attr}" for f in run)
            lines.append(f"    out += {self.pack_name(fmt)}({args})")
            run.clear()

        for f in regular:
            if f.type in FIXED_FORMATS:
                run.append(f)
                continue
            flush()
            lines += self._null_guard(st, f, v)
            if f.is_array or (f.is_struct and f.nullable(v)):
                # the value is used more than once: load the attribute once
                lines.append(f"    x = o.{f.attr}")
                lines += self.encode_value(f, v, flex, "x", "out", "    ")
            else:
                lines += self.encode_value(f, v, flex, f"o.{f.attr}", "out", "    ")
        flush()
        if flex:
            if not tagged:
                lines += ["    u = o.unknown_tagged_fields",
                          "    if u:",
                          "        _w_tags(out, None, u)",
                          "    else:",
                          "        out.append(0)"]
            else:
                lines.append("    t = []")
                for f in tagged:
                    d = self.default_expr(f, for_compare=True)
                    if d == "None":
                        cond = "x is not None"
                    elif d.startswith("_DEF_"):  # the shared default itself needs no __eq__ call
                        cond = f"x is not {d} and x != {d}"
                    else:
                        cond = f"x != {d}"
                    lines += [f"    x = o.{f.attr}", f"    if {cond}:", "        b = bytearray()"]
                    lines += self.encode_value(f, v, flex, "x", "b", "        ")
                    lines.append(f"        t.append(({f.tag}, b))")
                lines.append("    _w_tags(out, t, o.unknown_tagged_fields)")
        if not lines:
            lines.append("    pass")
        return lines

    def _null_guard(self, st: Struct, f: Field, v: int) -> list[str]:
        """A clear error for None in a version where the field is not nullable."""
        if f.nullable_versions.empty or f.nullable(v) or f.type == "records":
            return []
        return [f"    if o.{f.attr} is None:",
                f"        raise _FieldVersionError({st.name + '.' + f.name!r}, 'null')"]

    def emit_struct_versions(self, st: Struct, versions: list[int]) -> None:
        for v in versions:
            for kind, gen, canon, seen in (("d", self.gen_decode, self.dec_canon, self.dec_seen),
                                           ("e", self.gen_encode, self.enc_canon, self.enc_seen)):
                body = "\n".join(gen(st, v))
                key = (st.name, body)
                if key in seen:
                    canon[(st.name, v)] = seen[key]
                    continue
                name = f"_{kind}_{st.name}_v{v}"
                seen[key] = name
                canon[(st.name, v)] = name
                sig = "(buf, pos)" if kind == "d" else "(o, out, parts)"
                self.funcs.append(f"def {name}{sig}:\n{body}\n")

    # -- classes ---------------------------------------------------------------------

    def gen_class(self, st: Struct) -> str:
        slots = [f.attr for f in st.fields]
        if self.has_unknown:
            slots.append("unknown_tagged_fields")
        params, assigns = [], []
        for f in st.fields:
            a = f.attr
            d = f.python_default()
            if d == "STRUCT" or isinstance(d, list):
                sentinel = "_MISSING" if not f.nullable_versions.empty else "None"
                params.append(f"{a}={sentinel}")
                fresh = "[]" if isinstance(d, list) else f"{f.struct.name}()"
                cmp = "is _MISSING" if sentinel == "_MISSING" else "is None"
                assigns.append(f"        self.{a} = {fresh} if {a} {cmp} else {a}")
            else:
                params.append(f"{a}={self.default_expr(f)}")
                assigns.append(f"        self.{a} = {a}")
        if self.has_unknown:
            params.append("unknown_tagged_fields=None")
            assigns.append("        self.unknown_tagged_fields = {} if unknown_tagged_fields is None "
                           "else unknown_tagged_fields")
        if st is self.msg.root:
            doc = f"{self.msg.name}, versions {st.versions.text}."
        else:
            doc = f"{st.name} struct of {self.msg.name}, versions {st.versions.text}."
        lines = [f"class {st.name}:",
                 f'    """{doc}"""',
                 "",
                 f"    __slots__ = ({''.join(repr(s) + ', ' for s in slots).rstrip()})",
                 ""]
        if params:
            lines.append(f"    def __init__(self, *, {', '.join(params)}):")
            lines += assigns
        else:
            lines += ["    def __init__(self):", "        pass"]
        lines += ["", "    __repr__ = _repr", "",
                  "    def __eq__(self, other):",
                  "        if other.__class__ is not self.__class__:",
                  "            return NotImplemented"]
        if slots:
            conds = [f"self.{s} == other.{s}" for s in slots]
            lines.append("        return (" + conds[0])
            for c in conds[1:]:
                lines.append(f"                and {c}")
            lines[-1] += ")"
        else:
            lines.append("        return True")
        lines += ["", "    __hash__ = None"]
        return "\n".join(lines) + "\n"

    # -- module ------------------------------------------------------------------------

    def needed(self) -> dict[str, list[int]]:
        """struct name -> versions in which it is reachable (root included)."""
        need: dict[str, set[int]] = {}

        def walk(st: Struct, v: int):
            if v in need.setdefault(st.name, set()):
                return
            need[st.name].add(v)
            for f in st.fields:
                if f.struct is not None and f.present(v):
                    walk(f.struct, v)

        for v in self.msg.versions:
            walk(self.msg.root, v)
        return {k: sorted(s) for k, s in need.items()}

    def post_order(self) -> list[Struct]:
        order: list[Struct] = []
        seen: set[str] = set()

        def visit(st: Struct):
            if st.name in seen:
                return
            seen.add(st.name)
            for f in st.fields:
                if f.struct is not None:
                    visit(f.struct)
            order.append(st)

        visit(self.msg.root)
        for st in self.msg.structs.values():
            visit(st)
        return order

    def render(self) -> str:
        msg = self.msg
        need = self.needed()
        structs = self.post_order()
        for st in structs:
            if st.name in need:
                self.emit_struct_versions(st, need[st.name])
        classes = [self.gen_class(st) for st in reversed(structs)]
        root = msg.root.name
        entry = []
        for v in msg.versions:
            entry.append(
                f"def decode_v{v}(buf, pos=0):\n"
                f"    if buf.__class__ is not memoryview:\n"
                f"        buf = memoryview(buf)\n"
                f"    return {self.dec_canon[(root, v)]}(buf, pos)\n")
            entry.append(
                f"def encode_v{v}(obj, out, parts):\n"
                f"    try:\n"
                f"        {self.enc_canon[(root, v)]}(obj, out, parts)\n"
                f"    except _FieldVersionError as exc:\n"
                f"        raise exc.at({root!r}, {v}) from None\n")
        vs = list(msg.versions)
        flex_min = msg.flexible_min
        doc_bits = [f"{msg.name}"]
        if msg.api_key is not None:
            doc_bits.append(f"(api key {msg.api_key})")
        doc = (f'"""{" ".join(doc_bits)}: versions {vs[0]}-{vs[-1]}, '
               f'flexible {"from v" + str(flex_min) if flex_min is not None else "never"}."""')
        formats = sorted(self.formats)
        fmt_lines = []
        for fmt in formats:
            k = _fmt_key(fmt)
            fmt_lines.append(f"_S_{k} = _Struct({'>' + fmt!r})")
            fmt_lines.append(f"_U_{k} = _S_{k}.unpack_from")
            fmt_lines.append(f"_P_{k} = _S_{k}.pack")
        defaults = [f"_DEF_{n} = {n}()" for n in sorted(self.struct_defaults_used)]
        fields = self.render_fields(structs, need, vs[-1])
        parts = [
            HEADER_LINE + "\n" + doc + "\n",
            _IMPORTS + ("\n".join(fmt_lines) + "\n" if fmt_lines else ""),
            "\n\n".join(classes),
            ("\n".join(defaults) + "\n") if defaults else "",
            "\n\n".join(self.funcs),
            "\n\n".join(entry),
            (f"MESSAGE = {root}\n"
             f"VERSIONS = range({vs[0]}, {vs[-1] + 1})\n"
             f"FLEXIBLE_MIN = {flex_min!r}\n"
             f"DECODERS = {{{', '.join(f'{v}: decode_v{v}' for v in vs)}}}\n"
             f"ENCODERS = {{{', '.join(f'{v}: encode_v{v}' for v in vs)}}}\n"),
            fields,
        ]
        return "\n\n".join(p.rstrip("\n") + "\n" for p in parts if p)


    def render_fields(self, structs: list[Struct], need: dict[str, list[int]], last: int) -> str:
        """``FIELDS``: the schema facts code outside the codec may walk (error responses).

        struct name -> ((attr, type, first version, last version, entity type), ...)
        in schema order, for every struct used by some version; the last
        version is clipped to the message's.
        """
        lines = ["# struct -> ((attr, type, first version, last version, entity type), ...)",
                 "FIELDS = {"]
        for st in reversed(structs):
            if st.name not in need:
                continue
            lines.append(f"    {st.name!r}: (")
            for f in st.fields:
                if f.versions.empty:
                    continue
                lines.append(f"        ({f.attr!r}, {f.type!r}, {f.versions.lo}, "
                             f"{min(f.versions.hi, last)}, {f.entity_type!r}),")
            lines.append("    ),")
        lines.append("}")
        return "\n".join(lines) + "\n"


def generated_messages(messages: dict[str, Message]) -> list[Message]:
    """Messages we emit code for: broker API pairs, both headers, data schemas."""
    out = []
    for req, resp in broker_api_pairs(messages):
        out += [req, resp]
    out += [messages["RequestHeader"], messages["ResponseHeader"]]
    out += [m for m in messages.values() if m.type == "data"]
    return out


def render_index(messages: dict[str, Message]) -> str:
    lines = [HEADER_LINE,
             '"""Index of the generated message modules (no message module is imported here).',
             "",
             "APIS: api key -> (name, request module, request class, response module,",
             "      response class, min version, max version, flexible min version or None,",
             "      listeners, latest version unstable).",
             "REQUEST_FLEXIBLE_MIN: api key -> first flexible request version, for every",
             "      request in the specs (broker or not), to pick request header versions.",
             "DATA: schema name -> module of the non-API (data) schemas.",
             '"""',
             "",
             "APIS = {"]
    for req, resp in broker_api_pairs(messages):
        vs = list(req.versions)
        name = req.name[: -len("Request")]
        lines.append(
            f"    {req.api_key}: ({name!r}, {req.module_name!r}, {req.name!r}, {resp.module_name!r}, "
            f"{resp.name!r}, {vs[0]}, {vs[-1]}, {req.flexible_min!r}, {tuple(req.listeners)!r}, "
            f"{req.latest_version_unstable!r}),")
    lines.append("}")
    lines.append("")
    lines.append("REQUEST_FLEXIBLE_MIN = {")
    reqs = sorted((m for m in messages.values() if m.type == "request"), key=lambda m: m.api_key)
    for m in reqs:
        lines.append(f"    {m.api_key}: {m.flexible_min!r},  # {m.name}")
    lines.append("}")
    lines.append("")
    lines.append("DATA = {")
    for m in messages.values():
        if m.type == "data":
            lines.append(f"    {m.name!r}: {m.module_name!r},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_all(spec_dir: Path | None = None) -> dict[str, str]:
    """file name -> source text for everything under ``generated/``."""
    messages = load_all(spec_dir) if spec_dir else load_all()
    files = {"__init__.py": render_index(messages)}
    for msg in generated_messages(messages):
        files[f"{msg.module_name}.py"] = _ModuleWriter(msg).render()
    return files
