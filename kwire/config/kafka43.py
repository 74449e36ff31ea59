"""Kafka 4.3's whole configuration surface, as structural facts: ``kafka43_configs.json``.

What it does
------------
``kafka43_configs.json`` (beside this module) lists every broker, topic and
group config name Kafka 4.3 documents, each with its type, default, valid
values and (brokers) dynamic update mode; topic entries name their "server
default property". Nothing else is taken from Kafka: no descriptions.
``load()`` reads it; ``config_def(kind, row)`` turns a row into a ``ConfigDef``
with a validator derived from the valid-values column (``[a,...]``,
``[a,...,b]``, ``[x, y]``, ``(case insensitive) [...]``, ``[1,...,9] or -1``,
``non-empty string``...); ``definitions`` uses it to add every name kwire does
not define itself, so AlterConfigs accepts and DescribeConfigs reports them.

How the file is built (``python -m kwire.config.kafka43``)
----------------------------------------------------------
The facts come from Kafka 4.3's generated configuration pages (the
``43/configuration/{broker,topic,group}-configs`` pages of the Kafka web
site, which Kafka generates from its ``ConfigDef`` tables). Two inputs are
accepted and give the same JSON:

* ``--html broker.html topic.html group.html``: the saved pages; each
  ``<h4>name</h4> ... <th>Type:</th><td>...</td>`` block becomes a row;
* ``--lines broker.txt topic.txt group.txt``: one ``name|type|default|valid|mode``
  line per config (topics: the last column is the server default property),
  which is how the checked-in file was made: the pages were read in a
  session without network access and their table cells transcribed.

``--check`` re-reads the JSON and verifies its shape (every row parses into a
ConfigDef, no duplicates); the unit tests run the same check.

What it deliberately does not do
--------------------------------
No prose: kwire writes its own one-line documentation. No internal or
``listener.name.*``-prefixed configs (Kafka does not document them either).
No I/O at import beyond reading the JSON once.

Invariants
----------
* Every row has five string cells; ``default`` is the docs' text (``null``,
  ``""`` for empty, empty cell = no default, i.e. required in Kafka).
* Update modes are ``read-only``, ``per-broker`` or ``cluster-wide``.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

from .types import DOUBLE_MAX, ConfigDef, ConfigType, OneOf, Range, _gzip_level, _invalid

JSON_PATH = Path(__file__).with_name("kafka43_configs.json")
KINDS = ("broker", "topic", "group")
MODES = ("read-only", "per-broker", "cluster-wide")

_TYPES = {"boolean": ConfigType.BOOLEAN, "string": ConfigType.STRING, "int": ConfigType.INT,
          "short": ConfigType.SHORT, "long": ConfigType.LONG, "double": ConfigType.DOUBLE,
          "list": ConfigType.LIST, "class": ConfigType.CLASS, "password": ConfigType.PASSWORD}

NOT_ACTED = ("Kafka 4.3 config. kwire accepts, stores and reports it, but does not act on it.")


def load(path: Path = JSON_PATH) -> dict[str, list[list[str]]]:
    """The facts: ``{"broker": rows, "topic": rows, "group": rows}`` (plus ``source``)."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


# ---------------------------------------------------------------- rows -> ConfigDef

def _number(text: str) -> float:
    return float(text) if any(c in text for c in ".E") else int(text)


class _CaseInsensitiveOneOf(OneOf):
    def __call__(self, name: str, value: Any) -> None:
        items = value if self.each else [value]
        allowed = {v.lower() for v in self.values}
        for item in items:
            if str(item).lower() not in allowed:
                raise _invalid(name, item, "String must be one of (case insensitive): "
                               + ", ".join(self.values))


def _non_empty_string(name: str, value: Any) -> None:
    if value is not None and not str(value).strip():
        raise _invalid(name, value, "String must be non-empty")


def _non_empty_list(name: str, value: Any) -> None:
    if value is not None and (not value or any(not item for item in value)):
        raise _invalid(name, ",".join(value or []), "Empty list")


_RANGE = re.compile(r"\[(-?[0-9.E]+),\.\.\.(?:,(-?[0-9.E]+))?\]\Z")
_ENUM = re.compile(r"\[([^\[\]]*)\]\Z")


def validator(valid: str, type_: ConfigType) -> Callable[[str, Any], None] | None:
    """A validator for the docs' "Valid Values" text; None when there is nothing to check."""
    v = valid.strip()
    if not v:
        return None
    if v == "[1,...,9] or -1":
        return _gzip_level
    m = _RANGE.match(v)
    if m:
        return Range(_number(m.group(1)), _number(m.group(2)) if m.group(2) else None)
    if v == "non-empty string":
        return _non_empty_string
    if v == "non-empty list":
        return _non_empty_list
    insensitive = v.startswith("(case insensitive) ")
    m = _ENUM.match(v.removeprefix("(case insensitive) "))
    if m and "..." not in v and ":" not in m.group(1):
        values = tuple(s.strip() for s in m.group(1).split(","))
        cls = _CaseInsensitiveOneOf if insensitive else OneOf
        return cls(*values, each=type_ is ConfigType.LIST)
    return None  # free text (e.g. "non-null string", by_duration:...): not checked


def default_value(text: str, type_: ConfigType) -> Any:
    """The typed default for the docs' "Default" text (empty or ``null`` = None)."""
    if text in ("", "null"):
        return None
    if text == '""':
        return [] if type_ is ConfigType.LIST else ""
    if type_ is ConfigType.BOOLEAN:
        return text == "true"
    if type_ in (ConfigType.INT, ConfigType.SHORT, ConfigType.LONG):
        return int(text)
    if type_ is ConfigType.DOUBLE:
        return DOUBLE_MAX if text == "1.7976931348623157E308" else float(text)
    if type_ is ConfigType.LIST:
        return [s.strip() for s in text.split(",")]
    return text


def config_def(row: list[str], doc: str = NOT_ACTED) -> ConfigDef:
    """A ConfigDef for one broker or group row (group rows have an empty mode: dynamic)."""
    name, type_text, default, valid, mode = row
    type_ = _TYPES[type_text]
    return ConfigDef(name, type_, default_value(default, type_), validator(valid, type_), doc,
                     read_only=mode == "read-only", per_broker=mode == "per-broker", acted=False)


def check(facts: dict[str, Any]) -> list[str]:
    """Problems with the facts' shape (empty when fine)."""
    problems = []
    for kind in KINDS:
        names = [row[0] for row in facts[kind]]
        if len(set(names)) != len(names):
            problems.append(f"{kind}: duplicate names")
        for row in facts[kind]:
            if len(row) != 5 or not all(isinstance(c, str) for c in row):
                problems.append(f"{kind}: malformed row {row!r}")
                continue
            if row[1] not in _TYPES:
                problems.append(f"{kind}: {row[0]}: unknown type {row[1]}")
            if kind == "broker" and row[4] not in MODES:
                problems.append(f"broker: {row[0]}: unknown update mode {row[4]}")
            try:
                config_def(row if kind != "topic" else row[:4] + [""])
            except Exception as e:  # noqa: BLE001 - reported, not raised
                problems.append(f"{kind}: {row[0]}: {e}")
    return problems


# ---------------------------------------------------------------- building the JSON

_BLOCK = re.compile(r"<h4>.*?>([a-z0-9._-]+)</a></h4>(.*?)</table>", re.S)
_CELL = re.compile(r"<th>([^<]+):</th><td>(.*?)</td>", re.S)
_UNIT = re.compile(r" \([0-9.]+ [a-z]+\)\Z")  # "60000 (1 minute)" -> "60000"


def rows_from_html(text: str, kind: str) -> list[list[str]]:
    """Rows from one of Kafka's generated config pages."""
    rows = []
    for name, body in _BLOCK.findall(text):
        cells = {k.strip(): html.unescape(re.sub(r"<[^>]+>", "", v)).strip()
                 for k, v in _CELL.findall(body)}
        last = cells.get("Server Default Property", "") if kind == "topic" else cells.get("Update Mode", "")
        rows.append([name, cells.get("Type", ""), _UNIT.sub("", cells.get("Default", "")),
                     cells.get("Valid Values", ""), last])
    return rows


def rows_from_lines(lines: Iterable[str]) -> list[list[str]]:
    out = []
    for line in lines:
        line = line.rstrip("\n")
        if line.strip() and not line.startswith("#"):
            cells = line.split("|")
            out.append(cells + [""] * (5 - len(cells)))
    return out


def dump(facts: dict[str, Any]) -> str:
    """The JSON text, one config per line so diffs stay readable."""
    head = {k: v for k, v in facts.items() if k not in KINDS}
    parts = [json.dumps(head, indent=1)[:-2] + ","]
    for i, kind in enumerate(KINDS):
        rows = ",\n".join("  " + json.dumps(row) for row in facts[kind])
        parts.append(f' "{kind}": [\n{rows}\n ]' + ("," if i < len(KINDS) - 1 else ""))
    return "\n".join(parts) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kwire.config.kafka43", description=__doc__.split("\n")[0])
    src = p.add_mutually_exclusive_group()
    src.add_argument("--html", nargs=3, metavar=("BROKER", "TOPIC", "GROUP"))
    src.add_argument("--lines", nargs=3, metavar=("BROKER", "TOPIC", "GROUP"))
    p.add_argument("--check", action="store_true", help="verify the checked-in JSON")
    p.add_argument("-o", "--output", default=str(JSON_PATH))
    args = p.parse_args(argv)
    if args.html or args.lines:
        facts: dict[str, Any] = {
            "source": "Apache Kafka 4.3 generated configuration docs (broker, topic, group "
                      "configs); structural facts only: name, type, default, valid values, "
                      "update mode / server default property.",
            "columns": ["name", "type", "default", "valid_values", "update_mode_or_server_default"],
        }
        for kind, path in zip(KINDS, args.html or args.lines):
            text = Path(path).read_text(encoding="utf-8")
            facts[kind] = rows_from_html(text, kind) if args.html else rows_from_lines(text.splitlines())
        problems = check(facts)
        if problems:
            print("\n".join(problems), file=sys.stderr)
            return 1
        Path(args.output).write_text(dump(facts), encoding="utf-8")
        print(f"wrote {args.output}: " + ", ".join(f"{len(facts[k])} {k}" for k in KINDS))
        return 0
    problems = check(load(Path(args.output)))
    print("\n".join(problems) or "ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
